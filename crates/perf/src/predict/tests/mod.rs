mod absorption;
mod benchmarks;
mod cold_start;
mod expander;
mod flash;
mod redirty;
mod zil;

use super::*;
use crate::leaf::DiskTiming;
use crate::station::{Kind, Utilization};
use crate::testkit::{fast_link, system};
use model::hardware::LinkKind;
use model::workload::Workload;

/// The model with its constants at their priors: these tests check mechanisms against the
/// documented approximations, not against what a refit over the corpus gives.
fn predict(system: &System, workload: &Workload) -> Result<Prediction, PerfError> {
    predict_with(system, workload, &Constants::priors())
}

fn mb_s(p: &Prediction) -> f64 {
    p.throughput_bytes_per_s / 1e6
}

#[test]
fn a_stripe_runs_at_n_times_its_slowest_disk() {
    let mut s = system("stripe-7", 7, 97.0, fast_link());
    s.disks[3].model.seq_outer_mb_s = 81.0;
    let p = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
    // 256 blocks in flight over 7 disks: within 3% of the bound 7 x 81.
    assert!(mb_s(&p) <= 567.0 + 1e-6 && mb_s(&p) > 550.0, "{}", mb_s(&p));
    assert_eq!(p.bottleneck.resource, "d3");
    assert!(p.bottleneck.sentence.contains("81.0 MB/s x 7.00"));
}

#[test]
fn disks_share_a_parallel_bus() {
    // Four 100 MB/s disks behind one 32-bit/33 MHz PCI bus: 87 MB/s for all of them.
    let pci = LinkKind::Pci {
        bits: 32,
        mhz: 33.33,
    };
    let p = predict(
        &system("stripe-4", 4, 100.0, pci),
        &Workload::parse("dd-read").unwrap(),
    )
    .unwrap();
    assert!((mb_s(&p) - 87.0).abs() < 1.0, "{}", mb_s(&p));
    assert_eq!(p.bottleneck.kind, Kind::Link);
    // The bus carries parity and both mirror sides: raidz1-5 writes get 4/5 of it, a
    // mirror 1/2.
    let pcix = LinkKind::PciX {
        bits: 64,
        mhz: 133.33,
    };
    let bus = bus_rate(&pcix);
    let w = Workload::parse("dd-write").unwrap();
    let z = predict(&system("raidz1-5", 5, 150.0, pcix), &w).unwrap();
    let m = predict(&system("mirror-2", 2, 400.0, pcix), &w).unwrap();
    let meta = 1.0 + 256.0 / 131072.0;
    assert!((mb_s(&z) - bus * 0.8 / meta).abs() < 0.5, "{}", mb_s(&z));
    assert!((mb_s(&m) - bus * 0.5 / meta).abs() < 0.5, "{}", mb_s(&m));
    // The same disks on a fast link are bound by themselves.
    let fast = predict(
        &system("stripe-4", 4, 100.0, fast_link()),
        &Workload::parse("dd-read").unwrap(),
    )
    .unwrap();
    assert_eq!(fast.bottleneck.kind, Kind::Disk);
}

fn bus_rate(kind: &LinkKind) -> f64 {
    crate::link::usable_bytes_per_s(kind, true) / 1e6
}

#[test]
fn raidz_streams_at_data_disks_times_the_rate() {
    // A sequential pass turns past the parity too: (w - p) x S, the rule of thumb.
    let p = predict(
        &system("raidz2-6", 6, 200.0, fast_link()),
        &Workload::parse("dd-read").unwrap(),
    )
    .unwrap();
    assert!(mb_s(&p) < 800.0 && mb_s(&p) > 770.0, "{}", mb_s(&p));
}

