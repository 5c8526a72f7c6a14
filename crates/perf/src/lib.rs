//! The performance model of zpoolsim: from a machine, its pool and a workload to throughput,
//! IOPS, latency, the utilisation of every resource, the bottleneck and the error to expect.
//!
//! One module per stage of ZFS's I/O path, as OpenZFS names them: the application's calls
//! (`app`), the ARC's and the L2ARC's hits (`arc`, `l2arc`), the prefetcher (`zfetch`), the txg's writes and the write throttle (`txg`, `release`),
//! the ZIL (`zil`), compression (`compress`), the records' fan-out over raidz, dRAID and
//! mirror vdevs (`zio`, `vdev`), the leaves' service times and command queueing (`leaf`),
//! the paths from the disks to memory (`path`, `link`), memory (`memory`), the network (`nic`)
//! and the CPU's costs by part (`cpu`; native encryption's by code path, `icp`).
//!
//! A prediction (`predict`) is a pipeline read top to bottom: `load` gathers each resource's
//! work per job, stage by stage; each resource's module makes it a `station`; `mva` solves the
//! closed network; `figures` turns the solution into throughput, utilisations and the
//! bottleneck (`bottleneck`). Errors are `error`'s; fitted constants live in `constants`,
//! what each release does differently in `release`.

mod abd;
mod app;
mod arc;
mod arc_evict;
mod arc_target;
mod baseline;
mod boost;
mod bottleneck;
mod compress;
mod constants;
mod cpu;
mod error;
mod expected_error;
mod figures;
mod findings;
mod icp;
mod indirect;
mod l2arc;
mod leaf;
mod link;
mod load;
mod lz4_decoder;
mod memory;
mod mva;
mod nic;
mod not_modelled;
mod page_cache;
mod path;
mod predict;
mod prefetch_fill;
mod random_device;
mod rebuild;
mod redirty;
mod release;
mod sim;
mod station;
#[cfg(test)]
mod testkit;
mod txg;
mod txg_close;
mod vdev;
mod zfetch;
mod zil;
mod zil_commit;
mod zio;
mod zvol;

pub use baseline::rule_of_thumb;
pub use bottleneck::{named, Bottleneck};
pub use constants::{Constants, Param, PARAMS};
pub use error::PerfError;
pub use expected_error::{
    era_words, medium_words, pattern_words, Band, Bands, ErrorClass, Expected, Interval, Overall,
    Pattern, Scope, FEW_SOURCES,
};
pub use figures::{DeviceFigures, Prediction, VdevFigures};
pub use not_modelled::NotModelled;
pub use predict::{predict, predict_with, sweep, MAX_SWEEP_WORK};
pub use rebuild::{rebuild_path, BlockCosts, RebuildPath, SharedPath};
pub use release::Era;
pub use sim::{
    latency, latency_seeded, Latency, StationShare, DEFAULT_SEED, MAX_EVENTS, P99_PRECISION,
};
pub use station::{Kind, Utilization};
