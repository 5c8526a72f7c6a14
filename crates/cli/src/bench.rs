//! `zpoolsim bench DATASET_DIR`: runs the model's workloads with fio, keeps each run in the
//! results database with the prediction made before it; `--compare` sets measured beside
//! predicted.

use crate::args::{no_results_yet, Db};
use crate::error::{CliError, CliResult};
use crate::files::{catalog, print_json};
use crate::render;
use bench::{compare, BenchComparison, DiskTraffic, Percentiles, Plan, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use model::input::escape_controls;
use std::path::PathBuf;
use store::Store;

/// Measure a pool: run fio with job files that are the model's workloads in a directory it
/// creates inside the dataset (and removes afterwards), sample `zpool iostat` every second,
/// and store the system file, fio's JSON, the per-disk samples and the prediction made before
/// each run in the results database.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// A directory in the ZFS dataset to measure.
    pub dir: Option<String>,
    /// Workloads as `zpoolsim predict` names them (default: dd-write dd-read
    /// fio-randwrite:qd=8 fio-randread:qd=8 fio-randrw:qd=8).
    #[arg(long, num_args = 1.., value_name = "WORKLOAD")]
    pub workloads: Vec<String>,
    /// Bytes of files each workload works on (1M to 1T).
    #[arg(long, default_value = "1G")]
    pub size: String,
    /// Seconds each workload runs (1 to 3600).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub runtime: u32,
    #[command(flatten)]
    pub db: Db,
    /// Print measured beside predicted, per workload and per disk; without DIR, for the newest
    /// stored bench (or --id).
    #[arg(long)]
    pub compare: bool,
    /// With --compare and no DIR: the stored bench to compare.
    #[arg(long)]
    pub id: Option<i64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let Some(dir) = &args.dir else {
        if !args.compare {
            return Err(CliError(
                "give the dataset directory to measure, or --compare to compare a stored bench"
                    .into(),
            ));
        }
        let (mut store, newest) = match args.db.to_read()? {
            Ok(found) => found,
            Err(none) => return no_results_yet(&none, args.json, ()),
        };
        let id = args.id.unwrap_or(newest);
        return show_comparison(&compare(&store.load(id)?), args.json);
    };
    let data_bytes = bench::data_size(&args.size)?;
    let workloads = if args.workloads.is_empty() {
        bench::DEFAULT_WORKLOADS
            .iter()
            .map(|w| w.to_string())
            .collect()
    } else {
        args.workloads.clone()
    };
    let plan = Plan {
        directory: PathBuf::from(dir),
        workloads,
        data_bytes,
        runtime_s: args.runtime,
    };
    // The store is checked first: a damaged or locked one costs no measurement.
    let at = args.db.location()?;
    Store::check(&at)?;
    let ready = bench::prepare(&plan, catalog())?;
    let mut store = Store::open(&at)?;
    let bar = progress_bar();
    bench::stop_on_signals();
    let result = bench::bench(
        &ready,
        env!("CARGO_PKG_VERSION"),
        &mut |p| show(&bar, p),
        &mut |b, r| store.keep(b, r),
    );
    bar.finish_and_clear();
    let result = result?;
    if args.compare {
        return show_comparison(&compare(&result), args.json);
    }
    if args.json {
        return print_json(&result);
    }
    print!("{}", render::bench(&result));
    Ok(())
}

/// A bar of the bench's seconds with the time left; indicatif draws nothing when stderr is
/// not a terminal.
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    if let Ok(style) =
        ProgressStyle::with_template("{msg:32} [{bar:30}] {elapsed} elapsed, {eta} left")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn show(bar: &ProgressBar, p: &Progress) {
    bar.set_length(p.total_s as u64);
    bar.set_position(p.done_s as u64);
    bar.set_message(format!("{}/{} {}", p.index + 1, p.count, p.workload));
}

