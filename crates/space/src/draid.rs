//! dRAID (module/zfs/vdev_draid.c): the size of a vdev, of one block on it, and how its
//! metaslabs are trimmed to whole redundancy groups.

use model::units::MIB;

/// VDEV_DRAID_ROWHEIGHT: each child contributes rows of 16 MiB to a redundancy group.
pub const ROW_HEIGHT: u64 = 16 * MIB;
/// VDEV_DRAID_REFLOW_RESERVE: 2 rows (32 MiB) kept at the end of each child for expansion.
pub const REFLOW_RESERVE: u64 = 2 * ROW_HEIGHT;

/// vdc_groupsz: the bytes of one redundancy group on the vdev, (d + p) x 16 MiB.
pub fn group_size(data: u32, parity: u32) -> u64 {
    u64::from(data + parity) * ROW_HEIGHT
}

/// vdev_draid_open (zfs-facts.md §1): child = floor((min child - 32 MiB) / 16 MiB) x 16 MiB;
/// vdev asize = floor(child x (children - spares) / groupsz) x groupsz. `None` when a child is
/// too small to hold the reserve and one row, or on overflow.
pub fn draid_vdev_asize(
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

/// vdev_draid_asize: a block always fills whole rows of d data and p parity sectors:
/// rows = ceil(psize / (d x 2^ashift)); asize = rows x (d + p) x 2^ashift.
pub fn draid_asize(psize: u64, ashift: u8, data: u32, parity: u32) -> u64 {
    if psize == 0 {
        return 0;
    }
    let rows = (psize - 1) / (u64::from(data) << ashift) + 1;
    (rows * u64::from(data + parity)) << ashift
}

/// vdev_draid_metaslab_init: a metaslab starts at the next group boundary and holds whole
/// groups only: start' = roundup(start, groupsz); size' = floor((size - (start' - start)) /
/// groupsz) x groupsz.
///
/// Not in zfs-facts.md: recalled from module/zfs/vdev_draid.c (vdev_draid_metaslab_init and
/// vdev_draid_get_astart, the vdev_op_metaslab_init of dRAID since 2.1); verify.
pub fn draid_metaslab_size(ms_start: u64, ms_size: u64, groupsz: u64) -> u64 {
    let astart = ms_start.div_ceil(groupsz) * groupsz;
    ms_size.saturating_sub(astart - ms_start) / groupsz * groupsz
}

/// The summed size of metaslabs 0..count of 2^shift bytes each after dRAID trimming, and the
/// size of metaslab 0 (the one the embedded ZIL takes). The trim repeats with a period of
/// groupsz / gcd(groupsz, 2^shift) metaslabs, at most d + p, so one period is summed and
/// repeated.
pub fn draid_metaslab_space(count: u64, shift: u32, groupsz: u64) -> (u64, u64) {
    let ms = 1u64 << shift;
    let gcd = 1u64 << groupsz.trailing_zeros().min(shift);
    let period = (groupsz / gcd).max(1);
    let one = |m: u64| draid_metaslab_size(m * ms, ms, groupsz);
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
        // groupsz 10 x 16 MiB = 160 MiB; metaslabs of 16 GiB = 16384 MiB.
        // ms 0: start 0, 16384 / 160 = 102 groups -> 16,320 MiB.
        let g = group_size(8, 2);
        assert_eq!(draid_metaslab_size(0, 16 * GIB, g), 16_320 * MIB);
        // ms 1: start 16384 MiB -> 16480 MiB (103 groups), 96 MiB skipped; (16384-96)/160 = 101.8
        // -> 101 groups = 16,160 MiB.
        assert_eq!(draid_metaslab_size(16 * GIB, 16 * GIB, g), 16_160 * MIB);
        // The summed form equals the plain sum.
        for count in [0u64, 1, 2, 4, 5, 6, 11, 137] {
            let plain: u64 = (0..count)
                .map(|m| draid_metaslab_size(m << 34, 1 << 34, g))
                .sum();
            assert_eq!(draid_metaslab_space(count, 34, g).0, plain, "{count}");
        }
        // A power-of-two group (d + p = 8) never trims.
        assert_eq!(draid_metaslab_space(100, 34, group_size(6, 2)).0, 100 << 34);
    }
}
