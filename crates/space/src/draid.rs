//! dRAID (module/zfs/vdev_draid.c): the size of a vdev, of one block on it, and how its
//! metaslabs are trimmed to whole redundancy groups.

use model::geometry::Draid;
use model::units::MIB;

/// VDEV_DRAID_ROWHEIGHT: each child contributes rows of 16 MiB to a redundancy group.
pub(crate) const ROW_HEIGHT: u64 = 16 * MIB;
/// VDEV_DRAID_REFLOW_RESERVE: 2 rows (32 MiB) kept at the end of each child for expansion.
pub(crate) const REFLOW_RESERVE: u64 = 2 * ROW_HEIGHT;

/// vdc_groupsz: the bytes of one redundancy group on the vdev, (d + p) x 16 MiB.
pub(crate) fn group_size(data: u32, parity: u32) -> u64 {
    u64::from(data + parity) * ROW_HEIGHT
}

/// vdev_draid_open (docs/zfs-internals.md §1): child = floor((min child - 32 MiB) / 16 MiB) x
/// 16 MiB; vdev asize = floor(child x (children - spares) / groupsz) x groupsz. `None` when a
/// child is too small to hold the reserve and one row, or on overflow.
pub(crate) fn draid_vdev_asize(
    child_asize: u64,
    children: u32,
    data: u32,
    parity: u32,
    spares: u32,
) -> Option<u64> {
    let child = child_asize.checked_sub(REFLOW_RESERVE)? / ROW_HEIGHT * ROW_HEIGHT;
    let total = child.checked_mul(u64::from(children.checked_sub(spares)?))?;
    let groupsz = group_size(data, parity);
    let asize = total / groupsz * groupsz;
    (asize > 0).then_some(asize)
}

/// What a dRAID vdev of `vdev_asize` leaves of each child's `child_asize`, per vdev: the
/// reflow reserve and row rounding of every child, the distributed spares, and the rounding
/// down to whole groups (the terms of vdev_draid_open, for the breakdown).
pub(crate) fn draid_losses(
    child_asize: u64,
    children: u32,
    spares: u32,
    vdev_asize: u64,
) -> (u64, u64, u64) {
    let child = (child_asize - REFLOW_RESERVE) / ROW_HEIGHT * ROW_HEIGHT;
    let children = u64::from(children);
    let reserve = (child_asize - child) * children;
    let spare = child * u64::from(spares);
    (
        reserve,
        spare,
        child * (children - u64::from(spares)) - vdev_asize,
    )
}

/// vdev_draid_asize: a block always fills whole rows of d data and p parity sectors
/// (`model::geometry::Draid::asize`).
pub(crate) fn draid_asize(psize: u64, ashift: u8, data: u32, parity: u32) -> u64 {
    Draid {
        ndata: data,
        nparity: parity,
        ashift,
    }
    .asize(psize)
}

/// The alignment of a dRAID metaslab: one row of the redundancy group, d + p sectors
/// (vdev_draid_get_astart: `vdc_groupwidth << vdev_ashift`). Blocks fill whole rows, so a
/// metaslab starts and ends on a row; it is not aligned to the 16 MiB rows of a group.
pub(crate) fn metaslab_align(data: u32, parity: u32, ashift: u8) -> u64 {
    u64::from(data + parity) << ashift
}

/// vdev_draid_metaslab_init: a metaslab starts at the next multiple of `align` and holds whole
/// multiples of it only: start' = roundup(start, align); size' = floor((size - (start' -
/// start)) / align) x align.
pub(crate) fn draid_metaslab_size(ms_start: u64, ms_size: u64, align: u64) -> u64 {
    let astart = ms_start.div_ceil(align) * align;
    ms_size.saturating_sub(astart - ms_start) / align * align
}

