//! The validation corpus: case files and the system files they name, embedded in the binary
//! (so `zpoolsim validate` runs from anywhere) or read from a directory the user gives.

use crate::error::CliError;
use crate::files::{catalog, load_system, read};
use model::System;
use std::path::{Path, PathBuf};

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

/// Where the corpus comes from.
pub enum Corpus {
    Embedded,
    Dir(PathBuf),
}

impl Corpus {
    /// Every case file, as (name for messages, text), in name order.
    pub fn case_files(&self) -> Result<Vec<(String, String)>, CliError> {
        match self {
            Corpus::Embedded => Ok(EMBEDDED
                .iter()
                .filter(|(name, _)| name.starts_with("validation/"))
                .map(|(name, text)| (name.to_string(), text.to_string()))
                .collect()),
            Corpus::Dir(dir) => {
                let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
                    .map_err(|e| CliError(format!("cannot read {}: {e}", dir.display())))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                    .collect();
                files.sort();
                if files.is_empty() {
                    return Err(CliError(format!(
                        "no case files (*.toml) in {}",
                        dir.display()
                    )));
                }
                files
                    .iter()
                    .map(|f| Ok((f.display().to_string(), read(f)?)))
                    .collect()
            }
        }
    }

    /// The system file a case names, relative to the corpus directory.
    pub fn system(&self, relative: &str) -> Result<System, CliError> {
        match self {
            Corpus::Dir(dir) => load_system(&dir.join(relative)),
            Corpus::Embedded => {
                let name = embedded_name(relative);
                let (_, text) = EMBEDDED
                    .iter()
                    .find(|(n, _)| *n == name)
                    .ok_or_else(|| CliError(format!("{name} is not in the embedded corpus")))?;
                Ok(model::system_file::parse(text, &name, catalog())?)
            }
        }
    }
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
        let on_disk = Corpus::Dir(dir).case_files().unwrap().len();
        assert_eq!(Corpus::Embedded.case_files().unwrap().len(), on_disk);
    }

    #[test]
    fn embedded_systems_resolve_as_from_the_directory() {
        assert_eq!(
            embedded_name("../examples/seed-004-dk32ej.toml"),
            "examples/seed-004-dk32ej.toml"
        );
        let s = Corpus::Embedded
            .system("../examples/seed-004-dk32ej.toml")
            .unwrap();
        assert_eq!(s.disks.len(), 1);
        assert!(Corpus::Embedded.system("../examples/none.toml").is_err());
    }
}
