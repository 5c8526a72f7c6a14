//! `zpoolsim capacity` end to end: the figures, the JSON, and one-line refusals with exit 2.

mod common;

/// `zpoolsim capacity ARGS`.
fn run(args: &[&str]) -> (i32, String, String) {
    common::run(&[&["capacity"], args].concat())
}

/// `zpoolsim capacity ARGS --json`.
fn json(args: &[&str]) -> serde_json::Value {
    common::json(&[&["capacity"], args, &["--json"]].concat())
}

#[test]
fn the_issue_example() {
    let (code, out, _) = run(&["--layout", "3x raidz1-5", "--disk", "750GB"]);
    assert_eq!(code, 0);
    assert!(out.contains("zpool list SIZE 10.2T"), "{out}");
    assert!(out.contains("zfs list AVAIL 8.04T"), "{out}");
    assert!(out.contains("11,235,634,446,336"), "{out}");
    let v = json(&["--layout", "3x raidz1-5", "--disk", "750GB"]);
    assert_eq!(v["size_bytes"], 11_235_634_446_336u64);
    assert_eq!(v["avail_bytes"], 8_837_901_190_080u64);
    for key in ["breakdown", "groups", "warnings", "efficiency"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert!(v.get("files").is_none());
}

#[test]
fn file_vdev_check_value_and_files() {
    let v = json(&[
        "--layout",
        "stripe-1",
        "--disk",
        "1000GiB",
        "--file-vdevs",
        "--ashift",
        "9",
        "--files",
        "1K,129K",
    ]);
    assert_eq!(v["size_bytes"], 1_065_151_889_408u64);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file_bytes"], 1024);
    assert_eq!(files[0]["allocated_bytes"], 1024);
    assert_eq!(files[1]["allocated_bytes"], 262_144);
    assert_eq!(files[1]["used_bytes"], 262_144);
    assert_eq!(files[1]["recordsize"], 131_072);
}

// examples/modern-12x20tb-special.toml by hand (docs/zfs-internals.md §1): 2x raidz2-6 of Exos X20
// (20,000,588,955,648 B, 512 B logical sectors) + special mirror-2 of PM893 3.84 TB
// (3,840,755,982,336 B, 512 B), ashift 12, Linux whole disks.
// Exos X20: N = 39,063,650,304 sectors; data partition = floor((N - 33 - 16,384 - 2,048) / 2048)
//   = floor(39,063,631,839 / 2048) = 19,074,038 x 2048 sectors = 20,000,578,469,888 B (a
//   multiple of 256 KiB); leaf asize = that - 4,718,592 = 20,000,573,751,296.
//   raidz2-6 asize = 6 x = 120,003,442,507,776; >> 29 = 223,523 > 200, so shift =
//   highbit(asize / 200 = 600,017,212,538) = 40, clamped to 34; 6,985 metaslabs of 16 GiB =
//   120,001,386,250,240 per vdev, 240,002,772,500,480 for two.
// PM893: N = 7,501,476,528; floor(7,501,458,063 / 2048) = 3,662,821 x 2048 sectors =
//   3,840,746,192,896 B; asize 3,840,741,474,304; highbit(asize / 200) = 35 -> 34; 223
//   metaslabs = 3,831,110,828,032.
// SIZE = 240,002,772,500,480 + 3,831,110,828,032 = 243,833,883,328,512.
// dspace: each raidz vdev (more than 64 metaslabs) lends one to the ZIL: 6,984 x 2^34 =
//   119,984,206,381,056; deflate ratio 131,072 / (196,608 >> 9) = 341; (>> 9) x 341 =
//   79,911,356,203,008; two vdevs: 159,822,712,406,016. ZIL: 2 x (2^34 >> 9) x 341 =
//   22,884,122,624.
//   The special mirror (more than 64 metaslabs) lends one of its own since OpenZFS 2.4, the
//   default release: 2^34 at ratio 512 = 17,179,869,184.
// slop = min(dspace / 32 = 4,994,459,762,688, 128 GiB = 137,438,953,472) - min(ZILs =
//   40,063,991,808, slop / 2) = 97,374,961,664 (114,554,830,848 up to 2.3: normal ZILs only).
//   Empty pool: 100 blocks of 1 KiB, 3 sectors each on raidz2-6 = 12,288 B, charged 24 x 341 =
//   8,184: 818,400.
// AVAIL = 159,822,712,406,016 - 97,374,961,664 - 818,400 = 159,725,336,625,952.
#[test]
fn catalog_disk_and_system_file() {
    let v = json(&["--layout", "raidz2-6", "--disk", "seagate-exos-x18-18tb"]);
    assert!(v["size_bytes"].as_u64().unwrap() > 100_000_000_000_000);
    let v = json(&["examples/modern-12x20tb-special.toml"]);
    assert_eq!(v["size_bytes"], 243_833_883_328_512u64);
    assert_eq!(v["dspace_bytes"], 159_822_712_406_016u64);
    assert_eq!(v["slop_bytes"], 97_374_961_664u64);
    assert_eq!(v["avail_bytes"], 159_725_336_625_952u64);
    assert_eq!(v["profile"], "openzfs-2.4");
    let v = json(&["examples/modern-12x20tb-special.toml", "--zfs", "2.3"]);
    assert_eq!(v["slop_bytes"], 114_554_830_848u64);
    assert_eq!(v["profile"], "openzfs-2.3");
    let v = json(&["examples/seed-000-1320-box.toml", "--zfs", "modern"]);
    assert_eq!(v["profile"], "openzfs-2.4");
}

// Issue #9: 36 whole disks of 18,000,207,937,536 B (Seagate ST18000NM000J, 512 B logical
// sectors) in draid1:16d:36c:2s at ashift 12; OpenZFS 2.1.5 on Linux showed `zfs get available
// -p` = 574,804,246,033,080. Worked in crates/space/src/draid.rs (issue_9_pool_metaslabs): SIZE
// 611,996,145,381,376 (metaslabs aligned to rows of 17 x 4 KiB); ZIL metaslab 0 =
// 17,179,815,936; ratio 2^17 / (2 rows x 17 x 4 KiB >> 9) = 481; dspace = ((SIZE - ZIL) >> 9)
// x 481 = 574,925,551,634,720; slop = 128 GiB - ZIL deflated (16,139,631,768) =
// 121,299,321,704; empty pool 100 x (69,632 >> 9) x 481 = 6,541,600; AVAIL =
// 574,804,245,771,416, 261,664 B below the real pool (whose metadata took 6,279,936 B).
#[test]
fn issue_9_draid_pool() {
    let real = 574_804_246_033_080u64;
    let args = [
        "--layout",
        "draid1:16d:36c:2s",
        "--disk",
        "18000207937536",
        "--ashift",
        "12",
    ];
    // The default (current) release and the one that made the pool agree here.
    for v in [
        json(&args),
        json(&[&args[..], &["--zfs", "2.1.5"]].concat()),
    ] {
        assert_eq!(v["size_bytes"], 611_996_145_381_376u64);
        assert_eq!(v["dspace_bytes"], 574_925_551_634_720u64);
        assert_eq!(v["slop_bytes"], 121_299_321_704u64);
        let avail = v["avail_bytes"].as_u64().unwrap();
        assert_eq!(avail, 574_804_245_771_416);
        assert!(avail <= real && real - avail <= 16 << 20, "{avail}");
    }
}

#[test]
fn legacy_profile() {
    let v = json(&[
        "--layout",
        "stripe-1",
        "--disk",
        "64MiB",
        "--file-vdevs",
        "--ashift",
        "9",
        "--zfs",
        "legacy",
    ]);
    assert_eq!(v["size_bytes"], 62_390_272u64);
}

#[test]
fn poor_width_is_accepted_with_a_warning() {
    let (code, out, _) = run(&["--layout", "raidz2-5", "--disk", "4TB", "--ashift", "12"]);
    assert_eq!(code, 0);
    assert!(out.contains("warning: raidz2-5 at ashift 12"), "{out}");
}

#[test]
fn ashift_below_the_physical_sector_warns() {
    // WD Red Plus 4 TB: 512 B logical, 4 KiB physical sectors (512e).
    let args = [
        "--layout",
        "raidz2-6",
        "--disk",
        "wd-red-plus-4tb",
        "--ashift",
        "9",
    ];
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "warning: ashift 9 (512 B) is below the 4096 B physical sector of wd-red-plus-4tb"
        ),
        "{out}"
    );
    let v = json(&["--layout", "raidz2-6", "--disk", "wd-red-plus-4tb"]);
    assert!(
        !v["warnings"].to_string().contains("physical sector"),
        "{v}"
    );
    // In a system file: its disks are named from the catalog.
    let v = json(&["examples/modern-12x20tb-special.toml", "--ashift", "9"]);
    let warnings = v["warnings"].to_string();
    assert!(
        warnings.contains("physical sector of seagate-exos-x20-20tb"),
        "{warnings}"
    );
    assert!(
        warnings.contains("physical sector of samsung-pm893-3.84tb"),
        "{warnings}"
    );
}

