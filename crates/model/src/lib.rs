//! The pure domain model of zpoolsim: units, pool layouts, hardware, workloads and the
//! embedded hardware catalog. No I/O beyond parsing text handed in; nothing here computes
//! space or speed, but for one block's sectors on a raidz or dRAID vdev (`geometry`), which
//! the space and performance engines share.

pub mod appliance;
pub mod budget;
pub mod cancel;
pub mod dataset;
pub mod geometry;
pub mod input;
pub mod layout;
pub mod pool;
pub mod range;
pub mod release;
pub mod units;

pub use layout::{Layout, LayoutError, VdevGroup, VdevType};
pub use pool::{Dataset, Leaf, Pool, TopLevel, VdevClass};
pub use release::ZfsRelease;
pub mod hardware;
pub mod system;
pub use system::System;
pub mod workload;
pub use workload::{Access, Target, Workload, WorkloadError};
pub mod catalog;
mod enclosure;
mod file_error;
pub mod system_file;
pub use catalog::Catalog;
