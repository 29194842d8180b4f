#!/usr/bin/env bash
# Scale-out: two stateless `billing_server --http` processes behind nginx (round-robin), all on
# loopback, nginx run in the foreground from a temporary directory (no root paths). The Python
# mcp client's read-only calls through nginx must alternate between the instances (shown by the
# `fusion-instance` response header) and every answer must equal a direct call's. Then
# void_invoice's confirmation (an input-required result) through nginx (clients/http/confirm.py,
# and clients/http/confirm.mjs with the TypeScript client):
# the client's answer lands on the other replica, which opens the state the first one sealed with
# the keyring both share (FUSION_STATE_KEYS); a tampered state is refused.
# Needs nginx (apt-get install -y nginx) and the Python mcp client (pip install mcp).
set -euo pipefail
cd "$(dirname "$0")/.."

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $nginx_bin ]] || { echo "scale-out.sh: nginx is missing; install it with: apt-get install -y nginx" >&2; exit 1; }
cargo build --quiet -p fusion-examples --bin billing_server
binary=target/debug/billing_server
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

address=""
# One keyring for both replicas (a fresh random one per run).
FUSION_STATE_KEYS="run=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
export FUSION_STATE_KEYS
start() { # name: starts an instance, sets $address to its host:port
    "$binary" --http 127.0.0.1:0 --instance "$1" >/dev/null 2>"$work/$1.log" &
    pids+=($!)
    for _ in $(seq 100); do
        address=$(grep -o 'http://[^/ ]*' "$work/$1.log" | head -1 | sed 's|http://||' || true)
        [[ -n $address ]] && return
        sleep 0.1
    done
    echo "scale-out.sh: instance $1 did not start:" >&2
    cat "$work/$1.log" >&2
    exit 1
}
start a
a=$address
start b
b=$address
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 256; }
http {
    access_log $work/nginx/access.log;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    # Round-robin (nginx's default): stateless requests need no stickiness.
    upstream billing { server $a; server $b; }
    server {
        listen 127.0.0.1:$port;
        location /mcp {
            proxy_pass http://billing;
            proxy_http_version 1.1;
            # The client's Host, which the instances check (DNS rebinding) against loopback names.
            proxy_set_header Host \$http_host;
            proxy_set_header Connection "";
            proxy_buffering off;
        }
    }
}
CONF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" >/dev/null &
pids+=($!)
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    sleep 0.1
done
echo "== scale-out: nginx on 127.0.0.1:$port round-robin over $a (a) and $b (b)"
python3 clients/http/scale_out.py "http://127.0.0.1:$port/mcp" "http://$a/mcp"
echo "== scale-out: void_invoice's confirmation through nginx, answered on the other replica"
python3 clients/http/confirm.py "http://127.0.0.1:$port/mcp" 2
echo "== scale-out: the same confirmation with the official TypeScript client (2026-07-28 input-required rounds)"
node clients/http/confirm.mjs "http://127.0.0.1:$port/mcp" 2
