//! `zpoolsim results [ID]`: the stored benches, or one bench's runs.

use crate::bench::db_path;
use crate::error::CliResult;
use measure::bench::Bench;
use measure::store::Store;

/// List the benches in the results database, or show one: each run's workload, what fio
/// measured and what the model predicted before the run.
#[derive(clap::Args)]
pub struct Args {
    /// The bench to show (default: list them all).
    pub id: Option<i64>,
    /// The results database (default: $XDG_DATA_HOME/zpoolsim/results.sqlite).
    #[arg(long, value_name = "FILE")]
    pub db: Option<String>,
    /// Print JSON (a bench with its system file, fio's JSON, samples and predictions).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let store = Store::open_existing(&db_path(&args.db))?;
    match args.id {
        Some(id) => {
            let b = store.load(id)?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&b)?);
            } else {
                print_bench(&b);
            }
        }
        None => {
            let list = store.list()?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&list)?);
                return Ok(());
            }
            println!(
                "{:>4}  {:<20}  {:<16}  workloads",
                "id", "started (UTC)", "dataset"
            );
            for s in list {
                println!(
                    "{:>4}  {:<20}  {:<16}  {}",
                    s.id,
                    s.started,
                    s.dataset,
                    s.workloads.join(" ")
                );
            }
        }
    }
    Ok(())
}

/// One bench: its runs, measured and predicted.
pub fn print_bench(b: &Bench) {
    let id = b.id.map_or(String::new(), |i| format!(" {i}"));
    println!(
        "bench{id}: {} ({}), {}, zpoolsim {}",
        b.dataset, b.directory, b.started, b.zpoolsim_version
    );
    println!(
        "{:<40} {:>10} {:>10} {:>9} {:>12}  samples",
        "workload", "MB/s", "predicted", "IOPS", "latency ms"
    );
    for r in &b.runs {
        let predicted = r.prediction["throughput_bytes_per_s"]
            .as_f64()
            .unwrap_or(0.0);
        println!(
            "{:<40} {:>10.1} {:>10.1} {:>9.0} {:>12.2}  {}",
            r.workload,
            r.measured.throughput_bytes_per_s() / 1e6,
            predicted / 1e6,
            r.measured.iops,
            r.measured.mean_latency_s * 1e3,
            r.samples.len()
        );
    }
}
