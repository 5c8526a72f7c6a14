//! Solid-state leaves: many requests at once, bounded by what their flash and interface move.

use super::{mb_s, predict};
use crate::leaf::tests::flash;
use crate::testkit::{fast_link, system};
use model::hardware::Medium;
use model::Workload;

/// A raidz1-5 of SATA flash of 500 MB/s and 90,000 IOPS: 76.9 us (a SATA SSD's default read
/// latency) x 90,000 = 7 requests at once.
fn raidz_of_flash() -> model::System {
    let mut s = system("raidz1-5", 5, 500.0, fast_link());
    for d in &mut s.disks {
        d.model = flash(Medium::Ssd, 500.0, 90_000.0);
    }
    s
}

#[test]
fn a_raidz_of_flash_serves_random_blocks_concurrently() {
    // A 4 KiB read fetches its whole 128 KiB record: 4 data columns of 32 KiB on 4 of the 5
    // disks (rotating), 0.8 x 32 KiB = 26,214 bytes per read on each disk. At 500 MB/s each
    // disk's flash moves 19,073 reads a second; the vdev, its disks serving 7 blocks at once
    // in 76.9 us + 65.5 us, would allow 49,157. 64 readers reach the flash's bound.
    let s = raidz_of_flash();
    let w = |threads| {
        Workload::parse(&format!(
            "fio-randread:bs=4K,threads={threads},size=100G,cache=cold"
        ))
        .unwrap()
    };
    let many = predict(&s, &w(64)).unwrap();
    assert_eq!(many.bottleneck.kind.word(), "media");
    let bound = 500e6 / (0.8 * 32768.0);
    assert!(
        (many.bottleneck.limit - bound).abs() / bound < 1e-6,
        "{:?}",
        many.bottleneck
    );
    assert!(
        many.iops > 0.97 * bound && many.iops <= bound,
        "{}",
        many.iops
    );
    // One reader waits for its block's slowest column: 142.4 us and the CPU's share.
    let one = predict(&s, &w(1)).unwrap();
    assert!(
        one.iops < 1.0 / 142.4e-6 && one.iops > 4000.0,
        "{}",
        one.iops
    );
}

/// A raidz1-4 of SATA flash of 500 MB/s.
fn flash_raidz1_4() -> model::System {
    let mut s = system("raidz1-4", 4, 500.0, fast_link());
    for d in &mut s.disks {
        d.model = flash(Medium::Ssd, 500.0, 90_000.0);
    }
    s
}

#[test]
fn flash_streams_at_its_sequential_rate() {
    // Four disks of 500 MB/s in a raidz1-4 at ashift 12: a 128 KiB record is 32 data
    // sectors in 11 rows of 3, 11 parity sectors, padded to 44 (a multiple of parity + 1):
    // 1.375 bytes per byte. Its indirect block pointer (128 of 131,072 bytes) is written
    // twice (metadata's ditto copy): x (1 + 2/1024). The pool writes
    // 4 x 500 / 1.375 / (1 + 2/1024) = 1451.71 MB/s.
    let s = flash_raidz1_4();
    let p = predict(&s, &Workload::parse("dd-write:size=100G").unwrap()).unwrap();
    assert_eq!(p.bottleneck.kind.word(), "media");
    let bound = 2000.0 / 1.375 / (1.0 + 2.0 / 1024.0);
    assert!(
        (p.bottleneck.limit / 1e6 - bound).abs() < 0.01,
        "{:?}",
        p.bottleneck
    );
}

