//! `zpoolsim compare SYSTEM.toml --layout A --layout B ...`: chosen layouts side by side on
//! one machine, as seed 001's table has them (capacity, random reads, sequential read and
//! write), with the time a vdev stays degraded and the chances of losing the pool or blocks.
//! Also the table and JSON rows `zpoolsim plan` prints.

use crate::error::{CliError, CliResult};
use crate::files::{load_system, load_workload};
use ::plan::evaluate::{REPLACEMENT_HOURS, STANDARD_WORKLOADS};
use ::plan::needs::format_probability;
use ::plan::{Evaluation, LabelledWorkload, Metric, Settings};
use model::Layout;
use serde_json::{json, Value};
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
    pub measure: Measure,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// What each layout is measured by; shared with `zpoolsim plan`.
#[derive(clap::Args)]
pub struct Measure {
    /// The sequential-read workload (the READ column, `read>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[0])]
    pub read: String,
    /// The sequential-write workload (the WRITE column, `write>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[1])]
    pub write: String,
    /// The random-read workload (the RAND/s column, `iops>=` needs).
    #[arg(long, default_value = STANDARD_WORKLOADS[2])]
    pub random: String,
    /// More workloads to show, NAME[:key=value,...] or a workload file; repeat for several.
    #[arg(long = "workload")]
    pub workloads: Vec<String>,
    /// How full the pool is: what a resilver rebuilds ('80%' or 0.8).
    #[arg(long, default_value = "80%")]
    pub fill: String,
    /// The mission over which the loss probability is given, years.
    #[arg(long, default_value_t = 5.0)]
    pub years: f64,
}

impl Measure {
    pub fn settings(&self) -> Result<Settings, CliError> {
        let workloads = [&self.read, &self.write, &self.random]
            .into_iter()
            .chain(&self.workloads)
            .map(|spec| {
                Ok(LabelledWorkload {
                    label: spec.clone(),
                    workload: load_workload(spec)?,
                })
            })
            .collect::<Result<Vec<_>, CliError>>()?;
        reliability::montecarlo::mission_hours(self.years)
            .map_err(|e| CliError(format!("--years: {e}")))?;
        Ok(Settings {
            workloads,
            fill: parse_fill(&self.fill)?,
            years: self.years,
        })
    }
}

