//! Every raidz parity at every width from 3 to 24, ashift 12: the sectors of a 128 KiB block
//! and the deflate ratio, worked from s = 32; s += p x ceil(32 / (w - p)); roundup(s, p + 1);
//! ratio = 131072 / (s x 4096 >> 9) = 131072 / (8 s). For example raidz1-4: 32 + ceil(32/3) = 11
//! -> 43 -> 44 sectors, ratio 131072 / 352 = 372; raidz2-8: 32 + 2 x 6 = 44 -> 45, ratio 364;
//! raidz3-5: 32 + 3 x 16 = 80, ratio 204.

use model::{VdevGroup, VdevType};
use zpoolsim_space::{block_asize, deflate_ratio};

/// (width, sectors of a 128 KiB block, deflate ratio).
type Row = (u32, u64, u64);

const TABLE: [(u32, &[Row]); 3] = [
    (
        1,
        &[
            (3, 48, 341),
            (4, 44, 372),
            (5, 40, 409),
            (6, 40, 409),
            (7, 38, 431),
            (8, 38, 431),
            (9, 36, 455),
            (10, 36, 455),
            (11, 36, 455),
            (12, 36, 455),
            (13, 36, 455),
            (14, 36, 455),
            (15, 36, 455),
            (16, 36, 455),
            (17, 34, 481),
            (18, 34, 481),
            (19, 34, 481),
            (20, 34, 481),
            (21, 34, 481),
            (22, 34, 481),
            (23, 34, 481),
            (24, 34, 481),
        ],
    ),
    (
        2,
        &[
            (3, 96, 170),
            (4, 66, 248),
            (5, 54, 303),
            (6, 48, 341),
            (7, 48, 341),
            (8, 45, 364),
            (9, 42, 390),
            (10, 42, 390),
            (11, 42, 390),
            (12, 42, 390),
            (13, 39, 420),
            (14, 39, 420),
            (15, 39, 420),
            (16, 39, 420),
            (17, 39, 420),
            (18, 36, 455),
            (19, 36, 455),
            (20, 36, 455),
            (21, 36, 455),
            (22, 36, 455),
            (23, 36, 455),
            (24, 36, 455),
        ],
    ),
    (
        3,
        &[
            (4, 128, 128),
            (5, 80, 204),
            (6, 68, 240),
            (7, 56, 292),
            (8, 56, 292),
            (9, 52, 315),
            (10, 48, 341),
            (11, 44, 372),
            (12, 44, 372),
            (13, 44, 372),
            (14, 44, 372),
            (15, 44, 372),
            (16, 44, 372),
            (17, 44, 372),
            (18, 44, 372),
            (19, 40, 409),
            (20, 40, 409),
            (21, 40, 409),
            (22, 40, 409),
            (23, 40, 409),
            (24, 40, 409),
        ],
    ),
];

#[test]
fn every_parity_and_width() {
    for (parity, rows) in TABLE {
        for &(width, sectors, ratio) in rows {
            let g = VdevGroup {
                count: 1,
                vtype: VdevType::Raidz { parity },
                children: width,
            };
            assert_eq!(
                block_asize(&g, 12, 128 << 10),
                sectors << 12,
                "raidz{parity}-{width}"
            );
            assert_eq!(deflate_ratio(&g, 12), ratio, "raidz{parity}-{width}");
        }
    }
}
