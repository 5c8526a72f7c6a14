//! The whole assessment of the embedded default system: eight Exos X16 16 TB (AFR 0.35%,
//! UER 1e-15) in raidz2-8, half full, over five years, no hot spare, 72 h to replace a disk.

use model::system_file::default_system;
use zpoolsim_reliability::{assess, Lifetime, Mission, RebuildKind};

fn mission(lifetime: Option<Lifetime>, trials: u64) -> Mission<'static> {
    Mission {
        fill: 0.5,
        years: 5.0,
        replacement_hours: 72.0,
        user: None,
        lifetime,
        weibull_shape: None,
        trials,
        seed: 5,
    }
}

#[test]
fn default_system_over_five_years() {
    let system = default_system();
    let a = assess(&system, &mission(None, 20_000)).unwrap();
    assert_eq!(a.rebuilds.len(), 1);
    let resilver = &a.rebuilds[0];
    assert_eq!(resilver.kind, RebuildKind::Resilver);
    assert!(
        (9.0..10.0).contains(&resilver.hours),
        "{}",
        resilver.explanation
    );
    // By hand: MTBF = 8760 / -ln(1 - 0.0035) = 2.4986e6 h; degraded 72 h + the resilver.
    // The last rebuild reads 6 survivors' 8.0005e12 B: 3.840e14 bits at 1e-15, P_ure = 0.3189,
    // far above 6 * MTTR / MTBF = 2e-4: UREs dominate.
    let mtbf = 8760.0 / -(1.0f64 - 0.0035).ln();
    let mttr = 72.0 + resilver.hours;
    let p_ure = 1.0 - (-6.0 * 0.5 * 16_000_900_661_248.0 * 8.0 * 1e-15f64).exp();
    assert!((p_ure - 0.3189).abs() < 1e-4, "{p_ure}");
    let rate = 8.0 / mtbf * (7.0 * mttr / mtbf) * (6.0 * mttr / mtbf + p_ure);
    let mttdl = a.mttdl.as_ref().unwrap().pool_hours;
    assert!(
        (mttdl * rate - 1.0).abs() < 1e-9,
        "{mttdl} vs {}",
        1.0 / rate
    );
    let closed = a.closed_form.unwrap().data_loss;
    assert!((closed - (1.0 - (-43_800.0 * rate).exp())).abs() < 1e-15);
    assert!(closed < 2e-5, "{closed}");
    // The pool itself is lost only by a third failure: UREs there lose blocks (§7).
    let pool_rate = 8.0 / mtbf * (7.0 * mttr / mtbf) * (6.0 * mttr / mtbf);
    let pool = a.closed_form.unwrap().pool_loss;
    assert!((pool / -(-43_800.0 * pool_rate).exp_m1() - 1.0).abs() < 1e-9);
    assert!(pool < closed / 1000.0, "{pool} vs {closed}");
    // The simulation sees no loss in 20,000 missions: consistent, its interval reaches 1.9e-4.
    let mc = a.monte_carlo.unwrap();
    assert_eq!(mc.data_loss.hits, 0);
    assert!(mc.data_loss.contains(closed));
}

#[test]
fn weibull_lifetimes_have_no_closed_form() {
    let system = default_system();
    let wear_out = Lifetime::weibull_from_afr(3.0, 0.35).unwrap();
    let a = assess(&system, &mission(Some(wear_out), 100)).unwrap();
    assert_eq!((a.mttdl, a.closed_form), (None, None));
    assert_eq!(a.monte_carlo.unwrap().trials, 100);
}

#[test]
fn a_disk_without_a_failure_rate_still_has_its_rebuilds() {
    let mut system = default_system();
    for d in &mut system.disks {
        d.model.afr_pct = None;
        d.model.mtbf_hours = None;
    }
    let a = assess(&system, &mission(None, 1000)).unwrap();
    assert_eq!(a.disk, "seagate-exos-x16-16tb");
    assert_eq!(a.lifetime, None);
    assert_eq!((a.mttdl, a.closed_form, a.monte_carlo), (None, None, None));
    // The same resilver as with the rate: it needs no lifetime.
    let known = assess(&default_system(), &mission(None, 0)).unwrap();
    assert_eq!(a.rebuilds, known.rebuilds);
}

#[test]
fn missions_and_trials_are_bounded() {
    let system = default_system();
    for (years, trials, why) in [
        (1e300, 10, "at most 100 years, not 1e300"),
        (0.0, 10, "more than 0"),
        (
            5.0,
            u64::MAX,
            "at most 10000000 trials, not 18446744073709551615",
        ),
    ] {
        let m = Mission {
            years,
            ..mission(None, trials)
        };
        let e = assess(&system, &m).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
}

/// Issue #10: 10,000 disks at the default 200,000 trials took 37 s, 1,000 disks at a million
/// 15 s. The work (disks x trials, each failure counting 20) is checked before any: past 4e8
/// the request is refused, naming the most trials the disks allow.
#[test]
fn a_simulation_past_its_budget_is_refused_before_it_starts() {
    use zpoolsim_reliability::{check_simulation, Error, HOURS_PER_YEAR, MAX_SIMULATION_WORK};
    let five_years = 5.0 * HOURS_PER_YEAR;
    // AFR 1%: H(5 y) = 5 x -ln(0.99) = 0.05025 failures a disk, 2.005 disk-missions each.
    let lifetime = Lifetime::from_afr(1.0).unwrap();
    let Err(Error::OverBudget(e)) = check_simulation(10_000, 200_000, &lifetime, five_years) else {
        panic!("taken")
    };
    assert_eq!(e.asked, 4_010_067_170);
    assert_eq!(e.most, MAX_SIMULATION_WORK);
    assert_eq!(
        e.reduce,
        "simulate at most 19949 trials of these 10000 disks over this mission, or fewer disks or a shorter mission"
    );
    assert!(check_simulation(10_000, 19_949, &lifetime, five_years).is_ok());
    // Wear-out: Weibull 3 scaled to the same first year fails 1.0 a disk in 5 years.
    let wear = Lifetime::weibull_from_afr(3.0, 1.0).unwrap();
    assert!(check_simulation(1000, 100_000, &wear, five_years).is_err());
    // assess refuses it at once, on the default system's 8 disks over a century.
    let mut m = mission(None, 10_000_000);
    m.years = 100.0;
    let e = assess(&default_system(), &m).unwrap_err();
    assert!(matches!(e, Error::OverBudget(_)), "{e}");
}

/// A raised flag stops the Monte Carlo at its next trial; a flag never raised changes nothing.
#[test]
fn a_cancelled_assessment_stops_and_an_uncancelled_one_is_the_same() {
    use model::cancel::{Cancel, Cancelled};
    use zpoolsim_reliability::{assess_cancellable, Error};
    let system = default_system();
    let cancel = Cancel::new();
    let running = assess_cancellable(&system, &mission(None, 20_000), &cancel).unwrap();
    assert_eq!(running, assess(&system, &mission(None, 20_000)).unwrap());
    cancel.cancel();
    let stopped = assess_cancellable(&system, &mission(None, 20_000), &cancel);
    assert_eq!(stopped, Err(Error::Cancelled(Cancelled)));
    assert!(assess_cancellable(&system, &mission(None, 0), &cancel).is_ok());
}
