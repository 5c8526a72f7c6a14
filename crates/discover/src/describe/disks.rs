//! The disks of the pool in the order they fill it, each matched to the catalog or written
//! inline with what lsblk, /sys and smartctl read of it.

use super::places::{Place, Places};
use super::{Captured, Leaf};
use crate::system_toml::Section;
use model::Catalog;
use parse::lsblk::{self, BlockDevice};
use parse::smartctl::{self, DriveInfo};
use parse::sysfs::{self, Sysfs};
use parse::zpool_status::PoolStatus;
use parse::{lspci, zpool_list};
use std::collections::BTreeMap;

/// What a disk showed of itself.
#[derive(Debug, Clone, Default)]
pub(super) struct Facts {
    /// The whole disk's kernel name (the parent of a partition); empty for a file.
    pub disk: String,
    pub model: Option<String>,
    pub vendor: Option<String>,
    pub capacity_bytes: u64,
    pub logical_sector: u32,
    pub physical_sector: u32,
    /// Spindle speed; Some(0): solid state; None: not known.
    pub rpm: Option<u32>,
    pub rotational: bool,
    /// sata, sas, nvme or scsi, where the machine showed it.
    pub interface: Option<&'static str>,
    pub link_gbps: Option<f64>,
    pub queue_depth: Option<u32>,
    /// The pool has the whole disk (OpenZFS partitioned it: part 1 for data, part 9 reserved).
    pub whole_disk: bool,
    /// Where the facts came from, for the disk's note.
    pub seen_by: Vec<&'static str>,
}

/// What the machine's tools printed, parsed once.
pub(super) struct Tools {
    pub devices: Vec<BlockDevice>,
    pub sys: Sysfs,
    pub pci: Vec<lspci::PciDevice>,
    pub sizes: BTreeMap<String, u64>,
    pub smart: BTreeMap<String, DriveInfo>,
}

impl Tools {
    pub(super) fn read(c: &Captured) -> Tools {
        Tools {
            devices: c
                .lsblk
                .as_deref()
                .and_then(|j| lsblk::parse(j).ok())
                .unwrap_or_default(),
            sys: sysfs::parse(&c.sysfs),
            pci: c.lspci.as_deref().map(lspci::parse).unwrap_or_default(),
            sizes: c
                .zpool_list
                .as_deref()
                .map(zpool_list::sizes)
                .unwrap_or_default(),
            smart: c
                .smartctl
                .iter()
                .filter_map(|(disk, json)| Some((disk.clone(), smartctl::parse(json).ok()?)))
                .collect(),
        }
    }
}

/// The `[[disk]]` sections in fill order, and the places (controllers, NVMe links) they use.
pub(super) fn sections(
    status: &PoolStatus,
    c: &Captured,
    tools: &Tools,
    catalog: &Catalog,
) -> (Vec<Section>, Places) {
    let mut places = Places::default();
    let mut out = Vec::new();
    for (_, leaf) in status.leaves_in_fill_order() {
        let resolved = c.leaves.get(leaf).cloned().unwrap_or(Leaf::Missing);
        let f = facts(leaf, &resolved, tools);
        let at = places.add(&f, &tools.sys);
        out.push(section(leaf, &resolved, &f, &at, catalog));
    }
    (out, places)
}

fn facts(leaf: &str, resolved: &Leaf, tools: &Tools) -> Facts {
    match resolved {
        Leaf::Block(name) => block_facts(name, tools),
        Leaf::File(bytes) => Facts {
            capacity_bytes: bytes / 512 * 512,
            logical_sector: 512,
            physical_sector: 512,
            seen_by: vec!["stat"],
            ..Facts::default()
        },
        Leaf::Missing => Facts {
            capacity_bytes: tools.sizes.get(leaf).map_or(0, |b| b / 512 * 512),
            logical_sector: 512,
            physical_sector: 512,
            seen_by: vec!["zpool list"],
            ..Facts::default()
        },
    }
}

/// A block device's facts: lsblk for the device and its disk, /sys for the queue, smartctl
/// for what the drive says (its figures win where both speak).
fn block_facts(name: &str, tools: &Tools) -> Facts {
    let (device, parent) = find(&tools.devices, name, None).unwrap_or((None, None));
    let disk = parent.or(device);
    let disk_name = disk.map_or(name.to_string(), |d| d.name.clone());
    let queue = tools.sys.block(&disk_name);
    let smart = tools.smart.get(&disk_name);
    let whole = match (device, parent) {
        (Some(_), None) => true,
        (Some(d), Some(p)) => zfs_partitioned(d, p),
        _ => false,
    };
    let sized = if whole { disk } else { device };
    let mut seen_by = vec!["lsblk", "sysfs"];
    if smart.is_some() {
        seen_by.push("smartctl");
    }
    Facts {
        model: smart
            .map(|s| s.model.clone())
            .or(disk.and_then(|d| d.model.clone())),
        vendor: smart
            .and_then(|s| s.vendor.clone())
            .or(disk.and_then(|d| d.vendor.clone())),
        capacity_bytes: sized.map_or(0, |d| d.size_bytes),
        logical_sector: smart
            .and_then(|s| s.logical_sector)
            .or(queue.logical_sector)
            .unwrap_or(512),
        physical_sector: smart
            .and_then(|s| s.physical_sector)
            .or(queue.physical_sector)
            .unwrap_or(512),
        rpm: smart.and_then(|s| s.rotation_rate),
        rotational: queue
            .rotational
            .or(disk.map(|d| d.rotational))
            .unwrap_or(false),
        interface: interface(disk, smart),
        link_gbps: smart.and_then(|s| s.link_gbps),
        queue_depth: queue.device_queue_depth.or(queue.nr_requests),
        whole_disk: whole,
        disk: disk_name,
        seen_by,
    }
}

