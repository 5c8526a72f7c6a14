//! Disks of one batch (`same_batch`): a hazard factor Z ~ Gamma(4) of mean 1 shared by the
//! pool's disks. Each disk's failure rate is unchanged on average, but failures come together:
//! a loss needing n failures in one vdev is E[Z^n] times likelier when losses are rare.

use model::Layout;
use zpoolsim_reliability::{
    assess, batch_moment, simulate, GroupRepair, Lifetime, Mission, RepairTime, Scenario,
    BATCH_SHAPE,
};

#[test]
fn moments_of_the_batch_factor() {
    // Gamma(k = 4, 1/4): E[Z] = 1, E[Z^2] = 1 + 1/4, E[Z^3] = (5/4)(6/4), E[Z^4] x (7/4).
    assert_eq!(BATCH_SHAPE, 4);
    assert_eq!(batch_moment(1), 1.0);
    assert_eq!(batch_moment(2), 1.25);
    assert_eq!(batch_moment(3), 1.875);
    assert_eq!(batch_moment(4), 3.28125);
}

/// A mirror-2 of disks with a 100,000 h MTBF over 10,000 h, each failure degrading it for
/// 2,000 h: P(loss) = 2 x 0.1 x 0.02 ~ 0.4% with independent disks.
fn mirror(same_batch: bool) -> f64 {
    let layout: Layout = "mirror-2".parse().unwrap();
    let repairs = [GroupRepair {
        resilver_hours: 2000.0,
        sequential_rebuild_hours: 2000.0,
        unprotected_read_bytes: 0.0,
    }];
    let scenario = Scenario {
        layout: &layout,
        repairs: &repairs,
        lifetime: Lifetime::from_mtbf(100_000.0).unwrap(),
        repair_time: RepairTime::Fixed,
        hot_spares: 0,
        replacement_hours: 0.0,
        uer_per_bit: 0.0,
        allocated_bytes: 1e12,
        block_bytes: 131_072.0,
        mission_hours: 10_000.0,
        same_batch,
    };
    simulate(&scenario, 2_000_000, 3).unwrap().pool_loss.p
}

#[test]
fn a_shared_batch_makes_double_failures_likelier() {
    let independent = mirror(false);
    let batch = mirror(true);
    assert!((0.0030..0.0040).contains(&independent), "{independent}");
    // E[Z^2] = 1.25 only in the rare-loss limit: a first failure is not rare here (0.2 Z over
    // the mission), so a batch of high Z loses less than Z^2 more. Integrating
    // P(loss | Z) = int_0^T (2Z/M) e^(-2Zt/M) (1 - e^(-Z min(W, T - t)/M)) dt over Gamma(4)
    // (M = 100,000 h, T = 10,000 h, W = 2,000 h) gives 0.003894 / 0.003262 = 1.194. 2 million
    // missions of each resolve the ratio to ~1.7% (about 7,000 losses each): three of those.
    let ratio = batch / independent;
    assert!(
        (1.13..1.26).contains(&ratio),
        "{batch} / {independent} = {ratio}"
    );
}

#[test]
fn the_closed_form_says_it_does_not_apply() {
    let system = model::system_file::default_system();
    let mission = Mission {
        fill: 0.5,
        years: 5.0,
        replacement_hours: 72.0,
        user: None,
        lifetime: None,
        afr_pct: None,
        weibull_shape: None,
        trials: 1000,
        seed: 1,
        same_batch: true,
    };
    let a = assess(&system, &mission).unwrap();
    assert_eq!(a.closed_form, None);
    let why = a.closed_form_invalid.unwrap();
    assert!(
        why.contains("1.25 for 2, 1.88 for 3, 3.28 for 4 failures"),
        "{why}"
    );
    assert!(a.monte_carlo.is_some());
}
