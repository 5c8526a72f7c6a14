//! The validation corpus: case files and the system files they name, resolved into systems and
//! workloads. The repository's corpus is embedded in the binary (so `zpoolsim validate` runs
//! from anywhere); another can be given as texts the caller read.

use crate::case::{parse, Case, CaseFile, Excluded};
use crate::ValidateError;
use model::{Catalog, System, Workload};
use std::path::Path;

/// The repository's validation/*.toml and the examples they use, as (path, text).
const EMBEDDED: &[(&str, &str)] = &[
    (
        "validation/000-zfs-box-2008.toml",
        include_str!("../../../validation/000-zfs-box-2008.toml"),
    ),
    (
        "validation/001-pcix-server.toml",
        include_str!("../../../validation/001-pcix-server.toml"),
    ),
    (
        "validation/002-ashift-2012.toml",
        include_str!("../../../validation/002-ashift-2012.toml"),
    ),
    (
        "validation/004-128k-record-2006.toml",
        include_str!("../../../validation/004-128k-record-2006.toml"),
    ),
    (
        "validation/calomel-4tb-hdd.toml",
        include_str!("../../../validation/calomel-4tb-hdd.toml"),
    ),
    (
        "validation/calomel-ssd-840pro.toml",
        include_str!("../../../validation/calomel-ssd-840pro.toml"),
    ),
    (
        "validation/clemtibs-2025-n6005.toml",
        include_str!("../../../validation/clemtibs-2025-n6005.toml"),
    ),
    (
        "validation/pclean-2026-xenon.toml",
        include_str!("../../../validation/pclean-2026-xenon.toml"),
    ),
    (
        "examples/calomel-24x-samsung-840-pro.toml",
        include_str!("../../../examples/calomel-24x-samsung-840-pro.toml"),
    ),
    (
        "examples/clemtibs-n6005-nospecial-noslog.toml",
        include_str!("../../../examples/clemtibs-n6005-nospecial-noslog.toml"),
    ),
    (
        "examples/clemtibs-n6005-nospecial-slog.toml",
        include_str!("../../../examples/clemtibs-n6005-nospecial-slog.toml"),
    ),
    (
        "examples/clemtibs-n6005-special-noslog.toml",
        include_str!("../../../examples/clemtibs-n6005-special-noslog.toml"),
    ),
    (
        "examples/clemtibs-n6005-special-slog.toml",
        include_str!("../../../examples/clemtibs-n6005-special-slog.toml"),
    ),
    (
        "examples/calomel-24x-wd-re-4tb.toml",
        include_str!("../../../examples/calomel-24x-wd-re-4tb.toml"),
    ),
    (
        "examples/pclean-xenon-data0.toml",
        include_str!("../../../examples/pclean-xenon-data0.toml"),
    ),
    (
        "examples/pclean-xenon-data1.toml",
        include_str!("../../../examples/pclean-xenon-data1.toml"),
    ),
    (
        "examples/pclean-xenon-data2.toml",
        include_str!("../../../examples/pclean-xenon-data2.toml"),
    ),
    (
        "examples/pclean-xenon-nvme.toml",
        include_str!("../../../examples/pclean-xenon-nvme.toml"),
    ),
    (
        "examples/seed-000-1320-box.toml",
        include_str!("../../../examples/seed-000-1320-box.toml"),
    ),
    (
        "examples/seed-000-stripe-7.toml",
        include_str!("../../../examples/seed-000-stripe-7.toml"),
    ),
    (
        "examples/seed-001-5x-raidz1-3.toml",
        include_str!("../../../examples/seed-001-5x-raidz1-3.toml"),
    ),
    (
        "examples/seed-001-7x-mirror-2.toml",
        include_str!("../../../examples/seed-001-7x-mirror-2.toml"),
    ),
    (
        "examples/seed-001-pcix-15-disk.toml",
        include_str!("../../../examples/seed-001-pcix-15-disk.toml"),
    ),
    (
        "examples/seed-002-ashift-5x3tb.toml",
        include_str!("../../../examples/seed-002-ashift-5x3tb.toml"),
    ),
    (
        "examples/seed-002-stripe-5x3tb.toml",
        include_str!("../../../examples/seed-002-stripe-5x3tb.toml"),
    ),
    (
        "examples/seed-004-dk32ej.toml",
        include_str!("../../../examples/seed-004-dk32ej.toml"),
    ),
];

/// One case ready to predict.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub case: Case,
    pub system: System,
    pub workload: Workload,
}

/// One case file: a source and its cases.
#[derive(Debug, Clone)]
pub struct Source {
    /// The case file's name.
    pub file: String,
    /// The text the cases quote.
    pub source: String,
    pub cases: Vec<Loaded>,
    pub excluded: Vec<Excluded>,
}

/// Every source of a corpus, in file-name order.
#[derive(Debug, Clone)]
pub struct Corpus {
    pub sources: Vec<Source>,
}

