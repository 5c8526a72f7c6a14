//! `zpoolsim plan --grow-to`: the raidz layouts that expansion widens to the final disks, and
//! the space each step really gives.

mod common;

/// 4 x 16 TB grown to 5, empty at the widening: raidz1-4 -> raidz1-5 (k = 1 is the only
/// count that divides 4 and 1; raidz2-4 too). After the step zfs list converts at raidz1-4's
/// ratio, 372/512, while a new 128 KiB record costs raidz1-5's 160 KiB: what really fits is
/// AVAIL x 131,072 / (320 x 372 = 119,040), 10.1% more than AVAIL shows, and about what the
/// same disks created as raidz1-5 would show.
#[test]
fn four_disks_grown_to_five() {
    let v = common::json(&[
        "plan",
        "--disks",
        "4",
        "--disk",
        "16TB",
        "--grow-to",
        "5",
        "--grow-fill",
        "0%",
        "--json",
    ]);
    let growth = v["growth"].as_array().unwrap();
    let starts: Vec<&str> = growth
        .iter()
        .map(|o| o["start"].as_str().unwrap())
        .collect();
    assert_eq!(starts, ["raidz1-4", "raidz2-4"]);
    let o = &growth[0];
    assert_eq!(o["end"], "raidz1-5");
    let step = &o["steps"][0];
    assert_eq!(
        (step["layout"].as_str(), step["disks"].as_u64()),
        (Some("raidz1-5"), Some(5))
    );
    let avail = step["avail_bytes"].as_f64().unwrap();
    let holds = step["capacity_bytes"].as_f64().unwrap();
    assert!(
        (holds / avail - 131_072.0 / 119_040.0).abs() < 1e-5,
        "{holds} / {avail}"
    );
    let native = o["native_avail_bytes"].as_f64().unwrap();
    assert!((holds / native - 1.0).abs() < 0.002, "{holds} vs {native}");
    let (code, _, err) = common::run(&[
        "plan",
        "--disks",
        "4",
        "--disk",
        "16TB",
        "--grow-to",
        "5",
        "--grow-fill",
        "95%",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--grow-fill '95%': give a share of the pool from 0% to 90%"),
        "{err}"
    );
}
