//! The buffer a prefetch read from the disks fills and throws away, OpenZFS 2.1.0 to 2.3.0
//! (docs/zfs-internals.md §3.4).
//!
//! A stream's records come in ahead of their reader: dmu_zfetch issues each through
//! dbuf_issue_final_prefetch -> arc_read with ARC_FLAG_NO_BUF and a completion callback
//! (dbuf_issue_final_prefetch_done, since "dmu_zfetch: fix memory leak", commit 923d730329,
//! first in zfs-2.1.0; 2.0's prefetch passed no callback). The flag is meant to spare the read
//! an ARC buffer, but arc_read's miss path did not copy it into the callback it hangs on the
//! header (only the path joining a read already under way did), so arc_read_done saw a
//! callback without acb_nobuf and made a buffer for it: arc_buf_alloc_impl -> arc_buf_fill,
//! the record copied out of the header's scatter list (or decompressed, or decrypted), which
//! the callback destroyed at once (arc_buf_destroy). The reader's own arc_read then finds the
//! header and fills its dbuf's buffer again (abd.rs). "Avoid ARC buffer transfrom operations in
//! prefetch" (commit 67f0469f70 on the 2.3 branch, 21205f6488 on master, 2025-02-01; #17013)
//! sets acb_nobuf on the miss path too: first in zfs-2.3.1. zfs-2.2.9's arc.c still lacks it.
//!
//! So every record a stream reads from the disks on those releases is filled twice: once in
//! the read's completion (the zio's interrupt taskq), thrown away, and once for its reader.
//! The discarded buffer leaves the ARC with its owner: the eviction thread never sees it.

use crate::release::Release;

/// The first release whose prefetch reads take no buffer, and the first whose callback asked
/// for none.
const FIXED_IN: (u8, u8, u8) = (2, 3, 1);
const CALLBACK_FROM: (u8, u8, u8) = (2, 1, 0);

/// Whether a record prefetched from the disks is filled into a buffer nobody keeps.
pub(crate) fn discards(release: &Release) -> bool {
    release
        .zfs
        .openzfs_version()
        .is_some_and(|v| (CALLBACK_FROM..FIXED_IN).contains(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    #[test]
    fn from_2_1_0_to_2_3_0_a_prefetch_fills_a_buffer_it_throws_away() {
        assert!(!discards(&release("2.0")));
        assert!(discards(&release("2.1")));
        assert!(discards(&release("2.2.9")));
        assert!(discards(&release("2.3")));
        assert!(!discards(&release("2.3.1")));
        assert!(!discards(&release("2.4")));
        assert!(!discards(&release("0.8")));
        // FreeBSD 13.1 runs OpenZFS 2.1's module/zfs; 12.x its own older tree.
        assert!(discards(&release("freebsd-13.1")));
        assert!(!discards(&release("freebsd-12.2")));
    }
}
