//! A zvol as the workload's target (zvol.c, zvol_os.c): a block device whose data is one
//! object of blocks of `volblocksize` bytes, read and written through the DMU
//! (dmu_read_uio_dnode, dmu_write_uio_dnode) under a range lock, as a file's records are,
//! without the ZPL's files and znodes. Everything past the block size (compression, the ARC,
//! the txg, the ZIL for synchronous writes, prefetch) is the pool's, as for a file.
//!
//! The block size is the zvol's: given (`volblocksize=`), or the release's default,
//! ZVOL_DEFAULT_BLOCKSIZE (include/sys/fs/zfs.h): 16 KiB from OpenZFS 2.2, 8 KiB before.
//! The per-call cost is the file path's (app.rs): the zvol's own (a bio through the zvol
//! taskq on Linux) is not measured apart, and the prediction says so.

use model::system::ZfsRelease;
use model::workload::{Target, Workload};
use model::Dataset;

/// The block size a job's records have on `ds`: the workload's zvol's, or the dataset's
/// when it is a volume (its `volblocksize`: any workload on it is on the zvol), or the
/// dataset's `recordsize`.
pub(crate) fn block_size(w: &Workload, zfs: &ZfsRelease, ds: &Dataset) -> u64 {
    match (w.target, ds.volblocksize) {
        (
            Target::Zvol {
                volblocksize: Some(v),
            },
            _,
        ) => v,
        (Target::RawDisk { .. }, _) => ds.recordsize,
        (_, Some(v)) => v,
        (Target::Zvol { volblocksize: None }, None) => default_volblocksize(zfs),
        (Target::Pool, None) => ds.recordsize,
    }
}

/// ZVOL_DEFAULT_BLOCKSIZE of the release: 16 KiB from 2.2 (zfs.h of 2.2.9 and 2.4.4), 8 KiB
/// before.
fn default_volblocksize(zfs: &ZfsRelease) -> u64 {
    if zfs.at_least(2, 2) {
        16 << 10
    } else {
        8 << 10
    }
}

/// zvol_immediate_write_sz (zvol.c before OpenZFS 2.4): 32 KiB.
const IMMEDIATE_WRITE_SZ: u64 = 32 << 10;

/// Whether a synchronous zvol write of `size` bytes into blocks of `volblocksize` goes to its
/// place in the pool first (WR_INDIRECT) rather than into the log block (WR_COPIED) on a pool
/// without a log device, before OpenZFS 2.4 (zvol_log_write, zvol.c of 2.2.9): only a write
/// covering a whole block, of blocks larger than zvol_immediate_write_sz. So the default 8 and
/// 16 KiB volblocks copy every synchronous write into the log. From 2.4 zvols and files share
/// zil_write_state (zil.rs).
pub(crate) fn logs_in_place(size: u64, volblocksize: u64) -> bool {
    size >= volblocksize && volblocksize > IMMEDIATE_WRITE_SZ
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zvols_blocks_are_its_volblocksize() {
        let fio = "fio --name=z --filename=/dev/zvol/tank/vol --rw=randread --bs=4k";
        let w = Workload::parse(fio).unwrap();
        assert_eq!(w.target, Target::Zvol { volblocksize: None });
        let z22: ZfsRelease = "2.2".parse().unwrap();
        let z21: ZfsRelease = "2.1".parse().unwrap();
        let fs = Dataset::named("tank");
        assert_eq!(block_size(&w, &z22, &fs), 16384);
        assert_eq!(block_size(&w, &z21, &fs), 8192);
        let given = Workload::parse("fio-randread:bs=4K,volblocksize=64K").unwrap();
        assert_eq!(block_size(&given, &z21, &fs), 65536);
        let file = Workload::parse("fio-randread:bs=4K").unwrap();
        assert_eq!(block_size(&file, &z22, &fs), 131072);
        // A system file's volume: its volblocksize, whatever the workload names.
        let volume = Dataset {
            volblocksize: Some(32 << 10),
            ..Dataset::named("tank/vol")
        };
        assert_eq!(block_size(&file, &z22, &volume), 32768);
        assert_eq!(block_size(&w, &z22, &volume), 32768);
        let dd = Workload::parse("dd if=/dev/zero of=/dev/zd0 bs=1M count=1000").unwrap();
        assert_eq!(dd.target, Target::Zvol { volblocksize: None });
        assert!(Workload::parse("fio-randread:volblocksize=3K").is_err());
        assert!(Workload::parse("raw-read:volblocksize=16K").is_err());
    }

    #[test]
    fn a_zvols_sync_writes_go_in_place_only_for_whole_blocks_over_32k() {
        // The default volblocks copy even 1 MiB writes into the log; a file's 32 KiB write
        // would go in place (zfs_log_write's size rule).
        assert!(!logs_in_place(1 << 20, 16 << 10));
        assert!(!logs_in_place(32 << 10, 32 << 10));
        assert!(logs_in_place(64 << 10, 64 << 10));
        assert!(!logs_in_place(32 << 10, 64 << 10));
    }
}
