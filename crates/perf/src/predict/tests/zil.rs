//! Synchronous writes: each waits for a ZIL commit, on the pool's disks or a log device.

use super::predict;
use crate::leaf::tests::flash;
use crate::testkit::{fast_link, system};
use model::hardware::Medium;
use model::system::{Attach, Disk};
use model::{Layout, System, TopLevel, VdevClass, Workload};

/// One 7200 rpm disk, with a 500 MB/s flash log device when `slog`, whose maker states
/// power-loss protection: its flushes cost nothing.
fn one_disk(slog: bool) -> System {
    let mut s = system("stripe-1", 1, 200.0, fast_link());
    if slog {
        let leaf = s.pool.vdevs[0].leaf;
        s.pool.vdevs.push(TopLevel {
            class: VdevClass::Log,
            layout: "stripe-1".parse::<Layout>().unwrap(),
            leaf,
        });
        s.disks.push(Disk {
            name: "log0".into(),
            model: model::hardware::DiskModel {
                power_loss_protection: Some(true),
                ..flash(Medium::Ssd, 500.0, 90_000.0)
            },
            attach: Attach::Controller("hba".into()),
        });
    }
    s
}

fn iops(s: &System, spec: &str) -> f64 {
    predict(s, &Workload::parse(spec).unwrap()).unwrap().iops
}

#[test]
fn a_sync_write_waits_for_its_log_block() {
    // On the pool's own disk each commit writes its log block through the disk's cache:
    // a seek and a full turn (8.33 ms at 7200 rpm) at least, so fewer than 120 a second.
    // A 4 KiB recordsize, so that the txg rewrites no more than the application wrote.
    let small = "fio-randwrite:bs=4K,sync=on,size=1G";
    let four_k = |slog| {
        let mut s = one_disk(slog);
        s.pool.datasets[0].recordsize = 4096;
        s
    };
    let bare = iops(&four_k(false), small);
    assert!(bare > 40.0 && bare < 120.0, "{bare}");
    // On flash a commit of an 8 KiB block (4 KiB of data and its 192-byte record) takes
    // 27.8 us (a SATA SSD's write latency) + 8192 / 500 MB/s = 44.2 us: at most 22,600 a
    // second, the rest the CPU's.
    let logged = iops(&four_k(true), small);
    assert!(logged > 8000.0 && logged < 1.0 / 44.2e-6, "{logged}");
    // Without power-loss protection each commit also waits 1.5 ms for the drive to save
    // its cache: at most 1 / 1.544 ms = 648 a second.
    let mut consumer = four_k(true);
    consumer.disks[1].model.power_loss_protection = None;
    let flushed = iops(&consumer, small);
    assert!(flushed > 500.0 && flushed < 1.0 / 1.544e-3, "{flushed}");
    // The prediction says the flush is a default, where it is one.
    let w = Workload::parse(small).unwrap();
    let said = |s: &System| {
        predict(s, &w)
            .unwrap()
            .not_modelled
            .contains(&crate::NotModelled::CacheFlush {
                disk: "log0".into(),
            })
    };
    assert!(said(&consumer));
    assert!(!said(&four_k(true)));
}

#[test]
fn large_sync_writes_go_to_their_place_first_without_a_log_device() {
    // 128 KiB is over zfs_immediate_write_sz: the record is written in place (a random
    // write) before the commit that points to it, two positionings per write.
    let disk = one_disk(false);
    let large = iops(&disk, "fio-randwrite:bs=128K,sync=on,size=1G");
    let small = iops(&disk, "fio-randwrite:bs=4K,sync=on,size=1G");
    assert!(large < 0.75 * small, "{large} vs {small}");
    // fsync every 8 writes: one commit per 8 writes.
    let batched = iops(&disk, "fio-randwrite:bs=4K,fsync=8,size=1G");
    assert!(batched > 4.0 * small, "{batched} vs {small}");
}

#[test]
fn with_a_log_device_the_txg_writes_back_beside_the_commits() {
    // 128 KiB synchronous writes into 128 KiB records, one writer: each waits ~0.37 ms for
    // its commit on the log device, while the data disk writes the records back in the
    // background (spa_sync). The slower pipeline, the disk, sets the rate: it is busy all
    // the time, where counting the writeback inside each write left it idle a third of it.
    let p = predict(
        &one_disk(true),
        &Workload::parse("fio-randwrite:bs=128K,sync=on,size=1G").unwrap(),
    )
    .unwrap();
    let disk = p.utilizations.iter().find(|u| u.resource == "d0").unwrap();
    assert!(disk.utilization > 0.97, "{}", disk.utilization);
    assert!(
        (p.iops / disk.max_jobs_per_s - 1.0).abs() < 0.03,
        "{}",
        p.iops
    );
}