#[test]
fn raidz_writes_pass_the_padding_like_reads() {
    // raidz2-8 at ashift 12: a 128 KiB record is 32 data + 12 parity sectors, padded to 45
    // (a multiple of p + 1 = 3), so each disk passes 45/8 sectors of 4 KiB per record
    // reading or writing: 8 x 200 MB/s x 32/45 = 1137.8 MB/s, writes less the metadata.
    let s = system("raidz2-8", 8, 200.0, fast_link());
    let read = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
    let write = predict(&s, &Workload::parse("dd-write").unwrap()).unwrap();
    let bound = 131072.0 / (45.0 * 4096.0 / 8.0 / 200e6);
    let meta = 1.0 + 256.0 / 131072.0;
    assert!(
        (read.bottleneck.limit - bound).abs() < 1.0,
        "{:?}",
        read.bottleneck
    );
    // The txg's writes reach the prior share of the media rate, less each txg's commit: a
    // txg of the throttle's buffer puts 45 sectors' eighth of each record on each disk; the
    // commit's seek over the data lies between none and the whole stroke.
    let c = Constants::priors();
    let release = Release::of(s.host.zfs, &s.host.tunables);
    let t = DiskTiming::new(&s.disks[0].model, c.disk_command_overhead_s());
    let txg = release.write_buffer_bytes(s.host.ram_bytes);
    let leaf = txg / 131072.0 * 45.0 * 4096.0 / 8.0 * meta;
    let at = |span: f64| {
        let share = crate::txg::data_share(leaf, 200e6, crate::txg::commit_s(&t, span));
        bound / meta * c.hdd_write_efficiency() * share
    };
    let limit = write.bottleneck.limit;
    assert!(
        limit <= at(0.0) + 1e-6 && limit >= at(1.0) - 1e-6,
        "{limit}"
    );
    assert!(at(0.0) < bound / meta * c.hdd_write_efficiency());
    assert!(write.bottleneck.limit < read.bottleneck.limit);
}

#[test]
fn a_large_random_request_positions_once_per_disk() {
    // raidz1-4, one 16 MiB request at a time: 128 records of 128 KiB, 32 KiB of data per
    // disk each, so every disk seeks once (8.5 ms), waits for the slowest of 4 rotations
    // (4/5 of 8.33 ms), and reads 4 MiB at mid-disk (118.6 MB/s: 35.37 ms), plus 0.1 ms of
    // command: 50.63 ms. The CPU adds 128 x 5 zios x 15,000 reference cycles and the
    // fletcher4 check (AVX2, 0.19 cycles per byte): 12.79 M, and each record's copy from
    // its scatter list into its dbuf's buffer (0.5 per byte, abd.rs): 8.39 M; the
    // application's read call (5,000 once, 3,000 for each of the 128 records it takes into
    // dbufs) and copy (0.5 per byte): 8.78 M; on a 2024 core at 3 GHz (0.7 of a reference
    // cycle each) 4.94 + 2.05 ms: 57.62 ms. One record at a time took 128 x 15.5 ms.
    let s = system("raidz1-4", 4, 150.0, fast_link());
    let w = Workload::parse("fio-randread:bs=16M").unwrap();
    let p = predict(&s, &w).unwrap();
    assert!(
        (p.mean_latency_s * 1e3 - 57.62).abs() < 0.1,
        "{}",
        p.mean_latency_s * 1e3
    );
    // The CPU's 7.0 ms leave the vdev 88% busy, short of the 90% at which a resource is
    // taken to limit the pool: the request's time is the limit, the vdev's 50.6 ms of it
    // the largest share.
    let b = &p.bottleneck.sentence;
    assert!(b.starts_with("1 request(s) in flight x 57.6"), "{b}");
    assert!(
        b.contains("raidz1-4-0 takes the largest share of each request, 50.6"),
        "{b}"
    );
    assert!((p.iops - 1.0 / 57.62e-3).abs() < 0.05, "{}", p.iops);
    // Over a stripe the request's four 4 MiB pieces run at once: faster than the four
    // disks one after the other (4 x 48.1 ms), never faster than one disk's 48.1 ms.
    let stripe = predict(&system("stripe-4", 4, 150.0, fast_link()), &w).unwrap();
    assert!(stripe.iops > 1.5 / (4.0 * 48.1e-3) && stripe.iops < 1.0 / 48.1e-3);
}

