//! The one-page report on a machine: the disks the planner places, the figures across the
//! network, and the refusals it makes before any work.

use model::hardware::DiskModel;
use model::system_file::default_system;
use model::{Catalog, System};
use plan::{with_controllers_for, with_disks, PlanError};
use zpoolsim_request::report;

fn exos16() -> &'static DiskModel {
    Catalog::embedded().disk("seagate-exos-x16-16tb").unwrap()
}

fn machine(disks: u32) -> System {
    let (grown, _) = with_controllers_for(&default_system(), exos16(), disks).unwrap();
    with_disks(&grown, exos16(), disks).unwrap()
}

fn example(text: &str, path: &str) -> System {
    model::system_file::parse(text, path, Catalog::embedded()).unwrap()
}

/// The report plans the data disks only: the special vdev's two 3.84 TB SSDs of the modern
/// example and the home example's L2ARC SSD keep their roles (they were counted as 20 TB and
/// 4 TB data disks: raidz2-14 and raidz2-5 were picked).
#[test]
fn the_report_plans_the_data_disks_and_names_the_other_roles() {
    let modern = example(
        include_str!("../../../examples/modern-12x20tb-special.toml"),
        "examples/modern-12x20tb-special.toml",
    );
    let r = report(&modern, None).unwrap();
    assert_eq!((r.disks, r.planned_disks), (14, 12));
    assert_eq!(r.roles, ["special mirror-2 on 2 x samsung-pm893-3.84tb"]);
    // The pool's own 2x raidz2-6 is scored first: its AVAIL is capacity's 159,725,336,625,952
    // (crates/cli/tests/capacity.rs), under the loss target.
    let own = r.own.as_ref().unwrap();
    assert_eq!(own.evaluation.candidate.layout.to_string(), "2x raidz2-6");
    assert_eq!(own.evaluation.avail_bytes, 159_725_336_625_952);
    assert!(own
        .standing
        .starts_with("your layout, under the loss target"));
    assert!(own
        .standing
        .contains("changing to raidz2-12 gives +14% usable space"));
    // The pick keeps the special vdev: its pool's space is one raidz2-12 of 20 TB disks.
    assert_eq!(r.recommendation.layout, "raidz2-12");
    assert!((182.0e12..183.5e12).contains(&(r.recommended.avail_bytes as f64)));
    let home = example(
        include_str!("../../../examples/modern-home-4x-red-plus.toml"),
        "examples/modern-home-4x-red-plus.toml",
    );
    let r = report(&home, None).unwrap();
    assert_eq!((r.disks, r.planned_disks), (5, 4));
    assert_eq!(r.roles, ["cache (L2ARC) on 1 x samsung-pm893-3.84tb"]);
    assert!(r.recommended.candidate.disks() == 4);
    // Issue #26: the home NAS's raidz1-4, 0.11% against the 0.1% target, is kept and marked at
    // the target, not dropped.
    let own = r.own.as_ref().unwrap();
    assert_eq!(own.evaluation.candidate.layout.to_string(), "raidz1-4");
    assert!(
        own.standing
            .starts_with("your layout, at the loss target (1.1e-1% against 1.0e-1%"),
        "{}",
        own.standing
    );
    assert_eq!(r.recommendation.layout, "raidz1-4");
}

/// Issue #15: a system file that names a NIC gets the figures a client sees across it beside
/// the local ones, and no write, absorbed by dirty data or not, outruns the 1 GbE it crosses.
#[test]
fn the_report_shows_what_crosses_the_network() {
    let home = example(
        include_str!("../../../examples/modern-home-4x-red-plus.toml"),
        "examples/modern-home-4x-red-plus.toml",
    );
    let r = report(&home, None).unwrap();
    let labels: Vec<&str> = r.over_network.iter().map(|w| w.workload.as_str()).collect();
    assert_eq!(
        labels,
        [
            "fio-read:net=on",
            "fio-write:net=on",
            "fio-randread:qd=32,net=on"
        ]
    );
    // 1 Gb/s carries 118 MB/s of payload: both streams stop there, the disks do more locally.
    for (net, local) in r.over_network.iter().zip(&r.workloads).take(2) {
        assert!(
            (117e6..119e6).contains(&net.bytes_per_s),
            "{}",
            net.bytes_per_s
        );
        assert!(local.bytes_per_s > 2.5 * net.bytes_per_s);
    }
    // A 4 GB write the dirty-data buffer would absorb still crosses the NIC first.
    let w = model::Workload::parse("fio-write:size=4G,net=on").unwrap();
    let p = perf::predict(&home, &w).unwrap();
    assert!(
        p.throughput_bytes_per_s <= 119e6,
        "{}",
        p.throughput_bytes_per_s
    );
}

/// A report on more disks than the planner takes is refused before the space, speed and
/// safety it would have computed first (it worked 20 s, then failed).
#[test]
fn a_report_on_more_disks_than_the_planner_takes_is_refused_up_front() {
    let e = report(&machine(1001), None).unwrap_err();
    assert_eq!(e, PlanError::ReportTooManyDisks { disks: 1001 });
}
