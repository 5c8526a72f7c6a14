//! The paths between the disks and memory, as service centres: each disk's port, its
//! controller's chip, a SAS expander's wide link, every link between a controller and memory
//! (each way where the link is full duplex). Which disk sits behind which comes from the system.

use crate::bus;
use crate::PerfError;
use model::hardware::{Interface, LinkKind};
use model::system::{Attach, Controller, System, Upstream};
use serde::Serialize;

/// What a service centre is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Disk,
    /// A solid-state disk's bandwidth: however many requests its flash serves at once, its
    /// bytes pass its controller and interface at its sequential rate.
    Media,
    /// A raidz or dRAID vdev serving a small random block: all its data disks at once.
    Vdev,
    Port,
    Controller,
    /// A SAS expander's wide link, shared by every disk behind it.
    Expander,
    Link,
    Memory,
    Network,
    Cpu,
    /// The application's threads, each copying its data on one core.
    Thread,
}

impl Kind {
    /// Whether it only moves bytes alongside other work (DMA, copies): such a resource
    /// bounds throughput but adds no service time of its own (the application's copies are
    /// already in the CPU's demand).
    pub fn is_pipe(&self) -> bool {
        matches!(
            self,
            Kind::Port
                | Kind::Media
                | Kind::Controller
                | Kind::Expander
                | Kind::Link
                | Kind::Memory
                | Kind::Network
                | Kind::Thread
        )
    }

    pub fn word(&self) -> &'static str {
        match self {
            Kind::Disk => "disk",
            Kind::Media => "media",
            Kind::Vdev => "vdev",
            Kind::Port => "port",
            Kind::Controller => "controller",
            Kind::Expander => "expander",
            Kind::Link => "bus",
            Kind::Memory => "memory",
            Kind::Network => "network",
            Kind::Cpu => "CPU",
            Kind::Thread => "application",
        }
    }
}

/// A byte-carrying centre: a port, a controller chip or one direction of a link.
#[derive(Debug, Clone)]
pub struct Pipe {
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
pub struct Machine {
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
    pub fn new(system: &System) -> Result<Machine, PerfError> {
        let mut pipes: Vec<Pipe> = Vec::new();
        let mut link_pipes: Vec<(String, Vec<usize>)> = Vec::new();
        for link in &system.links {
            let mut ids = Vec::new();
            let full_duplex = !matches!(link.kind, LinkKind::Pci { .. } | LinkKind::PciX { .. });
            let directions: &[(bool, bool)] = if full_duplex {
                &[(true, false), (false, true)]
            } else {
                &[(true, true)]
            };
            for &(reads, writes) in directions {
                let rate = bus::usable_bytes_per_s(&link.kind, reads);
                let way = match (full_duplex, reads) {
                    (false, _) => "",
                    (true, true) => " (to memory)",
                    (true, false) => " (from memory)",
                };
                ids.push(pipes.len());
                pipes.push(Pipe {
                    name: format!("{}{way}", link.id),
                    kind: Kind::Link,
                    detail: format!(
                        "{}: {:.0} MB/s usable of {:.0}",
                        bus::describe(&link.kind),
                        rate / 1e6,
                        bus::raw_mb_s(&link.kind)
                    ),
                    rate,
                    reads,
                    writes,
                });
            }
            link_pipes.push((link.id.clone(), ids));
        }
        // By id, so a chain of links costs its length, not its length times the links.
        let by_id: std::collections::HashMap<&str, (&Vec<usize>, Option<&str>)> = link_pipes
            .iter()
            .zip(&system.links)
            .map(|((id, ids), link)| (id.as_str(), (ids, link.parent.as_deref())))
            .collect();
        let link_chain = |start: &str| -> Result<Vec<usize>, PerfError> {
            let mut out = Vec::new();
            let mut cur = Some(start);
            let mut hops = 0;
            while let Some(id) = cur {
                let (ids, parent) = by_id
                    .get(id)
                    .ok_or_else(|| PerfError::System(format!("no link named '{id}'")))?;
                out.extend(*ids);
                cur = *parent;
                hops += 1;
                if hops > system.links.len() {
                    return Err(PerfError::System(format!("links loop through '{id}'")));
                }
            }
            Ok(out)
        };
        // Each controller's own pipes: its chip's ceiling, and for an expander its wide link
        // to the controller it is cabled to, each way (SAS lanes are full duplex).
        let mut own: Vec<(String, Vec<usize>)> = Vec::new();
        for c in &system.controllers {
            let mut ids = Vec::new();
            if let Some(limit) = c.model.chip_limit_mb_s {
                ids.push(pipes.len());
                pipes.push(Pipe {
                    name: c.id.clone(),
                    kind: Kind::Controller,
                    detail: format!("{}: {limit:.0} MB/s", c.model.name),
                    rate: limit * 1e6,
                    reads: true,
                    writes: true,
                });
            }
            if let Some(lanes) = c.model.uplink_lanes {
                let rate =
                    f64::from(lanes) * port_bytes_per_s(c.model.port_gbps, c.model.interface);
                for (reads, way) in [(true, "to the HBA"), (false, "from the HBA")] {
                    ids.push(pipes.len());
                    pipes.push(Pipe {
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
                    });
                }
            }
            own.push((c.id.clone(), ids));
        }
        // From a controller up to memory: its pipes, then its upstream's, to a link.
        let controllers: std::collections::HashMap<&str, (&Controller, &Vec<usize>)> = system
            .controllers
            .iter()
            .zip(&own)
            .map(|(c, (_, ids))| (c.id.as_str(), (c, ids)))
            .collect();
        let controller = |id: &str| {
            controllers
                .get(id)
                .copied()
                .ok_or_else(|| PerfError::System(format!("no controller named '{id}'")))
        };
        let controller_chain = |start: &str| -> Result<Vec<usize>, PerfError> {
            let mut out = Vec::new();
            let mut id = start;
            for _ in 0..=system.controllers.len() {
                let (c, ids) = controller(id)?;
                out.extend(ids);
                match &c.upstream {
                    Upstream::Link(link) => {
                        out.extend(link_chain(link)?);
                        return Ok(out);
                    }
                    Upstream::Controller(up) => id = up,
                }
            }
            Err(PerfError::System(format!(
                "controllers loop through '{start}'"
            )))
        };
        let mut paths = Vec::with_capacity(system.disks.len());
        for disk in &system.disks {
            let path = match &disk.attach {
                Attach::Link(l) => link_chain(l)?,
                Attach::Controller(cid) => {
                    let (c, _) = controller(cid)?;
                    let line = port_bytes_per_s(c.model.port_gbps, c.model.interface).min(
                        port_bytes_per_s(disk.model.interface_gbps, disk.model.interface),
                    );
                    let rate = c.model.port_limit_mb_s.map_or(line, |l| line.min(l * 1e6));
                    let mut path = vec![pipes.len()];
                    pipes.push(Pipe {
                        name: format!("{} port", disk.name),
                        kind: Kind::Port,
                        detail: format!("{} port: {:.0} MB/s", c.model.name, rate / 1e6),
                        rate,
                        reads: true,
                        writes: true,
                    });
                    path.extend(controller_chain(cid)?);
                    path
                }
            };
            paths.push(path);
        }
        Ok(Machine { pipes, paths })
    }
}