/// The device named `name` in the tree, with the disk it is a partition of.
fn find<'a>(
    list: &'a [BlockDevice],
    name: &str,
    parent: Option<&'a BlockDevice>,
) -> Option<(Option<&'a BlockDevice>, Option<&'a BlockDevice>)> {
    for d in list {
        if d.name == name {
            return Some((Some(d), parent));
        }
        let below = if d.kind == "disk" { Some(d) } else { parent };
        if let Some(found) = find(&d.children, name, below) {
            return Some(found);
        }
    }
    None
}

/// OpenZFS on a whole disk makes partition 1 for the pool and a small partition 9 (8 MiB,
/// "Solaris reserved"): the pool then has the disk.
fn zfs_partitioned(part: &BlockDevice, disk: &BlockDevice) -> bool {
    let reserved = disk
        .children
        .iter()
        .any(|c| c.name.ends_with('9') && c.size_bytes <= 64 << 20);
    part.name.ends_with('1') && !part.name.ends_with("11") && reserved
}

fn interface(disk: Option<&BlockDevice>, smart: Option<&DriveInfo>) -> Option<&'static str> {
    let tran = disk.and_then(|d| d.transport.as_deref());
    match tran {
        Some("sata") | Some("ata") => return Some("sata"),
        Some("sas") => return Some("sas"),
        Some("nvme") => return Some("nvme"),
        Some("spi") => return Some("scsi"),
        _ => {}
    }
    let smart = smart?;
    match smart.protocol.as_str() {
        "ATA" => Some("sata"),
        "NVMe" => Some("nvme"),
        "SCSI"
            if smart
                .transport
                .as_deref()
                .is_some_and(|t| t.starts_with("Parallel")) =>
        {
            Some("scsi")
        }
        "SCSI" => Some("sas"),
        _ => None,
    }
}

/// One `[[disk]]`: a catalog model when one matches the drive's model and exact capacity,
/// else the model written inline.
fn section(leaf: &str, resolved: &Leaf, f: &Facts, at: &Place, catalog: &Catalog) -> Section {
    let what = match resolved {
        Leaf::Block(_) => format!(
            "{}: {}, {} bytes, {}/{}-byte sectors ({})",
            f.disk,
            f.model.as_deref().unwrap_or("model not shown"),
            f.capacity_bytes,
            f.logical_sector,
            f.physical_sector,
            f.seen_by.join(", ")
        ),
        Leaf::File(_) => format!("a file vdev of {} bytes", f.capacity_bytes),
        Leaf::Missing => "not found on this machine (a missing device?)".to_string(),
    };
    let mut s = Section::new("[[disk]]").note(what).read("name", leaf);
    s = match catalog_match(f, catalog) {
        Some(id) => s.read("model", id),
        None => {
            let (table, why) = super::inline::disk(f, resolved, at);
            s.assumed("model", table, &why)
        }
    };
    s = match at {
        Place::Link(id) => s.read("link", id.as_str()),
        Place::Controller(id) => s.read("controller", id.as_str()),
    };
    match resolved {
        Leaf::Block(_) => s.read("whole_disk", f.whole_disk),
        _ => s.read("whole_disk", false),
    }
}

/// A catalog disk of the same exact capacity whose model names the drive's model number (a
/// word of the catalog's model that begins one of the reported words: `WD40EFZX` for
/// `WDC WD40EFZX-68AWUN0`).
fn catalog_match(f: &Facts, catalog: &Catalog) -> Option<String> {
    let reported = f.model.as_deref()?.to_ascii_lowercase();
    let words: Vec<&str> = reported
        .split(|c: char| c.is_whitespace() || c == '_')
        .collect();
    catalog
        .disks
        .values()
        .find(|d| {
            d.capacity_bytes == f.capacity_bytes
                && d.model
                    .to_ascii_lowercase()
                    .split_whitespace()
                    .any(|number| {
                        number.len() >= 5
                            && number.chars().any(|c| c.is_ascii_digit())
                            && words.iter().any(|w| w.starts_with(number))
                    })
        })
        .map(|d| d.id.clone())
}
