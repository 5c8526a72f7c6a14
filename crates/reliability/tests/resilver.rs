//! Resilver of one disk of a 10 x 4 TB raidz2, worked by hand.
//!
//! A leaf of 4 TB holds, at fill f, f * 4e12 bytes of allocated data (parity and padding
//! included: raidz spreads every block over all children). A round 4e12 stands for the leaf's
//! allocatable size, which the space engine puts a few MiB lower. The resilver reads every
//! surviving column of each block, so each of the 9 survivors reads its own share, and the new
//! disk writes one share.
//!
//! The rates stand in for what the performance model gives for rebuild I/O on a 7200 rpm
//! 4 TB disk: 150 MB/s read or written per disk.

use zpoolsim_reliability::Limit;
use zpoolsim_reliability::{
    group_repair, rebuild, BlockCosts, RebuildKind, RebuildRates, ScanShape, SharedPath,
};

const LEAF: u64 = 4_000_000_000_000;

fn rates(user_busy: f64, shared: Option<SharedPath>) -> RebuildRates {
    RebuildRates {
        leaf_read_bytes_per_sec: 150e6,
        leaf_write_bytes_per_sec: 150e6,
        shared,
        user_busy,
        scan: None,
    }
}

fn raidz2_10() -> model::VdevGroup {
    let layout: model::Layout = "raidz2-10".parse().unwrap();
    layout.groups[0]
}

#[test]
fn half_and_ninety_percent_full() {
    let g = raidz2_10();
    // 50%: share 2 TB; reads 9 x 2 TB = 18 TB, writes 2 TB; every disk moves 2 TB at
    // 150 MB/s: 13,333 s = 3.70 h.
    let r = rebuild(&g, RebuildKind::Resilver, LEAF, 0.5, &rates(0.0, None)).unwrap();
    assert_eq!((r.bytes_to_read, r.bytes_to_write), (18e12, 2e12));
    assert!((r.hours - 3.7037).abs() < 1e-3, "{}", r.hours);
    assert_eq!(r.limiting_resource, Limit::SurvivorReads);
    assert_eq!(
        r.explanation,
        "resilver of one leaf of raidz2-10 at 50% full (idle pool): reads 18.0 TB (2.0 TB from \
         each of 9 surviving disks at 150.0 MB/s), writes 2.0 TB to the new disk at 150.0 MB/s; \
         limited by reads from the surviving disks and writes to the new disk alike: 3.7 h"
    );
    // 90%: share 3.6 TB; 32.4 TB read, 3.6 TB written: 24,000 s = 6.67 h.
    let r = rebuild(&g, RebuildKind::Resilver, LEAF, 0.9, &rates(0.0, None)).unwrap();
    assert!((r.bytes_to_read - 32.4e12).abs() < 1.0 && (r.bytes_to_write - 3.6e12).abs() < 1.0);
    assert!((r.hours - 6.6667).abs() < 1e-3, "{}", r.hours);
}

#[test]
fn user_load_and_a_shared_link() {
    let g = raidz2_10();
    // User I/O taking half of each disk's time leaves the resilver 75 MB/s: 7.41 h at 50%.
    let r = rebuild(&g, RebuildKind::Resilver, LEAF, 0.5, &rates(0.5, None)).unwrap();
    assert!((r.hours - 7.4074).abs() < 1e-3, "{}", r.hours);
    assert!(r.explanation.contains("user I/O takes 50% of each disk"));
    // Behind a ~1 GB/s chipset uplink (docs/zfs-internals.md §4, ICH10R) all 20 TB moved at 50%
    // cross it: 20,000 s = 5.56 h; at 90%, 36 TB: 10 h. The link, not the disks, sets the time.
    let dmi = || {
        Some(SharedPath {
            name: "DMI uplink".into(),
            bytes_per_s: 1e9,
        })
    };
    let r = rebuild(&g, RebuildKind::Resilver, LEAF, 0.5, &rates(0.0, dmi())).unwrap();
    assert!((r.hours - 5.5556).abs() < 1e-3, "{}", r.hours);
    assert_eq!(r.limiting_resource, Limit::Shared("DMI uplink".into()));
    assert!(
        r.explanation
            .ends_with("limited by the shared DMI uplink: 5.6 h"),
        "{}",
        r.explanation
    );
    let r = rebuild(&g, RebuildKind::Resilver, LEAF, 0.9, &rates(0.0, dmi())).unwrap();
    assert!((r.hours - 10.0).abs() < 1e-9, "{}", r.hours);
}

