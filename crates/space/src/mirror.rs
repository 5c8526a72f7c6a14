//! Mirrors and single disks (module/zfs/vdev_mirror.c, vdev.c vdev_default_asize).

/// vdev_mirror_open: a mirror is as large as its smallest child (here all children are alike).
pub(crate) fn mirror_vdev_asize(child_asize: u64) -> u64 {
    child_asize
}

/// vdev_default_asize: a block on a mirror or a single disk is psize rounded up to the sector.
/// (Each side of a mirror holds a copy; `zpool list` counts one side, so the copies are not in
/// asize.)
pub(crate) fn mirror_asize(psize: u64, ashift: u8) -> u64 {
    if psize == 0 {
        return 0;
    }
    (((psize - 1) >> ashift) + 1) << ashift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_the_sector() {
        assert_eq!(mirror_asize(1, 9), 512);
        assert_eq!(mirror_asize(4096, 12), 4096);
        assert_eq!(mirror_asize(4097, 12), 8192);
        assert_eq!(mirror_asize(5000, 13), 8192);
        assert_eq!(mirror_asize(0, 12), 0);
    }
}
