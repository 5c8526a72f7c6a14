//! `zpoolsim capacity`: what `zpool list` SIZE and `zfs list` AVAIL a pool will show, the
//! breakdown from raw bytes to AVAIL, the efficiency of each record size and what files cost.

use crate::error::{CliError, CliResult};
use crate::files::load_system;
use model::hardware::DiskModel;
use model::pool::{auto_ashift, ASSUMED_ASHIFT};
use model::units::{format_bytes, parse_size};
use model::ZfsRelease;
use model::{Layout, Leaf, Pool};
use serde::Serialize;
use space::{Compression, FileCost, Op, PhysicalSector, Profile, SpaceReport};
use std::path::Path;

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
#[derive(clap::Args)]
pub struct Args {
    /// A system file (hardware and pool). Without it, give --layout and --disk.
    #[arg(value_name = "SYSTEM.toml")]
    pub system: Option<String>,
    /// The pool layout: stripe-N, mirror-N, raidz1-N .. raidz3-N, draid<p>:<d>d:<c>c:<s>s,
    /// 'Kx' repeats a group, '+' joins groups ("2x raidz2-6 + mirror-2").
    #[arg(long, allow_hyphen_values = true)]
    pub layout: Option<String>,
    /// A disk: a catalog id, or a size (750GB and 4TB decimal as drives are sold, 3.5TiB
    /// binary, plain bytes).
    #[arg(long, allow_hyphen_values = true)]
    pub disk: Option<String>,
    /// log2 of the sector ZFS allocates in: 9 (512 B) to 16; default: what zpool create
    /// picks for a catalog disk or --sector (its physical sector from ZoL 0.6 / FreeBSD 10 on),
    /// 12 (4 KiB) for a disk given by size, or the system file's.
    #[arg(long, allow_hyphen_values = true)]
    pub ashift: Option<String>,
    /// The recordsize the warnings and --files use (default 128K, or the system file's first
    /// dataset's).
    #[arg(long, allow_hyphen_values = true)]
    pub recordsize: Option<String>,
    /// The disks are file vdevs (or partitions): no GPT is made on them.
    #[arg(long)]
    pub file_vdevs: bool,
    /// Logical sector of a --disk given as a size: 512 (default) or 4096 (4Kn).
    #[arg(long, allow_hyphen_values = true)]
    pub sector: Option<String>,
    /// The ZFS release that created the pool, whose rules apply: openzfs-2.2 (or 2.2),
    /// zol-0.6.5, freebsd-10.2, solaris-2008, zfs-fuse; the default is the current OpenZFS.
    /// A system file's host.zfs picks it otherwise.
    #[arg(long, value_name = "RELEASE")]
    pub zfs: Option<String>,
    /// What files of these sizes cost at the recordsize: 1K,64K,10M.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub files: Vec<String>,
    /// With --files: the pool compresses, so the zero tail of a file's last record costs
    /// nothing (the data itself is taken as incompressible).
    #[arg(long)]
    pub compression: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The JSON document: the report's fields, and the files when asked.
#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    report: &'a SpaceReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<&'a [FileCost]>,
}

