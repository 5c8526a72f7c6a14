//! `zpoolsim results [ID]`: the stored benches, or one bench's runs.

use crate::args::Db;
use crate::error::CliResult;
use crate::files::print_json;
use crate::render;
use measure::Store;

/// List the benches in the results database, or show one: each run's workload, what fio
/// measured and what the model predicted before the run.
#[derive(clap::Args)]
pub struct Args {
    /// The bench to show (default: list them all).
    pub id: Option<i64>,
    #[command(flatten)]
    pub db: Db,
    /// Print JSON (a bench with its system file, fio's JSON, samples and predictions).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let store = Store::open_existing(&args.db.path())?;
    match args.id {
        Some(id) => {
            let b = store.load(id)?;
            if args.json {
                return print_json(&b);
            }
            print!("{}", render::bench(&b));
        }
        None => {
            let list = store.list()?;
            if args.json {
                return print_json(&list);
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
