//! Rebuild rates of a whole machine: the leaf rates and shared path the performance model
//! gives (`perf::rebuild_path`), and the share of each disk a concurrent user workload takes,
//! from the busy fraction the performance model predicts for the pool's disks; the resilver
//! keeps at least the share of its queue class (below).

use crate::resilver::RebuildRates;
use crate::scan::{scan_window_blocks, ScanShape};
use crate::Error;
use model::pool::DEFAULT_RECORDSIZE;
use model::{System, Workload};

/// Resilver I/O is issued in the scrub class, which always keeps its minimum of 1 I/O in
/// flight per leaf, next to at most 10 of a user's sync-read, sync-write or async-write class
/// (vdev_queue.c min/max active, docs/zfs-internals.md §2): under a saturating user load the
/// resilver still holds one slot in eleven, taken here as its share of the disk's time.
const SCRUB_MIN_ACTIVE: f64 = 1.0;
const USER_MAX_ACTIVE: f64 = 10.0;

/// How many times longer a resilver onto a drive-managed SMR disk takes than onto a CMR disk
/// of the same size: once its media cache fills, each of the resilver's scattered writes
/// makes the drive rewrite a whole shingled band. ServeTheHome resilvered a 4 x 4 TB raidz1
/// onto a WD Red WD40EFAX (SMR) in more than 9 days, where CMR NAS disks took about 16 hours:
/// 216 h / 16 h = 13.5 (reported by Ars Technica, June 2020,
/// https://arstechnica.com/gadgets/2020/06/western-digitals-smr-disks-arent-great-but-theyre-not-garbage/).
/// The new disk's write rate is divided by it. A measured ratio, not a fitted constant.
pub const SMR_RESILVER_SLOWDOWN: f64 = 216.0 / 16.0;

/// A user load during rebuilds: the workload, and the share of the time it runs (1: always,
/// 0.2: a daytime load of about five hours in the day).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UserLoad<'a> {
    /// What the users run.
    pub workload: &'a Workload,
    /// The share of the time they run it, 0-1.
    pub busy: f64,
}

/// Rebuild rates for the pool of `system` filled to `fill`, with `user` running at the same
/// time (`None`: an idle pool).
pub fn rebuild_rates(
    system: &System,
    fill: f64,
    user: Option<UserLoad>,
) -> Result<RebuildRates, Error> {
    if !(0.0..=1.0).contains(&fill) {
        return Err(Error::Invalid(format!(
            "fill must be between 0 and 1, not {fill}"
        )));
    }
    let path = perf::rebuild_path(system, model::pool::data_span(fill)).map_err(|e| match e {
        perf::PerfError::System(m) => Error::Invalid(m),
        other => Error::Perf(other),
    })?;
    let pool_disks = &system.disks[..pool_leaves(system)];
    let scan = scan_shape(system, pool_disks, fill, &path);
    let user_busy = match user {
        None => 0.0,
        Some(UserLoad { workload, busy }) => {
            let prediction = perf::predict(system, workload).map_err(Error::Perf)?;
            let busiest = prediction
                .devices
                .iter()
                .filter(|dev| pool_disks.iter().any(|d| d.name == dev.name))
                .map(|dev| dev.utilization)
                .fold(0.0, f64::max);
            // While the load runs it takes its share of each disk; for the rest of the time the
            // rebuild has the disks to itself: on average the load's share times `busy`.
            busiest.min(1.0 - SCRUB_MIN_ACTIVE / (SCRUB_MIN_ACTIVE + USER_MAX_ACTIVE)) * busy
        }
    };
    // A resilver writes onto a disk like the pool's: shingled, at the SMR resilvers' rate.
    let shingled = system.disks.first().and_then(|d| d.model.shingled) == Some(true);
    let write_slowdown = if shingled { SMR_RESILVER_SLOWDOWN } else { 1.0 };
    Ok(RebuildRates {
        leaf_read_bytes_per_sec: path.leaf_read_bytes_per_s,
        leaf_write_bytes_per_sec: path.leaf_write_bytes_per_s / write_slowdown,
        shared: path.shared,
        user_busy,
        scan: Some(scan),
    })
}

/// The pool's normal-class leaves: the first disks of the system.
fn pool_leaves(system: &System) -> usize {
    system
        .pool
        .normal()
        .map(|t| t.layout.leaves() as usize)
        .sum()
}

/// How the blocks of `system`'s pool filled to `fill` lie for a resilver's scan.
fn scan_shape(
    system: &System,
    pool_disks: &[model::system::Disk],
    fill: f64,
    path: &perf::RebuildPath,
) -> ScanShape {
    let recordsize = system
        .pool
        .datasets
        .first()
        .map_or(DEFAULT_RECORDSIZE, |d| d.recordsize) as f64;
    // The allocated bytes, parity included: each leaf holds `fill` of its size.
    let allocated_bytes = fill
        * pool_disks
            .iter()
            .map(|d| d.model.capacity_bytes as f64)
            .sum::<f64>();
    ScanShape {
        recordsize,
        sector: f64::from(1u32 << system.pool.ashift.min(16)),
        free_among_data: model::pool::FREE_AMONG_DATA,
        window_blocks: scan_window_blocks(system.host.ram_bytes as f64, allocated_bytes),
        allocated_bytes,
        costs: path.per_block.clone(),
    }
}
