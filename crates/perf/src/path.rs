//! The paths between the disks and memory, as service centres: each disk's port, its
//! controller's chip, a SAS expander's wide link, every link between a controller and memory
//! (each way where the link is full duplex). Which disk sits behind which comes from the system.

use crate::leaf::load::DiskLoad;
use crate::link;
use crate::station::{Kind, Station};
use crate::PerfError;
use model::hardware::{Interface, Link, LinkKind};
use model::system::{Attach, Controller, Disk, System, Upstream};
use std::collections::HashMap;

/// A byte-carrying centre: a port, a controller chip or one direction of a link.
#[derive(Debug, Clone)]
pub(crate) struct Pipe {
    pub name: String,
    pub kind: Kind,
    pub detail: String,
    /// Usable bytes per second.
    pub rate: f64,
    /// Whether it carries disk reads (to memory), writes (from memory), or both (half duplex).
    pub reads: bool,
    pub writes: bool,
}

/// The pipes each disk's bytes cross, by index into `Machine::pipes`.
#[derive(Debug, Clone)]
pub(crate) struct Machine {
    pub pipes: Vec<Pipe>,
    pub paths: Vec<Vec<usize>>,
}

/// Payload rate of a disk's own port: SATA and SAS lines use 8b/10b coding, so 3 Gb/s moves
/// 300 MB/s (SATA 2.6, SAS-1/2); parallel SCSI is given by its bus rate.
fn port_bytes_per_s(gbps: f64, interface: Interface) -> f64 {
    match interface {
        Interface::Scsi => gbps * 1e9 / 8.0,
        _ => gbps * 1e8,
    }
}

impl Machine {
    /// The pipes of `system` and the path of each of its disks.
    pub(crate) fn new(system: &System) -> Result<Machine, PerfError> {
        let mut wiring = Wiring {
            pipes: Vec::new(),
            links: HashMap::new(),
            controllers: HashMap::new(),
            loop_bound: (system.links.len(), system.controllers.len()),
        };
        for link in &system.links {
            let ids = wiring.link_pipes(link);
            wiring
                .links
                .insert(link.id.as_str(), (ids, link.parent.as_deref()));
        }
        for c in &system.controllers {
            let ids = wiring.controller_pipes(c);
            wiring.controllers.insert(c.id.as_str(), (c, ids));
        }
        let mut paths = Vec::with_capacity(system.disks.len());
        for disk in &system.disks {
            paths.push(match &disk.attach {
                Attach::Link(l) => wiring.link_chain(l)?,
                Attach::Controller(cid) => wiring.port_path(disk, cid)?,
            });
        }
        Ok(Machine {
            pipes: wiring.pipes,
            paths,
        })
    }

    /// Every pipe's station: the bytes the disks' work per job sends through it.
    pub(crate) fn stations(&self, disks: &[DiskLoad]) -> Vec<Station> {
        let mut bytes = vec![0.0f64; self.pipes.len()];
        let mut demand = vec![0.0f64; self.pipes.len()];
        for (path, load) in self.paths.iter().zip(disks) {
            for &p in path {
                let pipe = &self.pipes[p];
                let moved = if pipe.reads { load.read_bytes } else { 0.0 }
                    + if pipe.writes { load.write_bytes } else { 0.0 };
                bytes[p] += moved;
                demand[p] += moved / pipe.rate;
            }
        }
        self.pipes
            .iter()
            .zip(bytes.iter().zip(&demand))
            .map(|(pipe, (&bytes, &demand))| {
                Station::new(pipe.name.clone(), pipe.kind, pipe.detail.clone(), demand)
                    .moving(bytes)
            })
            .collect()
    }
}

/// The pipes as they are built, and each link's and controller's own, by id (so a chain of
/// links costs its length, not its length times the links).
struct Wiring<'s> {
    pipes: Vec<Pipe>,
    links: HashMap<&'s str, (Vec<usize>, Option<&'s str>)>,
    controllers: HashMap<&'s str, (&'s Controller, Vec<usize>)>,
    /// Links and controllers: a chain longer than these loops.
    loop_bound: (usize, usize),
}

impl<'s> Wiring<'s> {
    fn push(&mut self, pipe: Pipe) -> usize {
        self.pipes.push(pipe);
        self.pipes.len() - 1
    }

