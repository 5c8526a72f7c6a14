//! What a rebuild (resilver, scrub, dRAID sequential rebuild) can draw from the hardware, for
//! the reliability engine: the media rate of the pool's slowest leaf over the part of it that
//! holds data, and the narrowest path every pool leaf shares.
//!
//! - Metaslabs fill from the outer, low-LBA edge first (metaslab.c weights lower metaslabs
//!   higher), and OpenZFS sorts resilver I/O by offset since 0.8 (sequential scrub), so a pool
//!   whose data spans [0, s] of each disk (s: the caller's, from fill and the holes among the
//!   data) rebuilds at the mean media rate over that span; the scrub class keeps up to 3 I/Os
//!   in flight per leaf (docs/zfs-internals.md §2), enough for a disk to stream.
//! - What each block of a resilver's scan costs ([`BlockCosts`]): the aggregation limit, a
//!   command's overhead, an indirect block's random read, a zio's and a checksum's CPU.
//! - The shared path is the narrowest pipe carrying reads to memory (a controller chip, a bus,
//!   an uplink) that every pool leaf sits behind, if any: a rebuild is mostly reads.

use crate::constants::Constants;
use crate::cpu;
use crate::leaf::DiskTiming;
use crate::path::Machine;
use crate::release::Release;
use crate::PerfError;
use model::System;
use serde::Serialize;

/// A path every leaf of the pool shares (a controller, a bus, an uplink).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SharedPath {
    /// The pipe and what it is: `slot1 (to memory) (PCIe 3.0 x8, ...)`.
    pub name: String,
    /// Its rate, bytes per second.
    pub bytes_per_s: f64,
}

/// The rates a rebuild can reach on an otherwise idle pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RebuildPath {
    /// Bytes/s the slowest pool leaf streams reading, over the filled span.
    pub leaf_read_bytes_per_s: f64,
    /// The same, writing.
    pub leaf_write_bytes_per_s: f64,
    /// The slowest path every leaf shares, if there is one.
    pub shared: Option<SharedPath>,
    /// What each block of a resilver's scan costs (dsl_scan.c).
    pub per_block: BlockCosts,
}

/// The per-block costs of a resilver's scan on this hardware and release.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockCosts {
    /// Largest read vdev_queue.c builds from adjacent ones on a pool leaf
    /// (zfs_vdev_aggregation_limit; its _non_rotating twin on flash).
    pub aggregation_bytes: f64,
    /// Seconds of one read command on the slowest pool leaf that no queue hides (flash: the
    /// latency over the reads it serves at once).
    pub command_s: f64,
    /// Seconds of one random read of an indirect block at the scrub class's 3 reads in flight:
    /// on the special vdev's first leaf when the pool has one (metadata lives there), else on
    /// the slowest pool leaf over the filled span.
    pub indirect_read_s: f64,
    /// Seconds of one read of a block placed apart from its neighbours, reached in offset
    /// order among the sorted reads of a scan window (a short seek and the rotation), at the
    /// scrub class's 3 reads in flight on the slowest pool leaf.
    pub scattered_read_s: f64,
    /// Seconds of one core per zio (the release's zio pipeline).
    pub zio_cpu_s: f64,
    /// Seconds of one core per byte checksummed.
    pub checksum_s_per_byte: f64,
    /// The host's cores.
    pub cores: f64,
}

/// Reads in flight per leaf in the scrub class (vdev_queue.c zfs_vdev_scrub_max_active).
const SCRUB_MAX_ACTIVE: u32 = 3;
/// A column of a 128 KiB indirect block, as one random read.
const INDIRECT_COLUMN_BYTES: f64 = 16384.0;

