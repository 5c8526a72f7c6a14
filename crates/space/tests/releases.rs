//! Each change of the space rules between ZFS releases (`release::RULE_CHANGES`,
//! docs/space-rules.md), worked by hand on file vdevs (no partitioning) at ashift 12 unless
//! said: the release before the change and the release that made it. Leaf asize =
//! align256K(bytes) - 4,718,592; a disk or mirror deflates at 512/512, so dspace = metaslab
//! space less any embedded log metaslab. From 2.1 on the same figures come from real OpenZFS
//! (tests/openzfs_recorded.rs); before it, from the release tags' sources.

use model::units::{GIB, MIB};
use model::{Layout, Leaf, Pool, TopLevel, VdevClass, ZfsRelease};
use zpoolsim_space::{pool_capacity, pool_space, Profile, SpaceError};

const TB: u64 = 1_000_000_000_000;

fn file_pool(layout: &str, bytes: u64, ashift: u8) -> Pool {
    let leaf = Leaf {
        capacity_bytes: bytes,
        logical_sector: 512,
        whole_disk: false,
    };
    Pool::simple(layout.parse::<Layout>().unwrap(), leaf, ashift)
}

fn release(text: &str) -> Profile {
    Profile::of(text.parse::<ZfsRelease>().unwrap())
}

/// SIZE, dspace and slop of `pool` under the rules of `zfs`.
fn figures(pool: &Pool, zfs: &str) -> (u64, u64, u64) {
    let c = pool_capacity(pool, &release(zfs)).unwrap();
    (c.size_bytes, c.dspace_bytes, c.slop_bytes)
}

// A 24 TB file: leaf 24,000,000,000,000 -> 91,552,734 x 256 KiB = 23,999,999,901,696 - 4.5 MiB
// = 23,999,995,183,104 B.
const LEAF_24TB: u64 = 23_999_995_183_104;

/// Metaslabs before 0.8 (vdev_metaslab_set_size: shift = MAX(highbit(asize / 200),
/// SPA_MAXBLOCKSHIFT)): asize / 200 = 119,999,975,915 -> shift 37, 174 metaslabs of 128 GiB =
/// 23,914,377,904,128 (85.6 GB of tail lost). From 0.8, capped at 2^34: 1,396 of 16 GiB =
/// 23,983,097,380,864.
#[test]
fn metaslabs_of_a_200th_until_0_8() {
    let p = file_pool("stripe-1", 24 * TB, 12);
    for zfs in ["zol-0.6", "0.6.5", "0.7.13"] {
        let g = &zpoolsim_space::pool_groups(&p, &release(zfs)).unwrap()[0];
        assert_eq!(g.vdev_asize, LEAF_24TB);
        assert_eq!((g.metaslab_shift, g.metaslab_count), (37, 174), "{zfs}");
        assert_eq!(g.metaslab_space, 23_914_377_904_128, "{zfs}");
    }
    for zfs in ["0.8", "2.0", "2.4"] {
        let g = &zpoolsim_space::pool_groups(&p, &release(zfs)).unwrap()[0];
        assert_eq!((g.metaslab_shift, g.metaslab_count), (34, 1_396), "{zfs}");
    }
}

/// The least metaslab shift is SPA_MAXBLOCKSHIFT: 17 (128 KiB blocks) up to 0.6.4, 24 from the
/// large blocks of 0.6.5. A 64 MiB file (asize 62,390,272; / 200 = 311,951 -> highbit 19):
/// 0.6.4 makes 119 metaslabs of 512 KiB = 62,390,272 exactly; 0.6.5 makes 3 of 16 MiB =
/// 50,331,648.
#[test]
fn least_metaslab_of_16_mib_from_0_6_5() {
    let p = file_pool("stripe-1", 64 * MIB, 9);
    let g = &zpoolsim_space::pool_groups(&p, &release("0.6.4")).unwrap()[0];
    assert_eq!((g.metaslab_shift, g.metaslab_count), (19, 119));
    assert_eq!(figures(&p, "0.6.4").0, 62_390_272);
    assert_eq!(figures(&p, "0.6.5").0, 50_331_648);
}

