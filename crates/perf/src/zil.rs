//! The ZFS intent log (module/zfs/zil.c, zfs_log.c; docs/zfs-internals.md §2): what a
//! synchronous write or an fsync costs. A commit writes one log block (lwb) holding the
//! pending log records to the log device (a separate log vdev, else the pool's own normal
//! vdevs) and flushes its write cache, while the writer waits. A record carries its data
//! (WR_COPIED) unless the data goes straight to its place in the pool first (WR_INDIRECT:
//! logbias=throughput, O_DIRECT where it bypasses the ARC, or with no log device a write of
//! zfs_immediate_write_sz = 32 KiB or more; from OpenZFS 2.4, zil_write_state, such a write
//! committed at once also needs to cover half its record); copied data is written again by
//! the txg.

use crate::release::Release;
use crate::zvol;
use model::dataset::{Logbias, SyncPolicy};
use model::workload::{Durability, Target, Workload};
use model::Dataset;

/// zfs_immediate_write_sz (zil.c): 32 KiB.
const IMMEDIATE_WRITE_SZ: u64 = 32 << 10;
/// ZIL_MIN_BLKSZ (zil.c): the smallest log block, 4 KiB.
const MIN_LWB: f64 = 4096.0;
/// zil_maxblocksize (zil.c): the largest log block, 128 KiB.
const MAX_LWB: f64 = 128.0 * 1024.0;
/// sizeof (lr_write_t): the header of one write's log record, 192 bytes (include/sys/zil.h).
const RECORD_HEADER: f64 = 192.0;

/// What synchronous writing costs per application request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SyncWrites {
    /// Commits (log block writes with a cache flush) per write request.
    pub commits_per_write: f64,
    /// Bytes of each log block.
    pub lwb_bytes: f64,
    /// The data goes to its place in the pool before the commit (WR_INDIRECT).
    pub indirect: bool,
    /// Blocks each write puts in place before its commit, each by its own dmu_sync: every
    /// block the write spans when indirect (zfs_log_write cuts an indirect write into one
    /// record per block), none when its data is copied into the log.
    pub blocks: f64,
    /// Bytes of log records one commit carries (before rounding to a block).
    records_bytes: f64,
}

impl SyncWrites {
    /// Commits whose records fit one log block together: while one lwb is in flight, the
    /// writers that arrive queue their records (zil_commit_waiter), and the next thread to
    /// issue takes them all into the next lwb (zil_commit_writer, zil_get_commit_list), up to
    /// zil_maxblocksize.
    pub(crate) fn most_batched(&self) -> u32 {
        ((MAX_LWB / self.records_bytes).floor() as u32).clamp(1, 64)
    }

    /// The same commits `batch` at a time in one log block: fewer, larger blocks.
    pub(crate) fn batched(&self, batch: u32) -> SyncWrites {
        let records = self.records_bytes * f64::from(batch);
        SyncWrites {
            commits_per_write: self.commits_per_write / f64::from(batch),
            lwb_bytes: (records / MIN_LWB).ceil() * MIN_LWB,
            ..*self
        }
    }
}

