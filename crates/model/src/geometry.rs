//! One block's sectors on a raidz or dRAID vdev: its data, parity and padding ("skip")
//! sectors, its columns or rows. The space engine takes a block's allocated size from here and
//! the performance engine its columns, so both see the same block.
//!
//! Each shape computes the allocation twice, as OpenZFS does in two places: the allocated size
//! the allocator asks for (vdev_raidz_asize, vdev_draid_asize) and the map the I/O is cut
//! into (vdev_raidz_map_alloc, vdev_draid_map_alloc_row). The tests hold them equal.
//!
//! The inputs stay explicit (the vdev's width, parity and sector size, then the block's
//! psize) so one block can be placed on the widths before and after a raidz expansion.

/// What a raidz or dRAID block allocates, and the children its reads and writes touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sectors {
    /// Data sectors: the block itself, rounded up to sectors.
    pub data: u64,
    /// Parity sectors: nparity for each row the data reaches.
    pub parity: u64,
    /// Padding ("skip") sectors: raidz rounds the allocation up to a multiple of nparity + 1
    /// so that every free gap can hold a block; dRAID fills the last row.
    pub skip: u64,
    /// Children a read waits for: the data columns.
    pub read_columns: u32,
    /// Children a write waits for: data and parity columns.
    pub write_columns: u32,
}

impl Sectors {
    /// Allocated sectors: data, parity and skip.
    pub fn allocated(&self) -> u64 {
        self.data + self.parity + self.skip
    }
}

/// A raidz vdev's shape: `width` children, `nparity` of every row's columns parity (1 to 3),
/// sectors of 2^`ashift` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raidz {
    /// Children (leaves) of the vdev, parity included.
    pub width: u32,
    /// Parity columns of each row, 1 to 3.
    pub nparity: u32,
    /// log2 of the sector size.
    pub ashift: u8,
}

/// One block on a raidz vdev (vdev_raidz_map_alloc): `sectors.write_columns` columns from the
/// block's first child on, parity first (each parity column as long as the longest data
/// column); the first `long_columns` hold `rows + 1` sectors, the others `rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaidzBlock {
    /// Its data, parity and skip sectors.
    pub sectors: Sectors,
    /// Columns one sector longer than the rest.
    pub long_columns: u32,
    /// Sectors of each short column (a long one holds one more).
    pub rows: u64,
}

impl Raidz {
    /// vdev_raidz_asize: the bytes allocated for a block of `psize` bytes:
    /// s = ceil(psize / 2^ashift); s += nparity x ceil(s / (width - nparity));
    /// asize = roundup(s, nparity + 1) x 2^ashift.
    pub fn asize(&self, psize: u64) -> u64 {
        if psize == 0 {
            return 0;
        }
        let (cols, parity) = (u64::from(self.width), u64::from(self.nparity));
        let mut s = ((psize - 1) >> self.ashift) + 1;
        s += parity * s.div_ceil(cols - parity);
        (s.div_ceil(parity + 1) * (parity + 1)) << self.ashift
    }

    /// vdev_raidz_map_alloc: a block of `psize` bytes cut into columns. s = ceil(psize /
    /// sector); q = s / (width - p); r = s - q (width - p); bc = r + p if r > 0, else 0; the
    /// first bc columns get q + 1 sectors, the rest q; a block of less than a row uses p + s
    /// columns; total = s + p (q + 1 if r > 0, else q); skip = roundup(total, p + 1) - total.
    pub fn block(&self, psize: u64) -> RaidzBlock {
        let s = psize.div_ceil(1 << self.ashift);
        let (w, p) = (u64::from(self.width), u64::from(self.nparity));
        let q = s / (w - p);
        let r = s - q * (w - p);
        let bc = if r > 0 { r + p } else { 0 };
        let parity = p * (q + u64::from(r > 0));
        let total = s + parity;
        let columns = if q == 0 { bc as u32 } else { self.width };
        RaidzBlock {
            sectors: Sectors {
                data: s,
                parity,
                skip: total.div_ceil(p + 1) * (p + 1) - total,
                read_columns: columns.saturating_sub(self.nparity),
                write_columns: columns,
            },
            long_columns: bc as u32,
            rows: q,
        }
    }
}

impl RaidzBlock {
    /// Sectors in each column, parity columns first.
    pub fn column_sectors(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.sectors.write_columns).map(|c| self.rows + u64::from(c < self.long_columns))
    }
}

/// A dRAID vdev's redundancy groups: `ndata` data and `nparity` parity columns per row,
/// sectors of 2^`ashift` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draid {
    /// Data columns of each row.
    pub ndata: u32,
    /// Parity columns of each row, 1 to 3.
    pub nparity: u32,
    /// log2 of the sector size.
    pub ashift: u8,
}

/// One block on a dRAID vdev (vdev_draid_map_alloc_row): `rows` whole rows of ndata data and
/// nparity parity sectors, the last row's unused data columns filled with skip sectors; a
/// block of less than a row reaches fewer data columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DraidBlock {
    /// Its data, parity and skip sectors.
    pub sectors: Sectors,
    /// Rows the block takes.
    pub rows: u64,
}

impl Draid {
    /// vdev_draid_asize: rows = ceil(psize / (ndata x 2^ashift)); asize = rows x (ndata +
    /// nparity) x 2^ashift.
    pub fn asize(&self, psize: u64) -> u64 {
        if psize == 0 {
            return 0;
        }
        let rows = (psize - 1) / (u64::from(self.ndata) << self.ashift) + 1;
        (rows * u64::from(self.ndata + self.nparity)) << self.ashift
    }

