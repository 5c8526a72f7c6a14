//! Measured beside predicted: per workload (throughput, IOPS, latency) and per disk (ops,
//! bytes, utilisation), with a sentence per finding: a workload far from its prediction, a disk
//! that moved much less (or more) than its vdev peers, a disk far busier than them, reads the
//! disks never saw (the ARC), records much larger than the random requests.

use model::{Access, Workload};
use parse::fio_json::{clat_percentiles, Percentiles, SideClat};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use store::{Bench, Run};

/// A workload off its prediction by more than this factor either way is a finding.
const OFF_BY: f64 = 1.33;
/// A disk moving less than this share of its peers' mean (or more than its inverse) is one.
const PEER_SHARE: f64 = 0.7;
/// Peers' traffic below this (bytes/s) is too little to compare: idle disks differ by noise.
const PEER_FLOOR: f64 = 1e6;

/// A bench's runs beside what the model predicted for them, with what stands out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchComparison {
    /// The bench's id in the store, once stored.
    pub bench_id: Option<i64>,
    /// The pool benched.
    pub pool: String,
    /// One row per run.
    pub workloads: Vec<WorkloadComparison>,
    /// One row per disk and run.
    pub disks: Vec<DiskComparison>,
    /// What stands out, one sentence each.
    pub findings: Vec<String>,
}

/// One run: what fio measured beside what the model predicted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkloadComparison {
    /// The workload as the model reads it.
    pub workload: String,
    /// fio's throughput, bytes per second.
    pub measured_bytes_per_s: f64,
    /// The model's throughput, bytes per second.
    pub predicted_bytes_per_s: f64,
    /// fio's requests per second.
    pub measured_iops: f64,
    /// The model's requests per second.
    pub predicted_iops: f64,
    /// fio's mean completion latency, seconds.
    pub measured_latency_s: f64,
    /// The model's mean latency, seconds.
    pub predicted_latency_s: f64,
    /// fio's clat percentiles of each side that moved data, from the stored fio JSON.
    pub measured_clat_s: Vec<SideClat>,
    /// The simulation's percentiles (`predict --latency`), where the bench simulated them.
    pub predicted_percentiles_s: Option<Percentiles>,
    /// Measured over predicted throughput.
    pub ratio: f64,
    /// What the model names as the limit, one sentence.
    pub bottleneck: String,
}

/// What one disk moved each second over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct DiskTraffic {
    /// Read operations per second.
    pub read_ops_per_s: f64,
    /// Write operations per second.
    pub write_ops_per_s: f64,
    /// Bytes read per second.
    pub read_bytes_per_s: f64,
    /// Bytes written per second.
    pub write_bytes_per_s: f64,
    /// Share of the run the disk was busy (0 to 1); `None` where unknown (file vdevs).
    pub utilization: Option<f64>,
}

impl DiskTraffic {
    fn bytes(&self) -> f64 {
        self.read_bytes_per_s + self.write_bytes_per_s
    }
}

/// One disk in one run: measured beside predicted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiskComparison {
    /// The run's workload.
    pub workload: String,
    /// The disk's name, as `zpool iostat -v` prints it.
    pub device: String,
    /// The top-level vdev it belongs to; `None` for a single-disk vdev.
    pub vdev: Option<String>,
    /// What `zpool iostat` saw.
    pub measured: DiskTraffic,
    /// What the model predicted for it; `None` where the prediction does not name it.
    pub predicted: Option<DiskTraffic>,
}

/// Each run of `bench` beside its prediction, per workload and per disk, with the findings.
pub fn compare(bench: &Bench) -> BenchComparison {
    let recordsize = first_recordsize(&bench.system_toml);
    let mut out = BenchComparison {
        bench_id: bench.id,
        pool: bench.pool.clone(),
        workloads: Vec::new(),
        disks: Vec::new(),
        findings: Vec::new(),
    };
    for run in &bench.runs {
        let row = workload_row(run);
        let disks = disk_rows(run);
        out.findings.extend(workload_findings(&row, &disks, run));
        out.findings.extend(peer_findings(&run.workload, &disks));
        out.findings
            .extend(recordsize_finding(&run.workload, recordsize));
        out.workloads.push(row);
        out.disks.extend(disks);
    }
    out
}

