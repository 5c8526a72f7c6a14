//! `zpoolsim predict [SYSTEM.toml] --workload W`: how fast the pool will be under a workload,
//! which resource limits it and by how much, and per-device figures like `zpool iostat -v`.

use crate::error::{CliError, CliResult};
use crate::files::{print_json, write, Files, PlotTo};
use crate::render::short;
use crate::svg::{Chart, Series};
use model::input::escape_controls;
use model::units::format_decimal;
use model::{System, Workload};
use perf::Prediction;
use request::{PredictRequest, Predicted, WordedPrediction};

/// Predict throughput, IOPS, latency and the bottleneck of a workload.
///
/// Workloads: dd-write, dd-read, iozone-write, iozone-read, fio-randread, fio-randwrite,
/// fio-randrw, bonnie-write, bonnie-rewrite, bonnie-read, bonnie-seeks, raw-write, raw-read, raw-randread;
/// parameters after a colon: 'fio-randread:bs=4K,qd=32,threads=2,size=10G'. Or the command
/// line you ran, read with the tool's own defaults: 'bonnie++ -s 16384 -r 1024 -f -b',
/// 'fio --rw=randread --bs=4k --iodepth=32 --ioengine=libaio --direct=1 --size=10g',
/// 'iozone -i 0 -i 1 -t 4 -s 1g -r 128k', 'dd if=/dev/zero of=f bs=1M count=10000
/// conv=fdatasync': every timed phase is predicted, or one with @PHASE at the end
/// ('bonnie++ ... @seeks'). A file ending in .toml holds kind = "NAME" and the same keys, or
/// command = "..." (and phase = "...").
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub request: PredictRequest,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// With --sweep, --plot draws the curve.
    #[command(flatten)]
    pub plot: PlotTo,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let plot_file = args.plot.file()?;
    if plot_file.is_some() && args.request.sweep.is_none() {
        return Err(CliError("--plot draws a --sweep: give one".into()));
    }
    let answer = match args.request.sweep {
        Some(_) => crate::progress::while_working("sweeping", || args.request.answer(&Files))?,
        None => args.request.answer(&Files)?,
    };
    if let (Some(file), Predicted::Sweep(s)) = (plot_file, &answer.predicted) {
        let (param, values) = (&s.sweep.param, &s.sweep.values);
        let svg = plot(
            &answer.system,
            &answer.workloads[0],
            param,
            values,
            &s.points,
        );
        write(file, args.plot.force, &svg)?;
    }
    if args.json {
        return print_json(&answer);
    }
    if args.request.system.is_none() {
        println!(
            "assumed:   no system file: the embedded default system ({})",
            escape_controls(&answer.system.name)
        );
    }
    match &answer.predicted {
        Predicted::One(p) => print_prediction(&answer.workloads[0], p),
        Predicted::Phases(all) => print_phases(all),
        Predicted::Sweep(s) => print_sweep(&s.sweep.param, &s.sweep.values, &s.points),
    }
    Ok(())
}

/// A latency in the unit that shows it: microseconds below a tenth of a millisecond (an ARC
/// hit, a flash write), else milliseconds.
fn latency(seconds: f64) -> String {
    if seconds < 1e-4 {
        format!("{:.1} us", seconds * 1e6)
    } else {
        format!("{:.2} ms", seconds * 1e3)
    }
}

/// The simulation's percentiles and the stations' shares of the mean, when asked for.
fn print_latency(p: &Prediction) {
    let Some(l) = &p.latency_s else { return };
    println!();
    println!(
        "latency:   p50 {}, p90 {}, p99 {}, p99.9 {} (simulated; mean {})",
        latency(l.p50),
        latency(l.p90),
        latency(l.p99),
        latency(l.p999),
        latency(l.mean)
    );
    let shares: Vec<String> = l
        .stations
        .iter()
        .map(|s| format!("{} {:.0}%", s.station, s.share * 100.0))
        .collect();
    println!("time in:   {}", shares.join(", "));
}

