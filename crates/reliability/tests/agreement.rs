//! The Monte Carlo engine against Elling's closed form, where the closed form's assumptions
//! hold: exponential lifetimes, exponential repairs one at a time per vdev, MTTR far below
//! MTBF / N (the closed form drops terms of order N * MTTR / MTBF; here they stay near 2%,
//! under a third of the interval). Disks are accelerated (MTBF 1000 h) so that losses are
//! frequent and each case runs well under a second of release time. The mission is set
//! where the closed form says P(loss) = 1/2; the simulation's 95% interval must hold 1/2 and
//! be narrower than 0.1, so a closed form off by a factor of 1.4 in MTTDL (P = 0.39 or 0.61)
//! would fail.

use model::Layout;
use zpoolsim_reliability::{pool_mttdl, simulate, GroupRepair, Lifetime, RepairTime, Scenario};

const MTBF_HOURS: f64 = 1000.0;
const SEED: u64 = 2026;

fn agrees(layout: &str, mttr_hours: f64, trials: u64, uer_per_bit: f64) {
    let layout: Layout = layout.parse().unwrap();
    let repair = GroupRepair {
        resilver_hours: mttr_hours,
        sequential_rebuild_hours: mttr_hours,
        unprotected_read_bytes: 1e12,
    };
    let repairs = vec![repair; layout.groups.len()];
    let mttdl = pool_mttdl(&layout, &repairs, MTBF_HOURS, uer_per_bit, 0.0)
        .unwrap()
        .pool_hours;
    let scenario = Scenario {
        layout: &layout,
        repairs: &repairs,
        lifetime: Lifetime::from_mtbf(MTBF_HOURS).unwrap(),
        repair_time: RepairTime::Exponential,
        hot_spares: 0,
        replacement_hours: 0.0,
        uer_per_bit,
        allocated_bytes: 1e12,
        block_bytes: 131_072.0,
        // 1 - exp(-t / MTTDL) = 1/2.
        mission_hours: mttdl * std::f64::consts::LN_2,
        same_batch: false,
    };
    let report = simulate(&scenario, trials, SEED).unwrap();
    // With UREs the closed form is the time to losing any data (docs/zfs-internals.md §7).
    let est = if uer_per_bit > 0.0 {
        report.data_loss
    } else {
        report.pool_loss
    };
    assert!(
        est.contains(0.5) && est.high - est.low < 0.1,
        "{layout}: closed form 0.5, Monte Carlo {:.4} [{:.4}, {:.4}]",
        est.p,
        est.low,
        est.high
    );
}

#[test]
fn stripe() {
    agrees("stripe-4", 1.0, 2000, 0.0);
}

#[test]
fn mirror_2() {
    agrees("mirror-2", 2.0, 2000, 0.0);
}

#[test]
fn mirror_3() {
    agrees("mirror-3", 10.0, 600, 0.0);
}

#[test]
fn raidz1() {
    agrees("raidz1-5", 1.0, 2000, 0.0);
}

#[test]
fn raidz2() {
    agrees("raidz2-6", 2.5, 600, 0.0);
}

#[test]
fn draid2_with_distributed_spares() {
    agrees("draid2:4d:10c:2s", 1.5, 600, 0.0);
}

#[test]
fn pool_of_mixed_vdevs_in_series() {
    agrees("2x raidz1-4 + mirror-2", 1.0, 2000, 0.0);
}

#[test]
fn raidz1_with_unrecoverable_read_errors() {
    // 8e12 bits read unprotected at 1e-13: P_ure = 0.55, far above (N-1) MTTR / MTBF.
    agrees("raidz1-5", 1.0, 2000, 1e-13);
}
