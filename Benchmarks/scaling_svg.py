"""Draw Benchmarks/run's results (one or more results.json files) as one hand-written SVG.

Each line is one family x tool x work: a family is one corpus shape at growing sizes (`Benchmarks/run
--scaling` writes one results file per family, each corpus tagged with its "family" and the "axis"
it grows along, entries or bytes). Columns: one per axis (entries, bytes); rows: median wall time
and peak RSS; both axes logarithmic, every measured point marked. One colour per work; iapkg solid
with round marks (dotted for the tree layout), bsdtar dashed with square marks. A run killed at the
per-run limit is a hollow triangle on the limit's line (and has no memory figure); a run that failed
or could not be made is a cross on the panel's top edge; both are listed under the drawing.

A results file without families (a plain `Benchmarks/run`) draws each corpus name as a family of
its own, against both axes. Python 3 standard library only.

    python3 Benchmarks/scaling_svg.py OUT.svg results.json [more.json ...]
"""
import json
import math
import statistics
import sys
from xml.sax.saxutils import escape

WORK_COLOURS = {"build": "#1f77b4", "inspect": "#2ca02c", "validate": "#d62728", "unpack": "#9467bd"}
AXES = {"entries": ("entries in the corpus", "count"), "bytes": ("bytes in the corpus", "bytes")}
PANEL_W, PANEL_H, MARGIN_L, MARGIN_T, GAP_X, GAP_Y = 430, 280, 70, 70, 90, 90
LEGEND_H = 110
NOTE_H = 16


class Series:
    """One family x work x tool: its points, measured or not."""

    def __init__(self, family, work, tool, layout, axes, shape):
        self.family, self.work, self.tool, self.layout, self.axes = family, work, tool, layout, axes
        self.shape = shape
        self.points = []

    def measured(self, xkey, ykey):
        return sorted((p[xkey], p[ykey]) for p in self.points if p["status"] == "ok" and p[ykey])

    def missing(self):
        return [p for p in self.points if p["status"] != "ok" and not p["detail"].startswith("--no-peer")]


def series_from(documents):
    """[Series], in the order first seen; a point has entries, bytes, seconds, mib, status, detail, limit."""
    found = {}
    for doc in documents:
        for corpus in doc["corpora"]:
            family = corpus.get("family", corpus["name"])
            axes = [corpus["axis"]] if corpus.get("axis") in AXES else list(AXES)
            for work, tools in corpus["works"].items():
                for tool, outcome in tools.items():
                    layout = corpus.get("layout", "product") if tool == "iapkg" else ""
                    key = (family, work, tool)
                    if key not in found:
                        found[key] = Series(family, work, tool, layout, axes, corpus.get("shape", family))
                    ok = outcome["status"] == "ok" and outcome["seconds"]
                    found[key].points.append({
                        "entries": corpus["entries"], "bytes": corpus["bytes"], "label": corpus.get("label", ""),
                        "seconds": statistics.median(outcome["seconds"]) if ok else None,
                        "mib": max(outcome["rss_kib"]) / 1024 if ok and outcome["rss_kib"] else None,
                        "status": outcome["status"] if outcome["status"] != "ok" or ok else "FAILED",
                        "detail": outcome.get("detail", ""), "limit": doc.get("timeout")})
    return list(found.values())


def log_ticks(low, high):
    """Powers of ten spanning [low, high] (a value within 2% of a power of ten counts as on it:
    1,001,003 entries end the axis at 1M, not 10M)."""
    first, last = math.floor(math.log10(low) + 0.01), math.ceil(math.log10(high) - 0.01)
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
    if shape == "timeout":
        return ('<path d="M %.1f %.1f l 5 8 l -10 0 z" fill="white" stroke="%s" stroke-width="1.6"/>'
                % (x, y - 5, colour))
    if shape == "failed":
        return ('<path d="M %.1f %.1f l 8 8 m 0 -8 l -8 8" stroke="%s" stroke-width="2"/>' % (x - 4, y - 4, colour))
    return '<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (x, y, colour)


def panel_for(series, axis, row, col, key, yname):
    """The panel of one axis (column) and one figure (row), scaled to what it must show."""
    xname, unit = AXES[axis]
    mine = [s for s in series if axis in s.axes]
    xs = [p[axis] for s in mine for p in s.points]
    ys = [y for s in mine for _, y in s.measured(axis, key)]
    if key == "seconds":
        ys += [p["limit"] for s in mine for p in s.missing() if p["status"] == "TIMEOUT" and p["limit"]]
    return Panel(MARGIN_L + col * (PANEL_W + GAP_X), MARGIN_T + row * (PANEL_H + GAP_Y),
                 xs, ys or [1.0], xname, yname, unit)