fn print_prediction(w: &Workload, p: &WordedPrediction) {
    println!("system:    {}", p.system);
    println!(
        "workload:  {} (bs {}, {} thread(s), queue depth {})",
        w.kind,
        model::units::format_bytes(w.block_size),
        w.threads,
        w.queue_depth
    );
    println!(
        "predicted: {}/s, {:.0} IOPS, mean latency {} ({} jobs in flight)",
        format_decimal(p.throughput_bytes_per_s),
        p.iops,
        latency(p.mean_latency_s),
        p.concurrency
    );
    println!("expected:  {}", expected_error(p));
    if p.arc_hit_ratio > 0.0 && p.read_bytes_per_s > 0.0 {
        println!(
            "ARC:       serves {:.0}% of the reads' records",
            p.arc_hit_ratio * 100.0
        );
    }
    for part in &p.not_modelled {
        println!("not modelled: {part}");
    }
    print_latency(p);
    println!();
    println!("bottleneck: {}", p.bottleneck.sentence);
    if let (Some(next), Some(pct)) = (&p.bottleneck.next_resource, p.bottleneck.headroom_pct) {
        println!("headroom:   the next limit, {next}, would allow {pct:.0}% more");
    }
    println!();
    println!("{:<24} {:<10} {:>6}  detail", "resource", "kind", "busy");
    for u in &p.utilizations {
        println!(
            "{:<24} {:<10} {:>5.1}%  {}",
            u.resource,
            u.kind.word(),
            u.utilization * 100.0,
            u.detail
        );
    }
    print_devices(p);
}

/// Each vdev and device's operations, bandwidth and busy share, as `zpool iostat -v`.
fn print_devices(p: &Prediction) {
    println!();
    println!(
        "{:<20} {:>7} {:>7} {:>7} {:>7} {:>5}",
        "", "ops", "", "bandw", "", ""
    );
    println!(
        "{:<20} {:>7} {:>7} {:>7} {:>7} {:>5}",
        "device", "read", "write", "read", "write", "%b"
    );
    let line = "-".repeat(58);
    println!("{line}");
    println!(
        "{:<20} {:>7} {:>7} {:>7} {:>7}",
        "application",
        "",
        "",
        short(p.read_bytes_per_s),
        short(p.write_bytes_per_s)
    );
    for v in &p.vdevs {
        println!(
            "  {:<18} {:>7.0} {:>7.0} {:>7} {:>7}",
            escape_controls(&v.name),
            v.read_ops_per_s,
            v.write_ops_per_s,
            short(v.read_bytes_per_s),
            short(v.write_bytes_per_s),
        );
        for d in p.devices.iter().filter(|d| d.vdev == v.name) {
            println!(
                "    {:<16} {:>7.0} {:>7.0} {:>7} {:>7} {:>4.0}",
                escape_controls(&d.name),
                d.read_ops_per_s,
                d.write_ops_per_s,
                short(d.read_bytes_per_s),
                short(d.write_bytes_per_s),
                d.utilization * 100.0
            );
        }
    }
    println!("{line}");
}

/// The error to expect, from the cross-validated errors of the prediction's class: where the
/// measured value typically lies around the prediction, and where nine in ten lie.
fn expected_error(p: &Prediction) -> String {
    let [low, high] = p.expected_range_pct;
    let [low90, high90] = p.expected_range_p90_pct;
    format!(
        "measured typically {low:+.0}% to {high:+.0}% around this figure, 9 in 10 {low90:+.0}% to {high90:+.0}%, for {}",
        p.error_class
    )
}