#[test]
fn a_raidz_disk_is_one_server_for_reads_and_writes() {
    // Random 4 KiB writes read the old record (fork-join over the vdev's data disks) and
    // write the new one: both on the same disks, so one station carries both and no disk
    // appears apart (it would count each disk twice).
    let s = system("raidz1-4", 4, 150.0, fast_link());
    let w = Workload::parse("fio-randwrite:bs=4K,qd=32").unwrap();
    let p = predict(&s, &w).unwrap();
    assert!(p.utilizations.iter().all(|u| u.kind != Kind::Disk));
    assert_eq!(p.bottleneck.kind, Kind::Vdev);
    assert!(p.devices.iter().all(|d| d.utilization <= 1.0));
    // The writes' share: 44 sectors of 4 KiB per record over 4 disks, plus metadata, at
    // the mean rate of the whole disk.
    let c = Constants::priors();
    let release = Release::of(s.host.zfs, &s.host.tunables);
    let loads = crate::load::loads(&s, &w, (&release, 1.0), &c).unwrap();
    let t = DiskTiming::new(&s.disks[0].model, c.disk_command_overhead_s());
    let per_record = 44.0 * 4096.0 / 4.0 * (1.0 + 256.0 / 131072.0);
    let media = t.mean_rate(0.0, 1.0, true);
    let txg = release.write_buffer_bytes(s.host.ram_bytes) / 131072.0 * per_record;
    let share = crate::txg::data_share(txg, media, crate::txg::commit_s(&t, 1.0));
    let write_s = per_record / (media * c.hdd_write_efficiency() * share);
    assert!((loads.vdevs[0].other_s - write_s).abs() < 1e-9);
}

#[test]
fn one_request_in_flight_is_latency_bound() {
    // Four disks, one 4 KiB read at a time: each disk is busy a quarter of the time, so
    // none limits the pool; the request's time (13.90 ms, as below) is the limit, and the
    // busiest disk would allow 1 / 0.25 - 1 = 300% more (a little more: the CPU takes a
    // share of the time).
    let mut s = system("stripe-4", 4, 150.0, fast_link());
    for d in &mut s.disks {
        d.model.queue_depth = 1;
    }
    let p = predict(&s, &Workload::parse("fio-randread:bs=4K").unwrap()).unwrap();
    let b = &p.bottleneck;
    assert!(
        b.sentence.contains("1 request(s) in flight x 13.90 ms"),
        "{}",
        b.sentence
    );
    assert!(b.sentence.contains("the disks take the largest share"));
    assert_eq!(b.kind, Kind::Disk);
    let headroom = b.headroom_pct.unwrap();
    assert!(headroom > 300.0 && headroom < 301.0, "{headroom}");
    assert!((b.limit - p.iops).abs() < 1e-9);
    // Saturated: the same disks under 64 threads are the limit again.
    let busy = predict(
        &s,
        &Workload::parse("fio-randread:bs=4K,threads=64").unwrap(),
    );
    assert!(busy
        .unwrap()
        .bottleneck
        .sentence
        .contains("limits the pool"));
}

#[test]
fn resource_names_do_not_repeat_their_kind() {
    let u = |resource: &str, kind| Utilization {
        resource: resource.into(),
        kind,
        detail: String::new(),
        utilization: 0.0,
        max_jobs_per_s: 0.0,
        bytes_per_job: 0.0,
        demand_s: 0.0,
    };
    let name = |r, k| crate::bottleneck::named(&u(r, k));
    assert_eq!(
        name("application threads", Kind::Thread),
        "application threads"
    );
    assert_eq!(name("sd0 port", Kind::Port), "sd0 port");
    assert_eq!(name("cpu", Kind::Cpu), "cpu");
    assert_eq!(name("sd0", Kind::Disk), "disk sd0");
}

#[test]
fn a_mirror_streams_one_reader_faster_than_one_disk() {
    // A disk-bound stream's reads tie on load and go to the sides by 2 MiB of offset:
    // each side reads 2 MiB (10.486 ms at 200 MB/s) and skips the other's 2 MiB by a
    // track step and half a turn (1 + 4.167 ms), so it spends (1 + 5.167 / 10.486) / 2
    // = 0.74637 of the stream's time: 267.96 MB/s for one reader, more than one disk and
    // less than two. Two readers settle on a side each: 400 MB/s.
    let s = system("mirror-2", 2, 200.0, fast_link());
    let one = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
    let two = predict(&s, &Workload::parse("iozone-read:t=2").unwrap()).unwrap();
    let limit = one.bottleneck.limit / 1e6;
    assert!((limit - 267.96).abs() < 0.01, "{limit}");
    assert!((two.bottleneck.limit / 1e6 - 400.0).abs() < 0.01);
}

