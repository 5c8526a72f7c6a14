//! Repair policies in the simulation, each checked against the closed form for the window
//! it leaves the vdev degraded, and the bytes unrecoverable read errors cost.

use model::Layout;
use zpoolsim_reliability::{
    p_loss_within, pool_mttdl, simulate, GroupRepair, Lifetime, MonteCarloReport, RepairTime,
    Scenario,
};

const MTBF_HOURS: f64 = 30_000.0;
const SEED: u64 = 11;

struct Policy {
    hot_spares: u32,
    replacement_hours: f64,
}

fn run(
    layout: &Layout,
    repair: GroupRepair,
    policy: &Policy,
    mission_hours: f64,
) -> MonteCarloReport {
    let repairs = [repair];
    let scenario = Scenario {
        layout,
        repairs: &repairs,
        lifetime: Lifetime::from_mtbf(MTBF_HOURS).unwrap(),
        repair_time: RepairTime::Fixed,
        hot_spares: policy.hot_spares,
        replacement_hours: policy.replacement_hours,
        uer_per_bit: 0.0,
        allocated_bytes: 1e12,
        block_bytes: 131_072.0,
        mission_hours,
        same_batch: false,
    };
    simulate(&scenario, 2000, SEED).unwrap()
}

/// Simulated P(loss) against the closed form with the given wait for a disk.
fn check(
    layout: &str,
    repair: GroupRepair,
    policy: Policy,
    closed_form_wait_hours: f64,
    mission_hours: f64,
) -> f64 {
    let layout: Layout = layout.parse().unwrap();
    let mttdl = pool_mttdl(&layout, &[repair], MTBF_HOURS, 0.0, closed_form_wait_hours)
        .unwrap()
        .pool_hours;
    let closed = p_loss_within(mttdl, mission_hours);
    let est = run(&layout, repair, &policy, mission_hours).pool_loss;
    // Within four standard errors (a 95% interval would miss it for one seed in twenty).
    let se = (closed * (1.0 - closed) / est.trials as f64).sqrt();
    assert!(
        (est.p - closed).abs() < 4.0 * se,
        "{layout}: closed form {closed:.4}, simulated {est:?}"
    );
    closed
}

#[test]
fn a_hot_spare_shortens_the_window_to_the_resilver() {
    // raidz1-5, 1 h resilver, 20 h to get a new disk: without a spare the vdev stays degraded
    // 21 h, with one 1 h (the spare is back 21 h later; a second failure in that time is rare).
    let repair = GroupRepair {
        resilver_hours: 1.0,
        sequential_rebuild_hours: 1.0,
        unprotected_read_bytes: 0.0,
    };
    let mission = 2.0e6;
    let none = check(
        "raidz1-5",
        repair,
        Policy {
            hot_spares: 0,
            replacement_hours: 20.0,
        },
        20.0,
        mission,
    );
    let spare = check(
        "raidz1-5",
        repair,
        Policy {
            hot_spares: 1,
            replacement_hours: 20.0,
        },
        0.0,
        mission,
    );
    // 1 - exp(-2e6 * 20 * 21 / 9e8) = 0.606 against 1 - exp(-2e6 * 20 / 9e8) = 0.0435.
    assert!(
        (none - 0.606).abs() < 1e-3 && (spare - 0.0435).abs() < 1e-3,
        "{none} {spare}"
    );
}

#[test]
fn a_distributed_spare_shortens_the_window_to_the_sequential_rebuild() {
    // draid1 of 10 children: 1 h sequential rebuild onto a distributed spare, against 20 h to
    // get a new disk and a 5 h resilver onto it.
    let repair = GroupRepair {
        resilver_hours: 5.0,
        sequential_rebuild_hours: 1.0,
        unprotected_read_bytes: 0.0,
    };
    let mission = 5.0e5;
    let policy = || Policy {
        hot_spares: 0,
        replacement_hours: 20.0,
    };
    let none = check("draid1:4d:10c:0s", repair, policy(), 20.0, mission);
    // Two distributed spares: the closed form with the 1 h window holds.
    let spares = check("draid1:4d:10c:2s", repair, policy(), 20.0, mission);
    assert!(none > 10.0 * spares, "{none} {spares}");
    // One is not enough for the closed form: it stays taken until the replacement is
    // rebalanced (25 h), and a second failure in that time (9 * 25 / 30,000 = 0.75%) waits
    // 25 h in its turn, exposed to 8 * 25 / 30,000 = 0.67%: 5e-5 per first failure on top of
    // the closed form's 9 * 1 / 30,000 = 3e-4, about 17% more loss.
    let layout: Layout = "draid1:4d:10c:1s".parse().unwrap();
    let one = run(&layout, repair, &policy(), mission).pool_loss;
    assert!(one.low > spares, "{one:?} against the closed form {spares}");
}

#[test]
fn unrecoverable_read_errors_lose_blocks_not_the_pool() {
    // mirror-2 over one MTBF: about 2 failures per mission, each leaves no redundancy while
    // its resilver reads 1e12 bytes: 8e12 bits at 1e-14 = 0.08 errors, 131,072 bytes each.
    // Expected bytes lost 2 * 0.08 * 131,072 = 20,972; P(some block lost) = 1 - exp(-2 * (1 -
    // exp(-0.08))) = 0.142. The pool itself is lost with P ~ 1e-4 (MTTDL 4.5e8 h): set its
    // data to 0 bytes so that only the blocks count.
    let layout: Layout = "mirror-2".parse().unwrap();
    let repairs = [GroupRepair {
        resilver_hours: 1.0,
        sequential_rebuild_hours: 1.0,
        unprotected_read_bytes: 1e12,
    }];
    let scenario = Scenario {
        layout: &layout,
        repairs: &repairs,
        lifetime: Lifetime::from_mtbf(MTBF_HOURS).unwrap(),
        repair_time: RepairTime::Fixed,
        hot_spares: 0,
        replacement_hours: 0.0,
        uer_per_bit: 1e-14,
        allocated_bytes: 0.0,
        block_bytes: 131_072.0,
        mission_hours: MTBF_HOURS,
        same_batch: false,
    };
    let r = simulate(&scenario, 4000, SEED).unwrap();
    assert!(r.data_loss.contains(0.142), "{:?}", r.data_loss);
    // Failures per mission are Poisson(2): the mean of 4000 is within 2.5% (3 standard errors).
    let (low, high) = r.bytes_lost_interval;
    assert!(low < 20_972.0 && 20_972.0 < high, "{low} {high}");
    assert!(
        (r.expected_bytes_lost / 20_972.0 - 1.0).abs() < 0.025,
        "{}",
        r.expected_bytes_lost
    );
    assert!(r.pool_loss.hits <= 2, "{:?}", r.pool_loss);
}
