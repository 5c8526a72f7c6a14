//! The application: what its own threads spend per request (the system call into the kernel,
//! VFS and ZFS's per-call work, the copy of its bytes between its buffer and the ARC), how many
//! of its requests reach the file system at once (its I/O engine) (docs/zfs-internals.md §3,
//! §8). How long a write phase takes when the dirty-data buffer absorbs part of it is worked
//! out from the solution, in `figures`.

use crate::constants::Constants;
use crate::cpu::{self, COPY_BYTE, SYSCALL};
use crate::random_device;
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

/// Transactions zfs_write (zfs_vnops.c) takes for one write call of `w`. Before OpenZFS 2.2 a
/// call larger than the record goes in record-sized chunks, each created, assigned, filled and
/// committed as its own transaction. From 2.2 (PR #14964, "Use big transactions for small
/// recordsize writes") only an append of whole records borrows an ARC buffer per record, for
/// records of 128 KiB and more or a call under four records; any other call, a rewrite within
/// the file among them, goes in transactions of up to 32 MiB (DMU_MAX_ACCESS / 2), as a
/// zvol's writes always have (zvol.c zvol_write).
fn transactions_per_write(w: &Workload, release: &Release, recordsize: u64) -> f64 {
    const BIG: u64 = 32 << 20;
    let rs = recordsize.max(1);
    let borrows = w.access == Access::SeqWrite && (rs >= 128 << 10 || w.block_size < 4 * rs);
    let one_per_record = match w.target {
        Target::Zvol { .. } => false,
        _ => !release.zfs.at_least(2, 2) || borrows,
    };
    let chunk = if one_per_record { rs } else { BIG };
    w.block_size.div_ceil(chunk).max(1) as f64
}

/// Records one call of `w` takes anew: into a dbuf for a read, dirtied in the open txg for a
/// write. A call spans every record its bytes touch; a stream whose calls are smaller than
/// the record takes each record once, on the first of its calls into it (the later ones find
/// the dbuf held or the record dirty), so a share of one per call; a random call takes its
/// record anew.
fn records_per_call(w: &Workload, recordsize: u64) -> f64 {
    let rs = recordsize.max(1);
    if w.access.is_sequential() && w.block_size < rs {
        w.block_size as f64 / rs as f64
    } else {
        w.block_size.div_ceil(rs).max(1) as f64
    }
}

/// Reference cycles the application's threads spend on `requests` calls moving `bytes`:
/// each call pays its system call and ZFS's per-call work once, each record it takes anew
/// and each transaction it makes their own work, each byte its copy; a read-write pair (a
/// rewrite, a seek's update) pays both and an lseek between.
pub(crate) struct Calls {
    pub reads: f64,
    pub writes: f64,
    /// Calls that do no I/O: lseek, fsync's entry.
    pub others: f64,
    pub bytes: f64,
    /// Bytes read from the kernel's random device before the writes (`dd if=/dev/urandom`):
    /// what one read gives, short of a block larger than the device's clamp
    /// (`random_device`), the rest being dd's zeros (`conv=sync`).
    pub generated: f64,
    /// Records each call takes anew (`records_per_call`): a read's into its dbufs
    /// (constants.rs, `read_record_cycles`), a write's dirtied (`record_dirty_cycles`).
    pub records_per_call: f64,
    /// Of the records a write call takes, the share its txg does not hold dirty already
    /// (redirty.rs): the others cost no dbuf_dirty pass. One unless the caller knows better.
    pub dirtied_anew: f64,
    /// Transactions each write call takes (`transactions_per_write`).
    pub transactions_per_write: f64,
    /// Requests handed to another thread and waited for: glibc's POSIX AIO makes each call on
    /// a helper thread (constants.rs, `posixaio_handoff_s`).
    pub handoffs: f64,
}