/// One NVMe drive of 7 GB/s: what the vdev queue lets it serve at once bounds a stream.
#[test]
fn the_vdev_queue_bounds_what_nvme_serves_at_once() {
    let mut s = system("stripe-1", 1, 7000.0, fast_link());
    s.disks[0].model = flash(Medium::Nvme, 7000.0, 1_000_000.0);
    // Straight on the PCIe 3.0 x8 link, no controller port between.
    s.disks[0].attach = model::system::Attach::Link("bus".into());
    // A 6 GHz core: the reader's two copies of each byte (its own and the dbuf fill's,
    // abd.rs: 8.6 GB/s) stay above what the queue lets the drive serve.
    s.host.cpu.ghz = 6.0;
    let read = Workload::parse("fio-read:bs=1M,size=100G,cache=cold").unwrap();
    // Prefetch's 3 async reads and the one the reader waits on, raised to the sync class:
    // 4 reads of 128 KiB at once, each 66.3 us (an NVMe drive's default latency) + 18.7 us.
    let four = 4.0 * 131_072.0 / (66.3e-6 + 131_072.0 / 7e9);
    s.host.tunables.async_read_max_active = Some(1);
    let two = predict(&s, &read).unwrap();
    // 2 at once with zfs_vdev_async_read_max_active = 1: the drive's queue is the bound.
    let bound = four / 2.0;
    assert_eq!(two.bottleneck.kind.word(), "disk", "{:?}", two.bottleneck);
    assert!(
        two.throughput_bytes_per_s <= bound * 1.0001,
        "{}",
        two.throughput_bytes_per_s
    );
    assert!(
        two.throughput_bytes_per_s > bound * 0.97,
        "{}",
        two.throughput_bytes_per_s
    );
    s.host.tunables.async_read_max_active = None;
    let default = predict(&s, &read).unwrap();
    assert!(default.throughput_bytes_per_s > 1.5 * two.throughput_bytes_per_s);
    assert!(default.throughput_bytes_per_s <= four * 1.0001);
    // Deep random reads of 4 KiB records: ten sync reads at once
    // (zfs_vdev_sync_read_max_active), whatever the application's depth.
    s.pool.datasets[0].recordsize = 4096;
    let random =
        Workload::parse("fio-randread:bs=4K,qd=64,engine=io_uring,size=100G,cache=cold").unwrap();
    let r = predict(&s, &random).unwrap();
    let ten = 10.0 / (66.3e-6 + 4096.0 / 7e9);
    assert!(
        r.iops <= ten * 1.0001 && r.iops > 0.9 * ten,
        "{} vs {ten}",
        r.iops
    );
}

/// A mirror of two hard disks with a flash cache device (L2ARC): 16 jobs of random 4K reads
/// over 25 GiB each, 400
/// GiB, 64 GiB of RAM. The ARC (2.2 on Linux) holds its data share of half the RAM less the
/// L2ARC's headers; the cache device, of the disks' capacity, holds the rest of the data
/// beyond it, so most reads leave the disks for the flash (crate::l2arc).
#[test]
fn a_cache_device_serves_random_reads_beyond_the_arc() {
    let mut s = system("mirror-2", 3, 200.0, fast_link());
    s.pool.cache_devices = 1;
    let capacity = s.disks[2].model.capacity_bytes;
    // Its own id: the read tables are kept by model id.
    s.disks[2].model = model::hardware::DiskModel {
        id: "flash".into(),
        capacity_bytes: capacity,
        ..flash(Medium::Ssd, 500.0, 90_000.0)
    };
    let w = Workload::parse("fio-randread:bs=4K,threads=16,size=25G").unwrap();
    let with = predict(&s, &w).unwrap();
    s.pool.cache_devices = 0;
    let mut plain = s.clone();
    plain.disks.pop();
    let without = predict(&plain, &w).unwrap();
    assert!(with.arc_hit_ratio < without.arc_hit_ratio);
    let gib = (1u64 << 30) as f64;
    // The headers' bytes come out of the ARC: 96 B per 128 KiB record the device holds.
    let held = (capacity as f64).min(400.0 * gib - without.arc_hit_ratio * 400.0 * gib);
    let headers = held / 131072.0 * 96.0;
    let lost = (without.arc_hit_ratio - with.arc_hit_ratio) * 400.0 * gib;
    assert!((lost - headers).abs() / headers < 1e-9, "{lost} {headers}");
    assert!(
        with.iops > 3.0 * without.iops,
        "{} {}",
        with.iops,
        without.iops
    );
    // The cache device takes the reads the ARC misses: 4 KiB requests of 128 KiB records.
    let cache = with.vdevs.iter().find(|v| v.name == "cache-0").unwrap();
    let l2 = 1.0 - with.arc_hit_ratio - with.vdevs[0].read_ops_per_s / with.iops;
    assert!(
        (cache.read_ops_per_s / with.iops - l2).abs() < 1e-6,
        "{cache:?}"
    );
}

