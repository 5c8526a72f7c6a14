//! Where the planned disks go on the machine a candidate runs on: the same host, links and
//! controllers (more HBAs or NVMe links when the bays run short), the planned disks in its
//! bays, the disks that keep another role beside them, and the candidate's layout as its pool.

use crate::enumerate::Candidate;
use crate::error::PlanError;
use model::hardware::{DiskModel, Interface};
use model::pool::auto_ashift;
use model::system::{Attach, Disk, Upstream};
use model::{Layout, Leaf, System, TopLevel, VdevClass};

/// Whether a controller port of one protocol takes a disk of another: the same protocol, or a
/// SATA disk on a SAS port (SAS initiators tunnel SATA, STP).
fn port_takes(port: Interface, disk: Interface) -> bool {
    port == disk || (port == Interface::Sas && disk == Interface::Sata)
}

/// Where data disks of this model can go in `base`: the bays its own data disks occupy (when
/// their controller takes the model), in order, then the free ports of its controllers. The
/// bays of the disks that keep a role ([`role_disks`]) stay theirs.
fn bays(base: &System, disk: &DiskModel) -> Vec<Attach> {
    let takes = |id: &str| {
        base.controllers
            .iter()
            .any(|c| c.id == id && port_takes(c.model.interface, disk.interface))
    };
    let mut out: Vec<Attach> = base.disks[..data_disks(base)]
        .iter()
        .filter(|d| match &d.attach {
            Attach::Controller(id) => takes(id),
            Attach::Link(_) => disk.interface == Interface::Nvme,
        })
        .map(|d| d.attach.clone())
        .collect();
    for c in base.controllers.iter().filter(|c| takes(&c.id)) {
        let here = Attach::Controller(c.id.clone());
        let used = base.disks.iter().filter(|d| d.attach == here).count() as u32;
        out.extend((0..c.model.ports.saturating_sub(used)).map(|_| here.clone()));
    }
    if disk.interface == Interface::Nvme {
        out.extend(free_slots(base).map(|l| Attach::Link(l.to_string())));
    }
    out
}

/// PCIe links that carry nothing: no disk, controller or other link hangs off them. An NVMe
/// disk can take one.
fn free_slots(base: &System) -> impl Iterator<Item = &str> {
    base.links
        .iter()
        .filter(move |l| {
            let here = Attach::Link(l.id.clone());
            matches!(l.kind, model::hardware::LinkKind::Pcie { .. })
                && !base.disks.iter().any(|d| d.attach == here)
                && !base
                    .controllers
                    .iter()
                    .any(|c| c.upstream == Upstream::Link(l.id.clone()))
                && !base
                    .links
                    .iter()
                    .any(|o| o.parent.as_deref() == Some(&l.id))
        })
        .map(|l| l.id.as_str())
}

/// NVMe disks take no controller: each gets a PCIe 3.0 x4 link of its own, as a system file
/// that names none implies (docs/assumptions.md "Links and controllers").
fn with_nvme_links(base: &System, disk: &DiskModel, count: u32) -> (System, u32) {
    let mut system = base.clone();
    let mut added = 0;
    while bays(&system, disk).len() < count as usize {
        system.links.push(model::hardware::Link {
            id: format!("nvme-slot{added}"),
            kind: model::hardware::LinkKind::Pcie {
                gen: 3,
                lanes: 4,
                max_payload: model::hardware::DEFAULT_MAX_PAYLOAD,
            },
            parent: None,
            source: Some(model::system_file::IMPLIED.to_string()),
        });
        added += 1;
    }
    (system, added)
}

/// `base` with enough controllers for `count` disks of `disk`: copies of its last controller
/// that takes them, each on its own copy of that controller's link (a second HBA in a second
/// slot like the first). Returns the system and the number of controllers added. For the
/// embedded default system, whose one HBA has fewer ports than a large plan has disks.
pub fn with_controllers_for(
    base: &System,
    disk: &DiskModel,
    count: u32,
) -> Result<(System, u32), PlanError> {
    if disk.interface == Interface::Nvme {
        return Ok(with_nvme_links(base, disk, count));
    }
    let mut system = base.clone();
    let template = base
        .controllers
        .iter()
        .rev()
        .filter(|c| port_takes(c.model.interface, disk.interface) && c.model.ports > 0)
        .find_map(|c| match &c.upstream {
            Upstream::Link(slot) => Some((c, slot)),
            Upstream::Controller(_) => None,
        });
    let mut added = 0;
    while bays(&system, disk).len() < count as usize {
        let Some((template, slot)) = template else {
            return Err(not_enough_bays(&system, disk, count));
        };
        added += 1;
        let mut controller = template.clone();
        controller.id = format!("{}-copy{added}", template.id);
        if let Some(link) = base.links.iter().find(|l| &l.id == slot) {
            let mut link = link.clone();
            link.id = format!("{}-copy{added}", link.id);
            controller.upstream = Upstream::Link(link.id.clone());
            system.links.push(link);
        }
        system.controllers.push(controller);
    }
    Ok((system, added))
}

