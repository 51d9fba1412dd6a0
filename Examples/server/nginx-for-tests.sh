# A private nginx for the tests of Examples/server (sourced by test-nginx.sh, test-gated-nginx.sh and
# test-fetch.sh): a free port on 127.0.0.1, an example site rewritten to listen there and serve a
# scratch store, and nginx started in its own prefix (pid, logs and temporary files inside it), so
# a test never touches the system's nginx or its ports.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# site_conf SITE PORT ROOT [SED-ARGS...]: the example SITE (iapkg-content.conf, iapkg-gated.conf)
# listening on 127.0.0.1:PORT and serving ROOT, with any further sed edits, on stdout.
site_conf() {
  local site="$1" port="$2" root="$3"
  shift 3
  sed -e "s|listen 80; .*|listen 127.0.0.1:$port;|" -e "s|root /srv/content; .*|root $root;|" "$@" "$site"
}

# start_nginx PREFIX HTTP-LINES: writes PREFIX/nginx.conf, whose http block holds the logs and
# temporary paths under PREFIX and HTTP-LINES (includes of site files, log formats…), checks it and
# starts nginx in the background; sets nginx_pid. Logs go to PREFIX/logs/.
start_nginx() {
  local prefix="$1" lines="$2"
  mkdir -p "$prefix/logs" "$prefix/tmp"
  cat > "$prefix/nginx.conf" <<CONF
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;
    sendfile on;
$lines
}
CONF
  nginx -t -p "$prefix" -c "$prefix/nginx.conf" -q
  nginx -p "$prefix" -c "$prefix/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!
}

# wait_for_http URL: until URL answers (any status), at most 10 s.
wait_for_http() {
  local _
  for _ in $(seq 1 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done
  return 1
}
