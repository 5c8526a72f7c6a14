//! How much work one web request may ask for: caps on what drives the engines' time, checked
//! before any work starts, and a time limit on the work itself. Policies, not facts: a 24-disk
//! plan answers in well under a second, and these keep the worst request to a few seconds.

use request::{
    CapacityRequest, Error, PlanRequest, PredictRequest, ReliabilityRequest, SystemRequest,
};
use std::time::Duration;

/// Most disks a web request plans or describes (a plan's time grows with its disks).
pub const MAX_DISKS: u32 = 200;
/// Most workloads beside the standard three a plan measures every layout by.
pub const MAX_EXTRA_WORKLOADS: usize = 4;
/// Most points of a predict sweep.
pub const MAX_SWEEP_POINTS: usize = 32;
/// Most file sizes a capacity request prices.
pub const MAX_FILES: usize = 32;
/// Most Monte Carlo missions of a reliability request.
pub const MAX_TRIALS: u64 = 1_000_000;
/// Largest request body: a system file is a few KiB.
pub const MAX_BODY_BYTES: u64 = 1 << 20;
/// Longest a request may wait and work before it is answered with an error.
pub const TIME_LIMIT: Duration = Duration::from_secs(20);
/// Most requests at work at once; more wait their turn (within the time limit).
pub const MAX_AT_WORK: usize = 4;

fn at_most(what: &str, given: u64, cap: u64) -> Result<(), Error> {
    if given > cap {
        return Err(Error(format!(
            "{what}: {given}; a web request takes at most {cap} (the command line takes more)"
        )));
    }
    Ok(())
}

pub fn plan(r: &PlanRequest) -> Result<(), Error> {
    at_most("disks", r.disks.disks.unwrap_or(0).into(), MAX_DISKS.into())?;
    let extra = r.criteria.workloads.len() as u64;
    at_most("workload", extra, MAX_EXTRA_WORKLOADS as u64)
}

pub fn system(r: &SystemRequest) -> Result<(), Error> {
    at_most("disks", r.disks.disks.unwrap_or(0).into(), MAX_DISKS.into())?;
    leaves(Some(&r.layout))
}

pub fn capacity(r: &CapacityRequest) -> Result<(), Error> {
    at_most("files", r.files.len() as u64, MAX_FILES as u64)?;
    leaves(r.layout.as_ref())
}

/// A layout's disks count against the cap too (one that does not parse is refused later, by
/// the request itself, with the reason).
fn leaves(layout: Option<&String>) -> Result<(), Error> {
    match layout.and_then(|l| l.parse::<model::Layout>().ok()) {
        Some(l) => at_most("layout: disks", l.leaves().into(), MAX_DISKS.into()),
        None => Ok(()),
    }
}

pub fn predict(r: &PredictRequest) -> Result<(), Error> {
    let points = r.sweep()?.map_or(0, |s| s.values.len());
    at_most("sweep", points as u64, MAX_SWEEP_POINTS as u64)
}

pub fn reliability(r: &ReliabilityRequest) -> Result<(), Error> {
    at_most("trials", r.trials, MAX_TRIALS)
}
