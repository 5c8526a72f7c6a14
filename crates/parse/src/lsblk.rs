//! `lsblk -J -b -O`: every block device with its size, sectors, rotation, model and mounts.
//! lsblk before 2.37 printed every value as a string ("512", "1"); both forms are read.

use crate::{fail, Result};
use serde::Serialize;
use serde_json::Value;

/// One block device as lsblk shows it, with its partitions (or holders) as children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockDevice {
    /// The kernel's name (`sda`, `nvme0n1p1`).
    pub name: String,
    /// Its device node (`/dev/sda`).
    pub path: String,
    /// lsblk's TYPE: disk, part, loop, rom, lvm, ...
    pub kind: String,
    /// Size, bytes.
    pub size_bytes: u64,
    /// The sector size it reports (LOG-SEC).
    pub logical_sector: u32,
    /// The sector size it writes (PHY-SEC).
    pub physical_sector: u32,
    /// Whether it spins (ROTA).
    pub rotational: bool,
    /// The model as the device reports it.
    pub model: Option<String>,
    /// The vendor as the device reports it.
    pub vendor: Option<String>,
    /// The serial number as the device reports it.
    pub serial: Option<String>,
    /// Transport: sata, sas, nvme, usb, ...
    pub transport: Option<String>,
    /// The file system (or `zfs_member`) found on it.
    pub fstype: Option<String>,
    /// Where it is mounted; empty when nowhere.
    pub mountpoints: Vec<String>,
    /// Its partitions, or the devices built on it (holders).
    pub children: Vec<BlockDevice>,
}

impl BlockDevice {
    /// Whether it or any partition of it is mounted.
    pub fn mounted(&self) -> bool {
        !self.mountpoints.is_empty() || self.children.iter().any(BlockDevice::mounted)
    }

    /// Whether it or any partition of it carries a ZFS label.
    pub fn zfs_member(&self) -> bool {
        self.fstype.as_deref() == Some("zfs_member")
            || self.children.iter().any(BlockDevice::zfs_member)
    }
}

/// Reads the JSON; an output without `blockdevices` is refused.
pub fn parse(json: &str) -> Result<Vec<BlockDevice>> {
    let root: Value =
        serde_json::from_str(json).or_else(|e| fail(format!("lsblk printed no JSON: {e}")))?;
    let Some(list) = root.get("blockdevices").and_then(Value::as_array) else {
        return fail("lsblk's JSON has no blockdevices list");
    };
    list.iter().map(device).collect()
}

fn device(v: &Value) -> Result<BlockDevice> {
    let name =
        text(v, "name").ok_or_else(|| crate::Error("lsblk: a device without a name".into()))?;
    let mut mountpoints: Vec<String> = v
        .get("mountpoints")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some(m) = text(v, "mountpoint") {
        if !mountpoints.contains(&m) {
            mountpoints.push(m);
        }
    }
    let children = match v.get("children").and_then(Value::as_array) {
        Some(list) => list.iter().map(device).collect::<Result<_>>()?,
        None => Vec::new(),
    };
    Ok(BlockDevice {
        path: text(v, "path").unwrap_or_else(|| format!("/dev/{name}")),
        kind: text(v, "type").unwrap_or_default(),
        size_bytes: number(v, "size").unwrap_or(0),
        logical_sector: number(v, "log-sec").unwrap_or(512) as u32,
        physical_sector: number(v, "phy-sec").unwrap_or(512) as u32,
        rotational: flag(v, "rota"),
        model: text(v, "model"),
        vendor: text(v, "vendor"),
        serial: text(v, "serial"),
        transport: text(v, "tran"),
        fstype: text(v, "fstype"),
        mountpoints,
        children,
        name,
    })
}

/// A string value, trimmed (lsblk pads vendor names), absent when null or empty.
fn text(v: &Value, key: &str) -> Option<String> {
    let s = v.get(key)?.as_str()?.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn number(v: &Value, key: &str) -> Option<u64> {
    match v.get(key)? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn flag(v: &Value, key: &str) -> bool {
    match v.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.trim() == "1",
        Some(Value::Number(n)) => n.as_u64() == Some(1),
        _ => false,
    }
}