#[test]
fn a_mirror_reads_no_slower_than_one_of_its_disks() {
    // Issue #10: a 2-way mirror was predicted at 264.5 MB/s where one of its disks gives
    // 270.0. ZFS can always read a stream from one side, so for every workload a mirror
    // reads at least as fast as one disk.
    for w in [
        "dd-read",
        "bonnie-read",
        "iozone-read:t=4",
        "fio-randread:bs=4K,qd=32",
    ] {
        let w = Workload::parse(w).unwrap();
        let one = predict(&system("stripe-1", 1, 200.0, fast_link()), &w).unwrap();
        let two = predict(&system("mirror-2", 2, 200.0, fast_link()), &w).unwrap();
        assert!(
            two.throughput_bytes_per_s >= one.throughput_bytes_per_s,
            "{}: mirror {} < disk {}",
            w.kind,
            two.throughput_bytes_per_s,
            one.throughput_bytes_per_s
        );
    }
}

#[test]
fn random_reads_follow_mva_with_threads() {
    // Disks that queue no commands: each a fixed-rate centre.
    let mut s = system("stripe-4", 4, 150.0, fast_link());
    for d in &mut s.disks {
        d.model.queue_depth = 1;
    }
    let at = |s: &System, t: u32| {
        let w = Workload::parse(&format!("fio-randread:bs=4K,threads={t}")).unwrap();
        predict(s, &w).unwrap()
    };
    let one = at(&s, 1);
    // One request at a time: IOPS = 1 / service time: 0.1 overhead + 8.5 seek + 4.17
    // rotation + 1.1 ms to read the whole 128 KiB record at mid-disk (118.6 MB/s), plus
    // ~0.03 ms of CPU (the call, the checksum, the record's copy into its dbuf: abd.rs).
    let service = one.mean_latency_s;
    assert!((service * 1e3 - 13.90).abs() < 0.01, "{}", service * 1e3);
    // Four balanced disks, N jobs: X = N / (D (K + N - 1)) with D the per-disk demand.
    // The formula folds the CPU's share into the disks', where the CPU's many cores serve
    // it about as a delay: 0.16% apart.
    let four = at(&s, 4);
    let exact = 4.0 / (service / 4.0 * 7.0);
    assert!(
        (four.iops - exact).abs() / exact < 2e-3,
        "{} vs {exact}",
        four.iops
    );
    assert!(at(&s, 64).iops <= 4.0 / service + 1e-9);
    // Disks with NCQ serve the nearest of their queue: the same at one thread, more
    // beyond, and past the bound of one request at a time once queues form.
    let ncq = system("stripe-4", 4, 150.0, fast_link());
    assert!((at(&ncq, 1).iops - one.iops).abs() < 1e-9 * one.iops);
    assert!(at(&ncq, 4).iops > four.iops);
    assert!(
        at(&ncq, 64).iops > 1.5 * 4.0 / service,
        "{}",
        at(&ncq, 64).iops
    );
}

#[test]
fn a_disk_reorders_what_zfs_and_the_controller_let_it() {
    let iops = |s: &System, qd: u32| {
        let w = Workload::parse(&format!("fio-randread:bs=4K,qd={qd}")).unwrap();
        predict(s, &w).unwrap().iops
    };
    let s = system("stripe-1", 1, 150.0, fast_link());
    let (one, ten, many) = (iops(&s, 1), iops(&s, 32), iops(&s, 64));
    // OpenZFS keeps 10 sync reads active per leaf: 64 queued reorder no better than 32.
    assert!((many - ten).abs() < 1e-3 * ten, "{many} vs {ten}");
    assert!(ten > 1.7 * one, "{ten} vs {one}");
    // The 2008 releases keep 35 active: the disk's 32 all reorder.
    let mut old = s.clone();
    old.host.zfs = model::system::ZfsRelease::Solaris { year: 2008 };
    assert!(iops(&old, 32) > 1.2 * ten, "{}", iops(&old, 32));
    // Behind a driver without command queueing the disk sees one request at a time.
    let mut plain = s.clone();
    plain.controllers[0].model.command_queueing = false;
    assert!(iops(&plain, 32) < 1.01 * one, "{}", iops(&plain, 32));
}

#[test]
fn a_raidz_vdev_serves_random_blocks_like_one_disk() {
    let w = Workload::parse("fio-randread:bs=4K,qd=32").unwrap();
    let z = predict(&system("raidz1-5", 5, 150.0, fast_link()), &w).unwrap();
    let d = predict(&system("stripe-1", 1, 150.0, fast_link()), &w).unwrap();
    // All four data disks turn for every block: fewer IOPS than one disk alone.
    assert!(
        z.iops < d.iops && z.iops > 0.6 * d.iops,
        "{} vs {}",
        z.iops,
        d.iops
    );
    assert_eq!(z.bottleneck.kind, Kind::Vdev);
}