def draw_series(panel, series, axis, key):
    """Lines, marks, and the marks of runs with no figure, of every series along `axis`."""
    out = []
    limits = sorted({p["limit"] for s in series if axis in s.axes for p in s.missing()
                     if p["status"] == "TIMEOUT" and p["limit"]})
    if key == "seconds":
        for limit in limits:
            y = panel.py(limit)
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c00" stroke-dasharray="3 3"/>'
                       % (panel.x0, y, panel.x0 + PANEL_W, y))
            out.append('<text x="%.1f" y="%.1f" fill="#c00">per-run limit %g s</text>' % (panel.x0 + 4, y - 4, limit))
    for s in series:
        if axis not in s.axes:
            continue
        colour = WORK_COLOURS.get(s.work, "#333")
        dash, shape = style(s.tool, s.layout)
        line = s.measured(axis, key)
        if len(line) > 1:
            coords = " ".join("%.1f,%.1f" % (panel.px(x), panel.py(y)) for x, y in line)
            out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6" %s/>' % (coords, colour, dash))
        out += [mark(shape, panel.px(x), panel.py(y), colour) for x, y in line]
        # Marks of runs with no figure, one work beside the other, so that four at one size stay apart.
        shift = (list(WORK_COLOURS).index(s.work) - 1.5) * 11 if s.work in WORK_COLOURS else 0
        for p in s.missing():
            x = panel.px(p[axis]) + shift
            if p["status"] == "TIMEOUT" and p["limit"] and key == "seconds":
                before = [(px, py) for px, py in line if px < p[axis]]
                if before:  # the line goes on, faintly, to at least the limit
                    out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.2" '
                               'stroke-opacity="0.5" %s/>' % (panel.px(before[-1][0]), panel.py(before[-1][1]), x,
                                                              panel.py(p["limit"]) + 3, colour, dash))
                out.append(mark("timeout", x, panel.py(p["limit"]), colour))
            elif p["status"] == "TIMEOUT":
                out.append(mark("timeout", x, panel.y0 + PANEL_H - 8, colour))
            else:
                out.append(mark("failed", x, panel.y0 + 8, colour))
    return out


def notes(series):
    """One line per run with no figure: which, and why."""
    out = []
    for s in series:
        for p in s.missing():
            if p["status"] == "TIMEOUT":
                why = "killed at the per-run limit of %g s (hollow triangle; no memory figure)" % p["limit"]
            else:
                why = "%s (cross): %s" % (p["status"], p["detail"].split("\n")[0][:90])
            out.append("%s %s, %s, %s entries, %s bytes: %s" % (
                s.tool, s.work, s.family, "{:,}".format(p["entries"]), "{:,}".format(p["bytes"]), why))
    return out


def draw(series, title):
    """The whole SVG document as a string."""
    if not any(p["status"] == "ok" for s in series for p in s.points):
        raise ValueError("no measured outcome to draw")
    axes = [a for a in AXES if any(a in s.axes for s in series)]
    lines = notes(series)
    width = MARGIN_L + len(axes) * PANEL_W + (len(axes) - 1) * GAP_X + 50
    top = MARGIN_T + 2 * PANEL_H + GAP_Y + 50
    height = top + LEGEND_H + NOTE_H * len(lines)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="11">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="14" font-weight="bold">%s</text>' % (MARGIN_L, escape(title))]
    for col, axis in enumerate(axes):
        shapes = []
        for s in series:
            if axis in s.axes and s.shape not in shapes:
                shapes.append(s.shape)
        grows = any(s.axes == [axis] for s in series)  # a family; otherwise corpora, each alone
        out.append('<text x="%d" y="44" font-size="12">%s %s: %s</text>'
                   % (MARGIN_L + col * (PANEL_W + GAP_X), "growing" if grows else "corpora, each alone, by", axis,
                      escape("; ".join(shapes))))
        for row, (key, yname) in enumerate((("seconds", "wall time, s"), ("mib", "peak RSS, MiB"))):
            panel = panel_for(series, axis, row, col, key, yname)
            out += panel.axes() + draw_series(panel, series, axis, key)
    out += legend(series, top)
    y = top + LEGEND_H - 10
    for line in lines:
        out.append('<text x="%d" y="%d">%s</text>' % (MARGIN_L, y, escape(line)))
        y += NOTE_H
    out.append("</svg>")
    return "\n".join(out) + "\n"


def legend(series, top):
    out, x, y = [], MARGIN_L, top + 14
    for work, colour in WORK_COLOURS.items():
        out.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (x, y - 6, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 20, y, work))
        x += 110
    x, y = MARGIN_L, y + 24
    kinds = sorted({(s.tool, s.layout) for s in series})
    for tool, layout in kinds:
        dash, shape = style(tool, layout)
        name = tool + (" (%s layout)" % layout if layout else " (peer)")
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.6" %s/>'
                   % (x, y - 4, x + 30, y - 4, dash))
        out.append(mark(shape, x + 15, y - 4, "#333"))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 38, y, escape(name)))
        x += 190
    x, y = MARGIN_L, y + 22
    for shape, name in (("timeout", "killed at the per-run limit"), ("failed", "failed or not possible")):
        out.append(mark(shape, x + 15, y - 4, "#333"))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 38, y, name))
        x += 230
    return out


def write(path, documents):
    machine = documents[0].get("machine", "") if documents else ""
    title = ("iapkg vs bsdtar: time and memory as the work grows"
             + (" (%s)" % ",".join(machine.split(",")[:2]) if machine else ""))
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
