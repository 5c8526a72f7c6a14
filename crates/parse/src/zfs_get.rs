//! `zfs get -H -p -r -o name,property,value recordsize,compression,compressratio,sync POOL`:
//! the datasets' properties that change how their data is written.

use serde::Serialize;
use std::collections::BTreeMap;

/// One dataset's properties as ZFS reports them (absent where this ZFS has no such property:
/// zfs-fuse has no `sync`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DatasetProps {
    /// The dataset's name.
    pub name: String,
    /// `recordsize`, bytes.
    pub recordsize: Option<u64>,
    /// `compression`, as ZFS words it (`lz4`, `zstd-3`).
    pub compression: Option<String>,
    /// `1.52x` read as 1.52.
    pub compressratio: Option<f64>,
    /// `sync` (`standard`, `always`, `disabled`).
    pub sync: Option<String>,
}

/// Reads `name<TAB>property<TAB>value` lines, datasets in the order first seen.
pub fn parse(text: &str) -> Vec<DatasetProps> {
    let mut order: Vec<String> = Vec::new();
    let mut by_name: BTreeMap<String, DatasetProps> = BTreeMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [name, property, value, ..] = f[..] else {
            continue;
        };
        let entry = by_name.entry(name.to_string()).or_insert_with(|| {
            order.push(name.to_string());
            DatasetProps {
                name: name.to_string(),
                ..DatasetProps::default()
            }
        });
        let value = value.trim();
        match property {
            "recordsize" => entry.recordsize = model::units::parse_size(value).ok(),
            "compression" => entry.compression = Some(value.to_string()),
            "compressratio" => entry.compressratio = value.trim_end_matches('x').parse().ok(),
            "sync" => entry.sync = Some(value.to_string()),
            _ => {}
        }
    }
    order
        .into_iter()
        .filter_map(|n| by_name.remove(&n))
        .collect()
}
