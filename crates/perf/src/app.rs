//! The application: what its own threads spend per request (the system call into the kernel,
//! VFS and ZFS's per-call work, the copy of its bytes between its buffer and the ARC), how many
//! of its requests reach the file system at once (its I/O engine) (docs/zfs-internals.md §3,
//! §8). How long a write phase takes when the dirty-data buffer absorbs part of it is worked
//! out from the solution, in `figures`.

use crate::constants::Constants;
use crate::cpu::{self, COPY_BYTE, SYSCALL};
use crate::release::Release;
use model::workload::{Access, Data, Durability, Engine, Target, Workload};

/// Requests of one thread that reach ZFS at once: its queue depth where the engine passes it
/// on (io_uring always; libaio for O_DIRECT I/O that really bypasses the cache, on OpenZFS
/// 2.3+ reads and whole-record writes of `recordsize`, or a raw device), else one: psync and
/// the like wait for each call, libaio on a buffered file does the I/O inside io_submit, and
/// glibc's POSIX AIO serves one file descriptor's requests one at a time.
pub(crate) fn depth_per_thread(w: &Workload, release: &Release, recordsize: u64) -> u32 {
    let raw = matches!(w.target, Target::RawDisk { .. });
    let direct =
        release.direct_reads(w) && (!w.access.writes() || release.direct_writes(w, recordsize));
    match w.engine {
        Engine::IoUring => w.queue_depth,
        Engine::Libaio if raw || direct => w.queue_depth,
        Engine::Libaio | Engine::Sync | Engine::PosixAio => 1,
    }
}

/// Requests the application keeps in flight at the file system.
pub(crate) fn outstanding(w: &Workload, release: &Release, recordsize: u64) -> u32 {
    w.threads
        .saturating_mul(depth_per_thread(w, release, recordsize))
        .max(1)
}

/// Reference cycles the application's threads spend on `requests` calls moving `bytes`:
/// per call the system call and ZFS's per-call work, per byte the copy; a read-write pair
/// (a rewrite, a seek's update) pays both and an lseek between.
pub(crate) struct Calls {
    pub reads: f64,
    pub writes: f64,
    /// Calls that do no I/O: lseek, fsync's entry.
    pub others: f64,
    pub bytes: f64,
    /// Bytes read from the kernel's random device before the writes (`dd if=/dev/urandom`).
    pub generated: f64,
    /// Transactions each write call takes: zfs_write (zfs_vnops.c) writes a call larger than
    /// the record in record-sized chunks, each assigned, filled and committed as its own
    /// transaction.
    pub chunks_per_write: f64,
    /// Records each of those chunks dirties anew in its txg: a share of one for a stream
    /// writing part of a record per call (the rest of its calls find the record dirty), one
    /// otherwise (constants.rs, `record_dirty_share`).
    pub dirtied_per_chunk: f64,
    /// Requests handed to another thread and waited for: glibc's POSIX AIO makes each call on
    /// a helper thread (constants.rs, `posixaio_handoff_s`).
    pub handoffs: f64,
}

impl Calls {
    /// The calls of one request of `w` on records of `recordsize` bytes: a read or a write of
    /// `block_size` bytes, in the mix its access pattern gives, with the lseeks and fsyncs it
    /// makes.
    pub(crate) fn of_request(w: &Workload, recordsize: u64) -> Calls {
        let bs = w.block_size as f64;
        let (reads, writes, others) = match w.access {
            Access::SeqRead => (1.0, 0.0, 0.0),
            Access::SeqWrite | Access::Overwrite => (0.0, 1.0, 0.0),
            Access::Rewrite => (1.0, 1.0, 1.0),
            Access::Random { read_pct } | Access::SeqMix { read_pct } => {
                let r = f64::from(read_pct) / 100.0;
                (r, 1.0 - r, 0.0)
            }
            // An lseek and a read; the updated share an lseek and a write more.
            Access::Seeks { write_pct } => {
                let u = f64::from(write_pct) / 100.0;
                (1.0, u, 1.0 + u)
            }
        };
        let fsyncs = match w.durability {
            Durability::Every(n) => writes / f64::from(n),
            _ => 0.0,
        };
        Calls {
            reads,
            writes,
            others: others + fsyncs,
            bytes: (reads + writes) * bs,
            generated: if w.data == Data::Urandom {
                writes * bs
            } else {
                0.0
            },
            chunks_per_write: w.block_size.div_ceil(recordsize.max(1)) as f64,
            dirtied_per_chunk: if w.access.is_sequential() {
                (bs / recordsize.max(1) as f64).min(1.0)
            } else {
                1.0
            },
            handoffs: if w.engine == Engine::PosixAio {
                reads + writes
            } else {
                0.0
            },
        }
    }