/// Slop on the 24 TB file, release by release (dspace = SIZE: no parity, no log metaslab
/// before 2.1):
/// - 0.6.4, dsl_pool_adjustedsize: 23,914,377,904,128 >> 6 = 373,662,154,752;
/// - 0.6.5 and 0.7, spa_get_slop_space: >> 5 = 747,324,309,504;
/// - 0.8: the 16 GiB metaslabs give 23,983,097,380,864, >> 5 = 749,471,793,152;
/// - 2.0.0 to 2.0.5: the same (zfs-2.0.5 spa_misc.c:1788 has no cap);
/// - 2.0.6: capped at spa_max_slop = 128 GiB = 137,438,953,472 (zfs-2.0.6 spa_misc.c:1807);
/// - 2.1: metaslab 0 (16 GiB) goes to the embedded log: dspace 23,965,917,511,680, slop =
///   128 GiB - min(16 GiB, 64 GiB) = 120,259,084,288.
#[test]
fn slop_by_release() {
    let p = file_pool("stripe-1", 24 * TB, 12);
    let old = 23_914_377_904_128;
    let new = 23_983_097_380_864;
    assert_eq!(figures(&p, "0.6.4"), (old, old, 373_662_154_752));
    assert_eq!(figures(&p, "0.6.5"), (old, old, 747_324_309_504));
    assert_eq!(figures(&p, "0.7"), (old, old, 747_324_309_504));
    assert_eq!(figures(&p, "0.8"), (new, new, 749_471_793_152));
    assert_eq!(figures(&p, "2.0"), (new, new, 749_471_793_152));
    assert_eq!(figures(&p, "2.0.5"), (new, new, 749_471_793_152));
    assert_eq!(figures(&p, "2.0.6"), (new, new, 128 * GIB));
    assert_eq!(figures(&p, "2.0.7"), (new, new, 128 * GIB));
    assert_eq!(
        figures(&p, "2.1"),
        (new, new - 16 * GIB, 128 * GIB - 16 * GIB)
    );
}

/// The slop floor on small pools: 32 MiB (SPA_MINDEVSIZE / 2) up to 0.6.x, min(128 MiB, half
/// the pool) from 0.7. A 64 MiB file: 0.6.4 dspace 62,390,272, 1/64 = 974,848 -> 33,554,432;
/// 0.6.5 dspace 50,331,648, 1/32 = 1,572,864 -> 33,554,432; 0.7: min(25,165,824, 128 MiB) =
/// 25,165,824 (the oracle's 2.1.11-2.4.4 figure too).
#[test]
fn slop_floor_of_half_the_pool_from_0_7() {
    let p = file_pool("stripe-1", 64 * MIB, 9);
    assert_eq!(figures(&p, "0.6.4"), (62_390_272, 62_390_272, 32 * MIB));
    assert_eq!(figures(&p, "0.6.5"), (50_331_648, 50_331_648, 32 * MIB));
    assert_eq!(figures(&p, "0.7"), (50_331_648, 50_331_648, 25_165_824));
}

/// The embedded log metaslab from 2.1: a vdev of more than 64 metaslabs lends one. 32.5 GiB
/// file: asize 34,891,890,688 -> 64 metaslabs of 512 MiB (none lent); 33 GiB: 35,428,761,600
/// -> 65, one lent: dspace 64 x 512 MiB = 34,359,738,368, slop = 1/32 = 1,073,741,824 less
/// min(512 MiB, half) = 536,870,912. 2.0 lends none: dspace 34,896,609,280, slop
/// 1,090,519,040.
#[test]
fn embedded_log_metaslab_from_2_1() {
    let at_64 = file_pool("stripe-1", 32 * GIB + 512 * MIB, 12);
    assert_eq!(figures(&at_64, "2.1").1, 64 * 512 * MIB);
    let at_65 = file_pool("stripe-1", 33 * GIB, 12);
    assert_eq!(
        figures(&at_65, "2.1"),
        (65 * 512 * MIB, 64 * 512 * MIB, 512 * MIB)
    );
    assert_eq!(
        figures(&at_65, "2.0"),
        (65 * 512 * MIB, 65 * 512 * MIB, 1_090_519_040)
    );
}

