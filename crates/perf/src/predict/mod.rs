//! The prediction: the closed network of resources solved by MVA, each resource's
//! utilisation, the bottleneck, the per-device figures, the effect of the dirty-data buffer on
//! a write phase, and the error to expect of the figure.

use crate::app;
use crate::band::{self, ErrorClass};
use crate::bottleneck::{self, Bottleneck};
use crate::constants::Constants;
use crate::cpu;
use crate::demand::{self, Loads};
use crate::leaf::DiskTiming;
use crate::mva::{self, Centre};
use crate::path::{Kind, Machine};
use crate::release::Release;
use crate::PerfError;
use model::system::System;
use model::workload::{Durability, Target, Workload};
use serde::Serialize;

/// Share of a platform's peak memory bandwidth that streaming code reaches: STREAM results
/// on x86 servers and desktops run at about 65-80% of the DIMMs' peak (McCalpin's STREAM
/// results tables); 0.7 taken.
const MEMORY_STREAM_SHARE: f64 = 0.7;

/// Payload a network link carries per Gb/s of line rate after Ethernet, IP and TCP headers:
/// ~118 MB/s on gigabit, ~1180 on 10 GbE (docs/zfs-internals.md §4).
const NIC_PAYLOAD_MB_S_PER_GBPS: f64 = 118.0;

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
    /// Seconds of service one job needs here (all its servers' time together).
    #[serde(skip)]
    pub demand_s: f64,
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
    /// The class, in words, and how many published measurements it rests on.
    pub error_class: String,
    pub bottleneck: Bottleneck,
    /// Every resource, busiest first.
    pub utilizations: Vec<Utilization>,
    pub vdevs: Vec<VdevFigures>,
    pub devices: Vec<DeviceFigures>,
    /// What of the system and workload the model does not capture, one sentence each.
    pub not_modelled: Vec<String>,
}

/// Predicts throughput, IOPS, latency and the bottleneck of `workload` on `system`, with the
/// committed constants.
pub fn predict(system: &System, workload: &Workload) -> Result<Prediction, PerfError> {
    predict_with(system, workload, &Constants::fitted())
}

