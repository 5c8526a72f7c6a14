//! `zpoolsim plan --disks N --disk ID|SIZE [SYSTEM.toml]`: every sensible layout for the
//! disks on the hardware, those that meet the needs, the Pareto front, and one recommendation
//! with its reason. A table, `--json`, and `--plot FILE.svg`.

use crate::compare::{columns_note, row_json, table, Measure};
use crate::error::{CliError, CliResult};
use crate::files::{load_system, write, PlotTo};
use crate::svg::{Chart, Series};
use ::plan::machine::{disks_of_size, with_controllers_for, with_disks};
use ::plan::needs::format_probability;
use ::plan::search::MAX_DISKS;
use ::plan::{parse_needs, Evaluation, Plan, PlanError, Request, Settings};
use model::hardware::DiskModel;
use model::system_file::default_system;
use model::units::parse_size;
use model::System;
use serde_json::json;
use std::path::Path;

/// Plan a pool: enumerate layouts (stripe, mirrors, raidz1-3, dRAID, with spares), keep those
/// that meet --need, mark the Pareto front, recommend one.
///
/// Layouts: stripe, Kx mirror-2/3, Kx raidz1-3 from p+2 to p+16 wide, one dRAID over all disks
/// (parity 1-3, 2-16 data, 0-3 distributed spares); disks left over become hot spares. The
/// recommendation is the most usable space whose P(data loss) over --years (the pool, or
/// blocks to unrecoverable read errors) stays under the loss<= need (0.1% without one), with a
/// Monte Carlo check. DEGRADED is the hours a vdev runs
/// with less redundancy after a disk fails (for dRAID with a distributed spare, the short
/// sequential rebuild); P(BLOCK LOSS) the chance that an unrecoverable read error loses blocks
/// (not the pool) while a vdev has no redundancy left.
///
/// Without a system file the disks go on the embedded default system's host, with more HBAs
/// like its own when they need ports; the output says so.
#[derive(clap::Args)]
pub struct Args {
    /// A system file whose host, links and controllers carry the disks (its pool is ignored).
    pub system: Option<String>,
    /// How many disks (at most 1,000); default: as many as the system file has of the disk's
    /// model.
    #[arg(long)]
    pub disks: Option<u32>,
    /// The disk: a catalog id or a size such as 16TB; default: the system file's.
    #[arg(long)]
    pub disk: Option<String>,
    /// Price of one disk in US dollars, for the $/TB column (default: the catalog's, if any).
    #[arg(long)]
    pub price: Option<f64>,
    /// Hot spares to set aside before building layouts.
    #[arg(long, default_value_t = 0)]
    pub spares: u32,
    /// Leaf failures every vdev must survive (0: stripes too).
    #[arg(long, default_value_t = 0)]
    pub min_redundancy: u32,
    /// What a layout must reach: read>=500MB/s,write>=300MB/s,iops>=2000,avail>=40TB,loss<=1%.
    #[arg(long, default_value = "")]
    pub need: String,
    #[command(flatten)]
    pub measure: Measure,
    /// Show every layout that meets the needs, not only the Pareto front.
    #[arg(long)]
    pub all: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// --plot draws usable space against sequential write, the front ringed.
    #[command(flatten)]
    pub plot: PlotTo,
}