#[test]
fn readers_of_a_pool_larger_than_the_arc_wait_for_its_eviction_thread() {
    // 24 SATA SSDs of 500 MB/s striped, read by 32 dd streams on OpenZFS 2.2, 64 GiB of RAM,
    // a CPU of 2024 at 1 GHz.
    // Each 128 KiB record read into the full ARC brings the header's 128 KiB and the dbuf's
    // 128 KiB buffer (arc_get_data_impl, arc_buf_alloc_impl): 262,144 bytes the one eviction
    // thread frees at the prior 0.25 cycles a byte of a 2012 core, x 0.7 for a core of 2024,
    // at 1 GHz: 131,072 / (262,144 x 0.175 / 1e9) = 2,857 MB/s, under the disks' 12,000.
    let mut s = system("stripe-24", 24, 500.0, fast_link());
    for d in &mut s.disks {
        d.model = flash(Medium::Ssd, 500.0, 90_000.0);
    }
    s.host.zfs = "2.2".parse().unwrap();
    s.host.cpu.ghz = 1.0;
    let big = Workload::parse("dd-read:threads=32,size=100G").unwrap();
    let p = predict(&s, &big).unwrap();
    assert_eq!(p.bottleneck.resource, crate::station::ARC_EVICT);
    let bound = 1e9 / (2.0 * 0.25 * 0.7) / 1e6;
    assert!((mb_s(&p) - bound).abs() / bound < 1e-3, "{}", mb_s(&p));
    // Files that fit the ARC are read from it: nothing is evicted.
    let small = Workload::parse("dd-read:threads=32,size=256M").unwrap();
    let fits = predict(&s, &small).unwrap();
    assert_ne!(fits.bottleneck.resource, crate::station::ARC_EVICT);
    // OpenZFS 0.8's arc_reclaim_thread is not modelled: no station.
    s.host.zfs = "0.8".parse().unwrap();
    let old = predict(&s, &big).unwrap();
    assert_ne!(old.bottleneck.resource, crate::station::ARC_EVICT);
}

#[test]
fn a_sequential_mix_shares_the_disks_between_its_streams() {
    // fio rw=rw on a raidz1-4 of flash, the data set beyond the ARC: a read stream behind
    // the prefetcher and a write stream of whole records, each job a record's worth of
    // both at fio's odds. Where the flash bounds all three, a mixed record takes the disks
    // r x a read record's time + (1 - r) x a written one's: 1 / (r / R + (1 - r) / W).
    let s = flash_raidz1_4();
    let run = |rw: &str| {
        let spec = format!("cache=cold fio --rw={rw} --bs=128k --size=100G");
        predict(&s, &Workload::parse(&spec).unwrap()).unwrap()
    };
    let (read, write) = (run("read"), run("write"));
    for (mix, r) in [
        ("rw --rwmixread=50", 0.5),
        ("readwrite --rwmixread=70", 0.7),
    ] {
        let p = run(mix);
        for q in [&read, &write, &p] {
            assert_eq!(q.bottleneck.kind.word(), "media", "{:?}", q.bottleneck);
        }
        let (rl, wl) = (read.bottleneck.limit, write.bottleneck.limit);
        let bound = 1.0 / (r / rl + (1.0 - r) / wl);
        let got = p.bottleneck.limit;
        assert!(
            (got - bound).abs() / bound < 1e-9,
            "{mix}: {got} vs {bound}"
        );
        // The read side is r of the bytes the application moves.
        let share = p.read_bytes_per_s / p.throughput_bytes_per_s;
        assert!((share - r).abs() < 1e-12, "{mix}: {share}");
        assert!((p.read_bytes_per_s + p.write_bytes_per_s - p.throughput_bytes_per_s).abs() < 1e-3);
    }
}
