//! Monte Carlo of a pool's disks over a mission.
//!
//! Every leaf gets a lifetime; a failure degrades its top-level vdev until a rebuild ends. A
//! vdev whose failures outnumber its redundancy loses the pool. Rules, each a choice made
//! here and stated:
//! - Rebuilds of one vdev run one at a time, in failure order: OpenZFS defers a new
//!   resilver until the running one ends (feature resilver_defer). Vdevs rebuild in parallel.
//! - A failure is rebuilt at once onto a pool hot spare if one is free, else after
//!   `replacement_hours` onto a new disk. The hot spare returns once the replacement has
//!   been resilvered in its place (`replacement_hours` + one resilver later).
//! - dRAID with a free distributed spare first rebuilds sequentially onto it (short: every
//!   child shares the work), which restores redundancy; the replacement arrives after
//!   `replacement_hours`, is resilvered (the rebalance, `resilver_hours`) and frees the
//!   distributed spare.
//! - A disk's lifetime starts when it takes over a slot (a new disk once its rebuild ends);
//!   spares do not age on the shelf and do not fail while being written.
//! - A rebuild that starts with no redundancy left reads `unprotected_read_bytes`; each
//!   unrecoverable read error there loses one block (`block_bytes`), not the pool. Bytes lost
//!   add up the expected count of such errors (an unbiased estimate with less noise than
//!   drawing them); a lost pool loses all of `allocated_bytes`.
//!
//! Reproducible: trials run in order from one xoshiro256++ stream seeded by `seed`, so the
//! same scenario, trial count and seed give bit-identical results on every run and platform.
//! Per trial nothing is allocated: the event heap and vdev states are reused, and a trial
//! whose disks all outlive the mission costs one lifetime draw per disk.

use crate::estimate::{mean_interval, Estimate};
use crate::lifetime::{Lifetime, HOURS_PER_YEAR};
use crate::mttdl::{p_ure, Odds};
use crate::repair::{distributed_spares, GroupRepair};
use crate::rng::Rng;
use crate::{non_negative, positive, Error};
use model::cancel::Cancel;
use model::Layout;
use rand_distr::Gamma;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Longest mission assessed, years: a century is past any disk's service life, and it bounds
/// a trial's work, a lifetime drawn per disk and per failure (at an AFR of 1%, about one
/// failure per disk in a century). The engine itself takes any mission, so that tests can
/// accelerate lifetimes. A policy, not a fact.
pub const MAX_MISSION_YEARS: f64 = 100.0;

/// Most trials one simulation runs: ten million take tens of seconds on a large pool, and
/// resolve losses of one in a million. A policy, not a fact.
pub const MAX_TRIALS: u64 = 10_000_000;

/// A mission of `years` in hours, if it is more than 0 and at most [`MAX_MISSION_YEARS`].
pub fn mission_hours(years: f64) -> Result<f64, Error> {
    if years > 0.0 && years <= MAX_MISSION_YEARS {
        Ok(years * HOURS_PER_YEAR)
    } else {
        Err(Error::Invalid(format!(
            "a mission is more than 0 and at most {MAX_MISSION_YEARS} years, not {years:?}"
        )))
    }
}

/// How long one rebuild takes, given its mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepairTime {
    /// Exactly the mean: a rebuild moves a known amount of data at a known rate.
    Fixed,
    /// Exponential with that mean: the Markov assumption behind the MTTDL closed forms.
    Exponential,
}

/// A pool, its disks and its repair policy over a mission.
#[derive(Debug, Clone)]
pub struct Scenario<'a> {
    /// The pool's layout.
    pub layout: &'a Layout,
    /// One per layout group.
    pub repairs: &'a [GroupRepair],
    /// How long the disks live.
    pub lifetime: Lifetime,
    /// How long a repair takes: its mean, or a memoryless draw of that mean.
    pub repair_time: RepairTime,
    /// Pool hot spares (`zpool add tank spare ...`).
    pub hot_spares: u32,
    /// Hours until a failed disk is physically replaced.
    pub replacement_hours: f64,
    /// Unrecoverable read errors per bit read (0: ignore them).
    pub uer_per_bit: f64,
    /// Data the pool holds: what a lost pool loses.
    pub allocated_bytes: f64,
    /// Mean size of the block one unrecoverable read error loses.
    pub block_bytes: f64,
    /// The mission, hours.
    pub mission_hours: f64,
    /// The pool's disks come from one batch: each trial draws the batch's hazard factor Z
    /// ([`batch_factor`]), which multiplies the hazard of every disk the pool starts with;
    /// replacements come from other batches, at the population's rate (Z = 1).
    pub same_batch: bool,
}

