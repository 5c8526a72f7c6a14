//! `reliability`: how long a rebuild leaves the pool exposed and how likely it is to lose data
//! over a mission: every rebuild explained, the closed form and a seeded Monte Carlo.

use crate::numbers::{in_range, whole_in_range};
use crate::{about, parse_fill, system_or_default, Inputs, Refusal};
use ::plan::policy::{FILL, REPLACEMENT_HOURS, SEED, YEARS};
use model::range;
use reliability::{assess_cancellable, Assessment, Mission};

/// The reliability engine's refusal: a simulation past its budget is about the trials.
fn refused(e: reliability::Error) -> Refusal {
    let field = matches!(e, reliability::Error::OverBudget(_)).then_some("trials");
    Refusal {
        field: field.map(str::to_string),
        error: e.into(),
    }
}
use serde::Serialize;

/// Monte Carlo missions simulated when none are asked for.
pub(crate) const TRIALS: u64 = 200_000;

/// `reliability`: every rebuild explained and the chance of losing data over a mission.
#[derive(clap::Args, Debug)]
pub struct ReliabilityRequest {
    /// The system file (its pool and disks); default: the embedded default system.
    pub system: Option<String>,
    /// How full the pool is: what a rebuild moves ('50%' or 0.5; 1% to 100%).
    #[arg(long, default_value_t = format!("{:.0}%", FILL * 100.0))]
    pub fill: String,
    /// The mission, 0.1 to 100 years.
    #[arg(long, default_value_t = YEARS, value_parser = in_range(&range::YEARS))]
    pub years: f64,
    /// User load during rebuilds (a workload such as fio-randread:qd=32); default: idle.
    #[arg(long)]
    pub load: Option<String>,
    /// The share of the time the --load runs ('20%' or 0.2; 1% to 100%).
    #[arg(long, default_value = "100%", value_name = "SHARE")]
    pub busy: String,
    /// Yearly failure rate of a disk, percent ('5%' or 5; default: the field rate of its
    /// class, docs/assumptions.md: 1.57% for hard disks, 0.98% for SSDs), 0.01 to 99.
    #[arg(long, value_parser = crate::numbers::percent_in_range(&range::AFR_PCT))]
    pub afr: Option<f64>,
    /// Weibull shape of disk lifetimes, 0.2 to 5 (1 = exponential; below 1 infant mortality,
    /// above 1 wear-out), scaled so that the disks fail at the AFR on average over the mission
    /// (from the MTBF when the disk has no AFR).
    #[arg(long, value_parser = in_range(&range::WEIBULL_SHAPE))]
    pub weibull: Option<f64>,
    /// Hours until a failed disk is replaced when no hot spare takes over (0 to 8760 hours).
    #[arg(long, default_value_t = REPLACEMENT_HOURS, value_parser = in_range(&range::REPLACEMENT_HOURS))]
    pub replacement_hours: f64,
    /// Monte Carlo missions to simulate, 0 to 10000000 missions (0: closed form only), and at
    /// most 4e8 disk-missions, disks x trials with each expected failure counting 20.
    #[arg(long, default_value_t = TRIALS, value_parser = whole_in_range(&range::TRIALS))]
    pub trials: u64,
    /// Seed of the simulation: the same seed gives the same figures.
    #[arg(long, default_value_t = SEED)]
    pub seed: u64,
    /// The disks come from one batch: the simulation gives them one hazard factor, drawn per
    /// mission from Gamma(4) of mean 1 (docs/assumptions.md "Correlated failures"), so they
    /// fail together more often; the closed forms, which take failures to be independent,
    /// are not given.
    #[arg(long)]
    pub same_batch: bool,
}

/// The assessment, with the system's name and pool for the text's heading.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct ReliabilityAnswer {
    /// What `--json` prints.
    pub assessment: Assessment,
    /// The system's name.
    #[serde(skip)]
    pub system: String,
    /// The pool's normal-class layout.
    #[serde(skip)]
    pub layout: String,
}

impl ReliabilityRequest {
    /// The assessment of the system's pool over the mission asked for.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<ReliabilityAnswer, Refusal> {
        let system = system_or_default(inputs, self.system.as_deref()).map_err(about("system"))?;
        let load = self
            .load
            .as_deref()
            .map(|l| inputs.workload(l))
            .transpose()
            .map_err(about("load"))?;
        let busy =
            crate::criteria::parse_share(&self.busy, &model::range::BUSY).map_err(about("busy"))?;
        let mission = Mission {
            fill: parse_fill(&self.fill).map_err(about("fill"))?,
            years: self.years,
            replacement_hours: self.replacement_hours,
            user: load
                .as_ref()
                .map(|workload| reliability::UserLoad { workload, busy }),
            lifetime: None,
            afr_pct: self.afr,
            weibull_shape: self.weibull,
            trials: self.trials,
            seed: self.seed,
            same_batch: self.same_batch,
        };
        Ok(ReliabilityAnswer {
            assessment: assess_cancellable(&system, &mission, &inputs.cancel()).map_err(refused)?,
            layout: system.pool.normal_layout(),
            system: system.name,
        })
    }
}