/// The ZIL work of `w`'s writes on `dataset` (its records, or a zvol's blocks, of `blocksize`
/// bytes) under `release`, `slog` telling whether the pool has a log device; `None` when
/// nothing of it is synchronous.
pub(crate) fn sync_writes(
    w: &Workload,
    dataset: &Dataset,
    blocksize: u64,
    release: &Release,
    slog: bool,
) -> Option<SyncWrites> {
    let per_commit = match (dataset.sync, w.durability) {
        (SyncPolicy::Disabled, _) => return None,
        (SyncPolicy::Always, _) | (SyncPolicy::Standard, Durability::EachWrite) => 1.0,
        (SyncPolicy::Standard, Durability::Every(n)) => f64::from(n),
        (SyncPolicy::Standard, Durability::None | Durability::AtEnd) => return None,
    };
    if !w.access.writes() {
        return None;
    }
    // Committed at once: each write (O_SYNC, sync=always); fsync every n writes lets the
    // others wait uncommitted.
    let at_once = per_commit == 1.0;
    let zvol = matches!(w.target, Target::Zvol { .. });
    let large = if zvol && !release.zil_half_record {
        zvol::logs_in_place(w.block_size, blocksize)
    } else {
        w.block_size >= IMMEDIATE_WRITE_SZ
            && (!release.zil_half_record || !at_once || 2 * w.block_size >= blocksize)
    };
    // A zvol's O_DIRECT is the block layer's: its bios reach the DMU like any other
    // (zil_write_state's o_direct is B_FALSE for zvols, zvol_log_write of 2.4.4).
    let indirect = dataset.logbias == Logbias::Throughput
        || (!zvol && release.direct_writes(w, blocksize))
        || (!slog && large);
    // zfs_log_write: an indirect write becomes one record per block it spans
    // (len = MIN(blocksize - P2PHASE(off, blocksize), resid)), each with its own dmu_sync.
    let blocks = if indirect {
        w.block_size.div_ceil(blocksize.max(1)).max(1) as f64
    } else {
        0.0
    };
    let carried = if indirect { 0.0 } else { w.block_size as f64 };
    let records = per_commit * (RECORD_HEADER * blocks.max(1.0) + carried);
    Some(SyncWrites {
        commits_per_write: 1.0 / per_commit,
        lwb_bytes: (records / MIN_LWB).ceil() * MIN_LWB,
        indirect,
        blocks,
        records_bytes: records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn copied_or_indirect_by_size_and_log_device() {
        let ds = Dataset::named("tank");
        let w = |spec: &str| Workload::parse(spec).unwrap();
        let r = release("2.3");
        let sync_writes =
            |w: &Workload, ds: &Dataset, slog| sync_writes(w, ds, ds.recordsize, &r, slog);
        let small = sync_writes(&w("fio-randwrite:bs=8K,sync=on"), &ds, false).unwrap();
        assert_eq!((small.commits_per_write, small.indirect), (1.0, false));
        assert_eq!(small.lwb_bytes, 12288.0);
        let big = sync_writes(&w("fio-randwrite:bs=128K,sync=on"), &ds, false).unwrap();
        assert!(big.indirect);
        assert_eq!(big.lwb_bytes, 4096.0);
        let slog = sync_writes(&w("fio-randwrite:bs=128K,sync=on"), &ds, true).unwrap();
        assert!(!slog.indirect);
        let every = sync_writes(&w("fio-randwrite:bs=4K,fsync=8"), &ds, false).unwrap();
        assert_eq!(every.commits_per_write, 0.125);
        assert!(sync_writes(&w("fio-randwrite:bs=4K"), &ds, false).is_none());
        let always = Dataset {
            sync: SyncPolicy::Always,
            ..Dataset::named("tank")
        };
        assert!(sync_writes(&w("fio-randwrite:bs=4K"), &always, false).is_some());
        assert!(sync_writes(&w("fio-randread:bs=4K,sync=on"), &always, false).is_none());
    }

    #[test]
    fn an_indirect_write_logs_and_syncs_each_block_it_spans() {
        let ds = Dataset {
            recordsize: 4096,
            logbias: Logbias::Throughput,
            ..Dataset::named("tank")
        };
        let r = release("0.6.5");
        let sync = |spec: &str| {
            let w = Workload::parse(spec).unwrap();
            sync_writes(&w, &ds, ds.recordsize, &r, false).unwrap()
        };
        // 256 KiB into 4 KiB records: 64 records of 192 bytes, 12,288 bytes in 4 KiB units,
        // and 64 dmu_sync writes.
        let big = sync("fio-randwrite:bs=256K,sync=on");
        assert_eq!((big.blocks, big.lwb_bytes), (64.0, 12288.0));
        // A write within one record: one block and one header.
        let small = sync("fio-randwrite:bs=4K,sync=on");
        assert_eq!((small.blocks, small.lwb_bytes), (1.0, 4096.0));
        // Copied into the log (logbias=latency, a small write): nothing synced in place.
        let copied = Dataset {
            logbias: Logbias::Latency,
            ..ds.clone()
        };
        let w = Workload::parse("fio-randwrite:bs=8K,sync=on").unwrap();
        let copied = sync_writes(&w, &copied, 4096, &r, false).unwrap();
        assert_eq!((copied.indirect, copied.blocks), (false, 0.0));
    }

    #[test]
    fn writers_queued_at_the_log_share_a_log_block_up_to_zil_maxblocksize() {
        let ds = Dataset::named("tank");
        let w = Workload::parse("fio-randwrite:bs=4K,sync=on").unwrap();
        let one = sync_writes(&w, &ds, ds.recordsize, &release("2.3"), true).unwrap();
        // 4,096 + 192 bytes a record: 30 fit in 128 KiB.
        assert_eq!(one.most_batched(), 30);
        let all = one.batched(30);
        assert_eq!(all.lwb_bytes, 131072.0);
        assert!((all.commits_per_write - 1.0 / 30.0).abs() < 1e-12);
        // A 128 KiB write's record fills a block alone.
        let big = Workload::parse("fio-randwrite:bs=128K,sync=on").unwrap();
        let big = sync_writes(&big, &ds, ds.recordsize, &release("2.3"), true).unwrap();
        assert_eq!(big.most_batched(), 1);
    }

    #[test]
    fn from_2_4_a_write_committed_at_once_needs_half_its_record_to_go_indirect() {
        let ds = Dataset::named("tank");
        let w = |spec: &str| Workload::parse(spec).unwrap();
        let indirect = |spec: &str, r: &str| {
            sync_writes(&w(spec), &ds, ds.recordsize, &release(r), false)
                .unwrap()
                .indirect
        };
        // 32 KiB into 128 KiB records: indirect by size alone in 2.3, copied in 2.4.
        assert!(indirect("fio-randwrite:bs=32K,sync=on", "2.3"));
        assert!(!indirect("fio-randwrite:bs=32K,sync=on", "2.4"));
        // 64 KiB is half the record: indirect in both; uncommitted until an fsync, too.
        assert!(indirect("fio-randwrite:bs=64K,sync=on", "2.4"));
        assert!(indirect("fio-randwrite:bs=32K,fsync=4", "2.4"));
        // O_DIRECT writes of whole records go in place from 2.3; a write of part of a
        // record is passed to the ARC and copied into the log like any other.
        assert!(indirect("fio-randwrite:bs=128K,sync=on,direct=on", "2.3"));
        assert!(!indirect("fio-randwrite:bs=4K,sync=on,direct=on", "2.3"));
        assert!(!indirect("fio-randwrite:bs=4K,sync=on,direct=on", "2.2"));
    }

    #[test]
    fn a_zvols_sync_writes_follow_zvol_log_write_before_2_4() {
        let ds = Dataset::named("tank");
        let w = Workload::parse("fio-randwrite:bs=64K,sync=on,volblocksize=16K").unwrap();
        let indirect = |r: &str| {
            sync_writes(&w, &ds, 16 << 10, &release(r), false)
                .unwrap()
                .indirect
        };
        // 64 KiB into 16 KiB volblocks: copied into the log (volblocks of 32 KiB or less)
        // before 2.4; in place from 2.4, as a file's (zil_write_state).
        assert!(!indirect("2.3"));
        assert!(indirect("2.4"));
        let copied = sync_writes(&w, &ds, 16 << 10, &release("2.3"), false).unwrap();
        // One record: 192 bytes of header and the 64 KiB, in a 68 KiB log block.
        assert_eq!(copied.lwb_bytes, 69632.0);
    }
}