fn show_comparison(c: &BenchComparison, json: bool) -> CliResult {
    if json {
        return print_json(c);
    }
    let id = c.bench_id.map_or(String::new(), |i| format!(" {i}"));
    println!(
        "bench{id} on pool {}: measured beside predicted\n",
        escape_controls(&c.pool)
    );
    print_workloads(c);
    print_percentiles(c);
    println!("\nper disk, mean of each second of zpool iostat (predicted after the slash):");
    print_disks(c);
    println!();
    if c.findings.is_empty() {
        println!("findings: none (every workload within a third of its prediction, every disk with its peers)");
    } else {
        println!("findings:");
        for f in &c.findings {
            println!("  - {}", escape_controls(f));
        }
    }
    Ok(())
}

fn print_workloads(c: &BenchComparison) {
    println!(
        "{:<36} {:>9} {:>9} {:>6} {:>9} {:>9} {:>8} {:>8}",
        "workload", "MB/s", "pred", "ratio", "IOPS", "pred", "lat ms", "pred"
    );
    for w in &c.workloads {
        println!(
            "{:<36} {:>9.1} {:>9.1} {:>6.2} {:>9.0} {:>9.0} {:>8.2} {:>8.2}",
            escape_controls(&w.workload),
            w.measured_bytes_per_s / 1e6,
            w.predicted_bytes_per_s / 1e6,
            w.ratio,
            w.measured_iops,
            w.predicted_iops,
            w.measured_latency_s * 1e3,
            w.predicted_latency_s * 1e3
        );
    }
}

/// fio's clat percentiles of each side beside the simulated ones (one distribution over both
/// sides of a mix), in ms.
fn print_percentiles(c: &BenchComparison) {
    println!("\nlatency percentiles, ms (fio's clat/simulated):");
    println!(
        "{:<36} {:<5} {:>15} {:>15} {:>15} {:>15}",
        "workload", "side", "p50", "p90", "p99", "p99.9"
    );
    for w in &c.workloads {
        let pred = w.predicted_percentiles_s;
        let ms = |v: Option<f64>| v.map(|s| s * 1e3);
        let sides: Vec<(&str, Option<Percentiles>)> = if w.measured_clat_s.is_empty() {
            vec![("-", None)]
        } else {
            w.measured_clat_s
                .iter()
                .map(|s| (s.side, Some(s.clat_s)))
                .collect()
        };
        for (side, m) in sides {
            let col = |f: fn(&Percentiles) -> f64| {
                pair(ms(m.as_ref().map(f)), ms(pred.as_ref().map(f)), 3)
            };
            println!(
                "{:<36} {:<5} {:>15} {:>15} {:>15} {:>15}",
                escape_controls(&w.workload),
                side,
                col(|p| p.p50),
                col(|p| p.p90),
                col(|p| p.p99),
                col(|p| p.p999)
            );
        }
    }
}

/// `measured/predicted`, `-` where there is no figure.
fn pair(measured: Option<f64>, predicted: Option<f64>, digits: usize) -> String {
    let show = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    format!("{}/{}", show(measured), show(predicted))
}

/// One figure of a disk's traffic, in the unit its column shows.
type Figure = fn(&DiskTraffic) -> Option<f64>;

fn print_disks(c: &BenchComparison) {
    println!(
        "{:<24} {:<20} {:>13} {:>13} {:>13} {:>13} {:>9}",
        "workload", "disk", "read ops", "write ops", "read MB/s", "write MB/s", "busy %"
    );
    for d in &c.disks {
        let (m, p) = (Some(d.measured), d.predicted);
        let columns: [(Figure, usize); 5] = [
            (|t| Some(t.read_ops_per_s), 0),
            (|t| Some(t.write_ops_per_s), 0),
            (|t| Some(t.read_bytes_per_s / 1e6), 1),
            (|t| Some(t.write_bytes_per_s / 1e6), 1),
            (|t| t.utilization.map(|u| u * 100.0), 0),
        ];
        let cells: Vec<String> = columns
            .iter()
            .map(|(f, digits)| pair(m.as_ref().and_then(f), p.as_ref().and_then(f), *digits))
            .collect();
        let workload = escape_controls(&d.workload.chars().take(24).collect::<String>());
        let disk = escape_controls(d.device.rsplit('/').next().unwrap_or(&d.device));
        println!(
            "{workload:<24} {disk:<20} {:>13} {:>13} {:>13} {:>13} {:>9}",
            cells[0], cells[1], cells[2], cells[3], cells[4]
        );
    }
}