/// Each timed phase of a benchmark run on one line, then its bottleneck.
fn print_phases(all: &[WordedPrediction]) {
    println!("system: {}", all[0].system);
    println!();
    println!(
        "{:<22} {:>12} {:>10} {:>11}  bottleneck",
        "phase", "MB/s", "IOPS", "typically"
    );
    for p in all {
        let [low, high] = p.expected_range_pct;
        println!(
            "{:<22} {:>12.1} {:>10.0} {:>11}  {} ({:.0}% busy)",
            p.workload,
            p.throughput_bytes_per_s / 1e6,
            p.iops,
            format!("{low:+.0}/{high:+.0}%"),
            p.bottleneck.named(),
            p.bottleneck.utilization * 100.0
        );
    }
    println!();
    for p in all {
        println!("{}: {}", p.workload, p.bottleneck.sentence);
    }
    for p in all {
        if p.latency_s.is_some() {
            println!();
            println!("{}:", p.workload);
            print_latency(p);
        }
    }
    println!();
    println!("typically: where the measured value typically lies around the prediction, from the cross-validated errors of each phase's class; add @PHASE to the command line for one phase's full report");
}

fn print_sweep(param: &str, values: &[String], points: &[WordedPrediction]) {
    println!(
        "{:>8} {:>12} {:>10} {:>11}  bottleneck",
        param, "MB/s", "IOPS", "latency ms"
    );
    for (v, p) in values.iter().zip(points) {
        println!(
            "{:>8} {:>12.1} {:>10.0} {:>11.2}  {} {} ({:.0}%)",
            v,
            p.throughput_bytes_per_s / 1e6,
            p.iops,
            p.mean_latency_s * 1e3,
            p.bottleneck.kind.word(),
            p.bottleneck.resource,
            p.bottleneck.utilization * 100.0
        );
    }
}

fn plot(
    system: &System,
    w: &Workload,
    param: &str,
    values: &[String],
    points: &[WordedPrediction],
) -> String {
    // x: the parameter's value (sizes in bytes), on a log2 axis when it spans > 8x.
    let xs: Vec<f64> = values
        .iter()
        .map(|v| {
            model::units::parse_size(v)
                .map(|b| b as f64)
                .unwrap_or(f64::NAN)
        })
        .collect();
    let lo = xs.iter().copied().fold(f64::MAX, f64::min);
    let hi = xs.iter().copied().fold(0.0, f64::max);
    let log = lo > 0.0 && hi / lo > 8.0;
    // Random I/O is measured in operations a second, streams in MB/s.
    let (unit, y_of): (&str, fn(&Prediction) -> f64) = if w.access.is_sequential() {
        ("MB/s", |p| p.throughput_bytes_per_s / 1e6)
    } else {
        ("IOPS", |p| p.iops)
    };
    let pts: Vec<(f64, f64)> = xs.iter().zip(points).map(|(&x, p)| (x, y_of(p))).collect();
    let best = pts
        .iter()
        .zip(points)
        .max_by(|a, b| a.0 .1.total_cmp(&b.0 .1))
        .map(|(&(x, y), p)| (x, y, format!("{y:.0} {unit}: {}", p.bottleneck.resource)));
    Chart {
        title: format!("{}: {} by {param}", system.name, w.kind),
        x_label: param.to_string(),
        y_label: unit.into(),
        x_log2: log,
        x_ticks: xs
            .iter()
            .zip(values)
            .map(|(&x, v)| (x, v.clone()))
            .collect(),
        series: vec![Series {
            label: "predicted".into(),
            points: pts,
            line: true,
        }],
        highlights: best.into_iter().collect(),
        ring_legend: None,
    }
    .render()
}

#[cfg(test)]
mod tests {
    use super::latency;

    #[test]
    fn latency_shows_in_a_unit_that_keeps_its_digits() {
        assert_eq!(latency(2.6e-6), "2.6 us");
        assert_eq!(latency(99.94e-6), "99.9 us");
        assert_eq!(latency(1.5e-4), "0.15 ms");
        assert_eq!(latency(0.0217), "21.70 ms");
    }
}
