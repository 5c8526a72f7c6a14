//! The prediction, a pipeline read top to bottom: the loads a job puts on every resource
//! (`load`), the resources as stations of a closed queueing network (`station`, each built by
//! the module that owns the resource), the network solved by Mean Value Analysis (`mva`), and
//! the figures (`figures`: throughput, utilisations, the bottleneck, the error to expect).
//!
//! The walk from a system to a prediction, each stop once, none climbing back:
//! 1. `predict_with` here, with the `findings` the figures will speak of;
//! 2. `load::loads` (load/mod.rs), raw devices aside (load/raw.rs);
//! 3. `Stages::loads` (load/stages.rs): the records (records.rs), each vdev's stream or
//!    random I/O (stream.rs, random.rs) and the ZIL's waits (log.rs);
//! 4. `stations` here, each built by its owner (leaf/load.rs, vdev.rs, path.rs, memory.rs,
//!    nic.rs, cpu.rs) as a `station::Station`;
//! 5. `mva::solve`;
//! 6. `figures::prediction`, from the solution and the findings alone;
//! 7. `bottleneck::find` and `not_modelled::not_modelled` (typed facts: the words are the
//!    front ends'). crates/cli/tests/layers.rs checks that 6 and 7 name no stage.

use crate::constants::Constants;
use crate::figures::{self, Prediction};
use crate::findings::Findings;
use crate::load::{self, Loads};
use crate::mva::{self, Centre};
use crate::path::Machine;
use crate::release::Release;
use crate::station::Station;
use crate::txg_close::{self, Fill};
use crate::{
    arc_evict, boost, compress, cpu, l2arc, leaf, memory, nic, random_device, vdev, zil, PerfError,
};
use model::system::System;
use model::workload::Workload;

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
    // The CPU at the clock the workload's busy cores leave it, for every stage alike.
    let system = &*boost::clocked(system, workload);
    let workload = &*random_device::as_written(workload, system);
    let (release, loads, mut stations) = network(system, workload, constants)?;
    let findings = findings(system, workload, &release);
    let x = solve(&mut stations, loads.population);
    if !x.is_finite() || x <= 0.0 {
        let why = if workload.network && system.host.nics.iter().all(|n| n.gbps <= 0.0) {
            "net=on, but the system has no network interface (host.nics)"
        } else {
            "the workload moves no data on this system"
        };
        return Err(PerfError::Workload(why.into()));
    }
    let utilizations = stations.into_iter().map(|s| s.at(x)).collect();
    Ok(figures::prediction(
        (system, workload, &release),
        &findings,
        &loads,
        utilizations,
        x,
    ))
}

/// The release, the loads and the stations of the network the MVA solves: the door the
/// latency simulation (`sim`) builds its network from.
pub(crate) fn network(
    system: &System,
    workload: &Workload,
    constants: &Constants,
) -> Result<(Release, Loads, Vec<Station>), PerfError> {
    let release = Release::of(system.host.zfs, &system.host.tunables);
    // The cache devices hold what the feed took of the data set while runs passed it through
    // the ARC: each run's rate is its own prediction (a stream, which feeds nothing itself).
    let rates = l2arc::feeding_runs(system, workload)
        .iter()
        .map(|run| Ok(predict_with(system, run, constants)?.throughput_bytes_per_s))
        .collect::<Result<Vec<_>, PerfError>>()?;
    let l2_fed = l2arc::fed_share(&release, &rates);
    // Each txg closes at the sync threshold while the writers bound the rate, at the
    // throttle's level where the pool holds them back (txg_close.rs).
    let at = |fill| -> Result<(Loads, Vec<Station>), PerfError> {
        let loads = load::loads_at(system, workload, (&release, l2_fed, fill), constants)?;
        let stations = stations(system, (workload, &release), &loads, constants)?;
        Ok((loads, stations))
    };
    if !txg_close::matters(workload) {
        let (loads, stations) = at(Fill::Throttled)?;
        return Ok((release, loads, stations));
    }
    let (loads, stations) = at(Fill::KeptUp)?;
    if txg_close::writers_bound(&stations) {
        return Ok((release, loads, stations));
    }
    let (loads, stations) = at(Fill::Throttled)?;
    Ok((release, loads, stations))
}

/// What the stages know that the figures will speak of, asked once before the solve so that
/// nothing after it climbs back to them.
fn findings(system: &System, workload: &Workload, release: &Release) -> Findings {
    let sync = |ds| zil::sync_writes(workload, ds, ds.recordsize, release, false).is_some();
    Findings {
        holes: compress::writes_holes(system, workload, release),
        sync_writes: system.pool.datasets.first().is_some_and(sync),
        random_device_measured: cpu::urandom_byte(release).is_some(),
    }
}

/// Every resource with work to do, in a fixed order: the disks (and their media), the vdevs
/// whose disks work together, the pipes from the disks to memory, memory, the network, the
/// application's threads, the CPU and the ARC's eviction threads.
fn stations(
    system: &System,
    (workload, release): (&Workload, &Release),
    loads: &Loads,
    constants: &Constants,
) -> Result<Vec<Station>, PerfError> {
    let machine = Machine::new(system)?;
    let overhead_s = constants.disk_command_overhead_s();
    let mut all = leaf::load::stations(system, &loads.disks, overhead_s);
    all.extend(vdev::stations(system, &loads.vdevs));
    all.extend(machine.stations(&loads.disks));
    all.extend(memory::station(&system.host.cpu, loads.memory_bytes));
    if workload.network {
        let (read, write) = (loads.user_read_bytes, loads.user_write_bytes);
        all.extend(nic::stations(&system.host, read, write));
    }
    all.extend(cpu::stations(&system.host, &loads.cpu));
    let per_byte = constants.arc_evict_cycles_per_byte();
    let admitted = loads.arc_admitted_bytes;
    all.extend(arc_evict::station(
        &system.host,
        release,
        admitted,
        per_byte,
    ));
    all.retain(|s| s.demand_s > 0.0);
    Ok(all)
}

/// Jobs per second with `population` jobs in circulation. Ports, controllers, links, memory
/// and the network move a request's data while the disk is still transferring it (DMA is
/// pipelined): they bound throughput but add no service time of their own, so the network
/// solved by MVA holds the disks, vdevs and the CPU, and the application's threads when it
/// waits on each request. A disk that reorders its queue is as busy per job as the queue it
/// sees lets it be: its demand becomes the mean it met.
pub(crate) fn solve(stations: &mut [Station], population: u32) -> f64 {
    let queueing: Vec<usize> = (0..stations.len()).filter(|&i| !stations[i].pipe).collect();
    let centres: Vec<Centre> = queueing
        .iter()
        .map(|&i| Centre {
            demand_s: stations[i].demand_s,
            servers: stations[i].servers,
            demand_by_jobs_s: stations[i].by_jobs_s.clone(),
        })
        .collect();
    let solution = mva::solve(&centres, 0.0, population.max(1));
    for (&i, demand) in queueing.iter().zip(&solution.demand_s) {
        stations[i].demand_s = *demand;
    }
    stations
        .iter()
        .filter(|s| s.pipe)
        .map(|s| f64::from(s.servers) / s.demand_s)
        .fold(solution.throughput, f64::min)
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

#[cfg(test)]
mod tests;
