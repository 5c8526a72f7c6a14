//! `dd` or fio against the first disk, bypassing ZFS: one request to the device per job; a
//! buffered read goes through Linux's page cache (`page_cache.rs`).

use super::{Loads, MAX_POPULATION};
use crate::constants::Constants;
use crate::cpu::CpuWork;
use crate::leaf::load::DiskLoad;
use crate::leaf::ncq::reorder_depth;
use crate::leaf::DiskTiming;
use crate::page_cache;
use model::release::Platform;
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

/// Share of a job's requests that are reads: a mix's `read_pct` (fio draws each request's
/// direction at those odds, io_u.c get_rand_ddir), else all or none.
fn read_share(access: Access) -> f64 {
    match access {
        Access::Random { read_pct } | Access::SeqMix { read_pct } => f64::from(read_pct) / 100.0,
        a if a.writes() => 0.0,
        _ => 1.0,
    }
}

/// The loads of `w` on the system's first disk, its write cache on or off: a request, a read
/// or a write in the workload's mix.
pub(super) fn loads(
    system: &System,
    w: &Workload,
    write_cache: bool,
    platform: Platform,
    constants: &Constants,
) -> Loads {
    let bs = w.block_size as f64;
    let r = read_share(w.access);
    let depth = w.outstanding();
    // A buffered read the page cache holds reaches no device.
    let reader = page_cache::reader(system, w, platform);
    let mut disks = vec![DiskLoad::default(); system.disks.len()];
    if !reader.as_ref().is_some_and(|p| p.cached) {
        disks[0] = device_load(system, w, write_cache, constants);
    }
    // The reader's thread copies through the page cache (page_cache.rs); writes, O_DIRECT
    // reads and other systems' raw devices cost the model no cycles here.
    let (app_cycles, in_flight) = reader.map_or((0.0, depth), |p| (r * p.call_cycles, p.in_flight));
    let mut vdev_of_disk = vec![String::new(); system.disks.len()];
    vdev_of_disk[0] = "raw device".into();
    Loads {
        disks,
        vdev_of_disk,
        vdevs: Vec::new(),
        cpu: CpuWork {
            cycles: app_cycles,
            app_cycles,
            app_threads: w.threads,
            ..CpuWork::default()
        },
        user_bytes: bs,
        user_read_bytes: r * bs,
        user_write_bytes: (1.0 - r) * bs,
        memory_bytes: bs,
        requests: 1.0,
        population: in_flight.clamp(1, MAX_POPULATION),
        outstanding: depth.max(1),
        random: !w.access.is_sequential(),
        arc_hit: 0.0,
        // No ARC between the benchmark and the device.
        arc_admitted_bytes: 0.0,
        start_s: 0.0,
    }
}

/// What one request of `w` asks of the device, its write cache on or off.
fn device_load(
    system: &System,
    w: &Workload,
    write_cache: bool,
    constants: &Constants,
) -> DiskLoad {
    let t = DiskTiming::new(&system.disks[0].model, constants.disk_command_overhead_s());
    let bs = w.block_size as f64;
    let r = read_share(w.access);
    let flushes = (1.0 - r) * flushes_per_write(w);
    let (busy_s, busy_queued_s) = service_s(system, &t, w, flushes, write_cache);
    DiskLoad {
        read_bytes: r * bs,
        write_bytes: (1.0 - r) * bs,
        read_ops: r,
        write_ops: 1.0 - r,
        busy_s,
        busy_queued_s,
        // No vdev queue between the benchmark and the device.
        ..DiskLoad::default()
    }
}

