//! What makes a catalog entry acceptable: sane figures, and a source for every figure it gives.
//! Shared by the embedded data, user catalog files and inline models in system files.

use super::fields::field_names;
use crate::hardware::{ControllerModel, CpuModel, DiskModel, LinkKind, LinkModel, Medium, Sources};
use serde::{Deserialize, Serialize};

/// The inner-track rate of a hard disk whose maker publishes only the outer one, as a fraction
/// of the outer rate. docs/zfs-internals.md §5: zoned recording falls typically to 50-60% from
/// the outer to the inner tracks; seed 002's ST3000DM001 read 111.3 MB/s near its end against
/// 207.2 at its fastest point (0.54).
pub const INNER_TRACK_FRACTION: f64 = 0.55;

/// The source key that covers every figure not cited one by one.
pub const DEFAULT_SOURCE: &str = "default";

/// Fields that name an entry rather than measure it: they need no source.
const NAMING_FIELDS: [&str; 5] = ["id", "name", "vendor", "model", "sources"];

/// A disk model from a TOML table, filling in an unpublished inner-track rate (with a source
/// saying how it was had), then checked.
pub fn disk_from_table(mut table: toml::Table) -> Result<DiskModel, String> {
    fill_inner_rate(&mut table);
    let disk: DiskModel = from_table(table)?;
    check_disk(&disk)?;
    Ok(disk)
}

/// A model from a TOML table, with toml's message on a mismatch (the caller knows the place).
pub fn from_table<T: serde::de::DeserializeOwned>(table: toml::Table) -> Result<T, String> {
    toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())
}

fn fill_inner_rate(table: &mut toml::Table) {
    if table.contains_key("seq_inner_mb_s") {
        return;
    }
    let Some(outer) = table.get("seq_outer_mb_s").and_then(number) else {
        return;
    };
    let (inner, why) = match table.get("medium").and_then(toml::Value::as_str) {
        Some("hdd") => (
            outer * INNER_TRACK_FRACTION,
            format!("not published: estimated as {INNER_TRACK_FRACTION} x the outer rate (zoned recording, docs/zfs-internals.md §5)"),
        ),
        Some(_) => (outer, "solid state: no zoned recording, the same as the outer rate".to_string()),
        None => return,
    };
    table.insert("seq_inner_mb_s".into(), toml::Value::Float(inner));
    if let Some(toml::Value::Table(sources)) = table.get_mut("sources") {
        sources.insert("seq_inner_mb_s".into(), toml::Value::String(why));
    }
}

