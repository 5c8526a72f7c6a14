//! Top-level vdev dispatch (module/zfs/vdev.c vdev_psize_to_asize and each type's
//! vdev_op_open): the size of a top-level vdev from its children, and of a block on it.

use crate::{draid, mirror, raidz};
use model::{VdevGroup, VdevType};

/// The asize of one top-level vdev of `group` whose leaves each give `leaf_asize` bytes.
/// `None` when the children are too small for the type (dRAID) or the product overflows.
pub fn vdev_asize(group: &VdevGroup, leaf_asize: u64) -> Option<u64> {
    match group.vtype {
        VdevType::Disk => Some(leaf_asize),
        VdevType::Mirror => Some(mirror::mirror_vdev_asize(leaf_asize)),
        VdevType::Raidz { .. } => raidz::raidz_vdev_asize(group.children, leaf_asize),
        VdevType::Draid {
            parity,
            data,
            spares,
        } => draid::draid_vdev_asize(leaf_asize, group.children, data, parity, spares),
    }
}

/// The allocated size of one block of `psize` bytes (after compression) on a top-level vdev of
/// `group` with sectors of 2^ashift: parity and padding included, one side of a mirror.
pub fn block_asize(group: &VdevGroup, ashift: u8, psize: u64) -> u64 {
    match group.vtype {
        VdevType::Disk | VdevType::Mirror => mirror::mirror_asize(psize, ashift),
        VdevType::Raidz { parity } => raidz::raidz_asize(psize, ashift, group.children, parity),
        VdevType::Draid { parity, data, .. } => draid::draid_asize(psize, ashift, data, parity),
    }
}

/// The best psize / asize a vdev of `group` can reach: (w - p) / w for raidz, d / (d + p) for
/// dRAID, 1 for a disk or a mirror (whose copies are not in asize).
pub(crate) fn ideal_efficiency(group: &VdevGroup) -> f64 {
    match group.vtype {
        VdevType::Disk | VdevType::Mirror => 1.0,
        VdevType::Raidz { parity } => {
            f64::from(group.children - parity) / f64::from(group.children)
        }
        VdevType::Draid { parity, data, .. } => f64::from(data) / f64::from(data + parity),
    }
}
