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
    let write = w.access.writes();
    let depth = w.outstanding();
    let flushes = if write { flushes_per_write(w) } else { 0.0 };
    let (busy_s, busy_queued_s) = service_s(system, &t, w, flushes, write_cache);
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
        // No ARC between the benchmark and the device.
        arc_admitted_bytes: 0.0,
    }
}

/// One request's service time at the device (and by queue depth where it reorders), with the
/// waits and flushes `flushes` per write adds.
fn service_s(
    system: &System,
    t: &DiskTiming,
    w: &Workload,
    flushes: f64,
    write_cache: bool,
) -> (f64, Vec<f64>) {
    let bs = w.block_size as f64;
    let x = w.offset_bytes as f64 / system.disks[0].model.capacity_bytes as f64;
    let write = w.access.writes();
    let depth = w.outstanding();
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
    // Solid state without power-loss protection programs its cache at each flush; before it,
    // the writer waits for its data to reach the drive: an O_DIRECT write at once, a buffered
    // one when fsync or fdatasync writes the page cache back and waits for it
    // (blkdev_fsync -> file_write_and_wait_range), which a stream's transfer time leaves out.
    let waits = if w.direct { 1.0 } else { flushes };
    let waited = match w.access {
        Access::SeqWrite if !t.is_rotating() => waits * t.flash_latency_s(true),
        _ => 0.0,
    };
    let flush = flushes * t.flush_s() + waited;
    busy_s += flush;
    busy_queued_s.iter_mut().for_each(|s| *s += flush);
    (busy_s, busy_queued_s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf::tests::flash;
    use crate::testkit::{fast_link, system};
    use model::hardware::Medium;

    #[test]
    fn a_flushed_write_waits_for_the_drive_then_its_flush() {
        // fio fdatasync=1 with 4 KiB writes on a raw NVMe drive: its default QD1 write
        // latency (15.85 us) and the transfer at 290 MB/s; the flush is free without a
        // volatile cache, 1.5 ms otherwise.
        let mut s = system("stripe-1", 1, 100.0, fast_link());
        s.disks[0].model = flash(Medium::Nvme, 290.0, 65_000.0);
        s.disks[0].model.volatile_write_cache = Some(false);
        let c = Constants::priors();
        let w = Workload::parse(
            "fio --name=f --rw=write --ioengine=sync --fdatasync=1 --bs=4k --filename=/dev/nvme0n1",
        )
        .unwrap();
        let transfer = 4096.0 / 290e6;
        let free = loads(&s, &w, true, &c).disks[0].busy_s;
        assert!((free - (15.85e-6 + transfer)).abs() < 1e-12, "{free}");
        s.disks[0].model.volatile_write_cache = None;
        let paid = loads(&s, &w, true, &c).disks[0].busy_s;
        assert!(
            (paid - (15.85e-6 + transfer + 1.5e-3)).abs() < 1e-12,
            "{paid}"
        );
        // Buffered writes nobody waits for stream at the transfer rate.
        let plain =
            Workload::parse("fio --name=f --rw=write --bs=4k --filename=/dev/nvme0n1").unwrap();
        assert!((loads(&s, &plain, true, &c).disks[0].busy_s - transfer).abs() < 1e-12);
    }
}