fn number(v: &toml::Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

pub fn check_disk(d: &DiskModel) -> Result<(), String> {
    check_common(d, &d.id, &d.sources)?;
    for (what, size) in [
        ("logical_sector", d.logical_sector),
        ("physical_sector", d.physical_sector),
    ] {
        if !size.is_power_of_two() || !(512..=65536).contains(&size) {
            return Err(format!(
                "{what} {size} is not a power of two from 512 to 65536"
            ));
        }
    }
    if d.physical_sector < d.logical_sector {
        return Err("physical_sector is smaller than logical_sector".to_string());
    }
    if !d.capacity_bytes.is_multiple_of(u64::from(d.logical_sector)) {
        return Err(format!(
            "capacity_bytes {} is not a whole number of {}-byte sectors",
            d.capacity_bytes, d.logical_sector
        ));
    }
    // A hard disk may lack its rpm where the source does not give it (seed 001).
    if d.medium != Medium::Hdd && d.rpm.is_some() {
        return Err("solid state has no rpm".to_string());
    }
    if d.medium == Medium::Hdd && d.seq_inner_mb_s > d.seq_outer_mb_s {
        return Err("seq_inner_mb_s is above seq_outer_mb_s: inner tracks read slower".into());
    }
    if d.uer_per_bit.is_some_and(|u| u >= 1.0) {
        return Err("uer_per_bit is a probability per bit, below 1".to_string());
    }
    let mut previous = None;
    for zone in &d.zones {
        if zone.offset_bytes >= d.capacity_bytes || previous.is_some_and(|p| zone.offset_bytes <= p)
        {
            return Err("zones must be at increasing offsets inside the disk".to_string());
        }
        if !(zone.mb_s.is_finite() && zone.mb_s > 0.0) {
            return Err("a zone's mb_s must be above 0".to_string());
        }
        previous = Some(zone.offset_bytes);
    }
    Ok(())
}

pub fn check_controller(c: &ControllerModel) -> Result<(), String> {
    check_common(c, &c.id, &c.sources)?;
    match (c.kind, c.uplink_lanes) {
        (crate::hardware::ControllerKind::Expander, Some(1..=16)) => Ok(()),
        (crate::hardware::ControllerKind::Expander, _) => {
            Err("an expander gives uplink_lanes, 1 to 16: the lanes of its wide link".into())
        }
        (_, None) => Ok(()),
        (_, Some(_)) => Err("only an expander has uplink_lanes".into()),
    }
}

pub fn check_cpu(c: &CpuModel) -> Result<(), String> {
    check_common(c, &c.id, &c.sources)?;
    if c.threads < c.cores {
        return Err(format!(
            "{} threads on {} cores: threads count every core",
            c.threads, c.cores
        ));
    }
    Ok(())
}

pub fn check_link(l: &LinkModel) -> Result<(), String> {
    check_common(l, &l.id, &l.sources)?;
    check_link_kind(&l.kind)
}

/// Buses and links as they are built: the widths, clocks, generations and payload sizes that
/// exist (PCI Local Bus 2.3, PCI-X 2.0, PCI Express Base 1.0-6.0: payload 128 to 4096 bytes).
pub fn check_link_kind(kind: &LinkKind) -> Result<(), String> {
    let ok = match *kind {
        LinkKind::Pci { bits, mhz } | LinkKind::PciX { bits, mhz } => {
            if !matches!(bits, 32 | 64) {
                return Err(format!("bits must be 32 or 64, not {bits}"));
            }
            mhz > 0.0 && mhz.is_finite()
        }
        LinkKind::Pcie {
            gen,
            lanes,
            max_payload,
        } => {
            if !(1..=6).contains(&gen) {
                return Err(format!("PCIe gen must be 1 to 6, not {gen}"));
            }
            if !matches!(lanes, 1 | 2 | 4 | 8 | 16 | 32) {
                return Err(format!(
                    "PCIe lanes must be 1, 2, 4, 8, 16 or 32, not {lanes}"
                ));
            }
            if !max_payload.is_power_of_two() || !(128..=4096).contains(&max_payload) {
                return Err(format!("max_payload must be 128, 256, 512, 1024, 2048 or 4096 bytes, not {max_payload}"));
            }
            true
        }
        LinkKind::Uplink { mb_s } => mb_s > 0.0 && mb_s.is_finite(),
    };
    if ok {
        Ok(())
    } else {
        Err("its rate (mhz or mb_s) must be above 0".to_string())
    }
}

/// An id users can type, every number above zero, and a source for every figure.
fn check_common<'de, T: Serialize + Deserialize<'de>>(
    model: &T,
    id: &str,
    sources: &Sources,
) -> Result<(), String> {
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c))
    {
        return Err(format!(
            "id '{id}' must be lowercase letters, digits, '-', '.' or '_'"
        ));
    }
    let table = toml::Table::try_from(model).map_err(|e| e.to_string())?;
    for (key, value) in &table {
        let positive = match value {
            toml::Value::Integer(i) => *i > 0,
            toml::Value::Float(f) => f.is_finite() && *f > 0.0,
            _ => true,
        };
        if !positive {
            return Err(format!("{key} must be above 0"));
        }
    }
    let fields = field_names::<T>();
    for (key, text) in sources {
        if key != DEFAULT_SOURCE
            && (!fields.contains(&key.as_str()) || NAMING_FIELDS.contains(&key.as_str()))
        {
            return Err(format!(
                "sources.{key} names no figure of this entry; use '{DEFAULT_SOURCE}' or one of: {}",
                figures(fields).collect::<Vec<_>>().join(", ")
            ));
        }
        if text.trim().is_empty() {
            return Err(format!("sources.{key} is empty"));
        }
    }
    if !sources.contains_key(DEFAULT_SOURCE) {
        let uncited: Vec<&str> = table
            .keys()
            .map(String::as_str)
            .filter(|k| !NAMING_FIELDS.contains(k) && !sources.contains_key(*k))
            .collect();
        if !uncited.is_empty() {
            return Err(format!(
                "no source for {}: add sources.<figure> or sources.{DEFAULT_SOURCE}",
                uncited.join(", ")
            ));
        }
    }
    Ok(())
}

fn figures(fields: &'static [&'static str]) -> impl Iterator<Item = &'static str> {
    fields
        .iter()
        .copied()
        .filter(|f| !NAMING_FIELDS.contains(f))
}
