//! `zpoolsim results [ID]`: the stored benches, or one bench's runs; `--push URL` copies them
//! into a team's database.

use crate::args::{no_results_yet, Db};
use crate::error::{CliError, CliResult};
use crate::files::print_json;
use crate::render;
use model::input::escape_controls;
use store::{BenchSummary, Location, Store};

/// List the benches in the results store, or show one: each run's workload, what fio
/// measured and what the model predicted before the run. `--push` copies this store's
/// benches into another (a team's PostgreSQL), each once.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The bench to show (default: list them all).
    pub id: Option<i64>,
    #[command(flatten)]
    pub db: Db,
    /// Copy every bench of the store into this one (postgres://USER@HOST/DB, or a SQLite
    /// file), skipping those it already holds; each bench is written whole or not at all.
    #[arg(long, value_name = "URL", conflicts_with = "id")]
    pub push: Option<String>,
    /// Print JSON (a bench with its system file, fio's JSON, samples and predictions).
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let at = args.db.location()?;
    let mut store = match args.db.to_read()? {
        Ok((store, _)) => store,
        // A bench's JSON is an object: null stands for none.
        Err(none) if args.id.is_some() => return no_results_yet(&none, args.json, ()),
        Err(none) => return no_results_yet(&none, args.json, Vec::<BenchSummary>::new()),
    };
    if let Some(url) = &args.push {
        return push(&mut store, &at, url, args.json);
    }
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
                "{:>4}  {:<20}  {:<16}  {:<16}  workloads",
                "id", "started (UTC)", "host", "dataset"
            );
            for s in list {
                println!(
                    "{:>4}  {:<20}  {:<16}  {:<16}  {}",
                    s.id,
                    escape_controls(&s.started),
                    escape_controls(&s.host),
                    escape_controls(&s.dataset),
                    escape_controls(&s.workloads.join(" "))
                );
            }
        }
    }
    Ok(())
}

fn push(store: &mut Store, from: &Location, url: &str, json: bool) -> CliResult {
    let to = Location::from_flag(Some(url))?;
    if to == *from {
        return Err(CliError(format!("--push {to}: that is the store itself")));
    }
    let mut target = Store::open(&to)?;
    let pushed = store.push_to(&mut target)?;
    if json {
        return print_json(&pushed);
    }
    println!(
        "pushed {} benches to {to}; {} were there already; {} skipped",
        pushed.copied.len(),
        pushed.already,
        pushed.skipped.len()
    );
    for s in &pushed.skipped {
        println!("  skipped {}", escape_controls(s));
    }
    Ok(())
}
