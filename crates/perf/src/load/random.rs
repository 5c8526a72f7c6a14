//! A random request's work on a vdev: its record reads as random I/O (reordered by the disks'
//! queues; a raidz or dRAID vdev's columns must all answer), its written records as the txg's
//! sequential writes, and the writes the ZIL makes it wait for. A raidz or dRAID vdev whose
//! disks work together (a random read, a log block) is one station, carrying its disks' other
//! work too; a mirror's or a disk's leaves are their own stations.

use super::log::Waited;
use super::records::Records;
use super::stages::{Share, Stages};
use super::work::Work;
use crate::leaf::ncq::reorder_depth;
use crate::leaf::DiskTiming;
use crate::vdev::{concurrent_groups, VdevLoad};
use crate::zio::Fanout;
use model::hardware::DiskModel;
use model::VdevType;

/// How a random request's reads reach one vdev, and whether the vdev is a station.
struct Plan {
    visit: Visit,
    /// Visits per job.
    visits: f64,
    /// Whether a visit waits for several children at once (raidz/dRAID columns).
    fork: bool,
    /// Whether the vdev's disks serve as one station (see the module's doc).
    station: bool,
}

impl Stages<'_> {
    /// Jobs the syncing txg keeps in flight for random writes nobody waits for: a buffered
    /// write returns once its record is dirty in the ARC, and the txg writes the dirty records
    /// back with up to async_write_max_active I/Os per leaf (vdev_queue.c), whatever the
    /// application's own depth. Only where no request waits on a disk otherwise: its writes
    /// are not synchronous and its reads (a partial record's, a mix's) find the ARC.
    pub(super) fn writeback_in_flight(&self, rec: &Records) -> u32 {
        if rec.written <= 0.0 || self.sync.is_some() || rec.read > 1e-9 {
            return 0;
        }
        self.release
            .async_write_active
            .saturating_mul(self.data_leaves())
    }

    /// A random request's work on `s.v`, waiting for `wait` besides.
    pub(super) fn random(&self, work: &mut Work, s: &Share, rec: &Records, wait: &Waited) {
        let v = s.v;
        let n = v.leaves.len() as u32;
        let visit = Visit::of_request(&s.fr, n, rec.per_request.max(1.0), v.share);
        work.parts += (v.share * rec.per_request).min(1.0)
            * if visit.fork > 1 {
                1.0
            } else {
                visit.ios_per_child * f64::from(n)
            };
        let striped = matches!(v.vtype, VdevType::Raidz { .. } | VdevType::Draid { .. });
        let fork = visit.fork > 1 && s.reads > 0.0;
        let plan = Plan {
            visits: s.reads / visit.records,
            visit,
            fork,
            station: striped && (fork || wait.seconds > 0.0),
        };
        let mut other_s = 0.0f64;
        for &leaf in &v.leaves {
            other_s = other_s.max(self.random_leaf(work, s, &plan, wait, leaf));
        }
        if plan.station {
            self.vdev_station(work, s, &plan, other_s, wait);
        }
    }

    /// One leaf's part; returns its seconds of writes per job. Where the vdev is no station,
    /// they, the ZIL's wait and the reads by queue depth go to the leaf's own station.
    fn random_leaf(&self, work: &mut Work, s: &Share, p: &Plan, wait: &Waited, leaf: usize) -> f64 {
        let model = &self.system.disks[leaf].model;
        let t = self.timing(model);
        let agg = self.aggregation(s.v) as f64;
        let col = p.visit.column_bytes;
        let per_job = p.visits * p.visit.ios_per_child;
        let table: Vec<f64> = if s.reads > 0.0 && !p.fork {
            let depth = self.read_depth(leaf);
            let queued = work.tables.get(model, &t, col, s.span, 1, depth);
            queued.iter().map(|q| per_job * q).collect()
        } else {
            Vec::new()
        };
        let d = work.disk(leaf, &s.v.name);
        let mut own_s = 0.0;
        if s.reads > 0.0 {
            d.read_bytes += s.reads * s.fr.bytes_per_child;
            d.read_ops += per_job * (col / agg).ceil().max(1.0);
            d.allow(self.release.sync_read_active);
        }
        if s.writes > 0.0 {
            own_s += self.txg_writes(d, s, &t);
        }
        d.write_bytes += wait.bytes_per_leaf;
        d.write_ops += wait.ops_per_leaf;
        if wait.ops_per_leaf > 0.0 {
            d.allow(self.release.sync_write_active);
        }
        if p.station {
            return own_s;
        }
        // A synchronous writer waits for its commit only; the txg writes the records back
        // beside the commits (spa_sync), nobody waiting, where they do not share a head with
        // the commits: on other disks (a log device) or on flash, which serves both at once.
        let apart = !self.logs.is_empty() || !t.is_rotating();
        let background = self.sync.is_some() && apart && table.is_empty();
        if background {
            d.background_s += own_s;
        }
        let own = if background { 0.0 } else { own_s };
        // Writers queued at the leaf share log blocks, unless reads queue there too.
        if table.is_empty() && !wait.seconds_queued.is_empty() {
            d.add(own, &wait.seconds_queued);
        } else {
            d.add(own + wait.seconds, &table);
        }
        own_s
    }

    /// The vdev as one station: its blocks by queue depth (each waits for its `fork` columns,
    /// at the depth its least deep member reorders), `other_s` seconds of other work and the
    /// ZIL's `wait`, whose log blocks the writers queued there share when nothing is read.
    fn vdev_station(&self, work: &mut Work, s: &Share, p: &Plan, other_s: f64, wait: &Waited) {
        let fixed = other_s + wait.seconds;
        let v = s.v;
        let lead = &self.system.disks[v.leaves[0]].model;
        let t = self.timing(lead);
        let queued = if p.fork {
            let least = v.leaves.iter().map(|&l| self.read_depth(l)).min();
            let col = p.visit.column_bytes;
            let depth = least.unwrap_or(1);
            work.tables.get(lead, &t, col, s.span, p.visit.fork, depth)
        } else {
            vec![0.0]
        };
        let busy_queued_s: Vec<f64> = if p.fork || wait.seconds_queued.is_empty() {
            queued.iter().map(|q| p.visits * q + fixed).collect()
        } else {
            wait.seconds_queued.iter().map(|w| other_s + w).collect()
        };
        work.vdevs.push(VdevLoad {
            name: v.name.clone(),
            members: v.leaves.clone(),
            busy_s: busy_queued_s[0],
            busy_queued_s,
            blocks: p.visits,
            other_s: fixed,
            width: if p.fork {
                p.visit.fork
            } else {
                v.leaves.len() as u32
            },
            active: self.release.sync_read_active,
            groups: if p.fork {
                concurrent_groups(v.vtype, v.leaves.len() as u32)
            } else {
                1
            },
        });
    }

    /// Requests a leaf reorders: its queue, as deep as the synchronous reads ZFS keeps active.
    fn read_depth(&self, leaf: usize) -> u32 {
        reorder_depth(self.system, leaf, self.release.sync_read_active)
    }
}

