//! `zpoolsim catalog`: the hardware models zpoolsim knows (disks, controllers, CPUs, kinds of
//! bus and link), their key figures and the source of each, from the embedded catalog plus any
//! catalog files of the user's own.

use crate::error::CliResult;
use model::catalog::DEFAULT_SOURCE;
use model::hardware::{ControllerModel, CpuModel, DiskModel, LinkKind, LinkModel, Simd, Sources};
use model::input::escape_controls;
use model::units::format_decimal;
use serde::Serialize;
use std::fmt::Write;

/// List the hardware catalog: disks, controllers, CPUs and links, with the source of every figure.
///
/// With `--catalog USER.toml` (a file in the catalog's own format: [[disk]], [[controller]],
/// [[cpu]], [[link]] tables, see docs/system-file.md) its entries add to the embedded ones or
/// replace those of the same id, here and in every other command.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// List only one kind of entry.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Kind {
    Disk,
    Controller,
    Cpu,
    Link,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let catalog = crate::files::catalog();
    let shown = |kind: Kind| args.kind.is_none_or(|k| k == kind);
    if args.json {
        let listing = Listing {
            disks: shown(Kind::Disk).then(|| catalog.disks.values().collect()),
            controllers: shown(Kind::Controller).then(|| catalog.controllers.values().collect()),
            cpus: shown(Kind::Cpu).then(|| catalog.cpus.values().collect()),
            links: shown(Kind::Link).then(|| catalog.links.values().collect()),
        };
        return emit(&(serde_json::to_string_pretty(&listing)? + "\n"));
    }
    let mut out = String::new();
    if shown(Kind::Disk) {
        section(&mut out, "Disks", catalog.disks.values(), disk_line, |d| {
            &d.sources
        });
    }
    if shown(Kind::Controller) {
        section(
            &mut out,
            "Controllers",
            catalog.controllers.values(),
            controller_line,
            |c| &c.sources,
        );
    }
    if shown(Kind::Cpu) {
        section(&mut out, "CPUs", catalog.cpus.values(), cpu_line, |c| {
            &c.sources
        });
    }
    if shown(Kind::Link) {
        section(&mut out, "Links", catalog.links.values(), link_line, |l| {
            &l.sources
        });
    }
    emit(&out)
}

/// Prints to stdout; a reader that stops early (`| head`) is not an error.
fn emit(text: &str) -> CliResult {
    match std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The JSON listing: the kinds asked for, entries with every field in the catalog's order.
#[derive(Serialize)]
struct Listing<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    disks: Option<Vec<&'a DiskModel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    controllers: Option<Vec<&'a ControllerModel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cpus: Option<Vec<&'a CpuModel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    links: Option<Vec<&'a LinkModel>>,
}

/// One heading, then per entry its key figures on one line and its sources under it.
fn section<'a, T: 'a>(
    out: &mut String,
    title: &str,
    entries: impl Iterator<Item = &'a T>,
    line: fn(&T) -> String,
    sources: fn(&T) -> &Sources,
) {
    let _ = writeln!(out, "{title}");
    for entry in entries {
        // A user's catalog file may hold any character: none reaches the terminal raw.
        let _ = writeln!(out, "  {}", escape_controls(&line(entry)));
        let sources = sources(entry);
        if let Some(default) = sources.get(DEFAULT_SOURCE) {
            let _ = writeln!(out, "      source: {}", escape_controls(default));
        }
        for (figure, citation) in sources.iter().filter(|(k, _)| *k != DEFAULT_SOURCE) {
            let line = format!("{figure}: {citation}");
            let _ = writeln!(out, "      {}", escape_controls(&line));
        }
    }
    out.push('\n');
}

fn disk_line(d: &DiskModel) -> String {
    let mut figures = vec![
        format!(
            "{} {} {} Gb/s",
            lower(d.medium),
            lower(d.interface),
            d.interface_gbps
        ),
        format!(
            "{} ({} B)",
            format_decimal(d.capacity_bytes as f64),
            d.capacity_bytes
        ),
        format!("sectors {}/{}", d.logical_sector, d.physical_sector),
    ];
    if let Some(rpm) = d.rpm {
        figures.push(format!("{rpm} rpm"));
    }
    figures.push(format!(
        "seq {}/{} MB/s outer/inner",
        d.seq_outer_mb_s,
        round(d.seq_inner_mb_s)
    ));
    if let Some(w) = d.seq_write_mb_s {
        figures.push(format!("write {w} MB/s"));
    }
    if let Some(r) = d.avg_seek_read_ms {
        let w = d
            .avg_seek_write_ms
            .map_or(String::new(), |w| format!("/{w}"));
        figures.push(format!("seek {r}{w} ms"));
    }
    if let Some(iops) = d.random_read_iops {
        figures.push(format!("{iops} random reads/s"));
    }
    if let (Some(r), Some(w)) = (d.read_latency_us, d.write_latency_us) {
        figures.push(format!("QD1 {r}/{w} us read/write"));
    }
    if d.power_loss_protection == Some(true) {
        figures.push("power-loss protection".into());
    }
    if d.volatile_write_cache == Some(false) {
        figures.push("no volatile write cache".into());
    }
    figures.push(format!("queue {}", d.queue_depth));
    format!("{:<28} {}", d.id, figures.join(", "))
}