impl Calls {
    /// The calls of one request of `w` on records of `recordsize` bytes under `release`: a
    /// read or a write of `block_size` bytes, in the mix its access pattern gives, with the
    /// lseeks and fsyncs it makes.
    pub(crate) fn of_request(w: &Workload, release: &Release, recordsize: u64) -> Calls {
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
            generated: if matches!(w.data, Data::Urandom { .. }) {
                writes * random_device::bytes_per_read(w.block_size, release) as f64
            } else {
                0.0
            },
            records_per_call: records_per_call(w, recordsize),
            dirtied_anew: 1.0,
            transactions_per_write: transactions_per_write(w, release, recordsize),
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
    /// in records that exist (a rewrite, a random write, a seek's update), which makes each
    /// transaction and dirtied record dearer (`overwrite_call_factor`).
    pub(crate) fn cycles(&self, release: &Release, constants: &Constants, overwrites: bool) -> f64 {
        let era = release.era;
        let factor = if overwrites {
            constants.overwrite_call_factor()
        } else {
            1.0
        };
        let read = constants.read_call_cycles(era)
            + self.records_per_call * constants.read_record_cycles();
        let write = constants.write_call_cycles(era)
            + factor
                * (self.transactions_per_write * constants.write_tx_cycles()
                    + self.records_per_call * self.dirtied_anew * constants.record_dirty_cycles());
        self.reads * read
            + self.writes * write
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
        let (rs, r21) = (128 << 10, release("2.1"));
        let calls = |spec: &str| Calls::of_request(&Workload::parse(spec).unwrap(), &r21, rs);
        let bonnie = calls("bonnie-rewrite");
        assert_eq!(
            (bonnie.reads, bonnie.writes, bonnie.others),
            (1.0, 1.0, 1.0)
        );
        assert_eq!(bonnie.bytes, 16384.0);
        let c = calls("bonnie++ -s 1g -f -b @seeks");
        assert!((c.writes - 0.1).abs() < 1e-12 && (c.others - 1.2).abs() < 1e-12);
        // A 1 MiB write into 128 KiB records: eight transactions; a 4 KiB one: one.
        let dd = calls("dd-write");
        assert_eq!((dd.writes, dd.transactions_per_write), (1.0, 8.0));
        assert_eq!(bonnie.transactions_per_write, 1.0);
        // fio's posixaio hands every request to glibc's helper thread; psync makes its own.
        let fio = |engine: &str| calls(&format!("fio-randwrite:bs=4K,engine={engine}")).handoffs;
        assert_eq!((fio("posixaio"), fio("psync")), (1.0, 0.0));
    }

    /// microuser's `dd if=/dev/urandom bs=64M conv=sync` on ZFS on Linux: each read of the
    /// random device gives 33,554,431 bytes and dd pads the rest of the block with zeros, so
    /// the generator makes half a block; the 16 MiB block is read whole, and from OpenZFS 2.2
    /// (kernels without the clamp) so is the 64 MiB one. The write still carries the block.
    #[test]
    fn a_block_beyond_the_random_devices_clamp_is_half_generated() {
        let (rs, mib) = (128 << 10, 1u64 << 20);
        let calls = |spec: &str, zfs: &str| {
            Calls::of_request(&Workload::parse(spec).unwrap(), &release(zfs), rs)
        };
        let big = "dd if=/dev/urandom of=/six8tb/test.iso bs=67108864 count=8 conv=sync";
        let zol = calls(big, "zol-0.7");
        assert_eq!(
            (zol.generated, zol.bytes),
            (33_554_431.0, (64 * mib) as f64)
        );
        let whole = "dd if=/dev/urandom of=/six8tb/test.iso bs=16777216 count=32 conv=sync";
        assert_eq!(calls(whole, "zol-0.7").generated, (16 * mib) as f64);
        assert_eq!(calls(big, "2.2").generated, (64 * mib) as f64);
        // A preset's urandom is generated per write alike.
        assert_eq!(calls("dd-write:data=urandom", "2.4").generated, mib as f64);
    }

    /// zfs_write's transactions by release (PR #14964, OpenZFS 2.2).
    #[test]
    fn transactions_of_a_write_call() {
        let tx = |spec: &str, zfs: &str, rs: u64| {
            transactions_per_write(&Workload::parse(spec).unwrap(), &release(zfs), rs)
        };
        let k = 1 << 10;
        // pajkastare's 1 MiB random writes into 4 KiB records on 2.1: one per record.
        let random = "fio-randwrite:bs=1M,size=16G";
        assert_eq!(tx(random, "2.1", 4 * k), 256.0);
        // From 2.2 a write within the file is one transaction of up to 32 MiB.
        assert_eq!(tx(random, "2.2", 4 * k), 1.0);
        assert_eq!(tx("fio-randwrite:bs=64M,size=16G", "2.2", 4 * k), 2.0);
        // An append of whole 128 KiB records still borrows a buffer per record...
        assert_eq!(tx("dd-write", "2.2", 128 * k), 8.0);
        // ... and of smaller records only when the call is under four of them.
        assert_eq!(tx("dd-write", "2.2", 32 * k), 1.0);
        assert_eq!(tx("dd-write:bs=64K", "2.2", 32 * k), 2.0);
        assert_eq!(tx("dd-write", "0.8.3", 32 * k), 32.0);
        // A zvol's writes: one transaction up to 32 MiB, on every release.
        let zvol = "fio-randwrite:bs=1M,volblocksize=16K";
        assert_eq!(tx(zvol, "2.1", 16 * k), 1.0);
    }

    #[test]
    fn a_call_takes_each_record_once() {
        let rs = 128 << 10;
        let records = |spec: &str| records_per_call(&Workload::parse(spec).unwrap(), rs);
        // bonnie++'s 8 KiB chunks: a sixteenth of a record each; dd's 1 MiB, eight whole ones.
        assert_eq!(records("bonnie-rewrite"), 1.0 / 16.0);
        assert_eq!(records("dd-write"), 8.0);
        assert_eq!(records("dd-read:bs=512"), 1.0 / 256.0);
        // A random call smaller than the record takes its record anew.
        assert_eq!(records("fio-randwrite:bs=4K"), 1.0);
        assert_eq!(records("fio-randread:bs=192K"), 2.0);
        // A one-byte write() (bonnie++'s per-character output) pays the call, its
        // transaction and a 131,072th of the record's dirtying.
        let putc = Calls::of_request(
            &Workload::parse("bonnie++ -s 1g @putc").unwrap(),
            &release("zol-0.6.5"),
            rs,
        );
        let (r, c) = (release("zol-0.6.5"), Constants::priors());
        let want = c.write_call_cycles(r.era)
            + c.write_tx_cycles()
            + c.record_dirty_cycles() / 131_072.0
            + COPY_BYTE;
        assert!((putc.cycles(&r, &c, false) - want).abs() < 1e-6 * want);
    }

    /// One call into many records pays the call once and each record's and transaction's
    /// part per record: pajkastare's 1 MiB random writes into 4 KiB records on OpenZFS 2.1
    /// (one transaction per record) cost the call once, 256 transactions and 256 records,
    /// where 256 calls of 4 KiB pay the call 256 times; on 2.2 the 1 MiB call takes one
    /// transaction.
    #[test]
    fn a_large_call_pays_the_call_once() {
        let (rs, c) = (4096, Constants::priors());
        let cost = |spec: &str, zfs: &str| {
            let r = release(zfs);
            let w = Workload::parse(spec).unwrap();
            (Calls::of_request(&w, &r, rs).cycles(&r, &c, true), r.era)
        };
        let (big, era) = cost("fio-randwrite:bs=1M,size=16G", "2.1");
        let (small, _) = cost("fio-randwrite:bs=4K,size=4G", "2.1");
        let f = c.overwrite_call_factor();
        let record = f * (c.write_tx_cycles() + c.record_dirty_cycles());
        let copy = 4096.0 * COPY_BYTE;
        assert!((small - (c.write_call_cycles(era) + record + copy)).abs() < 1e-6 * small);
        let want = c.write_call_cycles(era) + 256.0 * (record + copy);
        assert!((big - want).abs() < 1e-6 * big);
        // 255 calls' worth saved: 7,000 cycles each at the priors.
        let saved = 256.0 * small - big;
        assert!((saved - 255.0 * c.write_call_cycles(era)).abs() < 1e-6 * saved);
        let (big22, _) = cost("fio-randwrite:bs=1M,size=16G", "2.2");
        assert!((big - big22 - 255.0 * f * c.write_tx_cycles()).abs() < 1e-6 * big);
        // A read of 1 MiB takes 256 records into dbufs behind one call.
        let r = release("2.1");
        let read = Calls::of_request(&Workload::parse("dd-read").unwrap(), &r, rs);
        let want =
            c.read_call_cycles(era) + 256.0 * c.read_record_cycles() + 1_048_576.0 * COPY_BYTE;
        assert!((read.cycles(&r, &c, false) - want).abs() < 1e-6 * want);
    }

    /// A write into a record its txg holds dirty already skips dbuf_dirty's pass: only the
    /// share dirtied anew pays `record_dirty_cycles`.
    #[test]
    fn a_record_dirty_already_costs_no_dirtying() {
        let (r, c) = (release("2.1"), Constants::priors());
        let w = Workload::parse("fio-randwrite:bs=4K,size=4G").unwrap();
        let mut calls = Calls::of_request(&w, &r, 128 << 10);
        let all = calls.cycles(&r, &c, true);
        calls.dirtied_anew = 0.25;
        let saved = all - calls.cycles(&r, &c, true);
        let want = 0.75 * c.overwrite_call_factor() * c.record_dirty_cycles();
        assert!((saved - want).abs() < 1e-6 * want, "{saved} {want}");
    }
}
