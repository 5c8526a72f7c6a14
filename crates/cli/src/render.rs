//! Text rendering shared by the subcommands, side by side: the layout table of plan and
//! compare, an assessment's rebuilds and loss figures (reliability, report), and units.

use ::plan::policy::REPLACEMENT_HOURS;
use ::plan::{format_probability, Evaluation, LabelledWorkload, Metric, Settings, WorkloadFigures};
use model::input::escape_controls;
use model::units::format_decimal;
use reliability::{Assessment, Lifetime, RebuildKind};

/// What the DEGRADED and loss columns mean, in one line.
pub(crate) fn columns_note(settings: &Settings) -> String {
    let load = settings
        .load
        .as_ref()
        .map_or("idle".to_string(), |l| format!("under {}", l.label));
    let batch = if settings.same_batch {
        "; the disks of one batch (--same-batch): losses needing n failures in a vdev E[Z^n] times likelier (1.25 for 2, 1.88 for 3, 3.28 for 4)"
    } else {
        ""
    };
    format!(
        "READ, WRITE, RAND/s: the workloads on an empty pool, their data on the disks' outer tracks; AVAIL: zfs list AVAIL in decimal TB; DEGRADED: hours a vdev runs with less redundancy after a disk fails, pool {:.0}% full, {load} (dRAID with a distributed spare: its sequential rebuild; else the resilver, after {REPLACEMENT_HOURS} h for a new disk when there is no hot spare); over {} years, P(POOL LOSS): the pool is lost, P(BLOCK LOSS): an unrecoverable read error loses blocks while a vdev has no redundancy left (one without any: at its monthly scrub){batch}",
        settings.fill * 100.0,
        settings.years
    )
}

/// The rows as an aligned table; `marks` (one per row, or none) prefixes each layout. Columns
/// for the workloads past the standard three are added by their labels; $/TB only where a
/// price is known.
pub(crate) fn table(rows: &[&Evaluation], marks: &[&str], settings: &Settings) -> String {
    let extra: Vec<&str> = settings.extra.iter().map(|w| w.label.as_str()).collect();
    let priced = rows.iter().any(|e| e.usd_per_usable_tb.is_some());
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
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if priced {
        header.push("$/TB".into());
    }
    header.extend(extra.iter().map(|s| s.to_string()));
    let mut lines = vec![header];
    for (i, e) in rows.iter().enumerate() {
        let mark = marks.get(i).copied().unwrap_or("");
        let mut line = vec![
            format!("{mark}{}", e.candidate.layout),
            e.candidate.hot_spares.to_string(),
            Metric::Avail.format(e.avail_bytes as f64),
            figure(&e.read, &settings.read),
            figure(&e.write, &settings.write),
            format!("{:.0}", e.random.iops),
            if e.candidate.layout.redundancy() == 0 {
                "-".to_string()
            } else {
                format!("{:.1} h", e.degraded_hours)
            },
            probability(e.closed_form.map(|o| o.pool_loss)),
            probability(e.closed_form.map(|o| o.block_loss)),
        ];
        if priced {
            let usd = e.usd_per_usable_tb;
            line.push(usd.map_or("-".to_string(), |usd| format!("{usd:.0}")));
        }
        line.extend(
            e.extra
                .iter()
                .zip(&settings.extra)
                .map(|(figures, w)| figure(figures, w)),
        );
        lines.push(line);
    }
    aligned(&lines) + &unknown_losses(rows)
}

