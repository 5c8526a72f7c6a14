//! The figures of a solved network: the application's throughput, IOPS and latency, each
//! resource's utilisation, the per-device and per-vdev traffic, the bottleneck, the effect of
//! the dirty-data buffer on a write phase, and the error to expect of the figure.

use crate::app;
use crate::band::{self, ErrorClass};
use crate::bottleneck::{self, Bottleneck};
use crate::load::Loads;
use crate::release::Release;
use crate::station::{Kind, Utilization};
use model::system::System;
use model::workload::{Data, Durability, Target, Workload};
use serde::Serialize;

/// One disk's traffic, as `zpool iostat -v` and `iostat -x` show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceFigures {
    pub name: String,
    pub vdev: String,
    pub read_ops_per_s: f64,
    pub write_ops_per_s: f64,
    pub read_bytes_per_s: f64,
    pub write_bytes_per_s: f64,
    /// Busy fraction, %b of iostat.
    pub utilization: f64,
}

/// One top-level vdev's traffic: the sum of its disks', as `zpool iostat -v` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VdevFigures {
    pub name: String,
    pub read_ops_per_s: f64,
    pub write_ops_per_s: f64,
    pub read_bytes_per_s: f64,
    pub write_bytes_per_s: f64,
}

/// What the pool will do under the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    pub system: String,
    pub workload: String,
    pub throughput_bytes_per_s: f64,
    /// The application's reads and writes apart (their sum is the throughput, but for a
    /// rewrite, which reports the bytes rewritten once).
    pub read_bytes_per_s: f64,
    pub write_bytes_per_s: f64,
    pub iops: f64,
    pub mean_latency_s: f64,
    /// Jobs the model kept in flight.
    pub concurrency: u32,
    /// Share of the block reads the ARC served.
    pub arc_hit_ratio: f64,
    /// How far off a prediction of this kind typically lands: the median error of its class
    /// under leave-one-source-out cross-validation (`zpoolsim validate --cv`), percent.
    pub expected_error_pct: f64,
    /// The 90th percentile of the same: nine predictions in ten of this class land within it.
    pub expected_error_p90_pct: f64,
    /// The class, in words, and how many published measurements it rests on.
    pub error_class: String,
    pub bottleneck: Bottleneck,
    /// Every resource, busiest first.
    pub utilizations: Vec<Utilization>,
    pub vdevs: Vec<VdevFigures>,
    pub devices: Vec<DeviceFigures>,
    /// What of the system and workload the model does not capture, one sentence each.
    pub not_modelled: Vec<String>,
    /// Completion-time percentiles from the simulation (`sim`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_s: Option<crate::Latency>,
}

/// The prediction at `x` jobs per second, from each resource's utilisation.
pub fn prediction(
    system: &System,
    workload: &Workload,
    release: &Release,
    loads: &Loads,
    mut utilizations: Vec<Utilization>,
    x: f64,
) -> Prediction {
    utilizations.sort_by(|a, b| b.utilization.total_cmp(&a.utilization));
    let devices = devices(system, loads, x, &utilizations);
    let mut bottleneck = bottleneck::find(&utilizations, loads, system);
    bottleneck.sentence += crate::compress::holes_clause(system, workload, release).unwrap_or("");
    if workload.data == Data::Urandom && bottleneck.kind == Kind::Thread {
        bottleneck.sentence += "; before each write the thread reads its data from the kernel's \
                                random device, whose generator runs on the same core";
    }
    // A write phase the dirty-data buffer absorbs in part runs faster than the pool.
    let rate = absorbed(system, workload, release, loads, x, &utilizations);
    let boost = rate / x;
    if boost > 1.0 + 1e-9 {
        bottleneck.sentence += &format!(
            "; the first {:.1} GB of writes go at the application's pace into dirty data (the write throttle's buffer), so the phase averages {:.0}% more",
            release.write_buffer_bytes(system.host.ram_bytes) / 1e9,
            (boost - 1.0) * 100.0
        );
    }
    let iops = rate * loads.requests;
    let outstanding = f64::from(loads.outstanding);
    let class = ErrorClass::of(system, workload);
    Prediction {
        system: system.name.clone(),
        workload: workload.kind.clone(),
        throughput_bytes_per_s: rate * loads.user_bytes,
        read_bytes_per_s: rate * loads.user_read_bytes,
        write_bytes_per_s: rate * loads.user_write_bytes,
        iops,
        mean_latency_s: outstanding / iops,
        concurrency: loads.population,
        arc_hit_ratio: loads.arc_hit,
        expected_error_pct: band::expected_error(class).0,
        expected_error_p90_pct: band::expected_error(class).1,
        error_class: band::describe(class),
        bottleneck,
        utilizations,
        vdevs: vdev_totals(&devices),
        devices,
        not_modelled: crate::unseen::unseen(system, workload, release),
        latency_s: None,
    }
}

