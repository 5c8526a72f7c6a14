//! A leaf's work per job, and its stations: the disk (its positioning and transfer, served
//! one request at a time or reordered from its queue) and, for solid state, its media's
//! bandwidth.

use super::DiskTiming;
use crate::station::{Kind, Station};
use model::System;

/// Work one disk does per job.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DiskLoad {
    pub read_bytes: f64,
    pub write_bytes: f64,
    pub read_ops: f64,
    pub write_ops: f64,
    /// Seconds of service per job on this disk alone (not counting fork-join vdev service),
    /// with one request at the disk.
    pub busy_s: f64,
    /// `busy_s` with 1, 2, ... requests at the disk, which it reorders (the last holds for
    /// more); empty: the same at any depth.
    pub busy_queued_s: Vec<f64>,
    /// Seconds per job of writes nobody waits for: the txg's writeback of records whose
    /// synchronous writers waited only for a separate log device (spa_sync runs beside the
    /// commits, so it bounds throughput without lengthening each request's cycle).
    pub background_s: f64,
    /// The most I/Os the vdev queue keeps active at this leaf for the classes of the job's
    /// I/O (vdev_queue.c, the class's max_active); 0: none set, the drive's own parallelism.
    pub active: u32,
}

impl DiskLoad {
    /// Notes that I/O of a class allowing `max_active` at once reaches this leaf.
    pub(crate) fn allow(&mut self, max_active: u32) {
        self.active = self.active.max(max_active);
    }

    /// Requests the leaf serves at once: the drive's parallelism, within the vdev queue's
    /// limit for the classes it serves.
    pub(crate) fn servers(&self, parallelism: u32) -> u32 {
        match self.active {
            0 => parallelism,
            active => parallelism.min(active),
        }
    }

    /// Adds `fixed` seconds per job at any depth, and a queue-dependent table (per job).
    pub(crate) fn add(&mut self, fixed: f64, table: &[f64]) {
        match (self.busy_queued_s.is_empty(), table.len()) {
            (_, 0) => {
                self.busy_s += fixed;
                self.busy_queued_s.iter_mut().for_each(|s| *s += fixed);
            }
            (true, _) => {
                self.busy_queued_s = table.iter().map(|s| self.busy_s + fixed + s).collect();
                self.busy_s = self.busy_queued_s[0];
            }
            (false, _) => {
                for (s, t) in self.busy_queued_s.iter_mut().zip(table) {
                    *s += fixed + t;
                }
                self.busy_s = self.busy_queued_s[0];
            }
        }
    }
}

/// Each disk's station and, for solid state, its media's, in the system's order.
pub(crate) fn stations(system: &System, loads: &[DiskLoad], overhead_s: f64) -> Vec<Station> {
    let mut out = Vec::new();
    for (d, load) in system.disks.iter().zip(loads) {
        let t = DiskTiming::new(&d.model, overhead_s);
        let bytes = load.read_bytes + load.write_bytes;
        let detail = format!("{} {}", d.model.vendor, d.model.model);
        let bg = load.background_s;
        if load.busy_s > 0.0 || bg <= 0.0 {
            out.push(
                Station::new(d.name.clone(), Kind::Disk, detail.clone(), load.busy_s)
                    .servers(load.servers(t.parallelism()))
                    .moving(bytes)
                    .queued(&load.busy_queued_s),
            );
        }
        if bg > 0.0 {
            // The writeback nobody waits for bounds the rate, off the cycle, with the work
            // the disk does besides.
            let name = if load.busy_s > 0.0 {
                format!("{} (with the txg's writeback)", d.name)
            } else {
                d.name.clone()
            };
            out.push(
                Station::new(name, Kind::Disk, detail, load.busy_s + bg)
                    .servers(load.servers(t.parallelism()))
                    .moving(bytes)
                    .in_cycle(false),
            );
        }
        if !t.is_rotating() {
            let (read, write) = (t.rate_at(0.0, false), t.rate_at(0.0, true));
            let detail = format!("{:.0} MB/s read, {:.0} MB/s write", read / 1e6, write / 1e6);
            let demand = load.read_bytes / read + load.write_bytes / write;
            out.push(
                Station::new(format!("{} media", d.name), Kind::Media, detail, demand)
                    .moving(bytes),
            );
        }
    }
    out
}
