//! Closed-form mean time to data loss (docs/zfs-internals.md §7).
//!
//! Elling's MTTDL[1] for a vdev of N leaves that survives p failures, with exponential
//! lifetimes (rate 1/MTBF) and one repair at a time of mean MTTR (a Markov chain):
//!
//!   MTTDL = MTBF^(p+1) / (N (N-1) ... (N-p) MTTR^p)
//!
//! read as a loss rate: N/MTBF (a first failure) times, for each further level, the chance
//! (N-k) MTTR / MTBF that another leaf fails before the repair. Unrecoverable read errors
//! add, at the last level, the chance P_ure that the rebuild running with no redundancy left
//! hits one. §7 gives this for single parity, MTBF / (N ((N-1) MTTR / MTBF + P_ure)); for
//! p > 1 we apply the same term at the last level (our generalisation):
//!
//!   1 / MTTDL = N/MTBF * prod_{k=1}^{p-1} ((N-k) MTTR / MTBF) * ((N-p) MTTR / MTBF + P_ure)
//!
//! P_ure = 1 - exp(-bits read * UER) (Poisson; §7 writes its first-order term). In ZFS such
//! an error loses blocks, not the pool, so the MTTDL with UER is the time to losing any data.
//! A pool is its top-level vdevs in series: the loss rates add.
//!
//! A vdev without redundancy (a stripe's disk) has no rebuild, but every read of its data is
//! unprotected: each scrub, one a month ([`SCRUB_INTERVAL_HOURS`]), reads it all and loses a
//! block to each unrecoverable error, at the rate P_ure / interval.
//!
//! The closed form holds while repairs are short: another failure during a repair must be
//! unlikely ((N-1) MTTR / MTBF small, the first-order term of the Markov chain) and a repair
//! short beside the mission (the rate stands for the mission's chances only over many
//! repairs' lengths). [`Mttdl::outside_validity`] says when it does not.
//!
//! The memoryless repair matters for p > 1: a rebuild of fixed length leaves the p-th
//! further failure on average a shorter overlap, and to first order divides the loss rate by
//! p! (tests/lifetimes.rs shows the factor 2 for raidz2 with the Monte Carlo engine). The
//! closed form is thus conservative by about p! for real, fixed-length resilvers.

use crate::repair::{distributed_spares, GroupRepair};
use crate::{non_negative, positive, Error};
use model::Layout;

/// MTTDL of one vdev of `children` leaves that survives `redundancy` failures, in hours.
/// `p_ure` is the chance that the rebuild at the last level meets an unrecoverable error.
pub fn vdev_mttdl(
    children: u32,
    redundancy: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    p_ure: f64,
) -> f64 {
    let (pool, blocks) = vdev_loss_rates(children, redundancy, mtbf_hours, mttr_hours, p_ure);
    1.0 / (pool + blocks)
}

/// The two parts of one vdev's loss rate, per hour: losing the vdev (one failure more than
/// its redundancy) and losing blocks to an unrecoverable error in the rebuild that runs with
/// no redundancy left. Their sum is 1 / [`vdev_mttdl`].
fn vdev_loss_rates(
    children: u32,
    redundancy: u32,
    mtbf_hours: f64,
    mttr_hours: f64,
    p_ure: f64,
) -> (f64, f64) {
    let n = children as f64;
    let r = mttr_hours / mtbf_hours;
    // Rate of reaching `redundancy` concurrent failures.
    let exhausted: f64 =
        n / mtbf_hours * (1..redundancy).map(|k| (n - k as f64) * r).product::<f64>();
    if redundancy == 0 {
        return (exhausted, p_ure / SCRUB_INTERVAL_HOURS);
    }
    (exhausted * (n - redundancy as f64) * r, exhausted * p_ure)
}

/// Hours between two scrubs, each reading all the data: Debian's and Ubuntu's zfsutils-linux
/// scrub every pool monthly (/etc/cron.d/zfsutils-linux, the second Sunday of each month);
/// TrueNAS's default task runs every 35 days. 8760 / 12.
pub const SCRUB_INTERVAL_HOURS: f64 = 730.0;

/// Largest (N-1) MTTR / MTBF, the chance of another failure during a repair, for which the
/// first-order closed form is used: past it the terms it drops weigh more than a tenth. A
/// policy.
const MAX_REPAIR_OVERLAP: f64 = 0.1;

/// Longest repair, as a share of the mission, for which a loss rate stands for the mission's
/// chances. A policy.
const MAX_REPAIR_SHARE_OF_MISSION: f64 = 0.1;

