//! `zpoolsim predict SYSTEM.toml --workload W`: how fast the pool will be under a workload,
//! which resource limits it and by how much, and per-device figures like `zpool iostat -v`.

use crate::error::{CliError, CliResult};
use crate::files::{load_system, load_workload, print_json, write, PlotTo};
use crate::render::short;
use crate::svg::{Chart, Series};
use model::units::format_decimal;
use model::{System, Workload};
use perf::Prediction;
use std::path::Path;

/// Predict throughput, IOPS, latency and the bottleneck of a workload.
///
/// Workloads: dd-write, dd-read, iozone-write, iozone-read, fio-randread, fio-randwrite,
/// fio-randrw, bonnie-write, bonnie-rewrite, bonnie-read, bonnie-seeks, raw-write, raw-read, raw-randread;
/// parameters after a colon: 'fio-randread:bs=4K,qd=32,threads=2,size=10G'. A file ending in
/// .toml holds kind = "NAME" and the same keys.
#[derive(clap::Args)]
pub struct Args {
    /// The system file (hardware and pool).
    pub system: String,
    /// The workload: NAME[:key=value,...] or a workload file.
    #[arg(long, short)]
    pub workload: String,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Sweep one parameter: threads=1,2,4,8 or bs=4K,16K,128K,1M; LOW..HIGH doubles from LOW
    /// to HIGH (threads=1..64, bs=4K..8M).
    #[arg(long)]
    pub sweep: Option<String>,
    /// With --sweep, --plot draws the curve.
    #[command(flatten)]
    pub plot: PlotTo,
}

pub fn run(args: &Args) -> CliResult {
    let plot_file = args.plot.file()?;
    let system = load_system(Path::new(&args.system))?;
    let workload = load_workload(&args.workload)?;
    if let Some(spec) = &args.sweep {
        let (param, values) = spec
            .split_once('=')
            .ok_or_else(|| CliError(format!("--sweep '{spec}': expected PARAM=v1,v2,...")))?;
        let values = sweep_values(param.trim(), values)?;
        let points = crate::progress::while_working("sweeping", || {
            perf::sweep(&system, &workload, param, &values)
        })?;
        if let Some(file) = plot_file {
            let svg = plot(&system, &workload, param, &values, &points);
            write(file, &svg)?;
        }
        if args.json {
            return print_json(&points);
        } else {
            print_sweep(param, &values, &points);
        }
        return Ok(());
    }
    if plot_file.is_some() {
        return Err(CliError("--plot draws a --sweep: give one".into()));
    }
    let p = perf::predict(&system, &workload)?;
    if args.json {
        return print_json(&p);
    } else {
        print_prediction(&workload, &p);
    }
    Ok(())
}

/// How a sweep range reads its bounds and labels its values.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Scale {
    /// Threads and queue depth: plain whole numbers (1..2048).
    Count,
    /// Block and data set sizes: sizes with units (4K..8M).
    Size,
}

/// The values of a sweep of `param`: a list, or LOW..HIGH doubling from LOW while at most HIGH.
fn sweep_values(param: &str, text: &str) -> Result<Vec<String>, CliError> {
    let Some((lo, hi)) = text.split_once("..") else {
        return Ok(text.split(',').map(|v| v.trim().to_string()).collect());
    };
    let bad = |why: &str| CliError(format!("--sweep {param}={text}: {why}"));
    let scale = match param {
        "threads" | "t" | "numjobs" | "qd" | "iodepth" => Scale::Count,
        "bs" | "size" => Scale::Size,
        _ => {
            return Err(bad(
                "a LOW..HIGH range is for threads, qd, bs or size; list the values",
            ))
        }
    };
    let bound = |v: &str| match scale {
        Scale::Count => v
            .trim()
            .parse::<u64>()
            .map_err(|_| bad(&format!("'{}' is not a whole number", v.trim()))),
        Scale::Size => model::units::parse_size(v.trim()).map_err(|e| bad(&e.to_string())),
    };
    let (mut v, hi) = (bound(lo)?, bound(hi)?);
    if v == 0 {
        return Err(bad("a range starts at 1 or more"));
    }
    if v > hi {
        return Err(bad("the range runs from LOW up to HIGH"));
    }
    let label = |v: u64| match v {
        v if scale == Scale::Count => v.to_string(),
        v if v >= 1 << 20 && v % (1 << 20) == 0 => format!("{}M", v >> 20),
        v if v >= 1 << 10 && v % (1 << 10) == 0 => format!("{}K", v >> 10),
        v => v.to_string(),
    };
    let mut out = vec![label(v)];
    while let Some(next) = v.checked_mul(2).filter(|&n| n <= hi) {
        out.push(label(next));
        v = next;
    }
    Ok(out)
}