/// Jobs per second of a write phase on average: the steady rate `x`, raised where the
/// dirty-data buffer lets the application run ahead of the pool for part of the phase and the
/// timing does not wait for the flush (`app::absorbed_rate`).
fn absorbed(
    system: &System,
    w: &Workload,
    release: &Release,
    loads: &Loads,
    x: f64,
    utils: &[Utilization],
) -> f64 {
    let (Some(bytes), true) = (w.total_bytes(), w.durability == Durability::None) else {
        return x;
    };
    if loads.user_write_bytes <= 0.0
        || loads.user_read_bytes > 0.0
        || matches!(w.target, Target::RawDisk { .. })
    {
        return x;
    }
    // The application alone: its threads, the CPU and the network its data crosses (an
    // absorbed write still comes over the NIC), the disks out of the way.
    let app = utils
        .iter()
        .filter(|u| matches!(u.kind, Kind::Thread | Kind::Cpu | Kind::Network))
        .map(|u| u.max_jobs_per_s)
        .fold(f64::INFINITY, f64::min);
    let per_job = loads.user_write_bytes;
    let buffer = release.write_buffer_bytes(system.host.ram_bytes);
    app::absorbed_rate(bytes as f64, app * per_job, x * per_job, buffer) / per_job
}

/// Per-disk figures at throughput `x` jobs/s.
fn devices(system: &System, loads: &Loads, x: f64, utils: &[Utilization]) -> Vec<DeviceFigures> {
    let busy = |kind, name: &str| {
        utils
            .iter()
            .find(|u| u.kind == kind && u.resource == name)
            .map_or(0.0, |u| u.utilization)
    };
    let fork_of = |i: usize| loads.vdevs.iter().find(|v| v.members.contains(&i));
    system
        .disks
        .iter()
        .zip(&loads.disks)
        .enumerate()
        .filter(|(_, (_, l))| l.read_bytes + l.write_bytes > 0.0)
        .map(|(i, (d, l))| {
            let own = busy(Kind::Disk, &d.name);
            let fork = fork_of(i).map_or(0.0, |v| busy(Kind::Vdev, &v.name));
            DeviceFigures {
                name: d.name.clone(),
                vdev: loads.vdev_of_disk[i].clone(),
                read_ops_per_s: x * l.read_ops,
                write_ops_per_s: x * l.write_ops,
                read_bytes_per_s: x * l.read_bytes,
                write_bytes_per_s: x * l.write_bytes,
                utilization: (own + fork).min(1.0),
            }
        })
        .collect()
}

/// Each vdev's totals, in the order its disks first appear.
fn vdev_totals(devices: &[DeviceFigures]) -> Vec<VdevFigures> {
    let mut out: Vec<VdevFigures> = Vec::new();
    for d in devices {
        let at = match out.iter().position(|v| v.name == d.vdev) {
            Some(i) => i,
            None => {
                out.push(VdevFigures {
                    name: d.vdev.clone(),
                    read_ops_per_s: 0.0,
                    write_ops_per_s: 0.0,
                    read_bytes_per_s: 0.0,
                    write_bytes_per_s: 0.0,
                });
                out.len() - 1
            }
        };
        let v = &mut out[at];
        v.read_ops_per_s += d.read_ops_per_s;
        v.write_ops_per_s += d.write_ops_per_s;
        v.read_bytes_per_s += d.read_bytes_per_s;
        v.write_bytes_per_s += d.write_bytes_per_s;
    }
    out
}
