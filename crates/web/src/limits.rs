//! How much work one web request may ask for: caps on what drives the engines' time, checked
//! before any work starts, and a time limit on the work itself. Policies, not facts: a 24-disk
//! plan answers in well under a second, and these keep the worst request to a few seconds.

use request::{
    about, CapacityRequest, Error, PlanRequest, PredictRequest, Refusal, ReliabilityRequest,
    SystemRequest,
};
use std::time::Duration;

/// Most disks a web request plans or describes (a plan's time grows with its disks).
pub(crate) const MAX_DISKS: u32 = 200;
/// Most workloads beside the standard three a plan measures every layout by.
pub(crate) const MAX_EXTRA_WORKLOADS: usize = 4;
/// Most points of a predict sweep.
pub(crate) const MAX_SWEEP_POINTS: usize = 32;
/// Most file sizes a capacity request prices.
pub(crate) const MAX_FILES: usize = 32;
/// Most Monte Carlo missions of a reliability request.
pub(crate) const MAX_TRIALS: u64 = 1_000_000;
/// Largest request body: a system file is a few KiB.
pub(crate) const MAX_BODY_BYTES: u64 = 1 << 20;
/// Longest a heavy request (a plan, a prediction, a reliability assessment) may wait for a
/// worker and work before it is answered 503 and its work stopped.
pub(crate) const DEADLINE: Duration = Duration::from_secs(20);
/// Heavy requests that may wait for a worker, per worker: more are answered 503 at once.
pub(crate) const QUEUE_PER_WORKER: usize = 2;
/// What a 503 asks the client to wait before asking again, seconds: about one heavy request's
/// work.
pub(crate) const RETRY_AFTER_SECONDS: u64 = 5;

/// Heavy requests at work at once when `serve` is not told: one per core, so that the
/// light ones (the page, the disks, a system file, a capacity) find the runtime's threads free.
pub(crate) fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Refuses `given` of the request's field `field` past `cap`.
fn at_most(field: &'static str, given: u64, cap: u64) -> Result<(), Refusal> {
    at_most_of(field, field, given, cap)
}

/// Refuses `given` past `cap`, `what` of the request's field `field`.
fn at_most_of(field: &'static str, what: &str, given: u64, cap: u64) -> Result<(), Refusal> {
    if given > cap {
        return Err(Error(format!(
            "{what}: {given}; a web request takes at most {cap} (the command line takes more)"
        ))
        .about(field));
    }
    Ok(())
}

pub(crate) fn plan(r: &PlanRequest) -> Result<(), Refusal> {
    at_most("disks", r.disks.disks.unwrap_or(0).into(), MAX_DISKS.into())?;
    let extra = r.criteria.workloads.len() as u64;
    at_most("workload", extra, MAX_EXTRA_WORKLOADS as u64)
}

pub(crate) fn system(r: &SystemRequest) -> Result<(), Refusal> {
    at_most("disks", r.disks.disks.unwrap_or(0).into(), MAX_DISKS.into())?;
    leaves(Some(&r.layout))
}

pub(crate) fn capacity(r: &CapacityRequest) -> Result<(), Refusal> {
    at_most("files", r.files.len() as u64, MAX_FILES as u64)?;
    leaves(r.layout.as_ref())
}

/// A layout's disks count against the cap too (one that does not parse is refused later, by
/// the request itself, with the reason).
fn leaves(layout: Option<&String>) -> Result<(), Refusal> {
    match layout.and_then(|l| l.parse::<model::Layout>().ok()) {
        Some(l) => at_most_of(
            "layout",
            "layout: disks",
            l.leaves().into(),
            MAX_DISKS.into(),
        ),
        None => Ok(()),
    }
}

pub(crate) fn predict(r: &PredictRequest) -> Result<(), Refusal> {
    let points = r
        .sweep()
        .map_err(about("sweep"))?
        .map_or(0, |s| s.values.len());
    at_most("sweep", points as u64, MAX_SWEEP_POINTS as u64)
}

pub(crate) fn reliability(r: &ReliabilityRequest) -> Result<(), Refusal> {
    at_most("trials", r.trials, MAX_TRIALS)
}
