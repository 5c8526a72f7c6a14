//! The system description file (TOML) -> `System`, resolved against the catalog. The format is
//! described in docs/system-file.md. Every error is one line naming the file, line and column.

mod doc;
pub(crate) use crate::file_error as error;
mod hardware;
mod implied;
pub use implied::{IMPLIED, IMPLIED_ONBOARD};
mod pool;
mod write;

pub use error::FileError;
pub use write::write;

use crate::appliance::Appliance;
use crate::catalog::Catalog;
use crate::system::System;
use error::Source;
use std::sync::OnceLock;

/// Reads a system file. `file_name` is only used in error messages.
pub fn parse(text: &str, file_name: &str, catalog: &Catalog) -> Result<System, FileError> {
    let src = Source {
        text,
        name: file_name,
    };
    let mut doc: doc::SystemDoc = toml::from_str(text).map_err(|e| src.toml_error(&e))?;
    let appliance = match &doc.host.appliance {
        Some(a) => Some(
            a.get_ref()
                .parse::<Appliance>()
                .map_err(|e| src.error(a.span(), e.0))?,
        ),
        None => None,
    };
    if let Some(a) = appliance {
        doc.host.zfs.get_or_insert(a.zfs);
    }
    let ashift_given = doc.pool.get_ref().ashift.is_some();
    let host = hardware::host(&src, doc.host, catalog)?;
    let mut links = hardware::links(&src, doc.link, catalog)?;
    let mut controllers = hardware::controllers(&src, doc.controller, &links, catalog)?;
    let placed = hardware::disks(&src, doc.disk, &mut links, &mut controllers, catalog)?;
    let mut pool = pool::build(&src, doc.pool, doc.dataset, &placed, host.zfs)?;
    if appliance.is_some() {
        // What the appliance's pool creation sets where the file is silent.
        if !ashift_given {
            pool.ashift = pool.ashift.max(Appliance::ASHIFT);
        }
        for d in &mut pool.datasets {
            if d.compression == crate::dataset::Compression::Default {
                d.compression = Appliance::COMPRESSION;
            }
        }
    }
    Ok(System {
        name: doc.name,
        source: doc.source,
        host,
        links,
        controllers,
        disks: placed.into_iter().map(|p| p.disk).collect(),
        pool,
    })
}

/// The embedded default system the README's main command runs on when no file is given:
/// catalog/default-system.toml (eight 16 TB HDDs in raidz2 on a SAS HBA, 10 GbE, a Xeon).
pub fn default_system() -> System {
    static DEFAULT: OnceLock<System> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            parse(
                include_str!("../../catalog/default-system.toml"),
                "catalog/default-system.toml",
                Catalog::embedded(),
            )
            .unwrap_or_else(|e| panic!("embedded default system: {e}"))
        })
        .clone()
}

#[cfg(test)]
mod tests;
