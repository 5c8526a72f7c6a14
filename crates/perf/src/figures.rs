//! The figures of a solved network: the application's throughput, IOPS and latency, each
//! resource's utilisation, the per-device and per-vdev traffic, the bottleneck, the effect of
//! the dirty-data buffer on a write phase, and the error to expect of the figure. Everything
//! here is worked out from the solution and what the stages found before it (`Findings`):
//! no stage is asked again after the solve.

use crate::bottleneck::{self, Bottleneck};
use crate::expected_error::{self, ErrorClass};
use crate::findings::Findings;
use crate::load::Loads;
use crate::not_modelled::{self, NotModelled};
use crate::release::Release;
use crate::station::{Kind, Utilization};
use model::system::System;
use model::workload::{Data, Durability, Target, Workload};
use serde::Serialize;

/// One disk's traffic, as `zpool iostat -v` and `iostat -x` show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceFigures {
    /// The disk's name, as the system file gives it.
    pub name: String,
    /// The top-level vdev it serves, as `zpool iostat -v` names it.
    pub vdev: String,
    /// Read operations per second.
    pub read_ops_per_s: f64,
    /// Write operations per second.
    pub write_ops_per_s: f64,
    /// Bytes read per second.
    pub read_bytes_per_s: f64,
    /// Bytes written per second.
    pub write_bytes_per_s: f64,
    /// Busy fraction, %b of iostat.
    pub utilization: f64,
}

/// One top-level vdev's traffic: the sum of its disks', as `zpool iostat -v` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VdevFigures {
    /// The vdev's name, as `zpool iostat -v` prints it (`raidz2-0`).
    pub name: String,
    /// Read operations per second.
    pub read_ops_per_s: f64,
    /// Write operations per second.
    pub write_ops_per_s: f64,
    /// Bytes read per second.
    pub read_bytes_per_s: f64,
    /// Bytes written per second.
    pub write_bytes_per_s: f64,
}

/// What the pool will do under the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    /// The system's name.
    pub system: String,
    /// The workload, as the model reads it.
    pub workload: String,
    /// Application bytes per second.
    pub throughput_bytes_per_s: f64,
    /// The application's reads apart (with the writes, the throughput; but a rewrite reports
    /// the bytes rewritten once).
    pub read_bytes_per_s: f64,
    /// The application's writes apart.
    pub write_bytes_per_s: f64,
    /// Application requests per second.
    pub iops: f64,
    /// Mean time of one application request, seconds.
    pub mean_latency_s: f64,
    /// Jobs the model kept in flight.
    pub concurrency: u32,
    /// Share of the block reads the ARC served.
    pub arc_hit_ratio: f64,
    /// How far off a prediction of this kind typically lands, as the measured value relative
    /// to it: within +/- this percent holds the median band of its class under
    /// leave-one-source-out cross-validation (`zpoolsim validate --cv`), `expected_range_pct`.
    pub expected_error_pct: f64,
    /// The same of the p90 band: nine predictions in ten of this class land within it.
    pub expected_error_p90_pct: f64,
    /// The median band as the measured value relative to the prediction, [low, high] percent:
    /// half the machines of this class measure within it (signed, so a class the model
    /// predicts too fast reaches further below the prediction than above).
    pub expected_range_pct: [f64; 2],
    /// The p90 band so: nine machines in ten of this class measure within it.
    pub expected_range_p90_pct: [f64; 2],
    /// The class, in words, and how many published measurements it rests on.
    pub error_class: String,
    /// The resource that limits the workload.
    pub bottleneck: Bottleneck,
    /// Every resource, busiest first.
    pub utilizations: Vec<Utilization>,
    /// Each top-level vdev's traffic.
    pub vdevs: Vec<VdevFigures>,
    /// Each disk's traffic.
    pub devices: Vec<DeviceFigures>,
    /// What of the system and workload the model does not capture, as facts: the front ends
    /// put them in words (the JSON's `not_modelled` sentences are request's).
    #[serde(skip)]
    pub not_modelled: Vec<NotModelled>,
    /// Completion-time percentiles from the simulation (`sim`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_s: Option<crate::Latency>,
}