/// Shape k of the gamma distribution (mean 1, variance 1/k) of a batch's hazard factor: 4,
/// a coefficient of variation of 0.5. Schroeder and Gibson (FAST '07) found yearly replacement
/// rates of 2-4% common across their disk populations, up to 13% on some; taken as the middle
/// half of the batches around a 3% mean, a factor of 2 between the quartiles, which Gamma(4)
/// gives (0.63 and 1.28). An interpretation of a published spread, not a fit (docs/assumptions.md
/// "Correlated failures").
pub const BATCH_SHAPE: u32 = 4;

/// The closed form's `odds` for a pool of one batch whose vdevs survive `redundancy` failures,
/// in the rare-loss limit: the pool needs redundancy + 1 failures in one vdev, E[Z^(r+1)]
/// times likelier; a block loss needs r and an unrecoverable read, E[Z^r] times.
pub fn batch_odds(odds: Odds, redundancy: u32) -> Odds {
    let pool_loss = (odds.pool_loss * batch_moment(redundancy + 1)).min(1.0);
    let block_loss = (odds.block_loss * batch_moment(redundancy)).min(1.0);
    Odds {
        pool_loss,
        block_loss,
        data_loss: 1.0 - (1.0 - pool_loss) * (1.0 - block_loss),
    }
}

/// E[Z^n] of the batch factor: prod_{i<n} (1 + i / k). For rare losses needing n failures in
/// one vdev, the chance grows by this factor over independent disks.
pub fn batch_moment(n: u32) -> f64 {
    (0..n)
        .map(|i| 1.0 + f64::from(i) / f64::from(BATCH_SHAPE))
        .product()
}

/// What the simulation found.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MonteCarloReport {
    /// Missions simulated.
    pub trials: u64,
    /// The seed of the stream.
    pub seed: u64,
    /// The mission, hours.
    pub mission_hours: f64,
    /// Some vdev lost more leaves than its redundancy: the pool is gone.
    pub pool_loss: Estimate,
    /// The pool was lost or an unrecoverable read error during an unprotected rebuild lost blocks.
    pub data_loss: Estimate,
    /// Mean bytes lost per mission, and its 95% interval.
    pub expected_bytes_lost: f64,
    /// The 95% interval of the bytes lost per mission.
    pub bytes_lost_interval: (f64, f64),
    /// The mean split, first part: the whole pool's data in missions that lose the pool.
    pub expected_pool_bytes_lost: f64,
    /// The mean split, second part: the blocks unrecoverable read errors lose during
    /// unprotected rebuilds (before any pool loss).
    pub expected_block_bytes_lost: f64,
    /// Disk lifetimes drawn (the work done).
    pub disk_lifetimes: u64,
}

/// Work one simulation may do, in disk-missions (a disk slot over one trial) with each failure
/// counted as `FAILURE_WORK` of them: about 130 million a second on one core of the CI machine,
/// so a simulation takes at most about 3 s. A policy, not a fact.
pub const MAX_SIMULATION_WORK: u64 = 400_000_000;

/// What one failure costs against one disk-mission: its rebuild's events and the replacement's
/// lifetime. Measured: 1,000 disks over 191,607 trials took 2.8 s at 0.05 failures per disk
/// (exponential, 5 years) and 32 s at 1.08 (Weibull of shape 3), a failure about 20 times a
/// disk-mission.
const FAILURE_WORK: f64 = 20.0;

/// Refuses, before any work, a simulation of `trials` missions of `disks` disk slots past
/// [`MAX_SIMULATION_WORK`], naming the most trials these disks allow.
pub fn check_simulation(
    disks: u64,
    trials: u64,
    lifetime: &Lifetime,
    mission_hours: f64,
) -> Result<(), Error> {
    let per_trial =
        disks.max(1) as f64 * (1.0 + FAILURE_WORK * lifetime.cumulative_hazard(mission_hours));
    let asked = (trials as f64 * per_trial).min(u64::MAX as f64) as u64;
    model::budget::check(
        "disk-missions (disks x trials, a failure counting 20)",
        asked,
        MAX_SIMULATION_WORK,
        || match (MAX_SIMULATION_WORK as f64 / per_trial) as u64 {
            0 => format!(
                "even one trial of these {disks} disks over this mission is too much: simulate fewer disks, a shorter mission or a Weibull shape nearer 1"
            ),
            most => format!(
                "simulate at most {most} trials of these {disks} disks over this mission, or fewer disks or a shorter mission"
            ),
        },
    )
    .map_err(Error::OverBudget)
}

