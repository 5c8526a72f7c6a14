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
        return Err(PerfError::Workload(
            "the workload moves no data on this system".into(),
        ));
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
    // A write phase the dirty-data buffer absorbs in part runs faster than the pool.
    let rate = absorbed(system, workload, &release, &loads, x, &utilizations);
    let boost = rate / x;
    if boost > 1.0 + 1e-9 {
        bottleneck.sentence += &format!(
            "; the first {:.1} GB of writes go at the application's pace into dirty data              (the write throttle's buffer), so the phase averages {:.0}% more",
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
    // The application alone: its threads and the CPU, the disks out of the way.
    let app = utils
        .iter()
        .filter(|u| matches!(u.kind, Kind::Thread | Kind::Cpu))
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
        add(
            v.name.clone(),
            Kind::Vdev,
            format!("{} data disks per random block", v.width),
            v.busy_s,
            1,
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
mod tests {
    use super::*;
    use crate::testkit::{fast_link, system};
    use model::hardware::LinkKind;

    fn mb_s(p: &Prediction) -> f64 {
        p.throughput_bytes_per_s / 1e6
    }

    #[test]
    fn a_stripe_runs_at_n_times_its_slowest_disk() {
        let mut s = system("stripe-7", 7, 97.0, fast_link());
        s.disks[3].model.seq_outer_mb_s = 81.0;
        let p = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
        // 256 blocks in flight over 7 disks: within 3% of the bound 7 x 81.
        assert!(mb_s(&p) <= 567.0 + 1e-6 && mb_s(&p) > 550.0, "{}", mb_s(&p));
        assert_eq!(p.bottleneck.resource, "d3");
        assert!(p.bottleneck.sentence.contains("81.0 MB/s x 7.00"));
    }

    #[test]
    fn disks_share_a_parallel_bus() {
        // Four 100 MB/s disks behind one 32-bit/33 MHz PCI bus: 87 MB/s for all of them.
        let pci = LinkKind::Pci {
            bits: 32,
            mhz: 33.33,
        };
        let p = predict(
            &system("stripe-4", 4, 100.0, pci),
            &Workload::parse("dd-read").unwrap(),
        )
        .unwrap();
        assert!((mb_s(&p) - 87.0).abs() < 1.0, "{}", mb_s(&p));
        assert_eq!(p.bottleneck.kind, Kind::Link);
        // The bus carries parity and both mirror sides: raidz1-5 writes get 4/5 of it, a
        // mirror 1/2.
        let pcix = LinkKind::PciX {
            bits: 64,
            mhz: 133.33,
        };
        let bus = bus_rate(&pcix);
        let w = Workload::parse("dd-write").unwrap();
        let z = predict(&system("raidz1-5", 5, 150.0, pcix), &w).unwrap();
        let m = predict(&system("mirror-2", 2, 400.0, pcix), &w).unwrap();
        let meta = 1.0 + 256.0 / 131072.0;
        assert!((mb_s(&z) - bus * 0.8 / meta).abs() < 0.5, "{}", mb_s(&z));
        assert!((mb_s(&m) - bus * 0.5 / meta).abs() < 0.5, "{}", mb_s(&m));
        // The same disks on a fast link are bound by themselves.
        let fast = predict(
            &system("stripe-4", 4, 100.0, fast_link()),
            &Workload::parse("dd-read").unwrap(),
        )
        .unwrap();
        assert_eq!(fast.bottleneck.kind, Kind::Disk);
    }

    fn bus_rate(kind: &LinkKind) -> f64 {
        crate::bus::usable_bytes_per_s(kind, true) / 1e6
    }

    #[test]
    fn raidz_streams_at_data_disks_times_the_rate() {
        // A sequential pass turns past the parity too: (w - p) x S, the rule of thumb.
        let p = predict(
            &system("raidz2-6", 6, 200.0, fast_link()),
            &Workload::parse("dd-read").unwrap(),
        )
        .unwrap();
        assert!(mb_s(&p) < 800.0 && mb_s(&p) > 770.0, "{}", mb_s(&p));
    }

    #[test]
    fn raidz_writes_pass_the_padding_like_reads() {
        // raidz2-8 at ashift 12: a 128 KiB record is 32 data + 12 parity sectors, padded to 45
        // (a multiple of p + 1 = 3), so each disk passes 45/8 sectors of 4 KiB per record
        // reading or writing: 8 x 200 MB/s x 32/45 = 1137.8 MB/s, writes less the metadata.
        let s = system("raidz2-8", 8, 200.0, fast_link());
        let read = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
        let write = predict(&s, &Workload::parse("dd-write").unwrap()).unwrap();
        let bound = 131072.0 / (45.0 * 4096.0 / 8.0 / 200e6);
        let meta = 1.0 + 256.0 / 131072.0;
        assert!(
            (read.bottleneck.limit - bound).abs() < 1.0,
            "{:?}",
            read.bottleneck
        );
        // The txg's writes reach the fitted share of the media rate.
        let efficiency = Constants::fitted().hdd_write_efficiency();
        let expected = bound / meta * efficiency;
        assert!(
            (write.bottleneck.limit - expected).abs() < 1.0,
            "{}",
            write.bottleneck.limit
        );
        assert!(write.bottleneck.limit < read.bottleneck.limit);
    }

    #[test]
    fn a_large_random_request_positions_once_per_disk() {
        // raidz1-4, one 16 MiB request at a time: 128 records of 128 KiB, 32 KiB of data per
        // disk each, so every disk seeks once (8.5 ms), waits for the slowest of 4 rotations
        // (4/5 of 8.33 ms), and reads 4 MiB at mid-disk (118.6 MB/s: 35.37 ms), plus 0.1 ms of
        // command: 50.63 ms. The CPU adds 128 x 5 zios x 15,000 reference cycles and the
        // fletcher4 check (AVX2, 0.19 cycles per byte): 12.79 M; the application's read call
        // (8,000) and copy (0.5 per byte): 8.40 M; on a 2024 core at 3 GHz (0.7 of a
        // reference cycle each) 2.98 + 1.96 ms: 55.57 ms. One record at a time took 128 x
        // 15.5 ms.
        let s = system("raidz1-4", 4, 150.0, fast_link());
        let w = Workload::parse("fio-randread:bs=16M").unwrap();
        let p = predict(&s, &w).unwrap();
        assert!(
            (p.mean_latency_s * 1e3 - 55.57).abs() < 0.1,
            "{}",
            p.mean_latency_s * 1e3
        );
        // The CPU's 5 ms leave the vdev 91% busy, past the 90% at which a resource is taken
        // to limit the pool: the sentence names its 50.6 ms per block.
        let b = &p.bottleneck.sentence;
        assert!(b.starts_with("raidz1-4-0 limits the pool"), "{b}");
        assert!(b.contains("takes 50.6 ms"), "{b}");
        assert!((p.iops - 1.0 / 55.57e-3).abs() < 0.05, "{}", p.iops);
        // Over a stripe the request's four 4 MiB pieces run at once: faster than the four
        // disks one after the other (4 x 48.1 ms), never faster than one disk's 48.1 ms.
        let stripe = predict(&system("stripe-4", 4, 150.0, fast_link()), &w).unwrap();
        assert!(stripe.iops > 1.5 / (4.0 * 48.1e-3) && stripe.iops < 1.0 / 48.1e-3);
    }

    #[test]
    fn a_raidz_disk_is_one_server_for_reads_and_writes() {
        // Random 4 KiB writes read the old record (fork-join over the vdev's data disks) and
        // write the new one: both on the same disks, so one station carries both and no disk
        // appears apart (it would count each disk twice).
        let s = system("raidz1-4", 4, 150.0, fast_link());
        let w = Workload::parse("fio-randwrite:bs=4K,qd=32").unwrap();
        let p = predict(&s, &w).unwrap();
        assert!(p.utilizations.iter().all(|u| u.kind != Kind::Disk));
        assert_eq!(p.bottleneck.kind, Kind::Vdev);
        assert!(p.devices.iter().all(|d| d.utilization <= 1.0));
        // The writes' share: 44 sectors of 4 KiB per record over 4 disks, plus metadata, at
        // the mean rate of the whole disk.
        let c = Constants::fitted();
        let release = Release::of(s.host.zfs, &s.host.tunables);
        let loads = crate::demand::loads(&s, &w, &release, &c).unwrap();
        let t = DiskTiming::new(&s.disks[0].model, c.disk_command_overhead_s());
        let rate = t.mean_rate(0.0, 1.0, true) * c.hdd_write_efficiency();
        let write_s = 44.0 * 4096.0 / 4.0 * (1.0 + 256.0 / 131072.0) / rate;
        assert!((loads.vdevs[0].other_s - write_s).abs() < 1e-9);
    }

    #[test]
    fn one_request_in_flight_is_latency_bound() {
        // Four disks, one 4 KiB read at a time: each disk is busy a quarter of the time, so
        // none limits the pool; the request's time (13.90 ms, as below) is the limit, and the
        // busiest disk would allow 1 / 0.25 - 1 = 300% more (a little more: the CPU takes a
        // share of the time).
        let mut s = system("stripe-4", 4, 150.0, fast_link());
        for d in &mut s.disks {
            d.model.queue_depth = 1;
        }
        let p = predict(&s, &Workload::parse("fio-randread:bs=4K").unwrap()).unwrap();
        let b = &p.bottleneck;
        assert!(
            b.sentence.contains("1 request(s) in flight x 13.90 ms"),
            "{}",
            b.sentence
        );
        assert!(b.sentence.contains("the disks take the largest share"));
        assert_eq!(b.kind, Kind::Disk);
        let headroom = b.headroom_pct.unwrap();
        assert!(headroom > 300.0 && headroom < 301.0, "{headroom}");
        assert!((b.limit - p.iops).abs() < 1e-9);
        // Saturated: the same disks under 64 threads are the limit again.
        let busy = predict(
            &s,
            &Workload::parse("fio-randread:bs=4K,threads=64").unwrap(),
        );
        assert!(busy
            .unwrap()
            .bottleneck
            .sentence
            .contains("limits the pool"));
    }

    #[test]
    fn resource_names_do_not_repeat_their_kind() {
        let u = |resource: &str, kind| Utilization {
            resource: resource.into(),
            kind,
            detail: String::new(),
            utilization: 0.0,
            max_jobs_per_s: 0.0,
            bytes_per_job: 0.0,
            demand_s: 0.0,
        };
        let name = |r, k| crate::bottleneck::named(&u(r, k));
        assert_eq!(
            name("application threads", Kind::Thread),
            "application threads"
        );
        assert_eq!(name("sd0 port", Kind::Port), "sd0 port");
        assert_eq!(name("cpu", Kind::Cpu), "cpu");
        assert_eq!(name("sd0", Kind::Disk), "disk sd0");
    }

    #[test]
    fn a_mirror_streams_one_reader_at_one_disk_rate() {
        // OpenZFS alternates a stream's reads in runs of 5 records (640 KiB), which pass under
        // the other side's head sooner than it could seek past them: each side's time covers
        // the whole stream, so the bound is one disk's 200 MB/s; two readers settle on a side
        // each: 400 MB/s. A stripe of the two disks gives 400 MB/s to one reader.
        let s = system("mirror-2", 2, 200.0, fast_link());
        let one = predict(&s, &Workload::parse("dd-read").unwrap()).unwrap();
        let two = predict(&s, &Workload::parse("iozone-read:t=2").unwrap()).unwrap();
        assert!(
            (one.bottleneck.limit / 1e6 - 200.0).abs() < 0.01,
            "{:?}",
            one.bottleneck
        );
        assert!((two.bottleneck.limit / 1e6 - 400.0).abs() < 0.01);
    }

    #[test]
    fn random_reads_follow_mva_with_threads() {
        // Disks that queue no commands: each a fixed-rate centre.
        let mut s = system("stripe-4", 4, 150.0, fast_link());
        for d in &mut s.disks {
            d.model.queue_depth = 1;
        }
        let at = |s: &System, t: u32| {
            let w = Workload::parse(&format!("fio-randread:bs=4K,threads={t}")).unwrap();
            predict(s, &w).unwrap()
        };
        let one = at(&s, 1);
        // One request at a time: IOPS = 1 / service time: 0.1 overhead + 8.5 seek + 4.17
        // rotation + 1.1 ms to read the whole 128 KiB record at mid-disk (118.6 MB/s), plus
        // ~0.02 ms of CPU.
        let service = one.mean_latency_s;
        assert!((service * 1e3 - 13.89).abs() < 0.03, "{}", service * 1e3);
        // Four balanced disks, N jobs: X = N / (D (K + N - 1)) with D the per-disk demand.
        let four = at(&s, 4);
        let exact = 4.0 / (service / 4.0 * 7.0);
        assert!(
            (four.iops - exact).abs() / exact < 1e-3,
            "{} vs {exact}",
            four.iops
        );
        assert!(at(&s, 64).iops <= 4.0 / service + 1e-9);
        // Disks with NCQ serve the nearest of their queue: the same at one thread, more
        // beyond, and past the bound of one request at a time once queues form.
        let ncq = system("stripe-4", 4, 150.0, fast_link());
        assert!((at(&ncq, 1).iops - one.iops).abs() < 1e-9 * one.iops);
        assert!(at(&ncq, 4).iops > four.iops);
        assert!(
            at(&ncq, 64).iops > 1.5 * 4.0 / service,
            "{}",
            at(&ncq, 64).iops
        );
    }

    #[test]
    fn a_disk_reorders_what_zfs_and_the_controller_let_it() {
        let iops = |s: &System, qd: u32| {
            let w = Workload::parse(&format!("fio-randread:bs=4K,qd={qd}")).unwrap();
            predict(s, &w).unwrap().iops
        };
        let s = system("stripe-1", 1, 150.0, fast_link());
        let (one, ten, many) = (iops(&s, 1), iops(&s, 32), iops(&s, 64));
        // OpenZFS keeps 10 sync reads active per leaf: 64 queued reorder no better than 32.
        assert!((many - ten).abs() < 1e-3 * ten, "{many} vs {ten}");
        assert!(ten > 1.7 * one, "{ten} vs {one}");
        // The 2008 releases keep 35 active: the disk's 32 all reorder.
        let mut old = s.clone();
        old.host.zfs = model::system::ZfsRelease::Solaris { year: 2008 };
        assert!(iops(&old, 32) > 1.2 * ten, "{}", iops(&old, 32));
        // Behind a driver without command queueing the disk sees one request at a time.
        let mut plain = s.clone();
        plain.controllers[0].model.command_queueing = false;
        assert!(iops(&plain, 32) < 1.01 * one, "{}", iops(&plain, 32));
    }

    #[test]
    fn a_raidz_vdev_serves_random_blocks_like_one_disk() {
        let w = Workload::parse("fio-randread:bs=4K,qd=32").unwrap();
        let z = predict(&system("raidz1-5", 5, 150.0, fast_link()), &w).unwrap();
        let d = predict(&system("stripe-1", 1, 150.0, fast_link()), &w).unwrap();
        // All four data disks turn for every block: fewer IOPS than one disk alone.
        assert!(
            z.iops < d.iops && z.iops > 0.6 * d.iops,
            "{} vs {}",
            z.iops,
            d.iops
        );
        assert_eq!(z.bottleneck.kind, Kind::Vdev);
    }

    #[test]
    fn thirty_five_blocks_in_flight_saturate_a_disk() {
        // Seed 004: "35 concurrent 128K I/O ... allows ZFS to get 60MB/sec out of the same
        // disk". The 2008 queue keeps 35 per leaf; one leaf gets 35 blocks of 128 KiB.
        let mut s = system("stripe-1", 1, 66.0, fast_link());
        s.host.zfs = model::system::ZfsRelease::Solaris { year: 2008 };
        let p = predict(&s, &Workload::parse("dd-write").unwrap()).unwrap();
        assert_eq!(p.concurrency, 35);
        assert_eq!(p.bottleneck.kind, Kind::Disk);
        assert!(
            p.bottleneck.utilization > 0.97,
            "{}",
            p.bottleneck.utilization
        );
        // Metadata (two copies of a 128-byte block pointer per block) takes 0.2% of it, and
        // the txg's writes reach the fitted share of the media rate.
        let efficiency = Constants::fitted().hdd_write_efficiency();
        let expected = 66.0 * efficiency / (1.0 + 256.0 / 131072.0);
        assert!(
            (mb_s(&p) - expected).abs() < 1.5,
            "{} vs {expected}",
            mb_s(&p)
        );
    }

    #[test]
    fn compression_halves_the_disk_bytes_and_costs_cpu() {
        let w = Workload::parse("dd-write:data=random").unwrap();
        let plain = system("stripe-2", 2, 100.0, fast_link());
        let mut packed = plain.clone();
        packed.pool.datasets[0].compression = model::dataset::Compression::Lz4;
        packed.pool.datasets[0].compression_ratio = 2.0;
        let (a, b) = (predict(&plain, &w).unwrap(), predict(&packed, &w).unwrap());
        let ratio = b.throughput_bytes_per_s / a.throughput_bytes_per_s;
        assert!((ratio - 2.0).abs() < 0.02, "{ratio}");
        let cpu = |p: &Prediction| {
            p.utilizations
                .iter()
                .find(|u| u.kind == Kind::Cpu)
                .map(|u| u.utilization / p.throughput_bytes_per_s)
                .unwrap()
        };
        // CPU per byte grows by lz4's 6.3 cycles/byte over the copy, checksum and zio cost.
        assert!(cpu(&b) > 3.0 * cpu(&a));
    }

    #[test]
    fn one_thread_copying_from_the_arc_is_the_limit() {
        // A 10 GiB file in a 64 GiB machine's ARC: no disk I/O; one dd thread makes a read
        // call (8,000 reference cycles, modern code) and copies 0.5 cycles per byte for each
        // MiB, on a 2024 core that does a reference cycle's work in 0.7 of its own, at 3 GHz:
        // 8.44 GB/s; eight threads eight times that.
        let s = system("stripe-4", 4, 150.0, fast_link());
        let one = predict(&s, &Workload::parse("dd-read:size=10G").unwrap()).unwrap();
        assert_eq!(one.bottleneck.kind, Kind::Thread);
        let per_mib = (Constants::fitted().read_call_cycles(crate::release::Era::Modern)
            + 0.5 * 1_048_576.0)
            * 0.7;
        let expected = 1_048_576.0 * 3e9 / per_mib / 1e6;
        assert!(
            (mb_s(&one) - expected).abs() < 1.0,
            "{} vs {expected}",
            mb_s(&one)
        );
        let eight = predict(&s, &Workload::parse("iozone-read:size=5G,t=8").unwrap()).unwrap();
        assert!((mb_s(&eight) / mb_s(&one) - 8.0).abs() < 0.01);
        assert!(one.devices.is_empty());
    }

    #[test]
    fn raw_random_reads_are_one_disk() {
        // fio on the raw device, queue depth 1: 1 / (0.1 + 8.5 + 4.17 + 0.05 ms) = 78 IOPS,
        // what the rule of thumb calls I.
        let s = system("stripe-4", 4, 100.0, fast_link());
        let p = predict(&s, &Workload::parse("raw-randread").unwrap()).unwrap();
        assert!((p.iops - 78.0).abs() < 0.5, "{}", p.iops);
        assert_eq!(p.devices.len(), 1);
    }

    #[test]
    fn bonnie_seeks_grow_sub_linearly_with_vdevs() {
        // Seed 001's observation: 4 seekers spread over K vdevs queue less as K grows, so the
        // rate grows like 4K / (K + 3), not like K (MVA, balanced centres).
        let seeks = Workload::parse("bonnie-seeks").unwrap();
        let rate = |layout: &str, n: usize| {
            predict(&system(layout, n, 72.0, fast_link()), &seeks)
                .unwrap()
                .iops
        };
        let (z3, z5, m7) = (
            rate("3x raidz1-5", 15),
            rate("5x raidz1-3", 15),
            rate("7x mirror-2", 14),
        );
        assert!(z3 < z5 && z5 < m7, "{z3} {z5} {m7}");
        // Five vdevs instead of three: far less than 5/3 more seeks.
        assert!(z5 / z3 < 1.45, "{}", z5 / z3);
        // Never more than 4 seekers each with one request at a time allow.
        assert!(m7 < 4.0 / 0.0080, "{m7}");
    }
}
