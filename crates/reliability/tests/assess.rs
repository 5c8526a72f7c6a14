//! The whole assessment of the embedded default system: eight Exos X16 16 TB in raidz2-8, half
//! full, over five years, no hot spare, 72 h to replace a disk; the data sheet's AFR (0.35%)
//! given as --afr, latent errors at the field rate (data sheet: 1e-15 per bit, a bound).

use model::system_file::default_system;
use zpoolsim_reliability::{assess, Lifetime, Mission, RebuildKind};

fn mission(lifetime: Option<Lifetime>, trials: u64) -> Mission<'static> {
    Mission {
        fill: 0.5,
        years: 5.0,
        replacement_hours: 72.0,
        user: None,
        lifetime,
        afr_pct: Some(0.35),
        weibull_shape: None,
        trials,
        seed: 5,
        same_batch: false,
    }
}

#[test]
fn default_system_over_five_years() {
    let system = default_system();
    let a = assess(&system, &mission(None, 20_000)).unwrap();
    assert_eq!(a.rebuilds.len(), 1);
    let resilver = &a.rebuilds[0];
    assert_eq!(resilver.kind, RebuildKind::Resilver);
    // 8 TB a survivor over 10 TB of span (20% of it holes) at 228.5 MB/s: 12.2 h; 23.4 million
    // commands and 0.34 million indirect-block reads add 1.4 h. The 64 GiB host's scan window
    // (3.2 GiB of 136-byte queued blocks) holds 7.3% of the pool's 347 million blocks, and 4%
    // of them were placed by size: 347.2e6 x 0.04 x 0.927 = 12.88 million more reads, 9.8 h.
    assert!(
        resilver
            .explanation
            .contains("plus 12.88 million reads of blocks placed apart"),
        "{}",
        resilver.explanation
    );
    assert!(
        (23.0..24.0).contains(&resilver.hours),
        "{}",
        resilver.explanation
    );
    // By hand: MTBF = 8760 / -ln(1 - 0.0035) = 2.4986e6 h; degraded 72 h + the resilver.
    // The last rebuild reads 6 survivors' halves: each disk holds an unrepaired latent error
    // 3.15% x 365 / 8760 of the time, met with chance 0.5 per half-disk read, so P_ure =
    // 1 - exp(-6 x 0.5 x 0.0315 x 365 / 8760) = 0.003930 (the data sheet's 1e-15 taken as the
    // rate gave 0.3189), still above 6 * MTTR / MTBF = 2e-4.
    let mtbf = 8760.0 / -(1.0f64 - 0.0035).ln();
    let mttr = 72.0 + resilver.hours;
    let p_ure = 1.0 - (-6.0 * 0.5 * 0.0315 * 365.0 / 8760.0f64).exp();
    assert!((p_ure - 0.003930).abs() < 1e-6, "{p_ure}");
    let rate = 8.0 / mtbf * (7.0 * mttr / mtbf) * (6.0 * mttr / mtbf + p_ure);
    let mttdl = a.mttdl.as_ref().unwrap().pool_hours;
    assert!(
        (mttdl * rate - 1.0).abs() < 1e-9,
        "{mttdl} vs {}",
        1.0 / rate
    );
    let closed = a.closed_form.unwrap().data_loss;
    assert!((closed - (1.0 - (-43_800.0 * rate).exp())).abs() < 1e-15);
    assert!(closed < 1e-6, "{closed}");
    // The pool itself is lost only by a third failure: UREs there lose blocks (§7).
    let pool_rate = 8.0 / mtbf * (7.0 * mttr / mtbf) * (6.0 * mttr / mtbf);
    let pool = a.closed_form.unwrap().pool_loss;
    assert!((pool / -(-43_800.0 * pool_rate).exp_m1() - 1.0).abs() < 1e-9);
    assert!(pool < closed / 10.0, "{pool} vs {closed}");
    // The simulation sees no loss in 20,000 missions: consistent, its interval reaches 1.9e-4.
    let mc = a.monte_carlo.unwrap();
    assert_eq!(mc.data_loss.hits, 0);
    assert!(mc.data_loss.contains(closed));
}

#[test]
fn weibull_lifetimes_have_no_closed_form() {
    let system = default_system();
    let wear_out =
        Lifetime::weibull_from_afr(3.0, 0.35, zpoolsim_reliability::HOURS_PER_YEAR).unwrap();
    let a = assess(&system, &mission(Some(wear_out), 100)).unwrap();
    assert_eq!((a.mttdl, a.closed_form), (None, None));
    assert_eq!(a.monte_carlo.unwrap().trials, 100);
}

/// Issue #15: a disk whose data sheet gives no failure rate gets the field rate of its class
/// (its loss odds were unknown), and --afr changes the odds.
#[test]
fn the_field_rate_when_the_data_sheet_gives_none_and_afr_overrides() {
    let mut system = default_system();
    for d in &mut system.disks {
        d.model.afr_pct = None;
        d.model.mtbf_hours = None;
    }
    let field = Mission {
        afr_pct: None,
        ..mission(None, 0)
    };
    let a = assess(&system, &field).unwrap();
    assert_eq!(a.disk, "seagate-exos-x16-16tb");
    assert_eq!(a.afr_pct, Some(1.57));
    assert_eq!(a.figures.datasheet_afr_pct, None);
    let mtbf = 8760.0 / -(1.0f64 - 0.0157).ln();
    assert_eq!(a.lifetime, Some(Lifetime::Exponential { mtbf_hours: mtbf }));
    let at_field = a.closed_form.unwrap().data_loss;
    let at_sheet = assess(&system, &mission(None, 0)).unwrap();
    let at_sheet = at_sheet.closed_form.unwrap().data_loss;
    // Two failures then a latent error dominate: the hazards' ratio squared,
    // (ln(1 - 0.0157) / ln(1 - 0.0035))^2 = 20.4x, and more from the third failure's term
    // (cubed): 23.8x measured.
    let ratio = at_field / at_sheet;
    assert!((20.4..25.0).contains(&ratio), "{ratio}");
    assert!(assess(
        &system,
        &Mission {
            afr_pct: Some(150.0),
            ..mission(None, 0)
        }
    )
    .is_err());
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
    let wear = Lifetime::weibull_from_afr(3.0, 1.0, zpoolsim_reliability::HOURS_PER_YEAR).unwrap();
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