/// The prediction at `x` jobs per second, from each resource's utilisation.
pub(crate) fn prediction(
    (system, workload, release): (&System, &Workload, &Release),
    findings: &Findings,
    loads: &Loads,
    mut utilizations: Vec<Utilization>,
    x: f64,
) -> Prediction {
    utilizations.sort_by(|a, b| b.utilization.total_cmp(&a.utilization));
    let devices = devices(system, loads, x, &utilizations);
    let mut bottleneck = bottleneck::find(&utilizations, loads, system);
    if findings.holes {
        bottleneck.sentence += "; the data are zeros and the dataset compresses: every record became a hole, so no data reached the disks (this is not the pool's write speed: see fio-write)";
    }
    if matches!(workload.data, Data::Urandom { .. }) && bottleneck.kind == Kind::Thread {
        bottleneck.sentence += "; before each write the thread reads its data from the kernel's \
                                random device, whose generator runs on the same core";
    }
    let rate = phase_rate(
        (system, workload, release),
        loads,
        (x, &utilizations),
        &mut bottleneck.sentence,
    );
    let iops = rate * loads.requests;
    let outstanding = f64::from(loads.outstanding);
    let class = ErrorClass::of(system, workload);
    let expected = expected_error::expected_error(class);
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
        expected_error_pct: expected.p50.of_measured().reach(),
        expected_error_p90_pct: expected.p90.of_measured().reach(),
        expected_range_pct: expected.p50.of_measured().into(),
        expected_range_p90_pct: expected.p90.of_measured().into(),
        error_class: expected_error::describe(class),
        bottleneck,
        utilizations,
        vdevs: vdev_totals(&devices),
        devices,
        not_modelled: not_modelled::not_modelled(system, workload, findings),
        latency_s: None,
    }
}

/// Jobs per second of the phase on average, from the steady rate `x`: a write phase the
/// dirty-data buffer absorbs in part runs faster than the pool, a read pass whose streams
/// start cold slower; each said in `sentence`.
fn phase_rate(
    (system, w, release): (&System, &Workload, &Release),
    loads: &Loads,
    (x, utils): (f64, &[Utilization]),
    sentence: &mut String,
) -> f64 {
    let rate = absorbed(system, w, release, loads, x, utils);
    let boost = rate / x;
    if boost > 1.0 + 1e-9 {
        *sentence += &format!(
            "; the first {:.1} GB of writes go at the application's pace into dirty data (the write throttle's buffer), so the phase averages {:.0}% more",
            release.write_buffer_bytes(system.host.ram_bytes) / 1e9,
            (boost - 1.0) * 100.0
        );
    }
    let steady = rate * loads.user_bytes;
    let (Some(bytes), true) = (w.total_bytes(), steady > 0.0 && loads.start_s > 0.0) else {
        return rate;
    };
    let started = started_rate(bytes as f64, steady, loads.start_s);
    if started >= steady * (1.0 - 1e-3) {
        return started / loads.user_bytes;
    }
    *sentence += &format!(
        "; the pass first waits {:.0} ms, read after read, for the file's indirect blocks and for prefetch to get ahead of the reader (its distance doubles per access), so it averages {:.0}% less",
        loads.start_s * 1e3,
        (1.0 - started / steady) * 100.0
    );
    started / loads.user_bytes
}

/// The average rate of a pass over `bytes` that moves at `steady` bytes/s once its streams
/// run, after `start_s` seconds of waiting at its start.
pub(crate) fn started_rate(bytes: f64, steady: f64, start_s: f64) -> f64 {
    if start_s <= 0.0 || steady <= 0.0 {
        return steady;
    }
    bytes / (start_s + bytes / steady)
}

/// Jobs per second of a write phase on average: the steady rate `x`, raised where the
/// dirty-data buffer lets the application run ahead of the pool for part of the phase and the
/// timing does not wait for the flush (`absorbed_rate`).
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
    absorbed_rate(bytes as f64, app * per_job, x * per_job, buffer) / per_job
}

/// The average rate of a write phase of `bytes` when the application writes at `app` bytes/s
/// until `buffer` bytes of dirty data wait, while the pool drains them at `pool` bytes/s, and
/// at the pool's pace after (docs/zfs-internals.md §2, the write throttle). The timing ends
/// when the last write returns: what is still dirty is not waited for.
pub(crate) fn absorbed_rate(bytes: f64, app: f64, pool: f64, buffer: f64) -> f64 {
    if app <= pool {
        return app;
    }
    // Dirty data grows at app - pool until the buffer is full.
    let fill_s = buffer / (app - pool);
    let written = app * fill_s;
    if bytes <= written {
        return app;
    }
    bytes / (fill_s + (bytes - written) / pool)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_absorbs_the_start_of_a_write() {
        // 1 GB at 2 GB/s into a pool of 500 MB/s with 600 MB of buffer: the buffer fills in
        // 0.4 s (800 MB written), the last 200 MB take 0.4 s: 1.25 GB/s.
        let r = absorbed_rate(1e9, 2e9, 5e8, 6e8);
        // 512 MiB at 1 GB/s after 100 ms: 0.537 s + 0.1 s.
        let s = started_rate(536_870_912.0, 1e9, 0.1);
        assert!((s - 536_870_912.0 / 0.636_870_912).abs() < 1.0, "{s}");
        assert_eq!(started_rate(1e9, 2e9, 0.0), 2e9);
        assert!((r - 1.25e9).abs() < 1.0, "{r}");
        assert_eq!(absorbed_rate(5e8, 2e9, 5e8, 6e8), 2e9);
        assert_eq!(absorbed_rate(1e12, 4e8, 5e8, 6e8), 4e8);
        // Far larger than the buffer: the pool's rate.
        assert!((absorbed_rate(1e13, 2e9, 5e8, 6e8) / 5e8 - 1.0).abs() < 1e-3);
    }
}
