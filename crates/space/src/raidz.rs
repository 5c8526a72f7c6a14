//! raidz (module/zfs/vdev_raidz.c): the size of a vdev and of one block on it.

use model::geometry::Raidz;

/// vdev_raidz_open: a raidz vdev is `width` times its smallest child.
pub(crate) fn raidz_vdev_asize(width: u32, child_asize: u64) -> Option<u64> {
    child_asize.checked_mul(u64::from(width))
}

/// vdev_raidz_asize: the allocated size of a block of `psize` bytes on a raidz of `cols`
/// children and `parity` parity, sectors of 2^ashift (`model::geometry::Raidz::asize`, the
/// block the performance engine cuts into columns).
pub(crate) fn raidz_asize(psize: u64, ashift: u8, cols: u32, parity: u32) -> u64 {
    shape(ashift, cols, parity).asize(psize)
}

/// The data, parity and padding sectors of one block, for reports.
pub(crate) fn raidz_sectors(psize: u64, ashift: u8, cols: u32, parity: u32) -> (u64, u64, u64) {
    let b = shape(ashift, cols, parity).block(psize).sectors;
    (b.data, b.parity, b.skip)
}

fn shape(ashift: u8, width: u32, nparity: u32) -> Raidz {
    Raidz {
        width,
        nparity,
        ashift,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_blocks() {
        // raidz1-5, ashift 12, 128 KiB: 32 sectors + 1 x ceil(32/4) = 40, even: 160 KiB.
        assert_eq!(raidz_asize(128 << 10, 12, 5, 1), 160 << 10);
        // raidz1-5, ashift 12, 4 KiB: 1 + 1 = 2 sectors = 8 KiB.
        assert_eq!(raidz_asize(4096, 12, 5, 1), 8192);
        // one byte still takes a data sector and its parity.
        assert_eq!(raidz_asize(1, 12, 5, 1), 8192);
        // raidz2-5, ashift 12, 128 KiB: 32 + 2 x ceil(32/3)=22 -> 54, a multiple of 3: 216 KiB.
        assert_eq!(raidz_asize(128 << 10, 12, 5, 2), 216 << 10);
        // raidz2-5, ashift 12, 16 KiB: 4 + 2 x 2 = 8 -> roundup 3 = 9 sectors = 36 KiB.
        assert_eq!(raidz_asize(16 << 10, 12, 5, 2), 36 << 10);
        assert_eq!(raidz_sectors(16 << 10, 12, 5, 2), (4, 4, 1));
        // raidz3-11, ashift 12, 128 KiB: 32 + 3 x ceil(32/8)=12 -> 44, multiple of 4: 176 KiB.
        assert_eq!(raidz_asize(128 << 10, 12, 11, 3), 176 << 10);
        // raidz2-10, ashift 12, 128 KiB: 32 + 2 x 4 = 40 -> roundup 3 = 42 sectors.
        assert_eq!(raidz_asize(128 << 10, 12, 10, 2), 42 << 12);
        // raidz1-3, ashift 9, 128 KiB: 256 + 128 = 384 sectors of 512 B = 192 KiB.
        assert_eq!(raidz_asize(128 << 10, 9, 3, 1), 192 << 10);
        // raidz2-6, ashift 13 (8 KiB sectors), 128 KiB: 16 + 2 x 4 = 24 sectors = 192 KiB.
        assert_eq!(raidz_asize(128 << 10, 13, 6, 2), 192 << 10);
        // raidz3-24, ashift 12, 128 KiB: 32 + 3 x ceil(32/21)=6 -> 38 -> roundup 4 = 40.
        assert_eq!(raidz_asize(128 << 10, 12, 24, 3), 40 << 12);
        assert_eq!(raidz_asize(0, 12, 5, 1), 0);
    }

    /// The efficiency table of docs/zfs-internals.md §1 (psize / asize at ashift 12).
    #[test]
    fn efficiency_table_of_the_facts() {
        let sizes = [
            4u64 << 10,
            8 << 10,
            16 << 10,
            32 << 10,
            64 << 10,
            128 << 10,
            1 << 20,
        ];
        let table: [(u32, u32, [f64; 7]); 5] = [
            (4, 1, [0.500, 0.500, 0.667, 0.667, 0.727, 0.727, 0.749]),
            (6, 2, [0.333, 0.333, 0.667, 0.667, 0.667, 0.667, 0.667]),
            (8, 2, [0.333, 0.333, 0.667, 0.667, 0.667, 0.711, 0.749]),
            (10, 2, [0.333, 0.333, 0.667, 0.667, 0.762, 0.762, 0.798]),
            (11, 3, [0.250, 0.250, 0.500, 0.667, 0.667, 0.727, 0.727]),
        ];
        for (cols, parity, row) in table {
            for (psize, want) in sizes.iter().zip(row) {
                let got = *psize as f64 / raidz_asize(*psize, 12, cols, parity) as f64;
                assert!(
                    (got - want).abs() < 0.0006,
                    "raidz{parity}-{cols} {psize}: {got} vs {want}"
                );
            }
        }
    }
}
