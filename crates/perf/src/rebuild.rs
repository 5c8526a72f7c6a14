//! What a rebuild (resilver, scrub, dRAID sequential rebuild) can draw from the hardware, for
//! the reliability engine: the media rate of the pool's slowest leaf over the part of it that
//! holds data, and the narrowest path every pool leaf shares.
//!
//! - Metaslabs fill from the outer, low-LBA edge first (metaslab.c weights lower metaslabs
//!   higher), and OpenZFS sorts resilver I/O by offset since 0.8 (sequential scrub), so a pool
//!   at fill f rebuilds from [0, f] of each disk, at the mean media rate over that span; the
//!   scrub class keeps up to 3 I/Os in flight per leaf (docs/zfs-internals.md §2), enough
//!   for a disk to stream.
//! - The shared path is the narrowest pipe carrying reads to memory (a controller chip, a bus,
//!   an uplink) that every pool leaf sits behind, if any: a rebuild is mostly reads.

use crate::constants::Constants;
use crate::leaf::DiskTiming;
use crate::path::Machine;
use crate::PerfError;
use model::System;
use serde::Serialize;

/// A path every leaf of the pool shares (a controller, a bus, an uplink).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SharedPath {
    /// The pipe and what it is: `slot1 (to memory) (PCIe 3.0 x8, ...)`.
    pub name: String,
    pub bytes_per_s: f64,
}

/// The rates a rebuild can reach on an otherwise idle pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RebuildPath {
    /// Bytes/s the slowest pool leaf streams reading, and writing, over the filled span.
    pub leaf_read_bytes_per_s: f64,
    pub leaf_write_bytes_per_s: f64,
    pub shared: Option<SharedPath>,
}

/// The rebuild rates of the normal-class leaves of `system`'s pool filled to `fill` (0..=1).
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
    })
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
