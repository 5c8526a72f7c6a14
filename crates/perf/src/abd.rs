//! The ARC's data buffers (ABD, abd.c) and the copy they cost a record read from the disks
//! (docs/zfs-internals.md §3).
//!
//! Since ZFS on Linux 0.7 a block read from the disks lands in the header's scatter list of
//! pages (abd_alloc: scatter from zfs_abd_scatter_min_size, 1,536 bytes on Linux, a page and
//! one byte on FreeBSD; abd_os.c of 2.2.9 and 2.4.4), while a dbuf's user needs one linear
//! buffer. arc_buf_alloc_impl lets the buffer share the header's data only when that data is
//! linear, so every uncompressed record read from the disks is copied into a buffer of its own
//! (arc_buf_fill -> abd_copy_to_buf) before the application's copy from it: one more read and
//! write of each byte, on the thread that takes the buffer (the reader, for a record prefetch
//! brought in). A compressed record is decompressed into the buffer instead (compression's
//! cost).
//!
//! What the ARC holds is a scatter list too: a written record's header gets a scatter copy of
//! the dbuf's data rather than sharing it whenever scatter lists are allowed (arc_write_ready:
//! "if they're allowed then we allocate one and copy the data into it"), so a record taken
//! from the ARC into a new dbuf is copied as one read from the disks is. Only the dbuf cache
//! spares it: the dbufs last released, up to 1/32 of the ARC's target (dbuf.c
//! dbuf_cache_target_bytes, dbuf_cache_shift = 5), keep their buffers.
//!
//! An encrypted record the run wrote is held by its header in its encrypted form only
//! (arc_write_ready copies the zio's data into b_rabd), so the first read of it from the ARC
//! decrypts it into the header (arc_fill_hdr_crypt -> arc_hdr_decrypt) before the copy: a
//! pass reading back what the run wrote pays the cipher on every record, in the ARC or not,
//! and so does a write of part of a record the run wrote, which reads the record first
//! (dbuf_will_dirty -> dbuf_read) and, its dbuf gone from the dbuf cache, takes it from the
//! ARC decrypted and decompressed on the writer's thread.

use crate::release::Release;
use model::release::Platform;

/// The smallest buffer the release allocates as a scatter list, where it has them: ZFS on
/// Linux from 0.7 (1,536 bytes, zfs_abd_scatter_min_size), OpenZFS 2 on FreeBSD (a page and
/// one byte). illumos and FreeBSD's own tree before 13 are taken as linear (not checked).
pub(crate) fn scatter_min(release: &Release) -> Option<u64> {
    let line = release.zfs.openzfs_line();
    match release.platform {
        Platform::Linux if line >= (0, 7) => Some(1536),
        Platform::FreeBsd if line >= (2, 0) => Some(4097),
        _ => None,
    }
}

/// Bytes copied into a dbuf's buffer per byte of a record of `recordsize` bytes read from the
/// disks that occupies `psize` bytes there: 1 for an uncompressed record in a scatter list, 0
/// for a compressed one (decompressed into the buffer) or a linear one (shared).
pub(crate) fn fill_copies(release: &Release, recordsize: u64, psize: u64) -> f64 {
    match scatter_min(release) {
        Some(min) if psize >= recordsize && recordsize >= min => 1.0,
        _ => 0.0,
    }
}

/// Share of the record reads from the ARC that take a new dbuf, and so a new buffer, for a
/// workload over `data` bytes (unknown: all of them) with an ARC of `arc_bytes`: a scan finds
/// none of the dbuf cache's unless the whole data set fits it (the cache releases the oldest
/// first); random reads find its share of the data set.
pub(crate) fn new_buffer_share(arc_bytes: f64, data: Option<u64>, scan: bool) -> f64 {
    let Some(data) = data else {
        return 1.0;
    };
    let kept = (arc_bytes / 32.0) / data.max(1) as f64;
    match (scan, kept >= 1.0) {
        (_, true) => 0.0,
        (true, false) => 1.0,
        (false, false) => 1.0 - kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn scatter_lists_by_release_and_size() {
        let rec = 128 << 10;
        assert_eq!(fill_copies(&release("2.2"), rec, rec), 1.0);
        assert_eq!(fill_copies(&release("0.7"), rec, rec), 1.0);
        assert_eq!(fill_copies(&release("0.6.5"), rec, rec), 0.0);
        // Compressed on disk: decompressed into the buffer, not copied.
        assert_eq!(fill_copies(&release("2.2"), rec, 64 << 10), 0.0);
        // 1,536 bytes is a scatter list on Linux; 1 KiB is linear.
        assert_eq!(fill_copies(&release("2.2"), 1536, 1536), 1.0);
        assert_eq!(fill_copies(&release("2.2"), 1024, 1024), 0.0);
        // FreeBSD 13 runs OpenZFS 2.0: a 4 KiB record is linear, 8 KiB a scatter list.
        assert_eq!(fill_copies(&release("freebsd-13.1"), 4096, 4096), 0.0);
        assert_eq!(fill_copies(&release("freebsd-13.1"), 8192, 8192), 1.0);
        assert_eq!(fill_copies(&release("freebsd-12.2"), rec, rec), 0.0);
        assert_eq!(fill_copies(&release("solaris-2008"), rec, rec), 0.0);
    }

    #[test]
    fn the_dbuf_cache_keeps_a_32nd_of_the_arc() {
        let gib = 1u64 << 30;
        let arc = 32.0 * gib as f64;
        // A 1 GiB data set fits the 1 GiB dbuf cache: no new buffers, scanned or not.
        assert_eq!(new_buffer_share(arc, Some(gib), true), 0.0);
        assert_eq!(new_buffer_share(arc, Some(gib), false), 0.0);
        // 4 GiB: a scan finds nothing kept; random reads a quarter.
        assert_eq!(new_buffer_share(arc, Some(4 * gib), true), 1.0);
        assert_eq!(new_buffer_share(arc, Some(4 * gib), false), 0.75);
        assert_eq!(new_buffer_share(arc, None, false), 1.0);
    }
}
