//! `zpoolsim capacity`: what `zpool list` SIZE and `zfs list` AVAIL a pool will show, the
//! breakdown from raw bytes to AVAIL, the efficiency of each record size and what files cost.

use crate::error::CliResult;
use crate::files::{print_json, Files};
use crate::render::grouped;
use model::units::format_bytes;
use model::Pool;
use request::CapacityRequest;
use space::{Compression, FileCost, Op, SpaceReport};
use std::fmt::Write;

/// Pool capacity: zpool list SIZE, zfs list AVAIL, and every byte in between.
///
/// Either a system file, or --layout and --disk. A disk is a whole disk handed to zpool create
/// on Linux (partitioned as zpool does it) unless --file-vdevs says file vdevs.
///
/// Examples:
///
/// - zpoolsim capacity --layout "3x raidz1-5" --disk 750GB
///
/// - zpoolsim capacity --layout raidz2-6 --disk seagate-exos-x18-18tb --recordsize 1M --json
///
/// - zpoolsim capacity examples/seed-000-1320-box.toml --files 1K,64K,10M
///
/// - zpoolsim capacity --layout raidz1-4 --disk 16TB --expand "raidz1-4 -> raidz1-5 at 70%"
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: CapacityRequest,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let answer = args.request.answer(&Files)?;
    if args.json {
        return print_json(&answer);
    }
    let files = answer.files.as_deref().unwrap_or_default();
    print!(
        "{}",
        render(&answer.report, &answer.pool, files, answer.compression)
    );
    if let Some(x) = &answer.expansion {
        print!("{}", crate::raidz_expansion::render(x));
    }
    Ok(())
}

/// A record size the way `zfs set recordsize` writes it: 4K, 128K, 1M.
fn short_size(bytes: u64) -> String {
    space::zfs_nicenum(bytes)
}

fn render(r: &SpaceReport, pool: &Pool, files: &[FileCost], compression: Compression) -> String {
    let mut o = String::new();
    render_header(&mut o, r, pool);
    render_breakdown(&mut o, r);
    render_vdevs(&mut o, r);
    render_efficiency(&mut o, r);
    if !files.is_empty() {
        render_files(&mut o, r, files, compression);
    }
    let file_warnings = files.iter().filter_map(|f| f.warning.as_ref());
    let warnings: Vec<&String> = r.warnings.iter().chain(file_warnings).collect();
    if !warnings.is_empty() {
        let _ = writeln!(o);
        for w in warnings {
            let _ = writeln!(o, "warning: {w}");
        }
    }
    o
}

/// Each distinct kind of leaf: "18,000,207,937,536 B (16.37 TiB) whole disks".
fn disk_kinds(pool: &Pool) -> Vec<String> {
    let mut seen: Vec<(u64, bool, u32)> = Vec::new();
    for t in &pool.vdevs {
        let key = (
            t.leaf.capacity_bytes,
            t.leaf.whole_disk,
            t.leaf.logical_sector,
        );
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.iter()
        .map(|(b, whole, sector)| {
            format!(
                "{} B ({}) {}{}",
                grouped(*b),
                format_bytes(*b),
                if *whole { "whole disks" } else { "file vdevs" },
                if *sector != 512 {
                    format!(", {sector} B sectors")
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

fn render_header(o: &mut String, r: &SpaceReport, pool: &Pool) {
    let _ = writeln!(o, "pool:     {}", r.layout);
    let _ = writeln!(o, "disks:    {}", disk_kinds(pool).join("; "));
    let _ = writeln!(
        o,
        "settings: ashift {}, recordsize {}, {} rules ({})",
        r.ashift,
        short_size(r.recordsize),
        r.profile,
        r.profile_description
    );
    let _ = writeln!(o);
}

/// The lines from raw bytes to AVAIL, then SIZE and AVAIL as zpool and zfs print them.
fn render_breakdown(o: &mut String, r: &SpaceReport) {
    let _ = writeln!(o, "from raw bytes to AVAIL:");
    let width = r
        .breakdown
        .iter()
        .map(|l| grouped(l.bytes).len())
        .max()
        .unwrap_or(1);
    for l in &r.breakdown {
        let sign = match l.op {
            Op::Start => ' ',
            Op::Minus => '-',
            Op::Total => '=',
        };
        if l.op == Op::Total {
            let _ = writeln!(o, "  {}", "-".repeat(30 + width + 14));
        }
        let _ = writeln!(
            o,
            "{sign} {:<28} {:>width$}  {:>11}  {}",
            l.label,
            grouped(l.bytes),
            format_bytes(l.bytes),
            l.why
        );
    }
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "zpool list SIZE {}   zfs list AVAIL {}   ({:.1}% of the raw capacity usable)",
        r.size_display,
        r.avail_display,
        r.usable_share * 100.0
    );
    let _ = writeln!(o);
}

fn render_vdevs(o: &mut String, r: &SpaceReport) {
    let _ = writeln!(o, "vdevs:");
    for g in &r.groups {
        let zil = if g.embedded_log_metaslabs > 0 {
            ", 1 of them lent to the ZIL"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "  {:<7} {}: leaf asize {} B, vdev asize {} B, {} metaslabs of {}{zil}, tail {} lost, deflate ratio {}/512",
            g.class.word(),
            g.layout,
            grouped(g.leaf.asize),
            grouped(g.vdev_asize),
            g.metaslab_count,
            space::size_words(g.metaslab_size),
            format_bytes(g.lost_bytes),
            g.deflate_ratio
        );
    }
    let _ = writeln!(o);
}

fn render_efficiency(o: &mut String, r: &SpaceReport) {
    let _ = writeln!(
        o,
        "efficiency by recordsize (full records, ashift {}):",
        r.ashift
    );
    let _ = writeln!(
        o,
        "  {:>10}  {:>13}  {:>10}  {:>15}  {:>13}",
        "recordsize", "asize/record", "data share", "zfs list charge", "fits in AVAIL"
    );
    for e in &r.efficiency_by_recordsize {
        let asize: Vec<String> = e.groups.iter().map(|g| short_size(g.asize)).collect();
        let mark = if e.recordsize == r.recordsize {
            " <"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "  {:>10}  {:>13}  {:>9.1}%  {:>13.3} x  {:>13}{mark}",
            short_size(e.recordsize),
            asize.join("/"),
            e.efficiency * 100.0,
            e.charge_per_byte,
            format_bytes(e.fits_bytes)
        );
    }
}

fn render_files(o: &mut String, r: &SpaceReport, files: &[FileCost], compression: Compression) {
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "what files cost (recordsize {}, compression {}; data blocks only):",
        short_size(r.recordsize),
        if compression == Compression::On {
            "on"
        } else {
            "off"
        }
    );
    let _ = writeln!(
        o,
        "  {:>14}  {:>7}  {:>16}  {:>16}  {:>16}  {:>8}",
        "file bytes", "blocks", "allocated", "on the disks", "zfs list USED", "USED/size"
    );
    for f in files {
        let _ = writeln!(
            o,
            "  {:>14}  {:>7}  {:>16}  {:>16}  {:>16}  {:>8}",
            grouped(f.file_bytes),
            f.blocks,
            grouped(f.allocated_bytes),
            grouped(f.raw_bytes),
            grouped(f.used_bytes),
            f.used_per_byte
                .map_or("-".into(), |share| format!("{share:.2}"))
        );
    }
}