/// The lines as columns two spaces apart, each as wide as its widest cell: the first (the
/// layout) flush left, the figures flush right so their digits line up.
fn aligned(lines: &[Vec<String>]) -> String {
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
    for line in lines {
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

/// Why a row's loss figures are unknown, one line per such row.
fn unknown_losses(rows: &[&Evaluation]) -> String {
    rows.iter()
        .filter_map(|e| {
            let why = e.loss_unknown.as_ref()?;
            Some(format!("loss unknown for {}: {why}\n", e.candidate.layout))
        })
        .collect()
}

/// A workload's figure as the table shows it: a rate for a stream, operations a second for
/// random I/O.
pub(crate) fn figure(figures: &WorkloadFigures, w: &LabelledWorkload) -> String {
    if w.workload.access.is_sequential() {
        Metric::Read.format(figures.bytes_per_s)
    } else {
        format!("{:.0}/s", figures.iops)
    }
}

/// A probability as the table shows it.
fn probability(p: Option<f64>) -> String {
    p.map_or("unknown".to_string(), format_probability)
}

fn kind_word(kind: &RebuildKind) -> &'static str {
    match kind {
        RebuildKind::Resilver => "resilver",
        RebuildKind::SequentialRebuild => "sequential rebuild to a distributed spare",
    }
}

/// The assessment as a person reads it: each rebuild, then the loss figures.
pub(crate) fn assessment(report: &Assessment) -> String {
    let load = match &report.load {
        Some(kind) => format!(
            "under the user load {kind} {:.0}% of the time",
            report.busy.unwrap_or(1.0) * 100.0
        ),
        None => "idle pool".to_string(),
    };
    let mut out = format!(
        "\nrebuild after one disk fails, pool {:.0}% full, {load}:\n",
        report.fill * 100.0,
    );
    if report.shingled {
        out += &format!(
            "  warning: {} is shingled (SMR): a resilver writes onto it {:.1} times slower than onto a conventional (CMR) disk, as published SMR resilvers did; prefer CMR disks for ZFS\n",
            report.disk,
            reliability::SMR_RESILVER_SLOWDOWN
        );
    }
    for r in &report.rebuilds {
        out += &format!(
            "  {:<10} {:>7.1} h  read {}, write {}; limited by {}\n             {}\n",
            kind_word(&r.kind),
            r.hours,
            format_decimal(r.bytes_to_read),
            format_decimal(r.bytes_to_write),
            r.limiting_resource,
            r.explanation
        );
    }
    out += &format!("\nchance of losing data over {} years:", report.years);
    let Some(lifetime) = &report.lifetime else {
        return out + " " + &unknown_rate(report) + "\n";
    };
    out += "\n";
    out += &failure_figures(report, lifetime);
    if let Some(why) = &report.closed_form_invalid {
        out += &format!("  closed form (MTTDL[1]): not valid here: {why}; the Monte Carlo assumes no such thing\n");
    }
    if let (Some(m), Some(odds)) = (&report.mttdl, report.closed_form) {
        out += &format!(
            "  closed form (MTTDL[1], exponential lifetimes): P(pool loss) {}, P(any data loss, blocks to unrecoverable read errors included) {}; MTTDL {:.3e} h\n",
            format_probability(odds.pool_loss),
            format_probability(odds.data_loss),
            m.pool_hours,
        );
    }
    if let Some(mc) = &report.monte_carlo {
        out += &simulated(mc, report.closed_form.is_some());
    }
    out
}

/// The Monte Carlo's loss figures and bytes lost, split into pool and block losses.
fn simulated(mc: &reliability::MonteCarloReport, beside_closed_form: bool) -> String {
    let mut out = format!(
        "  Monte Carlo ({} missions, seed {}): P(pool loss) {} [{} .. {}], P(any data loss) {} [{} .. {}]; expected bytes lost {}: {} with the pool, {} as blocks to unrecoverable read errors\n",
        mc.trials,
        mc.seed,
        format_probability(mc.pool_loss.p),
        format_probability(mc.pool_loss.low),
        format_probability(mc.pool_loss.high),
        format_probability(mc.data_loss.p),
        format_probability(mc.data_loss.low),
        format_probability(mc.data_loss.high),
        format_decimal(mc.expected_bytes_lost),
        format_decimal(mc.expected_pool_bytes_lost),
        format_decimal(mc.expected_block_bytes_lost),
    );
    if beside_closed_form {
        out += "  (the simulation rebuilds in a fixed time where the closed form assumes memoryless repairs, so with double or triple parity it gives less loss)\n";
    }
    out
}

/// The failure figures the loss figures use: the disk's AFR and URE rate, the lifetimes, and
/// the share of disks they fail over the mission.
fn failure_figures(report: &Assessment, lifetime: &Lifetime) -> String {
    let f = &report.figures;
    let sheet_afr = f
        .datasheet_afr_pct
        .map_or("none".to_string(), |a| format!("{a:.2}%"));
    let afr = format!(
        "AFR {:.2}% ({}; the data sheet's: {sheet_afr})",
        f.afr_pct, f.afr_source
    );
    let sheet_ure = f
        .datasheet_uer_per_bit
        .map_or("none".to_string(), |u| format!("{u:e}, a bound"));
    let ure = format!(
        "{:.2e} latent errors per bit a rebuild reads ({}; the data sheet's: {sheet_ure})",
        f.uer_per_bit, f.uer_source
    );
    let lifetimes = match lifetime {
        Lifetime::Exponential { mtbf_hours } => {
            format!("exponential lifetimes, MTBF {mtbf_hours:.3e} h")
        }
        Lifetime::Weibull { shape, scale_hours } => format!(
            "Weibull lifetimes of shape {shape}, scale {scale_hours:.3e} h (failing at the AFR on average over the mission)"
        ),
    };
    let failed = report.failed_within_mission.map_or(String::new(), |f| {
        format!(
            "; {} of the disks fail within {} years, none replaced",
            format_probability(f),
            report.years
        )
    });
    format!(
        "  disk {}: {afr}, {ure}; {lifetimes}{failed}\n",
        report.disk
    )
}

/// Why the loss figures are missing, and how to give them.
pub(crate) fn unknown_rate(report: &Assessment) -> String {
    format!(
        "unknown: no AFR or MTBF for {}; give afr_pct or mtbf_hours in an inline model or a --catalog file",
        report.disk
    )
}

/// Bandwidth the way zpool iostat prints it: 61.9M.
pub(crate) fn short(bytes_per_s: f64) -> String {
    let units = [("G", 1e9), ("M", 1e6), ("K", 1e3)];
    for (u, scale) in units {
        if bytes_per_s >= scale {
            return format!("{:.1}{u}", bytes_per_s / scale);
        }
    }
    format!("{bytes_per_s:.0}")
}

/// A stored bench: each run's workload, what fio measured and what was predicted before it.
/// Its words came from a machine (its hostname) or another store: control characters escaped.
pub(crate) fn bench(b: &store::Bench) -> String {
    let id = b.id.map_or(String::new(), |i| format!(" {i}"));
    let mut out = format!(
        "bench{id}: {} on {} ({}), {}, zpoolsim {}\n{:<40} {:>10} {:>10} {:>9} {:>12}  samples\n",
        escape_controls(&b.dataset),
        escape_controls(&b.host.name),
        escape_controls(&b.directory),
        escape_controls(&b.started),
        escape_controls(&b.zpoolsim_version),
        "workload",
        "MB/s",
        "predicted",
        "IOPS",
        "latency ms"
    );
    for r in &b.runs {
        let predicted = r.prediction["throughput_bytes_per_s"]
            .as_f64()
            .unwrap_or(0.0);
        out.push_str(&format!(
            "{:<40} {:>10.1} {:>10.1} {:>9.0} {:>12.2}  {}\n",
            escape_controls(&r.workload),
            r.measured.throughput_bytes_per_s() / 1e6,
            predicted / 1e6,
            r.measured.iops,
            r.measured.mean_latency_s * 1e3,
            r.samples.len()
        ));
    }
    out
}

/// 1234567 -> "1,234,567".
pub(crate) fn grouped(n: u64) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ::plan::Candidate;

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
        let criteria = request::Criteria {
            read: "dd-read".into(),
            write: "dd-write".into(),
            random: Some("fio-randread:qd=32".into()),
            workloads: vec!["bonnie-seeks".into()],
            fill: "80%".into(),
            years: 5.0,
            afr: None,
            load: None,
            busy: "100%".into(),
            same_batch: false,
        };
        let settings = criteria.settings(&crate::files::Files).unwrap();
        let row = |layout: &str, spares, loss: Option<f64>| Evaluation {
            candidate: Candidate {
                layout: layout.parse().unwrap(),
                hot_spares: spares,
            },
            size_bytes: 0,
            avail_bytes: 5_876_557_906_160,
            read: figures("dd-read", 516.5e6, 492.6),
            write: figures("dd-write", 412.4e6, 393.3),
            random: figures("fio-randread:qd=32", 0.9e6, 223.4),
            extra: vec![figures("bonnie-seeks", 1.3e6, 154.2)],
            degraded_hours: 1.94,
            closed_form: loss.map(|p| reliability::Odds {
                pool_loss: p,
                block_loss: p / 4.0,
                data_loss: 1.0 - (1.0 - p) * (1.0 - p / 4.0),
            }),
            loss_unknown: loss
                .is_none()
                .then(|| "a repair is long beside the mission".to_string()),
            usd_per_usable_tb: Some(12.3),
        };
        let rows = [
            row("3x raidz1-5", 0, None),
            row("stripe-15", 1, Some(0.0123)),
        ];
        let refs: Vec<&Evaluation> = rows.iter().collect();
        // Issue #10: without a price anywhere the $/TB column was all "-": it is left out.
        let mut unpriced = rows[0].clone();
        unpriced.usd_per_usable_tb = None;
        assert!(!table(&[&unpriced], &[], &settings).contains("$/TB"));
        assert_eq!(
            table(&refs, &["> ", "* "], &settings),
            "\
LAYOUT         SPARES   AVAIL        READ       WRITE  RAND/s  DEGRADED  P(POOL LOSS)  P(BLOCK LOSS)  $/TB  bonnie-seeks
> 3x raidz1-5       0  5.9 TB  516.5 MB/s  412.4 MB/s     223     1.9 h       unknown        unknown    12         154/s
* stripe-15         1  5.9 TB  516.5 MB/s  412.4 MB/s     223         -          1.2%        3.1e-1%    12         154/s
loss unknown for 3x raidz1-5: a repair is long beside the mission
"
        );
    }
}
