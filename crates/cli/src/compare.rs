//! `zpoolsim compare SYSTEM.toml --layout A --layout B ...`: chosen layouts side by side on
//! one machine, as seed 001's table has them (capacity, random reads, sequential read and
//! write), with the time a vdev stays degraded and the chances of losing the pool or blocks.

use crate::error::CliResult;
use crate::files::{load_system, print_json, Files};
use crate::progress::while_working;
use crate::render::{columns_note, figure, table};
use ::plan::Evaluation;
use model::input::escape_controls;
use model::Layout;
use request::Criteria;
use std::path::Path;

/// Compare layouts on one machine's disks (disks a layout leaves over become hot spares).
#[derive(clap::Args)]
pub struct Args {
    /// The system file: its hardware and disks (its own pool layout is not used).
    pub system: String,
    /// A layout to compare, as zpool create builds it ('3x raidz1-5'); give several.
    #[arg(long = "layout", required = true)]
    pub layouts: Vec<String>,
    #[command(flatten)]
    pub criteria: Criteria,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let system = load_system(Path::new(&args.system))?;
    let layouts = args
        .layouts
        .iter()
        .map(|l| l.parse::<Layout>())
        .collect::<Result<Vec<_>, _>>()?;
    let settings = args.criteria.settings(&Files)?;
    let comparison = while_working("comparing the layouts", || {
        ::plan::compare(&system, &layouts, &settings)
    })?;
    if args.json {
        return print_json(&comparison);
    }
    println!("{}", escape_controls(&system.name));
    println!(
        "{} disks of {}",
        system.disks.len(),
        escape_controls(system.disks.first().map_or("?", |d| d.model.id.as_str())),
    );
    println!("{}", columns_note(&settings));
    println!();
    let refs: Vec<&Evaluation> = comparison.layouts.iter().collect();
    print!("{}", table(&refs, &[], &settings));
    // Each figure as the table prints it, then what limits it (a bound: the figure is at or
    // under it).
    for row in &comparison.layouts {
        for (w, labelled) in row.workloads().zip(settings.workloads()) {
            println!(
                "{} {} {}: {}",
                row.candidate.layout,
                w.workload,
                figure(w, labelled),
                w.bottleneck
            );
        }
    }
    Ok(())
}
