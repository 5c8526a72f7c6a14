//! The hardware catalog: disk, controller and CPU models, each figure with its source. The
//! embedded part is the data files under `crates/model/catalog/`, compiled into the binary;
//! users add or override entries with files of the same format (`[[disk]]`, `[[controller]]`,
//! `[[cpu]]` and `[[link]]` tables, as in `catalog/disks.toml`).

mod checks;
mod fields;
mod near;

pub(crate) use checks::{
    check_controller, check_cpu, check_disk, check_link, check_link_kind, disk_from_table,
    from_table, Bad,
};
pub use checks::{DEFAULT_SOURCE, INNER_TRACK_FRACTION};
pub(crate) use fields::field_names;

use crate::file_error::FileError;
use crate::file_error::Source;
use crate::hardware::{ControllerModel, CpuModel, DiskModel, LinkModel};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;
use toml::Spanned;

/// The embedded data files, by the name errors and listings give them.
const EMBEDDED: [(&str, &str); 4] = [
    (
        "catalog/disks.toml",
        include_str!("../../catalog/disks.toml"),
    ),
    (
        "catalog/controllers.toml",
        include_str!("../../catalog/controllers.toml"),
    ),
    ("catalog/cpus.toml", include_str!("../../catalog/cpus.toml")),
    (
        "catalog/links.toml",
        include_str!("../../catalog/links.toml"),
    ),
];

/// Every known model, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    /// Disk models by id.
    pub disks: BTreeMap<String, DiskModel>,
    /// Controller models (HBAs, AHCI, RAID cards, expanders) by id.
    pub controllers: BTreeMap<String, ControllerModel>,
    /// CPU models by id.
    pub cpus: BTreeMap<String, CpuModel>,
    /// Bus and link kinds by id, for a system file's `[[link]]` with `model`.
    pub links: BTreeMap<String, LinkModel>,
}

/// The kinds of entry, as `zpoolsim catalog --kind` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A disk model (`catalog/disks.toml`).
    Disk,
    /// A controller model (`catalog/controllers.toml`).
    Controller,
    /// A CPU model (`catalog/cpus.toml`).
    Cpu,
    /// A bus or link kind (`catalog/links.toml`).
    Link,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Disk => "disk",
            Kind::Controller => "controller",
            Kind::Cpu => "cpu",
            Kind::Link => "link",
        })
    }
}

/// An id the catalog does not hold, with the ids that look like it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupError {
    /// The kind of entry looked up.
    pub kind: Kind,
    /// The id as it was asked for.
    pub id: String,
    /// Ids of the same kind that look like it, for "did you mean".
    pub near: Vec<String>,
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no {} '{}' in the catalog",
            self.kind,
            crate::input::echo(&self.id)
        )?;
        if !self.near.is_empty() {
            write!(f, "; did you mean {}?", quoted(&self.near).join(" or "))?;
        }
        write!(f, " (`zpoolsim catalog --kind {}` lists them)", self.kind)
    }
}

impl std::error::Error for LookupError {}

fn quoted(ids: &[String]) -> Vec<String> {
    ids.iter().map(|id| format!("'{id}'")).collect()
}

/// The layout of a catalog file: arrays of tables, one per entry. Disks are read as tables so
/// an unpublished inner-track rate can be filled in before they become `DiskModel`s.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a catalog file of [[disk]], [[controller]], [[cpu]] and [[link]] tables"
)]
struct CatalogFile {
    #[serde(default)]
    disk: Vec<Spanned<toml::Table>>,
    #[serde(default)]
    controller: Vec<Spanned<ControllerModel>>,
    #[serde(default)]
    cpu: Vec<Spanned<CpuModel>>,
    #[serde(default)]
    link: Vec<Spanned<LinkModel>>,
}