fn number(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0)
}

fn workload_row(run: &Run) -> WorkloadComparison {
    let p = &run.prediction;
    let predicted = number(p, "throughput_bytes_per_s");
    let measured = run.measured.throughput_bytes_per_s();
    WorkloadComparison {
        workload: run.workload.clone(),
        measured_bytes_per_s: measured,
        predicted_bytes_per_s: predicted,
        measured_iops: run.measured.iops,
        predicted_iops: number(p, "iops"),
        measured_latency_s: run.measured.mean_latency_s,
        predicted_latency_s: number(p, "mean_latency_s"),
        measured_clat_s: clat_percentiles(&run.fio_json),
        predicted_percentiles_s: predicted_percentiles(&p["latency_s"]),
        ratio: if predicted > 0.0 {
            measured / predicted
        } else {
            0.0
        },
        bottleneck: p["bottleneck"]["sentence"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    }
}

/// The simulated percentiles in a stored prediction's `latency_s`, if it has them.
fn predicted_percentiles(l: &Value) -> Option<Percentiles> {
    let at = |k: &str| l.get(k).and_then(Value::as_f64);
    Some(Percentiles {
        p50: at("p50")?,
        p90: at("p90")?,
        p99: at("p99")?,
        p999: at("p999")?,
    })
}

/// Each disk's mean over the run's seconds, beside what the model predicted for it.
pub(crate) fn disk_rows(run: &Run) -> Vec<DiskComparison> {
    let mut sums: BTreeMap<&str, (Option<String>, DiskTraffic, f64)> = BTreeMap::new();
    for s in &run.samples {
        let e =
            sums.entry(s.device.as_str())
                .or_insert((s.vdev.clone(), DiskTraffic::default(), 0.0));
        e.1.read_ops_per_s += s.read_ops_per_s;
        e.1.write_ops_per_s += s.write_ops_per_s;
        e.1.read_bytes_per_s += s.read_bytes_per_s;
        e.1.write_bytes_per_s += s.write_bytes_per_s;
        e.2 += 1.0;
    }
    let predicted = run.prediction["devices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    sums.into_iter()
        .map(|(device, (vdev, f, n))| DiskComparison {
            workload: run.workload.clone(),
            device: device.to_string(),
            vdev,
            measured: DiskTraffic {
                read_ops_per_s: f.read_ops_per_s / n,
                write_ops_per_s: f.write_ops_per_s / n,
                read_bytes_per_s: f.read_bytes_per_s / n,
                write_bytes_per_s: f.write_bytes_per_s / n,
                utilization: run.busy.get(device).copied(),
            },
            predicted: predicted_device(&predicted, device),
        })
        .collect()
}

/// The predicted figures of a device, by its name or, failing that, its file name.
fn predicted_device(devices: &[Value], name: &str) -> Option<DiskTraffic> {
    let base = |n: &str| n.rsplit('/').next().unwrap_or(n).to_string();
    let d = devices
        .iter()
        .find(|d| d["name"].as_str() == Some(name))
        .or_else(|| {
            devices
                .iter()
                .find(|d| d["name"].as_str().map(base) == Some(base(name)))
        })?;
    Some(DiskTraffic {
        read_ops_per_s: number(d, "read_ops_per_s"),
        write_ops_per_s: number(d, "write_ops_per_s"),
        read_bytes_per_s: number(d, "read_bytes_per_s"),
        write_bytes_per_s: number(d, "write_bytes_per_s"),
        utilization: d.get("utilization").and_then(Value::as_f64),
    })
}

fn mb(bytes_per_s: f64) -> String {
    format!("{:.1} MB/s", bytes_per_s / 1e6)
}

fn workload_findings(row: &WorkloadComparison, disks: &[DiskComparison], run: &Run) -> Vec<String> {
    let mut out = Vec::new();
    let w = &row.workload;
    if row.ratio > 0.0 && row.ratio < 1.0 / OFF_BY {
        out.push(format!(
            "{w}: measured {}, {:.0}% below the {} predicted; the model's limit: {}",
            mb(row.measured_bytes_per_s),
            (1.0 - row.ratio) * 100.0,
            mb(row.predicted_bytes_per_s),
            row.bottleneck
        ));
    } else if row.ratio > OFF_BY {
        out.push(format!(
            "{w}: measured {}, {:.1}x the {} predicted",
            mb(row.measured_bytes_per_s),
            row.ratio,
            mb(row.predicted_bytes_per_s)
        ));
    }
    let disk_reads: f64 = disks.iter().map(|d| d.measured.read_bytes_per_s).sum();
    let app_reads = run.measured.read_bytes_per_s;
    if app_reads > 0.0 && disk_reads < 0.5 * app_reads {
        out.push(format!(
            "{w}: the disks read {} while fio read {}: the ARC served {:.0}% of the reads (the data set fits in memory)",
            mb(disk_reads),
            mb(app_reads),
            (1.0 - disk_reads / app_reads) * 100.0
        ));
    }
    out
}

/// Disks that moved much less or more than the other disks of their vdev, or were far busier.
fn peer_findings(workload: &str, disks: &[DiskComparison]) -> Vec<String> {
    let mut out = Vec::new();
    for d in disks {
        let Some(vdev) = &d.vdev else { continue };
        let peers: Vec<&DiskComparison> = disks
            .iter()
            .filter(|p| p.vdev.as_ref() == Some(vdev) && p.device != d.device)
            .collect();
        if peers.is_empty() {
            continue;
        }
        let mean = |f: &dyn Fn(&DiskComparison) -> f64| {
            peers.iter().map(|p| f(p)).sum::<f64>() / peers.len() as f64
        };
        let peer_bytes = mean(&|p| p.measured.bytes());
        let share = d.measured.bytes() / peer_bytes;
        let name = d.device.rsplit('/').next().unwrap_or(&d.device);
        if peer_bytes >= PEER_FLOOR && !(PEER_SHARE..=1.0 / PEER_SHARE).contains(&share) {
            let (pct, word) = if share < 1.0 {
                ((1.0 - share) * 100.0, "less")
            } else {
                ((share - 1.0) * 100.0, "more")
            };
            out.push(format!(
                "{name} moved {pct:.0}% {word} than its vdev peers in {vdev} under {workload} ({} against {} each)",
                mb(d.measured.bytes()),
                mb(peer_bytes)
            ));
        }
        if let Some(u) = d.measured.utilization {
            let peer_busy = mean(&|p| p.measured.utilization.unwrap_or(0.0));
            if u > 0.9 && peer_busy < 0.6 {
                out.push(format!(
                    "{name} was {:.0}% busy under {workload} while its peers in {vdev} averaged {:.0}%: a slow disk or a slow path",
                    u * 100.0,
                    peer_busy * 100.0
                ));
            }
        }
    }
    out
}

/// Random writes smaller than the record make ZFS read and rewrite whole records.
fn recordsize_finding(spec: &str, recordsize: Option<u64>) -> Option<String> {
    let w = Workload::parse(spec).ok()?;
    let rs = recordsize?;
    let writes = matches!(w.access, Access::Random { read_pct } if read_pct < 100);
    (writes && w.block_size * 4 <= rs).then(|| {
        format!(
            "{spec}: {}-byte random writes into {rs}-byte records: each write rewrites a whole record (recordsize={} on this dataset would match them)",
            w.block_size, w.block_size
        )
    })
}

/// The first dataset's recordsize in the system file (the dataset the bench ran in).
fn first_recordsize(system_toml: &str) -> Option<u64> {
    let doc: toml::Table = system_toml.parse().ok()?;
    let first = doc.get("dataset")?.as_array()?.first()?;
    first.get("recordsize")?.as_integer().map(|r| r as u64)
}
