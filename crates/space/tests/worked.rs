//! Pools worked by hand from the OpenZFS formulas of docs/zfs-internals.md §1. Each case writes
//! out its arithmetic; sizes in bytes.
//!
//! Common steps: leaf asize = align256K(device) - 4,718,592 (4 MiB front + 512 KiB end);
//! a Linux whole disk of 512 B sectors gives device = floor((N - 34 + 1 - 16384 - 2048) / 2048)
//! x 2048 sectors; metaslab shift per `metaslab::metaslab_shift`; SIZE = count << shift;
//! deflate ratio = 131072 / (asize(128 KiB) >> 9); dspace = (space >> 9) x ratio without the
//! ZIL metaslab (one per normal vdev of more than 64 metaslabs); slop = min(dspace/32, 128 GiB)
//! less min(zil, slop/2), at least min(dspace/2, 128 MiB); AVAIL = dspace - slop - empty, where
//! `empty` (the empty pool's metadata, an approximation) is 100 blocks of 1 KiB charged on the
//! first normal vdev.

use model::units::{GIB, MIB};
use model::{Layout, Leaf, Pool, TopLevel, VdevClass};
use zpoolsim_space::{
    file_cost, file_cost_with, pool_space, Compression, Profile, SpaceError, SpaceReport,
};

const TB: u64 = 1_000_000_000_000;
const GB: u64 = 1_000_000_000;

fn file(bytes: u64) -> Leaf {
    Leaf {
        capacity_bytes: bytes,
        logical_sector: 512,
        whole_disk: false,
    }
}

fn disk(bytes: u64) -> Leaf {
    Leaf {
        capacity_bytes: bytes,
        logical_sector: 512,
        whole_disk: true,
    }
}

fn pool(layout: &str, leaf: Leaf, ashift: u8) -> Pool {
    Pool::simple(layout.parse::<Layout>().unwrap(), leaf, ashift)
}

fn modern(p: &Pool) -> SpaceReport {
    pool_space(p, &Profile::modern()).unwrap()
}

fn legacy(p: &Pool) -> SpaceReport {
    pool_space(p, &Profile::legacy()).unwrap()
}

/// SIZE, dspace, slop, AVAIL.
fn figures(r: &SpaceReport) -> (u64, u64, u64, u64) {
    (r.size_bytes, r.dspace_bytes, r.slop_bytes, r.avail_bytes)
}

/// The breakdown must add up: every total equals the previous total less the lines since.
fn check_breakdown(r: &SpaceReport) {
    let mut running: i128 = 0;
    for l in &r.breakdown {
        match l.op {
            zpoolsim_space::Op::Start => running = l.bytes as i128,
            zpoolsim_space::Op::Minus => running -= l.bytes as i128,
            zpoolsim_space::Op::Total => {
                assert_eq!(running, l.bytes as i128, "{}: {:?}", l.label, r.breakdown)
            }
        }
    }
    assert_eq!(running, r.avail_bytes as i128);
}

// 1. The check value of docs/zfs-internals.md §1: a 1000 GiB file vdev at ashift 9.
// leaf asize = 1,073,741,824,000 - 4,718,592 = 1,073,737,105,408; >> 29 = 1999 > 200, so
// shift = highbit(1,073,737,105,408 / 200 = 5,368,685,527) = 33 (8 GiB); count = 124;
// SIZE = 124 x 8 GiB = 1,065,151,889,408. 124 > 64: one 8 GiB ZIL metaslab; dspace = 123 x 8 GiB
// = 1,056,561,954,816; slop = 1/32 = 33,017,561,088 - min(8 GiB, 16,508,780,544) =
// 24,427,626,496; empty = 100 x 1 KiB = 102,400; AVAIL = 1,032,134,225,920.
#[test]
fn single_disk_1000_gib_file_ashift_9() {
    let r = modern(&pool("stripe-1", file(1000 * GIB), 9));
    assert_eq!(r.size_bytes, 1_065_151_889_408);
    assert_eq!(
        figures(&r),
        (
            1_065_151_889_408,
            1_056_561_954_816,
            24_427_626_496,
            1_032_134_225_920
        )
    );
    let g = &r.groups[0];
    assert_eq!(
        (g.metaslab_shift, g.metaslab_count, g.deflate_ratio),
        (33, 124, 512)
    );
    assert_eq!(g.lost_tail_bytes, 1_073_737_105_408 - 1_065_151_889_408);
    assert_eq!(r.size_display, "992G");
    check_breakdown(&r);
}