impl Catalog {
    /// The catalog compiled into the binary, parsed on first use.
    pub fn embedded() -> &'static Catalog {
        static EMBEDDED_CATALOG: OnceLock<Catalog> = OnceLock::new();
        EMBEDDED_CATALOG.get_or_init(|| {
            let mut catalog = Catalog::default();
            for (name, text) in EMBEDDED {
                catalog
                    .merge_file(text, name)
                    .unwrap_or_else(|e| panic!("embedded catalog: {e}"));
            }
            catalog
        })
    }

    /// Adds the entries of a catalog file; an entry with an id already known replaces it (a
    /// user's own figures win). Nothing is added if the file has an error.
    pub fn merge_file(&mut self, text: &str, file_name: &str) -> Result<(), FileError> {
        let src = Source {
            text,
            name: file_name,
        };
        let file: CatalogFile = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
        let mut new = Catalog::default();
        for entry in file.disk {
            let span = entry.span();
            let disk = disk_from_table(entry.into_inner()).map_err(|b| {
                src.key_error(
                    span.clone(),
                    b.key.as_deref(),
                    format!("disk entry: {}", b.message),
                )
            })?;
            insert_once(&mut new.disks, Kind::Disk, disk.id.clone(), disk)
                .map_err(|m| src.error(span, m))?;
        }
        for entry in file.controller {
            let span = entry.span();
            let controller = entry.into_inner();
            check_controller(&controller)
                .map_err(|b| bad_entry(&src, &span, Kind::Controller, &controller.id, b))?;
            let id = controller.id.clone();
            insert_once(&mut new.controllers, Kind::Controller, id, controller)
                .map_err(|m| src.error(span, m))?;
        }
        for entry in file.cpu {
            let span = entry.span();
            let cpu = entry.into_inner();
            check_cpu(&cpu).map_err(|b| bad_entry(&src, &span, Kind::Cpu, &cpu.id, b))?;
            insert_once(&mut new.cpus, Kind::Cpu, cpu.id.clone(), cpu)
                .map_err(|m| src.error(span, m))?;
        }
        for entry in file.link {
            let span = entry.span();
            let link = entry.into_inner();
            check_link(&link).map_err(|b| bad_entry(&src, &span, Kind::Link, &link.id, b))?;
            insert_once(&mut new.links, Kind::Link, link.id.clone(), link)
                .map_err(|m| src.error(span, m))?;
        }
        self.disks.extend(new.disks);
        self.controllers.extend(new.controllers);
        self.cpus.extend(new.cpus);
        self.links.extend(new.links);
        Ok(())
    }

    /// The disk model of this id, or the ids that look like it.
    pub fn disk(&self, id: &str) -> Result<&DiskModel, LookupError> {
        lookup(&self.disks, Kind::Disk, id)
    }

    /// The controller model of this id, or the ids that look like it.
    pub fn controller(&self, id: &str) -> Result<&ControllerModel, LookupError> {
        lookup(&self.controllers, Kind::Controller, id)
    }

    /// The CPU model of this id, or the ids that look like it.
    pub fn cpu(&self, id: &str) -> Result<&CpuModel, LookupError> {
        lookup(&self.cpus, Kind::Cpu, id)
    }

    /// The link kind of this id, or the ids that look like it.
    pub fn link(&self, id: &str) -> Result<&LinkModel, LookupError> {
        lookup(&self.links, Kind::Link, id)
    }
}

/// A check's refusal of an entry, at the key at fault.
fn bad_entry(src: &Source, span: &Range<usize>, kind: Kind, id: &str, bad: Bad) -> FileError {
    let message = format!("{kind} '{}': {}", crate::input::echo(id), bad.message);
    src.key_error(span.clone(), bad.key.as_deref(), message)
}

/// Adds an entry of one file, refusing an id the same file already defined.
fn insert_once<T>(
    map: &mut BTreeMap<String, T>,
    kind: Kind,
    id: String,
    entry: T,
) -> Result<(), String> {
    if map.contains_key(&id) {
        return Err(format!("{kind} '{id}' is defined twice"));
    }
    map.insert(id, entry);
    Ok(())
}

fn lookup<'a, T>(map: &'a BTreeMap<String, T>, kind: Kind, id: &str) -> Result<&'a T, LookupError> {
    map.get(id).ok_or_else(|| LookupError {
        kind,
        id: id.to_string(),
        near: near::near_matches(id, map.keys().map(String::as_str)),
    })
}

#[cfg(test)]
mod tests;
