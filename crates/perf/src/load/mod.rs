//! From a workload to the work each resource does per job, stage by stage as ZFS issues it:
//! the records a job reads and writes after the ARC (`records`), each vdev's share of them as
//! sequential streams through the txg and prefetch (`stream`) or as random I/O through the
//! leaves' queues (`random`), the ZIL's commits a writer waits for (`log`), and the CPU's and
//! memory's shares (`stages`); raw-disk workloads bypass ZFS (`raw`).
//!
//! A job is one record for a sequential stream (its requests are `recordsize / bs`), one
//! application request for random I/O and Bonnie's seeks, and one request to the device for
//! raw-disk workloads.

mod log;
mod random;
mod raw;
mod records;
mod stages;
mod stream;
mod work;

use crate::constants::Constants;
use crate::cpu::CpuWork;
use crate::leaf::load::DiskLoad;
use crate::release::Release;
use crate::txg_close::Fill;
use crate::vdev::VdevLoad;
use crate::PerfError;
use model::workload::{Target, Workload};
use model::System;
use stages::Stages;

/// Largest number of jobs the model circulates: beyond it throughput no longer changes.
const MAX_POPULATION: u32 = 4096;

/// Everything a job needs, and how many jobs are in circulation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Loads {
    pub disks: Vec<DiskLoad>,
    /// The top-level vdev each disk belongs to (empty: unused).
    pub vdev_of_disk: Vec<String>,
    pub vdevs: Vec<VdevLoad>,
    pub cpu: CpuWork,
    /// Application bytes per job, read and written apart.
    pub user_bytes: f64,
    pub user_read_bytes: f64,
    pub user_write_bytes: f64,
    /// Bytes crossing memory per job: device DMA, the checksum pass, the copy between the
    /// application and the ARC (a read and a write), and parity generation.
    pub memory_bytes: f64,
    /// Application requests per job.
    pub requests: f64,
    /// Jobs in flight.
    pub population: u32,
    /// Requests the application keeps in flight at the file system.
    pub outstanding: u32,
    /// Whether the workload is counted in operations (random) rather than bytes (streams).
    pub random: bool,
    /// Share of the block reads the ARC served.
    pub arc_hit: f64,
    /// Bytes per job the ARC admits while full, each waiting for as much to be evicted
    /// (arc_evict.rs).
    pub arc_admitted_bytes: f64,
    /// Seconds a pass over the data set waits, once, before its streams' prefetch runs ahead
    /// of them (stream.rs `start_s`); 0 where nothing is read from the disks at its start.
    pub start_s: f64,
}

/// The loads of `w` on `system`, the cache devices holding `l2_fed` of what they could
/// (l2arc.rs `fed_share`), each txg as full as the write throttle lets it be (the tests').
#[cfg(test)]
pub(crate) fn loads(
    system: &System,
    w: &Workload,
    (release, l2_fed): (&Release, f64),
    constants: &Constants,
) -> Result<Loads, PerfError> {
    loads_at(system, w, (release, l2_fed, Fill::Throttled), constants)
}

/// `loads` with each txg closing as `fill` says (txg_close.rs).
pub(crate) fn loads_at(
    system: &System,
    w: &Workload,
    (release, l2_fed, fill): (&Release, f64, Fill),
    constants: &Constants,
) -> Result<Loads, PerfError> {
    if system.disks.is_empty() {
        return Err(PerfError::System("the system has no disks".into()));
    }
    match w.target {
        Target::RawDisk { write_cache } => Ok(raw::loads(
            system,
            w,
            write_cache,
            release.platform,
            constants,
        )),
        Target::Pool | Target::Zvol { .. } => {
            Ok(Stages::new(system, w, release, constants, (l2_fed, fill))?.loads())
        }
    }
}

impl Loads {
    /// The same work as `parts` jobs, each a part of one request that runs alongside the
    /// others (a large request's pieces on different disks proceed at once): the MVA then
    /// overlaps them instead of serving a request's disks one after the other.
    fn split(mut self, parts: f64) -> Loads {
        if parts <= 1.0 {
            return self;
        }
        let each = |v: &mut f64| *v /= parts;
        for d in &mut self.disks {
            for v in [
                &mut d.read_bytes,
                &mut d.write_bytes,
                &mut d.read_ops,
                &mut d.write_ops,
                &mut d.busy_s,
                &mut d.background_s,
            ] {
                each(v);
            }
            d.busy_queued_s.iter_mut().for_each(each);
        }
        for v in &mut self.vdevs {
            for x in [&mut v.busy_s, &mut v.blocks, &mut v.other_s] {
                each(x);
            }
            v.busy_queued_s.iter_mut().for_each(each);
        }
        for v in [
            &mut self.cpu.cycles,
            &mut self.cpu.txg_cycles,
            &mut self.cpu.app_cycles,
            &mut self.cpu.app_wait_s,
            &mut self.cpu.zil_writer_cycles,
            &mut self.user_bytes,
            &mut self.user_read_bytes,
            &mut self.user_write_bytes,
            &mut self.memory_bytes,
            &mut self.requests,
            &mut self.arc_admitted_bytes,
        ] {
            each(v);
        }
        let jobs = (f64::from(self.population) * parts).round() as u32;
        self.population = jobs.clamp(1, MAX_POPULATION);
        self
    }
}
