//! `zpoolsim report [SYSTEM.toml]`: the main job. One page on a machine and its pool: the
//! space it gives, how fast it streams and serves random reads and what limits each, how long
//! a resilver takes and the chance of losing data, and the layout the planner would pick for
//! the same disks. Without a file it runs on the embedded default system.

use crate::error::CliResult;
use crate::files::system_or_default;
use crate::reliability::{layout_of, render as render_reliability, to_json as reliability_json};
use ::plan::evaluate::{Settings, REPLACEMENT_HOURS};
use ::plan::Request;
use model::units::{format_bytes, format_decimal};
use reliability::assess::{assess, Mission};
use serde_json::json;

/// Fill of the pool assumed for the resilver, and the mission of the loss figure.
const FILL: f64 = 0.8;
const YEARS: f64 = 5.0;
/// Monte Carlo missions: enough for a tight interval at typical loss rates, well under a second.
const TRIALS: u64 = 100_000;

/// The whole picture of one machine: space, speed, safety and the planner's pick.
#[derive(clap::Args)]
pub struct Args {
    /// The system file; default: the embedded default system.
    pub system: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let system = system_or_default(args.system.as_deref())?;
    let capacity = space::pool_capacity(&system.pool, &space::Profile::of(system.host.zfs))?;
    let settings = Settings::standard(FILL, YEARS);
    let predictions = settings
        .workloads
        .iter()
        .map(|w| perf::predict(&system, &w.workload))
        .collect::<Result<Vec<_>, _>>()?;
    let mission = Mission {
        fill: FILL,
        years: YEARS,
        replacement_hours: REPLACEMENT_HOURS,
        user: None,
        lifetime: None,
        trials: TRIALS,
        seed: 1,
    };
    let safety = assess(&system, &mission)?;
    let plan = ::plan::plan(&Request {
        system: system.clone(),
        hot_spares: 0,
        min_redundancy: system
            .pool
            .normal()
            .map(|t| t.layout.redundancy())
            .min()
            .unwrap_or(0)
            .min(1),
        needs: Vec::new(),
        settings,
    })?;
    let pick = &plan.evaluations[plan.recommendation.index];
    if args.json {
        let value = json!({
            "system": system.name,
            "layout": layout_of(&system),
            "size_bytes": capacity.size_bytes,
            "avail_bytes": capacity.avail_bytes,
            "workloads": predictions.iter().map(|p| json!({
                "workload": p.workload,
                "throughput_bytes_per_s": p.throughput_bytes_per_s,
                "iops": p.iops,
                "bottleneck": p.bottleneck.sentence,
            })).collect::<Vec<_>>(),
            "reliability": reliability_json(&safety, &mission),
            "recommended_layout": pick.candidate.layout.to_string(),
            "recommendation_reason": plan.recommendation.reason,
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    println!("{}", system.name);
    println!(
        "pool {} on {} disks, ashift {}",
        layout_of(&system),
        system.disks.len(),
        system.pool.ashift
    );
    println!(
        "\nspace: zpool list SIZE {}, zfs list AVAIL {} (zpoolsim capacity explains every byte)",
        format_bytes(capacity.size_bytes),
        format_bytes(capacity.avail_bytes)
    );
    println!("\nspeed (zpoolsim predict for the details):");
    for p in &predictions {
        println!(
            "  {:<20} {:>12}/s {:>10.0} IOPS   {}",
            p.workload,
            format_decimal(p.throughput_bytes_per_s),
            p.iops,
            p.bottleneck.sentence
        );
    }
    print!("{}", render_reliability(&safety, &mission));
    println!(
        "\nplanner's pick for these {} disks ({} layouts considered): {}\n  {}",
        system.disks.len(),
        plan.considered,
        pick.candidate.layout,
        plan.recommendation.reason
    );
    Ok(())
}
