//! `zpoolsim plan --disks N --disk ID|SIZE [SYSTEM.toml]`: every sensible layout for the
//! disks on the hardware, those that meet the needs, the Pareto front, and one recommendation
//! with its reason. A table, `--json`, and `--plot FILE.svg`.

use crate::error::CliResult;
use crate::files::{print_json, write, Files, PlotTo};
use crate::progress::while_working;
use crate::render::{columns_note, table};
use crate::svg::{Chart, Series};
use ::plan::{format_probability, DiskPlan, Evaluation, GrowthOption, Plan};
use model::input::escape_controls;
use request::PlanRequest;

/// Plan a pool: enumerate layouts (stripe, mirrors, raidz1-3, dRAID, with spares), keep those
/// that meet --need, mark the Pareto front, recommend one.
///
/// Layouts: stripe, Kx mirror-2/3, Kx raidz1-3 from p+2 to p+16 wide, one dRAID over all disks
/// (parity 1-3, 2-16 data, 0-3 distributed spares); disks left over become hot spares.
///
/// Policy (docs/assumptions.md, "The planner's policy"): ruled out unless --consider-all:
/// dRAID without a distributed spare or with fewer children than two redundancy groups and
/// its spares, raidz wider than 12, single parity (raidz1, draid1) on disks over 4 TB in pools
/// of more than 6 disks (kept on smaller pools, with a caveat). Of the layouts whose P(data
/// loss) over --years (the pool, or blocks to latent sector errors) stays under the loss<= need
/// (0.1% without one; a layout over it by less than a simulation's interval is kept, at the
/// target), the pick is the best by --rank: usable (default: the most usable space among the
/// layouts at least half as fast as the best at sequential reads and writes, random reads
/// deciding within 5% of the most space), space, iops or write; --for vm|database|backup|media
/// sets the ranking and random workload for that use. A Monte Carlo checks it, each caveat of
/// the pick is printed on its own line, and on a system file its own layout is scored first.
///
/// DEGRADED is the hours a vdev runs
/// with less redundancy after a disk fails (for dRAID with a distributed spare, the short
/// sequential rebuild); P(BLOCK LOSS) the chance that an unrecoverable read error loses blocks
/// (not the pool) while a vdev has no redundancy left.
///
/// Without a system file the disks go on the embedded default system's host, with more HBAs
/// like its own when they need ports; the output says so.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: PlanRequest,
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

pub(crate) fn run(args: &Args) -> CliResult {
    let plot = args.plot.file()?;
    let answer = while_working("planning: every layout of these disks", || {
        args.request.answer(&Files)
    })?;
    let planned = &answer.plan;
    if let Some(file) = plot {
        write(file, args.plot.force, &chart(planned).render())?;
    }
    if args.json {
        return print_json(&answer);
    }
    print_plan(planned, args.all);
    if let Some(growth) = &answer.growth {
        print_growth(growth, &args.request.grow_fill);
    }
    Ok(())
}

/// Why the pick, then each of its caveats on a line of its own.
fn because(plan: &Plan) -> String {
    let r = &plan.recommendation;
    let caveats: String = r.caveats.iter().map(|c| format!("caveat: {c}\n")).collect();
    format!("because: {}\n{caveats}", r.reason)
}

/// One line per policy rule that removed layouts.
fn ruled_out(plan: &Plan) -> String {
    plan.ruled_out
        .iter()
        .map(|r| {
            format!(
                "ruled out by policy (--consider-all keeps them): {} layout{}, {}\n",
                r.layouts,
                if r.layouts == 1 { "" } else { "s" },
                r.why
            )
        })
        .collect()
}

/// The layouts grown by raidz expansion, most space at the end first (the first ten).
fn print_growth(options: &[GrowthOption], fill: &str) {
    use model::units::format_bytes;
    println!();
    let Some(first) = options.first() else {
        println!("no raidz layout of these disks grows to that many one disk per vdev at a time");
        return;
    };
    println!(
        "grown by raidz expansion (OpenZFS 2.3 on), one disk per vdev at a time, the pool {fill} \
         full at each step; \"holds\" is the data plus the new 128K records that still fit \
         (zfs list AVAIL keeps the original width's ratio and shows less):"
    );
    let disks = first.steps.last().map_or(0, |s| s.disks);
    for o in options.iter().take(10) {
        let steps: Vec<String> = o
            .steps
            .iter()
            .map(|s| format!("{}: {}", s.disks, format_bytes(s.capacity_bytes)))
            .collect();
        println!(
            "  {} -> {}: AVAIL {} empty; holds {}; rewritten {}; created on {disks} disks {}",
            o.start,
            o.end,
            format_bytes(o.start_avail_bytes),
            steps.join(", "),
            format_bytes(o.rewritten_capacity_bytes),
            format_bytes(o.native_avail_bytes)
        );
    }
}