fn controller_line(c: &ControllerModel) -> String {
    let mut figures = vec![
        format!("{} x {} {} Gb/s", c.ports, lower(c.interface), c.port_gbps),
        c.host_interface.clone(),
    ];
    if let Some(limit) = c.port_limit_mb_s {
        figures.push(format!("{limit} MB/s per port"));
    }
    if let Some(limit) = c.chip_limit_mb_s {
        figures.push(format!("{limit} MB/s per chip"));
    }
    if let Some(rate) = c.enclosure_mb_s {
        figures.push(format!("enclosure rated {rate} MB/s"));
    }
    let queueing = if c.command_queueing {
        "queues commands"
    } else {
        "no command queueing"
    };
    figures.push(queueing.to_string());
    format!("{:<28} {}", c.id, figures.join(", "))
}

fn cpu_line(c: &CpuModel) -> String {
    let simd = match c.simd {
        Simd::Scalar => "scalar",
        Simd::Sse2 => "SSE2",
        Simd::Avx2 => "AVX2",
        Simd::Avx512 => "AVX-512",
    };
    let sha = if c.sha_ni { ", SHA-NI" } else { "" };
    let memory = c
        .memory_mb_s
        .map_or(String::new(), |m| format!(", memory {} GB/s", m / 1000.0));
    format!(
        "{:<28} {} cores/{} threads, {} GHz, {simd}{sha}{memory}, {}",
        c.id, c.cores, c.threads, c.ghz, c.year
    )
}

fn link_line(l: &LinkModel) -> String {
    let figures = match l.kind {
        LinkKind::Pci { bits, mhz } => format!("PCI {bits}-bit/{mhz} MHz, shared"),
        LinkKind::PciX { bits, mhz } => format!("PCI-X {bits}-bit/{mhz} MHz, shared"),
        LinkKind::Pcie {
            gen,
            lanes,
            max_payload,
        } => format!("PCIe gen {gen} x{lanes}, {max_payload}-byte payload"),
        LinkKind::Uplink { mb_s } => format!("{mb_s} MB/s each way"),
    };
    format!("{:<28} {figures}: {}", l.id, l.name)
}

/// An enum as the catalog files write it (`hdd`, `sata`).
fn lower(value: impl std::fmt::Debug) -> String {
    format!("{value:?}").to_lowercase()
}

/// Estimated figures carry many decimals; one is enough to read.
fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_show_the_key_figures() {
        let c = model::Catalog::embedded();
        assert_eq!(
            disk_line(c.disk("samsung-hd753lj").unwrap()),
            "samsung-hd753lj              hdd sata 3 Gb/s, 750.2 GB (750156374016 B), sectors 512/512, 7200 rpm, seq 81/44.6 MB/s outer/inner, queue 32"
        );
        assert_eq!(
            controller_line(c.controller("sil3124").unwrap()),
            "sil3124                      4 x sata 3 Gb/s, PCI-X 64-bit/133 MHz (also runs in a 32-bit PCI slot), 87 MB/s per port, no command queueing"
        );
        assert_eq!(
            cpu_line(c.cpu("intel-core-i7-920").unwrap()),
            "intel-core-i7-920            4 cores/8 threads, 2.66 GHz, SSE2, memory 25.6 GB/s, 2008"
        );
        assert_eq!(
            link_line(c.link("pcix-64-133").unwrap()),
            "pcix-64-133                  PCI-X 64-bit/133.33 MHz, shared: PCI-X, 64-bit/133 MHz segment"
        );
    }

    #[test]
    fn a_bad_user_file_is_one_located_line() {
        let path =
            std::env::temp_dir().join(format!("zpoolsim-catalog-{}.toml", std::process::id()));
        std::fs::write(&path, "[[cpu]]\nid = \"x\"\ncores = \"two\"\n").unwrap();
        let e = crate::files::merged_catalog(&[path.display().to_string()])
            .unwrap_err()
            .to_string();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            e,
            format!(
                "{}:3:9: invalid type: string \"two\", expected u32",
                path.display()
            )
        );
    }
}
