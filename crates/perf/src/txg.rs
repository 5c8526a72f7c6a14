//! The transaction group's writes (docs/zfs-internals.md §2): the txg turns every dirty
//! record, random or sequential, into a large sequential write to free space (copy on write,
//! aggregated up to the release's limit), adds the metadata that points to the records, and
//! ends with its commit: flushes and the uberblock at both ends of every disk it wrote
//! (vdev_config_sync), time a hard disk's head spends away from the data once per txg. What
//! else keeps a hard disk's txg writes below its media rate is a fitted share. When a stream
//! reads and the txg writes on the same disks (a rewrite), the heads go back and forth between
//! the two.

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

/// Seconds a hard disk spends once per txg committing it instead of writing data
/// (spa_sync -> vdev_config_sync, vdev_label.c of OpenZFS 2.2.9): a flush of every vdev the
/// txg wrote (zio_flush), the uberblock written into all four of the leaf's labels, two in its
/// first 512 KiB and two in its last (vdev_uberblock_sync, vdev_label_offset), then a flush of
/// those. The head goes from the data (an empty pool's outer `span`) to the front labels,
/// across the whole stroke to the back ones and across again to the data, waiting half a turn
/// for each write; each flush is one command. The labels' configuration is rewritten only when
/// it changed (spa_config_dirty_list), not per txg.
pub(crate) fn commit_s(t: &DiskTiming, span: f64) -> f64 {
    let half_turn = t.revolution_s() / 2.0;
    2.0 * t.overhead_s() + t.seek_s(span, true) + 2.0 * t.stroke_seek_s(true) + 3.0 * half_turn
}

/// Sync passes every txg that writes data takes at least: pass 1 writes the records and their
/// metadata, and its allocations dirty the metaslabs' space maps, which vdev_sync writes into
/// the MOS; the MOS being dirty, spa_sync runs pass 2 (its loop `while
/// (dmu_objset_is_dirty(mos, txg))`), which rewrites those blocks in place
/// (zfs_sync_pass_rewrite 2). Each pass waits for its writes before the next.
const SYNC_PASSES: f64 = 2.0;

/// Whether the release places a metadata block's ditto copy on the same top-level vdev far from
/// the others: metaslab_alloc_dva asks at least vdev_asize >> ditto_same_vdev_distance_shift (3),
/// an eighth of the vdev, to ZFS on Linux 0.7 and the illumos and FreeBSD code of its line
/// (metaslab.c of 0.6.0 to 0.7.13); from 0.8 any other metaslab will do (metaslab_is_unique).
pub(crate) fn ditto_far(line: (u8, u8)) -> bool {
    line <= (0, 7)
}

/// Seconds a hard disk's head spends per txg on the far ditto copies of a one-vdev pool's
/// metadata (`ditto_far`): in an empty pool the metaslab found is empty, for which
/// metaslab_group_alloc asks half the distance more, so the dataset's indirect blocks (two
/// copies) have their second 3/16 of the vdev from the data and the pool's own metadata (the
/// MOS, three copies) its third 3/16 further. In each sync pass the head goes out to both
/// regions and back, half a turn at each.
pub(crate) fn far_copies_s(t: &DiskTiming) -> f64 {
    let seek = |distance: f64| {
        let p = t.positioning(distance, true);
        p.track_s + p.sqrt_s
    };
    let half_turn = t.revolution_s() / 2.0;
    SYNC_PASSES * (2.0 * seek(3.0 / 16.0) + seek(6.0 / 16.0) + 2.0 * half_turn)
}

/// Share of a hard disk's txg time spent writing data, when it writes `leaf_bytes` of each
/// txg at `rate` B/s and the commit takes `commit_s`: a txg of a writer faster than the pool
/// holds what the write throttle lets the application run ahead
/// (`Release::write_buffer_bytes`), however long the disks take to write it. zfs_txg_timeout
/// (5 s) bounds only how long an idle sync thread waits: txg_sync_thread (txg.c of 2.2.9)
/// starts the next sync at once when the last one took longer, and the writes that came in
/// meanwhile (the dirty data dbuf_write_done gives back as each write lands) make that txg.
pub(crate) fn data_share(leaf_bytes: f64, rate: f64, commit_s: f64) -> f64 {
    let data_s = leaf_bytes / rate;
    data_s / (data_s + commit_s)
}

/// Share of a leaf's media rate the txg's writes reach beyond the commit: the fitted share on
/// hard disks, all of it on solid state (which has no head to move).
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

    #[test]
    fn the_commit_moves_the_head_to_both_ends() {
        // 7200 rpm, 8.5 ms average seek, 1 ms track to track: the stroke is
        // 1 + 7.5 x 15/8 = 15.0625 ms; over the outer tenth, 1 + 7.5 x sqrt(0.1) (the mean of
        // sqrt(d) between two uniform points is 8/15 of the longest, leaf/ncq.rs).
        let mut m = crate::leaf::tests::hdd(200.0, 100.0, 7200);
        m.avg_seek_read_ms = Some(8.5);
        m.track_to_track_ms = Some(1.0);
        let t = DiskTiming::new(&m, 0.1e-3);
        let span_seek = 1e-3 + 7.5e-3 * 0.1f64.sqrt();
        let want = 2.0 * 0.1e-3 + span_seek + 2.0 * 15.0625e-3 + 3.0 * (60.0 / 7200.0) / 2.0;
        assert!((commit_s(&t, 0.1) - want).abs() < 1e-12);
        // 128 MiB txgs (1 GiB of RAM before 2013) on 7 disks of a raidz1, 80 MB/s each:
        // 22.4 MB per disk, 0.28 s of data against a ~50 ms commit.
        let leaf = 128.0 * 1048576.0 / 6.0;
        let share = data_share(leaf, 80e6, want);
        assert!((share - (leaf / 80e6) / (leaf / 80e6 + want)).abs() < 1e-12);
        assert!(share > 0.84 && share < 0.86, "{share}");
        // The far copies: twice out 3/16 and 3/16 more, back 6/16, half a turn at each end:
        // 2 x (2 x (1 + 14.0625 sqrt(3/16)) + (1 + 14.0625 sqrt(6/16)) + 8.33) ms = 64.2 ms.
        let far = 2.0
            * (2.0 * (1e-3 + 14.0625e-3 * (3.0f64 / 16.0).sqrt())
                + (1e-3 + 14.0625e-3 * (6.0f64 / 16.0).sqrt())
                + 60.0 / 7200.0);
        assert!((far_copies_s(&t) - far).abs() < 1e-12);
        assert!((far - 64.2e-3).abs() < 0.1e-3, "{far}");
        assert!(ditto_far((0, 7)) && !ditto_far((0, 8)));
        // A txg the throttle lets grow past zfs_txg_timeout's 5 s of writes is synced whole:
        // 2.4 GB (60% of a 4 GiB zfs_dirty_data_max) on one 80 MB/s disk, 30 s a txg.
        assert!((data_share(2.4e9, 80e6, 0.05) - 30.0 / 30.05).abs() < 1e-12);
    }
}
