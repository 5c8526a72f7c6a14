//! Hardware as the performance model sees it: disks, controllers, the links and buses between
//! them and memory, CPUs and network interfaces. Every figure that comes from a datasheet or a
//! measurement carries its source in `sources` (figure name -> citation).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where each figure of a catalog entry comes from: field name -> citation.
pub type Sources = BTreeMap<String, String>;

/// How a disk stores data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Medium {
    /// A spinning disk: seeks and rotation set its random rate.
    Hdd,
    /// Flash behind SATA or SAS.
    Ssd,
    /// Flash on PCIe, spoken to by NVMe.
    Nvme,
}

/// The host interface of a disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Interface {
    /// Serial ATA.
    Sata,
    /// Serial Attached SCSI.
    Sas,
    /// NVMe over PCIe (the disk's link is a `Link`).
    Nvme,
    /// Parallel SCSI (Ultra160/Ultra320), a bus shared by the disks on it: seed 004's disk.
    Scsi,
}

/// One disk model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiskModel {
    /// The catalog id system files name it by.
    pub id: String,
    /// The maker.
    pub vendor: String,
    /// The maker's model number.
    pub model: String,
    /// Spinning or flash.
    pub medium: Medium,
    /// The host interface.
    pub interface: Interface,
    /// Interface line rate in Gb/s (SATA 1.5/3/6, SAS 3/6/12); for NVMe, the PCIe link is a `Link`.
    pub interface_gbps: f64,
    /// Capacity as sold, bytes.
    pub capacity_bytes: u64,
    /// The sector size it reports (512 or 4096): the GPT and ashift follow it.
    pub logical_sector: u32,
    /// The sector size it writes (4096 on 512e drives): below it, writes read-modify-write.
    pub physical_sector: u32,
    /// Spindle speed; absent for solid state.
    pub rpm: Option<u32>,
    /// Sustained sequential transfer at the outer edge, MB/s (10^6 B/s).
    pub seq_outer_mb_s: f64,
    /// The same at the inner edge, where a track holds fewest sectors.
    pub seq_inner_mb_s: f64,
    /// Sustained sequential write, MB/s, where the maker gives it apart from reads (solid state).
    pub seq_write_mb_s: Option<f64>,
    /// The write rate a flash drive holds once a long write has filled its fast cache (the
    /// share of its TLC or QLC cells written as SLC), MB/s, where its data sheet or a review
    /// states it, or the default a drive whose model is not stated takes (docs/assumptions.md);
    /// absent: it writes at `seq_write_mb_s` throughout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sustained_write_mb_s: Option<f64>,
    /// Average seek of a read, ms (HDD).
    pub avg_seek_read_ms: Option<f64>,
    /// Average seek of a write, ms (HDD).
    pub avg_seek_write_ms: Option<f64>,
    /// A seek to the next track, ms (HDD).
    pub track_to_track_ms: Option<f64>,
    /// Random 4 KiB reads per second at full queue depth (solid state).
    pub random_read_iops: Option<f64>,
    /// Random 4 KiB writes per second at full queue depth (solid state).
    pub random_write_iops: Option<f64>,
    /// Typical time of one 4 KiB random read and write at queue depth 1, microseconds, as the
    /// maker gives it (or 10^6 over its QD1 IOPS), solid state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_latency_us: Option<f64>,
    /// The same for a write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_latency_us: Option<f64>,
    /// Whether the maker states power-loss protection (capacitors that let the drive save its
    /// write cache), which makes a cache flush cost nothing; `None`: not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_loss_protection: Option<bool>,
    /// Whether the drive has a volatile write cache (the NVMe Identify Controller's VWC bit):
    /// `Some(false)` where its maker or a review states it keeps no DRAM cache, so a write is
    /// on its media when acknowledged and a flush has nothing to save; `None`: not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volatile_write_cache: Option<bool>,
    /// Whether the drive records shingled (drive-managed SMR), as its data sheet or maker
    /// states: rewrites of a band, a resilver's scattered writes among them, run far below
    /// the data sheet's rates once the drive's media cache fills; `None`: conventional (CMR)
    /// or not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shingled: Option<bool>,
    /// Commands the drive queues (NCQ 32, SAS TCQ, NVMe queues); 1 without command queueing.
    pub queue_depth: u32,
    /// Unrecoverable read errors per bit read (1e-14 consumer, 1e-15 enterprise).
    pub uer_per_bit: Option<f64>,
    /// Annualised failure rate, percent; else `mtbf_hours` stands for it.
    pub afr_pct: Option<f64>,
    /// The datasheet MTBF, hours, where no failure rate is given.
    pub mtbf_hours: Option<f64>,
    /// Street price in US dollars, with its date in `sources`.
    pub price_usd: Option<f64>,
    /// Measured sequential read rates at points across the disk (zoned recording), by offset;
    /// empty when only the outer and inner figures are known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<ZoneRate>,
    /// Where each figure comes from.
    pub sources: Sources,
}

