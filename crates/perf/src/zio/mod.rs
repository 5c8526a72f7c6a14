//! From a logical block to leaf I/O, as the ZFS I/O pipeline does it (docs/zfs-internals.md §2):
//! the raidz map, mirror read balancing, dRAID rows; aggregation limits live in `release`.

pub(crate) mod mirror;

use model::geometry::{Draid, Raidz, Sectors};
use model::VdevType;

/// What one block costs one top-level vdev, averaged over its children: the starting column
/// of a raidz block rotates with its offset, and mirror reads are balanced over the sides,
/// so over many blocks every child carries the same share.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fanout {
    /// Bytes each child moves per block, on average.
    pub bytes_per_child: f64,
    /// Bytes of platter each child passes under its head per block in a sequential pass: a
    /// raidz child holds the parity and padding of some blocks between the data columns of
    /// others, and skipping them takes as long as reading them.
    pub media_per_child: f64,
    /// Leaf I/Os (zios) each child receives per block, on average, before aggregation.
    pub ios_per_child: f64,
    /// Children that must all answer before the block is complete (a raidz read waits for
    /// every data column: fork-join); 1 for a mirror or a single disk.
    pub fork_width: u32,
    /// Parity bytes computed per block (writes of raidz and dRAID).
    pub parity_bytes: f64,
    /// zios the block creates above the leaves (the logical one, plus one per vdev level).
    pub upper_zios: f64,
}

/// Whether the block is read or written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Read,
    Write,
}

/// The fan-out of one block of `size` bytes on a top-level vdev of `children` leaves.
pub(crate) fn fanout(vtype: VdevType, children: u32, size: u64, ashift: u8, op: Op) -> Fanout {
    let sector = 1u64 << ashift;
    let n = f64::from(children);
    match vtype {
        VdevType::Disk => Fanout {
            bytes_per_child: size.div_ceil(sector) as f64 * sector as f64,
            media_per_child: size.div_ceil(sector) as f64 * sector as f64,
            ios_per_child: 1.0,
            fork_width: 1,
            parity_bytes: 0.0,
            upper_zios: 1.0,
        },
        VdevType::Mirror => {
            let bytes = size.div_ceil(sector) as f64 * sector as f64;
            // A write goes to every side; a read to one, chosen by load (vdev_mirror.c). What
            // a side's head passes in a sequential read depends on how the sides take turns:
            // `mirror::passed_share`, applied where the medium and the streams are known.
            let share = if op == Op::Write { 1.0 } else { 1.0 / n };
            Fanout {
                bytes_per_child: bytes * share,
                media_per_child: bytes * share,
                ios_per_child: share,
                fork_width: 1,
                parity_bytes: 0.0,
                upper_zios: 2.0,
            }
        }
        VdevType::Raidz { parity } => {
            let shape = Raidz {
                width: children,
                nparity: parity,
                ashift,
            };
            striped(shape.block(size).sectors, n, sector, op)
        }
        VdevType::Draid { parity, data, .. } => {
            // dRAID rows of `data` sectors each get `parity` parity sectors (vdev_draid.c);
            // its permutations spread the groups over all children. A group keeps its parity
            // in its first columns, on the same children for every block of a permutation row
            // (VDEV_DRAID_ROWHEIGHT, 16 MiB a child), so a sequential pass reads the data
            // children's runs end to end and the parity children serve other rows' data:
            // unlike raidz, no child turns past parity between the data it reads.
            let shape = Draid {
                ndata: data,
                nparity: parity,
                ashift,
            };
            let sectors = shape.block(size).sectors;
            let mut f = striped(sectors, n, sector, op);
            if op == Op::Read {
                f.media_per_child = ((sectors.data + sectors.skip) * sector) as f64 / n;
            }
            f
        }
    }
}

