//! The system file as written: what serde reads before anything is looked up or checked.
//! Values that are checked later keep their span, so errors point at them; `expecting` is what a
//! type error says was expected.

use crate::hardware::Nic;
use crate::system::ZfsRelease;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a system file")]
pub(super) struct SystemDoc {
    pub name: String,
    pub source: Option<String>,
    pub host: HostDoc,
    /// A `Link`, or a `LinkRefDoc` naming a catalog kind of link.
    #[serde(default)]
    pub link: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    pub controller: Vec<ControllerDoc>,
    #[serde(default)]
    pub disk: Vec<Spanned<DiskDoc>>,
    pub pool: Spanned<PoolDoc>,
    #[serde(default)]
    pub dataset: Vec<DatasetDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [host] table")]
pub(super) struct HostDoc {
    /// A catalog id or an inline CPU model table.
    pub cpu: Spanned<toml::Value>,
    pub sockets: Option<Spanned<u32>>,
    /// A size: `"64GiB"` or bytes.
    pub ram: Spanned<toml::Value>,
    pub zfs: Option<ZfsRelease>,
    /// FreeNAS / TrueNAS and its version: its release, ashift 12 and lz4 where the file is
    /// silent.
    pub appliance: Option<Spanned<String>>,
    #[serde(default)]
    pub nics: Vec<Spanned<Nic>>,
    pub tunables: Option<TunablesDoc>,
}

/// `[host.tunables]`: ZFS module parameters set by the administrator.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [host.tunables] table")]
pub(super) struct TunablesDoc {
    /// Sizes: `"4G"` or bytes.
    pub arc_max: Option<Spanned<toml::Value>>,
    pub dirty_data_max: Option<Spanned<toml::Value>>,
    pub aggregation_limit: Option<Spanned<toml::Value>>,
    pub vdev_max_pending: Option<Spanned<u32>>,
    pub async_read_max_active: Option<Spanned<u32>>,
    pub async_write_max_active: Option<Spanned<u32>>,
    pub sync_read_max_active: Option<Spanned<u32>>,
    pub sync_write_max_active: Option<Spanned<u32>>,
    pub prefetch_disable: Option<bool>,
}

/// A `[[link]]` that names a catalog kind of link (`model`) instead of giving its figures.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[link]] table")]
pub(super) struct LinkRefDoc {
    pub id: String,
    pub model: String,
    pub parent: Option<String>,
    pub source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[controller]] table")]
pub(super) struct ControllerDoc {
    pub id: Spanned<String>,
    /// A catalog id or an inline controller model table.
    pub model: Spanned<toml::Value>,
    /// The link (slot, bus, chipset uplink) it sits on...
    pub link: Option<Spanned<String>>,
    /// ...or, for a SAS expander, the controller its wide port is cabled to.
    pub controller: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[disk]] table")]
pub(super) struct DiskDoc {
    /// The device name; with `count`, `{}` in it takes the unit number 0, 1, ...
    pub name: Spanned<String>,
    pub count: Option<Spanned<u32>>,
    /// A catalog id or an inline disk model table.
    pub model: Spanned<toml::Value>,
    pub controller: Option<Spanned<String>>,
    /// The link an NVMe disk sits on (instead of a controller).
    pub link: Option<Spanned<String>>,
    /// false: the pool gets a partition, slice or raw device the OS does not partition for it,
    /// sized as a file vdev.
    pub whole_disk: Option<bool>,
    /// Figures measured on these units, replacing the model's, with `source`.
    pub measured: Option<Spanned<toml::Table>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [pool] table")]
pub(super) struct PoolDoc {
    pub name: Option<Spanned<String>>,
    pub layout: Spanned<String>,
    pub ashift: Option<Spanned<u8>>,
    pub special: Option<Spanned<String>>,
    pub dedup: Option<Spanned<String>>,
    pub log: Option<Spanned<String>>,
    pub spares: Option<u32>,
    pub cache: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a [[dataset]] table")]
pub(super) struct DatasetDoc {
    pub name: Spanned<String>,
    /// A size: `"128K"` or bytes.
    pub recordsize: Option<Spanned<toml::Value>>,
    pub compression_ratio: Option<Spanned<f64>>,
    /// zfs(8) property values: `lz4`, `sha256`, `always`, `throughput`.
    pub compression: Option<Spanned<String>>,
    pub checksum: Option<Spanned<String>>,
    pub sync: Option<Spanned<String>>,
    pub logbias: Option<Spanned<String>>,
    /// A size (`"64K"`), at most the recordsize; 0 or absent: metadata only.
    pub special_small_blocks: Option<Spanned<toml::Value>>,
    pub primarycache: Option<Spanned<String>>,
    pub encryption: Option<Spanned<String>>,
    /// A size (`"16K"`): the dataset is a volume (zvol) of blocks of this size.
    pub volblocksize: Option<Spanned<toml::Value>>,
}
