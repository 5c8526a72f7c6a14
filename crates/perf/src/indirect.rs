//! The level-1 indirect blocks a txg's random writes dirty. Dirtying a record dirties the
//! indirect block that points to it (dbuf_dirty -> dbuf_dirty of the parent, dbuf.c), and the
//! txg writes every dirty indirect block whole. An indirect block is 1 << DN_MAX_INDBLKSHIFT
//! bytes for files (zfs_default_ibs, dnode.c) and for zvols (zvol_create_cb claims the object
//! with ibs 0, which dnode_allocate turns into the same default): 128 KiB from OpenZFS 7104
//! ("increase indirect block size", 2016; ZFS on Linux 0.7), 16 KiB before (its pull request:
//! "The current default indirect block size is 16KB"), each holding one block pointer of 128
//! bytes per 128 bytes; metadata is stored with one copy more than data (dmu_write_policy,
//! redundant_metadata=all). A stream's records share their indirect blocks (txg.rs); records
//! written at random over an object far larger than a txg's writes each dirty their own.
//! Indirect blocks are compressed (dmu_write_policy's ZIO_COMPRESS_ON); by how much a block
//! of pointers shrinks is not modelled: they are counted whole. Reading an object's first
//! record from a cold cache walks its tree down from the dnode, one indirect block at a time
//! (`levels_above_data`).

use crate::txg;

/// Bytes of a block pointer (include/sys/spa.h, blkptr_t; SPA_BLKPTRSHIFT 7).
const BLKPTR_BYTES: f64 = 128.0;
/// Copies of an indirect block: the data's one plus one (dmu_write_policy).
const COPIES: f64 = 2.0;

/// Bytes of an indirect block on OpenZFS line `line` (`ZfsRelease::openzfs_line`):
/// DN_MAX_INDBLKSHIFT 17 from OpenZFS 7104 (https://github.com/openzfs/openzfs/pull/132,
/// ZFS on Linux 0.7: https://github.com/openzfs/zfs/pull/4989), 14 before. The releases of
/// other platforms follow the line release.rs maps them to (FreeBSD 10-11 and illumos of
/// 2013-2016 with ZFS on Linux 0.6).
pub(crate) fn indirect_bytes(line: (u8, u8)) -> f64 {
    if line >= (0, 7) {
        131_072.0
    } else {
        16_384.0
    }
}

/// Indirect blocks a read of an object's first record from a cold cache waits for one after
/// another: dbuf_hold reads each parent before it can find its child's block pointer
/// (dbuf_findbp, dbuf.c), from the dnode's top level down to level 1. The dnode holds one
/// block pointer for a file (a 512-byte dnode's bonus holds the znode's attributes:
/// zfs_mknode, DN_BONUS_SIZE) and three for a zvol (DN_MAX_NBLKPTR); each level holds
/// `ibs` / 128 of the level below, for indirect blocks of `ibs` bytes (`indirect_bytes`).
pub(crate) fn levels_above_data(bytes: u64, recordsize: u64, zvol: bool, ibs: f64) -> u32 {
    let top: u64 = if zvol { 3 } else { 1 };
    let pointers = (ibs / BLKPTR_BYTES) as u64;
    let mut blocks = bytes.div_ceil(recordsize.max(1)).max(1);
    let mut levels = 0;
    while blocks > top {
        blocks = blocks.div_ceil(pointers);
        levels += 1;
    }
    levels
}