// 2. The smallest device: 64 MiB file. asize = 62,390,272 (59.5 MiB); shift 24 (see
// metaslab tests); count = 3; SIZE = 48 MiB = 50,331,648. dspace = 50,331,648; slop = max(1.5 MiB,
// min(24 MiB, 128 MiB)) = 25,165,824; AVAIL = 50,331,648 - 25,165,824 - 102,400 = 25,063,424.
#[test]
fn smallest_device_64_mib() {
    let r = modern(&pool("stripe-1", file(64 * MIB), 9));
    assert_eq!(
        figures(&r),
        (50_331_648, 50_331_648, 25_165_824, 25_063_424)
    );
    assert!(
        r.warnings.iter().any(|w| w.starts_with("small disks")),
        "{:?}",
        r.warnings
    );
    check_breakdown(&r);
}

// 3. Below 64 MiB after alignment: refused.
#[test]
fn below_64_mib_is_refused() {
    let e = pool_space(&pool("stripe-1", file(64 * MIB - 1), 9), &Profile::modern()).unwrap_err();
    assert!(matches!(e, SpaceError::DeviceTooSmall { .. }));
    assert!(e.to_string().contains("too small"));
}

// 4. A 750 GB whole disk on Linux, ashift 12: partition 749,989,789,696 (label tests), asize
// 749,985,071,104; >> 29 = 1396 > 200: shift = highbit(3,749,925,355) = 32 (4 GiB); count =
// 174; SIZE = 747,324,309,504. dspace = 173 x 4 GiB = 743,029,342,208; slop = 23,219,666,944 -
// 4 GiB = 18,924,699,648; empty = 100 x 4 KiB; AVAIL = 724,104,232,960.
#[test]
fn single_750_gb_whole_disk_ashift_12() {
    let r = modern(&pool("stripe-1", disk(750 * GB), 12));
    assert_eq!(
        figures(&r),
        (
            747_324_309_504,
            743_029_342_208,
            18_924_699_648,
            724_104_232_960
        )
    );
    assert_eq!(r.groups[0].leaf.partition_loss, 10_210_304);
    check_breakdown(&r);
}

// 5. The example: 3x raidz1-5 of 750 GB whole disks, ashift 12. vdev asize = 5 x
// 749,985,071,104 = 3,749,925,355,520; shift = highbit(18,749,626,777) = 35 -> capped at 34;
// count = 218; SIZE = 3 x 218 x 16 GiB = 11,235,634,446,336 ("10.2T"). ratio = 131072 / 320 =
// 409; dspace = 3 x (217 x 16 GiB >> 9) x 409 = 8,934,169,509,888; ZIL = 3 x 13,723,762,688;
// slop = 279,192,797,184 -> capped at 137,438,953,472 - 41,171,288,064 = 96,267,665,408;
// empty = 100 x (8 KiB >> 9) x 409 = 654,400; AVAIL = 8,837,901,190,080.
#[test]
fn three_raidz1_5_of_750_gb() {
    let r = modern(&pool("3x raidz1-5", disk(750 * GB), 12));
    assert_eq!(
        figures(&r),
        (
            11_235_634_446_336,
            8_934_169_509_888,
            96_267_665_408,
            8_837_901_190_080
        )
    );
    assert_eq!(r.embedded_log_bytes, 41_171_288_064);
    assert_eq!(r.size_display, "10.2T");
    let g = &r.groups[0];
    assert_eq!(
        (
            g.vdev_asize,
            g.metaslab_shift,
            g.metaslab_count,
            g.deflate_ratio
        ),
        (3_749_925_355_520, 34, 218, 409)
    );
    check_breakdown(&r);
}

