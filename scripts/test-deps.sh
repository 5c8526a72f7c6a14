#!/usr/bin/env bash
# Installs the Debian packages the end-to-end tests need: for the live ZFS tests
# (crates/cli/tests/zfs_fuse.rs, measure_zfs_fuse.rs) zfs-fuse (the daemon, zpool, zfs, zdb), fio
# (the bench and calibrate) and util-linux (losetup, lsblk for discover and calibrate); for the
# web page's test (web_page.rs) chromium, run headless; for the fleet's tests (fleet.rs,
# fleet_zfs_fuse.rs) postgresql. Only when one is missing and we are root; otherwise it does
# nothing, and the tests themselves say loudly that they skipped (and fail under CI=true).
set -euo pipefail
missing=()
command -v zfs-fuse >/dev/null 2>&1 || [ -x /usr/sbin/zfs-fuse ] || missing+=(zfs-fuse)
command -v fio >/dev/null 2>&1 || missing+=(fio)
command -v losetup >/dev/null 2>&1 || missing+=(util-linux)
command -v chromium >/dev/null 2>&1 || missing+=(chromium fonts-dejavu-core)
# The results store's PostgreSQL backend (fleet.rs, fleet_zfs_fuse.rs start their own cluster).
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: missing ${missing[*]}, not root or no apt-get: not installing" >&2
    exit 0
fi
bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
