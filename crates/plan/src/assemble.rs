//! The machine a plan runs on, from what the user gave: their system file or the embedded
//! default system, a disk named by catalog id or by size, how many, and its price.

use crate::error::PlanError;
use crate::placement::{
    candidate_on, data_disks, disks_of_size, roles, with_candidate, with_controllers_for,
    with_disks,
};
use crate::policy::MAX_DISKS;
use model::hardware::DiskModel;
use model::system_file::default_system;
use model::units::parse_size;
use model::{Catalog, Layout, System};

/// The disks to plan for, as the user gives them.
#[derive(Debug, Clone, Default)]
pub struct Disks {
    /// The user's machine (its host, links and controllers, and the devices of its pool that
    /// keep a role: special, dedup, log, cache, hot spares); `None`: the
    /// embedded default system, grown with HBAs like its own when the disks need ports.
    pub system: Option<System>,
    /// A catalog id or a size such as `16TB`; default: the system's first disk.
    pub disk: Option<String>,
    /// How many; default: as many as the system has of that disk.
    pub count: Option<u32>,
    /// Price of one disk in US dollars (default: the catalog's, if any).
    pub price_usd: Option<f64>,
}

/// The machine with the planned disks in its bays, and every assumption made to build it.
#[derive(Debug, Clone)]
pub struct Assembled {
    /// The machine, the planned disks in place of its own.
    pub system: System,
    /// Every assumption made to build it, one sentence each.
    pub assumed: Vec<String>,
}

/// Builds the machine a plan runs on.
pub fn assemble(disks: &Disks, catalog: &Catalog) -> Result<Assembled, PlanError> {
    let mut assumed = Vec::new();
    let given = disks.system.is_some();
    let base = match &disks.system {
        Some(system) => system.clone(),
        None => {
            let base = default_system();
            assumed.push(format!(
                "no system file: the embedded default system's host, links and controllers ({})",
                base.name
            ));
            base
        }
    };
    let disk = match &disks.disk {
        Some(text) => pick_disk(text, catalog, &mut assumed)?,
        None if given => {
            base.disks
                .first()
                .map(|d| d.model.clone())
                .ok_or(PlanError::NoDiskGiven {
                    no_system_file: false,
                })?
        }
        None => {
            return Err(PlanError::NoDiskGiven {
                no_system_file: true,
            })
        }
    };
    let disk = priced(disk, disks.price_usd)?;
    let count = match disks.count {
        Some(n) => n,
        None if given => base.disks[..data_disks(&base)]
            .iter()
            .filter(|d| d.model.id == disk.id)
            .count() as u32,
        None => return Err(PlanError::NoCountGiven),
    };
    if count > MAX_DISKS {
        return Err(PlanError::TooManyDisks { disks: count });
    }
    let base = if given {
        base
    } else {
        with_ports_for(&base, &disk, count, &mut assumed)?
    };
    let roles = roles(&base);
    if !roles.is_empty() {
        assumed.push(format!(
            "the plan places the {count} data disks; the system file's other devices keep their roles: {}",
            roles.join(", ")
        ));
    }
    Ok(Assembled {
        system: with_disks(&base, &disk, count)?,
        assumed,
    })
}

/// The disk with the price the user gave (US dollars per disk), refused when not a price.
fn priced(disk: DiskModel, price_usd: Option<f64>) -> Result<DiskModel, PlanError> {
    match price_usd {
        Some(usd) if usd.is_finite() && usd >= 0.0 => Ok(DiskModel {
            price_usd: Some(usd),
            ..disk
        }),
        Some(usd) => Err(PlanError::BadPrice { usd }),
        None => Ok(disk),
    }
}

/// The default system with ports for `count` disks: a PCIe link per NVMe disk, or copies of
/// its controller; each addition noted in `assumed`.
fn with_ports_for(
    base: &System,
    disk: &DiskModel,
    count: u32,
    assumed: &mut Vec<String>,
) -> Result<System, PlanError> {
    let (grown, added) = with_controllers_for(base, disk, count)?;
    if added > 0 && disk.interface == model::hardware::Interface::Nvme {
        assumed.push(format!(
            "{added} PCIe 3.0 x4 links (nvme-slot0..), one per NVMe disk, as a system file that names none implies"
        ));
    } else if added > 0 {
        let new = &grown.controllers[base.controllers.len()..];
        let ids: Vec<&str> = new.iter().map(|c| c.id.as_str()).collect();
        assumed.push(format!(
            "{added} more {} controllers ({}), each on its own copy of the slot of the one it copies, to give {count} disks ports",
            new[0].model.id,
            ids.join(", ")
        ));
    }
    Ok(grown)
}

/// The machine `assemble` builds for the disks with `layout` as its pool, the disks it leaves
/// over as hot spares: a planned layout as a system to save, or to ask further questions of.
pub fn assemble_with(
    disks: &Disks,
    layout: &Layout,
    catalog: &Catalog,
) -> Result<System, PlanError> {
    let base = assemble(disks, catalog)?.system;
    let candidate = candidate_on(&base, layout)?;
    let mut system = with_candidate(&base, &candidate)?;
    system.name = format!(
        "{} x {} in {}{} (planned on: {})",
        system.disks.len(),
        system.disks[0].model.id,
        layout,
        match candidate.hot_spares {
            0 => String::new(),
            n => format!(" + {n} hot spare{}", if n == 1 { "" } else { "s" }),
        },
        base.name
    );
    Ok(system)
}