fn not_enough_bays(base: &System, disk: &DiskModel, count: u32) -> PlanError {
    PlanError::NotEnoughBays {
        system: base.name.clone(),
        disk: disk.id.clone(),
        bays: bays(base, disk).len() as u32,
        disks: count,
    }
}

/// `base` with `count` disks of `disk` in place of its own data disks, in [`bays`] order; the
/// disks that keep a role ([`role_disks`]: special, dedup and log vdevs, cache, hot spares)
/// stay, with their roles, after them. The pool keeps its layout until a candidate replaces
/// it; its ashift follows the new disks.
pub fn with_disks(base: &System, disk: &DiskModel, count: u32) -> Result<System, PlanError> {
    let bays = bays(base, disk);
    if bays.len() < count as usize {
        return Err(not_enough_bays(base, disk, count));
    }
    let kept = &base.disks[data_disks(base)..];
    let mut system = base.clone();
    system.disks = bays
        .into_iter()
        .take(count as usize)
        .enumerate()
        .map(|(i, attach)| Disk {
            name: format!("disk{i}"),
            model: disk.clone(),
            attach,
        })
        .chain(kept.iter().cloned())
        .collect();
    system.pool.ashift = auto_ashift(disk.logical_sector, disk.physical_sector, base.host.zfs);
    Ok(system)
}

/// Disks that keep a role the planner does not place: the leaves of the special, dedup and
/// log vdevs, the cache devices and the hot spares. They follow the data disks in
/// `system.disks` (disks fill the vdevs in order, then the cache and spares).
pub(crate) fn role_disks(system: &System) -> usize {
    let vdevs: u32 = system
        .pool
        .vdevs
        .iter()
        .filter(|t| t.class != VdevClass::Normal)
        .map(|t| t.layout.leaves())
        .sum();
    (vdevs + system.pool.cache_devices + system.pool.spares) as usize
}

/// The disks the planner places: all but the [`role_disks`].
pub fn data_disks(system: &System) -> usize {
    system.disks.len().saturating_sub(role_disks(system))
}

/// What keeps its role, one phrase each (`special mirror-2 on 2 x samsung-pm893-3.84tb`).
pub fn roles(system: &System) -> Vec<String> {
    let data = data_disks(system);
    let mut next = data;
    let mut out = Vec::new();
    let mut name = |count: usize, what: String| {
        let model = system
            .disks
            .get(next)
            .map_or(String::new(), |d| format!(" on {count} x {}", d.model.id));
        next += count;
        out.push(format!("{what}{model}"));
    };
    for t in system
        .pool
        .vdevs
        .iter()
        .filter(|t| t.class != VdevClass::Normal)
    {
        name(
            t.layout.leaves() as usize,
            format!("{} {}", t.class.word(), t.layout),
        );
    }
    if system.pool.cache_devices > 0 {
        name(system.pool.cache_devices as usize, "cache (L2ARC)".into());
    }
    if system.pool.spares > 0 {
        name(system.pool.spares as usize, "hot spares".into());
    }
    out
}

/// How close a catalog disk's capacity must be to a size asked for to match it: drives sold
/// as "16 TB" hold 16.0009 TB (catalog/disks.toml); 1% tells 16 TB from 18 TB.
const SIZE_MATCH: f64 = 0.01;

/// Catalog disks of about `bytes` (decimal sizes, as drives are sold), hard disks first, then
/// by id: `--disk 16TB` for whoever does not care which model.
pub fn disks_of_size(catalog: &model::Catalog, bytes: u64) -> Vec<&DiskModel> {
    let mut out: Vec<&DiskModel> = catalog
        .disks
        .values()
        .filter(|d| (d.capacity_bytes as f64 / bytes as f64 - 1.0).abs() <= SIZE_MATCH)
        .collect();
    out.sort_by_key(|d| (d.medium != model::hardware::Medium::Hdd, d.id.clone()));
    out
}