/// Chance that `bits` read meet at least one unrecoverable error at `uer_per_bit`.
pub(crate) fn p_ure(bits: f64, uer_per_bit: f64) -> f64 {
    -(-bits * uer_per_bit).exp_m1()
}

/// The MTTDL of a pool and of one vdev of each of its groups.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mttdl {
    /// Mean time to losing any data: the pool, or blocks to an unrecoverable read error.
    pub pool_hours: f64,
    /// Mean time to losing the whole pool (unrecoverable read errors lose blocks, not the
    /// pool: docs/zfs-internals.md §7).
    pub pool_loss_hours: f64,
    /// Mean time to losing blocks to an unrecoverable read error in a rebuild that runs with
    /// no redundancy left (infinite without UREs): `1 / pool_hours` is the sum of the two
    /// rates.
    pub block_loss_hours: f64,
    /// One vdev of each layout group, in layout order.
    pub vdev_hours: Vec<f64>,
    /// The largest chance of another failure during a repair, (N-1) MTTR / MTBF, over the
    /// groups, and the longest repair (hours degraded): what the validity turns on.
    pub repair_overlap: f64,
    /// The longest repair, hours degraded.
    pub longest_repair_hours: f64,
}

/// MTTDL of a pool: `repairs` holds one entry per layout group; `uer_per_bit` 0 ignores
/// unrecoverable read errors; `wait_hours` is how long a failure waits for a disk to
/// resilver onto (0 with a hot spare, the replacement time without). A dRAID group with
/// distributed spares is degraded only for its sequential rebuild.
pub fn pool_mttdl(
    layout: &Layout,
    repairs: &[GroupRepair],
    mtbf_hours: f64,
    uer_per_bit: f64,
    wait_hours: f64,
) -> Result<Mttdl, Error> {
    check_inputs(layout, repairs, mtbf_hours, uer_per_bit, wait_hours)?;
    // Per group, the two loss rates of one of its vdevs: more failures than its redundancy,
    // and a URE in the rebuild that runs with none left.
    let rates: Vec<(f64, f64)> = layout
        .groups
        .iter()
        .zip(repairs)
        .map(|(g, rep)| {
            vdev_loss_rates(
                g.children,
                g.redundancy(),
                mtbf_hours,
                rep.degraded_hours(distributed_spares(g), wait_hours),
                p_ure(rep.unprotected_read_bytes * 8.0, uer_per_bit),
            )
        })
        .collect();
    let pool = |part: fn(&(f64, f64)) -> f64| -> f64 {
        layout
            .groups
            .iter()
            .zip(&rates)
            .map(|(g, r)| g.count as f64 * part(r))
            .sum()
    };
    let (pool_loss_rate, block_loss_rate) = (pool(|r| r.0), pool(|r| r.1));
    let repairs_hours: Vec<(u32, f64)> = layout
        .groups
        .iter()
        .zip(repairs)
        .filter(|(g, _)| g.redundancy() > 0)
        .map(|(g, rep)| {
            (
                g.children,
                rep.degraded_hours(distributed_spares(g), wait_hours),
            )
        })
        .collect();
    Ok(Mttdl {
        pool_hours: 1.0 / (pool_loss_rate + block_loss_rate),
        pool_loss_hours: 1.0 / pool_loss_rate,
        block_loss_hours: 1.0 / block_loss_rate,
        vdev_hours: rates.iter().map(|r| 1.0 / (r.0 + r.1)).collect(),
        repair_overlap: repairs_hours
            .iter()
            .map(|(n, mttr)| f64::from(n.saturating_sub(1)) * mttr / mtbf_hours)
            .fold(0.0, f64::max),
        longest_repair_hours: repairs_hours.iter().map(|r| r.1).fold(0.0, f64::max),
    })
}

/// One repair per layout group, a positive MTBF, and a URE rate and wait that are not
/// negative.
fn check_inputs(
    layout: &Layout,
    repairs: &[GroupRepair],
    mtbf_hours: f64,
    uer_per_bit: f64,
    wait_hours: f64,
) -> Result<(), Error> {
    if repairs.len() != layout.groups.len() {
        return Err(Error::Invalid(format!(
            "{} repairs given for {} layout groups",
            repairs.len(),
            layout.groups.len()
        )));
    }
    positive("MTBF", mtbf_hours)?;
    non_negative("UER", uer_per_bit)?;
    non_negative("wait for a disk", wait_hours)?;
    Ok(())
}

/// P(loss within `mission_hours`) = 1 - exp(-t / MTTDL) (docs/zfs-internals.md §7).
pub fn p_loss_within(mttdl_hours: f64, mission_hours: f64) -> f64 {
    -(-mission_hours / mttdl_hours).exp_m1()
}

