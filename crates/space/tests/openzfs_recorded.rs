//! The engine against real OpenZFS releases, from their recorded outputs: every pool of
//! crates/space/oracle/pools.txt as libzpool of OpenZFS 2.1.11, 2.2.9, 2.3.2 and 2.4.4 created
//! it (tests/data/openzfs_oracle.json, written by `scripts/openzfs-oracle.sh record`). Runs
//! everywhere; tests/openzfs_live.rs checks the same against the live oracle.

mod oracle;

use model::units::KIB;
use oracle::recorded as releases;

/// How much more USED than the engine charges OpenZFS may show in the recorded outputs: none
/// was above, and a quiet machine repeats each pool's USED to the byte.
const USED_ABOVE_RECORDED: u64 = 128 * KIB;

#[test]
fn every_release_records_every_pool() {
    let lines = oracle::pool_lines();
    assert!(lines.len() >= 60, "{} pools", lines.len());
    let recorded = releases();
    let names: Vec<&str> = recorded.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(names, ["2.1.11", "2.2.9", "2.3.2", "2.4.4"]);
    for (release, records) in &recorded {
        let pools: Vec<&str> = records
            .iter()
            .map(|r| r["pool"].as_str().unwrap())
            .collect();
        assert_eq!(
            pools, lines,
            "{release}: the recorded pools are pools.txt's"
        );
    }
}

#[test]
fn engine_matches_every_recorded_pool() {
    let mut wrong = Vec::new();
    for (release, records) in releases() {
        for record in &records {
            wrong.extend(oracle::differences(&release, record, USED_ABOVE_RECORDED));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