/// dRAID exists from 2.1 (vdev_draid.c); 2.0 refuses it.
#[test]
fn draid_from_2_1() {
    let p = file_pool("draid1:4d:6c:0s", GIB, 12);
    let e = pool_capacity(&p, &release("2.0")).unwrap_err();
    assert!(matches!(e, SpaceError::Unsupported { .. }), "{e}");
    assert!(pool_capacity(&p, &release("2.1")).is_ok());
}

/// Records: 128 KiB up to 0.6.4, zfs_max_recordsize 1 MiB from 0.6.5, 16 MiB from 2.2.
#[test]
fn largest_record_by_release() {
    let mut p = file_pool("mirror-2", GIB, 12);
    for (rs, oldest) in [(MIB, "0.6.5"), (16 * MIB, "2.2")] {
        p.datasets[0].recordsize = rs;
        let before = if rs == MIB { "0.6.4" } else { "2.1" };
        assert!(pool_space(&p, &release(before)).is_err(), "{rs} {before}");
        assert!(pool_space(&p, &release(oldest)).is_ok(), "{rs} {oldest}");
    }
}

/// Special vdevs lend an embedded log metaslab too from 2.4. raidz2-6 of 100 GiB files +
/// special mirror-2 of 10 GiB (the oracle's p80): the special vdev has 19 metaslabs of
/// 512 MiB, too few; with 100 GiB (asize 107,369,463,808: 199 of 512 MiB) it lends one,
/// which 2.4 subtracts from the slop: normal dspace 423,356,268,544 (ZIL 2,860,515,328), 1/32
/// = 13,229,883,392, less min(2,860,515,328 + 536,870,912, half) = 9,832,497,152 (2.3:
/// 10,369,368,064).
#[test]
fn special_embedded_log_from_2_4() {
    let mut p = file_pool("raidz2-6", 100 * GIB, 12);
    p.vdevs.push(TopLevel {
        class: VdevClass::Special,
        layout: "mirror-2".parse().unwrap(),
        leaf: p.vdevs[0].leaf,
    });
    assert_eq!(figures(&p, "2.3").2, 10_369_368_064);
    assert_eq!(figures(&p, "2.4").2, 9_832_497_152);
    assert_eq!(figures(&p, "2.3").0, figures(&p, "2.4").0);
}

/// Which rules a release gets: OpenZFS / ZoL by version; FreeBSD and illumos by the date of
/// their code; Solaris, zfs-fuse and other pre-2014 code the measured legacy rules.
#[test]
fn profile_of_every_family() {
    let names = |text: &str| release(text).name;
    assert_eq!(names("zol-0.6.4"), "zol-0.6");
    assert_eq!(names("0.6.5"), "zol-0.6.5");
    assert_eq!(names("0.7.13"), "zol-0.7");
    assert_eq!(names("0.8.6"), "zol-0.8");
    assert_eq!(names("2.0.5"), "zol-0.8");
    assert_eq!(names("2.0.7"), "openzfs-2.0.6");
    assert_eq!(names("2.1.5"), "openzfs-2.1");
    assert_eq!(names("2.2.9"), "openzfs-2.2");
    assert_eq!(names("2.3.2"), "openzfs-2.3");
    assert_eq!(names("openzfs-2.4"), "openzfs-2.4");
    assert_eq!(Profile::modern().name, "openzfs-2.4");
    assert_eq!(names("solaris-2008"), "legacy");
    assert_eq!(names("illumos-2015"), "zol-0.6.5");
    assert_eq!(names("freebsd-12.1"), "zol-0.7");
    // FreeBSD's zpool uses a whole disk as it is: no GPT.
    let mut p = file_pool("stripe-1", TB, 12);
    p.vdevs[0].leaf.whole_disk = true;
    let on = |zfs: &str| {
        pool_space(&p, &release(zfs)).unwrap().groups[0]
            .leaf
            .device_bytes
    };
    assert_eq!(on("freebsd-11.2"), TB);
    assert_eq!(on("0.6.5"), 999_990_231_040);
}

