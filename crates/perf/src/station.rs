//! The stations of the closed queueing network: every resource a job uses, as a typed value
//! (what it is, its demand per job, its servers, the bytes it moves), and its utilisation once
//! the network is solved. Each resource's module builds its own stations: the disks and their
//! media (`leaf::load`), raidz and dRAID vdevs (`vdev`), ports, controllers, expanders and
//! links (`path`), memory (`memory`), the network (`nic`), the threads and the CPU (`cpu`).

use serde::Serialize;

/// What a service centre is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A disk serving requests: seeks, rotation, or flash latency.
    Disk,
    /// A solid-state disk's bandwidth: however many requests its flash serves at once, its
    /// bytes pass its controller and interface at its sequential rate.
    Media,
    /// A raidz or dRAID vdev serving a small random block: all its data disks at once.
    Vdev,
    /// A disk's own port on its controller: the slower of the two ends' lines.
    Port,
    /// A storage controller's chip.
    Controller,
    /// A SAS expander's wide link, shared by every disk behind it.
    Expander,
    /// A bus or link toward memory (PCI, PCIe, a chipset uplink).
    Link,
    /// Memory bandwidth.
    Memory,
    /// The host's network interfaces.
    Network,
    /// The CPU's cores running ZFS's work.
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

    /// The kind in one word, as reports print it.
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

/// The ARC eviction thread's station (arc_evict.rs), by name: the bottleneck's sentence names it
/// after the solve, when no stage is asked again.
pub(crate) const ARC_EVICT: &str = "arc_evict";

/// One resource: what it is, its demand per job in seconds, its servers, its demand by the
/// jobs queued there where that matters (see `mva::Centre`), and whether it only bounds the
/// rate (a pipe) or is part of each job's cycle.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Station {
    pub resource: String,
    pub kind: Kind,
    pub detail: String,
    /// Seconds of service one job needs here (all its servers' time together).
    pub demand_s: f64,
    pub servers: u32,
    /// Bytes it moves per job (byte-carrying resources), for the bottleneck sentence.
    pub bytes_per_job: f64,
    /// Demand with 1, 2, ... jobs queued here, the last holding for more; empty: `demand_s`.
    pub by_jobs_s: Vec<f64>,
    pub pipe: bool,
}

impl Station {
    /// A station of one server that moves no bytes of its own and whose demand does not
    /// depend on its queue; a pipe if its kind is one.
    pub(crate) fn new(
        resource: impl Into<String>,
        kind: Kind,
        detail: String,
        demand_s: f64,
    ) -> Station {
        Station {
            resource: resource.into(),
            kind,
            detail,
            demand_s,
            servers: 1,
            bytes_per_job: 0.0,
            by_jobs_s: Vec::new(),
            pipe: kind.is_pipe(),
        }
    }

    /// The bytes it moves per job.
    pub(crate) fn moving(self, bytes_per_job: f64) -> Station {
        Station {
            bytes_per_job,
            ..self
        }
    }

    pub(crate) fn servers(self, servers: u32) -> Station {
        Station { servers, ..self }
    }

    /// Its demand by the jobs queued there; a table of one entry is the fixed demand.
    pub(crate) fn queued(self, by_jobs_s: &[f64]) -> Station {
        Station {
            by_jobs_s: if by_jobs_s.len() > 1 {
                by_jobs_s.to_vec()
            } else {
                Vec::new()
            },
            ..self
        }
    }

    /// Whether each job waits on it (it is part of the cycle) rather than only bounding
    /// the rate.
    pub(crate) fn in_cycle(self, yes: bool) -> Station {
        Station { pipe: !yes, ..self }
    }

    /// Its share of the work at `x` jobs per second.
    pub(crate) fn at(self, x: f64) -> Utilization {
        Utilization {
            utilization: x * self.demand_s / f64::from(self.servers),
            max_jobs_per_s: f64::from(self.servers) / self.demand_s,
            demand_s: self.demand_s,
            resource: self.resource,
            kind: self.kind,
            detail: self.detail,
            bytes_per_job: self.bytes_per_job,
        }
    }
}

/// One resource's share of the work.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Utilization {
    /// The resource's name.
    pub resource: String,
    /// What kind of resource it is.
    pub kind: Kind,
    /// What it is and its rate, in a few words.
    pub detail: String,
    /// Busy fraction (0..=1), per server for the CPU.
    pub utilization: f64,
    /// Jobs per second this resource alone could serve: its bound.
    #[serde(skip)]
    pub max_jobs_per_s: f64,
    /// Bytes it moves per job (byte-carrying resources), for the bottleneck sentence.
    #[serde(skip)]
    pub bytes_per_job: f64,
    /// Seconds of service one job needs here (all its servers' time together).
    #[serde(skip)]
    pub demand_s: f64,
}
