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

/// What an entry gets wrong: the key at fault as the user wrote it (`sources.rpm` for a key of
/// the sources table), so the error can point at it, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Bad {
    pub key: Option<String>,
    pub message: String,
}

impl Bad {
    fn at(key: &str, message: impl Into<String>) -> Bad {
        Bad {
            key: Some(key.to_string()),
            message: message.into(),
        }
    }
}

impl From<String> for Bad {
    fn from(message: String) -> Bad {
        Bad { key: None, message }
    }
}

impl From<&str> for Bad {
    fn from(message: &str) -> Bad {
        Bad::from(message.to_string())
    }
}

impl From<Bad> for String {
    fn from(bad: Bad) -> String {
        bad.message
    }
}

/// A disk model from a TOML table, filling in an unpublished inner-track rate and the
/// unstated figures of its interface (each with a source saying how it was had), then checked.
pub(crate) fn disk_from_table(mut table: toml::Table) -> Result<DiskModel, Bad> {
    fill_inner_rate(&mut table);
    fill_interface_defaults(&mut table);
    let disk: DiskModel = from_table(table)?;
    check_disk(&disk)?;
    Ok(disk)
}

/// A model from a TOML table; on a mismatch toml's message with the key at fault: the first
/// whose removal changes the error (a table's values carry no place of their own).
pub(crate) fn from_table<T: serde::de::DeserializeOwned>(table: toml::Table) -> Result<T, Bad> {
    let error = match convert::<T>(table.clone()) {
        Ok(model) => return Ok(model),
        Err(e) => e,
    };
    if error.starts_with("missing field") {
        return Err(Bad::from(error));
    }
    let key = table.keys().find(|key| {
        let mut without = table.clone();
        without.remove(*key);
        convert::<T>(without).err().as_ref() != Some(&error)
    });
    Err(match key {
        Some(key) if !error.contains(&format!("`{key}`")) => {
            Bad::at(key, format!("{key}: {error}"))
        }
        Some(key) => Bad::at(key, error),
        None => Bad::from(error),
    })
}

fn convert<T: serde::de::DeserializeOwned>(table: toml::Table) -> Result<T, String> {
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
    cite(table, "seq_inner_mb_s", why);
}