#[test]
fn thirty_five_blocks_in_flight_saturate_a_disk() {
    // Seed 004: "35 concurrent 128K I/O ... allows ZFS to get 60MB/sec out of the same
    // disk". The 2008 queue keeps 35 per leaf; one leaf gets 35 blocks of 128 KiB.
    let mut s = system("stripe-1", 1, 66.0, fast_link());
    s.host.zfs = model::system::ZfsRelease::Solaris { year: 2008 };
    let p = predict(&s, &Workload::parse("dd-write").unwrap()).unwrap();
    assert_eq!(p.concurrency, 35);
    assert_eq!(p.bottleneck.kind, Kind::Disk);
    assert!(
        p.bottleneck.utilization > 0.97,
        "{}",
        p.bottleneck.utilization
    );
    // Metadata (two copies of a 128-byte block pointer per block) takes 0.2% of it, and
    // the txg's writes reach the prior share of the media rate.
    let efficiency = Constants::priors().hdd_write_efficiency();
    let expected = 66.0 * efficiency / (1.0 + 256.0 / 131072.0);
    assert!(
        (mb_s(&p) - expected).abs() < 1.5,
        "{} vs {expected}",
        mb_s(&p)
    );
}

#[test]
fn compression_halves_the_disk_bytes_and_costs_cpu() {
    let w = Workload::parse("dd-write:data=random").unwrap();
    let plain = system("stripe-2", 2, 100.0, fast_link());
    let mut packed = plain.clone();
    packed.pool.datasets[0].compression = model::dataset::Compression::Lz4;
    packed.pool.datasets[0].compression_ratio = 2.0;
    let (a, b) = (predict(&plain, &w).unwrap(), predict(&packed, &w).unwrap());
    let ratio = b.throughput_bytes_per_s / a.throughput_bytes_per_s;
    assert!((ratio - 2.0).abs() < 0.02, "{ratio}");
    let cpu = |p: &Prediction| {
        p.utilizations
            .iter()
            .find(|u| u.kind == Kind::Cpu)
            .map(|u| u.utilization / p.throughput_bytes_per_s)
            .unwrap()
    };
    // CPU per byte grows by lz4's 6.3 cycles/byte over the copy, checksum and zio cost.
    assert!(cpu(&b) > 3.0 * cpu(&a));
}

#[test]
fn the_kernels_random_device_feeds_dd_at_its_own_pace() {
    // A pool far faster than the generator: one dd thread at 3 GHz on a core of 2024 (0.7
    // of the reference core's time) reads /dev/urandom from Linux 4.8 (OpenZFS 2.2) and
    // FreeBSD 12 at 3 GHz / (12.24 cycles x 0.7) = 350 MB/s (512 MB/s measured on a Zen 3 at
    // its 4.7 GHz boost, 0.75 of the reference core's time), before 4.8 (ZoL 0.6.5) at 13.4 MB/s x 1 / 0.7
    // = 19.1 MB/s; its write calls and copies slow it a little more. Its bytes do not compress.
    let mut s = system("stripe-8", 8, 500.0, fast_link());
    s.pool.datasets[0].compression = model::dataset::Compression::Lz4;
    s.pool.datasets[0].compression_ratio = 2.0;
    let w = Workload::parse("dd if=/dev/urandom of=/tank/f bs=1M count=20000").unwrap();
    let rate = |zfs: &str, s: &mut System| {
        s.host.zfs = zfs.parse().unwrap();
        let p = predict(s, &w).unwrap();
        assert_eq!(p.bottleneck.kind, Kind::Thread, "{zfs}");
        assert!(p.bottleneck.sentence.contains("random device"));
        p.throughput_bytes_per_s
    };
    let chacha = rate("2.2", &mut s);
    assert!(chacha < 350e6 && chacha > 0.8 * 350e6, "{chacha}");
    let sha1 = rate("zol-0.6.5", &mut s);
    assert!(sha1 < 19.1e6 && sha1 > 0.95 * 19.1e6, "{sha1}");
    let freebsd = rate("freebsd-12.1", &mut s);
    assert!(freebsd < 350e6 && freebsd > 0.8 * 350e6, "{freebsd}");
    // illumos: no measured rate, said so.
    s.host.zfs = "illumos-2019".parse().unwrap();
    let p = predict(&s, &w).unwrap();
    assert!(p.not_modelled.contains(&crate::NotModelled::RandomDevice));
}

