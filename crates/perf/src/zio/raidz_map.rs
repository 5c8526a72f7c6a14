//! The raidz map of one block (module/zfs/vdev_raidz.c, vdev_raidz_map_alloc): how a block of
//! `size` bytes is cut into columns over the children of a raidz vdev.

/// Columns of one block on a raidz vdev, in sectors. Columns `0..parity` hold parity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaidzMap {
    /// Sectors in each column, parity columns first; columns past the block's width are absent.
    pub columns: Vec<u64>,
    pub parity: u32,
    /// Data sectors (the block itself).
    pub data: u64,
    /// Padding sectors that round the allocation up to a multiple of parity + 1.
    pub skip: u64,
}

impl RaidzMap {
    /// Maps a block of `size` bytes on a raidz of `width` children with `parity` parity and
    /// sectors of 2^ashift bytes: s = ceil(size / sector); q = s / (width - p);
    /// r = s - q (width - p); bc = r + p if r > 0 else 0; the first bc columns get q + 1
    /// sectors, the rest q; total = s + p (q + [r > 0]); skip = roundup(total, p + 1) - total.
    pub fn new(size: u64, ashift: u8, width: u32, parity: u32) -> RaidzMap {
        let s = size.div_ceil(1 << ashift);
        let (w, p) = (u64::from(width), u64::from(parity));
        let q = s / (w - p);
        let r = s - q * (w - p);
        let bc = if r > 0 { r + p } else { 0 };
        // A block narrower than the vdev uses only p + s columns (vdev_raidz_map_alloc acols).
        let acols = if q == 0 { bc } else { w };
        let columns = (0..acols).map(|c| if c < bc { q + 1 } else { q }).collect();
        let total = s + p * (q + u64::from(r > 0));
        let skip = total.div_ceil(p + 1) * (p + 1) - total;
        RaidzMap {
            columns,
            parity,
            data: s,
            skip,
        }
    }

    /// Parity sectors (every parity column is as long as the longest data column).
    pub fn parity_sectors(&self) -> u64 {
        self.columns[..self.parity as usize].iter().sum()
    }

    /// Data columns that hold at least one sector: the children a healthy read touches.
    pub fn data_columns(&self) -> u32 {
        self.columns[self.parity as usize..]
            .iter()
            .filter(|&&c| c > 0)
            .count() as u32
    }

    /// Allocated sectors: data + parity + skip (vdev_raidz_asize).
    pub fn allocated(&self) -> u64 {
        self.data + self.parity_sectors() + self.skip
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_000_record_on_raidz1_of_7() {
        // 128 KiB at ashift 9 = 256 sectors over 6 data columns: q = 42, r = 4, bc = 5;
        // columns 0..5 get 43 sectors, 5 and 6 get 42; total 299, skip 1 (to 300, even).
        let m = RaidzMap::new(128 << 10, 9, 7, 1);
        assert_eq!(m.columns, vec![43, 43, 43, 43, 43, 42, 42]);
        assert_eq!((m.data, m.parity_sectors(), m.skip), (256, 43, 1));
        assert_eq!(m.allocated(), 300);
        assert_eq!(m.data_columns(), 6);
    }

    #[test]
    fn even_split_has_no_skip_when_total_is_a_multiple() {
        // raidz1-5 ashift 12, 128 KiB: 32 sectors, 8 per data column, 8 parity: 40 sectors.
        let m = RaidzMap::new(128 << 10, 12, 5, 1);
        assert_eq!(m.columns, vec![8; 5]);
        assert_eq!((m.parity_sectors(), m.skip, m.allocated()), (8, 0, 40));
        // raidz1-3 ashift 9: 256 sectors, 128 per data column, parity 128: 1.5 x the data.
        let m = RaidzMap::new(128 << 10, 9, 3, 1);
        assert_eq!(m.columns, vec![128, 128, 128]);
    }

    #[test]
    fn small_blocks_use_fewer_columns_and_pad() {
        // raidz2-6 ashift 12, 4 KiB: 1 data + 2 parity columns, total 3 = p + 1: no skip.
        let m = RaidzMap::new(4096, 12, 6, 2);
        assert_eq!(m.columns, vec![1, 1, 1]);
        assert_eq!((m.skip, m.data_columns()), (0, 1));
        // raidz2-5 ashift 12, 16 KiB: q = 1, r = 1, bc = 3: columns 2,2,2,1,1; total 8, skip 1.
        let m = RaidzMap::new(16 << 10, 12, 5, 2);
        assert_eq!(m.columns, vec![2, 2, 2, 1, 1]);
        assert_eq!((m.parity_sectors(), m.skip, m.allocated()), (4, 1, 9));
        // raidz1-4 ashift 12, 8 KiB: 2 data columns of 1, parity 1: total 3, skip 1.
        let m = RaidzMap::new(8 << 10, 12, 4, 1);
        assert_eq!(m.columns, vec![1, 1, 1]);
        assert_eq!(m.allocated(), 4);
    }

    #[test]
    fn efficiency_matches_the_facts_table() {
        // docs/zfs-internals.md §1: raidz2-10 at ashift 12 stores 1M at .798 and 64K at .762.
        let eff =
            |size: u64| (size >> 12) as f64 / RaidzMap::new(size, 12, 10, 2).allocated() as f64;
        assert!((eff(1 << 20) - 0.798).abs() < 0.001);
        assert!((eff(64 << 10) - 0.762).abs() < 0.001);
    }
}