/// The chance of each kind of loss over a mission.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Odds {
    /// The whole pool (a vdev loses more leaves than its redundancy).
    pub pool_loss: f64,
    /// Blocks, to an unrecoverable read error in a rebuild with no redundancy left.
    pub block_loss: f64,
    /// Any data: the pool or blocks (the two rates add).
    pub data_loss: f64,
}

impl Mttdl {
    /// Why the closed form does not hold for a mission of `mission_hours`, if it does not:
    /// another failure during a repair is likely, or a repair is long beside the mission.
    pub fn outside_validity(&self, mission_hours: f64) -> Option<String> {
        if self.longest_repair_hours > MAX_REPAIR_SHARE_OF_MISSION * mission_hours {
            return Some(format!(
                "a repair takes {:.3e} h against a mission of {mission_hours:.0} h, and the closed form needs repairs under a tenth of the mission",
                self.longest_repair_hours
            ));
        }
        if self.repair_overlap > MAX_REPAIR_OVERLAP {
            return Some(format!(
                "another failure during a repair is likely: (N-1) x MTTR / MTBF is {:.3}, and the closed form needs it at most {MAX_REPAIR_OVERLAP}",
                self.repair_overlap
            ));
        }
        None
    }

    /// The chances of loss over `mission_hours`.
    pub fn odds(&self, mission_hours: f64) -> Odds {
        Odds {
            pool_loss: p_loss_within(self.pool_loss_hours, mission_hours),
            block_loss: p_loss_within(self.block_loss_hours, mission_hours),
            data_loss: p_loss_within(self.pool_hours, mission_hours),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repair(hours: f64, read_bytes: f64) -> GroupRepair {
        GroupRepair {
            resilver_hours: hours,
            sequential_rebuild_hours: hours,
            unprotected_read_bytes: read_bytes,
        }
    }

    #[test]
    fn elling_by_hand() {
        // mirror-2, MTBF 1e6 h, MTTR 24 h: 1e12 / (2 * 1 * 24) = 2.0833e10 h.
        assert!((vdev_mttdl(2, 1, 1e6, 24.0, 0.0) / 2.0833333e10 - 1.0).abs() < 1e-6);
        // raidz2-6: 1e18 / (6 * 5 * 4 * 24^2) = 1.4468e13 h.
        assert!((vdev_mttdl(6, 2, 1e6, 24.0, 0.0) / 1.4467593e13 - 1.0).abs() < 1e-6);
        // raidz3-11: 1e24 / (11 * 10 * 9 * 8 * 24^3) = 9.1336e15 h.
        assert!((vdev_mttdl(11, 3, 1e6, 24.0, 0.0) / 9.13357e15 - 1.0).abs() < 1e-5);
        // A single disk: MTBF.
        assert_eq!(vdev_mttdl(1, 0, 1e6, 24.0, 0.0), 1e6);
    }

    #[test]
    fn ure_term_of_section_7() {
        // raidz1-5 of 4 TB disks half full: the resilver reads 4 * 2 TB = 8e12 B = 6.4e13 bits.
        // UER 1e-14: P_ure = 1 - exp(-0.64) = 0.4727, against (N-1) MTTR / MTBF = 9.6e-5:
        // MTTDL = 1e6 / (5 * (9.6e-5 + 0.4727)) = 4.230e5 h, UREs dominate.
        let p = p_ure(6.4e13, 1e-14);
        assert!((p - 0.472_708).abs() < 1e-6, "{p}");
        let m = vdev_mttdl(5, 1, 1e6, 24.0, p);
        assert!((m / 4.2300e5 - 1.0).abs() < 1e-3, "{m}");
        // The pool itself is lost only by a second failure: 1e12 / (5 * 4 * 24) = 2.0833e9 h.
        let layout: Layout = "raidz1-5".parse().unwrap();
        let m = pool_mttdl(&layout, &[repair(24.0, 8e12)], 1e6, 1e-14, 0.0).unwrap();
        assert!((m.pool_loss_hours / 2.083_333e9 - 1.0).abs() < 1e-6);
        assert!((m.pool_hours / 4.2300e5 - 1.0).abs() < 1e-3);
        // Blocks: 1e6 / (5 * 0.472708) = 4.2309e5 h.
        assert!((m.block_loss_hours / 4.230_94e5 - 1.0).abs() < 1e-5);
    }

    #[test]
    fn pool_is_in_series() {
        let layout: Layout = "3x raidz2-6 + mirror-2".parse().unwrap();
        let reps = [repair(24.0, 0.0), repair(10.0, 0.0)];
        let m = pool_mttdl(&layout, &reps, 1e6, 0.0, 0.0).unwrap();
        let raidz = vdev_mttdl(6, 2, 1e6, 24.0, 0.0);
        let mirror = vdev_mttdl(2, 1, 1e6, 10.0, 0.0);
        assert_eq!(m.vdev_hours, vec![raidz, mirror]);
        let expected = 1.0 / (3.0 / raidz + 1.0 / mirror);
        assert!((m.pool_hours / expected - 1.0).abs() < 1e-12);
        // stripe-4: MTBF / 4.
        let stripe: Layout = "stripe-4".parse().unwrap();
        let m = pool_mttdl(&stripe, &[repair(0.0, 0.0)], 1e6, 0.0, 0.0).unwrap();
        assert!((m.pool_hours - 2.5e5).abs() < 1e-6);
        assert_eq!(m.pool_loss_hours, m.pool_hours);
        assert_eq!(m.block_loss_hours, f64::INFINITY);
        assert!(pool_mttdl(&layout, &reps[..1], 1e6, 0.0, 0.0).is_err());
    }

    #[test]
    fn degraded_time_by_repair_path() {
        let layout: Layout = "draid2:8d:24c:2s".parse().unwrap();
        let rep = GroupRepair {
            resilver_hours: 40.0,
            sequential_rebuild_hours: 4.0,
            unprotected_read_bytes: 0.0,
        };
        // With a distributed spare the wait for a new disk does not matter.
        let m = pool_mttdl(&layout, &[rep], 1e6, 0.0, 72.0).unwrap();
        assert_eq!(m.pool_hours, vdev_mttdl(24, 2, 1e6, 4.0, 0.0));
        // Without one, a failure waits 72 h for its disk, then resilvers 40 h.
        let raidz: Layout = "raidz2-24".parse().unwrap();
        let m = pool_mttdl(&raidz, &[rep], 1e6, 0.0, 72.0).unwrap();
        assert_eq!(m.pool_hours, vdev_mttdl(24, 2, 1e6, 112.0, 0.0));
    }

    #[test]
    fn a_vdev_without_redundancy_loses_blocks_at_each_scrub() {
        // Issue #10: a single disk showed P(block loss) 0%. A 4 TB disk 80% full at 1e-14
        // reads 2.56e13 bits a scrub: P_ure = 1 - exp(-0.256) = 0.2259, once a month.
        let stripe: Layout = "stripe-1".parse().unwrap();
        let one = repair(0.0, 3.2e12);
        let m = pool_mttdl(&stripe, &[one], 1e6, 1e-14, 72.0).unwrap();
        let p = p_ure(2.56e13, 1e-14);
        assert!((p - 0.225_9).abs() < 1e-4, "{p}");
        assert!((m.block_loss_hours - SCRUB_INTERVAL_HOURS / p).abs() < 1e-6);
        assert_eq!(m.pool_loss_hours, 1e6);
        // Over five years, 60 scrubs: all but certain.
        assert!(m.odds(5.0 * 8760.0).block_loss > 0.999);
    }

    #[test]
    fn the_closed_form_says_where_it_does_not_hold() {
        let layout: Layout = "raidz2-8".parse().unwrap();
        let rep = [repair(16.4, 0.0)];
        let five_years = 5.0 * 8760.0;
        let m = pool_mttdl(&layout, &rep, 2.5e6, 0.0, 72.0).unwrap();
        assert!((m.repair_overlap - 7.0 * 88.4 / 2.5e6).abs() < 1e-12);
        assert_eq!(m.outside_validity(five_years), None);
        // Issue #10: a replacement in 1e12 h gave P(loss) 100% where the simulation gives 0.03%.
        let m = pool_mttdl(&layout, &rep, 2.5e6, 0.0, 1e12).unwrap();
        assert_eq!(
            m.outside_validity(five_years).unwrap(),
            "a repair takes 1.000e12 h against a mission of 43800 h, and the closed form needs repairs under a tenth of the mission"
        );
        // Disks failing every 5,000 h with week-long repairs: a second failure is likely.
        let m = pool_mttdl(&layout, &[repair(100.0, 0.0)], 5000.0, 0.0, 72.0).unwrap();
        assert!(m.outside_validity(five_years).unwrap().contains("is 0.241"));
    }

    #[test]
    fn probability_within_a_mission() {
        // t = MTTDL: 1 - 1/e.
        assert!((p_loss_within(1e5, 1e5) - 0.632_120_6).abs() < 1e-7);
    }
}
