#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server mode, every
# scenario: --suite all) against examples/src/bin/conformance_server.rs, once in rmcp's legacy
# session mode and once stateless. Exits 0 when the failures are exactly those listed in
# clients/http/conformance-expected-failures-{sessions,stateless}.yml (the suite's own baseline
# check: a new failure or a listed scenario that now passes both fail). Results in
# docs/conformance.md; raw results in target/conformance/.
#
# `scripts/conformance.sh [sessions|stateless]` runs one mode only.
# Needs `npm ci --prefix clients/http` (scripts/http-suite.sh does it).
set -euo pipefail
cd "$(dirname "$0")/.."

clients=clients/http
if [[ ! -d $clients/node_modules/@modelcontextprotocol/conformance ]]; then
    echo "conformance.sh: the suite is not installed; run: npm ci --prefix $clients" >&2
    exit 1
fi
cargo build --quiet -p fusion-examples --bin conformance_server
binary=target/debug/conformance_server
status=0

modes=("$@")
[[ ${#modes[@]} -eq 0 ]] && modes=(sessions stateless)
for mode in "${modes[@]}"; do
    flags=()
    [[ $mode == sessions ]] && flags=(--sessions)
    log=$(mktemp)
    "$binary" --http 127.0.0.1:0 "${flags[@]}" 2>"$log" &
    pid=$!
    url=""
    for _ in $(seq 100); do
        url=$(grep -o 'http://[^ ]*' "$log" || true)
        [[ -n $url ]] && break
        sleep 0.1
    done
    if [[ -z $url ]]; then
        echo "conformance.sh: conformance_server did not start:" >&2
        cat "$log" >&2
        kill "$pid" 2>/dev/null || true
        exit 1
    fi
    echo "== conformance suite, $mode mode, against $url"
    out=target/conformance/$mode
    rm -rf "$out"
    mkdir -p "$out"
    if (cd "$clients" && npx --no-install conformance server --url "$url" --suite all \
        --expected-failures "conformance-expected-failures-$mode.yml" -o "../../$out") \
        >"$out/report.txt" 2>&1; then
        echo "conformance ($mode): failures match the expected list"
    else
        echo "conformance ($mode): FAILED (unexpected failures or stale expected failures)"
        status=1
    fi
    sed -n '/=== SUMMARY ===/,$p' "$out/report.txt"
    kill -TERM "$pid"
    wait "$pid" || true
    rm -f "$log"
done
exit $status
