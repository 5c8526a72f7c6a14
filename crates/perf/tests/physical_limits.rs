//! No prediction past a physical limit, over a grid of systems (hard disks, SATA SSDs, NVMe;
//! stripes to dRAID; 1 to 96 disks) and every workload family: no resource busier than it can
//! be, uncached throughput within what the disks' media move, and more hardware (a disk, a
//! faster link, a log device) never slower. And a Samsung 990 PRO on PCIe 4.0 x4 at its data
//! sheet when nothing else limits.

use model::{Catalog, System, Workload};
use proptest::prelude::*;
use zpoolsim_perf as perf;

/// The media of the grid: a catalog disk each.
const MEDIA: [&str; 3] = [
    "seagate-exos-x20-20tb",
    "samsung-pm893-3.84tb",
    "samsung-990-pro-2tb",
];

/// Workload families, uncached: cold reads (bonnie++'s read too: its file would otherwise be
/// partly in the ARC), writes synced at the end.
const WORKLOADS: [&str; 7] = [
    "fio-read:size=100G,cache=cold,qd=16,threads=2",
    "fio-write:size=100G,end_fsync=on,threads=2",
    "fio-randread:size=100G,cache=cold,qd=32,threads=4",
    "fio-randwrite:size=100G,qd=32,threads=4,end_fsync=on",
    "fio-randrw:size=100G,cache=cold,qd=8,threads=4,end_fsync=on",
    "fio-randwrite:size=10G,sync=on,threads=8",
    "cache=cold bonnie++ -s 200g -f -b @read",
];

