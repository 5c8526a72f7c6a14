//! What compression leaves of a record (module/zfs/zio_compress.c zio_compress_data,
//! zio.c zio_write_compress): a record of zeros becomes a hole when the dataset compresses; a
//! compressed record is kept only if it saves at least an eighth (d_len = s_len - s_len / 8)
//! and then rounds up to whole sectors; with compression off every record is written whole.

use model::dataset::Compression;
use model::workload::Data;

/// Bytes a record of `record` bytes of `data` occupies on disk before parity (psize), with
/// `algorithm` (already resolved from the dataset's property) and sectors of `sector` bytes;
/// `ratio` is the dataset's own data's compressibility, for incompressible benchmark data
/// the 1.0 it has.
pub(crate) fn psize(
    record: u64,
    data: Data,
    ratio: f64,
    algorithm: Compression,
    sector: u64,
) -> u64 {
    if matches!(algorithm, Compression::Off | Compression::Default) {
        return record;
    }
    let compressed = match data {
        Data::Zeros => return 0,
        // A repeated pattern compresses to a few hundred bytes: one sector.
        Data::Pattern => 1.0,
        Data::Random => record as f64 / ratio.max(1.0),
        Data::Urandom { .. } => record as f64,
        Data::Compressible { percent } => record as f64 * (1.0 - f64::from(percent) / 100.0),
        // The zeros between the written blocks compress away; the blocks do not.
        Data::Sparse { fill_pct } => record as f64 * f64::from(fill_pct) / 100.0,
    };
    let rounded = (compressed.ceil() as u64).div_ceil(sector) * sector;
    if rounded <= record - record / 8 {
        rounded.max(sector)
    } else {
        record
    }
}

/// Whether `w` writes zeros to a compressing dataset, so that every record becomes a hole
/// (zio_write_compress): the figure is then the application's pace, the disks see no data.
pub(crate) fn writes_holes(
    system: &model::System,
    w: &model::Workload,
    release: &crate::release::Release,
) -> bool {
    let Some(ds) = system.pool.datasets.first() else {
        return false;
    };
    let algorithm = crate::cpu::algorithm(ds.compression, release);
    let zeros = w.data == Data::Zeros && w.access.writes();
    zeros
        && !matches!(w.target, model::workload::Target::RawDisk { .. })
        && psize(4096, w.data, 1.0, algorithm, 512) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #15: dd's zeros on a compressing dataset gave 5-6 GB/s from a few hard disks with
    /// nothing on screen saying why.
    #[test]
    fn zeros_say_they_never_reached_the_disks() {
        let s = model::system_file::default_system();
        let sentence = |w: &str| {
            crate::predict(&s, &model::Workload::parse(w).unwrap())
                .unwrap()
                .bottleneck
                .sentence
        };
        assert!(sentence("dd-write").ends_with("; the data are zeros and the dataset compresses: every record became a hole, so no data reached the disks (this is not the pool's write speed: see fio-write)"));
        assert!(!sentence("fio-write").contains("hole"));
        assert!(!sentence("dd-read").contains("hole"));
    }

    #[test]
    fn compression_keeps_what_saves_an_eighth() {
        let rs = 128 << 10;
        assert_eq!(psize(rs, Data::Zeros, 1.0, Compression::Off, 4096), rs);
        assert_eq!(psize(rs, Data::Zeros, 1.0, Compression::Lz4, 4096), 0);
        assert_eq!(psize(rs, Data::Pattern, 1.0, Compression::Lz4, 4096), 4096);
        assert_eq!(psize(rs, Data::Random, 1.0, Compression::Lz4, 4096), rs);
        // Half the size: 64 KiB. A ratio of 1.1 saves less than an eighth: stored whole.
        assert_eq!(
            psize(rs, Data::Random, 2.0, Compression::Lz4, 4096),
            64 << 10
        );
        assert_eq!(psize(rs, Data::Random, 1.1, Compression::Lz4, 4096), rs);
        // The kernel's random bytes do not compress, whatever the dataset's own data does.
        assert_eq!(
            psize(
                rs,
                Data::Urandom { padded: false },
                2.0,
                Compression::Lz4,
                4096
            ),
            rs
        );
        let half = Data::Compressible { percent: 50 };
        assert_eq!(
            psize(rs, half, 1.0, Compression::Zstd { level: 3 }, 512),
            64 << 10
        );
        // A record an eighth written: 16 KiB of blocks, the rest holes; uncompressed whole.
        let sparse = Data::Sparse { fill_pct: 12 };
        assert_eq!(psize(rs, sparse, 1.0, Compression::Lz4, 4096), 16 << 10);
        assert_eq!(psize(rs, sparse, 1.0, Compression::Off, 4096), rs);
    }
}