#[test]
fn mirror_reads_one_copy() {
    let layout: model::Layout = "mirror-3".parse().unwrap();
    // 50% of 4 TB: one 2 TB copy read, shared by the two surviving sides (1 TB each), 2 TB
    // written: the new disk limits at 13,333 s.
    let r = rebuild(
        &layout.groups[0],
        RebuildKind::Resilver,
        LEAF,
        0.5,
        &rates(0.0, None),
    )
    .unwrap();
    assert_eq!((r.bytes_to_read, r.bytes_to_write), (2e12, 2e12));
    assert_eq!(r.limiting_resource, Limit::NewDiskWrites);
    assert!((r.hours - 3.7037).abs() < 1e-3);
}

#[test]
fn draid_sequential_rebuild_spreads_the_work() {
    let layout: model::Layout = "draid2:8d:24c:2s".parse().unwrap();
    let g = &layout.groups[0];
    // Share = 0.5 * 4e12 * 22/24 = 1.8333e12 (spare space stays empty). Rows are 10 wide:
    // 9 * share = 16.5e12 read. Sequential rebuild: each of 23 survivors reads 0.7174e12 and
    // writes 0.0797e12 at 150 MB/s: 5,314 s = 1.48 h. A resilver onto one new disk must write
    // the whole share there: 12,222 s = 3.40 h.
    let seq = rebuild(
        g,
        RebuildKind::SequentialRebuild,
        LEAF,
        0.5,
        &rates(0.0, None),
    )
    .unwrap();
    assert!((seq.bytes_to_read - 16.5e12).abs() < 1e3);
    assert!((seq.hours - 1.4761).abs() < 1e-3, "{}", seq.hours);
    assert_eq!(seq.limiting_resource, Limit::SurvivorReadsAndWrites);
    let heal = rebuild(g, RebuildKind::Resilver, LEAF, 0.5, &rates(0.0, None)).unwrap();
    assert!((heal.hours - 3.3951).abs() < 1e-3, "{}", heal.hours);
    assert_eq!(heal.limiting_resource, Limit::NewDiskWrites);

    let repair = group_repair(g, LEAF, 0.5, &rates(0.0, None)).unwrap();
    assert_eq!(repair.sequential_rebuild_hours, seq.hours);
    assert_eq!(repair.resilver_hours, heal.hours);
    // Only rows holding both failed children lose all redundancy: (10/24)(9/23) = 0.16304 of
    // the 44e12 allocated, read from their 8 surviving columns: 5.739e12 bytes.
    assert!((repair.unprotected_read_bytes / 5.739e12 - 1.0).abs() < 1e-3);
    // raidz2-10: the last rebuild reads all 8 survivors' shares, 16e12 bytes at 50%.
    let raidz = group_repair(&raidz2_10(), LEAF, 0.5, &rates(0.0, None)).unwrap();
    assert_eq!(raidz.unprotected_read_bytes, 16e12);
}

#[test]
fn refuses_what_cannot_be_rebuilt() {
    let stripe: model::Layout = "stripe-2".parse().unwrap();
    assert!(rebuild(
        &stripe.groups[0],
        RebuildKind::Resilver,
        LEAF,
        0.5,
        &rates(0.0, None)
    )
    .is_err());
    assert!(rebuild(
        &raidz2_10(),
        RebuildKind::SequentialRebuild,
        LEAF,
        0.5,
        &rates(0.0, None)
    )
    .is_err());
    assert!(rebuild(
        &raidz2_10(),
        RebuildKind::Resilver,
        LEAF,
        1.5,
        &rates(0.0, None)
    )
    .is_err());
    assert!(rebuild(
        &raidz2_10(),
        RebuildKind::Resilver,
        LEAF,
        0.5,
        &rates(1.0, None)
    )
    .is_err());
}