fn print_prediction(w: &Workload, p: &Prediction) {
    println!("system:    {}", p.system);
    println!(
        "workload:  {} (bs {}, {} thread(s), queue depth {})",
        w.kind,
        model::units::format_bytes(w.block_size),
        w.threads,
        w.queue_depth
    );
    println!(
        "predicted: {}/s, {:.0} IOPS, mean latency {:.2} ms ({} jobs in flight)",
        format_decimal(p.throughput_bytes_per_s),
        p.iops,
        p.mean_latency_s * 1e3,
        p.concurrency
    );
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
    let sum = |f: fn(&perf::DeviceFigures) -> f64, v: &str| -> f64 {
        p.devices.iter().filter(|d| d.vdev == v).map(f).sum()
    };
    let mut seen: Vec<&str> = Vec::new();
    for d in &p.devices {
        if !seen.contains(&d.vdev.as_str()) {
            seen.push(&d.vdev);
            println!(
                "  {:<18} {:>7.0} {:>7.0} {:>7} {:>7}",
                d.vdev,
                sum(|d| d.read_ops_per_s, &d.vdev),
                sum(|d| d.write_ops_per_s, &d.vdev),
                short(sum(|d| d.read_bytes_per_s, &d.vdev)),
                short(sum(|d| d.write_bytes_per_s, &d.vdev)),
            );
        }
        println!(
            "    {:<16} {:>7.0} {:>7.0} {:>7} {:>7} {:>4.0}",
            d.name,
            d.read_ops_per_s,
            d.write_ops_per_s,
            short(d.read_bytes_per_s),
            short(d.write_bytes_per_s),
            d.utilization * 100.0
        );
    }
    println!("{line}");
}

fn print_sweep(param: &str, values: &[String], points: &[Prediction]) {
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
    points: &[Prediction],
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
    use super::sweep_values;

    fn values(param: &str, text: &str) -> Vec<String> {
        sweep_values(param, text).unwrap()
    }

    #[test]
    fn counts_are_whole_numbers() {
        let threads = values("threads", "1..2048");
        assert_eq!(threads.len(), 12);
        assert_eq!(threads[..3], ["1", "2", "4"]);
        assert_eq!(threads[10..], ["1024", "2048"]);
        assert_eq!(values("qd", "3..40"), ["3", "6", "12", "24"]);
        assert_eq!(values("t", "1..1"), ["1"]);
        let e = sweep_values("qd", "1..1K").unwrap_err().0;
        assert_eq!(e, "--sweep qd=1..1K: '1K' is not a whole number");
    }

    #[test]
    fn sizes_take_units() {
        assert_eq!(
            values("bs", "4K..1M"),
            ["4K", "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1M"]
        );
        assert_eq!(values("size", "1G..4G"), ["1024M", "2048M", "4096M"]);
        assert_eq!(values("bs", "512..2K"), ["512", "1K", "2K"]);
    }

    #[test]
    fn lists_pass_as_given() {
        assert_eq!(values("rwmix", "0, 50,100"), ["0", "50", "100"]);
    }

    #[test]
    fn empty_or_backward_ranges_are_refused() {
        for (param, text, says) in [
            ("bs", "0..8M", "--sweep bs=0..8M: a range starts at 1 or more"),
            ("threads", "0..4", "--sweep threads=0..4: a range starts at 1 or more"),
            ("threads", "5..1", "--sweep threads=5..1: the range runs from LOW up to HIGH"),
            ("bs", "8M..4K", "--sweep bs=8M..4K: the range runs from LOW up to HIGH"),
            (
                "rwmix",
                "10..90",
                "--sweep rwmix=10..90: a LOW..HIGH range is for threads, qd, bs or size; list the values",
            ),
        ] {
            assert_eq!(sweep_values(param, text).unwrap_err().0, says);
        }
    }
}
