#!/usr/bin/env bash
# Installs Debian packages quietly: apt-get's progress goes to a log, shown only when the
# install fails, so a test log carries one line per install. The caller checks that we are
# root and that apt-get exists.
#
#   scripts/apt-install.sh PACKAGE...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 PACKAGE..." >&2; exit 2; }
log=$(mktemp "${TMPDIR:-/tmp}/zpoolsim-apt.XXXXXX")
trap 'rm -f "$log"' EXIT
echo "installing $* (Debian packages)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    echo "installing $* failed; apt-get said:" >&2
    cat "$log" >&2
    exit 1
fi
