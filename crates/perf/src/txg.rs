//! The transaction group's writes (docs/zfs-internals.md §2): the txg turns every dirty
//! record, random or sequential, into a large sequential write to free space (copy on write,
//! aggregated up to the release's limit), adds the metadata that points to the records, and on
//! hard disks reaches a share of the media rate (a fitted constant: indirect blocks and their
//! ditto copies, space maps and uberblocks with cache flushes around them interrupt the data).
//! When a stream reads and the txg writes on the same disks (a rewrite), the heads go back and
//! forth between the two.

use crate::constants::Constants;
use crate::leaf::DiskTiming;

/// A block pointer is 128 bytes (include/sys/spa.h, blkptr_t).
const BLKPTR_BYTES: f64 = 128.0;
/// Metadata is stored twice (ditto blocks: copies = 2 for indirect blocks, dmu.c).
const METADATA_COPIES: f64 = 2.0;

/// Metadata bytes written per data byte of a stream: each block adds a block pointer to an
/// indirect block, stored twice; higher levels add 1/1024 of that and are left out.
pub(crate) fn metadata_per_data_byte(recordsize: u64) -> f64 {
    BLKPTR_BYTES * METADATA_COPIES / recordsize as f64
}

/// Share of a leaf's media rate the txg's writes reach: the fitted share on hard disks, all of
/// it on solid state (which has no head to move).
pub(crate) fn write_efficiency(rotating: bool, constants: &Constants) -> f64 {
    if rotating {
        constants.hdd_write_efficiency()
    } else {
        1.0
    }
}

/// Seconds per job (a record of the stream) a hard disk spends moving its head between a
/// rewrite's reads and the txg's writes, when a job takes it `read_s` reading and `write_s`
/// writing. The stream has few records' reads in flight (a fitted constant, its prior one:
/// each record is read before it is rewritten), spread over all the pool's disks, so a disk
/// turns to them `turns` times per record whatever the pool's width, and back to the writes
/// if any are pending: each change is a seek over the data's span and half a turn. Writes are
/// pending the share of the time the disk spends writing; at the disk's own pace a job then
/// takes T with T = read + write + k c (write / T), k the turns and c each one's cost:
/// T = (r + w + sqrt((r + w)^2 + 4 k c w)) / 2. A wide pool's disks write little per job, so
/// its streams turn less often than a narrow pool's.
pub(crate) fn switching_s(t: &DiskTiming, span: f64, turns: f64, read_s: f64, write_s: f64) -> f64 {
    let turn = t.seek_s(span, true) + t.revolution_s() / 2.0;
    let kc = turns * turn;
    let base = read_s + write_s;
    let total = (base + (base * base + 4.0 * kc * write_s).sqrt()) / 2.0;
    total - base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_and_efficiency() {
        // 256 bytes of block pointers per 128 KiB record.
        assert!((metadata_per_data_byte(128 << 10) - 256.0 / 131072.0).abs() < 1e-15);
        let c = Constants::priors();
        assert_eq!(write_efficiency(false, &c), 1.0);
        assert_eq!(write_efficiency(true, &c), c.hdd_write_efficiency());
    }
}
