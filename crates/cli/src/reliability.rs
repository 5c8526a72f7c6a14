//! `zpoolsim reliability [SYSTEM.toml]`: how long a rebuild leaves the pool exposed and how
//! likely it is to lose data over a mission: every rebuild explained (bytes to move, the
//! limiting resource), Elling's closed form and a seeded Monte Carlo beside it.

use crate::args::parse_fill;
use crate::error::CliResult;
use crate::files::{load_workload, print_json, system_or_default};
use crate::progress::while_working;
use crate::render::assessment;
use ::plan::policy::{FILL, REPLACEMENT_HOURS, SEED, YEARS};
use reliability::{assess, Mission};

/// Resilver time and the chance of losing data (default: the embedded default system).
#[derive(clap::Args)]
pub struct Args {
    /// The system file (its pool and disks); default: the embedded default system.
    pub system: Option<String>,
    /// How full the pool is: what a rebuild moves ('50%' or 0.5).
    #[arg(long, default_value_t = format!("{:.0}%", FILL * 100.0))]
    pub fill: String,
    /// The mission, years (at most 100).
    #[arg(long, default_value_t = YEARS)]
    pub years: f64,
    /// User load during rebuilds (a workload such as fio-randread:qd=32); default: idle.
    #[arg(long)]
    pub load: Option<String>,
    /// Weibull shape of disk lifetimes (1 = exponential; below 1 infant mortality, above 1
    /// wear-out), scaled to the disk's AFR over the first year (from its MTBF when it has
    /// no AFR).
    #[arg(long)]
    pub weibull: Option<f64>,
    /// Hours until a failed disk is replaced when no hot spare takes over.
    #[arg(long, default_value_t = REPLACEMENT_HOURS)]
    pub replacement_hours: f64,
    /// Monte Carlo missions to simulate (0: closed form only; at most 10,000,000, and at most
    /// 4e8 disk-missions, disks x trials with each expected failure counting 20).
    #[arg(long, default_value_t = 200_000)]
    pub trials: u64,
    /// Seed of the simulation: the same seed gives the same figures.
    #[arg(long, default_value_t = SEED)]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let system = system_or_default(args.system.as_deref())?;
    let load = args.load.as_deref().map(load_workload).transpose()?;
    let mission = Mission {
        fill: parse_fill(&args.fill)?,
        years: args.years,
        replacement_hours: args.replacement_hours,
        user: load.as_ref(),
        lifetime: None,
        weibull_shape: args.weibull,
        trials: args.trials,
        seed: args.seed,
    };
    let report = while_working("rebuilds and the Monte Carlo", || assess(&system, &mission))?;
    if args.json {
        return print_json(&report);
    }
    println!("{}: pool {}", system.name, system.pool.normal_layout());
    print!("{}", assessment(&report));
    Ok(())
}
