//! Where the Monte Carlo engine and the closed form part ways, and why.

use model::Layout;
use zpoolsim_reliability::{
    p_loss_within, pool_mttdl, simulate, Estimate, GroupRepair, Lifetime, RepairTime, Scenario,
};

const SEED: u64 = 7;
const FIVE_YEARS_HOURS: f64 = 5.0 * 8760.0;

fn repair(hours: f64) -> GroupRepair {
    GroupRepair {
        resilver_hours: hours,
        sequential_rebuild_hours: hours,
        unprotected_read_bytes: 0.0,
    }
}

fn pool_loss(
    layout: &str,
    mttr_hours: f64,
    lifetime: Lifetime,
    repair_time: RepairTime,
    mission_hours: f64,
    trials: u64,
) -> Estimate {
    let layout: Layout = layout.parse().unwrap();
    let repairs = [repair(mttr_hours)];
    let scenario = Scenario {
        layout: &layout,
        repairs: &repairs,
        lifetime,
        repair_time,
        hot_spares: 0,
        replacement_hours: 0.0,
        uer_per_bit: 0.0,
        allocated_bytes: 1e12,
        block_bytes: 131_072.0,
        mission_hours,
        same_batch: false,
    };
    simulate(&scenario, trials, SEED).unwrap().pool_loss
}

/// raidz1-5 over five years, 48 h resilvers, disks that fail 20% in their first year
/// (accelerated to make losses frequent), with three lifetime shapes of that same AFR over
/// the first year (a one-year scaling, so that later years show what each shape does).
#[test]
fn weibull_lifetimes_move_the_risk_away_from_the_closed_form() {
    let run = |lifetime| {
        pool_loss(
            "raidz1-5",
            48.0,
            lifetime,
            RepairTime::Fixed,
            FIVE_YEARS_HOURS,
            4000,
        )
    };
    let exponential = run(Lifetime::from_afr(20.0).unwrap());
    // Exponential agrees with the closed form: MTBF = 8760 / -ln(0.8) = 39,257 h,
    // MTTDL = MTBF^2 / (5 * 4 * 48) = 1.605e6 h, P(5 years) = 2.69%.
    let mtbf = Lifetime::from_afr(20.0).unwrap().mtbf_hours().unwrap();
    let layout: Layout = "raidz1-5".parse().unwrap();
    let mttdl = pool_mttdl(&layout, &[repair(48.0)], mtbf, 0.0, 0.0)
        .unwrap()
        .pool_hours;
    let closed = p_loss_within(mttdl, FIVE_YEARS_HOURS);
    assert!((closed - 0.0269).abs() < 0.0005, "{closed}");
    assert!(exponential.contains(closed), "{exponential:?}");

    // Wear-out (shape 3): the hazard grows with age, so after year one the disks fail far more
    // often than the 20% a year the exponential keeps (cumulative hazard over five years
    // 5^3 = 125 times the first year's, not 5 times), and when one fails the others, as old,
    // are at their most fragile during its resilver. Seed 7 gives 20% against 3%.
    let wear_out =
        run(Lifetime::weibull_from_afr(3.0, 20.0, zpoolsim_reliability::HOURS_PER_YEAR).unwrap());
    assert!(
        wear_out.low > 4.0 * exponential.high,
        "{wear_out:?} vs {exponential:?}"
    );

    // Infant mortality (shape 0.7): the hazard falls with age, so after the first year the
    // survivors fail less than the exponential's constant rate (five-year cumulative hazard
    // 5^0.7 = 3.1 times the first year's, not 5): fewer failures, fewer overlaps.
    // Seed 7 gives 1.4% against 3%.
    let infant =
        run(Lifetime::weibull_from_afr(0.7, 20.0, zpoolsim_reliability::HOURS_PER_YEAR).unwrap());
    assert!(
        infant.high < exponential.low,
        "{infant:?} vs {exponential:?}"
    );
}

/// Elling's MTTDL assumes exponential repair times. A real resilver takes a fixed time for its
/// bytes; for p = 2 the third failure must then come before the first rebuild ends, which
/// leaves it on average half the window the memoryless repair leaves: the loss rate halves
/// (to first order, the closed form over p!).
#[test]
fn fixed_repair_times_halve_the_double_parity_loss_rate() {
    let layout: Layout = "raidz2-6".parse().unwrap();
    let mttdl = pool_mttdl(&layout, &[repair(5.0)], 1000.0, 0.0, 0.0)
        .unwrap()
        .pool_hours;
    let mission = mttdl * std::f64::consts::LN_2;
    let life = Lifetime::from_mtbf(1000.0).unwrap();
    let memoryless = pool_loss("raidz2-6", 5.0, life, RepairTime::Exponential, mission, 600);
    let fixed = pool_loss("raidz2-6", 5.0, life, RepairTime::Fixed, mission, 600);
    // Each within four standard errors of the first-order figure (a 95% interval would miss
    // it for one seed in twenty; 14,000 trials give 0.48 and 0.29).
    let near = |e: &Estimate, want: f64| {
        let se = (want * (1.0 - want) / e.trials as f64).sqrt();
        (e.p - want).abs() < 4.0 * se
    };
    assert!(near(&memoryless, 0.5), "{memoryless:?}");
    // Twice the MTTDL: 1 - exp(-ln 2 / 2) = 0.293.
    assert!(near(&fixed, 1.0 - 0.5f64.sqrt()), "{fixed:?}");
    assert!(fixed.high < memoryless.low);
}
