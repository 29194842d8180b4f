#!/usr/bin/env bash
# The browser test of the MCP Apps view on a clean machine: installs Chromium (Debian's
# package: Playwright's own browser download is not used), node, an emoji font for the
# screenshots and the npm packages of tests/browser (npm ci, from the lock file), then runs it
# through cargo. Screenshots land in target/screenshots/.
#
#   bash scripts/browser-suite.sh            install, then run the browser test
#   bash scripts/browser-suite.sh --install  install only (before `cargo test --workspace`, which
#                                            runs the browser test too and, under CI=true, fails
#                                            rather than skip when something is missing)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || apt_install chromium
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || apt_install fonts-noto-color-emoji

(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
[ "${1:-}" = "--install" ] && exit 0
CI=true cargo test -p fusion-examples --test examples browser:: -- --nocapture
