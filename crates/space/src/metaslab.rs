//! Metaslabs (module/zfs/vdev.c vdev_metaslab_set_size, vdev_metaslab_init): the unit the
//! allocator divides a top-level vdev into. Only whole metaslabs hold data, so the tail past
//! the last one is lost; since 2.1 one of them may go to the embedded ZIL.

use crate::release::MetaslabSizing;

/// highbit64: the position of the highest set bit, 1-based (the bit length); 0 for 0.
pub(crate) fn highbit(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// The metaslab shift of a top-level vdev of `asize` bytes.
///
/// OpenZFS: count = asize >> default_shift; below min_count, shift = highbit(asize /
/// min_count); above target_count, shift = highbit(asize / target_count); else default_shift;
/// then at least min_shift, and past max_shift it is max_shift unless that makes more than
/// count_limit metaslabs, when shift = highbit(asize / count_limit).
pub(crate) fn metaslab_shift(asize: u64, rule: &MetaslabSizing) -> u32 {
    match *rule {
        MetaslabSizing::OpenZfs {
            target_count,
            min_count,
            default_shift,
            min_shift,
            max_shift,
            count_limit,
        } => {
            let count = asize >> default_shift;
            let mut shift = if count < min_count {
                highbit(asize / min_count)
            } else if count > target_count {
                highbit(asize / target_count)
            } else {
                default_shift
            };
            if shift < min_shift {
                shift = min_shift;
            } else if shift > max_shift {
                shift = max_shift;
                if (asize >> shift) > count_limit {
                    shift = highbit(asize / count_limit);
                }
            }
            shift
        }
        MetaslabSizing::Legacy {
            target_count,
            min_shift,
        } => highbit(asize / target_count).max(min_shift),
        MetaslabSizing::Custom(f) => f(asize),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::Profile;
    use model::units::{GIB, MIB, TIB};

    fn modern(asize: u64) -> u32 {
        metaslab_shift(asize, &Profile::modern().metaslab)
    }

    #[test]
    fn highbit_is_bit_length() {
        assert_eq!(highbit(0), 0);
        assert_eq!(highbit(1), 1);
        assert_eq!(highbit(2), 2);
        assert_eq!(highbit(3), 2);
        assert_eq!(highbit(1 << 33), 34);
    }

    #[test]
    fn every_regime() {
        // 59.5 MiB: 0 metaslabs of 512 MiB (< 16): highbit(62,390,272 / 16 = 3,899,392) = 22,
        // raised to the 24 minimum.
        assert_eq!(modern(62_390_272), 24);
        // 4 GiB: 8 (< 16): highbit(4 GiB / 16 = 256 MiB = 2^28) = 29.
        assert_eq!(modern(4 * GIB), 29);
        // 50 GiB: 100 of 512 MiB, within 16..=200: the default 29.
        assert_eq!(modern(50 * GIB), 29);
        // 1000 GiB - 4.5 MiB: 1999 (> 200): highbit(5,368,685,527) = 33.
        assert_eq!(modern(1_073_737_105_408), 33);
        // 100 TiB: highbit(100 TiB / 200 = 549,755,813,888 = 2^39) = 40 -> capped at 34.
        assert_eq!(modern(100 * TIB), 34);
        // 4 PiB: 2^52 >> 34 = 262,144 > 2^17: highbit(2^52 / 2^17 = 2^35) = 36.
        assert_eq!(modern(4096 * TIB), 36);
        // Legacy: highbit(asize / 200), at least 17.
        let legacy = Profile::legacy().metaslab;
        assert_eq!(metaslab_shift(62_390_272, &legacy), 19);
        assert_eq!(metaslab_shift(64 * MIB, &legacy), 19);
        assert_eq!(metaslab_shift(20 * MIB, &legacy), 17);
        assert_eq!(metaslab_shift(100 * TIB, &legacy), 40);
    }
}
