//! The `[pool]` table from the vdev tree (layouts per class, spares, cache), the ashift, and
//! a `[[dataset]]` per file system with its recordsize and compression ratio.

use super::Captured;
use crate::system_toml::Section;
use parse::zfs_get;
use parse::zpool_status::{Class, PoolStatus, Vdev};

pub(super) fn section(status: &PoolStatus, c: &Captured) -> Section {
    let mut s = Section::new("[pool]").read("name", status.name.as_str());
    let classes = [
        ("layout", Class::Normal),
        ("special", Class::Special),
        ("dedup", Class::Dedup),
        ("log", Class::Log),
    ];
    for (key, class) in classes {
        let vdevs: Vec<&Vdev> = status.vdevs.iter().filter(|v| v.class == class).collect();
        if !vdevs.is_empty() {
            s = s.read(key, layout(&vdevs));
        }
    }
    for (key, class) in [("spares", Class::Spare), ("cache", Class::Cache)] {
        let n = status.vdevs.iter().filter(|v| v.class == class).count();
        if n > 0 {
            s = s.read(key, n as i64);
        }
    }
    match ashift(c) {
        Some(a) => s.read("ashift", a),
        None => s.note("ashift left out (zpool get ashift says 0 and zdb showed none): the model takes what zpool picks"),
    }
}

/// Vdevs as a layout string: runs of identical vdevs as `Kx GROUP`, single disks as
/// `stripe-N`, joined by ` + `.
pub(super) fn layout(vdevs: &[&Vdev]) -> String {
    let mut runs: Vec<(String, u32)> = Vec::new();
    for v in vdevs {
        let kind = v.kind();
        let group = match kind.as_str() {
            "disk" => "stripe-1".to_string(),
            k if k.starts_with("draid") => k.to_string(),
            k => format!("{k}-{}", v.leaves.len()),
        };
        match runs.last_mut() {
            Some((g, n)) if *g == group => *n += 1,
            _ => runs.push((group, 1)),
        }
    }
    runs.into_iter()
        .map(|(g, n)| match (g.as_str(), n) {
            ("stripe-1", n) => format!("stripe-{n}"),
            (g, 1) => g.to_string(),
            (g, n) => format!("{n}x {g}"),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The pool's ashift property, or where it says 0 (zpool picked it) the largest `ashift:` zdb
/// shows in the pool's configuration.
fn ashift(c: &Captured) -> Option<i64> {
    let property = c.ashift.as_deref().and_then(|t| {
        t.lines()
            .filter_map(|l| l.split_whitespace().nth(2)?.parse::<i64>().ok())
            .next()
    });
    let from_zdb = || {
        c.zdb.as_deref().and_then(|t| {
            t.lines()
                .filter_map(|l| l.trim().strip_prefix("ashift:")?.trim().parse::<i64>().ok())
                .max()
        })
    };
    property.filter(|&a| a > 0).or_else(from_zdb)
}

/// A `[[dataset]]` per file system of the pool, `first` leading.
pub(super) fn datasets(pool: &str, first: Option<&str>, c: &Captured) -> Vec<Section> {
    let mut all = c.zfs_get.as_deref().map(zfs_get::parse).unwrap_or_default();
    all.retain(|d| d.name == pool || d.name.starts_with(&format!("{pool}/")));
    if let Some(first) = first {
        all.sort_by_key(|d| d.name != first);
    }
    all.iter()
        .map(|d| {
            let mut s = Section::new("[[dataset]]").read("name", d.name.as_str());
            if let Some(rs) = d.recordsize {
                s = s.read("recordsize", rs as i64);
            }
            let ratio = d.compressratio.filter(|r| *r >= 1.0).unwrap_or(1.0);
            s = s.read("compression_ratio", ratio);
            let props: Vec<String> = [("compression", &d.compression), ("sync", &d.sync)]
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
                .collect();
            if props.is_empty() {
                s
            } else {
                s.note(props.join(", "))
            }
        })
        .collect()
}