#[test]
fn a_64_mib_block_from_the_random_device_is_half_zeros_on_the_kernels_of_2013_2022() {
    // microuser's dd at bs=16M and 64M, conv=sync, on ZFS on Linux 0.7, a pool far faster
    // than the generator: 33,554,431 of each 64 MiB block come from the device
    // (random_device.rs), the rest are dd's zeros, so the thread spends half the generator's
    // time per byte written; its write calls and copies are the same per byte at both
    // sizes. The source measured 370-389 MB/s against 214-220 MB/s, a ratio of 1.7-1.8.
    let mut s = system("stripe-8", 8, 500.0, fast_link());
    s.host.zfs = "ZoL".parse().unwrap();
    let rate = |s: &System, bs: u64| {
        let cmd = format!(
            "dd if=/dev/urandom of=/tank/f bs={bs} count={} conv=sync",
            (512u64 << 20) / bs
        );
        let p = predict(s, &Workload::parse(&cmd).unwrap()).unwrap();
        assert_eq!(p.bottleneck.kind, Kind::Thread, "{bs}");
        p.throughput_bytes_per_s
    };
    let ratio = rate(&s, 64 << 20) / rate(&s, 16 << 20);
    // Below 2 (the writes' own work), above 1.5 (the generator is most of the thread's time).
    assert!(ratio > 1.5 && ratio < 2.0, "{ratio}");
    // OpenZFS 2.2 runs on kernels that read the whole block: the same pace at both sizes.
    s.host.zfs = "2.2".parse().unwrap();
    let ratio = rate(&s, 64 << 20) / rate(&s, 16 << 20);
    assert!((ratio - 1.0).abs() < 0.02, "{ratio}");
}

#[test]
fn random_device_writers_run_at_the_clock_their_busy_cores_leave() {
    // A CPU of 4 cores at 3.0 GHz base and 3.6 GHz boost, the pool far faster than it: one
    // dd from /dev/urandom runs at the boost clock, four at the base clock, so each of four
    // is 3.0 / 3.6 as fast as one alone (boost.rs), a little less as the txg's checksums
    // then share the four busy cores.
    let mut s = system("stripe-8", 8, 500.0, fast_link());
    s.host.cpu.cores = 4;
    s.host.cpu.threads = 8;
    s.host.cpu.boost_ghz = Some(3.6);
    let rate = |copies: u32| {
        let cmd = format!("copies={copies} dd if=/dev/urandom of=/tank/f bs=1M count=20000");
        predict(&s, &Workload::parse(&cmd).unwrap())
            .unwrap()
            .throughput_bytes_per_s
            / f64::from(copies)
    };
    let (one, four) = (rate(1), rate(4));
    let clock = 3.0 / 3.6;
    assert!(
        four / one <= clock && four / one > 0.95 * clock,
        "{one} {four}"
    );
    // Eight threads on four cores busy no more cores than four.
    assert!(rate(8) < 0.55 * one, "{}", rate(8));
}

#[test]
fn the_txg_compresses_random_writes_after_they_return() {
    // One writer of 4 KiB into cached 128 KiB lz4 records on a 4-core 1 GHz host of 2024:
    // 0.92532 of the writes dirty a record anew (16 GiB, a txg of 2.4 GiB: redirty.rs), which
    // the txg compresses later, 131,072 x 6.3 cycles x 0.7 (the core's generation) = 578 us of
    // a core. The writer does not wait for it: the four cores compressing bound the rate at
    // 4 / (578 us x 0.92532) = 7,479 a second, 454 MB/s of records for the disks to write.
    let mut s = system("stripe-8", 8, 500.0, fast_link());
    s.host.cpu.cores = 4;
    s.host.cpu.ghz = 1.0;
    s.pool.datasets[0].compression = model::dataset::Compression::Lz4;
    s.pool.datasets[0].compression_ratio = 2.0;
    let w = Workload::parse("fio-randwrite:bs=4K,size=16G").unwrap();
    let p = predict(&s, &w).unwrap();
    assert_eq!(p.bottleneck.resource, "cpu (with the txg's writeback)");
    let compress = 4.0 / (131_072.0 * 6.3 * 0.7 / 1e9 * 0.92532);
    assert!(
        p.iops < compress && p.iops > 0.8 * compress,
        "{} vs {compress}",
        p.iops
    );
}