/// The scan costs of a 7200 rpm disk stated round: 0.1 ms a command, 10 ms an indirect-block
/// read, 5 ms a scattered read, 1 MiB aggregation, no CPU cost; 4 KiB sectors; a scan
/// window that holds the whole pool (every block sorted in).
fn scanned(recordsize: f64, free_among_data: f64) -> RebuildRates {
    windowed(recordsize, free_among_data, (1e12, 1.0))
}

/// `scanned` with a window of `window_blocks` over `allocated_bytes`.
fn windowed(
    recordsize: f64,
    free_among_data: f64,
    (window_blocks, allocated_bytes): (f64, f64),
) -> RebuildRates {
    RebuildRates {
        scan: Some(ScanShape {
            recordsize,
            sector: 4096.0,
            free_among_data,
            window_blocks,
            allocated_bytes,
            costs: BlockCosts {
                aggregation_bytes: 1048576.0,
                command_s: 1e-4,
                indirect_read_s: 0.01,
                scattered_read_s: 0.005,
                zio_cpu_s: 0.0,
                checksum_s_per_byte: 0.0,
                cores: 1.0,
            },
        }),
        ..rates(0.0, None)
    }
}

#[test]
fn the_scan_costs_per_block_and_per_hole() {
    let g = raidz2_10();
    // 128K on raidz2-10, 4K sectors: 32 data sectors in 4 rows of 8, 8 parity, 40 padded to
    // 42 (a multiple of 3) over 10 leaves: a column of 17,203.2 bytes. At 50% each survivor
    // reads 2e12 bytes: 116.26 million columns; the vdev holds 10 x 2e12 / (42 x 4096) =
    // 116.26 million blocks, 113,533 indirect blocks, each read on all 10 leaves: 113,533
    // reads of 10 ms per leaf = 1,135.3 s. Written in order (nothing free): the span is the
    // 2e12 read, 13,333.3 s at 150 MB/s, in 1,907,349 commands of 1 MiB (190.7 s): 14,659.4 s.
    let r = rebuild(
        &g,
        RebuildKind::Resilver,
        LEAF,
        0.5,
        &scanned(131072.0, 0.0),
    )
    .unwrap();
    let by_hand =
        2e12 / 1048576.0 * 1e-4 + 10.0 * 2e12 / (42.0 * 4096.0) / 1024.0 * 0.01 + 2e12 / 150e6;
    assert!((r.hours * 3600.0 - by_hand).abs() < 1e-6, "{}", r.hours);
    assert!((r.hours - 4.0721).abs() < 1e-4, "{}", r.hours);
    assert_eq!(r.limiting_resource, Limit::SurvivorReads);
    assert!(
        r.explanation.contains(
            "at 150.0 MB/s as a sorted scan of 116.3 million 128K records: 0.11 million \
             indirect-block reads and 1.91 million read commands over 2.0 TB per disk)"
        ),
        "{}",
        r.explanation
    );
    // Smaller records: more blocks, more indirect blocks; 16K takes 4 data and 2 parity
    // sectors on 6 of the 10 leaves: 813.8 million blocks, 794,728 indirect blocks, each
    // (128 KiB) on all 10 leaves: 7,947.3 s of 10 ms reads per leaf; 5.96 h in all.
    let hours = |rs: f64, free: f64, fill: f64| {
        rebuild(&g, RebuildKind::Resilver, LEAF, fill, &scanned(rs, free))
            .unwrap()
            .hours
    };
    let (small, mid, large) = (
        hours(16384.0, 0.0, 0.5),
        hours(131072.0, 0.0, 0.5),
        hours(1048576.0, 0.0, 0.5),
    );
    let small_by_hand =
        (2e12 / 1048576.0 * 1e-4 + 10.0 * 2e12 / (6.0 * 4096.0) / 1024.0 * 0.01 + 2e12 / 150e6)
            / 3600.0;
    assert!(
        (small - small_by_hand).abs() < 1e-9,
        "{small} {small_by_hand}"
    );
    assert!(small > mid && mid > large, "{small} {mid} {large}");
    // 1M: 256 data sectors in 32 rows, 64 parity, 320 padded to 321: 15.2 million blocks,
    // 14,855 indirect-block reads per leaf (148.5 s), the same 1 MiB commands: 3.80 h.
    let large_by_hand =
        (2e12 / 1048576.0 * 1e-4 + 2e13 / (321.0 * 4096.0) / 1024.0 * 0.01 + 2e12 / 150e6) / 3600.0;
    assert!(
        (large - large_by_hand).abs() < 1e-9,
        "{large} {large_by_hand}"
    );
    assert!(
        (small - 5.9643).abs() < 1e-4 && (large - 3.7979).abs() < 1e-4,
        "{small} {large}"
    );
    // Holes among the data: with 20% of the span free the head crosses 2.5e12 at 50% full;
    // at 90% the data spans the whole leaf (4e12, 10% free). A 128K column is followed by a
    // hole with chance g and the hole is wider than the 32 KiB gap limit (one column) with
    // chance g: each such hole is one more command.
    let half = hours(131072.0, 0.2, 0.5);
    let cols = 2e12 / 17203.2;
    let half_by_hand = (2.5e12 / 1048576.0 * 1e-4
        + cols * 0.04 * 1e-4
        + 10.0 * 2e12 / (42.0 * 4096.0) / 1024.0 * 0.01
        + 2.5e12 / 150e6)
        / 3600.0;
    assert!((half - half_by_hand).abs() < 1e-9, "{half} {half_by_hand}");
    let ninety = hours(131072.0, 0.2, 0.9);
    assert!(ninety > half && half > mid, "{ninety} {half} {mid}");
    // 90%: 4e12 crossed (26,666.7 s), 3.815 + 2.093 million commands (590.7 s), 204,359
    // indirect-block reads (2,043.6 s): 29,300.9 s.
    assert!(
        (half - 5.1404).abs() < 1e-4 && (ninety - 8.1392).abs() < 1e-4,
        "{half} {ninety}"
    );
    // A dRAID sequential rebuild reads allocated ranges, not blocks: no scan cost.
    let layout: model::Layout = "draid2:8d:24c:2s".parse().unwrap();
    let kind = RebuildKind::SequentialRebuild;
    let seq = rebuild(&layout.groups[0], kind, LEAF, 0.5, &scanned(16384.0, 0.0)).unwrap();
    assert!((seq.hours - 1.4761).abs() < 1e-3, "{}", seq.hours);
}