    /// A link's pipes: one each way where it is full duplex, one for both on PCI and PCI-X.
    fn link_pipes(&mut self, link: &Link) -> Vec<usize> {
        let full_duplex = !matches!(link.kind, LinkKind::Pci { .. } | LinkKind::PciX { .. });
        let directions: &[(bool, bool)] = if full_duplex {
            &[(true, false), (false, true)]
        } else {
            &[(true, true)]
        };
        let mut ids = Vec::new();
        for &(reads, writes) in directions {
            let rate = link::usable_bytes_per_s(&link.kind, reads);
            let way = match (full_duplex, reads) {
                (false, _) => "",
                (true, true) => " (to memory)",
                (true, false) => " (from memory)",
            };
            ids.push(self.push(Pipe {
                name: format!("{}{way}", link.id),
                kind: Kind::Link,
                detail: format!(
                    "{}: {:.0} MB/s usable of {:.0}",
                    link::describe(&link.kind),
                    rate / 1e6,
                    link::raw_mb_s(&link.kind)
                ),
                rate,
                reads,
                writes,
            }));
        }
        ids
    }

    /// A controller's own pipes: its chip's ceiling, and for an expander its wide link to the
    /// controller it is cabled to, each way (SAS lanes are full duplex).
    fn controller_pipes(&mut self, c: &Controller) -> Vec<usize> {
        let mut ids = Vec::new();
        if let Some(limit) = c.model.chip_limit_mb_s {
            ids.push(self.push(Pipe {
                name: c.id.clone(),
                kind: Kind::Controller,
                detail: format!("{}: {limit:.0} MB/s", c.model.name),
                rate: limit * 1e6,
                reads: true,
                writes: true,
            }));
        }
        if let Some(lanes) = c.model.uplink_lanes {
            let rate = f64::from(lanes) * port_bytes_per_s(c.model.port_gbps, c.model.interface);
            for (reads, way) in [(true, "to the HBA"), (false, "from the HBA")] {
                ids.push(self.push(Pipe {
                    name: format!("{} uplink ({way})", c.id),
                    kind: Kind::Expander,
                    detail: format!(
                        "{}: {lanes} x {} Gb/s wide link, {:.0} MB/s each way",
                        c.model.name,
                        c.model.port_gbps,
                        rate / 1e6
                    ),
                    rate,
                    reads,
                    writes: !reads,
                }));
            }
        }
        ids
    }

    /// The pipes from link `start` up to memory.
    fn link_chain(&self, start: &str) -> Result<Vec<usize>, PerfError> {
        let mut out = Vec::new();
        let mut cur = Some(start);
        let mut hops = 0;
        while let Some(id) = cur {
            let (ids, parent) = self
                .links
                .get(id)
                .ok_or_else(|| PerfError::System(format!("no link named '{id}'")))?;
            out.extend(ids);
            cur = *parent;
            hops += 1;
            if hops > self.loop_bound.0 {
                return Err(PerfError::System(format!("links loop through '{id}'")));
            }
        }
        Ok(out)
    }

    fn controller(&self, id: &str) -> Result<(&'s Controller, &Vec<usize>), PerfError> {
        self.controllers
            .get(id)
            .map(|(c, ids)| (*c, ids))
            .ok_or_else(|| PerfError::System(format!("no controller named '{id}'")))
    }

    /// From controller `start` up to memory: its pipes, then its upstream's, to a link.
    fn controller_chain(&self, start: &str) -> Result<Vec<usize>, PerfError> {
        let mut out = Vec::new();
        let mut id = start;
        for _ in 0..=self.loop_bound.1 {
            let (c, ids) = self.controller(id)?;
            out.extend(ids);
            match &c.upstream {
                Upstream::Link(link) => {
                    out.extend(self.link_chain(link)?);
                    return Ok(out);
                }
                Upstream::Controller(up) => id = up,
            }
        }
        Err(PerfError::System(format!(
            "controllers loop through '{start}'"
        )))
    }

    /// A disk's own port on controller `cid` (the slower of the two ends' lines, and the
    /// controller's per-port ceiling), then the controller's chain.
    fn port_path(&mut self, disk: &Disk, cid: &str) -> Result<Vec<usize>, PerfError> {
        let (c, _) = self.controller(cid)?;
        let line = port_bytes_per_s(c.model.port_gbps, c.model.interface).min(port_bytes_per_s(
            disk.model.interface_gbps,
            disk.model.interface,
        ));
        let rate = c.model.port_limit_mb_s.map_or(line, |l| line.min(l * 1e6));
        let detail = format!("{} port: {:.0} MB/s", c.model.name, rate / 1e6);
        let mut path = vec![self.push(Pipe {
            name: format!("{} port", disk.name),
            kind: Kind::Port,
            detail,
            rate,
            reads: true,
            writes: true,
        })];
        path.extend(self.controller_chain(cid)?);
        Ok(path)
    }
}
