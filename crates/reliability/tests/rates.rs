//! Rebuild rates from the performance model on the embedded default system: eight Seagate
//! Exos X16 16 TB in raidz2-8 behind an LSI SAS3008 HBA in a PCIe 3.0 x8 slot.

use model::system_file::default_system;
use model::Workload;
use zpoolsim_reliability::Limit;
use zpoolsim_reliability::{rebuild, rebuild_rates, RebuildKind, UserLoad};

#[test]
fn idle_rates_follow_the_filled_part_of_the_disk() {
    let system = default_system();
    // Empty: the outer edge, the data sheet's 261 MB/s OD rate.
    let empty = rebuild_rates(&system, 0.0, None).unwrap();
    assert_eq!(empty.leaf_read_bytes_per_sec, 261e6);
    assert_eq!(empty.user_busy, 0.0);
    // Fuller pools reach further in, where the disk is slower: with a fifth of the data's span
    // free (holes), half full spans the outer 62.5%, 80% full and more the whole disk.
    let rates: Vec<f64> = [0.5, 0.9, 1.0]
        .iter()
        .map(|&f| {
            rebuild_rates(&system, f, None)
                .unwrap()
                .leaf_read_bytes_per_sec
        })
        .collect();
    assert!(
        rates[0] < 261e6 && rates[1] < rates[0] && rates[2] == rates[1],
        "{rates:?}"
    );
    // The slot is the one pipe all eight disks share; reads cross it towards memory.
    let shared = empty.shared.unwrap();
    assert!(
        shared.name.starts_with("slot1 (to memory)"),
        "{}",
        shared.name
    );
}

#[test]
fn the_resilver_behind_a_saturating_user_load() {
    let system = default_system();
    let group = system.pool.vdevs[0].layout.groups[0];
    let leaf = system.disks[0].model.capacity_bytes;
    let idle = rebuild_rates(&system, 0.5, None).unwrap();
    // Half of 16.0009e12 B per leaf, read from 7 survivors over the 10 TB the data spans
    // (12.2 h at the media rate), plus the scan's commands and indirect-block reads; the new
    // disk writes 8 TB in 9.7 h. 56 TB + 8 TB over a ~3.5 GB/s slot would take 5 h. Blocks
    // the scan's memory-bounded window cannot sort in add 9.8 h (assess.rs).
    let quiet = rebuild(&group, RebuildKind::Resilver, leaf, 0.5, &idle).unwrap();
    assert_eq!(quiet.bytes_to_read, 7.0 * 0.5 * leaf as f64);
    let streaming = 0.5 * leaf as f64 / 0.8 / idle.leaf_read_bytes_per_sec / 3600.0;
    assert!((streaming - 12.16).abs() < 0.01, "{streaming}");
    assert!((23.0..24.0).contains(&quiet.hours), "{}", quiet.hours);
    assert_eq!(quiet.limiting_resource, Limit::SurvivorReads);
    // 4 KiB random reads at queue depth 32 keep the disks saturated; the resilver keeps its
    // scrub-class slot, one in eleven: 10/11 busy, eleven times as long.
    let randread = Workload::parse("fio-randread:bs=4K,qd=32").unwrap();
    let at = |busy: f64| {
        let load = UserLoad {
            workload: &randread,
            busy,
        };
        rebuild_rates(&system, 0.5, Some(load)).unwrap()
    };
    let loaded = at(1.0);
    assert!(
        (loaded.user_busy - 10.0 / 11.0).abs() < 1e-12,
        "{}",
        loaded.user_busy
    );
    let busy = rebuild(&group, RebuildKind::Resilver, leaf, 0.5, &loaded).unwrap();
    assert!((busy.hours / quiet.hours - 11.0).abs() < 1e-9);
    assert!(
        busy.explanation.contains("user I/O takes 91% of each disk"),
        "{}",
        busy.explanation
    );
    // The same load a fifth of the time (--busy 20%): 10/11 x 0.2 = 18.2% of each disk on
    // average, 1 / 0.818 = 1.22 times as long: longer than idle, far shorter than always.
    let daytime = rebuild(&group, RebuildKind::Resilver, leaf, 0.5, &at(0.2)).unwrap();
    let ratio = daytime.hours / quiet.hours;
    assert!(
        (ratio - 1.0 / (1.0 - 0.2 * 10.0 / 11.0)).abs() < 1e-9,
        "{ratio}"
    );
    assert!(daytime.hours < busy.hours / 5.0);
}

/// The same pool (the default system, half full, idle) at 16K, 128K and 1M records: the
/// rates the performance model gives carry the recordsize into the resilver's scan.
#[test]
fn the_recordsize_reaches_the_resilver() {
    let hours = |recordsize: u64, fill: f64| {
        let mut system = default_system();
        for d in &mut system.pool.datasets {
            d.recordsize = recordsize;
        }
        let group = system.pool.vdevs[0].layout.groups[0];
        let leaf = system.disks[0].model.capacity_bytes;
        let rates = rebuild_rates(&system, fill, None).unwrap();
        let scan = rates.scan.as_ref().unwrap();
        assert_eq!(scan.recordsize, recordsize as f64);
        assert_eq!(scan.sector, 4096.0);
        rebuild(&group, RebuildKind::Resilver, leaf, fill, &rates)
            .unwrap()
            .hours
    };
    let (small, mid, large) = (hours(16384, 0.5), hours(131072, 0.5), hours(1 << 20, 0.5));
    assert!(small > mid && mid > large, "{small} {mid} {large}");
    // 8 TB a survivor over a 10 TB span: 12.2 h of media time in each; 16K records make 2.6
    // billion blocks and 2.5 million indirect-block reads per disk (about 5 h), 1M 0.6 h of
    // commands and metadata. The 64 GiB host's scan window holds 25.3 million blocks: 0.9% of
    // the 16K pool's, 7.3% at 128K, 58% at 1M; 4% of the blocks were placed by size, and those
    // the window misses are one more read each: 59 h at 16K, 9.8 h at 128K, 0.2 h at 1M.
    assert!((76.7..77.5).contains(&small), "{small}");
    assert!((23.2..23.6).contains(&mid), "{mid}");
    assert!((13.2..13.6).contains(&large), "{large}");
    // 90% full: 14.4 TB a survivor over the whole 16 TB disk, 10% of it holes; 20% of the
    // blocks placed by size, the window holds 4.0% of them: 120 million more reads per disk.
    // Per byte read, 2.7 times as slow as half full (the issue asks at least 1.1).
    let full = hours(131072, 0.9);
    assert!((115.1..115.6).contains(&full), "{full}");
    assert!(full / 14.4 > 2.7 * mid / 8.0, "{full} {mid}");
}