impl DiskModel {
    /// Whether a cache flush costs this drive nothing: its cache is saved by stated power-loss
    /// protection, or it has no volatile cache at all (Linux then does not even send the
    /// flush: blk_queue_write_cache; an NVMe drive without VWC completes it at once).
    pub fn flush_is_free(&self) -> bool {
        self.power_loss_protection == Some(true) || self.volatile_write_cache == Some(false)
    }
}

/// A sequential rate measured at one offset of a disk.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneRate {
    /// Where on the disk, bytes from the start.
    pub offset_bytes: u64,
    /// The sequential read rate there, MB/s.
    pub mb_s: f64,
}

/// A bus or link: what sits between a controller (or an NVMe disk) and memory.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum LinkKind {
    /// Parallel PCI, shared by every device on the segment.
    Pci {
        /// Bus width, bits.
        bits: u32,
        /// Clock, MHz.
        mhz: f64,
    },
    /// PCI-X, shared per segment.
    PciX {
        /// Bus width, bits.
        bits: u32,
        /// Clock, MHz.
        mhz: f64,
    },
    /// PCI Express: generation, lanes, and the Max_Payload_Size in bytes (unstated: 256, what
    /// server and desktop firmware sets; docs/assumptions.md).
    Pcie {
        /// PCIe generation, 1 to 5.
        gen: u32,
        /// Lanes the link trained at.
        lanes: u32,
        /// Max_Payload_Size, bytes: the share of each packet that is data.
        #[serde(default = "default_max_payload")]
        max_payload: u32,
    },
    /// A chipset uplink or other link given by its usable rate each way (MB/s), e.g. Intel DMI.
    Uplink {
        /// Usable rate each way, MB/s.
        mb_s: f64,
    },
}

/// The Max_Payload_Size a PCIe link is taken to run with when its file does not say: 256
/// bytes, what current server and desktop firmware programs (docs/assumptions.md); 128 is
/// the minimum every device supports.
pub const DEFAULT_MAX_PAYLOAD: u32 = 256;

fn default_max_payload() -> u32 {
    DEFAULT_MAX_PAYLOAD
}

/// One link in the machine, with the link it hangs from (none: it reaches memory directly).
/// Unknown keys are refused by `LinkKind` (serde cannot deny them on a struct that flattens).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// The name controllers and disks refer to it by.
    pub id: String,
    /// The bus and its figures.
    #[serde(flatten)]
    pub kind: LinkKind,
    /// The link it hangs from; `None`: it reaches memory directly.
    pub parent: Option<String>,
    /// Where its figures come from.
    pub source: Option<String>,
}

/// A kind of bus or link as the catalog knows it (a PCI-X segment, a chipset uplink): a system
/// file's `[[link]]` may name it with `model` instead of giving its figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkModel {
    /// The catalog id.
    pub id: String,
    /// A name for reports (`PCI-X, 64-bit/133 MHz segment`).
    pub name: String,
    /// The bus and its figures.
    #[serde(flatten)]
    pub kind: LinkKind,
    /// Where each figure comes from.
    pub sources: Sources,
}

