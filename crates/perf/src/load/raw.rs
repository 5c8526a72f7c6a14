//! `dd` or fio against the first disk, bypassing ZFS: one request to the device per job.

use super::{Loads, MAX_POPULATION};
use crate::constants::Constants;
use crate::cpu::CpuWork;
use crate::leaf::load::DiskLoad;
use crate::leaf::ncq::reorder_depth;
use crate::leaf::DiskTiming;
use model::workload::{Access, Durability, Workload};
use model::System;

/// Cache flushes per write: fsync or fdatasync on a block device (fio fsync=n or
/// fdatasync=n, O_SYNC/O_DSYNC) ends in a flush of the drive's write cache (Linux
/// blkdev_fsync -> blkdev_issue_flush; a FUA write for O_DSYNC), which the writer waits for.
fn flushes_per_write(w: &Workload) -> f64 {
    match w.durability {
        Durability::EachWrite => 1.0,
        Durability::Every(n) => 1.0 / f64::from(n.max(1)),
        Durability::None | Durability::AtEnd => 0.0,
    }
}

/// The loads of `w` on the system's first disk, its write cache on or off.
pub(super) fn loads(
    system: &System,
    w: &Workload,
    write_cache: bool,
    constants: &Constants,
) -> Loads {
    let disk = &system.disks[0].model;
    let t = DiskTiming::new(disk, constants.disk_command_overhead_s());
    let bs = w.block_size as f64;
    let x = w.offset_bytes as f64 / disk.capacity_bytes as f64;
    let write = w.access.writes();
    let depth = w.outstanding();
    let flushes = if write { flushes_per_write(w) } else { 0.0 };
    let through = !write_cache || (flushes > 0.0 && t.is_rotating());
    let (mut busy_s, mut busy_queued_s) = match w.access {
        Access::SeqWrite if through && depth == 1 => (t.write_through_io_s(bs, x), Vec::new()),
        Access::SeqWrite | Access::SeqRead => (bs / t.rate_at(x, write), Vec::new()),
        _ => {
            let queued =
                t.random_io_queued_s(bs, 1.0, 1, write, reorder_depth(system, 0, u32::MAX));
            (queued[0], queued)
        }
    };
    // Solid state without power-loss protection programs its cache at each flush.
    let flush = flushes * t.flush_s();
    busy_s += flush;
    busy_queued_s.iter_mut().for_each(|s| *s += flush);
    let mut disks = vec![DiskLoad::default(); system.disks.len()];
    disks[0] = DiskLoad {
        read_bytes: if write { 0.0 } else { bs },
        write_bytes: if write { bs } else { 0.0 },
        read_ops: if write { 0.0 } else { 1.0 },
        write_ops: if write { 1.0 } else { 0.0 },
        busy_s,
        busy_queued_s,
        // No vdev queue between the benchmark and the device.
        ..DiskLoad::default()
    };
    let mut vdev_of_disk = vec![String::new(); system.disks.len()];
    vdev_of_disk[0] = "raw device".into();
    Loads {
        disks,
        vdev_of_disk,
        vdevs: Vec::new(),
        cpu: CpuWork {
            app_threads: w.threads,
            ..CpuWork::default()
        },
        user_bytes: bs,
        user_read_bytes: if write { 0.0 } else { bs },
        user_write_bytes: if write { bs } else { 0.0 },
        memory_bytes: bs,
        requests: 1.0,
        population: depth.clamp(1, MAX_POPULATION),
        outstanding: depth.max(1),
        random: !w.access.is_sequential(),
        arc_hit: 0.0,
    }
}
