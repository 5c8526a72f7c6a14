//! `System` -> system file: the inverse of `parse`, so a machine built by a program (the
//! planner's, with a layout chosen) can be saved, shared and read back as the same machine.
//! Models equal to their catalog entry are written by id, any other inline with every figure.

use crate::catalog::Catalog;
use crate::dataset::{Compression, Encryption};
use crate::pool::{Dataset, Pool, VdevClass};
use crate::system::{Attach, Host, System, Upstream};
use serde::Serialize;
use toml::{Table, Value};

/// The system file of `system`, whose catalog models are named by their ids in `catalog`.
pub fn write(system: &System, catalog: &Catalog) -> String {
    let mut top = Table::new();
    top.insert("name".into(), system.name.clone().into());
    if let Some(source) = &system.source {
        top.insert("source".into(), source.clone().into());
    }
    let links = system.links.iter().map(value).collect();
    let datasets = system.pool.datasets.iter().map(dataset).collect();
    let sections = [
        top,
        section("host", host(&system.host, catalog).into()),
        section("link", Value::Array(links)),
        section("controller", controllers(system, catalog)),
        section("disk", disks(system, catalog)),
        section("pool", pool(&system.pool).into()),
        section("dataset", Value::Array(datasets)),
    ];
    let texts: Vec<String> = sections
        .iter()
        .filter(|t| !t.values().all(|v| v.as_array().is_some_and(Vec::is_empty)))
        .map(|t| toml::to_string(t).expect("a system is plain TOML"))
        .collect();
    texts.join("\n")
}

/// One table of the file on its own, so the file reads in the order the format describes (an
/// empty list is left out: after a table's header, its `key = []` would belong to that table).
fn section(key: &str, value: Value) -> Table {
    Table::from_iter([(key.to_string(), value)])
}

/// Any model or link as the TOML table of its own serde form.
fn value<T: Serialize>(item: &T) -> Value {
    Value::try_from(item).expect("hardware serializes to TOML")
}

/// A catalog id when `model` is the catalog's entry of that id, else the model inline.
fn model_ref<T: Serialize + PartialEq>(id: &str, model: &T, entry: Option<&T>) -> Value {
    if entry == Some(model) {
        id.into()
    } else {
        value(model)
    }
}