/// A system of `n` disks of `media` in `layout`, each NVMe disk on its own PCIe `gen` x4 link,
/// the others behind the implied HBAs; `log` adds a mirrored NVMe log.
fn system(media: &str, layout: &str, n: usize, gen: u32, log: bool) -> System {
    let nvme = media.contains("990");
    let mut text = String::from(
        "name = \"grid\"\n[host]\ncpu = \"amd-epyc-7313p\"\nram = \"64GiB\"\nzfs = \"openzfs-2.2\"\n",
    );
    let mut disk = |name: &str, model: &str, link: bool| {
        if link {
            text += &format!(
                "[[link]]\nid = \"l-{name}\"\nkind = \"pcie\"\ngen = {gen}\nlanes = 4\n\
                 [[disk]]\nname = \"{name}\"\nmodel = \"{model}\"\nlink = \"l-{name}\"\n"
            );
        } else {
            text += &format!("[[disk]]\nname = \"{name}\"\nmodel = \"{model}\"\n");
        }
    };
    for i in 0..n {
        disk(&format!("d{i}"), media, nvme);
    }
    if log {
        for i in 0..2 {
            disk(&format!("log{i}"), "samsung-990-pro-2tb", true);
        }
    }
    text += &format!("[pool]\nlayout = \"{layout}\"\nashift = 12\n");
    if log {
        text += "log = \"mirror-2\"\n";
    }
    text += "[[dataset]]\nname = \"tank\"\nrecordsize = \"128K\"\ncompression = \"off\"\n";
    model::system_file::parse(&text, "grid.toml", Catalog::embedded())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A layout of the family `family` on about `n` disks, and the disks it takes.
fn layout(family: usize, n: usize) -> (String, usize) {
    let n = n.max(1);
    match family {
        0 => (format!("stripe-{n}"), n),
        1 => {
            let k = (n / 2).max(1);
            (format!("{k}x mirror-2"), 2 * k)
        }
        2..=4 => {
            let parity = family - 1;
            let width = (parity + 4).min(96);
            let k = (n / width).max(1);
            (format!("{k}x raidz{parity}-{width}"), k * width)
        }
        _ => {
            let children = n.max(5);
            (format!("draid2:3d:{children}c:0s"), children)
        }
    }
}

fn throughput(s: &System, w: &str) -> f64 {
    let w = Workload::parse(w).unwrap();
    perf::predict(s, &w)
        .unwrap_or_else(|e| panic!("{e}"))
        .throughput_bytes_per_s
}

/// What the disks' media move at most, bytes/s: every disk at its outer rate.
fn media_bound(s: &System, writes: bool) -> f64 {
    s.disks
        .iter()
        .map(|d| {
            let m = &d.model;
            let rate = if writes {
                m.seq_write_mb_s.unwrap_or(m.seq_outer_mb_s)
            } else {
                m.seq_outer_mb_s
            };
            rate * 1e6
        })
        .sum()
}

proptest! {
    // A fixed seed: CI sees the same 1,024 systems each run, so a limit broken by a change
    // fails at once and never by the draw (a random draw once found the ARC's share of an
    // uncached-looking read; every workload here is now cold).
    #![proptest_config(ProptestConfig {
        cases: 1024,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x2f5a_0001),
        .. ProptestConfig::default()
    })]

    #[test]
    fn nothing_past_a_physical_limit(
        media in 0usize..3,
        family in 0usize..6,
        n in 1usize..=96,
        workload in 0usize..WORKLOADS.len(),
    ) {
        let (layout, disks) = layout(family, n);
        let s = system(MEDIA[media], &layout, disks, 4, false);
        let spec = WORKLOADS[workload];
        let p = perf::predict(&s, &Workload::parse(spec).unwrap()).unwrap();
        for u in &p.utilizations {
            prop_assert!(u.utilization <= 1.0 + 1e-6, "{} {} busy {}", layout, u.resource, u.utilization);
        }
        let writes = spec.contains("write") && !spec.contains("randrw");
        let bound = media_bound(&s, writes);
        prop_assert!(p.throughput_bytes_per_s <= bound * 1.0001,
            "{} {}: {} B/s past the media's {}", layout, spec, p.throughput_bytes_per_s, bound);
    }

    #[test]
    fn another_disk_never_slows_a_stripe(
        media in 0usize..3,
        n in 1usize..=95,
        workload in 0usize..WORKLOADS.len(),
    ) {
        let spec = WORKLOADS[workload];
        let small = throughput(&system(MEDIA[media], &format!("stripe-{n}"), n, 4, false), spec);
        let large = throughput(&system(MEDIA[media], &format!("stripe-{}", n + 1), n + 1, 4, false), spec);
        prop_assert!(large >= small * 0.99, "stripe-{} {}: {} then {}", n, spec, small, large);
    }

    #[test]
    fn a_faster_link_or_a_log_never_slows(
        family in 0usize..6,
        n in 1usize..=24,
        workload in 0usize..WORKLOADS.len(),
    ) {
        let spec = WORKLOADS[workload];
        let (layout, disks) = layout(family, n);
        let gen3 = throughput(&system(MEDIA[2], &layout, disks, 3, false), spec);
        let gen4 = throughput(&system(MEDIA[2], &layout, disks, 4, false), spec);
        prop_assert!(gen4 >= gen3 * 0.999, "{} {}: gen3 {} gen4 {}", layout, spec, gen3, gen4);
        let hdd = throughput(&system(MEDIA[0], &layout, disks, 4, false), spec);
        let logged = throughput(&system(MEDIA[0], &layout, disks, 4, true), spec);
        prop_assert!(logged >= hdd * 0.999, "{} {}: {} with a log, {} without", layout, spec, logged, hdd);
    }
}

#[test]
fn a_990_pro_on_pcie_4_x4_at_its_data_sheet() {
    // Samsung 990 PRO data sheet: 7,450 MB/s sequential read, 6,900 MB/s write; nothing else
    // in the path limits a raw device read (O_DIRECT: no page cache's copies on the reader's
    // thread) or write at depth.
    let s = system(MEDIA[2], "stripe-1", 1, 4, false);
    let read = throughput(&s, "raw-read:qd=32,direct=on") / 1e6;
    let write = throughput(&s, "raw-write:qd=32") / 1e6;
    assert!((read / 7450.0 - 1.0).abs() <= 0.10, "{read}");
    assert!((write / 6900.0 - 1.0).abs() <= 0.10, "{write}");
    // On PCIe 3.0 x4 the link holds it back to about 3.6 GB/s.
    let slow = throughput(
        &system(MEDIA[2], "stripe-1", 1, 3, false),
        "raw-read:qd=32,direct=on",
    ) / 1e6;
    assert!(slow > 3400.0 && slow < 3700.0, "{slow}");
}
