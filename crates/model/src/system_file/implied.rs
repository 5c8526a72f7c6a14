//! The path of a disk whose file names no controller or link: the embedded default system's,
//! one SAS 9300-8i (SAS3008: 8 ports, SAS 12 Gb/s, SATA 6 Gb/s) in its own PCIe 3.0 x8 slot
//! for every 8 such SAS or SATA disks, and a PCIe 3.0 x4 link of its own for each NVMe disk.
//! A documented default applied alike to every file that leaves the path out
//! (docs/assumptions.md "Links and controllers"); each part says in its source that it was
//! implied, and predictions name it as unseen.

use crate::catalog::Catalog;
use crate::hardware::{Interface, Link, LinkKind, DEFAULT_MAX_PAYLOAD};
use crate::system::{Attach, Controller, Disk, Upstream};

/// The catalog id of the implied HBA: the embedded default system's.
const HBA: &str = "lsi-sas3008";
/// Disks one implied HBA takes: its ports.
const PER_HBA: usize = 8;

/// The controller id a disk names for the board's own SATA ports: `controller = "onboard"`.
pub(super) const ONBOARD: &str = "onboard";
/// The chipset SATA an unnamed onboard controller is taken to be: an Intel PCH's AHCI (the
/// C246's 8 SATA 6 Gb/s ports with NCQ), the common case of the server and workstation
/// boards of 2017 on, behind the chipset's DMI 3.0 uplink (a PCIe 3.0 x4 link).
const ONBOARD_AHCI: &str = "intel-c246-ahci";
const ONBOARD_UPLINK: &str = "intel-dmi-3";

/// What every implied link's source says, so a reader (and perf's unseen list) knows it.
pub const IMPLIED: &str =
    "implied: the file names no controller or link for these disks (docs/assumptions.md)";
/// The source of the implied onboard uplink (it begins as `IMPLIED` does, so perf counts it
/// as unseen).
pub const IMPLIED_ONBOARD: &str =
    "implied: the file says `controller = \"onboard\"` and names no chipset (docs/assumptions.md)";

/// Attaches every disk of `unplaced` to implied parts, appended to `links` and `controllers`.
pub(super) fn paths(
    unplaced: Vec<&mut Disk>,
    links: &mut Vec<Link>,
    controllers: &mut Vec<Controller>,
    catalog: &Catalog,
) -> Result<(), String> {
    let (nvme, mut cabled): (Vec<&mut Disk>, Vec<&mut Disk>) = unplaced
        .into_iter()
        .partition(|d| d.model.interface == Interface::Nvme);
    for disk in nvme {
        let id = format!("{} (implied link)", disk.name);
        free("link", &id, links.iter().map(|l| &l.id))?;
        links.push(pcie(&id, 4));
        disk.attach = Attach::Link(id);
    }
    let model = catalog.controller(HBA).map_err(|e| e.to_string())?;
    for (k, group) in cabled.chunks_mut(PER_HBA).enumerate() {
        let slot = format!("implied-slot{k}");
        free("link", &slot, links.iter().map(|l| &l.id))?;
        links.push(pcie(&slot, 8));
        let id = format!("implied-hba{k}");
        free("controller", &id, controllers.iter().map(|c| &c.id))?;
        controllers.push(Controller {
            id: id.clone(),
            model: model.clone(),
            upstream: Upstream::Link(slot),
        });
        for disk in group {
            disk.attach = Attach::Controller(id.clone());
        }
    }
    Ok(())
}

/// Adds the board's implied onboard SATA controller (`ONBOARD`) on its chipset uplink.
pub(super) fn onboard(
    links: &mut Vec<Link>,
    controllers: &mut Vec<Controller>,
    catalog: &Catalog,
) -> Result<(), String> {
    let uplink = catalog.link(ONBOARD_UPLINK).map_err(|e| e.to_string())?;
    let id = format!("{ONBOARD} (implied uplink)");
    free("link", &id, links.iter().map(|l| &l.id))?;
    links.push(Link {
        id: id.clone(),
        kind: uplink.kind,
        parent: None,
        source: Some(format!("{IMPLIED_ONBOARD}; {}", uplink.name)),
    });
    controllers.push(Controller {
        id: ONBOARD.to_string(),
        model: catalog
            .controller(ONBOARD_AHCI)
            .map_err(|e| e.to_string())?
            .clone(),
        upstream: Upstream::Link(id),
    });
    Ok(())
}

fn pcie(id: &str, lanes: u32) -> Link {
    Link {
        id: id.to_string(),
        kind: LinkKind::Pcie {
            gen: 3,
            lanes,
            max_payload: DEFAULT_MAX_PAYLOAD,
        },
        parent: None,
        source: Some(IMPLIED.to_string()),
    }
}

/// Refuses an implied part's `id` where a part of the file has taken it.
fn free<'a>(
    what: &str,
    id: &str,
    mut taken: impl Iterator<Item = &'a String>,
) -> Result<(), String> {
    match taken.any(|t| t == id) {
        true => Err(format!(
            "{what} '{id}' is the name of an implied {what}: rename it"
        )),
        false => Ok(()),
    }
}