fn bytes(n: u64) -> Value {
    Value::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

fn host(host: &Host, catalog: &Catalog) -> Table {
    let mut t = Table::new();
    let cpu = catalog.cpu(&host.cpu.id).ok();
    t.insert("cpu".into(), model_ref(&host.cpu.id, &host.cpu, cpu));
    t.insert("sockets".into(), i64::from(host.sockets).into());
    t.insert("ram".into(), bytes(host.ram_bytes));
    t.insert("zfs".into(), host.zfs.to_string().into());
    t.insert("nics".into(), value(&host.nics));
    let tun = &host.tunables;
    let mut tunables = Table::new();
    for (key, size) in [
        ("arc_max", tun.arc_max),
        ("dirty_data_max", tun.dirty_data_max),
        ("aggregation_limit", tun.aggregation_limit),
    ] {
        if let Some(b) = size {
            tunables.insert(key.into(), bytes(b));
        }
    }
    for (key, depth) in [
        ("vdev_max_pending", tun.vdev_max_pending),
        ("async_read_max_active", tun.async_read_max_active),
        ("async_write_max_active", tun.async_write_max_active),
        ("sync_read_max_active", tun.sync_read_max_active),
        ("sync_write_max_active", tun.sync_write_max_active),
    ] {
        if let Some(d) = depth {
            tunables.insert(key.into(), i64::from(d).into());
        }
    }
    if let Some(off) = tun.prefetch_disable {
        tunables.insert("prefetch_disable".into(), off.into());
    }
    if !tunables.is_empty() {
        t.insert("tunables".into(), tunables.into());
    }
    t
}

fn controllers(system: &System, catalog: &Catalog) -> Value {
    let tables = system.controllers.iter().map(|c| {
        let entry = catalog.controller(&c.model.id).ok();
        let at = match &c.upstream {
            Upstream::Link(id) => ("link", id),
            Upstream::Controller(id) => ("controller", id),
        };
        Value::Table(part(
            ("id", &c.id),
            model_ref(&c.model.id, &c.model, entry),
            at,
        ))
    });
    Value::Array(tables.collect())
}

/// A controller's or a disk's table: its name, its model, what it hangs from.
fn part(name: (&str, &str), model: Value, at: (&str, &String)) -> Table {
    let mut t = Table::new();
    t.insert(name.0.into(), name.1.into());
    t.insert("model".into(), model);
    t.insert(at.0.into(), at.1.clone().into());
    t
}

/// One `[[disk]]` a disk, in the order they fill the pool; `whole_disk` from the vdev each
/// fills (spares and cache devices are whole disks).
fn disks(system: &System, catalog: &Catalog) -> Value {
    let whole: Vec<bool> = system
        .pool
        .vdevs
        .iter()
        .flat_map(|t| (0..t.layout.leaves()).map(|_| t.leaf.whole_disk))
        .collect();
    let tables = system.disks.iter().enumerate().map(|(i, d)| {
        let entry = catalog.disk(&d.model.id).ok();
        let at = match &d.attach {
            Attach::Controller(id) => ("controller", id),
            Attach::Link(id) => ("link", id),
        };
        let mut t = part(
            ("name", &d.name),
            model_ref(&d.model.id, &d.model, entry),
            at,
        );
        if !whole.get(i).copied().unwrap_or(true) {
            t.insert("whole_disk".into(), false.into());
        }
        Value::Table(t)
    });
    Value::Array(tables.collect())
}

fn pool(pool: &Pool) -> Table {
    let mut t = Table::new();
    t.insert("name".into(), pool.name.clone().into());
    for (key, class) in [
        ("layout", VdevClass::Normal),
        ("special", VdevClass::Special),
        ("dedup", VdevClass::Dedup),
        ("log", VdevClass::Log),
    ] {
        let groups: Vec<String> = pool
            .vdevs
            .iter()
            .filter(|v| v.class == class)
            .map(|v| v.layout.to_string())
            .collect();
        if !groups.is_empty() {
            t.insert(key.into(), groups.join(" + ").into());
        }
    }
    t.insert("spares".into(), i64::from(pool.spares).into());
    t.insert("cache".into(), i64::from(pool.cache_devices).into());
    t.insert("ashift".into(), i64::from(pool.ashift).into());
    t
}

fn dataset(d: &Dataset) -> Value {
    let mut t = Table::new();
    t.insert("name".into(), d.name.clone().into());
    t.insert("recordsize".into(), bytes(d.recordsize));
    t.insert("compression_ratio".into(), d.compression_ratio.into());
    if let Some(c) = compression(d.compression) {
        t.insert("compression".into(), c.into());
    }
    t.insert("checksum".into(), word(&d.checksum).into());
    t.insert("sync".into(), word(&d.sync).into());
    t.insert("logbias".into(), word(&d.logbias).into());
    if let Some(v) = d.volblocksize {
        t.insert("volblocksize".into(), bytes(v));
    }
    if d.special_small_blocks > 0 {
        t.insert("special_small_blocks".into(), bytes(d.special_small_blocks));
    }
    t.insert("primarycache".into(), word(&d.primarycache).into());
    t.insert(
        "encryption".into(),
        match d.encryption {
            Encryption::Off => "off".to_string(),
            Encryption::Gcm { bits } => format!("aes-{bits}-gcm"),
            Encryption::Ccm { bits } => format!("aes-{bits}-ccm"),
        }
        .into(),
    );
    Value::Table(t)
}

/// A property's zfs(8) word: its lowercase serde name.
fn word<T: Serialize>(v: &T) -> String {
    match value(v) {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

/// The `compression` property as zfs(8) writes it; `None` when not set.
fn compression(c: Compression) -> Option<String> {
    Some(match c {
        Compression::Default => return None,
        Compression::Gzip { level } => format!("gzip-{level}"),
        Compression::Zstd { level } => format!("zstd-{level}"),
        simple => word(&simple),
    })
}