/// Metadata bytes the txg writes per data byte when `per_txg` records of `recordsize` bytes
/// fall at random over `span` bytes of one object: of its N level-1 blocks, N(1 - e^(-W/N))
/// are dirty after W records (each record lands in one of N at random), each written whole
/// (`ibs` bytes, `indirect_bytes`) and twice; never less than a stream's share, whose records fill their indirect blocks.
pub(crate) fn random_metadata_per_data_byte(
    span: f64,
    recordsize: u64,
    per_txg: f64,
    ibs: f64,
) -> f64 {
    let rs = recordsize as f64;
    let l1s = (span / (rs * ibs / BLKPTR_BYTES)).ceil().max(1.0);
    let w = per_txg.max(1.0);
    // N(1 - e^(-W/N)), written with exp_m1 for accuracy when W is small beside N.
    let dirty = -l1s * (-w / l1s).exp_m1();
    (COPIES * ibs * dirty / (w * rs)).max(txg::metadata_per_data_byte(recordsize))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: f64 = (1u64 << 30) as f64;
    const IBS: f64 = 131_072.0;

    #[test]
    fn a_cold_read_walks_the_tree_from_the_dnode() {
        // 512 MiB of 128 KiB records: 4,096 blocks, 4 level-1 blocks under one level 2.
        assert_eq!(levels_above_data(512 << 20, 128 << 10, false, IBS), 2);
        // A zvol's three pointers hold three level-1 blocks: 384 MiB of 128 KiB blocks.
        assert_eq!(levels_above_data(384 << 20, 128 << 10, true, IBS), 1);
        assert_eq!(levels_above_data(385 << 20, 128 << 10, true, IBS), 2);
        // One record: the dnode points at it.
        assert_eq!(levels_above_data(100 << 10, 128 << 10, false, IBS), 0);
        // 16 GiB of 128 KiB records: 131,072 blocks, 128 level 1, one level 2.
        assert_eq!(levels_above_data(16 << 30, 128 << 10, false, IBS), 2);
    }

    #[test]
    fn random_writes_over_a_large_object_write_an_indirect_block_each() {
        // issue #10145's zvol: 1200 GiB of 8 KiB blocks is 153,600 level-1 blocks (8 MiB
        // each). One record a txg dirties one of them: 2 x 128 KiB per 8 KiB written (less
        // the chance, 1/2N, that the expected count N(1 - e^(-1/N)) leaves out).
        let n: f64 = 153_600.0;
        let one = random_metadata_per_data_byte(1200.0 * GIB, 8192, 1.0, IBS);
        assert!(
            (one - 32.0 * n * (1.0 - (-1.0 / n).exp())).abs() < 1e-6,
            "{one}"
        );
        assert!((one - 32.0).abs() < 1e-3, "{one}");
        // 153,600 records: 1 - 1/e of the level-1 blocks are dirty.
        let many = random_metadata_per_data_byte(1200.0 * GIB, 8192, n, IBS);
        let expected = 32.0 * (1.0 - (-1.0f64).exp());
        assert!((many - expected).abs() < 1e-9, "{many} against {expected}");
        // A 1 GiB file of 128 KiB records has 8 level-1 blocks: a txg of 1,000 random records
        // dirties all 8, 2 MiB of metadata for 125 MiB of data.
        let small = random_metadata_per_data_byte(GIB, 128 << 10, 1000.0, IBS);
        let all8 = 2.0 * 8.0 * 131072.0 / (1000.0 * 131072.0);
        assert!((small - all8).abs() < 1e-6, "{small} against {all8}");
        // Every record of the file rewritten: the stream's share, a pointer per record, twice.
        let dense = random_metadata_per_data_byte(GIB, 128 << 10, 1e9, IBS);
        assert_eq!(dense, txg::metadata_per_data_byte(128 << 10));
    }

    /// Before OpenZFS 7104 an indirect block is 16 KiB and holds 128 pointers.
    #[test]
    fn indirect_blocks_were_16_kib_before_openzfs_7104() {
        assert_eq!(indirect_bytes((0, 6)), 16_384.0);
        assert_eq!(indirect_bytes((0, 7)), IBS);
        assert_eq!(indirect_bytes((2, 2)), IBS);
        let old = indirect_bytes((0, 6));
        // 16 GiB of 128 KiB records: 131,072 blocks, 1,024 level 1, 8 level 2, one level 3.
        assert_eq!(levels_above_data(16 << 30, 128 << 10, false, old), 3);
        // phaus's bonnie++ file, 32 GiB of 128 KiB records on ZFS on Linux 0.6.5: 2,048
        // level-1 blocks of 16 KiB; a txg of what its 8 GiB let the writer run ahead (60% of
        // a tenth of RAM, 3,932 records) dirties 2,048 (1 - e^(-3932/2048)) = 1,748 of them,
        // each written twice.
        let per_txg = 0.6 * 0.1 * 8.0 * GIB / 131_072.0;
        let got = random_metadata_per_data_byte(32.0 * GIB, 128 << 10, per_txg, old);
        let dirty = 2048.0 * (1.0 - (-per_txg / 2048.0).exp());
        let want = 2.0 * 16_384.0 * dirty / (per_txg * 131_072.0);
        assert!((got - want).abs() < 1e-12, "{got} against {want}");
        assert!((dirty - 1748.0).abs() < 1.0, "{dirty}");
        // A lone random 8 KiB write writes two 16 KiB blocks of pointers: 4 bytes a byte.
        let one = random_metadata_per_data_byte(1200.0 * GIB, 8192, 1.0, old);
        assert!((one - 4.0).abs() < 1e-3, "{one}");
    }
}
