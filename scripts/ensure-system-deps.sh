#!/usr/bin/env bash
# Installs the Debian packages that the real-infrastructure tests use (a real PostgreSQL
# server, a real Chromium, fonts for screenshots). Idempotent and fast when all is present.
# Never fails the build: without root or apt it warns, and the tests that need a missing
# part skip with the reason.
set -u

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# Chromium: Playwright drives /usr/bin/chromium (never its own downloaded browser).
[ -x /usr/bin/chromium ] || need+=(chromium)
# PostgreSQL server binaries (initdb, pg_ctl, postgres) under /usr/lib/postgresql/<ver>/bin.
if ! have_cmd initdb && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    need+=(postgresql)
fi
# Fonts so that screenshots show text.
have_pkg fonts-dejavu-core || need+=(fonts-dejavu-core)

if [ ${#need[@]} -eq 0 ]; then
    echo "system-deps: all present (chromium, postgresql, fonts)"
    exit 0
fi

warn() {
    echo "WARNING: system-deps: $*" >&2
    echo "WARNING: system-deps: tests needing: ${need[*]} will be skipped with the reason" >&2
    exit 0
}

if [ "$(id -u)" -ne 0 ]; then
    warn "not root; cannot install: ${need[*]} (run: sudo apt-get install ${need[*]})"
fi
have_cmd apt-get || warn "apt-get not found; cannot install: ${need[*]}"

echo "system-deps: installing ${need[*]}"
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
apt-get update -q </dev/null >/dev/null || warn "apt-get update failed"
apt-get install -y -q --no-install-recommends "${need[@]}" </dev/null >/dev/null \
    || warn "apt-get install ${need[*]} failed"
echo "system-deps: installed ${need[*]} in $(($(date +%s) - start))s"