    /// The block's sectors: s = ceil(psize / sector) data sectors in ceil(s / ndata) rows,
    /// each row with nparity parity sectors.
    pub fn block(&self, psize: u64) -> DraidBlock {
        let s = psize.div_ceil(1 << self.ashift);
        let d = u64::from(self.ndata);
        let rows = s.div_ceil(d);
        let data_columns = s.min(d) as u32;
        DraidBlock {
            sectors: Sectors {
                data: s,
                parity: rows * u64::from(self.nparity),
                skip: rows * d - s,
                read_columns: data_columns,
                write_columns: data_columns + self.nparity,
            },
            rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seed_000_record_on_raidz1_of_7() {
        // 128 KiB at ashift 9 = 256 sectors over 6 data columns: q = 42, r = 4, bc = 5;
        // columns 0..5 get 43 sectors, 5 and 6 get 42; total 299, skip 1 (to 300, even).
        let b = Raidz {
            width: 7,
            nparity: 1,
            ashift: 9,
        }
        .block(128 << 10);
        let columns: Vec<u64> = b.column_sectors().collect();
        assert_eq!(columns, vec![43, 43, 43, 43, 43, 42, 42]);
        let s = b.sectors;
        assert_eq!((s.data, s.parity, s.skip), (256, 43, 1));
        assert_eq!((s.allocated(), s.read_columns), (300, 6));
    }

    #[test]
    fn small_raidz_blocks_use_fewer_columns_and_pad() {
        let raidz = |width, nparity| Raidz {
            width,
            nparity,
            ashift: 12,
        };
        // raidz2-6, 4 KiB: 1 data + 2 parity columns, total 3 = p + 1: no skip.
        let b = raidz(6, 2).block(4096);
        assert_eq!(b.column_sectors().collect::<Vec<_>>(), vec![1, 1, 1]);
        assert_eq!((b.sectors.skip, b.sectors.read_columns), (0, 1));
        // raidz2-5, 16 KiB: q = 1, r = 1, bc = 3: columns 2,2,2,1,1; total 8, skip 1.
        let b = raidz(5, 2).block(16 << 10);
        assert_eq!(b.column_sectors().collect::<Vec<_>>(), vec![2, 2, 2, 1, 1]);
        let s = b.sectors;
        assert_eq!((s.data, s.parity, s.skip, s.write_columns), (4, 4, 1, 5));
        // A block of nothing takes nothing.
        assert_eq!(raidz(5, 1).block(0).sectors.allocated(), 0);
        assert_eq!(raidz(5, 1).block(0).sectors.read_columns, 0);
    }

    #[test]
    fn draid_blocks_fill_whole_rows() {
        let draid = Draid {
            ndata: 8,
            nparity: 2,
            ashift: 12,
        };
        // 36 KiB = 9 sectors: 2 rows of 8 data and 2 parity, 7 skip sectors.
        let b = draid.block(36 << 10);
        let s = b.sectors;
        assert_eq!((s.data, s.parity, s.skip, b.rows), (9, 4, 7, 2));
        assert_eq!(draid.asize(36 << 10), 80 << 10);
        // 4 KiB: one data column and the parity.
        let s = draid.block(4096).sectors;
        assert_eq!((s.read_columns, s.write_columns), (1, 3));
    }

    proptest! {
        /// vdev_raidz_asize and vdev_raidz_map_alloc agree on every block: the columns hold
        /// the data and parity, the skip sectors round them to a multiple of nparity + 1,
        /// and no column is longer than a row plus one.
        #[test]
        fn raidz_asize_and_map_agree(
            nparity in 1u32..=3,
            extra in 1u32..=30,
            ashift in 9u8..=16,
            psize in 1u64..=(16 << 20),
        ) {
            let raidz = Raidz { width: nparity + extra, nparity, ashift };
            let block = raidz.block(psize);
            let b = block.sectors;
            prop_assert_eq!(b.allocated() << ashift, raidz.asize(psize));
            prop_assert_eq!(block.column_sectors().sum::<u64>(), b.data + b.parity);
            prop_assert_eq!(b.allocated() % u64::from(nparity + 1), 0);
            prop_assert!(b.skip <= u64::from(nparity));
            prop_assert_eq!(b.data, psize.div_ceil(1 << ashift));
            prop_assert!(b.write_columns <= raidz.width && b.read_columns >= 1);
            prop_assert_eq!(b.write_columns - b.read_columns, nparity);
        }

        /// vdev_draid_asize and the rows of vdev_draid_map_alloc_row agree on every block.
        #[test]
        fn draid_asize_and_rows_agree(
            nparity in 1u32..=3,
            ndata in 1u32..=64,
            ashift in 9u8..=16,
            psize in 1u64..=(16 << 20),
        ) {
            let draid = Draid { ndata, nparity, ashift };
            let block = draid.block(psize);
            let b = block.sectors;
            prop_assert_eq!(b.allocated() << ashift, draid.asize(psize));
            prop_assert_eq!(b.allocated(), block.rows * u64::from(ndata + nparity));
            prop_assert!(b.skip < u64::from(ndata));
            prop_assert_eq!(b.data, psize.div_ceil(1 << ashift));
        }
    }
}