/// A catalog id, or a size matched against the catalog (saying which model it took).
fn pick_disk(
    text: &str,
    catalog: &Catalog,
    assumed: &mut Vec<String>,
) -> Result<DiskModel, PlanError> {
    let unknown = |message: String| PlanError::UnknownDisk {
        text: text.to_string(),
        message,
    };
    let by_id = catalog.disk(text);
    if let Ok(disk) = by_id {
        return Ok(disk.clone());
    }
    let Ok(bytes) = parse_size(text) else {
        return Err(unknown(by_id.unwrap_err().to_string()));
    };
    let matches = disks_of_size(catalog, bytes);
    let first = matches.first().ok_or_else(|| {
        unknown(format!(
            "no catalog disk of about {text}; `zpoolsim catalog --kind disk` lists them"
        ))
    })?;
    let others: Vec<&str> = matches[1..].iter().map(|d| d.id.as_str()).collect();
    assumed.push(if others.is_empty() {
        format!("--disk {text}: the catalog's {}", first.id)
    } else {
        format!(
            "--disk {text}: the catalog's {} (also that size: {})",
            first.id,
            others.join(", ")
        )
    });
    Ok((*first).clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_by_size_says_which() {
        let mut assumed = Vec::new();
        let catalog = Catalog::embedded();
        let disk = pick_disk("16TB", catalog, &mut assumed).unwrap();
        assert_eq!(disk.id, "seagate-exos-x16-16tb");
        assert_eq!(
            assumed,
            ["--disk 16TB: the catalog's seagate-exos-x16-16tb (also that size: seagate-ironwolf-pro-16tb)"]
        );
        assert!(pick_disk("exos-x16", catalog, &mut assumed).is_err());
        assert!(pick_disk("17TB", catalog, &mut assumed)
            .unwrap_err()
            .to_string()
            .contains("no catalog disk of about 17TB"));
    }

    #[test]
    fn the_default_system_grows_hbas_and_says_so() {
        let a = assemble(
            &Disks {
                disk: Some("seagate-exos-x16-16tb".into()),
                count: Some(24),
                ..Disks::default()
            },
            Catalog::embedded(),
        )
        .unwrap();
        assert_eq!(a.system.disks.len(), 24);
        assert_eq!(a.assumed.len(), 2, "{:?}", a.assumed);
        assert!(
            a.assumed[1].starts_with("2 more lsi-sas3008 controllers"),
            "{:?}",
            a.assumed
        );
        let none = assemble(&Disks::default(), Catalog::embedded()).unwrap_err();
        assert!(none.to_string().contains("give --disk"), "{none}");
    }

    #[test]
    fn a_planned_layout_as_a_machine() {
        let disks = Disks {
            disk: Some("16TB".into()),
            count: Some(24),
            ..Disks::default()
        };
        let layout: Layout = "2x raidz2-11".parse().unwrap();
        let system = assemble_with(&disks, &layout, Catalog::embedded()).unwrap();
        assert_eq!(system.disks.len(), 24);
        assert_eq!(system.pool.spares, 2);
        assert_eq!(system.pool.normal_layout(), "2x raidz2-11");
        assert!(
            system.name.starts_with(
                "24 x seagate-exos-x16-16tb in 2x raidz2-11 + 2 hot spares (planned on: default: "
            ),
            "{}",
            system.name
        );
        let too_big: Layout = "3x raidz2-9".parse().unwrap();
        let err = assemble_with(&disks, &too_big, Catalog::embedded()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "3x raidz2-9 needs 27 disks; the machine has 24"
        );
    }

    #[test]
    fn no_disk_no_machine() {
        let none = assemble(&Disks::default(), Catalog::embedded()).unwrap_err();
        assert!(none.to_string().contains("give --disk"), "{none}");
    }
}

#[cfg(test)]
mod roles_tests {
    use super::*;
    use model::VdevClass;

    /// examples/modern-12x20tb-special.toml: 12 Exos X20 in 2x raidz2-6 and a special mirror
    /// of two 3.84 TB SSDs. Planning on it places the 12 hard disks and keeps the special.
    #[test]
    fn plan_on_a_system_file_keeps_its_roles() {
        let text = include_str!("../../../examples/modern-12x20tb-special.toml");
        let catalog = Catalog::embedded();
        let system = model::system_file::parse(text, "special.toml", catalog).unwrap();
        let disks = Disks {
            system: Some(system),
            ..Disks::default()
        };
        let a = assemble(&disks, catalog).unwrap();
        assert_eq!(a.system.disks.len(), 14);
        assert_eq!(crate::placement::data_disks(&a.system), 12);
        assert!(a.system.disks[..12]
            .iter()
            .all(|d| d.model.id == "seagate-exos-x20-20tb"));
        let special: Vec<_> = a
            .system
            .pool
            .vdevs
            .iter()
            .filter(|t| t.class == VdevClass::Special)
            .map(|t| t.layout.to_string())
            .collect();
        assert_eq!(special, ["mirror-2"]);
        assert!(
            a.assumed
                .iter()
                .any(|s| s.starts_with("the plan places the 12 data disks; the system file's other devices keep their roles: special mirror-2 on 2 x ")),
            "{:?}",
            a.assumed
        );
        let layout: Layout = "raidz2-12".parse().unwrap();
        let planned = assemble_with(&disks, &layout, catalog).unwrap();
        assert_eq!(planned.pool.vdevs.len(), 2);
        assert_eq!(planned.pool.vdevs[0].layout, layout);
        assert_eq!(planned.pool.vdevs[1].class, VdevClass::Special);
        // More data disks than the HBAs have free bays beside the SSDs: refused.
        let more = Disks {
            count: Some(30),
            ..disks
        };
        assert!(assemble(&more, catalog).is_err());
    }
}