// 6. mirror-2 of 4 TB whole disks, ashift 12. partition: N = 7,812,500,000; (N - 34 + 1 - 18,432)
// = 7,812,481,535 -> 3,814,688 x 2048 = 7,812,481,024 sectors = 3,999,990,284,288 B; asize =
// 3,999,985,565,696; shift 34; count 232; SIZE = 3,985,729,650,688; dspace = 231 x 16 GiB =
// 3,968,549,781,504; slop = 124,017,180,672 - 16 GiB = 106,837,311,488; AVAIL =
// 3,861,712,060,416.
#[test]
fn mirror_2_of_4_tb() {
    let r = modern(&pool("mirror-2", disk(4 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            3_985_729_650_688,
            3_968_549_781_504,
            106_837_311_488,
            3_861_712_060_416
        )
    );
    check_breakdown(&r);
}

// 7. 7x mirror-2 of 750 GB at ashift 9 (seed 001's layout): each vdev as case 4, 174 x 4 GiB;
// SIZE = 7 x 747,324,309,504 = 5,231,270,166,528; dspace = 7 x 173 x 4 GiB = 5,201,205,395,456;
// slop = 162,537,668,608 -> 128 GiB - min(28 GiB, 64 GiB) = 100 GiB = 107,374,182,400;
// empty = 102,400; AVAIL = 5,093,831,110,656. A stripe of 7 gives the same figures.
#[test]
fn seven_mirrors_and_a_stripe_of_seven() {
    let m = modern(&pool("7x mirror-2", disk(750 * GB), 9));
    assert_eq!(
        figures(&m),
        (
            5_231_270_166_528,
            5_201_205_395_456,
            107_374_182_400,
            5_093_831_110_656
        )
    );
    let s = modern(&pool("stripe-7", disk(750 * GB), 9));
    assert_eq!(figures(&s), figures(&m));
    check_breakdown(&m);
    check_breakdown(&s);
}

// 8. raidz1-7 of 750 GB at ashift 9 (seed 000's pool): vdev = 7 x 749,985,071,104 =
// 5,249,895,497,728; shift 34; count 305; SIZE = 5,239,860,101,120. asize(128 KiB) = 256 +
// ceil(256/6) = 43 -> 299 -> even: 300 sectors; ratio = 131072 / 300 = 436. dspace = (304 x 16
// GiB >> 9) x 436 = 4,447,438,635,008; ZIL = 14,629,732,352; slop = 128 GiB - ZIL =
// 122,809,221,120; empty = 100 x (1 KiB = 2 sectors + 1 parity -> 4 sectors) x 436 = 174,400;
// AVAIL = 4,324,629,239,488.
#[test]
fn raidz1_7_of_750_gb_ashift_9() {
    let r = modern(&pool("raidz1-7", disk(750 * GB), 9));
    assert_eq!(
        figures(&r),
        (
            5_239_860_101_120,
            4_447_438_635_008,
            122_809_221_120,
            4_324_629_239_488
        )
    );
    assert_eq!(r.groups[0].deflate_ratio, 436);
    check_breakdown(&r);
}

// 9. raidz2-6 of 4 TB, ashift 12: vdev = 6 x 3,999,985,565,696 = 23,999,913,394,176; count =
// 1396 of 16 GiB: SIZE 23,983,097,380,864; ratio 341; dspace = (1395 x 16 GiB >> 9) x 341 =
// 15,961,675,530,240; slop = 128 GiB - 11,442,061,312 = 125,996,892,160; empty = 100 x 24 x 341
// = 818,400; AVAIL = 15,835,677,819,680. The same disk with 4 KiB logical sectors partitions to
// 976,560,128 x 4096 = the same 3,999,990,284,288 B, so the same figures.
#[test]
fn raidz2_6_of_4_tb_512e_and_4kn() {
    let want = (
        23_983_097_380_864,
        15_961_675_530_240,
        125_996_892_160,
        15_835_677_819_680,
    );
    let r = modern(&pool("raidz2-6", disk(4 * TB), 12));
    assert_eq!(figures(&r), want);
    let kn = Leaf {
        capacity_bytes: 4 * TB,
        logical_sector: 4096,
        whole_disk: true,
    };
    assert_eq!(figures(&modern(&pool("raidz2-6", kn, 12))), want);
    check_breakdown(&r);
}

// 10. raidz3-11 of 24 TB, ashift 12: leaf asize 23,999,985,221,632; vdev 263,999,837,437,952;
// count 15,366; SIZE 263,985,869,881,344; ratio 131072 / 352 = 372; dspace =
// 191,789,751,336,960; slop = 128 GiB - 12,482,248,704 = 124,956,704,768; empty = 100 x (4
// sectors x 8) x 372 = 1,190,400; AVAIL = 191,664,793,441,792.
#[test]
fn raidz3_11_of_24_tb() {
    let r = modern(&pool("raidz3-11", disk(24 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            263_985_869_881_344,
            191_789_751_336_960,
            124_956_704_768,
            191_664_793_441_792
        )
    );
    assert_eq!(r.groups[0].deflate_ratio, 372);
    check_breakdown(&r);
}

// 11. raidz2-5 of 4 TB, ashift 12 (a legal but poor width): ratio = 131072 / 432 = 303;
// count 1164; SIZE 19,997,367,730,176; dspace 11,824,212,738,048; slop 127,271,960,576;
// empty 100 x 24 x 303 = 727,200; AVAIL 11,696,940,050,272; a padding warning.
#[test]
fn raidz2_5_warns_of_padding() {
    let r = modern(&pool("raidz2-5", disk(4 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            19_997_367_730_176,
            11_824_212_738_048,
            127_271_960_576,
            11_696_940_050_272
        )
    );
    let w = r
        .warnings
        .iter()
        .find(|w| w.contains("padding"))
        .expect("padding warning");
    assert!(
        w.contains("raidz2-5 at ashift 12") && w.contains("216 KiB") && w.contains("raidz2-6"),
        "{w}"
    );
    // raidz2-6 has no such waste at 128 KiB.
    assert!(!modern(&pool("raidz2-6", disk(4 * TB), 12))
        .warnings
        .iter()
        .any(|w| w.contains("padding")));
}

// 12. raidz3-24 of 8 TB at ashift 13: asize(128 KiB) = 16 + 3 x ceil(16/21) = 19 -> 20 sectors
// of 8 KiB = 160 KiB; ratio 409; count 11,175; SIZE 191,985,038,131,200; dspace
// 153,349,324,275,712; slop 123,715,190,784; empty = 100 x (4 x 8 KiB >> 9) x 409 = 2,617,600;
// AVAIL 153,225,606,467,328.
#[test]
fn raidz3_24_of_8_tb_ashift_13() {
    let r = modern(&pool("raidz3-24", disk(8 * TB), 13));
    assert_eq!(
        figures(&r),
        (
            191_985_038_131_200,
            153_349_324_275_712,
            123_715_190_784,
            153_225_606_467_328
        )
    );
    check_breakdown(&r);
}

// 13. raidz1-3 of 1 GiB files, ashift 12: leaf 1,069,023,232; vdev 3,207,069,696; >> 29 = 5
// < 16: shift = highbit(200,441,856) = 28 (256 MiB); count 11; SIZE 2,952,790,016; no ZIL;
// ratio 341; dspace = (2,952,790,016 >> 9) x 341 = 1,966,604,288; slop = 128 MiB (1/32 is
// 61 MiB); empty = 100 x 16 x 341 = 545,600; AVAIL = 1,831,840,960.
#[test]
fn raidz1_3_of_1_gib_files() {
    let r = modern(&pool("raidz1-3", file(GIB), 12));
    assert_eq!(
        figures(&r),
        (2_952_790_016, 1_966_604_288, 134_217_728, 1_831_840_960)
    );
    assert_eq!(r.groups[0].metaslab_shift, 28);
    check_breakdown(&r);
}

// 14. draid2:8d:24c:2s of 4 TB, ashift 12: leaf 3,999,985,565,696; child = floor((leaf - 32 MiB)
// / 16 MiB) = 238,415 rows; 22 children x 238,415 = 5,245,130 rows, a whole number of groups of
// 10: vdev 87,998,678,958,080 B. shift 34: count 5,122. Metaslabs align to rows of 10 sectors
// = 40,960 B (vdev_draid_metaslab_init): metaslab m starts at m x 2^34, which is 16,384 B past
// a row boundary times m (mod 40,960), so each loses 16,384, 57,344, 16,384, 57,344, 16,384 B
// in turn (163,840 per 5); 5,122 = 1,024 x 5 + 2: trim 1,024 x 163,840 + 73,728 = 167,845,888;
// SIZE 87,998,678,958,080 - 0 tail - 167,845,888 = 87,995,122,114,560 (the tail: 5,122 x 2^34
// = the vdev exactly). ratio 409; ZIL = metaslab 0 = 2^34 - 16,384 = 17,179,852,800; dspace =
// ((SIZE - ZIL) >> 9) x 409 = 70,279,254,658,320; slop = 1/32 capped at 128 GiB =
// 137,438,953,472, less the ZIL deflated (13,723,749,600, under half) = 123,715,203,872;
// empty = 100 x (40 KiB >> 9) x 409 = 3,272,000; AVAIL 70,155,536,182,448.
#[test]
fn draid2_8d_24c_2s_of_4_tb() {
    let r = modern(&pool("draid2:8d:24c:2s", disk(4 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            87_995_122_114_560,
            70_279_254_658_320,
            123_715_203_872,
            70_155_536_182_448
        )
    );
    let g = &r.groups[0];
    assert_eq!(
        (g.vdev_asize, g.metaslab_count, g.draid_trim_bytes),
        (87_998_678_958_080, 5_122, 167_845_888)
    );
    assert_eq!(g.embedded_log_bytes, 17_179_852_800);
    check_breakdown(&r);
}

// 15. draid1:4d:10c:1s of 1 TB, ashift 9: leaf 999,985,512,448; 59,601 rows per child, 9 data
// children: 536,409 rows -> whole groups of 5: 536,405 rows, vdev 8,999,382,548,480; count 523
// of 16 GiB; rows of 5 x 512 B = 2,560 B: each metaslab loses 1,024, 3,584, 1,024, 3,584,
// 1,024 B in turn (10,240 per 5), 523 = 104 x 5 + 3: trim 1,064,960 + 5,632 = 1,070,592;
// SIZE = 523 x 2^34 - 1,070,592 = 8,985,070,512,640. ratio: 128 KiB = 256 sectors = 64 rows
// of 5 = 320 sectors -> 409; ZIL = 2^34 - 1,024; dspace 7,163,803,268,735; slop 128 GiB less
// the ZIL deflated (13,723,761,870) = 123,715,191,602; empty = 100 x 5 x 409 = 204,500; AVAIL 7,040,087,872,633.
#[test]
fn draid1_4d_10c_1s_of_1_tb_ashift_9() {
    let r = modern(&pool("draid1:4d:10c:1s", disk(TB), 9));
    assert_eq!(
        figures(&r),
        (
            8_985_070_512_640,
            7_163_803_268_735,
            123_715_191_602,
            7_040_087_872_633
        )
    );
    assert_eq!(r.groups[0].draid_trim_bytes, 1_070_592);
    check_breakdown(&r);
}

// 16. draid3:7d:60c:3s of 2 TB, ashift 12: 119,206 rows per child, 57 data-bearing children:
// 6,794,742 rows -> groups of 10: 6,794,740, vdev 113,996,820,643,840; count 6,635 = 1,327 x 5,
// trim 1,327 x 163,840 = 217,415,680 (rows of 10 sectors as in 14); SIZE 113,988,214,620,160;
// 128 KiB = 32 sectors = 5 rows of 10 = 50 sectors -> ratio 131072 / 400 = 327; dspace
// 72,790,094,470,560; slop 126,466,664,672; empty 100 x 80 x 327 = 2,616,000;
// AVAIL 72,663,625,189,888.
#[test]
fn draid3_7d_60c_3s_of_2_tb() {
    let r = modern(&pool("draid3:7d:60c:3s", disk(2 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            113_988_214_620_160,
            72_790_094_470_560,
            126_466_664_672,
            72_663_625_189_888
        )
    );
    assert_eq!(r.groups[0].deflate_ratio, 327);
}

// 17. The largest dRAID, 255 children of 24 TB: vdev 6,119,985,134,960,640 (5.4 PiB); at shift
// 34 that is 356,228 metaslabs > 2^17, so shift = highbit(vdev / 2^17) = 36; count 89,057.
// Metaslabs of 2^36 lose 24,576, 24,576, 65,536, 24,576, 24,576 B to rows of 40,960 B
// (163,840 per 5); 89,057 = 17,811 x 5 + 2: trim 2,918,203,392; SIZE 6,119,947,521,474,560;
// dspace 4,888,731,308,646,800; slop 128 GiB less the 64 GiB ZIL metaslab deflated
// (54,895,031,120) = 82,543,922,352; AVAIL 4,888,648,761,452,448.
#[test]
fn draid_of_255_children_raises_the_metaslab_shift() {
    let r = modern(&pool("draid2:8d:255c:0s", disk(24 * TB), 12));
    assert_eq!(
        (r.groups[0].metaslab_shift, r.groups[0].metaslab_count),
        (36, 89_057)
    );
    assert_eq!(
        figures(&r),
        (
            6_119_947_521_474_560,
            4_888_731_308_646_800,
            82_543_922_352,
            4_888_648_761_452_448
        )
    );
}

// 18. Mixed groups: 2x raidz2-6 + mirror-2 of 4 TB, ashift 12: SIZE = 2 x 23,983,097,380,864 +
// 3,985,729,650,688 = 51,951,924,412,416; dspace = 2 x 15,961,675,530,240 + 3,968,549,781,504 =
// 35,891,900,841,984; ZIL = 2 x 11,442,061,312 + 17,179,869,184 = 40,063,991,808; slop = 128 GiB
// - ZIL = 97,374,961,664; empty on the first group (raidz2-6) = 818,400; AVAIL
// 35,794,525,061,920.
#[test]
fn mixed_groups() {
    let r = modern(&pool("2x raidz2-6 + mirror-2", disk(4 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            51_951_924_412_416,
            35_891_900_841_984,
            97_374_961_664,
            35_794_525_061_920
        )
    );
    assert_eq!(r.embedded_log_bytes, 40_063_991_808);
    assert!(r.warnings.iter().any(|w| w.contains("weakest")));
    check_breakdown(&r);
}

// 19. ashift 13 single 2 TB file: asize 1,999,995,142,144; count 116 of 16 GiB; SIZE
// 1,992,864,825,344; dspace 115 x 16 GiB = 1,975,684,956,160; slop 61,740,154,880 - 16 GiB =
// 44,560,285,696; empty = 100 x 8 KiB = 819,200; AVAIL 1,931,123,851,264.
#[test]
fn single_2_tb_file_ashift_13() {
    let r = modern(&pool("stripe-1", file(2 * TB), 13));
    assert_eq!(
        figures(&r),
        (
            1_992_864_825_344,
            1_975_684_956_160,
            44_560_285_696,
            1_931_123_851_264
        )
    );
}

// 20. The 128 GiB slop cap: 10x raidz2-12 of 24 TB: dspace 2,193,513,617,817,600; 1/32 = 62 TiB
// -> 128 GiB; ZIL 130,862,284,800 is more than half of it: slop = 64 GiB = 68,719,476,736;
// AVAIL 2,193,444,897,404,864.
#[test]
fn slop_cap_and_half_the_zil() {
    let r = modern(&pool("10x raidz2-12", disk(24 * TB), 12));
    assert_eq!(
        figures(&r),
        (
            2_879_861_471_313_920,
            2_193_513_617_817_600,
            68_719_476_736,
            2_193_444_897_404_864
        )
    );
}

fn with_class(mut p: Pool, class: VdevClass, layout: &str, leaf: Leaf) -> Pool {
    p.vdevs.push(TopLevel {
        class,
        layout: layout.parse().unwrap(),
        leaf,
    });
    p
}

// 21. A special vdev adds to SIZE, not to AVAIL: 2x mirror-2 of 4 TB + special mirror-2 of
// 1 TB. Special leaf asize 999,985,512,448: 116 metaslabs of 8 GiB = 996,432,412,672 B. SIZE =
// 2 x 3,985,729,650,688 + 996,432,412,672 = 8,967,891,714,048; dspace = 2 x 3,968,549,781,504
// = 7,937,099,563,008. Up to 2.3 only the normal vdevs lend a ZIL metaslab (2 x 16 GiB): slop
// = 128 GiB - 32 GiB = 103,079,215,104, AVAIL 7,834,019,938,304 (empty 409,600). From 2.4 the
// special vdev lends one of its 8 GiB too: slop = 128 - 40 GiB = 94,489,280,512, AVAIL
// 7,842,609,872,896.
#[test]
fn special_vdev_in_size_not_avail() {
    let p = with_class(
        pool("2x mirror-2", disk(4 * TB), 12),
        VdevClass::Special,
        "mirror-2",
        disk(TB),
    );
    let r = pool_space(&p, &Profile::openzfs((2, 3, 2))).unwrap();
    assert_eq!(
        figures(&r),
        (
            8_967_891_714_048,
            7_937_099_563_008,
            103_079_215_104,
            7_834_019_938_304
        )
    );
    assert_eq!(r.groups[1].embedded_log_metaslabs, 0);
    check_breakdown(&r);
    let r = modern(&p);
    assert_eq!(
        figures(&r),
        (
            8_967_891_714_048,
            7_937_099_563_008,
            94_489_280_512,
            7_842_609_872_896
        )
    );
    assert_eq!(r.groups[1].embedded_log_metaslabs, 1);
    check_breakdown(&r);
}

// 22. A log vdev is not in SIZE: the same pool with log mirror-2 of 100 GB: SIZE = 2 x
// 3,985,729,650,688 = 7,971,459,301,376, AVAIL as case 21.
#[test]
fn log_vdev_not_in_size() {
    let p = with_class(
        pool("2x mirror-2", disk(4 * TB), 12),
        VdevClass::Log,
        "mirror-2",
        disk(100 * GB),
    );
    let r = modern(&p);
    assert_eq!(
        figures(&r),
        (
            7_971_459_301_376,
            7_937_099_563_008,
            103_079_215_104,
            7_834_019_938_304
        )
    );
    check_breakdown(&r);
}

// 23. Hot spares hold no space.
#[test]
fn hot_spares_hold_no_space() {
    let mut p = pool("raidz2-6", disk(4 * TB), 12);
    let before = figures(&modern(&p));
    p.spares = 2;
    let r = modern(&p);
    assert_eq!(figures(&r), before);
    assert_eq!(r.raw_bytes, 8 * 4 * TB);
    check_breakdown(&r);
}

/// The legacy profile's empty-pool USED is fitted to zfs-fuse measurements by its own rule
/// (`legacy::empty_pool_used`): these cases check SIZE, dspace and slop exactly, and AVAIL as
/// dspace - slop - that USED.
fn assert_legacy(r: &SpaceReport, want: (u64, u64, u64)) {
    assert_eq!((r.size_bytes, r.dspace_bytes, r.slop_bytes), want);
    assert_eq!(
        r.avail_bytes,
        r.dspace_bytes - r.slop_bytes - r.empty_pool_used_bytes
    );
    assert!(r.empty_pool_used_bytes > 0 && r.empty_pool_used_bytes < 4 * MIB);
    check_breakdown(r);
}

// 24. Legacy (pool v23 rules): 1000 GiB file at ashift 9: shift max(highbit(5,368,685,527), 17)
// = 33; count 124; SIZE 1,065,151,889,408 as today; no ZIL metaslab: dspace = SIZE; slop =
// 1/64 = 16,642,998,272; AVAIL = 1,065,151,889,408 - 16,642,998,272 - the empty pool's USED.
#[test]
fn legacy_1000_gib_file() {
    let r = legacy(&pool("stripe-1", file(1000 * GIB), 9));
    assert_legacy(&r, (1_065_151_889_408, 1_065_151_889_408, 16_642_998_272));
    check_breakdown(&r);
}

// 25. Legacy 64 MiB file: shift = max(highbit(62,390,272 / 200 = 311,951), 17) = 19 (512 KiB);
// count = 119, the whole 59.5 MiB; slop = 32 MiB floor; AVAIL = 62,390,272 - 33,554,432 - USED.
#[test]
fn legacy_64_mib_file() {
    let r = legacy(&pool("stripe-1", file(64 * MIB), 9));
    assert_legacy(&r, (62_390_272, 62_390_272, 33_554_432));
    assert_eq!(r.groups[0].metaslab_shift, 19);
}

// 26. Legacy raidz1-5 of 750 GB whole disks used raw: osize = 749,999,751,168, asize
// 749,995,032,576; vdev 3,749,975,162,880; shift = highbit(18,749,875,814) = 35 (no 34 cap);
// count 109 of 32 GiB: SIZE 3,745,211,482,112; ratio 409; dspace = 2,991,780,265,984; slop 1/64 =
// 46,746,566,656.
#[test]
fn legacy_raidz1_5_whole_disks_raw() {
    let r = legacy(&pool("raidz1-5", disk(750 * GB), 9));
    assert_legacy(&r, (3_745_211_482_112, 2_991_780_265_984, 46_746_566_656));
    assert_eq!(r.groups[0].metaslab_shift, 35);
}

// 27. Bad input the engine refuses, each with a sentence.
#[test]
fn refusals() {
    let m = Profile::modern();
    let e = pool_space(&pool("mirror-2", disk(TB), 8), &m).unwrap_err();
    assert!(e.to_string().contains("ashift 8"));
    let kn = Leaf {
        capacity_bytes: TB,
        logical_sector: 4096,
        whole_disk: true,
    };
    let e = pool_space(&pool("mirror-2", kn, 9), &m).unwrap_err();
    assert!(matches!(e, SpaceError::AshiftBelowSector { .. }), "{e}");
    let e = pool_space(&pool("draid2:8d:24c:2s", disk(TB), 12), &Profile::legacy()).unwrap_err();
    assert!(e.to_string().contains("dRAID"), "{e}");
    // 64 MiB children give one 16 MiB row each after the 32 MiB reserve: 3 data-bearing
    // children make one group of 3 rows, a 48 MiB vdev, below 64 MiB - 4.5 MiB (vdev_open:
    // EOVERFLOW; OpenZFS 2.1.11-2.4.4 refuse it, crates/space/oracle/pools.txt p65).
    let e = pool_space(&pool("draid1:2d:5c:2s", file(64 * MIB), 9), &m).unwrap_err();
    assert!(
        matches!(e, SpaceError::VdevTooSmall { asize, .. } if asize == 48 * MIB),
        "{e}"
    );
    let mut p = pool("mirror-2", disk(TB), 12);
    p.datasets[0].recordsize = 1 << 20;
    assert!(pool_space(&p, &m).is_ok());
    assert!(pool_space(&p, &Profile::legacy()).is_err());
}

// 28. What files cost. raidz2-6 of 4 TB, ashift 12, ratio 341:
// - 1 KiB file: one block of 1 KiB -> 1 data sector + 2 parity = 3 -> roundup 3 = 3 sectors =
//   12 KiB allocated; charged (12,288 >> 9) x 341 = 8,184.
// - 129 KiB file, 128 KiB records: 2 blocks of 128 KiB (the tail written whole): 2 x 48 sectors
//   = 393,216 allocated; charged 2 x 384 x 341 = 261,888. With compression the tail squeezes to
//   one sector: 196,608 + 12,288 = 208,896 allocated.
// - 1 MiB file, 1 MiB records: 256 data + 2 x 64 parity = 384 sectors = 1,572,864; charged
//   (1,572,864 >> 9) x 341 = 1,047,552, a little under 1 MiB since 341/512 is just below 4/6.
// mirror-2: a 129 KiB file allocates 256 KiB, 512 KiB on the disks.
#[test]
fn file_costs() {
    let p = pool("raidz2-6", disk(4 * TB), 12);
    let m = Profile::modern();
    let c = file_cost(&p, &m, 128 << 10, 1024).unwrap();
    assert_eq!(
        (c.blocks, c.allocated_bytes, c.used_bytes),
        (1, 12_288, 8_184)
    );
    let c = file_cost(&p, &m, 128 << 10, 129 << 10).unwrap();
    assert_eq!(
        (c.blocks, c.allocated_bytes, c.used_bytes),
        (2, 393_216, 261_888)
    );
    let c = file_cost_with(&p, &m, 128 << 10, 129 << 10, Compression::On).unwrap();
    assert_eq!(c.allocated_bytes, 208_896);
    let c = file_cost(&p, &m, 1 << 20, 1 << 20).unwrap();
    assert_eq!((c.allocated_bytes, c.used_bytes), (1_572_864, 1_047_552));
    let c = file_cost(
        &pool("mirror-2", disk(4 * TB), 12),
        &m,
        128 << 10,
        129 << 10,
    )
    .unwrap();
    assert_eq!(
        (c.allocated_bytes, c.raw_bytes, c.used_bytes),
        (262_144, 524_288, 262_144)
    );
    assert_eq!(file_cost(&p, &m, 128 << 10, 0).unwrap().allocated_bytes, 0);
}

// raidz2-6 of 4 TB disks, ashift 12, 128 KiB records (one record: 48 sectors = 196,608 B
// allocated, charged (196,608 >> 9) x 341 = 130,944 B):
// - 20 TB: ceil(20e12 / 131,072) = 152,587,891 records, the last written whole: charged
//   152,587,891 x 130,944 = 19,980,468,799,104 B, more than AVAIL (about 15.8 TB: four data disks' worth, less the 128 GiB
//   slop): a warning.
// - 2^64 - 1 B: 2^47 records of 196,608 B each pass 2^64 bytes: refused, not wrapped.
#[test]
fn a_file_past_avail_warns_and_one_past_2_64_is_refused() {
    let p = pool("raidz2-6", disk(4 * TB), 12);
    let m = Profile::modern();
    let avail = modern(&p).avail_bytes;
    let c = file_cost(&p, &m, 128 << 10, 20 * TB).unwrap();
    assert_eq!(c.used_bytes, 19_980_468_799_104);
    assert_eq!(c.allocated_bytes, 152_587_891 * 196_608);
    assert_eq!(
        c.warning.unwrap(),
        format!(
            "a file of 18.19 TiB would be charged 18.17 TiB by zfs list, more than the empty pool's AVAIL of {}: it does not fit",
            model::units::format_bytes(avail)
        )
    );
    assert!(avail > 15 * TB && avail < 16 * TB, "{avail}");
    assert_eq!(file_cost(&p, &m, 128 << 10, 10 * TB).unwrap().warning, None);
    let e = file_cost(&p, &m, 128 << 10, u64::MAX).unwrap_err();
    assert_eq!(
        e,
        SpaceError::FileTooLarge {
            file_bytes: u64::MAX
        }
    );
    assert_eq!(
        e.to_string(),
        "a file of 18446744073709551615 bytes (16384.00 PiB) would cost more than 2^64 bytes on this pool: too large to count"
    );
}

// Issue #10: four disks of 2^63 B are 2^65 B raw: the sum passed 2^64 and wrapped to "raw 0 B"
// (and dRAID printed a usable share of 1e21 %). Refused as too large to count instead.
#[test]
fn raw_bytes_past_2_64_are_refused_not_wrapped() {
    let m = Profile::modern();
    for layout in ["2x mirror-2", "draid1:2d:4c:0s"] {
        let p = pool(layout, disk(1 << 63), 12);
        assert_eq!(
            pool_space(&p, &m).unwrap_err(),
            SpaceError::TooLarge,
            "{layout}"
        );
    }
    // 2^62 B disks: 2^64 - 2^62 B raw still counts.
    let p = pool("mirror-3", disk(1 << 62), 12);
    assert_eq!(pool_space(&p, &m).unwrap().raw_bytes, 3 << 62);
}
