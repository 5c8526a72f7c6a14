//! The prefetcher (dmu_zfetch.c): how far ahead of a sequential reader ZFS reads, by release,
//! and so how many records a stream has in flight. Its reads are async (the vdev queue's
//! async read class); the reader waits only on the record it asked for.

use model::workload::Access;

const MIB: u64 = 1 << 20;

/// A sequential reader's prefetch reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Prefetch {
    /// Up to this many bytes ahead, whatever the recordsize (dmu_zfetch of 2015 on:
    /// zfetch_max_distance).
    Bytes(u64),
    /// Up to this many blocks ahead (the zfetch of Solaris and ZoL before 0.7:
    /// zfetch_block_cap = 256).
    Blocks(u32),
    /// zfs_prefetch_disable: only the application's own request.
    Off,
}

impl Prefetch {
    /// The reach of the prefetcher of OpenZFS line `line` (`ZfsRelease::openzfs_line`), or
    /// none when the administrator set zfs_prefetch_disable.
    pub(crate) fn of(line: (u8, u8), disabled: bool) -> Prefetch {
        if disabled {
            Prefetch::Off
        } else if line >= (2, 1) {
            // zfetch_max_distance 64 MiB from 2.1 (dmu_zfetch.c), 8 MiB in 0.7-2.0.
            Prefetch::Bytes(64 * MIB)
        } else if line >= (0, 7) {
            Prefetch::Bytes(8 * MIB)
        } else {
            Prefetch::Blocks(256)
        }
    }

    /// Blocks of `recordsize` a sequential reader has in flight at most.
    pub(crate) fn blocks(self, recordsize: u64) -> u32 {
        match self {
            Prefetch::Bytes(b) => (b / recordsize.max(1)).clamp(1, u64::from(u32::MAX)) as u32,
            Prefetch::Blocks(n) => n,
            Prefetch::Off => 1,
        }
    }

    /// Records of `recordsize` a stream of `access` has issued ahead at most: the prefetch
    /// reach for a sequential reader (a mix's read stream too, which keeps the pair of
    /// streams within it); a writer's records are bounded by the txg, not here.
    pub(crate) fn reach(self, access: Access, recordsize: u64) -> u32 {
        if access.reads_stream() {
            self.blocks(recordsize)
        } else {
            u32::MAX
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetch_reach_by_era() {
        let of = |release: &str| {
            let zfs: model::ZfsRelease = release.parse().unwrap();
            Prefetch::of(zfs.openzfs_line(), false)
        };
        assert_eq!(of("2.2").blocks(128 << 10), 512);
        assert_eq!(of("2.2").blocks(1 << 20), 64);
        assert_eq!(of("0.7").blocks(128 << 10), 64);
        assert_eq!(of("freebsd-10.2").blocks(1 << 20), 256);
        assert_eq!(Prefetch::of((2, 2), true).blocks(128 << 10), 1);
    }

    #[test]
    fn only_a_sequential_reader_is_bounded_by_the_reach() {
        let reach = Prefetch::of((2, 2), false);
        assert_eq!(reach.reach(Access::SeqRead, 1 << 20), 64);
        assert_eq!(reach.reach(Access::SeqWrite, 1 << 20), u32::MAX);
    }
}
