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

/// A raidz vdev's shape: `width` children, `nparity` of every row's columns parity (1 to 3),
/// sectors of 2^`ashift` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raidz {
    pub width: u32,
    pub nparity: u32,
    pub ashift: u8,
}

/// One block on a raidz vdev (vdev_raidz_map_alloc): `columns` columns from the block's first
/// child on, parity first; the first `long_columns` hold `rows + 1` sectors, the others `rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaidzBlock {
    /// Data sectors: the block itself, rounded up to sectors.
    pub data: u64,
    /// Parity sectors: each parity column is as long as the longest data column.
    pub parity: u64,
    /// Padding sectors that round the allocation up to a multiple of nparity + 1, so that
    /// every free gap can hold a block.
    pub skip: u64,
    /// Columns the block occupies: all the children, or nparity + data for a block
    /// narrower than a row.
    pub columns: u32,
    pub long_columns: u32,
    pub rows: u64,
    pub nparity: u32,
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
    /// columns; total = s + p (q + [r > 0]); skip = roundup(total, p + 1) - total.
    pub fn block(&self, psize: u64) -> RaidzBlock {
        let s = psize.div_ceil(1 << self.ashift);
        let (w, p) = (u64::from(self.width), u64::from(self.nparity));
        let q = s / (w - p);
        let r = s - q * (w - p);
        let bc = if r > 0 { r + p } else { 0 };
        let total = s + p * (q + u64::from(r > 0));
        RaidzBlock {
            data: s,
            parity: p * (q + u64::from(r > 0)),
            skip: total.div_ceil(p + 1) * (p + 1) - total,
            columns: if q == 0 { bc as u32 } else { self.width },
            long_columns: bc as u32,
            rows: q,
            nparity: self.nparity,
        }
    }
}

impl RaidzBlock {
    /// Sectors in each column, parity columns first.
    pub fn column_sectors(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.columns).map(|c| self.rows + u64::from(c < self.long_columns))
    }

    /// Data columns that hold at least one sector: the children a healthy read touches.
    pub fn data_columns(&self) -> u32 {
        self.columns.saturating_sub(self.nparity)
    }

    /// Allocated sectors: data, parity and skip.
    pub fn allocated(&self) -> u64 {
        self.data + self.parity + self.skip
    }
}

/// A dRAID vdev's redundancy groups: `ndata` data and `nparity` parity columns per row,
/// sectors of 2^`ashift` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draid {
    pub ndata: u32,
    pub nparity: u32,
    pub ashift: u8,
}

/// One block on a dRAID vdev (vdev_draid_map_alloc_row): whole rows of ndata data and nparity
/// parity sectors, the last row's unused data columns filled with skip sectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DraidBlock {
    pub data: u64,
    pub parity: u64,
    pub skip: u64,
    pub rows: u64,
    /// Data columns the block's data reaches: all ndata, or fewer for a block of less than a
    /// row.
    pub data_columns: u32,
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
        DraidBlock {
            data: s,
            parity: rows * u64::from(self.nparity),
            skip: rows * d - s,
            rows,
            data_columns: s.min(d) as u32,
        }
    }
}

impl DraidBlock {
    /// Allocated sectors: data, parity and skip.
    pub fn allocated(&self) -> u64 {
        self.data + self.parity + self.skip
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
        assert_eq!((b.data, b.parity, b.skip), (256, 43, 1));
        assert_eq!((b.allocated(), b.data_columns()), (300, 6));
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
        assert_eq!((b.skip, b.data_columns()), (0, 1));
        // raidz2-5, 16 KiB: q = 1, r = 1, bc = 3: columns 2,2,2,1,1; total 8, skip 1.
        let b = raidz(5, 2).block(16 << 10);
        assert_eq!(b.column_sectors().collect::<Vec<_>>(), vec![2, 2, 2, 1, 1]);
        assert_eq!((b.data, b.parity, b.skip), (4, 4, 1));
        // A block of nothing takes nothing.
        assert_eq!(raidz(5, 1).block(0).allocated(), 0);
        assert_eq!(raidz(5, 1).block(0).data_columns(), 0);
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
        assert_eq!((b.data, b.parity, b.skip, b.rows), (9, 4, 7, 2));
        assert_eq!(draid.asize(36 << 10), 80 << 10);
        // 4 KiB: one data column and the parity.
        assert_eq!(draid.block(4096).data_columns, 1);
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
            let b = raidz.block(psize);
            prop_assert_eq!(b.allocated() << ashift, raidz.asize(psize));
            prop_assert_eq!(b.column_sectors().sum::<u64>(), b.data + b.parity);
            prop_assert_eq!(b.allocated() % u64::from(nparity + 1), 0);
            prop_assert!(b.skip <= u64::from(nparity));
            prop_assert_eq!(b.data, psize.div_ceil(1 << ashift));
            prop_assert!(b.columns <= raidz.width && b.data_columns() >= 1);
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
            let b = draid.block(psize);
            prop_assert_eq!(b.allocated() << ashift, draid.asize(psize));
            prop_assert_eq!(b.allocated(), b.rows * u64::from(ndata + nparity));
            prop_assert!(b.skip < u64::from(ndata));
            prop_assert_eq!(b.data, psize.div_ceil(1 << ashift));
        }
    }
}