/// Runs `trials` missions of `scenario` from `seed`.
pub fn simulate(scenario: &Scenario, trials: u64, seed: u64) -> Result<MonteCarloReport, Error> {
    simulate_cancellable(scenario, trials, seed, &Cancel::never())
}

/// [`simulate`], stopping with [`Error::Cancelled`] at the first trial after `cancel` is raised.
pub fn simulate_cancellable(
    scenario: &Scenario,
    trials: u64,
    seed: u64,
    cancel: &Cancel,
) -> Result<MonteCarloReport, Error> {
    if !(1..=MAX_TRIALS).contains(&trials) {
        return Err(Error::Invalid(format!(
            "a simulation runs 1 to {MAX_TRIALS} trials, not {trials}"
        )));
    }
    let slots = u64::from(scenario.layout.leaves()) + u64::from(scenario.hot_spares);
    check_simulation(slots, trials, &scenario.lifetime, scenario.mission_hours)?;
    let mut sim = Simulator::new(scenario, seed)?;
    let (mut pools, mut losses, mut bytes, mut bytes_sq) = (0, 0, 0.0, 0.0);
    let mut block_bytes = 0.0;
    for _ in 0..trials {
        cancel.check()?;
        let outcome = sim.trial();
        pools += outcome.pool_lost as u64;
        losses += outcome.data_lost as u64;
        let lost = outcome.block_bytes_lost
            + if outcome.pool_lost {
                scenario.allocated_bytes
            } else {
                0.0
            };
        bytes += lost;
        bytes_sq += lost * lost;
        block_bytes += outcome.block_bytes_lost;
    }
    Ok(MonteCarloReport {
        trials,
        seed,
        mission_hours: scenario.mission_hours,
        pool_loss: Estimate::from_counts(pools, trials),
        data_loss: Estimate::from_counts(losses, trials),
        expected_bytes_lost: bytes / trials as f64,
        bytes_lost_interval: mean_interval(bytes, bytes_sq, trials),
        expected_pool_bytes_lost: (bytes - block_bytes) / trials as f64,
        expected_block_bytes_lost: block_bytes / trials as f64,
        disk_lifetimes: sim.draws,
    })
}

/// One top-level vdev's fixed figures.
#[derive(Debug, Clone, Copy)]
struct Vdev {
    children: u32,
    redundancy: u32,
    distributed_spares: u32,
    repair: GroupRepair,
    /// Chance that the unprotected rebuild meets an unrecoverable read error, and the bytes it
    /// loses on average.
    p_ure: f64,
    ure_bytes: f64,
}

/// One top-level vdev during a trial.
#[derive(Debug, Clone, Copy)]
struct VdevState {
    failed: u32,
    /// When its running (and deferred) rebuilds end.
    rebuilding_until: f64,
    distributed_spares_free: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Fail,
    /// A rebuild ended; `fresh`: a new disk took the slot and starts its life.
    Restore {
        fresh: bool,
    },
    /// dRAID: the replacement is rebalanced, the distributed spare is free again.
    DistributedSpareBack,
    HotSpareBack,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Event {
    at: f64,
    vdev: u32,
    kind: Kind,
}

impl Eq for Event {}

impl Ord for Event {
    /// Reversed: `BinaryHeap` pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.at.total_cmp(&self.at)
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

struct Outcome {
    pool_lost: bool,
    data_lost: bool,
    /// Blocks lost to read errors in unprotected rebuilds (a lost pool loses all its data
    /// besides).
    block_bytes_lost: f64,
}

struct Simulator<'a> {
    scenario: &'a Scenario<'a>,
    vdevs: Vec<Vdev>,
    state: Vec<VdevState>,
    events: BinaryHeap<Event>,
    hot_spares_free: u32,
    rng: Rng,
    /// A batch's hazard factor: Gamma(k, 1/k), mean 1.
    batch: Gamma<f64>,
    draws: u64,
}

impl<'a> Simulator<'a> {
    fn new(scenario: &'a Scenario<'a>, seed: u64) -> Result<Self, Error> {
        let s = scenario;
        if s.repairs.len() != s.layout.groups.len() {
            return Err(Error::Invalid(format!(
                "{} repairs given for {} layout groups",
                s.repairs.len(),
                s.layout.groups.len()
            )));
        }
        positive("mission time", s.mission_hours)?;
        for (name, value) in [
            ("replacement time", s.replacement_hours),
            ("UER", s.uer_per_bit),
            ("allocated bytes", s.allocated_bytes),
            ("block size", s.block_bytes),
        ] {
            non_negative(name, value)?;
        }
        let mut vdevs = Vec::new();
        for (g, rep) in s.layout.groups.iter().zip(s.repairs) {
            for (name, value) in [
                ("resilver time", rep.resilver_hours),
                ("sequential rebuild time", rep.sequential_rebuild_hours),
                ("unprotected read bytes", rep.unprotected_read_bytes),
            ] {
                non_negative(name, value)?;
            }
            let p = p_ure(rep.unprotected_read_bytes * 8.0, s.uer_per_bit);
            let vdev = Vdev {
                children: g.children,
                redundancy: g.redundancy(),
                distributed_spares: distributed_spares(g),
                repair: *rep,
                p_ure: p,
                ure_bytes: rep.unprotected_read_bytes * 8.0 * s.uer_per_bit * s.block_bytes,
            };
            vdevs.extend(std::iter::repeat_n(vdev, g.count as usize));
        }
        let leaves = s.layout.leaves() as usize;
        let k = f64::from(BATCH_SHAPE);
        let batch = Gamma::new(k, 1.0 / k).map_err(|e| Error::Invalid(format!("batch: {e}")))?;
        Ok(Simulator {
            scenario,
            state: Vec::with_capacity(vdevs.len()),
            vdevs,
            events: BinaryHeap::with_capacity(leaves + 16),
            hot_spares_free: 0,
            rng: Rng::seeded(seed),
            batch,
            draws: 0,
        })
    }

