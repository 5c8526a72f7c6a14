//! Which lz4 decoder a release runs, and what it costs per byte of a compressed record.
//!
//! ZFS on Linux and OpenZFS to 2.1 carry the lz4 of 2013 (module/zfs/lz4.c, "Copyright (C)
//! 2011-2013, Yann Collet"): LZ4_uncompress_unknownOutputSize copies every literal run and
//! every match eight bytes a step (LZ4_WILDCOPY), a match nearer than eight bytes (a run of
//! zeros, a short pattern) through the bytes it has just written, so each step's load waits on
//! the step before's store. OpenZFS 2.2 took lz4 1.9.3's decoder (commit d6c1bbdd, pull
//! request 12805), which widens such a match into a pattern once and decodes runs at memory
//! speed (`cpu::compress_byte`'s rates). FreeBSD before 13 and illumos carry the same 2013
//! code (its origin).
//!
//! The 2013 decoder's one published rate is lz4 r101's on its README's reference system,
//! 1,820 MB/s on a Core i5-3340M at 2.7 GHz (lz4 README of r116 to r127), an Ivy Bridge
//! core of the model's reference generation: 2.7e9 / 1.82e9 = 1.48 cycles a byte. No figure
//! splits it by content, so every byte of a record it decodes is taken at that rate.

use crate::release::Release;
use model::dataset::Compression;

/// Reference cycles per byte of a record the 2013 decoder restores (README of lz4 r116:
/// r101 decodes 1,820 MB/s on a 2.7 GHz Core i5-3340M).
const DECODE_2013_BYTE: f64 = 2.7e9 / 1.82e9;

/// Whether `release` decodes lz4 with the decoder of 2013: every line before OpenZFS 2.2.
fn decodes_with_2013_lz4(release: &Release) -> bool {
    release.zfs.openzfs_line() < (2, 2)
}

/// Reference cycles per byte of a record of `recordsize` bytes stored in `psize` bytes to
/// decompress with `algorithm` on `release`, where `modern` is the rate of lz4 1.9.3's decoder
/// (or of the other algorithms) for the record's content. A record stored uncompressed
/// (`psize` not below `recordsize`: lz4 gave up) or a hole (0) decodes nothing.
pub(crate) fn decode_byte(
    algorithm: Compression,
    release: &Release,
    recordsize: u64,
    psize: u64,
    modern: f64,
) -> f64 {
    let compressed = psize > 0 && psize < recordsize;
    match algorithm {
        Compression::Lz4 if compressed && decodes_with_2013_lz4(release) => DECODE_2013_BYTE,
        _ => modern,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::release;

    const REC: u64 = 1 << 20;

    #[test]
    fn the_2013_decoder_runs_at_its_readme_rate_until_openzfs_2_2() {
        // 2.7 GHz / 1,820 MB/s = 1.4835 cycles a byte, whatever the record holds.
        let old = decode_byte(Compression::Lz4, &release("2.1"), REC, 75 << 10, 0.465);
        assert!((old - 1.4835).abs() < 1e-4, "{old}");
        assert_eq!(
            decode_byte(Compression::Lz4, &release("0.7"), REC, REC / 2, 1.0),
            old
        );
        assert_eq!(
            decode_byte(
                Compression::Lz4,
                &release("freebsd-12.2"),
                REC,
                REC / 2,
                1.0
            ),
            old
        );
        // OpenZFS 2.2 decodes with lz4 1.9.3: the content's own rate stands.
        assert_eq!(
            decode_byte(Compression::Lz4, &release("2.2"), REC, 75 << 10, 0.465),
            0.465
        );
    }

    #[test]
    fn records_lz4_stored_whole_and_holes_decode_nothing() {
        let r = release("2.1");
        assert_eq!(decode_byte(Compression::Lz4, &r, REC, REC, 0.0), 0.0);
        assert_eq!(decode_byte(Compression::Lz4, &r, REC, 0, 0.0), 0.0);
        // Other algorithms keep their own rates.
        assert_eq!(
            decode_byte(Compression::Zstd { level: 3 }, &r, REC, REC / 2, 4.0),
            4.0
        );
    }
}