#[test]
fn one_thread_copying_from_the_arc_is_the_limit() {
    // A 10 GiB file in a 64 GiB machine's ARC: no disk I/O; one dd thread makes a read
    // call (5,000 reference cycles, modern code) of eight records (3,000 each) and copies 0.5 cycles per byte for each
    // MiB, and copies each record from the ARC's scatter list into a new dbuf's buffer
    // first (0.5 per byte: the file is larger than the dbuf cache's 1 GiB, a 32nd of the
    // 32 GiB ARC; abd.rs), on a 2024 core that does a reference cycle's work in 0.7 of its
    // own, at 3 GHz: 4.25 GB/s; eight threads eight times that.
    let s = system("stripe-4", 4, 150.0, fast_link());
    let one = predict(&s, &Workload::parse("dd-read:size=10G").unwrap()).unwrap();
    assert_eq!(one.bottleneck.kind, Kind::Thread);
    let c = Constants::priors();
    let call = c.read_call_cycles(crate::release::Era::Modern) + 8.0 * c.read_record_cycles();
    let per_mib = (call + 2.0 * 0.5 * 1_048_576.0) * 0.7;
    let expected = 1_048_576.0 * 3e9 / per_mib / 1e6;
    assert!(
        (mb_s(&one) - expected).abs() < 1.0,
        "{} vs {expected}",
        mb_s(&one)
    );
    let eight = predict(&s, &Workload::parse("iozone-read:size=5G,t=8").unwrap()).unwrap();
    assert!((mb_s(&eight) / mb_s(&one) - 8.0).abs() < 0.01);
    assert!(one.devices.is_empty());
}

/// Reading back what the run wrote to an encrypted dataset: the ARC holds each record
/// encrypted (arc_write_ready), so the reader decrypts it once as its dbuf takes it
/// (arc_fill_hdr_crypt): AES-256-GCM with AES-NI and AVX2, GCM_AVX_BYTE (2.6 cycles a byte,
/// icp.rs), beside the two copies. Within the dbuf cache (a 32nd of the ARC's target, which on
/// 64 GiB grows from 2 GiB: arc_target.rs) the written dbufs keep their data.
#[test]
fn reading_back_encrypted_records_decrypts_them() {
    let mut s = system("stripe-4", 4, 150.0, fast_link());
    s.pool.datasets[0].encryption = "aes-256-gcm".parse().unwrap();
    let read = |size: &str| {
        let w = Workload::parse(&format!("dd-read:size={size}")).unwrap();
        mb_s(&predict(&s, &w).unwrap())
    };
    let c = Constants::priors();
    let call = c.read_call_cycles(crate::release::Era::Modern) + 8.0 * c.read_record_cycles();
    let per_mib = (call + (2.0 * 0.5 + crate::icp::GCM_AVX_BYTE) * 1_048_576.0) * 0.7;
    let expected = 1_048_576.0 * 3e9 / per_mib / 1e6;
    let big = read("10G");
    assert!((big - expected).abs() < 1.0, "{big} vs {expected}");
    // 64 MiB fit the 64 MiB dbuf cache: one copy, no cipher.
    let kept = 1_048_576.0 * 3e9 / ((call + 0.5 * 1_048_576.0) * 0.7) / 1e6;
    let small = read("64M");
    assert!((small - kept).abs() < 1.0, "{small} vs {kept}");
}

#[test]
fn raw_random_reads_are_one_disk() {
    // fio on the raw device, queue depth 1: 1 / (0.1 + 8.5 + 4.17 + 0.05 ms) = 78 IOPS,
    // what the rule of thumb calls I.
    let s = system("stripe-4", 4, 100.0, fast_link());
    let p = predict(&s, &Workload::parse("raw-randread").unwrap()).unwrap();
    assert!((p.iops - 78.0).abs() < 0.5, "{}", p.iops);
    assert_eq!(p.devices.len(), 1);
}

#[test]
fn bonnie_seeks_grow_sub_linearly_with_vdevs() {
    // Seed 001's observation: 4 seekers spread over K vdevs queue less as K grows, so the
    // rate grows like 4K / (K + 3), not like K (MVA, balanced centres).
    let seeks = Workload::parse("bonnie-seeks").unwrap();
    let rate = |layout: &str, n: usize| {
        predict(&system(layout, n, 72.0, fast_link()), &seeks)
            .unwrap()
            .iops
    };
    let (z3, z5, m7) = (
        rate("3x raidz1-5", 15),
        rate("5x raidz1-3", 15),
        rate("7x mirror-2", 14),
    );
    assert!(z3 < z5 && z5 < m7, "{z3} {z5} {m7}");
    // Five vdevs instead of three: far less than 5/3 more seeks.
    assert!(z5 / z3 < 1.45, "{}", z5 / z3);
    // Never more than 4 seekers each with one request at a time allow.
    assert!(m7 < 4.0 / 0.0080, "{m7}");
}

