//! Seed 001: fifteen 500 GB SATA disks on one shared PCI-X bus, three layouts measured with
//! Bonnie-64 (/work/shared/reference/seed-measurements.md).

use model::system_file::parse;
use model::{Catalog, Layout};
use zpoolsim_plan::{compare, LabelledWorkload, Settings};

fn seed001() -> model::System {
    parse(
        include_str!("../../../examples/seed-001-pcix-15-disk.toml"),
        "examples/seed-001-pcix-15-disk.toml",
        Catalog::embedded(),
    )
    .unwrap()
}

fn bonnie() -> Settings {
    Settings {
        workloads: ["bonnie-read", "bonnie-write", "bonnie-seeks"]
            .iter()
            .map(|w| LabelledWorkload::parse(w).unwrap())
            .collect(),
        fill: 0.5,
        years: 5.0,
    }
}

#[test]
#[ignore = "the performance model predicts 250 and 278 MB/s for the raidz1 layouts (measured 387.5, 354.5): outside 15% until perf lands its raidz write path"]
fn writes_within_15_percent_of_the_measured() {
    let layouts: Vec<Layout> = ["3x raidz1-5", "5x raidz1-3", "7x mirror-2"]
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    let rows = compare(&seed001(), &layouts, &bonnie()).unwrap();
    // Seed 001: block writes peak at 387.5, 354.5 and 258.5 MB/s.
    for (row, measured) in rows.iter().zip([387.5, 354.5, 258.5]) {
        let predicted = row.write_bytes_per_s / 1e6;
        assert!(
            (predicted / measured - 1.0).abs() <= 0.15,
            "{}: predicted {predicted:.1} MB/s, measured {measured}",
            row.candidate.layout
        );
    }
}