#[test]
fn a_file_larger_than_avail_is_said_not_to_fit() {
    // raidz2-6 of 4 TB: AVAIL 15.8 TB; a 20 TB file is charged 19,980,468,799,104 B.
    let v = json(&[
        "--layout", "raidz2-6", "--disk", "4TB", "--files", "20TB,1M",
    ]);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files[0]["used_bytes"], 19_980_468_799_104u64);
    let warning = files[0]["warning"].as_str().unwrap();
    assert!(warning.starts_with("a file of 18.19 TiB would be charged 18.17 TiB by zfs list, more than the empty pool's AVAIL of "), "{warning}");
    assert!(files[1].get("warning").is_none());
    let (code, out, _) = run(&["--layout", "raidz2-6", "--disk", "4TB", "--files", "20TB"]);
    assert_eq!(code, 0);
    assert!(out.contains("warning: a file of 18.19 TiB"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, says) in [
        (
            vec!["--layout", "3x raid5-5", "--disk", "750GB"],
            "unknown vdev type",
        ),
        (
            vec!["--layout", "raidz3-3", "--disk", "750GB"],
            "at least 4",
        ),
        (vec!["--layout", "raidz1-3", "--disk", "-4TB"], "negative"),
        (
            vec!["--layout", "raidz1-3", "--disk", "no-such-disk"],
            "catalog",
        ),
        (vec!["--layout", "raidz1-3", "--disk", "10MB"], "too small"),
        (
            vec![
                "--layout",
                "draid1:2d:5c:2s",
                "--disk",
                "64MiB",
                "--file-vdevs",
            ],
            "a top-level vdev of 48.00 MiB is too small",
        ),
        (
            vec!["--layout", "raidz1-3", "--disk", "1TB", "--ashift", "8"],
            "ashift",
        ),
        (
            vec!["--layout", "raidz1-3", "--disk", "1TB", "--zfs", "solaris"],
            "--zfs: unknown ZFS release 'solaris': expected openzfs-2.2",
        ),
        (vec!["--layout", "raidz1-3"], "--disk"),
        (
            vec![
                "--layout",
                "raidz2-6",
                "--disk",
                "4TB",
                "--files",
                "18446744073709551615",
            ],
            "more than 2^64 bytes",
        ),
        (vec!["no-such-file.toml"], "cannot read"),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn malformed_system_file_names_file_line_and_column() {
    let path = std::env::temp_dir().join(format!("zpoolsim-bad-{}.toml", std::process::id()));
    std::fs::write(&path, "name = \"x\"\n[pool]\nlayout = raidz2-6\n").unwrap();
    let (code, out, err) = run(&[path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let location = format!("{}:3:10:", path.display());
    assert!(err.contains(&location), "{err}");
}

/// `--expand` on the oracle's pool x01 (crates/space/oracle/expansions.txt): raidz1-4 of
/// 512 MiB files holding 1,600 records of 128 KiB (200 MiB), widened to raidz1-5. libzpool
/// 2.3.2 and 2.4.4 read SIZE 2,013,265,920 -> 2,550,136,832 (15 -> 19 metaslabs of 128 MiB),
/// dspace 1,462,763,520 -> 1,852,833,792 at the original ratio 372/512 (raidz1-5's own would
/// be 409), old records 176 KiB charged 130,944 B, new ones 160 KiB charged 119,040 B. A
/// rewrite frees 1,600 x 16 KiB = 26,214,400 B of ALLOC and gives 1,600 x 11,904 =
/// 19,046,400 B of AVAIL.
#[test]
fn raidz_expansion_of_the_oracle_pool() {
    let args = [
        "--layout",
        "raidz1-4",
        "--disk",
        "536870912",
        "--file-vdevs",
        "--expand",
        "raidz1-4 -> raidz1-5 at 200MiB",
    ];
    let v = json(&args);
    let x = &v["expansion"];
    assert_eq!(
        (
            x["deflate_ratio"].as_u64(),
            x["native_deflate_ratio"].as_u64()
        ),
        (Some(372), Some(409))
    );
    let step = &x["steps"][0];
    assert_eq!(
        (step["from"].as_str(), step["to"].as_str()),
        (Some("raidz1-4"), Some("raidz1-5"))
    );
    assert_eq!(step["data_bytes"], 209_715_200u64);
    assert_eq!(step["before"]["size_bytes"], 2_013_265_920u64);
    assert_eq!(step["after"]["size_bytes"], 2_550_136_832u64);
    assert_eq!(step["after"]["dspace_bytes"], 1_852_833_792u64);
    assert_eq!(step["after"]["metaslabs"], 19);
    let cost = |i: usize| {
        let r = &step["records"][i];
        (
            r["width"].as_u64().unwrap(),
            r["records"].as_u64().unwrap(),
            r["asize_bytes"].as_u64().unwrap(),
            r["charged_bytes"].as_u64().unwrap(),
        )
    };
    assert_eq!(cost(0), (4, 1_600, 180_224, 130_944));
    assert_eq!(cost(1), (5, 0, 163_840, 119_040));
    assert_eq!(x["rewrite"]["records"], 1_600);
    assert_eq!(x["rewrite"]["alloc_freed_bytes"], 26_214_400u64);
    assert_eq!(x["rewrite"]["avail_gained_bytes"], 19_046_400u64);
    let (code, out, _) = run(&args);
    assert_eq!(code, 0);
    assert!(
        out.contains("step 1: raidz1-4 -> raidz1-5, 1 disk attached"),
        "{out}"
    );
    assert!(
        out.contains("deflate ratio of the original width, 372/512"),
        "{out}"
    );
    assert!(
        out.contains(
            "width  5, 128K:    160K allocated (80.0% data), charged    116K  new records"
        ),
        "{out}"
    );
    let (code, _, err) = run(&[
        "--layout", "mirror-2", "--disk", "4TB", "--expand", "raidz1-5",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--expand: zpool attach widens raidz vdevs"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "--layout", "raidz1-4", "--disk", "4TB", "--zfs", "2.2", "--expand", "raidz1-5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("raidz expansion (zpool attach to a raidz vdev) does not exist in the 'openzfs-2.2' ZFS profile"), "{err}");
}