#[test]
fn a_bounded_scan_window_reads_fuller_pools_slower() {
    // A host of 64 GiB sorts 25.26 million blocks at a time. At 50% the pool holds 2e13
    // bytes, 116.26 million blocks of 172,032 bytes: the window holds 21.7% of them; 4% of
    // the blocks were placed by size, and 78.3% of those are one more 5 ms read each:
    // 116.26e6 x 0.04 x 0.783 x 5 ms = 18,200 s per leaf. At 90%: 12.1% of 209.3 million,
    // 20% placed by size: 184,000 s.
    let g = raidz2_10();
    let window = |fill: f64| {
        let allocated = 10.0 * 4e12 * fill;
        (68719476736.0 / 20.0 / 136.0, allocated)
    };
    let per_tb = |fill: f64| {
        let r = windowed(131072.0, 0.2, window(fill));
        let sorted = scanned(131072.0, 0.2);
        let at = |rates: &RebuildRates| {
            rebuild(&g, RebuildKind::Resilver, LEAF, fill, rates)
                .unwrap()
                .hours
        };
        (at(&r) / (4.0 * fill), at(&r) - at(&sorted))
    };
    let (half, half_extra) = per_tb(0.5);
    let (full, full_extra) = per_tb(0.9);
    let blocks = |fill: f64| 10.0 * 4e12 * fill / 172032.0;
    let by_hand = |fill: f64, placed: f64| {
        let q = 68719476736.0 / 20.0 / 136.0 / blocks(fill);
        blocks(fill) * placed * (1.0 - q) * 0.005 / 3600.0
    };
    assert!(
        (half_extra - by_hand(0.5, 0.04)).abs() < 1e-6,
        "{half_extra}"
    );
    assert!(
        (full_extra - by_hand(0.9, 0.2)).abs() < 1e-6,
        "{full_extra}"
    );
    // The mark: at least 10% slower per byte at 90% than at 50%.
    assert!(full > 1.1 * half, "{full} {half}");
}
