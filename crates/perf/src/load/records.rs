//! What one job asks of the pool in records once the ARC has served its share: read from the
//! disks, written by the txg, and read to complete a partial write (dbuf_will_dirty's read of
//! a record before part of it changes).

use super::stages::Stages;
use model::workload::Access;

/// Records a job reads and writes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Records {
    pub read: f64,
    pub written: f64,
    /// Of `read`, those read to modify part of them (a partial-record write).
    pub rmw: f64,
    /// Records one request spans (random I/O).
    pub per_request: f64,
}

impl Records {
    /// A record written over in place: writes of part of it read it first unless it is
    /// cached (dmu_write_uio_dnode -> dmu_buf_will_dirty); a write of all of it fills a new
    /// buffer and reads nothing (dmu_buf_will_fill).
    fn overwrite(miss: f64, partial: bool) -> Records {
        let rmw = if partial { miss } else { 0.0 };
        Records {
            read: rmw,
            written: 1.0,
            rmw,
            per_request: 1.0,
        }
    }

    /// A request's share of a stream's record: `records` of it.
    fn per_request(self, records: f64) -> Records {
        Records {
            read: self.read * records,
            written: self.written * records,
            rmw: self.rmw * records,
            per_request: records,
        }
    }
}

impl Stages<'_> {
    /// Records a job reads and writes: a record for a stream (`seq`), a request's share of
    /// one for a stream that waits on each request, a request's records otherwise.
    pub(super) fn records(&self, seq: bool) -> Records {
        self.per_job(self.records_per_job(), seq)
    }

    /// Records a job takes from the ARC (its hits), counted as `records` counts its reads.
    pub(super) fn arc_records(&self, seq: bool) -> Records {
        self.per_job(self.records_at(self.hit), seq)
    }

    fn per_job(&self, per_job: Records, seq: bool) -> Records {
        if seq || !self.w.access.is_sequential() {
            per_job
        } else {
            per_job.per_request(self.w.block_size as f64 / self.recordsize as f64)
        }
    }

    /// Whether the writer waits for reads of the records it writes over: a write of part of a
    /// record not in the ARC reads the record on the writer's own thread, without prefetch
    /// (dmu_buf_will_dirty reads with DB_RF_NOPREFETCH, dbuf.c; zfs_write issues no prefetch,
    /// zfs_vnops.c of OpenZFS 2.2.9), so nothing reads ahead of the writer and each such write
    /// waits for its record as a random request does.
    pub(super) fn overwrite_reads(&self) -> bool {
        self.w.access == Access::Overwrite
            && self.w.block_size < self.recordsize
            && self.hit + self.l2hit < 1.0
    }

    /// A random job's reads the cache devices serve: its reads, at the L2ARC's share.
    pub(super) fn cache_records(&self) -> Records {
        Records {
            written: 0.0,
            ..self.records_at(self.l2hit)
        }
    }

    fn records_per_job(&self) -> Records {
        self.records_at(1.0 - self.hit - self.l2hit)
    }

    /// A job's records where `miss` of its block reads go past the ARC.
    fn records_at(&self, miss: f64) -> Records {
        let (rs, bs) = (self.recordsize as f64, self.w.block_size as f64);
        match self.w.access {
            Access::SeqRead => Records {
                read: miss,
                ..Records::default()
            },
            Access::SeqWrite => Records {
                written: 1.0,
                ..Records::default()
            },
            // A record of each stream in proportion: the reads' behind the prefetcher, the
            // writes' whole records filled in the txg (sequential writes, no read first).
            Access::SeqMix { read_pct } => {
                let r = f64::from(read_pct) / 100.0;
                Records {
                    read: r * miss,
                    written: 1.0 - r,
                    ..Records::default()
                }
            }
            Access::Rewrite => Records {
                read: miss,
                written: 1.0,
                ..Records::default()
            },
            Access::Overwrite => Records::overwrite(miss, bs < rs),
            Access::Random { read_pct } => {
                let r = f64::from(read_pct) / 100.0;
                let per_request = (bs / rs).ceil().max(1.0);
                // A write of part of a record dirties it unless its txg holds it dirty
                // already (redirty.rs), and then reads the rest first, unless cached.
                let anew = self.anew;
                let rmw = if bs < rs {
                    (1.0 - r) * miss * per_request * anew
                } else {
                    0.0
                };
                Records {
                    read: r * miss * per_request + rmw,
                    written: (1.0 - r) * per_request * anew,
                    rmw,
                    per_request,
                }
            }
            // Bonnie's chunk is read within its record; the updated records are written back.
            Access::Seeks { write_pct } => Records {
                read: miss,
                written: f64::from(write_pct) / 100.0,
                rmw: 0.0,
                per_request: 1.0,
            },
        }
    }
}