pub fn run(args: &Args) -> CliResult {
    let plot = args.plot.file()?;
    let (system, assumed) = machine(args)?;
    let settings = args.measure.settings()?;
    let request = Request {
        system,
        hot_spares: args.spares,
        min_redundancy: args.min_redundancy,
        needs: parse_needs(&args.need)?,
        settings,
    };
    let plan = ::plan::plan(&request)?;
    if let Some(file) = plot {
        write(file, &chart(&plan, &request).render())?;
    }
    if args.json {
        let value = json!({
            "system": request.system.name,
            "assumed": assumed,
            "disks": request.system.disks.len(),
            "disk": request.system.disks[0].model.id,
            "fill": request.settings.fill,
            "years": request.settings.years,
            "needs": request.needs.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
            "considered": plan.considered,
            "recommended": {
                "layout": recommended(&plan).candidate.layout.to_string(),
                "reason": plan.recommendation.reason,
                "monte_carlo": plan.monte_carlo.as_ref().map(|mc| json!({
                    "trials": mc.trials,
                    "seed": mc.seed,
                    "data_loss": { "hits": mc.data_loss.hits, "p": mc.data_loss.p, "low": mc.data_loss.low, "high": mc.data_loss.high },
                    "pool_loss": { "hits": mc.pool_loss.hits, "p": mc.pool_loss.p, "low": mc.pool_loss.low, "high": mc.pool_loss.high },
                })),
            },
            "layouts": plan.evaluations.iter().zip(&plan.on_front).map(|(e, front)| {
                let mut row = row_json(e);
                row["pareto_front"] = json!(front);
                row
            }).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    print_plan(&plan, &request, &assumed, args.all);
    Ok(())
}

/// The machine with the planned disks, and what was assumed to build it.
fn machine(args: &Args) -> Result<(System, Vec<String>), CliError> {
    let mut assumed = Vec::new();
    let base = match &args.system {
        Some(path) => load_system(Path::new(path))?,
        None => {
            let base = default_system();
            assumed.push(format!(
                "no system file: the embedded default system's host, links and controllers ({})",
                base.name
            ));
            base
        }
    };
    let disk = match &args.disk {
        Some(text) => pick_disk(text, &mut assumed)?,
        None if args.system.is_some() => base
            .disks
            .first()
            .map(|d| d.model.clone())
            .ok_or_else(|| CliError("the system file has no disks; give --disk".into()))?,
        None => {
            return Err(CliError(
                "give --disk (a catalog id or a size such as 16TB) or a system file".into(),
            ))
        }
    };
    let disk = match args.price {
        Some(usd) if usd.is_finite() && usd >= 0.0 => DiskModel {
            price_usd: Some(usd),
            ..disk
        },
        Some(usd) => {
            return Err(CliError(format!(
                "--price {usd}: expected US dollars per disk"
            )))
        }
        None => disk,
    };
    let count = match args.disks {
        Some(n) => n,
        None if args.system.is_some() => {
            base.disks.iter().filter(|d| d.model.id == disk.id).count() as u32
        }
        None => return Err(CliError("give --disks N or a system file".into())),
    };
    if count > MAX_DISKS {
        return Err(PlanError::TooManyDisks { disks: count }.into());
    }
    let base = if args.system.is_none() {
        let (grown, added) = with_controllers_for(&base, &disk, count)?;
        if added > 0 {
            let new = &grown.controllers[base.controllers.len()..];
            let ids: Vec<&str> = new.iter().map(|c| c.id.as_str()).collect();
            assumed.push(format!(
                "{added} more {} controllers ({}), each on its own copy of the slot of the one it copies, to give {count} disks ports",
                new[0].model.id,
                ids.join(", ")
            ));
        }
        grown
    } else {
        base
    };
    Ok((with_disks(&base, &disk, count)?, assumed))
}

/// A catalog id, or a size matched against the catalog.
fn pick_disk(text: &str, assumed: &mut Vec<String>) -> Result<DiskModel, CliError> {
    let catalog = crate::files::catalog();
    if let Ok(disk) = catalog.disk(text) {
        return Ok(disk.clone());
    }
    let Ok(bytes) = parse_size(text) else {
        return Err(catalog.disk(text).unwrap_err().into());
    };
    let matches = disks_of_size(catalog, bytes);
    let first = matches.first().ok_or_else(|| {
        CliError(format!(
            "no catalog disk of about {text}; `zpoolsim catalog --kind disk` lists them"
        ))
    })?;
    let others: Vec<&str> = matches[1..].iter().map(|d| d.id.as_str()).collect();
    assumed.push(if others.is_empty() {
        format!("--disk {text}: the catalog's {}", first.id)
    } else {
        format!(
            "--disk {text}: the catalog's {} (also that size: {})",
            first.id,
            others.join(", ")
        )
    });
    Ok((*first).clone())
}

fn recommended(plan: &Plan) -> &Evaluation {
    &plan.evaluations[plan.recommendation.index]
}

fn print_plan(plan: &Plan, request: &Request, assumed: &[String], all: bool) {
    let system = &request.system;
    let disk = &system.disks[0].model;
    println!(
        "{} x {} ({} {}, {}) on {}",
        system.disks.len(),
        disk.id,
        disk.vendor,
        disk.model,
        model::units::format_decimal(disk.capacity_bytes as f64),
        system.name
    );
    for a in assumed {
        println!("assumed: {a}");
    }
    let s: &Settings = &request.settings;
    println!(
        "workloads: read {}, write {}, random {}",
        s.workloads[0].label, s.workloads[1].label, s.workloads[2].label,
    );
    println!("{}", columns_note(s));
    let front = plan.on_front.iter().filter(|f| **f).count();
    let needs = if request.needs.is_empty() {
        "no needs given".to_string()
    } else {
        let needs: Vec<String> = request.needs.iter().map(|n| n.to_string()).collect();
        format!("{} meet {}", plan.evaluations.len(), needs.join(", "))
    };
    println!(
        "{} layouts evaluated; {needs}; {front} on the Pareto front (*){}",
        plan.considered,
        if all {
            ""
        } else {
            ", shown (--all for every one)"
        }
    );
    println!();
    let shown: Vec<usize> = (0..plan.evaluations.len())
        .filter(|&i| all || plan.on_front[i] || i == plan.recommendation.index)
        .collect();
    let rows: Vec<&Evaluation> = shown.iter().map(|&i| &plan.evaluations[i]).collect();
    let marks: Vec<&str> = shown
        .iter()
        .map(
            |&i| match (i == plan.recommendation.index, plan.on_front[i]) {
                (true, _) => "> ",
                (false, true) => "* ",
                (false, false) => "  ",
            },
        )
        .collect();
    print!("{}", table(&rows, &marks, s));
    println!();
    let chosen = recommended(plan);
    println!(
        "recommended (>): {}{}",
        chosen.candidate.layout,
        match chosen.candidate.hot_spares {
            0 => String::new(),
            n => format!(" + {n} hot spare{}", if n == 1 { "" } else { "s" }),
        }
    );
    println!("because: {}", plan.recommendation.reason);
    if let Some(mc) = &plan.monte_carlo {
        let d = &mc.pool_loss;
        println!(
            "check: a Monte Carlo of {} missions of {} years lost the pool in {} (P {}, 95% interval {} to {}; rebuilds of fixed length, where the closed form above assumes memoryless ones, so with double or triple parity it loses less); the closed form gives {}",
            mc.trials,
            request.settings.years,
            d.hits,
            format_probability(d.p),
            format_probability(d.low),
            format_probability(d.high),
            chosen
                .pool_loss_probability
                .map_or("unknown".into(), format_probability)
        );
    }
}

/// The chart's colours for the pool-loss probability: label and upper bound.
const LOSS_BANDS: [(&str, f64); 3] = [
    ("P(data loss) <= 0.01%", 1e-4),
    ("P(data loss) <= 1%", 1e-2),
    ("P(data loss) > 1%", f64::INFINITY),
];

/// The index of a probability's band in `LOSS_BANDS`, or one past them when unknown.
fn band_of(p: Option<f64>) -> usize {
    p.map_or(LOSS_BANDS.len(), |p| {
        LOSS_BANDS
            .iter()
            .position(|b| p <= b.1)
            .unwrap_or(LOSS_BANDS.len() - 1)
    })
}

/// Usable space against sequential write, coloured by data-loss probability; the planner's
/// Pareto front (the table's `*`, over every figure) ringed and the recommendation named.
fn chart(plan: &Plan, request: &Request) -> Chart {
    let point = |e: &Evaluation| (e.avail_bytes as f64 / 1e12, e.write_bytes_per_s / 1e6);
    let mut series: Vec<Series> = LOSS_BANDS
        .iter()
        .map(|b| b.0)
        .chain(["P(data loss) unknown"])
        .enumerate()
        .map(|(band, label)| Series {
            label: label.to_string(),
            points: plan
                .evaluations
                .iter()
                .filter(|e| band_of(e.data_loss_probability()) == band)
                .map(point)
                .collect(),
            line: false,
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    let mut rings: Vec<(f64, f64, String)> = plan
        .on_front
        .iter()
        .zip(&plan.evaluations)
        .filter(|(on, _)| **on)
        .map(|(_, e)| {
            let (x, y) = point(e);
            (x, y, String::new())
        })
        .collect();
    series.push(Series {
        label: "ringed: Pareto front over every figure (the table's *)".into(),
        points: vec![],
        line: false,
    });
    let chosen = recommended(plan);
    let (x, y) = point(chosen);
    let loss = chosen
        .data_loss_probability()
        .map_or("unknown".into(), format_probability);
    rings.push((
        x,
        y,
        format!("{} (P(data loss) {loss})", chosen.candidate.layout),
    ));
    Chart {
        title: format!(
            "{} x {}: usable space vs sequential write",
            request.system.disks.len(),
            request.system.disks[0].model.id
        ),
        x_label: "usable space (AVAIL), TB".into(),
        y_label: format!("{}, MB/s", request.settings.workloads[1].label),
        x_log2: false,
        x_ticks: vec![],
        series,
        highlights: rings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_by_size_says_which() {
        let mut assumed = Vec::new();
        let disk = pick_disk("16TB", &mut assumed).unwrap();
        assert_eq!(disk.id, "seagate-exos-x16-16tb");
        assert_eq!(
            assumed,
            ["--disk 16TB: the catalog's seagate-exos-x16-16tb (also that size: seagate-ironwolf-pro-16tb)"]
        );
        assert!(pick_disk("exos-x16", &mut assumed).is_err());
        assert!(pick_disk("17TB", &mut assumed)
            .unwrap_err()
            .0
            .contains("no catalog disk of about 17TB"));
    }
}