/// What a disk entry that leaves them out is taken to have, by its interface: the line rate
/// and command queue of the interface's current generation (SATA 3.x: 6 Gb/s, NCQ 32; SAS-3:
/// 12 Gb/s and 64 queued commands, what SAS drives commonly take; NVMe: a PCIe 3.0 x4 drive,
/// its 64K-entry queue; Ultra320 SCSI: 2.56 Gb/s, TCQ 32), 512-byte logical sectors, physical
/// sectors as the logical ones, and no vendor. docs/assumptions.md "Disks"; docs/zfs-internals.md
/// §4 and §5 for the interfaces.
fn interface_defaults(interface: &str) -> Option<[(&'static str, toml::Value); 2]> {
    let (gbps, queue) = match interface {
        "sata" => (6.0, 32),
        "sas" => (12.0, 64),
        "nvme" => (32.0, 65_536),
        "scsi" => (2.56, 32),
        _ => return None,
    };
    Some([
        ("interface_gbps", toml::Value::Float(gbps)),
        ("queue_depth", toml::Value::Integer(queue)),
    ])
}

fn fill_interface_defaults(table: &mut toml::Table) {
    let mut unstated: Vec<(&str, toml::Value)> = vec![
        ("vendor", toml::Value::String("(not stated)".into())),
        ("logical_sector", toml::Value::Integer(512)),
    ];
    if let Some(by_interface) = table
        .get("interface")
        .and_then(toml::Value::as_str)
        .and_then(interface_defaults)
    {
        unstated.extend(by_interface);
    }
    for (key, value) in unstated {
        if !table.contains_key(key) {
            cite(
                table,
                key,
                format!("not stated: {value} by default (docs/assumptions.md)"),
            );
            table.insert(key.into(), value);
        }
    }
    if !table.contains_key("physical_sector") {
        let logical = table["logical_sector"].clone();
        cite(
            table,
            "physical_sector",
            "not stated: the logical sector by default (docs/assumptions.md)".into(),
        );
        table.insert("physical_sector".into(), logical);
    }
}

/// Adds `why` to an entry's sources for `key` (naming fields need none).
fn cite(table: &mut toml::Table, key: &str, why: String) {
    if NAMING_FIELDS.contains(&key) {
        return;
    }
    if let Some(toml::Value::Table(sources)) = table.get_mut("sources") {
        sources.insert(key.into(), toml::Value::String(why));
    }
}

fn number(v: &toml::Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

pub(crate) fn check_disk(d: &DiskModel) -> Result<(), Bad> {
    check_common(d, &d.id, &d.sources)?;
    for (what, size) in [
        ("logical_sector", d.logical_sector),
        ("physical_sector", d.physical_sector),
    ] {
        if !size.is_power_of_two() || !(512..=65536).contains(&size) {
            return Err(Bad::at(
                what,
                format!("{what} {size} is not a power of two from 512 to 65536"),
            ));
        }
    }
    if d.physical_sector < d.logical_sector {
        return Err(Bad::at(
            "physical_sector",
            "physical_sector is smaller than logical_sector",
        ));
    }
    if !d.capacity_bytes.is_multiple_of(u64::from(d.logical_sector)) {
        return Err(Bad::at(
            "capacity_bytes",
            format!(
                "capacity_bytes {} is not a whole number of {}-byte sectors",
                d.capacity_bytes, d.logical_sector
            ),
        ));
    }
    check_rates(d)?;
    if d.uer_per_bit.is_some_and(|u| u >= 1.0) {
        return Err(Bad::at(
            "uer_per_bit",
            "uer_per_bit is a probability per bit, below 1",
        ));
    }
    let mut previous = None;
    for zone in &d.zones {
        if zone.offset_bytes >= d.capacity_bytes || previous.is_some_and(|p| zone.offset_bytes <= p)
        {
            return Err(Bad::at(
                "zones",
                "zones must be at increasing offsets inside the disk",
            ));
        }
        crate::range::MB_S
            .check_as("a zone's mb_s", zone.mb_s)
            .map_err(|e| Bad::at("zones", e.to_string()))?;
        previous = Some(zone.offset_bytes);
    }
    Ok(())
}

/// A disk's rates against its medium: rpm and zoned inner rates are a hard disk's, the rate
/// past an SLC cache a flash drive's, below its own write rate.
fn check_rates(d: &DiskModel) -> Result<(), Bad> {
    // A hard disk may lack its rpm where the source does not give it (seed 001).
    if d.medium != Medium::Hdd && d.rpm.is_some() {
        return Err(Bad::at("rpm", "solid state has no rpm"));
    }
    if d.medium == Medium::Hdd && d.seq_inner_mb_s > d.seq_outer_mb_s {
        return Err(Bad::at(
            "seq_inner_mb_s",
            "seq_inner_mb_s is above seq_outer_mb_s: inner tracks read slower",
        ));
    }
    if let Some(sustained) = d.sustained_write_mb_s {
        if d.medium == Medium::Hdd {
            return Err(Bad::at(
                "sustained_write_mb_s",
                "sustained_write_mb_s is a flash drive's rate past its write cache: not a hard disk's",
            ));
        }
        if sustained > d.seq_write_mb_s.unwrap_or(d.seq_outer_mb_s) {
            return Err(Bad::at(
                "sustained_write_mb_s",
                "sustained_write_mb_s is above the drive's sequential write rate",
            ));
        }
    }
    Ok(())
}

pub(crate) fn check_controller(c: &ControllerModel) -> Result<(), Bad> {
    check_common(c, &c.id, &c.sources)?;
    match (c.kind, c.uplink_lanes) {
        (crate::hardware::ControllerKind::Expander, Some(1..=16)) => Ok(()),
        (crate::hardware::ControllerKind::Expander, _) => Err(Bad::at(
            "kind",
            "an expander gives uplink_lanes, 1 to 16: the lanes of its wide link",
        )),
        (_, None) => Ok(()),
        (_, Some(_)) => Err(Bad::at("uplink_lanes", "only an expander has uplink_lanes")),
    }
}

pub(crate) fn check_cpu(c: &CpuModel) -> Result<(), Bad> {
    check_common(c, &c.id, &c.sources)?;
    if c.threads < c.cores {
        return Err(Bad::at(
            "threads",
            format!(
                "{} threads on {} cores: threads count every core",
                c.threads, c.cores
            ),
        ));
    }
    if c.boost_ghz.is_some_and(|boost| boost < c.ghz) {
        return Err(Bad::at(
            "boost_ghz",
            "boost_ghz is below ghz: a lone core's boost is at least the base clock",
        ));
    }
    Ok(())
}

pub(crate) fn check_link(l: &LinkModel) -> Result<(), Bad> {
    check_common(l, &l.id, &l.sources)?;
    Ok(check_link_kind(&l.kind)?)
}

/// Buses and links as they are built: the widths, clocks, generations and payload sizes that
/// exist (PCI Local Bus 2.3, PCI-X 2.0, PCI Express Base 1.0-6.0: payload 128 to 4096 bytes).
pub(crate) fn check_link_kind(kind: &LinkKind) -> Result<(), String> {
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

/// An id users can type, every number above zero and within its bound (in the order the
/// fields are declared, so a figure given is blamed before one filled in from it), and a
/// source for every figure.
fn check_common<'de, T: Serialize + Deserialize<'de>>(
    model: &T,
    id: &str,
    sources: &Sources,
) -> Result<(), Bad> {
    check_id(id)?;
    // The entry as a table: one walk over its fields whatever the entry's type.
    let table = toml::Table::try_from(model).map_err(|e| e.to_string())?;
    let fields = field_names::<T>();
    check_figures(&table, fields)?;
    check_sources(&table, fields, sources)
}

/// An id users can type on a command line and in a URL.
fn check_id(id: &str) -> Result<(), Bad> {
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c))
    {
        return Err(Bad::at(
            "id",
            format!(
                "id '{}' must be lowercase letters, digits, '-', '.' or '_'",
                crate::input::echo(id)
            ),
        ));
    }
    Ok(())
}

/// Every whole number above zero and every figure within its range, in declaration order.
fn check_figures(table: &toml::Table, fields: &[&str]) -> Result<(), Bad> {
    for key in fields {
        match table.get(*key) {
            Some(toml::Value::Integer(i)) if *i <= 0 => {
                return Err(Bad::at(key, format!("{key} must be above 0")))
            }
            // Each figure within its documented range (docs/ranges.md).
            Some(toml::Value::Float(f)) => {
                crate::range::of_key(key)
                    .check_as(key, *f)
                    .map_err(|e| Bad::at(key, e.to_string()))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Each source names a figure of the entry and says something; without a default source,
/// every figure has its own.
fn check_sources(
    table: &toml::Table,
    fields: &'static [&'static str],
    sources: &Sources,
) -> Result<(), Bad> {
    for (key, text) in sources {
        let at = format!("sources.{key}");
        if key != DEFAULT_SOURCE
            && (!fields.contains(&key.as_str()) || NAMING_FIELDS.contains(&key.as_str()))
        {
            return Err(Bad::at(
                &at,
                format!(
                    "sources.{} names no figure of this entry; use '{DEFAULT_SOURCE}' or one of: {}",
                    crate::input::echo(key),
                    figures(fields).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        if text.trim().is_empty() {
            return Err(Bad::at(&at, format!("{at} is empty")));
        }
    }
    if sources.contains_key(DEFAULT_SOURCE) {
        return Ok(());
    }
    let uncited: Vec<&str> = table
        .keys()
        .map(String::as_str)
        .filter(|k| !NAMING_FIELDS.contains(k) && !sources.contains_key(*k))
        .collect();
    match uncited.first() {
        Some(first) => Err(Bad::at(
            first,
            format!(
                "no source for {}: add sources.<figure> or sources.{DEFAULT_SOURCE}",
                uncited.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

fn figures(fields: &'static [&'static str]) -> impl Iterator<Item = &'static str> {
    fields
        .iter()
        .copied()
        .filter(|f| !NAMING_FIELDS.contains(f))
}