/// The rebuild rates of the normal-class leaves of `system`'s pool whose data spans [0, fill]
/// of each leaf (0..=1).
pub fn rebuild_path(system: &System, fill: f64) -> Result<RebuildPath, PerfError> {
    if !(0.0..=1.0).contains(&fill) {
        return Err(PerfError::Workload(format!(
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
            PerfError::System(format!(
                "the pool needs {leaves} disks, the system has {}",
                system.disks.len()
            ))
        })?;
    let overhead = Constants::fitted().disk_command_overhead_s();
    let slowest = |write: bool| {
        disks
            .iter()
            .map(|d| DiskTiming::new(&d.model, overhead).mean_rate(0.0, fill, write))
            .fold(f64::INFINITY, f64::min)
    };
    Ok(RebuildPath {
        leaf_read_bytes_per_s: slowest(false),
        leaf_write_bytes_per_s: slowest(true),
        shared: shared_path(system, disks.len())?,
        per_block: block_costs(system, disks, fill),
    })
}

/// The per-block costs of a scan over `disks` (the pool leaves) filled over [0, span].
fn block_costs(system: &System, disks: &[model::system::Disk], span: f64) -> BlockCosts {
    let constants = Constants::fitted();
    let overhead = constants.disk_command_overhead_s();
    let timings: Vec<DiskTiming> = disks
        .iter()
        .map(|d| DiskTiming::new(&d.model, overhead))
        .collect();
    let slowest = |f: &dyn Fn(&DiskTiming) -> f64| timings.iter().map(f).fold(0.0, f64::max);
    let random = |t: &DiskTiming, span: f64| {
        let queued = t.random_io_queued_s(INDIRECT_COLUMN_BYTES, span, 1, false, SCRUB_MAX_ACTIVE);
        queued.last().copied().unwrap_or(0.0) / f64::from(t.parallelism())
    };
    let special = special_leaf(system).map(|d| DiskTiming::new(&d.model, overhead));
    let release = Release::of(system.host.zfs, &system.host.tunables);
    let rotating = timings.iter().any(DiskTiming::is_rotating);
    let cpu = &system.host.cpu;
    let checksum = system
        .pool
        .datasets
        .first()
        .map_or(model::dataset::Checksum::On, |d| d.checksum);
    BlockCosts {
        aggregation_bytes: if rotating {
            release.aggregation_hdd
        } else {
            release.aggregation_ssd
        } as f64,
        command_s: slowest(&|t| overhead / f64::from(t.parallelism())),
        indirect_read_s: match &special {
            Some(t) => random(t, 1.0),
            None => slowest(&|t| random(t, span)),
        },
        // Sorted reads of a window lie close together: the seek over a vanishing span.
        scattered_read_s: slowest(&|t| random(t, 0.0)),
        zio_cpu_s: cpu::seconds(cpu, constants.zio_cycles(release.era)),
        checksum_s_per_byte: cpu::seconds(cpu, cpu::checksum_byte(checksum, &release, cpu)),
        cores: f64::from(cpu.cores.max(1) * system.host.sockets.max(1)),
    }
}

/// The first leaf of the pool's special vdev, if any: disks fill the vdevs in order.
fn special_leaf(system: &System) -> Option<&model::system::Disk> {
    let mut next = 0;
    for top in &system.pool.vdevs {
        if top.class == model::VdevClass::Special {
            return system.disks.get(next);
        }
        next += top.layout.leaves() as usize;
    }
    None
}

/// The narrowest pipe carrying reads on the path of every one of the first `disks` disks.
fn shared_path(system: &System, disks: usize) -> Result<Option<SharedPath>, PerfError> {
    let machine = Machine::new(system)?;
    let paths = &machine.paths[..disks];
    Ok(paths[0]
        .iter()
        .filter(|pipe| paths.iter().all(|p| p.contains(pipe)))
        .map(|&i| &machine.pipes[i])
        .filter(|pipe| pipe.reads)
        .min_by(|a, b| a.rate.total_cmp(&b.rate))
        .map(|pipe| SharedPath {
            name: format!("{} ({})", pipe.name, pipe.detail),
            bytes_per_s: pipe.rate,
        }))
}