/// `system` with the candidate as its normal class: the candidate's layout on the system's
/// data disks ([`data_disks`]), its hot spares beside them; the special, dedup and log vdevs,
/// cache devices and hot spares of the system's own pool keep their disks and roles. The
/// system must have exactly the data disks the candidate occupies.
pub fn with_candidate(system: &System, candidate: &Candidate) -> Result<System, PlanError> {
    let first = system.disks.first().ok_or(PlanError::NoDisks)?;
    let data = data_disks(system);
    if data != candidate.disks() as usize {
        return Err(PlanError::LayoutDoesNotFit {
            layout: candidate.layout.to_string(),
            leaves: candidate.disks(),
            disks: data as u32,
        });
    }
    let leaf = Leaf {
        capacity_bytes: first.model.capacity_bytes,
        logical_sector: first.model.logical_sector,
        whole_disk: true,
    };
    let mut out = system.clone();
    // Disks fill the vdevs in order: the candidate's leaves, the other classes' vdevs, then
    // the idle disks (hot spares, cache).
    let used = candidate.layout.leaves() as usize;
    let role_vdevs = role_disks(system) - (system.pool.cache_devices + system.pool.spares) as usize;
    let d = &system.disks;
    out.disks = [
        &d[..used],
        &d[data..data + role_vdevs],
        &d[used..data],
        &d[data + role_vdevs..],
    ]
    .concat();
    out.pool.vdevs = std::iter::once(TopLevel {
        class: VdevClass::Normal,
        layout: candidate.layout.clone(),
        leaf,
    })
    .chain(
        system
            .pool
            .vdevs
            .iter()
            .filter(|t| t.class != VdevClass::Normal)
            .cloned(),
    )
    .collect();
    out.pool.spares += candidate.hot_spares;
    Ok(out)
}

/// A layout on all of a system's disks: those it leaves over become hot spares.
pub fn candidate_on(system: &System, layout: &Layout) -> Result<Candidate, PlanError> {
    let disks = data_disks(system) as u32;
    let hot_spares =
        disks
            .checked_sub(layout.leaves())
            .ok_or_else(|| PlanError::LayoutDoesNotFit {
                layout: layout.to_string(),
                leaves: layout.leaves(),
                disks,
            })?;
    Ok(Candidate {
        layout: layout.clone(),
        hot_spares,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::system_file::default_system;
    use model::Catalog;

    fn exos16() -> DiskModel {
        Catalog::embedded()
            .disk("seagate-exos-x16-16tb")
            .unwrap()
            .clone()
    }

    #[test]
    fn default_system_grows_hbas_for_24_disks() {
        let base = default_system();
        let err = with_disks(&base, &exos16(), 24).unwrap_err();
        assert!(err.to_string().contains("room for 8 disks"), "{err}");
        let (grown, added) = with_controllers_for(&base, &exos16(), 24).unwrap();
        assert_eq!(added, 2);
        assert_eq!(grown.controllers.len(), 3);
        assert_eq!(grown.links.len(), 3);
        let system = with_disks(&grown, &exos16(), 24).unwrap();
        let on = |id: &str| {
            system
                .disks
                .iter()
                .filter(|d| d.attach == Attach::Controller(id.to_string()))
                .count()
        };
        assert_eq!((on("hba0"), on("hba0-copy1"), on("hba0-copy2")), (8, 8, 8));
        assert_eq!(system.pool.ashift, 12);
    }

    #[test]
    fn disks_by_size() {
        let ids: Vec<&str> = disks_of_size(Catalog::embedded(), 16_000_000_000_000)
            .iter()
            .map(|d| d.id.as_str())
            .collect();
        assert_eq!(ids, ["seagate-exos-x16-16tb", "seagate-ironwolf-pro-16tb"]);
        assert!(disks_of_size(Catalog::embedded(), 17_000_000_000_000).is_empty());
    }

    #[test]
    fn candidate_replaces_the_pool() {
        let system = with_disks(&default_system(), &exos16(), 8).unwrap();
        let layout: Layout = "3x mirror-2".parse().unwrap();
        let candidate = candidate_on(&system, &layout).unwrap();
        assert_eq!(candidate.hot_spares, 2);
        let planned = with_candidate(&system, &candidate).unwrap();
        assert_eq!(planned.pool.vdevs.len(), 1);
        assert_eq!(planned.pool.vdevs[0].layout, layout);
        assert_eq!(
            planned.pool.vdevs[0].leaf.capacity_bytes,
            16_000_900_661_248
        );
        assert_eq!(planned.pool.spares, 2);
        let too_big: Layout = "raidz2-9".parse().unwrap();
        assert_eq!(
            candidate_on(&system, &too_big).unwrap_err().to_string(),
            "raidz2-9 needs 9 disks; the machine has 8"
        );
    }
}