/// A raidz or dRAID block's cost, averaged over `n` children, sectors of `sector` bytes: a
/// read moves the data, a write the data and the parity it computes, and a sequential pass
/// turns past every allocated sector.
fn striped(b: Sectors, n: f64, sector: u64, op: Op) -> Fanout {
    let (moved, touched, parity) = match op {
        Op::Read => (b.data, b.read_columns, 0.0),
        Op::Write => (
            b.data + b.parity,
            b.write_columns,
            (b.parity * sector) as f64,
        ),
    };
    Fanout {
        bytes_per_child: (moved * sector) as f64 / n,
        media_per_child: (b.allocated() * sector) as f64 / n,
        ios_per_child: f64::from(touched) / n,
        fork_width: touched,
        parity_bytes: parity,
        upper_zios: 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raidz_reads_skip_parity_and_writes_carry_it() {
        let z = VdevType::Raidz { parity: 1 };
        let read = fanout(z, 5, 128 << 10, 12, Op::Read);
        let write = fanout(z, 5, 128 << 10, 12, Op::Write);
        // 128 KiB of data spread over 5 children; writes add 32 KiB of parity.
        assert_eq!(read.bytes_per_child, 131072.0 / 5.0);
        assert_eq!(write.bytes_per_child, 163840.0 / 5.0);
        assert_eq!((read.fork_width, write.fork_width), (4, 5));
        assert_eq!(write.parity_bytes, 32768.0);
        assert_eq!(read.ios_per_child, 0.8);
        // A sequential pass still turns past the parity: 40 sectors of 4 KiB per 5 children.
        assert_eq!(read.media_per_child, 163840.0 / 5.0);
    }

    #[test]
    fn mirror_reads_split_writes_double() {
        let m = VdevType::Mirror;
        assert_eq!(fanout(m, 2, 131072, 9, Op::Read).bytes_per_child, 65536.0);
        assert_eq!(fanout(m, 2, 131072, 9, Op::Write).bytes_per_child, 131072.0);
        assert_eq!(fanout(m, 3, 131072, 9, Op::Read).ios_per_child, 1.0 / 3.0);
    }

    #[test]
    fn small_block_rounds_to_the_sector() {
        let d = fanout(VdevType::Disk, 1, 1000, 12, Op::Write);
        assert_eq!(d.bytes_per_child, 4096.0);
        let dr = fanout(
            VdevType::Draid {
                parity: 2,
                data: 8,
                spares: 1,
            },
            20,
            128 << 10,
            12,
            Op::Write,
        );
        // 32 sectors = 4 rows of 8: 8 parity sectors; 40 sectors over 20 children.
        assert_eq!(dr.parity_bytes, 8.0 * 4096.0);
        assert_eq!(dr.bytes_per_child, 40.0 * 4096.0 / 20.0);
    }

    proptest::proptest! {
        /// The performance engine passes over exactly the sectors the space engine allocates
        /// for a block (`vdev_raidz_asize`, `vdev_draid_asize` in model::geometry, which
        /// space's raidz.rs and draid.rs call), and writes its data and parity.
        #[test]
        fn blocks_cost_what_space_allocates(
            nparity in 1u32..=3,
            extra in 1u32..=30,
            ashift in 9u8..=16,
            psize in 1u64..=(16 << 20),
        ) {
            let n = nparity + extra;
            let raidz = model::geometry::Raidz { width: n, nparity, ashift };
            let f = fanout(VdevType::Raidz { parity: nparity }, n, psize, ashift, Op::Write);
            let per_child = |bytes: u64| bytes as f64 / f64::from(n);
            proptest::prop_assert_eq!(f.media_per_child, per_child(raidz.asize(psize)));
            let b = raidz.block(psize).sectors;
            let written = (b.data + b.parity) << ashift;
            proptest::prop_assert_eq!(f.bytes_per_child, per_child(written));
            let draid = model::geometry::Draid { ndata: extra, nparity, ashift };
            let vtype = VdevType::Draid { parity: nparity, data: extra, spares: 0 };
            let f = fanout(vtype, n, psize, ashift, Op::Write);
            proptest::prop_assert_eq!(f.media_per_child, per_child(draid.asize(psize)));
        }
    }
}
