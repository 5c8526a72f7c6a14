#!/usr/bin/env bash
# Installs what the live ZFS test (crates/cli/tests/zfs_fuse.rs) needs: the Debian packages
# zfs-fuse (the daemon, zpool, zfs, zdb) and fio. Only when one is missing and we are root;
# otherwise it does nothing, and the test itself says loudly that it skipped.
set -euo pipefail
missing=()
command -v zfs-fuse >/dev/null 2>&1 || [ -x /usr/sbin/zfs-fuse ] || missing+=(zfs-fuse)
command -v fio >/dev/null 2>&1 || missing+=(fio)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "zfs-fuse-deps: missing ${missing[*]}, not root or no apt-get: not installing" >&2
    exit 0
fi
echo "zfs-fuse-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
