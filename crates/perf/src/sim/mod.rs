//! Latency percentiles by discrete-event simulation of the network the MVA solves: the same
//! stations and demands (`pool`), jobs drawn through them with service times spread as the
//! hardware spreads them, the txg's dirty data and the write throttle's delays (`throttle`),
//! events in a binary heap (`engine`), and percentiles known to a stated confidence
//! (`percentile`). The MVA gives means; this gives p50 to p99.9 and where the time goes.

mod engine;
mod percentile;
mod pool;
#[cfg(test)]
mod tests;
mod throttle;

use crate::constants::Constants;
use crate::PerfError;
use engine::RunLength;
use model::system::System;
use model::workload::Workload;
use serde::Serialize;

/// The seed of every run unless asked otherwise: the same inputs give the same percentiles.
pub const DEFAULT_SEED: u64 = 0x2f5e_ed28;
/// The run stops once the p99's 95% confidence half-width is within this share of it.
pub const P99_PRECISION: f64 = 0.05;
/// The most events one run handles: about 0.15 s of one core (the criterion bench
/// `latency 24 disks`).
pub const MAX_EVENTS: u64 = 3_000_000;
/// The most completions one run measures.
const MAX_SAMPLES: u32 = 1_000_000;

/// One resource's share of a job's time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StationShare {
    /// The resource, as the simulation names its station.
    pub station: &'static str,
    /// Share of the mean completion time spent there, waiting and served (0..=1).
    pub share: f64,
}

/// Completion-time percentiles of one workload's jobs, in seconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Latency {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Mean.
    pub mean: f64,
    /// Where the time goes: each resource's share of the mean.
    pub stations: Vec<StationShare>,
    /// The mean the MVA gives for the same network (jobs in flight over its throughput).
    #[serde(skip)]
    pub mva_mean: f64,
    /// The p99's 95% confidence half-width over its value, as the run ended.
    #[serde(skip)]
    pub(crate) p99_precision: f64,
    /// Events the run handled (the criterion bench's work per run).
    #[serde(skip)]
    pub events: u64,
}

/// The completion-time percentiles of `workload` on `system`, with the default seed.
pub fn latency(system: &System, workload: &Workload) -> Result<Latency, PerfError> {
    latency_seeded(system, workload, DEFAULT_SEED)
}

/// `latency` with another seed.
pub fn latency_seeded(
    system: &System,
    workload: &Workload,
    seed: u64,
) -> Result<Latency, PerfError> {
    let system = &*crate::boost::clocked(system, workload);
    let workload = &*crate::random_device::as_written(workload, system);
    let (release, loads, stations) =
        crate::predict::network(system, workload, &Constants::fitted())?;
    let dirty_max = release.dirty_data_max_bytes(system.host.ram_bytes);
    let built = pool::build(system, workload, &release, &loads, stations, dirty_max);
    if built.network.stages.is_empty() || !built.mva_jobs_per_s.is_finite() {
        return Err(PerfError::Workload(
            "the workload moves no data on this system".into(),
        ));
    }
    let len = RunLength {
        seed,
        warmup: (20 * built.jobs).max(2000),
        max_samples: MAX_SAMPLES,
        max_events: MAX_EVENTS,
        p99_precision: P99_PRECISION,
    };
    let run = engine::run(&built.network, &len);
    let mut sorted = run.samples;
    sorted.sort_unstable_by(f64::total_cmp);
    let total: f64 = run.by_label_s.iter().sum();
    let stations = pool::LABELS
        .iter()
        .zip(&run.by_label_s)
        .filter(|(_, s)| **s > 0.0)
        .map(|(station, s)| StationShare {
            station,
            share: s / total,
        })
        .collect();
    let q = |p| percentile::of_sorted(&sorted, p);
    Ok(Latency {
        p50: q(0.5),
        p90: q(0.9),
        p99: q(0.99),
        p999: q(0.999),
        mean: sorted.iter().sum::<f64>() / sorted.len().max(1) as f64,
        stations,
        mva_mean: f64::from(built.jobs) / built.mva_jobs_per_s,
        p99_precision: run.p99_precision,
        events: run.events,
    })
}
