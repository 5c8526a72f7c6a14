//! The prediction: the closed network of resources solved by MVA, each resource's
//! utilisation, the bottleneck and the per-device figures.

use crate::bottleneck::{self, Bottleneck};
use crate::demand::{self, Loads};
use crate::mva::{self, Centre};
use crate::profile::Profile;
use crate::resources::{Kind, Machine};
use crate::PerfError;
use model::system::System;
use model::workload::Workload;
use serde::Serialize;

/// One resource's share of the work.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Utilization {
    pub resource: String,
    pub kind: Kind,
    pub detail: String,
    /// Busy fraction (0..=1), per server for the CPU.
    pub utilization: f64,
    /// Jobs per second this resource alone could serve: its bound.
    #[serde(skip)]
    pub max_jobs_per_s: f64,
    /// Bytes it moves per job (byte-carrying resources), for the bottleneck sentence.
    #[serde(skip)]
    pub bytes_per_job: f64,
}

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

/// What the pool will do under the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    pub system: String,
    pub workload: String,
    pub throughput_bytes_per_s: f64,
    pub iops: f64,
    pub mean_latency_s: f64,
    /// Jobs the model kept in flight.
    pub concurrency: u32,
    pub bottleneck: Bottleneck,
    /// Every resource, busiest first.
    pub utilizations: Vec<Utilization>,
    pub devices: Vec<DeviceFigures>,
}

/// Predicts throughput, IOPS, latency and the bottleneck of `workload` on `system`.
pub fn predict(system: &System, workload: &Workload) -> Result<Prediction, PerfError> {
    let profile = Profile::of(system.host.zfs);
    let loads = demand::loads(system, workload, &profile)?;
    let machine = Machine::new(system)?;
    let mut stations = stations(system, &machine, &loads);
    // Ports, controllers and links move a request's data while the disk is still
    // transferring it (DMA is pipelined): they bound throughput but add no service time of
    // their own, so the network solved by MVA holds the disks, vdevs and the CPU.
    let is_pipe = |k: Kind| matches!(k, Kind::Port | Kind::Controller | Kind::Link);
    let centres: Vec<Centre> = stations
        .iter()
        .filter(|s| !is_pipe(s.0.kind))
        .map(|s| Centre {
            demand_s: s.1,
            servers: s.2,
        })
        .collect();
    let (x_mva, _cycle) = mva::solve(&centres, 0.0, loads.population.max(1), &mut Vec::new());
    let x = stations
        .iter()
        .filter(|s| is_pipe(s.0.kind))
        .map(|s| 1.0 / s.1)
        .fold(x_mva, f64::min);
    if !x.is_finite() || x <= 0.0 {
        return Err(PerfError::Workload(
            "the workload moves no data on this system".into(),
        ));
    }
    let mut utilizations: Vec<Utilization> = stations
        .drain(..)
        .map(|(u, demand, servers)| Utilization {
            utilization: x * demand / f64::from(servers),
            max_jobs_per_s: f64::from(servers) / demand,
            ..u
        })
        .collect();
    utilizations.sort_by(|a, b| b.utilization.total_cmp(&a.utilization));
    let devices = devices(system, &loads, x, &utilizations);
    let iops = x * loads.requests;
    let outstanding = f64::from(workload.outstanding().max(1));
    Ok(Prediction {
        system: system.name.clone(),
        workload: workload.kind.clone(),
        throughput_bytes_per_s: x * loads.user_bytes,
        iops,
        mean_latency_s: outstanding / iops,
        concurrency: loads.population,
        bottleneck: bottleneck::find(&utilizations, &loads, system),
        utilizations,
        devices,
    })
}

/// Predictions along one parameter (`threads`, `qd`, `bs`, ...), one per value.
pub fn sweep(
    system: &System,
    workload: &Workload,
    parameter: &str,
    values: &[String],
) -> Result<Vec<Prediction>, PerfError> {
    values
        .iter()
        .map(|v| {
            let mut w = workload.clone();
            w.set(parameter, v).map_err(|e| PerfError::Workload(e.0))?;
            predict(system, &w)
        })
        .collect()
}

/// Every resource with work to do: (what it is, demand per job in seconds, servers).
fn stations(system: &System, machine: &Machine, loads: &Loads) -> Vec<(Utilization, f64, u32)> {
    let mut out = Vec::new();
    let mut add = |resource: String, kind, detail: String, demand: f64, servers: u32, bytes| {
        if demand > 0.0 {
            let u = Utilization {
                resource,
                kind,
                detail,
                utilization: 0.0,
                max_jobs_per_s: 0.0,
                bytes_per_job: bytes,
            };
            out.push((u, demand, servers));
        }
    };
    for (d, load) in system.disks.iter().zip(&loads.disks) {
        let t = crate::disk::DiskTiming::new(&d.model);
        add(
            d.name.clone(),
            Kind::Disk,
            format!("{} {}", d.model.vendor, d.model.model),
            load.busy_s,
            t.parallelism(),
            load.read_bytes + load.write_bytes,
        );
    }
    for v in &loads.vdevs {
        add(
            v.name.clone(),
            Kind::Vdev,
            format!("{} data disks per random block", v.width),
            v.busy_s,
            1,
            0.0,
        );
    }
    let mut pipe_bytes = vec![0.0f64; machine.pipes.len()];
    let mut pipe_demand = vec![0.0f64; machine.pipes.len()];
    for (path, load) in machine.paths.iter().zip(&loads.disks) {
        for &p in path {
            let pipe = &machine.pipes[p];
            let bytes = if pipe.reads { load.read_bytes } else { 0.0 }
                + if pipe.writes { load.write_bytes } else { 0.0 };
            pipe_bytes[p] += bytes;
            pipe_demand[p] += bytes / pipe.rate;
        }
    }
    for (i, pipe) in machine.pipes.iter().enumerate() {
        add(
            pipe.name.clone(),
            pipe.kind,
            pipe.detail.clone(),
            pipe_demand[i],
            1,
            pipe_bytes[i],
        );
    }
    let cpu = &system.host.cpu;
    let cores = cpu.cores * system.host.sockets.max(1);
    add(
        "cpu".into(),
        Kind::Cpu,
        format!("{}: {cores} cores x {} GHz", cpu.name, cpu.ghz),
        loads.cpu_cycles / (cpu.ghz * 1e9),
        cores,
        0.0,
    );
    out
}

/// Per-disk figures at throughput `x` jobs/s.
fn devices(system: &System, loads: &Loads, x: f64, utils: &[Utilization]) -> Vec<DeviceFigures> {
    let fork_of = |i: usize| loads.vdevs.iter().find(|v| v.members.contains(&i));
    system
        .disks
        .iter()
        .zip(&loads.disks)
        .enumerate()
        .filter(|(_, (_, l))| l.read_bytes + l.write_bytes > 0.0)
        .map(|(i, (d, l))| {
            let own = utils
                .iter()
                .find(|u| u.kind == Kind::Disk && u.resource == d.name)
                .map_or(0.0, |u| u.utilization);
            let fork = fork_of(i).map_or(0.0, |v| x * v.busy_s);
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
