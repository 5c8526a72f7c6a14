//! The application's copy of a record its own thread has just filled (docs/zfs-internals.md
//! §3.4). A stream's reader takes each record prefetch brought in through `arc_read`'s hit
//! path, which copies the ARC's scatter list into the dbuf's linear buffer on the reader's
//! thread (`arc_buf_fill` -> `abd_copy_to_buf`, `abd.rs`); `dmu_read_uio_dnode` then copies
//! that buffer to the caller. The second copy's source is what the first has just written:
//! its lines sit in the core's L2 and L3, not in memory, so it neither reads memory nor waits
//! on it, and costs the thread a share of a copy from memory (a fitted constant: no readable
//! per-core figure for a copy out of the caches was found). A random read's fill runs in the
//! read's completion on another thread (`arc_read_done`), so its copy is charged in full.

use crate::cpu::COPY_BYTE;

/// Bytes per job the application copies out of buffers its own thread has just filled: a
/// stream's reads of the `filled` bytes, at most the `user_read` bytes it copies.
pub(crate) fn reused_bytes(filled: f64, user_read: f64, seq: bool) -> f64 {
    if seq {
        filled.min(user_read).max(0.0)
    } else {
        0.0
    }
}

/// Reference cycles the copy of `reused` bytes saves against a copy from memory, the copy
/// out of the caches costing `cached_share` of one.
pub(crate) fn saved_cycles(reused: f64, cached_share: f64) -> f64 {
    reused * COPY_BYTE * (1.0 - cached_share)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_copies_what_its_thread_filled_from_the_caches() {
        let mib = 1_048_576.0;
        // One 1 MiB record filled and copied whole: all of it reused.
        assert_eq!(reused_bytes(mib, mib, true), mib);
        // A record the dbuf cache kept (no fill) reuses nothing; a fill larger than the
        // caller's copy (a mix's read share of a record) reuses the copy only.
        assert_eq!(reused_bytes(0.0, mib, true), 0.0);
        assert_eq!(reused_bytes(mib, mib / 2.0, true), mib / 2.0);
        // A random read's fill ran in the completion, on another thread.
        assert_eq!(reused_bytes(mib, mib, false), 0.0);
        // A copy from the caches at 40% of one from memory saves 0.3 cycles a byte.
        assert!((saved_cycles(mib, 0.4) - 0.3 * mib).abs() < 1e-6);
        assert_eq!(saved_cycles(mib, 1.0), 0.0);
    }
}