    /// Seconds the application's thread waits on other threads for these calls, beyond its
    /// own cycles: POSIX AIO's hand-offs.
    pub(crate) fn wait_s(&self, constants: &Constants) -> f64 {
        self.handoffs * constants.posixaio_handoff_s()
    }

    /// The reference cycles on the application's thread; `overwrites` when its writes land
    /// in records that exist (a rewrite, a random write, a seek's update).
    pub(crate) fn cycles(&self, release: &Release, constants: &Constants, overwrites: bool) -> f64 {
        let era = release.era;
        let write = constants.write_call_cycles(era)
            * if overwrites {
                constants.overwrite_call_factor()
            } else {
                1.0
            };
        let dirty = constants.record_dirty_share();
        let chunk = write * (1.0 - dirty + dirty * self.dirtied_per_chunk);
        self.reads * constants.read_call_cycles(era)
            + self.writes * self.chunks_per_write * chunk
            + self.others * SYSCALL
            + self.bytes * COPY_BYTE
            + self.generated * cpu::urandom_byte(release).unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn the_engine_decides_the_depth_that_reaches_zfs() {
        let r22 = release("2.2");
        let w = |spec: &str| Workload::parse(spec).unwrap();
        let rec = 128 << 10;
        assert_eq!(
            outstanding(&w("fio-randread:qd=32,threads=4"), &r22, rec),
            128
        );
        assert_eq!(
            outstanding(&w("fio-randread:qd=32,engine=psync"), &r22, rec),
            1
        );
        let direct = w("fio-randread:qd=32,engine=libaio,direct=on");
        assert_eq!(outstanding(&direct, &r22, rec), 1);
        let r23 = release("2.3");
        assert_eq!(outstanding(&direct, &r23, rec), 32);
        // A write of part of a record goes through the ARC: io_submit does it at once.
        let small = w("fio-randwrite:qd=32,engine=libaio,direct=on,bs=4K");
        assert_eq!(outstanding(&small, &r23, rec), 1);
        assert_eq!(outstanding(&small, &r23, 4096), 32);
        // FreeBSD ships direct I/O switched off (zfs_dio_enabled = 0).
        assert_eq!(outstanding(&direct, &release("freebsd-15.0"), rec), 1);
        assert_eq!(
            outstanding(&w("fio-randread:qd=32,engine=posixaio"), &r23, rec),
            1
        );
        assert_eq!(outstanding(&w("raw-randread:qd=8"), &r22, rec), 8);
    }

    #[test]
    fn calls_of_each_pattern() {
        let rs = 128 << 10;
        let bonnie = Calls::of_request(&Workload::parse("bonnie-rewrite").unwrap(), rs);
        assert_eq!(
            (bonnie.reads, bonnie.writes, bonnie.others),
            (1.0, 1.0, 1.0)
        );
        assert_eq!(bonnie.bytes, 16384.0);
        let seeks = Workload::parse("bonnie++ -s 1g -f -b @seeks").unwrap();
        let c = Calls::of_request(&seeks, rs);
        assert!((c.writes - 0.1).abs() < 1e-12 && (c.others - 1.2).abs() < 1e-12);
        // A 1 MiB write into 128 KiB records: eight transactions; a 4 KiB one: one.
        let dd = Calls::of_request(&Workload::parse("dd-write").unwrap(), rs);
        assert_eq!((dd.writes, dd.chunks_per_write), (1.0, 8.0));
        assert_eq!(bonnie.chunks_per_write, 1.0);
        // fio's posixaio hands every request to glibc's helper thread; psync makes its own.
        let fio = |engine: &str| {
            let w = Workload::parse(&format!("fio-randwrite:bs=4K,engine={engine}")).unwrap();
            Calls::of_request(&w, rs).handoffs
        };
        assert_eq!((fio("posixaio"), fio("psync")), (1.0, 0.0));
    }

    #[test]
    fn a_write_into_a_record_already_dirty_skips_dbuf_dirty() {
        let rs = 128 << 10;
        let calls = |spec: &str| Calls::of_request(&Workload::parse(spec).unwrap(), rs);
        // bonnie++'s 8 KiB chunks: a sixteenth of a record each; dd's 1 MiB, eight whole ones.
        assert_eq!(calls("bonnie-rewrite").dirtied_per_chunk, 1.0 / 16.0);
        assert_eq!(calls("dd-write").dirtied_per_chunk, 1.0);
        assert_eq!(calls("fio-randwrite:bs=4K").dirtied_per_chunk, 1.0);
        // A one-byte write() (bonnie++'s per-character output) pays the rest of a call.
        let putc = calls("bonnie++ -s 1g @putc");
        let (r, c) = (release("zol-0.6.5"), Constants::priors());
        let d = c.record_dirty_share();
        let want = c.write_call_cycles(r.era) * (1.0 - d + d / 131072.0) + COPY_BYTE;
        assert!((putc.cycles(&r, &c, false) - want).abs() < 1e-6 * want);
    }
}
