"""Draw Benchmarks/run's results (one or more results.json files) as one hand-written SVG.

Four panels: median wall time (top) and peak RSS (bottom) against the corpus's entries (left) and
bytes (right), both axes logarithmic. One colour per work; iapkg solid with round marks (dotted for
the tree layout), bsdtar dashed with square marks. Python 3 standard library only.

    python3 Benchmarks/scaling_svg.py OUT.svg results.json [more.json ...]
"""
import json
import math
import statistics
import sys
from xml.sax.saxutils import escape

WORK_COLOURS = {"build": "#1f77b4", "inspect": "#2ca02c", "validate": "#d62728", "unpack": "#9467bd"}
PANEL_W, PANEL_H, MARGIN_L, MARGIN_T, GAP_X, GAP_Y = 430, 260, 70, 50, 90, 80
LEGEND_H = 140


def series_from(documents):
    """{(work, tool, layout): {corpus name: point}}, a point being entries, bytes, seconds, MiB."""
    series = {}
    for doc in documents:
        for corpus in doc["corpora"]:
            for work, tools in corpus["works"].items():
                for tool, outcome in tools.items():
                    if outcome["status"] != "ok" or not outcome["seconds"]:
                        continue
                    layout = corpus.get("layout", "product") if tool == "iapkg" else ""
                    point = {"entries": corpus["entries"], "bytes": corpus["bytes"],
                             "seconds": statistics.median(outcome["seconds"]),
                             "mib": max(outcome["rss_kib"]) / 1024 if outcome["rss_kib"] else None}
                    series.setdefault((work, tool, layout), {})[corpus["label"]] = point
    return series


def log_ticks(low, high):
    """Powers of ten spanning [low, high]."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    if first == last:
        last += 1
    return [10.0 ** e for e in range(first, last + 1)]


def tick_text(value, unit):
    if unit == "bytes":
        for size, name in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
            if value >= size:
                return "%g %s" % (value / size, name)
        return "%g B" % value
    if value >= 1e6:
        return "%gM" % (value / 1e6)
    if value >= 1e3:
        return "%gk" % (value / 1e3)
    return "%g" % value


class Panel:
    """One log-log chart: maps data to pixels and draws its axes."""

    def __init__(self, x0, y0, xs, ys, xname, yname, xunit):
        self.x0, self.y0 = x0, y0
        self.xt, self.yt = log_ticks(min(xs), max(xs)), log_ticks(min(ys), max(ys))
        self.xname, self.yname, self.xunit = xname, yname, xunit

    def px(self, x):
        lo, hi = math.log10(self.xt[0]), math.log10(self.xt[-1])
        return self.x0 + (math.log10(x) - lo) / (hi - lo) * PANEL_W

    def py(self, y):
        lo, hi = math.log10(self.yt[0]), math.log10(self.yt[-1])
        return self.y0 + PANEL_H - (math.log10(y) - lo) / (hi - lo) * PANEL_H

    def axes(self):
        out = ['<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="none" stroke="#888"/>'
               % (self.x0, self.y0, PANEL_W, PANEL_H)]
        for t in self.xt:
            x = self.px(t)
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (x, self.y0, x, self.y0 + PANEL_H))
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>'
                       % (x, self.y0 + PANEL_H + 16, escape(tick_text(t, self.xunit))))
        for t in self.yt:
            y = self.py(t)
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (self.x0, y, self.x0 + PANEL_W, y))
            out.append('<text x="%.1f" y="%.1f" text-anchor="end">%s</text>' % (self.x0 - 6, y + 4, "%g" % t))
        out.append('<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>'
                   % (self.x0 + PANEL_W / 2, self.y0 + PANEL_H + 36, escape(self.xname)))
        out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>'
                   % (self.x0 + PANEL_W / 2, self.y0 - 10, escape(self.yname)))
        return out


def style(tool, layout):
    if tool != "iapkg":
        return 'stroke-dasharray="6 4"', "square"
    return ('stroke-dasharray="2 3"' if layout == "tree" else ""), "circle"


def mark(shape, x, y, colour):
    if shape == "square":
        return '<rect x="%.1f" y="%.1f" width="7" height="7" fill="%s"/>' % (x - 3.5, y - 3.5, colour)
    return '<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (x, y, colour)


def draw(series, title):
    """The whole SVG document as a string."""
    points = [p for s in series.values() for p in s.values()]
    if not points:
        raise ValueError("no measured outcome to draw")
    width = MARGIN_L + 2 * PANEL_W + GAP_X + 50
    height = MARGIN_T + 2 * PANEL_H + GAP_Y + LEGEND_H
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="11">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="14" font-weight="bold">%s</text>' % (MARGIN_L, escape(title))]
    for row, (key, yname) in enumerate((("seconds", "median wall time, s"), ("mib", "peak RSS, MiB"))):
        for col, (xkey, xname, unit) in enumerate((("entries", "entries in the corpus", "count"),
                                                   ("bytes", "bytes in the corpus", "bytes"))):
            usable = [p for p in points if p[key]]
            panel = Panel(MARGIN_L + col * (PANEL_W + GAP_X), MARGIN_T + row * (PANEL_H + GAP_Y),
                          [p[xkey] for p in usable], [p[key] for p in usable], xname, yname, unit)
            out += panel.axes()
            for (work, tool, layout), by_corpus in sorted(series.items()):
                colour = WORK_COLOURS.get(work, "#333")
                dash, shape = style(tool, layout)
                line = sorted((p[xkey], p[key]) for p in by_corpus.values() if p[key])
                if len(line) > 1:
                    coords = " ".join("%.1f,%.1f" % (panel.px(x), panel.py(y)) for x, y in line)
                    out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6" %s/>'
                               % (coords, colour, dash))
                out += [mark(shape, panel.px(x), panel.py(y), colour) for x, y in line]
    out += legend(series, MARGIN_T + 2 * PANEL_H + GAP_Y + 50)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def legend(series, top):
    out, x, y = [], MARGIN_L, top + 14
    for work, colour in WORK_COLOURS.items():
        out.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (x, y - 6, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 20, y, work))
        x += 110
    x, y = MARGIN_L, y + 24
    kinds = sorted({(tool, layout) for (_, tool, layout) in series})
    for tool, layout in kinds:
        dash, shape = style(tool, layout)
        name = tool + (" (%s layout)" % layout if layout else " (peer)")
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.6" %s/>'
                   % (x, y - 4, x + 30, y - 4, dash))
        out.append(mark(shape, x + 15, y - 4, "#333"))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 38, y, escape(name)))
        x += 200
    labels = sorted({label for s in series.values() for label in s})
    out.append('<text x="%d" y="%d">corpora: %s</text>' % (MARGIN_L, y + 24, escape(", ".join(labels))))
    return out


def write(path, documents):
    machine = documents[0].get("machine", "") if documents else ""
    title = "iapkg vs bsdtar: time and memory against entries and bytes" + (" (%s)" % machine.split(",")[0] if machine else "")
    text = draw(series_from(documents), title)
    with open(path, "w") as f:
        f.write(text)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    documents = []
    for name in argv[1:]:
        with open(name) as f:
            documents.append(json.load(f))
    write(argv[0], documents)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