fn recommended(plan: &Plan) -> &Evaluation {
    &plan.evaluations[plan.recommendation.index]
}

/// What was planned: the disks, the assumptions, the workloads and how many layouts.
fn print_header(planned: &DiskPlan, all: bool) {
    let plan = &planned.plan;
    let system = &planned.machine;
    let disk = &system.disks[0].model;
    println!(
        "{} x {} ({} {}, {}) on {}",
        planned.disks,
        escape_controls(&disk.id),
        escape_controls(&disk.vendor),
        escape_controls(&disk.model),
        model::units::format_decimal(disk.capacity_bytes as f64),
        escape_controls(&system.name)
    );
    for a in &planned.assumed {
        println!("assumed: {a}");
    }
    let s = &planned.settings;
    println!(
        "workloads: read {}, write {}, random {}",
        s.read.label, s.write.label, s.random.label,
    );
    println!("{}", columns_note(s));
    let front = plan.on_front.iter().filter(|f| **f).count();
    let needs = if planned.needs.is_empty() {
        "no needs given".to_string()
    } else {
        let needs: Vec<String> = planned.needs.iter().map(|n| n.to_string()).collect();
        format!("{} meet {}", plan.evaluations.len(), needs.join(", "))
    };
    println!(
        "{} layout{} evaluated; {needs}; {front} on the Pareto front (*){}",
        plan.considered,
        if plan.considered == 1 { "" } else { "s" },
        if all {
            ""
        } else {
            ", shown (--all for every one)"
        }
    );
}

fn print_plan(planned: &DiskPlan, all: bool) {
    print_header(planned, all);
    let plan = &planned.plan;
    let s = &planned.settings;
    print!("{}", ruled_out(plan));
    println!();
    if let Some(own) = &plan.own {
        println!("your layout (=), the system file's:");
        print!("{}", table(&[&own.evaluation], &["= "], s));
        println!("{}", own.standing);
        println!();
    }
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
    print!("{}", because(plan));
    if let Some(mc) = &plan.monte_carlo {
        let d = &mc.pool_loss;
        println!(
            "check: a Monte Carlo of {} missions of {} years lost the pool in {} (P {}, 95% interval {} to {}; rebuilds of fixed length, where the closed form above assumes memoryless ones, so with double or triple parity it loses less); the closed form gives {}",
            mc.trials,
            s.years,
            d.hits,
            format_probability(d.p),
            format_probability(d.low),
            format_probability(d.high),
            chosen
                .closed_form
                .map_or("unknown".into(), |o| format_probability(o.pool_loss))
        );
    }
}

/// The chart's classes of P(data loss), by the plan's bands (the loss<= need, or the
/// recommendation's default target): a tenth of it, up to it, past it, and unknown. The label
/// of each, in the order of `LossBands::class`.
fn loss_labels(planned: &DiskPlan) -> [String; 4] {
    let bands = &planned.plan.loss_bands;
    let what = if bands.from_need {
        "the need"
    } else {
        "the default target"
    };
    let [tenth, target] = bands.limits.map(format_probability);
    [
        format!("P(data loss) <= {tenth}"),
        format!("P(data loss) <= {target} ({what})"),
        format!("P(data loss) > {target}"),
        "P(data loss) unknown".to_string(),
    ]
}

/// Usable space against sequential write, coloured by data-loss probability; the planner's
/// Pareto front (the table's `*`, over every figure) ringed and the recommendation named.
fn chart(planned: &DiskPlan) -> Chart {
    let plan = &planned.plan;
    let point = |e: &Evaluation| (e.avail_bytes as f64 / 1e12, e.write.bytes_per_s / 1e6);
    let series: Vec<Series> = loss_labels(planned)
        .into_iter()
        .enumerate()
        .map(|(band, label)| Series {
            label,
            points: plan
                .evaluations
                .iter()
                .filter(|e| plan.loss_bands.class(e.data_loss()) == band)
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
    let chosen = recommended(plan);
    let (x, y) = point(chosen);
    let loss = chosen
        .data_loss()
        .map_or("unknown".into(), format_probability);
    rings.push((
        x,
        y,
        format!("{} (P(data loss) {loss})", chosen.candidate.layout),
    ));
    Chart {
        title: format!(
            "{} x {}: usable space vs sequential write",
            planned.disks, planned.disk
        ),
        x_label: "usable space (AVAIL), TB".into(),
        y_label: format!("{}, MB/s", planned.settings.write.label),
        x_log2: false,
        x_ticks: vec![],
        series,
        highlights: rings,
        ring_legend: Some("ringed: the Pareto front (the table's *)".into()),
    }
}
