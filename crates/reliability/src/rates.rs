//! Rebuild rates of a whole machine, from the performance model (crates/perf).
//!
//! - Each leaf streams its rebuild I/O at its mean media rate over the part of the disk that
//!   holds data: on rotating disks metaslabs are filled from the outer, low-LBA edge first
//!   (metaslab.c gives lower metaslabs a higher weight), and OpenZFS sorts resilver I/O by
//!   offset since 0.8 (sequential scrub), so a pool at fill f rebuilds from [0, f] of each
//!   disk. The scrub class allows 3 such I/Os in flight per leaf (zfs-facts.md §2), enough
//!   queued requests for a disk to stream at its media rate (§5). The slowest disk of the
//!   pool sets the rate.
//! - The narrowest pipe (controller chip or link) carrying reads to memory that every pool
//!   disk sits behind, if any, is the shared path: a rebuild is mostly reads. Reads and writes
//!   are summed on it, which is exact for a half-duplex bus and conservative for a
//!   full-duplex link, whose writes travel the other way.
//! - A concurrent user workload takes the busy fraction the performance model predicts for
//!   the pool's disks; the resilver keeps at least the share of its queue class (below).

use crate::resilver::{RebuildRates, SharedPath};
use crate::Error;
use model::{System, Workload};
use perf::disk::DiskTiming;
use perf::resources::Machine;

/// Resilver I/O is issued in the scrub class, which always keeps its minimum of 1 I/O in
/// flight per leaf, next to at most 10 of a user's sync-read, sync-write or async-write class
/// (vdev_queue.c min/max active, zfs-facts.md §2): under a saturating user load the resilver
/// still holds one slot in eleven, taken here as its share of the disk's time.
const SCRUB_MIN_ACTIVE: f64 = 1.0;
const USER_MAX_ACTIVE: f64 = 10.0;

/// Rebuild rates for the pool of `system` filled to `fill`, with `user` running at the same
/// time (`None`: an idle pool).
pub fn rebuild_rates(
    system: &System,
    fill: f64,
    user: Option<&Workload>,
) -> Result<RebuildRates, Error> {
    if !(0.0..=1.0).contains(&fill) {
        return Err(Error::Invalid(format!(
            "fill must be between 0 and 1, not {fill}"
        )));
    }
    let leaves: usize = system
        .pool
        .normal()
        .map(|t| t.layout.leaves() as usize)
        .sum();
    let disks = system
        .disks
        .get(..leaves)
        .filter(|d| !d.is_empty())
        .ok_or_else(|| {
            Error::Invalid(format!(
                "the pool needs {leaves} disks, the system has {}",
                system.disks.len()
            ))
        })?;
    let slowest = |write: bool| {
        disks
            .iter()
            .map(|d| DiskTiming::new(&d.model).mean_rate(0.0, fill, write))
            .fold(f64::INFINITY, f64::min)
    };
    let user_busy = match user {
        None => 0.0,
        Some(workload) => {
            let prediction =
                perf::predict(system, workload).map_err(|e| Error::Perf(e.to_string()))?;
            let busiest = prediction
                .devices
                .iter()
                .filter(|dev| disks.iter().any(|d| d.name == dev.name))
                .map(|dev| dev.utilization)
                .fold(0.0, f64::max);
            busiest.min(1.0 - SCRUB_MIN_ACTIVE / (SCRUB_MIN_ACTIVE + USER_MAX_ACTIVE))
        }
    };
    Ok(RebuildRates {
        leaf_read_bytes_per_sec: slowest(false),
        leaf_write_bytes_per_sec: slowest(true),
        shared: shared_path(system, disks.len())?,
        user_busy,
    })
}

/// The narrowest pipe carrying reads on the path of every one of the first `disks` disks.
fn shared_path(system: &System, disks: usize) -> Result<Option<SharedPath>, Error> {
    let machine = Machine::new(system).map_err(|e| Error::Perf(e.to_string()))?;
    let paths = &machine.paths[..disks];
    Ok(paths[0]
        .iter()
        .filter(|pipe| paths.iter().all(|p| p.contains(pipe)))
        .map(|&i| &machine.pipes[i])
        .filter(|pipe| pipe.reads)
        .min_by(|a, b| a.rate.total_cmp(&b.rate))
        .map(|pipe| SharedPath {
            name: format!("{} ({})", pipe.name, pipe.detail),
            bytes_per_sec: pipe.rate,
        }))
}