/// The summed size of metaslabs 0..count of 2^shift bytes each after dRAID trimming, and the
/// size of metaslab 0 (the one the embedded ZIL takes). The trim repeats with a period of
/// align / gcd(align, 2^shift) metaslabs (the odd part of d + p, at most 255), so one period
/// is summed and repeated.
pub(crate) fn draid_metaslab_space(count: u64, shift: u32, align: u64) -> (u64, u64) {
    let ms = 1u64 << shift;
    let gcd = 1u64 << align.trailing_zeros().min(shift);
    let period = (align / gcd).max(1);
    let one = |m: u64| draid_metaslab_size(m * ms, ms, align);
    let first = if count > 0 { one(0) } else { 0 };
    let per_period: u64 = (0..period.min(count)).map(one).sum();
    let full = count / period;
    let rest: u64 = (0..count % period).map(one).sum();
    if count < period {
        return (per_period, first);
    }
    (full * per_period + rest, first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::units::GIB;

    #[test]
    fn vdev_size() {
        // draid2:8d:24c:2s of children with asize 1000 GiB:
        // child = floor((1000 GiB - 32 MiB) / 16 MiB) = 63,998 rows of 16 MiB;
        // total = 63,998 x 22 rows = 1,407,956 rows; groups of 10 rows: 140,795 -> 1,407,950 rows.
        let got = draid_vdev_asize(1000 * GIB, 24, 8, 2, 2).unwrap();
        assert_eq!(got, 1_407_950 * ROW_HEIGHT);
        // too small a child
        assert_eq!(draid_vdev_asize(40 * MIB, 10, 4, 1, 0), None);
    }

    #[test]
    fn blocks_fill_whole_rows() {
        // d=8, p=2, ashift 12: 4 KiB takes one row of 10 sectors = 40 KiB.
        assert_eq!(draid_asize(4096, 12, 8, 2), 40960);
        // 128 KiB = 4 rows of 8 data sectors: 40 sectors = 160 KiB.
        assert_eq!(draid_asize(128 << 10, 12, 8, 2), 160 << 10);
        // 36 KiB = 9 sectors: 2 rows = 20 sectors.
        assert_eq!(draid_asize(36 << 10, 12, 8, 2), 80 << 10);
        // d=5, p=1, ashift 9, 128 KiB = 256 sectors: ceil(256/5) = 52 rows x 6 = 312 sectors.
        assert_eq!(draid_asize(128 << 10, 9, 5, 1), 312 * 512);
    }

    #[test]
    fn metaslab_trim() {
        // draid2:8d at ashift 12: metaslabs align to rows of 10 sectors = 40 KiB.
        let a = metaslab_align(8, 2, 12);
        assert_eq!(a, 40_960);
        // ms 0 of 16 GiB: start 0; 17,179,869,184 / 40,960 = 419,430.4 -> 419,430 rows
        // = 17,179,852,800 (16 KiB lost).
        assert_eq!(draid_metaslab_size(0, 16 * GIB, a), 17_179_852_800);
        // ms 1: starts at 16 GiB = 419,430.4 rows -> next row 419,431 x 40,960 = 17,179,893,760,
        // 24,576 B skipped; (17,179,869,184 - 24,576) / 40,960 = 419,429.8 -> 419,429 rows
        // = 17,179,811,840.
        assert_eq!(draid_metaslab_size(16 * GIB, 16 * GIB, a), 17_179_811_840);
        // The summed form equals the plain sum.
        for count in [0u64, 1, 2, 4, 5, 6, 11, 137] {
            let plain: u64 = (0..count)
                .map(|m| draid_metaslab_size(m << 34, 1 << 34, a))
                .sum();
            assert_eq!(draid_metaslab_space(count, 34, a).0, plain, "{count}");
        }
        // A power-of-two row (d + p = 8) never trims.
        let pow2 = metaslab_align(6, 2, 12);
        assert_eq!(draid_metaslab_space(100, 34, pow2).0, 100 << 34);
    }

    /// Issue #9's pool: draid1:16d:36c:2s of 18,000,207,937,536-byte disks at ashift 12. The GPT
    /// data partition is 18,000,197,451,776 B; leaf asize 18,000,192,733,184; child =
    /// floor((asize - 32 MiB) / 16 MiB) = 1,072,893 rows = 18,000,157,605,888; 34 children
    /// give 36,478,362 rows, 2,145,786 whole groups of 17 rows (no rest): vdev asize
    /// 36,478,362 x 16 MiB = 612,005,358,600,192. Metaslabs: 16 GiB (shift 34), 35,623 of them. Rows of
    /// 17 x 4 KiB = 69,632 B; the odd part of 17 is 17, so the trim repeats every 17
    /// metaslabs. OpenZFS 2.1.11-2.4.4 (the oracle) report this SIZE: 611,996,145,381,376.
    #[test]
    fn issue_9_pool_metaslabs() {
        let asize = draid_vdev_asize(18_000_192_733_184, 36, 16, 1, 2).unwrap();
        assert_eq!(asize, 612_005_358_600_192);
        assert_eq!(asize >> 34, 35_623);
        let (space, first) = draid_metaslab_space(35_623, 34, metaslab_align(16, 1, 12));
        assert_eq!(space, 611_996_145_381_376);
        // Metaslab 0: floor(17,179,869,184 / 69,632) = 246,723 rows = 17,179,815,936.
        assert_eq!(first, 17_179_815_936);
    }
}
