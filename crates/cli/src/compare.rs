//! `zpoolsim compare SYSTEM.toml --layout A --layout B ...`: chosen layouts side by side on
//! one machine, as seed 001's table has them (capacity, random reads, sequential read and
//! write), with the time a vdev stays degraded and the chances of losing the pool or blocks.

use crate::error::CliResult;
use crate::files::{print_json, Files};
use crate::progress::while_working;
use crate::render::{columns_note, figure, table};
use ::plan::Evaluation;
use model::input::escape_controls;
use request::CompareRequest;

/// Compare layouts on one machine's disks (disks a layout leaves over become hot spares).
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: CompareRequest,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let comparison = while_working("comparing the layouts", || args.request.answer(&Files))?;
    if args.json {
        return print_json(&comparison);
    }
    let settings = &comparison.settings;
    println!("{}", escape_controls(&comparison.system));
    println!(
        "{} disks of {}",
        comparison.disks,
        escape_controls(comparison.disk.as_deref().unwrap_or("?")),
    );
    println!("{}", columns_note(settings));
    println!();
    let refs: Vec<&Evaluation> = comparison.layouts.iter().collect();
    print!("{}", table(&refs, &[], settings));
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