    fn trial(&mut self) -> Outcome {
        self.events.clear();
        self.hot_spares_free = self.scenario.hot_spares;
        self.state.clear();
        self.state.extend(self.vdevs.iter().map(|v| VdevState {
            failed: 0,
            rebuilding_until: 0.0,
            distributed_spares_free: v.distributed_spares,
        }));
        let batch = if self.scenario.same_batch {
            self.batch_factor()
        } else {
            1.0
        };
        for v in 0..self.vdevs.len() {
            for _ in 0..self.vdevs[v].children {
                self.start_life_at(v, 0.0, batch);
            }
        }
        let mut data_lost = false;
        let mut bytes_lost = 0.0;
        while let Some(ev) = self.events.pop() {
            let v = ev.vdev as usize;
            match ev.kind {
                Kind::Fail => {
                    let vdev = self.vdevs[v];
                    self.state[v].failed += 1;
                    let failed = self.state[v].failed;
                    if failed > vdev.redundancy {
                        return Outcome {
                            pool_lost: true,
                            data_lost: true,
                            block_bytes_lost: bytes_lost,
                        };
                    }
                    if failed == vdev.redundancy {
                        bytes_lost += vdev.ure_bytes;
                        data_lost |= self.rng.chance(vdev.p_ure);
                    }
                    self.repair(v, ev.at);
                }
                Kind::Restore { fresh } => {
                    self.state[v].failed -= 1;
                    if fresh {
                        self.start_life(v, ev.at);
                    }
                }
                Kind::DistributedSpareBack => {
                    self.state[v].distributed_spares_free += 1;
                    self.start_life(v, ev.at);
                }
                Kind::HotSpareBack => self.hot_spares_free += 1,
            }
        }
        Outcome {
            pool_lost: false,
            data_lost,
            block_bytes_lost: bytes_lost,
        }
    }

    fn push(&mut self, at: f64, v: usize, kind: Kind) {
        if at < self.scenario.mission_hours {
            self.events.push(Event {
                at,
                vdev: v as u32,
                kind,
            });
        }
    }

    /// A disk enters slot of vdev `v` at `at`: schedules its failure if within the mission.
    #[inline]
    fn start_life(&mut self, v: usize, at: f64) {
        self.start_life_at(v, at, 1.0);
    }

    /// [`Self::start_life`] for a disk whose hazard is `hazard` times the lifetime's.
    #[inline]
    fn start_life_at(&mut self, v: usize, at: f64, hazard: f64) {
        self.draws += 1;
        let fail = at + self.scenario.lifetime.sample_scaled(&mut self.rng, hazard);
        self.push(fail, v, Kind::Fail);
    }

    /// A batch's hazard factor, drawn from Gamma(k, 1/k).
    fn batch_factor(&mut self) -> f64 {
        self.rng.draw(&self.batch)
    }

    fn duration(&mut self, mean_hours: f64) -> f64 {
        match self.scenario.repair_time {
            RepairTime::Fixed => mean_hours,
            RepairTime::Exponential => mean_hours * self.rng.exp1(),
        }
    }

    /// Queues a rebuild of `hours` on vdev `v`, ready at `ready`: returns when it ends.
    fn rebuild(&mut self, v: usize, ready: f64, hours: f64) -> f64 {
        let st = &mut self.state[v];
        st.rebuilding_until = st.rebuilding_until.max(ready) + hours;
        st.rebuilding_until
    }

