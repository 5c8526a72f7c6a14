//! `zpoolsim capacity` end to end: the figures, the JSON, and one-line refusals with exit 2.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .arg("capacity")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON")
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

#[test]
fn catalog_disk_and_system_file() {
    let v = json(&["--layout", "raidz2-6", "--disk", "seagate-exos-x18-18tb"]);
    assert!(v["size_bytes"].as_u64().unwrap() > 100_000_000_000_000);
    let v = json(&["examples/modern-12x20tb-special.toml"]);
    assert!(v["avail_bytes"].as_u64().unwrap() > 0);
    assert_eq!(v["profile"], "modern");
    let v = json(&["examples/seed-000-1320-box.toml", "--zfs", "modern"]);
    assert_eq!(v["profile"], "modern");
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
            vec!["--layout", "raidz1-3", "--disk", "1TB", "--ashift", "8"],
            "ashift",
        ),
        (
            vec!["--layout", "raidz1-3", "--disk", "1TB", "--zfs", "solaris"],
            "modern",
        ),
        (vec!["--layout", "raidz1-3"], "--disk"),
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