/// How one read reaches a top-level vdev of `n` children: the records it carries there, the
/// children it touches and the bytes each of them moves.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Visit {
    /// Records per visit.
    records: f64,
    /// Children a visit waits for (raidz/dRAID columns; 1 for a mirror side or a disk).
    fork: u32,
    /// Positionings each child makes per visit, on average.
    ios_per_child: f64,
    /// Bytes each touched child moves per visit.
    column_bytes: f64,
}

impl Visit {
    /// A request of `records` contiguous records, of which the vdev holds `share`: it visits
    /// the vdev once if it spans vdevs (max(1, share x records) records per visit), and the
    /// records' rotating first columns (raidz) or the sides' balancing (mirror) spread them
    /// over up to all children.
    fn of_request(f: &Fanout, n: u32, records: f64, share: f64) -> Visit {
        let per_visit = (share * records).max(1.0);
        let children = f64::from(n);
        let width = f.ios_per_child * children;
        let touched = (width * per_visit).min(children);
        Visit {
            records: per_visit,
            fork: if f.fork_width > 1 {
                touched.round() as u32
            } else {
                1
            },
            ios_per_child: touched / children,
            column_bytes: per_visit * f.bytes_per_child * children / touched,
        }
    }
}

/// Random reads' service by queue depth (`DiskTiming::random_io_queued_s`), computed once for
/// each disk model, size, span, columns and depth: identical vdevs share one.
#[derive(Default)]
pub(super) struct ReadTables(Vec<(ReadKey, Vec<f64>)>);

/// Model id, depth, columns, and the bits of the span and the size.
type ReadKey = (String, u32, u32, u64, u64);

impl ReadTables {
    fn get(
        &mut self,
        model: &DiskModel,
        t: &DiskTiming,
        bytes: f64,
        span: f64,
        fork: u32,
        depth: u32,
    ) -> Vec<f64> {
        let key = (
            model.id.clone(),
            depth,
            fork,
            span.to_bits(),
            bytes.to_bits(),
        );
        if let Some((_, table)) = self.0.iter().find(|e| e.0 == key) {
            return table.clone();
        }
        let table = t.random_io_queued_s(bytes, span, fork, false, depth);
        self.0.push((key, table.clone()));
        table
    }
}