#[test]
fn what_the_model_cannot_see_is_named() {
    let mut s = system("stripe-2", 2, 200.0, fast_link());
    let w = Workload::parse("dd-read").unwrap();
    assert!(predict(&s, &w).unwrap().not_modelled.is_empty());
    s.pool.cache_devices = 1;
    s.host.nics = vec![model::hardware::Nic {
        name: "10 GbE".into(),
        gbps: 10.0,
        ports: 1,
    }];
    let net = Workload::parse("dd-read:net=on").unwrap();
    use crate::NotModelled::*;
    let notes = predict(&s, &net).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, SharingProtocol]);
    // A path the file did not name is one the default system stands in for.
    s.links[0].source = Some(model::system_file::IMPLIED.into());
    let notes = predict(&s, &w).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedLinks]);
    // `controller = "onboard"`: the chip the file does not name.
    s.links[0].source = Some(format!(
        "{}; Intel DMI 3.0",
        model::system_file::IMPLIED_ONBOARD
    ));
    let notes = predict(&s, &w).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedOnboardSata]);
    // A zvol as the target: its own per-call path is not measured apart.
    let zvol = Workload::parse("fio --name=z --rw=read --filename=/dev/zvol/tank/v").unwrap();
    let notes = predict(&s, &zvol).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedOnboardSata, ZvolPath]);
    // fio's sequential mix: how close its two streams run; a mix all one way is a stream.
    let mix = |pct| Workload::parse(&format!("fio --rw=rw --rwmixread={pct}")).unwrap();
    let notes = predict(&s, &mix(50)).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedOnboardSata, MixedStreams]);
    let notes = predict(&s, &mix(100)).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedOnboardSata]);
    // A pool already full: its free space's fragmentation.
    let full = Workload::parse("fio-write:fill=50%").unwrap();
    let notes = predict(&s, &full).unwrap().not_modelled;
    assert_eq!(notes, [L2arcWarmup, ImpliedOnboardSata, PoolFill]);
}

/// A pool 40% full spans half of each disk with its data and the holes among it; a stream
/// written past that runs at the inner half's tracks: sqrt(1 - 0.5 (1 - 0.5^2)) = 0.79 of
/// the outer rate where the disk (outer 200, inner 100 MB/s) limits it.
#[test]
fn a_stream_on_a_partly_full_pool_runs_at_the_tracks_past_its_data() {
    let s = system("stripe-1", 1, 200.0, fast_link());
    let rate = |spec: &str| {
        let p = predict(&s, &Workload::parse(spec).unwrap()).unwrap();
        assert_eq!(p.bottleneck.kind, Kind::Disk, "{}", p.bottleneck.resource);
        p.throughput_bytes_per_s
    };
    let empty = rate("fio-write:size=4G");
    let half = rate("fio-write:size=4G,fill=40%");
    let tracks = |x: f64| (1.0 - x * 0.75f64).sqrt();
    let want = tracks(0.5) / tracks(0.0);
    assert!(
        (half / empty / want - 1.0).abs() < 0.01,
        "{} {want}",
        half / empty
    );
}

#[test]
fn a_draid_serves_random_reads_by_its_groups() {
    // draid2:4d:24c:1s: floor((24 - 1) / (4 + 2)) = 3 groups' blocks at once
    // (zpoolconcepts(7)); one raidz2-6 serves one block at a time. The same 32 random 4 KiB
    // reads in flight over the same 1 TiB: 3x, and more for the shorter seeks of 1 TiB spread
    // over 23 disks rather than 6.
    let w = Workload::parse("fio-randread:bs=4K,qd=32,size=1T").unwrap();
    let draid = predict(&system("draid2:4d:24c:1s", 24, 200.0, fast_link()), &w).unwrap();
    let raidz = predict(&system("raidz2-6", 6, 200.0, fast_link()), &w).unwrap();
    let ratio = draid.iops / raidz.iops;
    assert!(
        (3.0..5.0).contains(&ratio),
        "{} / {}",
        draid.iops,
        raidz.iops
    );
}
