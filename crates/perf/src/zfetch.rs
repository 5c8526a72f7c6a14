//! The prefetcher (dmu_zfetch.c): how far ahead of a sequential reader ZFS reads, by release,
//! and so how many records a stream has in flight. Its reads are async (the vdev queue's
//! async read class); the reader waits only on the record it asked for. A stream starts with
//! nothing ahead: the round trips its reader waits before the distance is reached are its ramp.

use model::units::MIB;
use model::workload::Access;

/// Bytes one DMU access reads at most: zfs_read hands the DMU a call's bytes in chunks of
/// zfs_vnops_read_chunk_size (zfs_read_chunk_size before 2.1), 1 MiB (zfs_vnops.c).
const READ_CHUNK: u64 = MIB;

/// A sequential reader's prefetch reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Prefetch {
    /// Up to `max` bytes ahead, whatever the recordsize (dmu_zfetch of 2015 on:
    /// zfetch_max_distance), the distance doubling each hit up to `doubling` (2.1 on:
    /// zfetch_min_distance; before, up to the maximum).
    Bytes { max: u64, doubling: u64 },
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
            // zfetch_max_distance 64 MiB from 2.1 (dmu_zfetch.c, OpenZFS PR 13452), 8 MiB in
            // 0.7-2.0; from 2.1 the distance doubles per hit only to zfetch_min_distance,
            // 4 MiB, then grows by an eighth per hit the prefetch was late for.
            Prefetch::Bytes {
                max: 64 * MIB,
                doubling: 4 * MIB,
            }
        } else if line >= (0, 7) {
            Prefetch::Bytes {
                max: 8 * MIB,
                doubling: 8 * MIB,
            }
        } else {
            Prefetch::Blocks(256)
        }
    }

    /// Blocks of `recordsize` a sequential reader has in flight at most.
    pub(crate) fn blocks(self, recordsize: u64) -> u32 {
        match self {
            Prefetch::Bytes { max, .. } => {
                (max / recordsize.max(1)).clamp(1, u64::from(u32::MAX)) as u32
            }
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

    /// Round trips to the disks a stream's reader waits for one after another before prefetch
    /// runs ahead of it, reading with calls of `block_size` bytes from records of `recordsize`
    /// (dmu_zfetch_prepare): the first access (block 0, which makes no stream), the second (a
    /// miss, which makes one), then one per doubling of the distance from an access's blocks
    /// to where doubling stops (each hit's prefetch is waited for by the hit after it). The
    /// zfetch of Solaris and ZoL before 0.7 doubles its cap per hit likewise (zst_cap). None
    /// without prefetch: each access then waits on its own blocks.
    pub(crate) fn round_trips(self, block_size: u64, recordsize: u64) -> u32 {
        let rs = recordsize.max(1);
        let doubling = match self {
            Prefetch::Bytes { doubling, .. } => doubling,
            Prefetch::Blocks(n) => u64::from(n) * rs,
            Prefetch::Off => return 0,
        };
        let access = block_size.clamp(1, READ_CHUNK).div_ceil(rs) * rs;
        let mut trips = 2;
        let mut distance = access;
        while distance < doubling {
            distance *= 2;
            trips += 1;
        }
        trips
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

    #[test]
    fn a_stream_waits_a_round_trip_per_doubling_of_its_distance() {
        let of = |line| Prefetch::of(line, false);
        // 2.1 on: 128 KiB doubled five times reaches zfetch_min_distance (4 MiB), after the
        // access to block 0 and the miss that makes the stream.
        assert_eq!(of((2, 4)).round_trips(16 << 10, 128 << 10), 7);
        // dd bs=1M: a 1 MiB access, doubled twice; bs=64M reaches the DMU 1 MiB at a time.
        assert_eq!(of((2, 4)).round_trips(1 << 20, 128 << 10), 4);
        assert_eq!(of((2, 4)).round_trips(64 << 20, 128 << 10), 4);
        // 0.7-2.0 doubles up to zfetch_max_distance, 8 MiB; the old zfetch to 256 blocks.
        assert_eq!(of((0, 8)).round_trips(1 << 20, 128 << 10), 5);
        assert_eq!(of((0, 6)).round_trips(4096, 128 << 10), 10);
        // A 16 MiB record is beyond every doubling limit: the two first accesses alone.
        assert_eq!(of((2, 4)).round_trips(1 << 20, 16 << 20), 2);
        assert_eq!(
            Prefetch::of((2, 4), true).round_trips(1 << 20, 128 << 10),
            0
        );
    }
}