/// `80%` or `0.8`, between 0 and 1.
pub fn parse_fill(text: &str) -> Result<f64, CliError> {
    let (number, divisor) = match text.trim().strip_suffix('%') {
        Some(n) => (n, 100.0),
        None => (text.trim(), 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|v| v / divisor)
        .filter(|f| (0.0..=1.0).contains(f))
        .ok_or_else(|| {
            CliError(format!(
                "--fill '{text}': expected a share of the pool like 80% or 0.8"
            ))
        })
}

pub fn run(args: &Args) -> CliResult {
    let system = load_system(Path::new(&args.system))?;
    let layouts = args
        .layouts
        .iter()
        .map(|l| l.parse::<Layout>())
        .collect::<Result<Vec<_>, _>>()?;
    let settings = args.measure.settings()?;
    let rows = ::plan::compare(&system, &layouts, &settings)?;
    if args.json {
        let value = json!({
            "system": system.name,
            "fill": settings.fill,
            "years": settings.years,
            "layouts": rows.iter().map(row_json).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    println!("{}", system.name);
    println!(
        "{} disks of {}",
        system.disks.len(),
        system.disks.first().map_or("?", |d| d.model.id.as_str()),
    );
    println!("{}", columns_note(&settings));
    println!();
    let refs: Vec<&Evaluation> = rows.iter().collect();
    print!("{}", table(&refs, &[], &settings));
    for (row, bottleneck) in rows
        .iter()
        .flat_map(|r| r.workloads.iter().map(move |w| (r, w)))
    {
        println!(
            "{} {}: {}",
            row.candidate.layout, bottleneck.workload, bottleneck.bottleneck
        );
    }
    Ok(())
}

/// One row as JSON: every figure in base units (bytes, bytes/s, hours, probability).
pub fn row_json(e: &Evaluation) -> Value {
    json!({
        "layout": e.candidate.layout.to_string(),
        "hot_spares": e.candidate.hot_spares,
        "size_bytes": e.size_bytes,
        "avail_bytes": e.avail_bytes,
        "read_bytes_per_s": e.read_bytes_per_s,
        "write_bytes_per_s": e.write_bytes_per_s,
        "random_read_iops": e.random_read_iops,
        "workloads": e.workloads.iter().map(|w| json!({
            "workload": w.workload,
            "bytes_per_s": w.bytes_per_s,
            "iops": w.iops,
            "bottleneck": w.bottleneck,
        })).collect::<Vec<_>>(),
        "degraded_hours": e.degraded_hours,
        "pool_loss_probability": e.pool_loss_probability,
        "block_loss_probability": e.block_loss_probability,
        "usd_per_usable_tb": e.usd_per_usable_tb,
    })
}

/// What the DEGRADED and loss columns mean, in one line.
pub fn columns_note(settings: &Settings) -> String {
    format!(
        "DEGRADED: hours a vdev runs with less redundancy after a disk fails, pool {:.0}% full (dRAID with a distributed spare: its sequential rebuild; else the resilver, after {REPLACEMENT_HOURS} h for a new disk when there is no hot spare); over {} years, P(POOL LOSS): the pool is lost, P(BLOCK LOSS): an unrecoverable read error loses blocks while a vdev has no redundancy left",
        settings.fill * 100.0,
        settings.years
    )
}

/// The rows as an aligned table; `marks` (one per row, or none) prefixes each layout. Columns
/// for the workloads past the standard three are added by their labels.
pub fn table(rows: &[&Evaluation], marks: &[&str], settings: &Settings) -> String {
    let extra: Vec<&str> = settings.workloads[3..]
        .iter()
        .map(|w| w.label.as_str())
        .collect();
    let mut header: Vec<String> = [
        "LAYOUT",
        "SPARES",
        "AVAIL",
        "READ",
        "WRITE",
        "RAND/s",
        "DEGRADED",
        "P(POOL LOSS)",
        "P(BLOCK LOSS)",
        "$/TB",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(extra.iter().map(|s| s.to_string()));
    let mut lines = vec![header];
    for (i, e) in rows.iter().enumerate() {
        let mark = marks.get(i).copied().unwrap_or("");
        let mut line = vec![
            format!("{mark}{}", e.candidate.layout),
            e.candidate.hot_spares.to_string(),
            Metric::Avail.format(e.avail_bytes as f64),
            Metric::Read.format(e.read_bytes_per_s),
            Metric::Write.format(e.write_bytes_per_s),
            format!("{:.0}", e.random_read_iops),
            if e.candidate.layout.redundancy() == 0 {
                "-".to_string()
            } else {
                format!("{:.1} h", e.degraded_hours)
            },
            probability(e.pool_loss_probability),
            probability(e.block_loss_probability),
            e.usd_per_usable_tb
                .map_or("-".to_string(), |usd| format!("{usd:.0}")),
        ];
        line.extend(
            e.workloads[3..]
                .iter()
                .zip(&settings.workloads[3..])
                .map(|(figures, w)| {
                    if w.workload.access.is_sequential() {
                        Metric::Read.format(figures.bytes_per_s)
                    } else {
                        format!("{:.0}/s", figures.iops)
                    }
                }),
        );
        lines.push(line);
    }
    let widths: Vec<usize> = (0..lines[0].len())
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in &lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| {
                if c == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A probability as the table shows it.
fn probability(p: Option<f64>) -> String {
    p.map_or("unknown".to_string(), format_probability)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::plan::{Candidate, WorkloadFigures};

    fn figures(label: &str, bytes_per_s: f64, iops: f64) -> WorkloadFigures {
        WorkloadFigures {
            workload: label.into(),
            bytes_per_s,
            iops,
            bottleneck: String::new(),
        }
    }

    #[test]
    fn table_of_two_layouts() {
        let measure = Measure {
            read: "dd-read".into(),
            write: "dd-write".into(),
            random: "fio-randread:qd=32".into(),
            workloads: vec!["bonnie-seeks".into()],
            fill: "80%".into(),
            years: 5.0,
        };
        let settings = measure.settings().unwrap();
        let row = |layout: &str, spares, loss| Evaluation {
            candidate: Candidate {
                layout: layout.parse().unwrap(),
                hot_spares: spares,
            },
            size_bytes: 0,
            avail_bytes: 5_876_557_906_160,
            read_bytes_per_s: 516.5e6,
            write_bytes_per_s: 412.4e6,
            random_read_iops: 223.4,
            workloads: vec![
                figures("dd-read", 516.5e6, 492.6),
                figures("dd-write", 412.4e6, 393.3),
                figures("fio-randread:qd=32", 0.9e6, 223.4),
                figures("bonnie-seeks", 1.3e6, 154.2),
            ],
            degraded_hours: 1.94,
            pool_loss_probability: loss,
            block_loss_probability: loss.map(|p| p / 4.0),
            usd_per_usable_tb: Some(12.3),
        };
        let rows = [
            row("3x raidz1-5", 0, None),
            row("stripe-15", 1, Some(0.0123)),
        ];
        let refs: Vec<&Evaluation> = rows.iter().collect();
        assert_eq!(
            table(&refs, &["> ", "* "], &settings),
            "\
LAYOUT         SPARES   AVAIL        READ       WRITE  RAND/s  DEGRADED  P(POOL LOSS)  P(BLOCK LOSS)  $/TB  bonnie-seeks
> 3x raidz1-5       0  5.9 TB  516.5 MB/s  412.4 MB/s     223     1.9 h       unknown        unknown    12         154/s
* stripe-15         1  5.9 TB  516.5 MB/s  412.4 MB/s     223         -          1.2%          0.31%    12         154/s
"
        );
    }

    #[test]
    fn fill_as_percent_or_share() {
        assert_eq!(parse_fill("80%").unwrap(), 0.8);
        assert_eq!(parse_fill("0.5").unwrap(), 0.5);
        assert!(parse_fill("120%").unwrap_err().0.contains("80%"));
        assert!(parse_fill("full").is_err());
    }
}