/// `predict` with other values of the fitted constants (the refit and cross-validation).
pub fn predict_with(
    system: &System,
    workload: &Workload,
    constants: &Constants,
) -> Result<Prediction, PerfError> {
    let release = Release::of(system.host.zfs, &system.host.tunables);
    let loads = demand::loads(system, workload, &release, constants)?;
    let machine = Machine::new(system)?;
    let mut stations = stations(system, workload, &machine, &loads, constants);
    // Ports, controllers, links, memory and the network move a request's data while the disk
    // is still transferring it (DMA is pipelined): they bound throughput but add no service
    // time of their own, so the network solved by MVA holds the disks, vdevs and the CPU, and
    // the application's threads when it waits on each request.
    let queueing: Vec<usize> = (0..stations.len()).filter(|&i| !stations[i].pipe).collect();
    let centres: Vec<Centre> = queueing
        .iter()
        .map(|&i| Centre {
            demand_s: stations[i].demand_s,
            servers: stations[i].servers,
            demand_by_jobs_s: stations[i].by_jobs_s.clone(),
        })
        .collect();
    let solution = mva::solve(&centres, 0.0, loads.population.max(1));
    // A disk that reorders its queue is as busy per job as the queue it sees lets it be.
    for (&i, demand) in queueing.iter().zip(&solution.demand_s) {
        stations[i].demand_s = *demand;
    }
    let x = stations
        .iter()
        .filter(|s| s.pipe)
        .map(|s| f64::from(s.servers) / s.demand_s)
        .fold(solution.throughput, f64::min);
    if !x.is_finite() || x <= 0.0 {
        let why = if workload.network && system.host.nics.iter().all(|n| n.gbps <= 0.0) {
            "net=on, but the system has no network interface (host.nics)"
        } else {
            "the workload moves no data on this system"
        };
        return Err(PerfError::Workload(why.into()));
    }
    let mut utilizations: Vec<Utilization> = stations
        .into_iter()
        .map(|s| Utilization {
            utilization: x * s.demand_s / f64::from(s.servers),
            max_jobs_per_s: f64::from(s.servers) / s.demand_s,
            demand_s: s.demand_s,
            ..s.utilization
        })
        .collect();
    utilizations.sort_by(|a, b| b.utilization.total_cmp(&a.utilization));
    let devices = devices(system, &loads, x, &utilizations);
    let mut bottleneck = bottleneck::find(&utilizations, &loads, system);
    bottleneck.sentence += crate::compress::holes_clause(system, workload, &release).unwrap_or("");
    // A write phase the dirty-data buffer absorbs in part runs faster than the pool.
    let rate = absorbed(system, workload, &release, &loads, x, &utilizations);
    let boost = rate / x;
    if boost > 1.0 + 1e-9 {
        bottleneck.sentence += &format!(
            "; the first {:.1} GB of writes go at the application's pace into dirty data (the write throttle's buffer), so the phase averages {:.0}% more",
            release.write_buffer_bytes(system.host.ram_bytes) / 1e9,
            (boost - 1.0) * 100.0
        );
    }
    let iops = rate * loads.requests;
    let outstanding = f64::from(app::outstanding(workload, &release));
    let class = ErrorClass::of(system, workload);
    Ok(Prediction {
        system: system.name.clone(),
        workload: workload.kind.clone(),
        throughput_bytes_per_s: rate * loads.user_bytes,
        read_bytes_per_s: rate * loads.user_read_bytes,
        write_bytes_per_s: rate * loads.user_write_bytes,
        iops,
        mean_latency_s: outstanding / iops,
        concurrency: loads.population,
        arc_hit_ratio: loads.arc_hit,
        expected_error_pct: band::expected_error_pct(class),
        error_class: band::describe(class),
        bottleneck,
        utilizations,
        vdevs: vdev_totals(&devices),
        devices,
        not_modelled: crate::unseen::unseen(system, workload),
    })
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
    if loads.user_write_bytes <= 0.0 || loads.user_read_bytes > 0.0 || w.target != Target::Pool {
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

/// Work one sweep may do, in points x disks (a prediction costs in proportion to the disks):
/// the costliest workloads take 0.37 s a point on 10,000 disks on the CI machine, so the most
/// allowed takes about 5 s. A policy.
pub const MAX_SWEEP_WORK: u64 = 150_000;

/// Predictions along one parameter (`threads`, `qd`, `bs`, ...), one per value; refused before
/// the first past [`MAX_SWEEP_WORK`].
pub fn sweep(
    system: &System,
    workload: &Workload,
    parameter: &str,
    values: &[String],
) -> Result<Vec<Prediction>, PerfError> {
    let disks = system.disks.len().max(1) as u64;
    model::budget::check(
        "points x disks",
        (values.len() as u64).saturating_mul(disks),
        MAX_SWEEP_WORK,
        || {
            format!(
                "sweep at most {} points on {disks} disks",
                MAX_SWEEP_WORK / disks
            )
        },
    )
    .map_err(PerfError::OverBudget)?;
    values
        .iter()
        .map(|v| {
            let mut w = workload.clone();
            w.set(parameter, v).map_err(|e| PerfError::Workload(e.0))?;
            predict(system, &w)
        })
        .collect()
}

/// One resource: what it is, its demand per job in seconds, its servers, its demand by the
/// jobs queued there where that matters (see `mva::Centre`), and whether it only bounds the
/// rate (a pipe) or is part of each job's cycle.
struct Station {
    utilization: Utilization,
    demand_s: f64,
    servers: u32,
    by_jobs_s: Vec<f64>,
    pipe: bool,
}

/// Every resource with work to do.
fn stations(
    system: &System,
    workload: &Workload,
    machine: &Machine,
    loads: &Loads,
    constants: &Constants,
) -> Vec<Station> {
    let mut out = Vec::new();
    let mut add = |resource: String,
                   kind: Kind,
                   detail: String,
                   demand: f64,
                   servers: u32,
                   bytes,
                   by_jobs: &[f64]| {
        if demand > 0.0 {
            let pipe = match kind {
                Kind::Thread => !loads.app_in_cycle,
                other => other.is_pipe(),
            };
            out.push(Station {
                utilization: Utilization {
                    resource,
                    kind,
                    detail,
                    utilization: 0.0,
                    max_jobs_per_s: 0.0,
                    bytes_per_job: bytes,
                    demand_s: demand,
                },
                demand_s: demand,
                servers,
                // A table of one entry is the fixed demand.
                by_jobs_s: if by_jobs.len() > 1 {
                    by_jobs.to_vec()
                } else {
                    Vec::new()
                },
                pipe,
            });
        }
    };
    for (d, load) in system.disks.iter().zip(&loads.disks) {
        let t = DiskTiming::new(&d.model, constants.disk_command_overhead_s());
        add(
            d.name.clone(),
            Kind::Disk,
            format!("{} {}", d.model.vendor, d.model.model),
            load.busy_s,
            t.parallelism(),
            load.read_bytes + load.write_bytes,
            &load.busy_queued_s,
        );
        if !t.is_rotating() {
            let (read, write) = (t.rate_at(0.0, false), t.rate_at(0.0, true));
            add(
                format!("{} media", d.name),
                Kind::Media,
                format!("{:.0} MB/s read, {:.0} MB/s write", read / 1e6, write / 1e6),
                load.read_bytes / read + load.write_bytes / write,
                1,
                load.read_bytes + load.write_bytes,
                &[],
            );
        }
    }
    for v in &loads.vdevs {
        // Solid-state members serve as many blocks at once as each serves requests.
        let servers = v
            .members
            .iter()
            .map(|&i| DiskTiming::new(&system.disks[i].model, 0.0).parallelism())
            .min()
            .unwrap_or(1);
        add(
            v.name.clone(),
            Kind::Vdev,
            format!("{} data disks per random block", v.width),
            v.busy_s,
            servers,
            0.0,
            &v.busy_queued_s,
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
            &[],
        );
    }
    let cpu = &system.host.cpu;
    if let Some(peak) = cpu.memory_mb_s {
        let rate = peak * 1e6 * MEMORY_STREAM_SHARE;
        add(
            "memory".into(),
            Kind::Memory,
            format!("{:.1} GB/s usable of {:.1} peak", rate / 1e9, peak / 1e3),
            loads.memory_bytes / rate,
            1,
            loads.memory_bytes,
            &[],
        );
    }
    if workload.network {
        let rate: f64 = system
            .host
            .nics
            .iter()
            .map(|n| n.gbps * f64::from(n.ports) * NIC_PAYLOAD_MB_S_PER_GBPS * 1e6)
            .sum();
        for (name, bytes) in [
            ("nic (out)", loads.user_read_bytes),
            ("nic (in)", loads.user_write_bytes),
        ] {
            add(
                name.into(),
                Kind::Network,
                format!("{:.0} MB/s of payload each way", rate / 1e6),
                if rate > 0.0 {
                    bytes / rate
                } else {
                    f64::INFINITY
                },
                1,
                bytes,
                &[],
            );
        }
    }
    let cores = cpu.cores * system.host.sockets.max(1);
    let threads = loads.app_threads.min(cores).max(1);
    add(
        "application threads".into(),
        Kind::Thread,
        format!(
            "{threads} thread(s) making their system calls and copying their data at {} GHz",
            cpu.ghz
        ),
        cpu::seconds(cpu, loads.app_cycles),
        threads,
        0.0,
        &[],
    );
    // The application's own cycles are its threads' station when it waits on each job: the
    // CPU station then carries the kernel's work alone, so a job's time counts them once.
    let kernel = if loads.app_in_cycle {
        loads.cpu_cycles - loads.app_cycles
    } else {
        loads.cpu_cycles
    };
    add(
        "cpu".into(),
        Kind::Cpu,
        format!("{}: {cores} cores x {} GHz", cpu.name, cpu.ghz),
        cpu::seconds(cpu, kernel),
        cores,
        0.0,
        &[],
    );
    out
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
mod tests;
