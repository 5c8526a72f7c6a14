//! What the closed forms and the simulation need to know about repairing one vdev of a group.

/// How one vdev of a layout group is repaired after one of its leaves fails.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct GroupRepair {
    /// Healing resilver of one leaf onto a hot spare or a replacement disk, hours. For dRAID
    /// this is also the rebalance from a distributed spare onto the replacement.
    pub resilver_hours: f64,
    /// dRAID: sequential rebuild onto a distributed spare, hours (every child shares it, so it
    /// is much shorter than a resilver onto one disk). Unused without distributed spares.
    pub sequential_rebuild_hours: f64,
    /// Bytes read by a rebuild that runs with no redundancy left (the last one a vdev
    /// survives): an unrecoverable read error there loses the block it hits.
    pub unprotected_read_bytes: f64,
}

impl GroupRepair {
    /// The time the vdev stays degraded after a failure: the sequential rebuild when it has
    /// a distributed spare to rebuild to, else the wait for a disk (0 with a hot spare) and
    /// the resilver.
    pub fn degraded_hours(&self, distributed_spares: u32, wait_hours: f64) -> f64 {
        if distributed_spares > 0 {
            self.sequential_rebuild_hours
        } else {
            wait_hours + self.resilver_hours
        }
    }
}

/// Distributed spares of a dRAID group (none for other vdev types).
pub fn distributed_spares(group: &model::VdevGroup) -> u32 {
    match group.vtype {
        model::VdevType::Draid { spares, .. } => spares,
        _ => 0,
    }
}