/// One request's service time at the device (and by queue depth where it reorders), a read's
/// and a write's in the workload's mix, with the waits and the `flushes` per request.
fn service_s(
    system: &System,
    t: &DiskTiming,
    w: &Workload,
    flushes: f64,
    write_cache: bool,
) -> (f64, Vec<f64>) {
    let bs = w.block_size as f64;
    let x = w.offset_bytes as f64 / system.disks[0].model.capacity_bytes as f64;
    let r = read_share(w.access);
    let depth = w.outstanding();
    let through = !write_cache || (flushes > 0.0 && t.is_rotating());
    let (mut busy_s, mut busy_queued_s) = match w.access {
        Access::SeqWrite if through && depth == 1 => (t.write_through_io_s(bs, x), Vec::new()),
        // A mix's read and write streams each run at their own rate; the device takes them in
        // turn (how close the two positions stay, and a disk's seeks between them, are not
        // modelled: they start together at the file's offset and advance at the mix's odds).
        Access::SeqWrite | Access::SeqRead | Access::SeqMix { .. } => {
            let s = r * bs / t.rate_at(x, false) + (1.0 - r) * bs / t.rate_at(x, true);
            (s, Vec::new())
        }
        _ => {
            let reorder = reorder_depth(system, 0, u32::MAX);
            let queued = |write| t.random_io_queued_s(bs, 1.0, 1, write, reorder);
            let (reads, writes) = (queued(false), queued(true));
            let mixed: Vec<f64> = reads
                .iter()
                .zip(&writes)
                .map(|(a, b)| r * a + (1.0 - r) * b)
                .collect();
            (mixed[0], mixed)
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
        let free = loads(&s, &w, true, Platform::Linux, &c).disks[0].busy_s;
        assert!((free - (15.85e-6 + transfer)).abs() < 1e-12, "{free}");
        s.disks[0].model.volatile_write_cache = None;
        let paid = loads(&s, &w, true, Platform::Linux, &c).disks[0].busy_s;
        assert!(
            (paid - (15.85e-6 + transfer + 1.5e-3)).abs() < 1e-12,
            "{paid}"
        );
        // Buffered writes nobody waits for stream at the transfer rate.
        let plain =
            Workload::parse("fio --name=f --rw=write --bs=4k --filename=/dev/nvme0n1").unwrap();
        assert!(
            (loads(&s, &plain, true, Platform::Linux, &c).disks[0].busy_s - transfer).abs() < 1e-12
        );
    }

    #[test]
    fn a_buffered_read_of_the_device_copies_through_the_page_cache() {
        // tn-bench's `dd bs=4K` of an NVMe drive on a host of 30.75 GiB: cold, the reader
        // pays the call, dd's write to /dev/null, the copy and the miss (10,032.7 reference
        // cycles, page_cache.rs) while readahead keeps 32 calls in flight at the device;
        // warm and smaller than the RAM, nothing reaches the device and the miss is not paid
        // (4,048); O_DIRECT pays nothing and keeps its depth of 1.
        let mut s = system("stripe-1", 1, 100.0, fast_link());
        s.disks[0].model = flash(Medium::Nvme, 2600.0, 575_000.0);
        s.host.ram_bytes = 31_488 << 20;
        let c = Constants::priors();
        let on =
            |platform, spec: &str| loads(&s, &Workload::parse(spec).unwrap(), true, platform, &c);
        let dd = |spec: &str| on(Platform::Linux, spec);
        let cold = dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=2621440");
        assert!(
            (cold.cpu.app_cycles - 10_032.7).abs() < 0.5,
            "{}",
            cold.cpu.app_cycles
        );
        assert_eq!((cold.population, cold.disks[0].read_bytes), (32, 4096.0));
        let warm = dd("cache=warm dd if=/dev/nvme0n1 of=/dev/null bs=4K count=2621440");
        assert!((warm.cpu.app_cycles - 4_048.0).abs() < 1e-9);
        assert_eq!((warm.population, warm.disks[0].busy_s), (1, 0.0));
        let direct = dd("dd if=/dev/nvme0n1 of=/dev/null bs=4K count=2621440 iflag=direct");
        assert_eq!((direct.cpu.app_cycles, direct.population), (0.0, 1));
        // FreeBSD's disk devices and Solaris's /dev/rdsk nodes have no page cache.
        for platform in [Platform::FreeBsd, Platform::Solaris] {
            let raw = on(platform, "dd if=/dev/ada0 of=/dev/null bs=4K count=2621440");
            assert_eq!((raw.cpu.app_cycles, raw.population), (0.0, 1));
        }
    }

    #[test]
    fn a_sequential_mix_reads_and_writes_its_share_each_at_its_rate() {
        // fio rw=rw, 75% reads of 64 KiB on a raw NVMe drive reading at 3,000 MB/s and
        // writing at 1,000 MB/s: a request is a read 3 times in 4, so it moves 48 KiB read
        // and 16 KiB written, in 0.75 x 65536 / 3e9 + 0.25 x 65536 / 1e9 s (32.768 us):
        // 1,500 MB/s read and 500 MB/s written.
        let mut s = system("stripe-1", 1, 100.0, fast_link());
        s.disks[0].model = flash(Medium::Nvme, 3000.0, 400_000.0);
        s.disks[0].model.seq_outer_mb_s = 3000.0;
        s.disks[0].model.seq_write_mb_s = Some(1000.0);
        let c = Constants::priors();
        let w = Workload::parse(
            "fio --rw=rw --rwmixread=75 --bs=64k --ioengine=libaio --iodepth=64 --filename=/dev/nvme0n1",
        )
        .unwrap();
        let l = loads(&s, &w, true, Platform::Linux, &c);
        let d = &l.disks[0];
        assert_eq!((d.read_bytes, d.write_bytes), (49152.0, 16384.0));
        assert_eq!((l.user_read_bytes, l.user_write_bytes), (49152.0, 16384.0));
        assert_eq!((d.read_ops, d.write_ops), (0.75, 0.25));
        let busy = 0.75 * 65536.0 / 3e9 + 0.25 * 65536.0 / 1e9;
        assert!((d.busy_s - busy).abs() < 1e-15, "{}", d.busy_s);
        assert!((l.user_read_bytes / d.busy_s / 1e6 - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn a_random_mix_reads_its_share() {
        // fio randrw, 70% reads: the device's reads and writes in that mix, each request's
        // time the reads' and the writes' in proportion (at every queue depth).
        let mut s = system("stripe-1", 1, 100.0, fast_link());
        s.disks[0].model = flash(Medium::Nvme, 3000.0, 400_000.0);
        let c = Constants::priors();
        let spec = |mix: &str| {
            Workload::parse(&format!(
                "fio --rw=randrw --rwmixread={mix} --bs=4k --ioengine=libaio --iodepth=8 --filename=/dev/nvme0n1"
            ))
            .unwrap()
        };
        let (reads, writes) = (
            loads(&s, &spec("100"), true, Platform::Linux, &c),
            loads(&s, &spec("0"), true, Platform::Linux, &c),
        );
        let mixed = loads(&s, &spec("70"), true, Platform::Linux, &c);
        assert!((mixed.user_read_bytes - 0.7 * 4096.0).abs() < 1e-9);
        assert!((mixed.disks[0].write_bytes - 0.3 * 4096.0).abs() < 1e-9);
        let (r, w) = (&reads.disks[0], &writes.disks[0]);
        // The two differ, so the mix is not either side alone.
        assert!(
            (r.busy_s - w.busy_s).abs() > 1e-7,
            "{} {}",
            r.busy_s,
            w.busy_s
        );
        let expect = 0.7 * r.busy_s + 0.3 * w.busy_s;
        assert!((mixed.disks[0].busy_s - expect).abs() < 1e-15);
        for (k, q) in mixed.disks[0].busy_queued_s.iter().enumerate() {
            let e = 0.7 * r.busy_queued_s[k] + 0.3 * w.busy_queued_s[k];
            assert!((q - e).abs() < 1e-15, "depth {k}: {q} vs {e}");
        }
    }
}