    fn repair(&mut self, v: usize, at: f64) {
        let rep = self.vdevs[v].repair;
        let replaced = at + self.scenario.replacement_hours;
        if self.state[v].distributed_spares_free > 0 {
            self.state[v].distributed_spares_free -= 1;
            let hours = self.duration(rep.sequential_rebuild_hours);
            let end = self.rebuild(v, at, hours);
            self.push(end, v, Kind::Restore { fresh: false });
            let rebalance = self.duration(rep.resilver_hours);
            self.push(replaced.max(end) + rebalance, v, Kind::DistributedSpareBack);
            return;
        }
        let ready = if self.hot_spares_free > 0 {
            self.hot_spares_free -= 1;
            self.push(replaced + rep.resilver_hours, v, Kind::HotSpareBack);
            at
        } else {
            replaced
        };
        let hours = self.duration(rep.resilver_hours);
        let end = self.rebuild(v, ready, hours);
        self.push(end, v, Kind::Restore { fresh: true });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario<'a>(layout: &'a Layout, repairs: &'a [GroupRepair]) -> Scenario<'a> {
        Scenario {
            layout,
            repairs,
            lifetime: Lifetime::weibull_from_afr(1.5, 30.0, crate::HOURS_PER_YEAR).unwrap(),
            repair_time: RepairTime::Fixed,
            hot_spares: 1,
            replacement_hours: 72.0,
            uer_per_bit: 1e-14,
            allocated_bytes: 1e13,
            block_bytes: 131_072.0,
            mission_hours: 5.0 * 8760.0,
            same_batch: false,
        }
    }

    fn repairs() -> Vec<GroupRepair> {
        vec![
            GroupRepair {
                resilver_hours: 30.0,
                sequential_rebuild_hours: 3.0,
                unprotected_read_bytes: 4e12,
            };
            2
        ]
    }

    #[test]
    fn same_seed_same_numbers() {
        let layout: Layout = "2x raidz1-5 + draid1:4d:10c:1s".parse().unwrap();
        let reps = repairs();
        let s = scenario(&layout, &reps);
        let a = simulate(&s, 1000, 42).unwrap();
        assert_eq!(a, simulate(&s, 1000, 42).unwrap());
        assert_eq!((a.trials, a.seed), (1000, 42));
        // Losses happen here (about 1 in 3 missions), so another seed draws other counts.
        assert!(a.pool_loss.hits > 30 && a.data_loss.hits >= a.pool_loss.hits);
        assert_ne!(
            a.pool_loss.hits,
            simulate(&s, 1000, 43).unwrap().pool_loss.hits
        );
        // Every disk draws at least one lifetime per trial: 20 disks.
        assert!(a.disk_lifetimes > 20 * 1000);
    }

    /// Issue #18: a budget too small for one trial said "at most 0 trials".
    #[test]
    fn a_budget_below_one_trial_says_what_to_lower() {
        let worn = Lifetime::weibull_from_afr(5.0, 50.0, crate::HOURS_PER_YEAR).unwrap();
        let e = check_simulation(100_000, 1, &worn, mission_hours(100.0).unwrap()).unwrap_err();
        assert!(
            e.to_string().ends_with("even one trial of these 100000 disks over this mission is too much: simulate fewer disks, a shorter mission or a Weibull shape nearer 1"),
            "{e}"
        );
        let e = check_simulation(100, 10_000_000, &worn, 43_800.0).unwrap_err();
        assert!(e.to_string().contains("simulate at most "), "{e}");
    }

    #[test]
    fn refuses_bad_scenarios() {
        let layout: Layout = "raidz1-5".parse().unwrap();
        let reps = repairs();
        assert!(
            simulate(&scenario(&layout, &reps), 10, 1).is_err(),
            "two repairs, one group"
        );
        let s = scenario(&layout, &reps[..1]);
        assert!(simulate(&s, 0, 1).is_err());
        let e = simulate(&s, MAX_TRIALS + 1, 1).unwrap_err();
        assert!(e.to_string().contains("1 to 10000000 trials"), "{e}");
        assert_eq!(mission_hours(100.0).unwrap(), 876_000.0);
        let e = mission_hours(101.0).unwrap_err();
        assert!(
            e.to_string().contains("at most 100 years, not 101.0"),
            "{e}"
        );
        let s = Scenario {
            mission_hours: -1.0,
            ..scenario(&layout, &reps[..1])
        };
        assert!(simulate(&s, 10, 1).is_err());
    }
}
