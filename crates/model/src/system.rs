//! A whole machine with its pool, resolved against the catalog: what the engines take.
//! The TOML file format that produces it is parsed in `system_file`.

use crate::hardware::{ControllerModel, CpuModel, DiskModel, Link, Nic};
use crate::pool::Pool;
pub use crate::release::{Platform, ZfsRelease};

/// The host: CPU, memory, the ZFS that runs and the network it serves.
#[derive(Debug, Clone, PartialEq)]
pub struct Host {
    pub cpu: CpuModel,
    /// Number of CPU sockets.
    pub sockets: u32,
    pub ram_bytes: u64,
    pub zfs: ZfsRelease,
    pub nics: Vec<Nic>,
    pub tunables: Tunables,
}

/// ZFS module parameters the administrator set (sysctl vfs.zfs.* on FreeBSD and illumos'
/// /etc/system, /sys/module/zfs/parameters on Linux); `None`: the release's default.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tunables {
    /// zfs_arc_max (vfs.zfs.arc_max), bytes.
    pub arc_max: Option<u64>,
    /// zfs_dirty_data_max, bytes.
    pub dirty_data_max: Option<u64>,
    /// zfs_vdev_max_pending: the one queue depth per leaf of releases before the 2013 I/O
    /// scheduler (vfs.zfs.vdev.max_pending).
    pub vdev_max_pending: Option<u32>,
    /// zfs_vdev_{async,sync}_{read,write}_max_active: I/Os each leaf keeps active per class.
    pub async_read_max_active: Option<u32>,
    pub async_write_max_active: Option<u32>,
    pub sync_read_max_active: Option<u32>,
    pub sync_write_max_active: Option<u32>,
    /// zfs_vdev_aggregation_limit, bytes.
    pub aggregation_limit: Option<u64>,
    /// zfs_prefetch_disable.
    pub prefetch_disable: Option<bool>,
}

/// A controller in a slot: its model and what it hangs from.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    pub id: String,
    pub model: ControllerModel,
    pub upstream: Upstream,
}

/// What a controller hangs from: a link (slot, bus, chipset uplink), or for a SAS expander the
/// controller its wide port is cabled to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upstream {
    Link(String),
    Controller(String),
}

/// One physical disk in the machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Disk {
    /// A name for reports, like the OS device name (`c0t0d0`, `sda`).
    pub name: String,
    /// Catalog figures, with any per-unit override the system file measured already applied.
    pub model: DiskModel,
    /// The controller it is cabled to, or for NVMe the link it sits on.
    pub attach: Attach,
}

/// What a disk is plugged into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attach {
    Controller(String),
    Link(String),
}

/// A machine and its pool. Disks fill the pool's vdevs in order: normal class groups first,
/// then special, dedup and log, then hot spares, then cache devices.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    pub name: String,
    /// Where the description comes from (a seed post, a build log).
    pub source: Option<String>,
    pub host: Host,
    pub links: Vec<Link>,
    pub controllers: Vec<Controller>,
    pub disks: Vec<Disk>,
    pub pool: Pool,
}