impl Corpus {
    /// The corpus built into the binary, resolved against `catalog`.
    pub fn embedded(catalog: &Catalog) -> Result<Corpus, ValidateError> {
        let files = EMBEDDED
            .iter()
            .filter(|(name, _)| name.starts_with("validation/"))
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        Corpus::from_texts(files, catalog, |relative| {
            let name = embedded_name(relative);
            EMBEDDED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, text)| (n.to_string(), text.to_string()))
                .ok_or_else(|| format!("{name} is not in the embedded corpus"))
        })
    }

    /// A corpus from case files given as (name, text), whose system files `system` reads by
    /// the path a case gives (relative to its case file) as (name, text).
    pub fn from_texts(
        mut files: Vec<(String, String)>,
        catalog: &Catalog,
        system: impl Fn(&str) -> Result<(String, String), String>,
    ) -> Result<Corpus, ValidateError> {
        files.sort();
        let sources = files
            .iter()
            .map(|(file, text)| load(file, text, catalog, &system))
            .collect::<Result<_, _>>()?;
        Ok(Corpus { sources })
    }

    /// Every case of every source.
    pub fn cases(&self) -> impl Iterator<Item = &Loaded> {
        self.sources.iter().flat_map(|s| &s.cases)
    }
}

/// One case file's cases with their systems and workloads.
fn load(
    file: &str,
    text: &str,
    catalog: &Catalog,
    system: &impl Fn(&str) -> Result<(String, String), String>,
) -> Result<Source, ValidateError> {
    let CaseFile {
        source,
        cases,
        excluded,
    } = parse(file, text)?;
    let cases = cases
        .into_iter()
        .map(|case| {
            let bad = |message: String| ValidateError::Case {
                file: file.to_string(),
                id: case.id.clone(),
                message,
            };
            let (name, text) = system(&case.system).map_err(bad)?;
            let mut resolved =
                model::system_file::parse(&text, &name, catalog).map_err(|e| bad(e.to_string()))?;
            if let Some(ashift) = case.ashift {
                resolved.pool.ashift = ashift;
            }

            if let Some(layout) = &case.layout {
                let layout = layout
                    .parse()
                    .map_err(|e: model::LayoutError| bad(e.to_string()))?;
                with_layout(&mut resolved, layout).map_err(bad)?;
            }
            let mut workload = Workload::parse(&case.workload).map_err(|e| bad(e.to_string()))?;
            if let Some(ratio) = case.compressratio {
                if workload.data != model::workload::Data::Random {
                    return Err(bad("compressratio is for a run of random buffers".into()));
                }
                let fill_pct = (100.0 / ratio).round().clamp(1.0, 100.0) as u8;
                workload.data = model::workload::Data::Sparse { fill_pct };
            }
            Ok(Loaded {
                system: resolved,
                workload,
                case,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Source {
        file: file.to_string(),
        source,
        cases,
        excluded,
    })
}

/// `system` with `layout` as its pool, on its first disks (the others left out). When the
/// system's normal vdevs have as many disks as `layout`, only their layout changes and the
/// special, log and cache devices stay (the same machine's pool made another way).
fn with_layout(system: &mut System, layout: model::Layout) -> Result<(), String> {
    let leaves = layout.leaves() as usize;
    let normal: Vec<usize> = (0..system.pool.vdevs.len())
        .filter(|&i| system.pool.vdevs[i].class == model::VdevClass::Normal)
        .collect();
    let normal_leaves: u32 = normal
        .iter()
        .map(|&i| system.pool.vdevs[i].layout.leaves())
        .sum();
    if normal.len() == 1 && normal_leaves as usize == leaves {
        system.pool.vdevs[normal[0]].layout = layout;
        return Ok(());
    }
    if leaves > system.disks.len() {
        return Err(format!(
            "{layout} needs {leaves} disks; the system has {}",
            system.disks.len()
        ));
    }
    let leaf = system.pool.vdevs[0].leaf;
    system.disks.truncate(leaves);
    system.pool.vdevs = vec![model::TopLevel {
        class: model::VdevClass::Normal,
        layout,
        leaf,
    }];
    system.pool.spares = 0;
    Ok(())
}

/// `../examples/x.toml` seen from `validation/`: `examples/x.toml`.
fn embedded_name(relative: &str) -> String {
    let mut parts = vec!["validation"];
    for part in Path::new(relative).iter().filter_map(|p| p.to_str()) {
        match part {
            ".." => {
                parts.pop();
            }
            "." => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_file_of_the_repository_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation");
        let on_disk = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "toml")
            })
            .count();
        let corpus = Corpus::embedded(Catalog::embedded()).unwrap();
        assert_eq!(corpus.sources.len(), on_disk);
    }

    #[test]
    fn embedded_systems_resolve_as_from_the_directory() {
        assert_eq!(
            embedded_name("../examples/seed-004-dk32ej.toml"),
            "examples/seed-004-dk32ej.toml"
        );
        let corpus = Corpus::embedded(Catalog::embedded()).unwrap();
        let seed004 = corpus
            .sources
            .iter()
            .find(|s| s.file.contains("004"))
            .unwrap();
        assert_eq!(seed004.cases[0].system.disks.len(), 1);
    }
}
