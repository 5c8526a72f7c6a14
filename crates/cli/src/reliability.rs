//! `zpoolsim reliability [SYSTEM.toml]`: how long a rebuild leaves the pool exposed and how
//! likely it is to lose data over a mission: every rebuild explained (bytes to move, the
//! limiting resource), Elling's closed form and a seeded Monte Carlo beside it.

use crate::compare::parse_fill;
use crate::error::CliResult;
use crate::files::{load_workload, system_or_default};
use ::plan::evaluate::REPLACEMENT_HOURS;
use ::plan::needs::format_probability;
use model::units::format_decimal;
use model::{System, Workload};
use reliability::assess::{assess, Assessment, Mission};
use reliability::lifetime::disk_lifetime;
use reliability::RebuildKind;
use serde_json::{json, Value};

/// Resilver time and the chance of losing data (default: the embedded default system).
#[derive(clap::Args)]
pub struct Args {
    /// The system file (its pool and disks); default: the embedded default system.
    pub system: Option<String>,
    /// How full the pool is: what a rebuild moves ('50%' or 0.5).
    #[arg(long, default_value = "80%")]
    pub fill: String,
    /// The mission, years (at most 100).
    #[arg(long, default_value_t = 5.0)]
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
    /// Monte Carlo missions to simulate (0: closed form only; at most 10,000,000).
    #[arg(long, default_value_t = 200_000)]
    pub trials: u64,
    /// Seed of the simulation: the same seed gives the same figures.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What the user asked, as the reliability engine takes it.
pub struct Inputs {
    pub system: System,
    pub load: Option<Workload>,
    pub fill: f64,
}

pub fn run(args: &Args) -> CliResult {
    let inputs = Inputs {
        system: system_or_default(args.system.as_deref())?,
        load: args.load.as_deref().map(load_workload).transpose()?,
        fill: parse_fill(&args.fill)?,
    };
    let lifetime = match (args.weibull, inputs.system.disks.first()) {
        (Some(shape), Some(disk)) => disk_lifetime(&disk.model, Some(shape))?,
        _ => None,
    };
    let mission = Mission {
        fill: inputs.fill,
        years: args.years,
        replacement_hours: args.replacement_hours,
        user: inputs.load.as_ref(),
        lifetime,
        trials: args.trials,
        seed: args.seed,
    };
    let report = assess(&inputs.system, &mission)?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(&report, &mission))?
        );
    } else {
        println!("{}: pool {}", inputs.system.name, layout_of(&inputs.system));
        print!("{}", render(&report, &mission));
    }
    Ok(())
}

/// The pool's normal-class layout as written.
pub fn layout_of(system: &System) -> String {
    system
        .pool
        .normal()
        .map(|t| t.layout.to_string())
        .collect::<Vec<_>>()
        .join(" + ")
}

fn kind_word(kind: &RebuildKind) -> &'static str {
    match kind {
        RebuildKind::Resilver => "resilver",
        RebuildKind::SequentialRebuild => "sequential rebuild to a distributed spare",
    }
}

/// The assessment as a person reads it: each rebuild, then the loss figures.
pub fn render(report: &Assessment, mission: &Mission) -> String {
    let mut out = format!(
        "\nrebuild after one disk fails, pool {:.0}% full{}:\n",
        mission.fill * 100.0,
        if mission.user.is_some() {
            ", under the given user load"
        } else {
            ", idle pool"
        }
    );
    for r in &report.rebuilds {
        out += &format!(
            "  {:<10} {:>7.1} h  read {}, write {}; limited by {}\n             {}\n",
            kind_word(&r.kind),
            r.hours,
            format_decimal(r.bytes_to_read),
            format_decimal(r.bytes_to_write),
            r.limiting_resource,
            r.sentence
        );
    }
    out += &format!("\nchance of losing data over {} years:", mission.years);
    if report.lifetime.is_none() {
        return out + " " + &unknown_rate(report) + "\n";
    }
    out += "\n";
    if let (Some(m), Some(pool), Some(any)) = (
        &report.mttdl,
        report.closed_form_pool_loss,
        report.closed_form_loss,
    ) {
        out += &format!(
            "  closed form (MTTDL[1], exponential lifetimes): P(pool loss) {}, P(any data loss, blocks to unrecoverable read errors included) {}; MTTDL {:.3e} h\n",
            format_probability(pool),
            format_probability(any),
            m.pool_hours,
        );
    }
    if let Some(mc) = &report.monte_carlo {
        out += &format!(
            "  Monte Carlo ({} missions, seed {}): P(pool loss) {} [{} .. {}], P(any data loss) {} [{} .. {}]; expected bytes lost to unrecoverable read errors {}\n",
            mc.trials,
            mc.seed,
            format_probability(mc.pool_loss.p),
            format_probability(mc.pool_loss.low),
            format_probability(mc.pool_loss.high),
            format_probability(mc.data_loss.p),
            format_probability(mc.data_loss.low),
            format_probability(mc.data_loss.high),
            format_decimal(mc.expected_bytes_lost),
        );
        if report.mttdl.is_some() {
            out += "  (the simulation rebuilds in a fixed time where the closed form assumes memoryless repairs, so with double or triple parity it gives less loss)\n";
        }
    }
    out
}

/// Why the loss figures are missing, and how to give them.
fn unknown_rate(report: &Assessment) -> String {
    format!(
        "unknown: no AFR or MTBF for {}; give afr_pct or mtbf_hours in an inline model or a --catalog file",
        report.disk
    )
}

/// The assessment as JSON.
pub fn to_json(report: &Assessment, mission: &Mission) -> Value {
    json!({
        "fill": mission.fill,
        "years": mission.years,
        "rebuilds": report.rebuilds.iter().map(|r| json!({
            "kind": kind_word(&r.kind),
            "hours": r.hours,
            "bytes_to_read": r.bytes_to_read,
            "bytes_to_write": r.bytes_to_write,
            "limiting_resource": r.limiting_resource.to_string(),
            "explanation": r.sentence,
        })).collect::<Vec<_>>(),
        "loss_unknown": report.lifetime.is_none().then(|| unknown_rate(report)),
        "mttdl_hours": report.mttdl.as_ref().map(|m| m.pool_hours),
        "closed_form_pool_loss_probability": report.closed_form_pool_loss,
        "closed_form_loss_probability": report.closed_form_loss,
        "monte_carlo": report.monte_carlo.as_ref().map(|mc| json!({
            "trials": mc.trials,
            "seed": mc.seed,
            "pool_loss_probability": mc.pool_loss.p,
            "pool_loss_interval": [mc.pool_loss.low, mc.pool_loss.high],
            "data_loss_probability": mc.data_loss.p,
            "data_loss_interval": [mc.data_loss.low, mc.data_loss.high],
            "expected_bytes_lost": mc.expected_bytes_lost,
        })),
    })
}
