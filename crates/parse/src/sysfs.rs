//! What /sys tells of disks, their queues, the PCI functions they hang from and SAS expanders,
//! read from a capture: one line per file, its path, a tab and its first line, and for a
//! symbolic link its path, a tab, `-> ` and its target (`runner::capture_sysfs` writes it; a
//! shell loop over the same files writes the same, see tests/fixtures/README.md).

use serde::Serialize;
use std::collections::BTreeMap;

/// The captured files and links, by absolute path under /sys.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sysfs {
    files: BTreeMap<String, String>,
    links: BTreeMap<String, String>,
}

/// A disk's queue as the block layer shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockQueue {
    /// Whether it spins (queue/rotational).
    pub rotational: Option<bool>,
    /// The sector size it reports (queue/logical_block_size).
    pub logical_sector: Option<u32>,
    /// The sector size it writes (queue/physical_block_size).
    pub physical_sector: Option<u32>,
    /// Requests the block layer queues (queue/nr_requests).
    pub nr_requests: Option<u32>,
    /// Commands the SCSI midlayer keeps at the device (device/queue_depth: NCQ 32, SAS more).
    pub device_queue_depth: Option<u32>,
    /// Its place in the device tree (below /sys/devices/).
    pub device_path: Option<String>,
}

/// A PCI function (a controller, an NVMe drive, a bridge) and its PCIe link.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PciFunction {
    /// Domain:bus:device.function, `0000:04:00.0`.
    pub address: String,
    /// PCI vendor id.
    pub vendor: Option<u16>,
    /// PCI device id.
    pub device: Option<u16>,
    /// PCI class code (0x010802: an NVMe controller).
    pub class: Option<u32>,
    /// Transfer rate per lane in GT/s and lanes, as trained.
    pub current_link: Option<(f64, u32)>,
    /// The same, as the device can run.
    pub max_link: Option<(f64, u32)>,
}

/// A SAS expander (/sys/class/sas_expander).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expander {
    /// Its name under /sys/class/sas_expander (`expander-6:0`).
    pub name: String,
    /// Its SAS vendor id, as sysfs gives it.
    pub vendor: Option<String>,
    /// Its SAS product id, as sysfs gives it.
    pub product: Option<String>,
}

/// Reads a capture; lines that are neither form are skipped.
pub fn parse(text: &str) -> Sysfs {
    let mut out = Sysfs::default();
    for line in text.lines() {
        let Some((path, value)) = line.split_once('\t') else {
            continue;
        };
        match value.strip_prefix("-> ") {
            Some(target) => out.links.insert(path.to_string(), target.to_string()),
            None => out.files.insert(path.to_string(), value.trim().to_string()),
        };
    }
    out
}

/// `0000:04:00.0`: the name of a PCI function in the device tree.
pub fn is_pci_address(part: &str) -> bool {
    let b = part.as_bytes();
    b.len() == 12
        && b[4] == b':'
        && b[7] == b':'
        && b[10] == b'.'
        && part
            .chars()
            .enumerate()
            .all(|(i, c)| matches!(i, 4 | 7 | 10) || c.is_ascii_hexdigit())
}

impl Sysfs {
    fn file(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    fn number<T: std::str::FromStr>(&self, path: &str) -> Option<T> {
        self.file(path)?.trim().parse().ok()
    }

    /// The queue of the disk `name` (`sda`); `None` where the capture lacks a file.
    pub fn block(&self, name: &str) -> BlockQueue {
        let at = |f: &str| format!("/sys/block/{name}/{f}");
        BlockQueue {
            rotational: self.file(&at("queue/rotational")).map(|v| v == "1"),
            logical_sector: self.number(&at("queue/logical_block_size")),
            physical_sector: self.number(&at("queue/physical_block_size")),
            nr_requests: self.number(&at("queue/nr_requests")),
            device_queue_depth: self.number(&at("device/queue_depth")),
            device_path: self.links.get(&format!("/sys/block/{name}")).map(|t| {
                let t = t.trim_start_matches("../");
                t.strip_prefix("devices/").unwrap_or(t).to_string()
            }),
        }
    }

    /// The PCI functions on the way from the root to a disk, nearest the root first: the last
    /// is its controller (or, for NVMe, the drive itself).
    pub fn pci_path(&self, disk: &str) -> Vec<String> {
        self.block(disk)
            .device_path
            .map(|p| {
                p.split('/')
                    .filter(|c| is_pci_address(c))
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The SAS expander a disk sits behind, if its path passes one.
    pub fn expander_of(&self, disk: &str) -> Option<String> {
        let path = self.block(disk).device_path?;
        path.rsplit('/')
            .find(|c| c.starts_with("expander-"))
            .map(String::from)
    }

    /// The PCI function at `address` and its link; `None` where the capture lacks a file.
    pub fn pci(&self, address: &str) -> PciFunction {
        let at = |f: &str| format!("/sys/bus/pci/devices/{address}/{f}");
        let hex = |f: &str| {
            self.file(&at(f))
                .and_then(|v| u32::from_str_radix(v.trim_start_matches("0x"), 16).ok())
        };
        let link = |speed: &str, width: &str| {
            let gts = self
                .file(&at(speed))?
                .split_whitespace()
                .next()?
                .parse::<f64>()
                .ok()?;
            let lanes = self.number::<u32>(&at(width))?;
            (lanes > 0).then_some((gts, lanes))
        };
        PciFunction {
            address: address.to_string(),
            vendor: hex("vendor").and_then(|v| u16::try_from(v).ok()),
            device: hex("device").and_then(|v| u16::try_from(v).ok()),
            class: hex("class"),
            current_link: link("current_link_speed", "current_link_width"),
            max_link: link("max_link_speed", "max_link_width"),
        }
    }

    /// Every SAS expander the capture shows.
    pub fn expanders(&self) -> Vec<Expander> {
        let mut names: Vec<&str> = self
            .files
            .keys()
            .chain(self.links.keys())
            .filter_map(|p| p.strip_prefix("/sys/class/sas_expander/"))
            .filter_map(|rest| rest.split('/').next())
            .collect();
        names.dedup();
        names
            .into_iter()
            .map(|name| {
                let at = |f: &str| self.file(&format!("/sys/class/sas_expander/{name}/{f}"));
                Expander {
                    name: name.to_string(),
                    vendor: at("vendor_id").map(String::from),
                    product: at("product_id").map(String::from),
                }
            })
            .collect()
    }
}