/// The system file refuses a dRAID where the release has none (`ZfsRelease::has_draid`, with
/// the file's line and column); the space rules must agree with it on every release.
#[test]
fn the_model_and_the_rules_agree_on_which_releases_have_draid() {
    for name in [
        "solaris-2008",
        "zfs-fuse",
        "zol-0.6.5",
        "0.7",
        "0.8",
        "2.0",
        "2.1.0",
        "2.1.5",
        "2.4",
        "freebsd-10.2",
        "freebsd-13.1",
        "illumos-2021",
    ] {
        let release: ZfsRelease = name.parse().unwrap();
        assert_eq!(Profile::of(release).draid, release.has_draid(), "{name}");
    }
}

/// Every rule change names the last release tag without it and the first with it, and the
/// first is the release it is applied from; the last without gets the rules before it.
#[test]
fn every_rule_change_names_its_tags() {
    let version = |tag: &str| -> (u8, u8, u8) {
        let v: Vec<u8> = tag["zfs-".len()..]
            .split('.')
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        (v[0], v[1], *v.get(2).unwrap_or(&0))
    };
    for (i, change) in zpoolsim_space::RULE_CHANGES.iter().enumerate() {
        let (before, first) = change.tags;
        assert_eq!(version(first), change.since, "{first}");
        assert!(version(before) < change.since, "{before}");
        let before_name = Profile::openzfs(version(before)).name;
        let expected = if i == 0 {
            "zol-0.6"
        } else {
            zpoolsim_space::RULE_CHANGES[i - 1].name
        };
        assert_eq!(before_name, expected, "{before}");
        assert_eq!(Profile::openzfs(change.since).name, change.name);
        assert!(change.source.starts_with("module/") || change.source.starts_with("include/"));
    }
}

/// The slop cap by release: 8 x 16 TB raidz2 of whole disks at ashift 12, dspace
/// 90,992,908,697,600 and the empty pool's 873,600 B. Uncapped (2.0.0 to 2.0.5) the slop is
/// 1/32 = 2,843,528,396,800 and AVAIL 88,149,379,427,200 (80.17 TiB); from 2.0.6 it is
/// 128 GiB = 137,438,953,472 and AVAIL 90,855,468,870,528 (82.63 TiB).
#[test]
fn slop_cap_from_2_0_6_on_8_x_16_tb_raidz2() {
    let leaf = Leaf {
        capacity_bytes: 16 * TB,
        logical_sector: 512,
        whole_disk: true,
    };
    let p = Pool::simple("raidz2-8".parse::<Layout>().unwrap(), leaf, 12);
    let cap = |zfs: &str| pool_capacity(&p, &release(zfs)).unwrap();
    let (old, new) = (cap("2.0.5"), cap("2.0.6"));
    assert_eq!(cap("2.0.0"), old);
    assert_eq!(old.dspace_bytes, 90_992_908_697_600);
    assert_eq!(new.dspace_bytes, old.dspace_bytes);
    assert_eq!(old.empty_pool_used_bytes, 873_600);
    assert_eq!(
        (old.slop_bytes, new.slop_bytes),
        (2_843_528_396_800, 128 * GIB)
    );
    assert_eq!(old.avail_bytes, 88_149_379_427_200);
    assert_eq!(new.avail_bytes, 90_855_468_870_528);
}
