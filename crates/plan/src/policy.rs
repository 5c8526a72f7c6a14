//! The choices zpoolsim makes for a user who did not make them: the workloads a layout is
//! measured by, how full a pool is assumed to be, the mission, the repair delay and the
//! simulation's size. Policies, not facts: each says so.

/// Most disks a plan takes: with raidz widths up to 19 and dRAID data widths up to 16 a plan
/// evaluates about 230 layouts whatever the disk count, but each evaluation costs time in
/// proportion to the disks (performance and rebuild models per disk), so 1,000 disks take
/// seconds; beyond that the enumeration, not ZFS, is the limit. A policy, not a fact.
pub const MAX_DISKS: u32 = 1000;

/// Hours from a disk failing to its replacement being in the slot when no hot spare takes
/// over at once: three days to notice, fetch a disk and swap it. A policy, not a fact.
pub const REPLACEMENT_HOURS: f64 = 72.0;

/// The workloads `--need` bounds, in order: one fio sequential reader and one fio sequential
/// writer of 1 MiB requests, and 4 KiB random reads with 32 in flight (a loaded server rather
/// than one synchronous reader, whose rate would be one disk's whatever the layout). All
/// three are what an admin means by a pool's speed: fio's random buffers (incompressible, so
/// compression cannot turn them into holes as it does `dd`'s zeros) over a data set with no
/// `size`, which the model takes as far larger than RAM: past the dirty-data buffer and the
/// ARC, so every byte reaches or comes from the disks. `dd-write` stays a named workload. A
/// choice, not a fact.
pub const STANDARD_WORKLOADS: [&str; 3] = ["fio-read", "fio-write", "fio-randread:qd=32"];

/// How full the pool is assumed to be when a rebuild's length matters (`report`, and the
/// `--fill` default of plan, compare and reliability): 80%, where pools are usually grown.
pub const FILL: f64 = 0.8;

/// The mission over which loss probabilities are given by default, years.
pub const YEARS: f64 = 5.0;

/// Monte Carlo missions of the one-page report: a tight interval at typical loss rates, well
/// under a second.
pub const REPORT_TRIALS: u64 = 100_000;

/// The seed of every simulation zpoolsim runs on its own: reports are reproducible.
pub const SEED: u64 = 1;