#[test]
fn on_flash_the_writeback_bounds_the_rate_beside_the_commits() {
    // One SSD and no log device: each 4 KiB sync write waits for its log block on the SSD,
    // which writes the txg's records at the same time; the writeback is a bound of its own,
    // counted with the commits, not a part of each write's wait.
    let mut s = system("stripe-1", 1, 200.0, fast_link());
    s.disks[0].model = flash(Medium::Ssd, 500.0, 90_000.0);
    let w = Workload::parse("fio-randwrite:bs=4K,sync=on,size=1G").unwrap();
    let p = predict(&s, &w).unwrap();
    let find = |name: &str| p.utilizations.iter().find(|u| u.resource == name).unwrap();
    let commits = find("d0");
    let both = find("d0 (with the txg's writeback)");
    assert!(both.demand_s > commits.demand_s, "{both:?} {commits:?}");
    assert!(p.iops <= both.max_jobs_per_s * 1.0001, "{}", p.iops);
}

#[test]
fn writers_without_a_log_device_share_log_blocks() {
    // raidz2-6 of hard disks, no log device, 16 KiB synchronous writes: one writer waits for
    // a log block of its own each time; 32 writers queue at the vdev while one block is in
    // flight and the next takes up to 128 KiB / (16 KiB + 192 B) = 7 of their records
    // (zil_commit_writer), so the disks write a seventh of the blocks per write.
    let s = system("raidz2-6", 6, 200.0, fast_link());
    let one = iops(&s, "fio-randwrite:bs=16K,sync=on,threads=1,size=1G");
    let many = iops(&s, "fio-randwrite:bs=16K,sync=on,threads=32,size=1G");
    assert!(many > 4.0 * one && many < 7.0 * one, "{one} -> {many}");
}

#[test]
fn a_log_device_with_power_loss_protection_commits_at_its_latency() {
    // A log device of 10 us writes whose maker states power-loss protection: a 16 KiB
    // commit (a 20 KiB block) takes 10 us + 20,480 B / 2 GB/s = 20 us, so one writer's
    // rate is the CPU's and the txg's, thousands a second, where a 1.5 ms flush per commit
    // held it under 667.
    let mut s = one_disk(true);
    s.pool.datasets[0].recordsize = 16384;
    s.disks[1].model = model::hardware::DiskModel {
        power_loss_protection: Some(true),
        write_latency_us: Some(10.0),
        ..flash(Medium::Nvme, 2000.0, 500_000.0)
    };
    let protected = iops(&s, "fio-randwrite:bs=16K,sync=on,size=1G");
    s.disks[1].model.power_loss_protection = None;
    let flushed = iops(&s, "fio-randwrite:bs=16K,sync=on,size=1G");
    assert!(flushed < 1.0 / 1.5e-3, "{flushed}");
    assert!(protected > 5.0 * flushed, "{protected} vs {flushed}");
}

#[test]
fn a_large_sync_write_waits_for_its_commit_after_all_its_pieces() {
    // Six mirrors of flash, 128 KiB records, logbias=throughput: a 1 MiB write is 8 blocks
    // put in place on every disk at once (its pieces overlap), but the writer waits for the
    // commit's log block and its flush after them all. Without power-loss protection that
    // flush is 1.5 ms, all of it in series with the write. The network has no fork and join:
    // the writer's thread carries the commit, and the other pieces' leaf work overlaps some
    // of it, so at least 0.9 ms of the 1.5 ms shows (0.4 ms when the pieces overlapped it all).
    let pool = |plp: Option<bool>| {
        let mut s = system("6x mirror-2", 12, 500.0, fast_link());
        for d in &mut s.disks {
            d.model = model::hardware::DiskModel {
                power_loss_protection: plp,
                ..flash(Medium::Ssd, 500.0, 90_000.0)
            };
        }
        s.pool.datasets[0].logbias = model::dataset::Logbias::Throughput;
        s
    };
    let large = "fio-randwrite:bs=1M,sync=on,size=1G";
    let flushed = iops(&pool(None), large);
    let protected = iops(&pool(Some(true)), large);
    let added = 1.0 / flushed - 1.0 / protected;
    assert!(added > 0.9e-3 && added < 1.6e-3, "{added}");
}
