//! A whole machine with its pool, resolved against the catalog: what the engines take.
//! The TOML file format that produces it is parsed in `system_file`.

use crate::hardware::{ControllerModel, CpuModel, DiskModel, Link, Nic};
use crate::pool::Pool;
pub use crate::release::{Platform, ZfsRelease};

/// The host: CPU, memory, the ZFS that runs and the network it serves.
#[derive(Debug, Clone, PartialEq)]
pub struct Host {
    /// The CPU of each socket.
    pub cpu: CpuModel,
    /// Number of CPU sockets.
    pub sockets: u32,
    /// Memory, bytes: bounds the ARC.
    pub ram_bytes: u64,
    /// The ZFS release: its defaults and rules.
    pub zfs: ZfsRelease,
    /// Network interfaces clients reach the pool through.
    pub nics: Vec<Nic>,
    /// Module parameters set away from their defaults.
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
    /// zfs_vdev_async_read_max_active: asynchronous reads (prefetch) each leaf keeps active.
    pub async_read_max_active: Option<u32>,
    /// zfs_vdev_async_write_max_active: the txg's writes each leaf keeps active, at most.
    pub async_write_max_active: Option<u32>,
    /// zfs_vdev_sync_read_max_active: synchronous reads each leaf keeps active.
    pub sync_read_max_active: Option<u32>,
    /// zfs_vdev_sync_write_max_active: ZIL and O_SYNC writes each leaf keeps active.
    pub sync_write_max_active: Option<u32>,
    /// zfs_vdev_aggregation_limit, bytes.
    pub aggregation_limit: Option<u64>,
    /// zfs_prefetch_disable.
    pub prefetch_disable: Option<bool>,
}

/// A controller in a slot: its model and what it hangs from.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    /// The name links and disks refer to it by.
    pub id: String,
    /// Its catalog figures.
    pub model: ControllerModel,
    /// What it hangs from.
    pub upstream: Upstream,
}

/// What a controller hangs from: a link (slot, bus, chipset uplink), or for a SAS expander the
/// controller its wide port is cabled to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upstream {
    /// The id of a link.
    Link(String),
    /// The id of the controller (an expander's).
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
    /// The id of a controller.
    Controller(String),
    /// The id of a link (NVMe).
    Link(String),
}

/// A machine and its pool. Disks fill the pool's vdevs in order: normal class groups first,
/// then special, dedup and log, then hot spares, then cache devices.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    /// A name for reports.
    pub name: String,
    /// Where the description comes from (a seed post, a build log).
    pub source: Option<String>,
    /// CPU, memory, ZFS release, NICs and tunables.
    pub host: Host,
    /// Buses and links, each with the one it hangs from.
    pub links: Vec<Link>,
    /// Storage controllers.
    pub controllers: Vec<Controller>,
    /// Every disk, in the order they fill the pool.
    pub disks: Vec<Disk>,
    /// The pool the disks make.
    pub pool: Pool,
}
