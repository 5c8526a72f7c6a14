//! `zpoolsim discover`: a system file for the machine the tools were run on. Everything here
//! is a pure function of what they printed (`Captured`, filled by `runner::capture`), so a
//! whole machine's description is tested on captured outputs.

mod disks;
mod host;
mod inline;
mod places;
mod pool;

use crate::system_toml::{self, Section};
use crate::{MeasureError, Result};
use model::Catalog;
use parse::zpool_status;
use std::collections::BTreeMap;

/// What the machine's tools and files printed; `None` where a tool is missing or failed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Captured {
    /// `lsblk -J -b -O`
    pub lsblk: Option<String>,
    /// `runner::capture_sysfs`
    pub sysfs: String,
    /// `lspci -vv -nn`
    pub lspci: Option<String>,
    /// `smartctl -i -j /dev/X` by disk name (sda, nvme0n1).
    pub smartctl: BTreeMap<String, String>,
    /// /proc/cpuinfo, for the CPU model and its SIMD flags.
    pub cpuinfo: Option<String>,
    /// /proc/meminfo, for the memory the ARC may grow into.
    pub meminfo: Option<String>,
    /// `zfs version`, else /sys/module/zfs/version.
    pub zfs_version: Option<String>,
    /// `zpool upgrade -v`
    pub pool_versions: Option<String>,
    /// `zpool status -P POOL`
    pub zpool_status: String,
    /// `zpool list -v -H -p POOL`
    pub zpool_list: Option<String>,
    /// `zpool get ashift POOL`
    pub ashift: Option<String>,
    /// `zdb -C POOL`: the ashift of each vdev where the pool property says 0 (default).
    pub zdb: Option<String>,
    /// `zfs get -H -p -r -o name,property,value recordsize,compression,compressratio[,sync] POOL`
    pub zfs_get: Option<String>,
    /// Each leaf of the pool as the file system shows it.
    pub leaves: BTreeMap<String, Leaf>,
    /// When and by what the capture was made, for the file's heading.
    pub when: String,
}

/// A pool leaf resolved on the machine.
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// A block device, by its kernel name (`sda1`, `nvme0n1`).
    Block(String),
    /// A file vdev of this many bytes.
    File(u64),
    /// Not found (a missing device).
    Missing,
}

/// The system file of `pool`, the dataset `first` (if given) first among the datasets: the
/// model runs a pool workload on the first dataset.
pub fn describe(
    pool: &str,
    first: Option<&str>,
    captured: &Captured,
    catalog: &Catalog,
) -> Result<String> {
    let pools = zpool_status::parse(&captured.zpool_status);
    let Some(status) = pools.iter().find(|p| p.name == pool) else {
        return MeasureError::fail(format!("no pool '{pool}' in zpool status"));
    };
    let tools = disks::Tools::read(captured);
    let (disks, places) = disks::sections(status, captured, &tools, catalog);
    let (links, controllers) = places.sections(&tools, catalog);
    let mut sections = vec![
        Section::new("")
            .read(
                "name",
                format!("{pool} on this machine, as zpoolsim discover saw it"),
            )
            .read("source", format!("zpoolsim discover, {}", captured.when)),
        host::section(captured),
    ];
    sections.extend(links);
    sections.extend(controllers);
    sections.extend(disks);
    sections.push(pool::section(status, captured));
    sections.extend(pool::datasets(pool, first, captured));
    let heading = vec![
        format!("The pool '{pool}' and the machine it runs on, read by zpoolsim discover."),
        "Values marked `# assumed:` were not visible to it: check them.".to_string(),
    ];
    Ok(system_toml::write(&heading, &sections))
}
