//! `zpoolsim report [SYSTEM.toml]`: the main job. One page on a machine and its pool: the
//! space it gives, how fast it streams and serves random reads and what limits each, how long
//! a resilver takes and the chance of losing data, and the layout the planner would pick for
//! the same disks. Without a file it runs on the embedded default system.

use crate::error::CliResult;
use crate::files::{print_json, Files};
use crate::progress::while_working;
use crate::render::assessment;
use model::units::{format_bytes, format_decimal};
use request::ReportRequest;

/// The whole picture of one machine: space, speed, safety and the planner's pick.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: ReportRequest,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let r = while_working("space, speed, safety and the planner's pick", || {
        args.request.answer(&Files)
    })?;
    if args.json {
        return print_json(&r);
    }
    println!("{}", r.system);
    println!(
        "pool {} on {} disks, ashift {}",
        r.layout, r.disks, r.ashift
    );
    println!(
        "\nspace: zpool list SIZE {}, zfs list AVAIL {} = {} (TiB as zfs list prints them; the planner's figures below are decimal TB; zpoolsim capacity explains every byte)",
        format_bytes(r.capacity.size_bytes),
        format_bytes(r.capacity.avail_bytes),
        format_decimal(r.capacity.avail_bytes as f64)
    );
    if let Some(own) = &r.own {
        print!("{}", own_line(own));
    }
    println!("\nspeed on an empty pool, the data on the disks' outer tracks (zpoolsim predict for the details):");
    print!("{}", speeds(&r.workloads));
    if !r.over_network.is_empty() {
        let nics: Vec<String> = r
            .nics
            .iter()
            .map(|n| format!("{} x {} ({} Gb/s)", n.ports, n.name, n.gbps))
            .collect();
        println!(
            "\nspeed a client gets over the network ({}):",
            nics.join(", ")
        );
        print!("{}", speeds(&r.over_network));
    }
    print!("{}", assessment(&r.reliability));
    let roles = if r.roles.is_empty() {
        String::new()
    } else {
        format!("; keeping their roles: {}", r.roles.join(", "))
    };
    println!(
        "\nplanner's pick for the {} data disks{roles} ({} layouts considered): {}\n  {}",
        r.planned_disks, r.considered, r.recommendation.layout, r.recommendation.reason
    );
    for c in &r.recommendation.caveats {
        println!("  caveat: {c}");
    }
    Ok(())
}

/// The pool's own layout as the planner scores it, and where it stands.
fn own_line(own: &::plan::Own) -> String {
    use ::plan::Metric;
    let e = &own.evaluation;
    let loss = e
        .data_loss()
        .map_or("unknown".to_string(), |p| Metric::Loss.format(p));
    format!(
        "scored as the planner scores its layouts: {} usable, reads {}, writes {}, {} random reads, degraded {:.1} h after a failure, P(data loss) {loss}\n  {}\n",
        Metric::Avail.format(e.avail_bytes as f64),
        Metric::Read.format(e.read.bytes_per_s),
        Metric::Write.format(e.write.bytes_per_s),
        Metric::Iops.format(e.random.iops),
        e.degraded_hours,
        own.standing
    )
}

/// One line per workload: its figures and what limits it.
fn speeds(workloads: &[::plan::WorkloadFigures]) -> String {
    workloads
        .iter()
        .map(|w| {
            format!(
                "  {:<24} {:>12}/s {:>10.0} IOPS   {}\n",
                w.workload,
                format_decimal(w.bytes_per_s),
                w.iops,
                w.bottleneck
            )
        })
        .collect()
}
