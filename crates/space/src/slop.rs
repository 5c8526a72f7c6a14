//! Slop space (module/zfs/spa_misc.c spa_get_slop_space, dsl_pool.c dsl_pool_adjustedsize):
//! the share of the pool `zfs list` never offers, so that frees and the ZIL can always proceed.

use crate::release::SlopRule;

/// The slop of a pool whose normal class deflates to `dspace` bytes and whose embedded ZIL
/// metaslabs deflate to `embedded_log` bytes.
///
/// OpenZFS: slop = min(dspace >> 5, 128 GiB); slop -= min(embedded_log, slop / 2);
/// slop = max(slop, min(dspace / 2, 128 MiB)).
/// Before 2014: max(dspace >> 6, 32 MiB).
pub(crate) fn slop_space(dspace: u64, embedded_log: u64, rule: &SlopRule) -> u64 {
    match *rule {
        SlopRule::OpenZfs { shift, min, max } => {
            let mut slop = (dspace >> shift).min(max);
            slop -= embedded_log.min(slop >> 1);
            slop.max((dspace >> 1).min(min))
        }
        SlopRule::Legacy { shift, min } => (dspace >> shift).max(min),
        SlopRule::Custom(f) => f(dspace, embedded_log),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::Profile;
    use model::units::{GIB, MIB, TIB};

    #[test]
    fn floor_share_and_cap() {
        let modern = Profile::modern().slop;
        // 48 MiB: 1/32 = 1.5 MiB, below the floor min(24 MiB, 128 MiB) = 24 MiB.
        assert_eq!(slop_space(48 * MIB, 0, &modern), 24 * MIB);
        // 2 GiB: 64 MiB < min(1 GiB, 128 MiB) = 128 MiB.
        assert_eq!(slop_space(2 * GIB, 0, &modern), 128 * MIB);
        // 123 x 8 GiB with an 8 GiB ZIL metaslab: 984 GiB / 32 = 30.75 GiB, minus 8 GiB.
        assert_eq!(slop_space(984 * GIB, 8 * GIB, &modern), 91 * GIB / 4);
        // The ZIL discount is at most half: 1/32 of 64 GiB = 2 GiB, minus min(8 GiB, 1 GiB).
        assert_eq!(slop_space(64 * GIB, 8 * GIB, &modern), GIB);
        // 8 TiB / 32 = 256 GiB, capped at 128 GiB.
        assert_eq!(slop_space(8 * TIB, 0, &modern), 128 * GIB);
        let legacy = Profile::legacy().slop;
        assert_eq!(slop_space(48 * MIB, 0, &legacy), 32 * MIB);
        assert_eq!(slop_space(8 * TIB, 0, &legacy), 128 * GIB);
        assert_eq!(slop_space(64 * TIB, 0, &legacy), TIB);
    }
}
