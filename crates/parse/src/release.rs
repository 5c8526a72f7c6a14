//! Which ZFS runs: `zfs version` (OpenZFS 0.8 on), /sys/module/zfs/version, or for releases
//! without either the pool version `zpool upgrade -v` names (23: zfs-fuse, the only ZFS on
//! Linux at that version). The answer is the model's release (`openzfs-2.2.2`, `zol-0.7.13`).

use model::ZfsRelease;

/// From `zfs version` (the kernel module's line wins: it is what runs) or the module's version
/// file: `zfs-kmod-2.2.2-0ubuntu9`, `2.1.5-1`, `0.7.5-1ubuntu16`.
pub fn from_version(text: &str) -> Option<ZfsRelease> {
    let line = text
        .lines()
        .find(|l| l.starts_with("zfs-kmod-"))
        .or_else(|| text.lines().find(|l| !l.trim().is_empty()))?;
    let version = line
        .trim()
        .trim_start_matches("zfs-kmod-")
        .trim_start_matches("zfs-");
    let numeric: String = version
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    numeric.trim_end_matches('.').parse().ok()
}

/// From `zpool upgrade -v`: only pool version 23 names a release on its own (zfs-fuse).
pub fn from_pool_version(text: &str) -> Option<ZfsRelease> {
    text.contains("ZFS pool version 23")
        .then_some(ZfsRelease::ZfsFuse)
}