pub fn run(args: &Args) -> CliResult {
    let (pool, profile, physical) = resolve(args)?;
    let report = space::pool_space_on(&pool, &profile, &physical)?;
    let recordsize = report.recordsize;
    let compression = if args.compression {
        Compression::On
    } else {
        Compression::Off
    };
    let files = args
        .files
        .iter()
        .map(|text| {
            let bytes = parse_size(text).map_err(|e| CliError(format!("--files: {e}")))?;
            Ok(space::file_cost_with(
                &pool,
                &profile,
                recordsize,
                bytes,
                compression,
            )?)
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    if args.json {
        let out = Output {
            report: &report,
            files: (!args.files.is_empty()).then_some(files.as_slice()),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", render(&report, &pool, &files, compression));
    }
    Ok(())
}

/// The pool, the rules to apply and the physical sectors of the catalog disks in it, from a
/// system file or from the flags.
fn resolve(args: &Args) -> Result<(Pool, Profile, Vec<PhysicalSector>), CliError> {
    let release = match &args.zfs {
        Some(name) => Some(
            name.parse::<ZfsRelease>()
                .map_err(|e| CliError(format!("--zfs: {e}")))?,
        ),
        None => None,
    };
    let ashift = match &args.ashift {
        Some(text) => Some(text.trim().parse::<u8>().map_err(|_| {
            CliError(format!(
                "--ashift '{text}': expected a whole number from 9 to 16"
            ))
        })?),
        None => None,
    };
    let (mut pool, profile, physical) = match &args.system {
        Some(path) => {
            if args.layout.is_some() || args.disk.is_some() || args.sector.is_some() {
                return Err(CliError(
                    "give either a system file or --layout and --disk, not both".into(),
                ));
            }
            let system = load_system(Path::new(path))?;
            let profile = Profile::of(release.unwrap_or(system.host.zfs));
            let physical = system
                .disks
                .iter()
                .map(|d| physical_sector(&d.model))
                .collect();
            (system.pool, profile, physical)
        }
        None => {
            let (Some(layout), Some(disk)) = (&args.layout, &args.disk) else {
                return Err(CliError(match (&args.layout, &args.disk) {
                    (Some(_), None) => "give --disk: a size like 4TB or a catalog id".into(),
                    (None, Some(_)) => "give --layout, like \"3x raidz1-5\"".into(),
                    _ => "give a system file, or --layout and --disk (zpoolsim capacity --help)"
                        .into(),
                }));
            };
            let layout: Layout = layout.parse()?;
            let release = release.unwrap_or_default();
            let (leaf, physical) = disk_leaf(disk, args)?;
            let ashift = match (physical.first(), &args.sector) {
                (Some(p), _) => auto_ashift(leaf.logical_sector, p.bytes, release),
                (None, Some(_)) => auto_ashift(leaf.logical_sector, leaf.logical_sector, release),
                (None, None) => ASSUMED_ASHIFT,
            };
            (
                Pool::simple(layout, leaf, ashift),
                Profile::of(release),
                physical,
            )
        }
    };
    if let Some(a) = ashift {
        pool.ashift = a;
    }
    if args.file_vdevs {
        for top in &mut pool.vdevs {
            top.leaf.whole_disk = false;
        }
    }
    if let Some(text) = &args.recordsize {
        let rs = parse_size(text).map_err(|e| CliError(format!("--recordsize: {e}")))?;
        match pool.datasets.first_mut() {
            Some(d) => d.recordsize = rs,
            None => pool.datasets.push(model::Dataset {
                recordsize: rs,
                ..model::Dataset::named(&pool.name)
            }),
        }
    }
    Ok((pool, profile, physical))
}

fn physical_sector(model: &DiskModel) -> PhysicalSector {
    PhysicalSector {
        disk: model.id.clone(),
        bytes: model.physical_sector,
    }
}

/// The leaf of `--disk`: a size (physical sector unknown), or a catalog id.
fn disk_leaf(text: &str, args: &Args) -> Result<(Leaf, Vec<PhysicalSector>), CliError> {
    let whole_disk = !args.file_vdevs;
    let sector = match &args.sector {
        Some(s) => Some(
            s.trim()
                .parse::<u32>()
                .map_err(|_| CliError(format!("--sector '{s}': expected 512 or 4096")))?,
        ),
        None => None,
    };
    let looks_like_size = text
        .trim()
        .starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+');
    if looks_like_size {
        let bytes = parse_size(text).map_err(|e| CliError(format!("--disk: {e}")))?;
        let leaf = Leaf {
            capacity_bytes: bytes,
            logical_sector: sector.unwrap_or(512),
            whole_disk,
        };
        return Ok((leaf, Vec::new()));
    }
    let model = crate::files::catalog().disk(text.trim()).map_err(|e| {
        CliError(format!(
            "--disk is neither a size (750GB, 4TB, 3.5TiB, bytes) nor a catalog id: {e}"
        ))
    })?;
    let leaf = Leaf {
        capacity_bytes: model.capacity_bytes,
        logical_sector: sector.unwrap_or(model.logical_sector),
        whole_disk,
    };
    Ok((leaf, vec![physical_sector(model)]))
}

/// 1234567 -> "1,234,567".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A record size the way `zfs set recordsize` writes it: 4K, 128K, 1M.
fn short_size(bytes: u64) -> String {
    space::zfs_nicenum(bytes)
}

fn render(r: &SpaceReport, pool: &Pool, files: &[FileCost], compression: Compression) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let disks: Vec<String> = {
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
    };
    let _ = writeln!(o, "pool:     {}", r.layout);
    let _ = writeln!(o, "disks:    {}", disks.join("; "));
    let _ = writeln!(
        o,
        "settings: ashift {}, recordsize {}, {} rules ({})",
        r.ashift,
        short_size(r.recordsize),
        r.profile,
        r.profile_description
    );
    let _ = writeln!(o);
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
    if !files.is_empty() {
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
