//! The deflate ratio (module/zfs/vdev.c vdev_set_deflate_ratio, spa_misc.c
//! dva_get_dsize_sync): how `zfs list` turns allocated bytes into charged bytes.

use crate::vdev::block_asize;
use model::VdevGroup;

/// SPA_MINBLOCKSHIFT: the ratio is kept in 1/512 units.
pub(crate) const SPA_MINBLOCKSHIFT: u32 = 9;
/// The block size the ratio assumes, whatever the recordsize: 2^17 = 128 KiB (SPA_OLD_MAXBLOCKSIZE).
pub(crate) const DEFLATE_BLOCK: u64 = 1 << 17;

/// ratio = 2^17 / (asize of a 128 KiB block >> 9): integer division, 512 for a mirror.
pub fn deflate_ratio(group: &VdevGroup, ashift: u8) -> u64 {
    DEFLATE_BLOCK / (block_asize(group, ashift, DEFLATE_BLOCK) >> SPA_MINBLOCKSHIFT)
}

/// Deflated bytes: (bytes >> 9) x ratio. This is both a vdev's contribution to dspace
/// (vdev_deflated_space) and what a block costs a dataset (bp_get_dsize_sync).
pub fn deflated(bytes: u64, ratio: u64) -> u64 {
    (bytes >> SPA_MINBLOCKSHIFT) * ratio
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{VdevGroup, VdevType};

    fn g(vtype: VdevType, children: u32) -> VdevGroup {
        VdevGroup {
            count: 1,
            vtype,
            children,
        }
    }

    #[test]
    fn worked_ratios() {
        // Mirror: 128 KiB >> 9 = 256; 131072 / 256 = 512.
        assert_eq!(deflate_ratio(&g(VdevType::Mirror, 2), 12), 512);
        assert_eq!(deflate_ratio(&g(VdevType::Disk, 1), 9), 512);
        // raidz1-5 ashift 12: 160 KiB >> 9 = 320; 131072 / 320 = 409 (409.6 truncated).
        assert_eq!(deflate_ratio(&g(VdevType::Raidz { parity: 1 }, 5), 12), 409);
        // raidz2-6 ashift 12: 48 sectors = 192 KiB >> 9 = 384; 131072 / 384 = 341.
        assert_eq!(deflate_ratio(&g(VdevType::Raidz { parity: 2 }, 6), 12), 341);
        // raidz2-5 ashift 12: 216 KiB >> 9 = 432; 131072 / 432 = 303.
        assert_eq!(deflate_ratio(&g(VdevType::Raidz { parity: 2 }, 5), 12), 303);
        // raidz1-3 ashift 9: 192 KiB >> 9 = 384 -> 341.
        assert_eq!(deflate_ratio(&g(VdevType::Raidz { parity: 1 }, 3), 9), 341);
        // draid2:8d ashift 12: 160 KiB -> 409.
        let d = VdevType::Draid {
            parity: 2,
            data: 8,
            spares: 2,
        };
        assert_eq!(deflate_ratio(&g(d, 24), 12), 409);
        assert_eq!(deflated(160 << 10, 409), 320 * 409);
    }
}
