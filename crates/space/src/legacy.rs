//! Rules only the legacy profile (zfs-fuse, pool v23) needs, each fitted to or checked against
//! the measurements of docs/zfs-fuse-legacy.md (crates/space/tests/data/zfs_fuse.json).

use crate::deflate::deflated;

/// Sectors of the empty pool's metadata charged as they are, whatever the vdev type.
const EMPTY_FIXED_SECTORS: u64 = 54;
/// One-sector blocks of the empty pool's metadata, each charged as such a block on the first
/// normal vdev (parity, padding and deflate ratio included).
const EMPTY_SMALL_BLOCKS: u64 = 112;

/// The root dataset's USED of a new zfs-fuse pool once its first txg is synced (the MOS, space
/// maps, pool history and the root file system, with their ditto copies).
///
/// APPROXIMATION, fitted: 54 x 512 B plus 112 one-sector blocks, the least worst-case error
/// over the 65 measured pools (13 layouts, 64 MiB to 100 GiB per disk, ashift 9): within
/// 6.5 KiB of each. The real figure is not fixed: the same pool varies by 1.5 KiB between
/// runs, and each extra top-level vdev adds about 3 KiB of space maps, which the arguments do
/// not show. Measured at ashift 9 only: the arguments are (ashift, asize of a one-sector block
/// on the first normal vdev, its deflate ratio), and at larger ashift the fixed part is kept
/// in 512-byte units, which is unverified.
pub fn empty_pool_used(_ashift: u8, one_sector_asize: u64, ratio: u64) -> u64 {
    EMPTY_FIXED_SECTORS * 512 + EMPTY_SMALL_BLOCKS * deflated(one_sector_asize, ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_values() {
        // Single disk: 166 sectors (measured 84,480 to 86,016 bytes).
        assert_eq!(empty_pool_used(9, 512, 512), 84_992);
        // raidz2-5: a one-sector block takes 3 sectors, ratio 305 (measured 129,015 to 131,760).
        assert_eq!(empty_pool_used(9, 1536, 305), 54 * 512 + 112 * 915);
    }
}