/// What a controller is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ControllerKind {
    /// A host bus adapter (SAS/SATA HBA in IT mode).
    #[default]
    Hba,
    /// A chipset's onboard AHCI SATA ports: behind the chipset's uplink to the CPU.
    Ahci,
    /// A RAID controller passing disks through (JBOD/HBA mode).
    Raid,
    /// A SAS expander (a backplane's, or a card's): its disk-side phys share one wide link of
    /// `uplink_lanes` lanes to the controller it is cabled to.
    Expander,
}

/// A storage controller model (HBA, onboard AHCI, RAID card in JBOD mode, SAS expander).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerModel {
    /// The catalog id.
    pub id: String,
    /// The maker's name for it.
    pub name: String,
    /// HBA, onboard AHCI, RAID card or expander.
    #[serde(default)]
    pub kind: ControllerKind,
    /// Disk-side ports (phys), or lanes for an HBA's cables.
    pub ports: u32,
    /// An expander's lanes to the controller it is cabled to (a 4-lane SFF-8087 cable: 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uplink_lanes: Option<u32>,
    /// Protocol of its ports.
    pub interface: Interface,
    /// Line rate of one port, Gb/s.
    pub port_gbps: f64,
    /// Measured or datasheet ceiling of one port, MB/s, when below the line rate.
    pub port_limit_mb_s: Option<f64>,
    /// Ceiling of the whole chip, MB/s, when below its host link.
    pub chip_limit_mb_s: Option<f64>,
    /// An external drive's rate as its maker states it for the product, enclosure and disk
    /// together ("up to N MB/s" over every size sold), MB/s: the disk behind this bridge
    /// reaches no more at its outer tracks, whatever catalog disk stands in for it (the
    /// system file bounds it so, in model/src/enclosure.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enclosure_mb_s: Option<f64>,
    /// Whether its driver queues commands to the disks (NCQ/TCQ).
    pub command_queueing: bool,
    /// The host interface the card itself has (a PCI-X card may sit in a PCI slot: the slot
    /// is the system's `Link`).
    pub host_interface: String,
    /// Where each figure comes from.
    pub sources: Sources,
}

/// SIMD level of a CPU for the ZFS data path kernels (fletcher4, raidz parity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Simd {
    /// No vector kernels: the generic C code.
    Scalar,
    /// 128-bit SSE2 kernels.
    Sse2,
    /// 256-bit AVX2 kernels.
    Avx2,
    /// 512-bit AVX-512 kernels.
    Avx512,
}

/// A CPU model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuModel {
    /// The catalog id.
    pub id: String,
    /// The maker's name for it.
    pub name: String,
    /// Physical cores per socket.
    pub cores: u32,
    /// Hardware threads per socket.
    pub threads: u32,
    /// Clock, GHz: the base clock, which every core holds while all are busy.
    pub ghz: f64,
    /// The clock one busy core reaches (the maker's max boost or turbo), GHz, where a source
    /// states it: fewer busy cores run between the two (perf's `boost.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boost_ghz: Option<f64>,
    /// The widest SIMD the checksum and parity kernels use.
    pub simd: Simd,
    /// Whether it has the SHA extensions (SHA-256 in hardware).
    pub sha_ni: bool,
    /// Year of introduction: picks the era of memory and core speed where a figure is missing.
    /// For a later part of an older core, its core's year (the core's speed per clock).
    pub year: u32,
    /// Peak memory bandwidth of the platform, MB/s.
    pub memory_mb_s: Option<f64>,
    /// Where each figure comes from.
    pub sources: Sources,
}

/// A network interface as usable payload rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nic {
    /// A name for reports.
    pub name: String,
    /// Line rate in Gb/s of one port.
    pub gbps: f64,
    /// Ports, each of `gbps`.
    pub ports: u32,
}
