//! `zpoolsim report`, `reliability` and `plan` end to end on their safety figures: a disk
//! whose data sheet gives no failure rate, `--afr`, and one-line refusals with exit 2.

mod common;

use common::run;
use common::scratch::Scratch;

/// Issue #15: a disk whose data sheet gives no failure rate had "unknown" loss odds; it takes
/// the field rate of its class, and the report says where each figure comes from.
#[test]
fn report_of_a_disk_without_a_data_sheet_rate_uses_the_field_rate() {
    let (code, out, err) = run(&["report", "examples/seed-000-1320-box.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("zfs list AVAIL 3.98 TiB"), "{out}");
    assert!(out.contains("fio-read"), "{out}");
    // The resilver needs no lifetime: 600.1 GB from each of 6 survivors, a sorted scan over
    // the whole 750 GB disk at 62.8 MB/s in 6.8 million reads of at most 128 KiB (the
    // release's aggregation limit), 3.6 h; at 80% full 10% of the blocks were placed by size
    // and the scan's window (5% of the RAM) misses most of them: 2.1 h of scattered reads.
    assert!(out.contains("resilver       5.7 h"), "{out}");
    assert!(
        out.contains("  disk samsung-hd753lj: AFR 1.57% (field rate of Backblaze's hard disks, 2024 (docs/assumptions.md); the data sheet's: none), 2.19e-16 latent errors per bit a rebuild reads (latent sector errors of nearline disks (3.15% a year) left until a monthly scrub; the data sheet's: none)"),
        "{out}"
    );
    assert!(!out.contains("unknown"), "{out}");
}

#[test]
fn reliability_of_a_disk_without_a_data_sheet_rate_prints_it_all() {
    let args = ["reliability", "examples/seed-000-1320-box.toml", "--json"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["disk"], "samsung-hd753lj");
    assert_eq!(v["afr_pct"], 1.57);
    assert!(v["figures"]["datasheet_afr_pct"].is_null());
    assert!(!v["monte_carlo"].is_null() && !v["mttdl"].is_null());
    let hours = v["rebuilds"][0]["hours"].as_f64().unwrap();
    assert!((5.6..5.8).contains(&hours), "{hours}");
}

#[test]
fn afr_gives_the_loss_figures() {
    // Four WD Red Plus 4 TB in raidz1-4 with --afr 1: MTBF 8760 / -ln(0.99) h. Exponential:
    // the closed form by hand with MTTR = 72 h + the resilver, pool lost at a second failure.
    let file = "examples/modern-home-4x-red-plus.toml";
    let args = ["reliability", file, "--afr", "1", "--trials", "0", "--json"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mttr = 72.0 + v["rebuilds"][0]["hours"].as_f64().unwrap();
    let mtbf = 8760.0 / -(0.99f64.ln());
    let rate = 4.0 / mtbf * (3.0 * mttr / mtbf);
    let p = v["closed_form"]["pool_loss"].as_f64().unwrap();
    let expected = -(-5.0 * 8760.0 * rate).exp_m1();
    assert!((p / expected - 1.0).abs() < 1e-6, "{p} vs {expected}");
    // Weibull lifetimes scale to the AFR.
    let (code, out, err) = run(&["reliability", file, "--weibull", "3", "--trials", "2000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Monte Carlo (2000 missions, seed 1)"), "{out}");
}

#[test]
fn unbounded_work_is_refused_in_one_line() {
    let qd = format!(
        "qd={}",
        (1..=20_000)
            .map(|q| q.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    for (args, why) in [
        (
            &["reliability", "--years", "1e300"][..],
            "invalid value '1e300' for '--years <YEARS>': give 0.1 to 100 years",
        ),
        (
            &["reliability", "--trials", "18446744073709551615"][..],
            "give 0 to 10000000 missions",
        ),
        (
            &["plan", "--disks", "100000", "--disk", "16TB"][..],
            "100000 disks: the planner takes at most 1000",
        ),
        (
            &["plan", "--disks", "0", "--disk", "16TB"][..],
            "a pool needs at least one disk",
        ),
        (
            &["plan", "--disks", "24", "--spares", "24", "--disk", "16TB"][..],
            "no disks left for a pool after 24 hot spares of 24 disks",
        ),
        (
            &["plan", "--disks", "4", "--disk", "16TB", "--years", "200"][..],
            "invalid value '200' for '--years <YEARS>': give 0.1 to 100 years",
        ),
        (
            &["reliability", "--years", "100", "--trials", "10000000"][..],
            "simulate at most 1531435 trials of these 8 disks over this mission",
        ),
        (
            &["predict", "examples/raidz2-10x4tb.toml", "-w", "dd-read", "--sweep", &qd][..],
            "sweep: 200000 points x disks is more work than one request may take (150000): sweep at most 15000 points on 10 disks",
        ),
        (
            &["plan", "--disks", "1000", "--disk", "16TB", "--workload", "dd-read", "--consider-all"][..],
            "228 layouts of 1000 disks leave room for no workload beyond the standard three",
        ),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

/// Issue #10: reliability never said which failure figures it used nor what a Weibull shape
/// implies, and gave the closed form far outside its validity (P(loss) 100% where the
/// simulation gives 0.03%). Issue #26: a Weibull shape holds the AFR over the mission, so 7.6%
/// of the disks fail in 5 years at the field AFR, where scaling to the first year said 86.2%.
#[test]
fn reliability_names_its_failure_figures_and_where_the_closed_form_fails() {
    let (code, out, err) = run(&["reliability", "--trials", "2000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  disk seagate-exos-x16-16tb: AFR 1.57% (field rate of Backblaze's hard disks, 2024 (docs/assumptions.md); the data sheet's: 0.35%), 1.03e-17 latent errors per bit a rebuild reads (latent sector errors of nearline disks (3.15% a year) left until a monthly scrub; the data sheet's: 1e-15, a bound); exponential lifetimes, MTBF 5.536e5 h; 7.6% of the disks fail within 5 years, none replaced\n"),
        "{out}"
    );
    let (code, out, err) = run(&["reliability", "--weibull", "3", "--trials", "2000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Weibull lifetimes of shape 3, scale 1.020e5 h (failing at the AFR on average over the mission); 7.6% of the disks fail within 5 years, none replaced"),
        "{out}"
    );
    let args = [
        "reliability",
        "--replacement-hours",
        "8760",
        "--years",
        "0.5",
        "--trials",
        "2000",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("closed form (MTTDL[1]): not valid here: a repair takes 8.825e3 h against a mission of 4380 h"),
        "{out}"
    );
    assert!(!out.contains("P(pool loss) 100"), "{out}");
}

/// Issue #10: compare gave a single disk P(BLOCK LOSS) 0%, a mirror 2%: a pool without
/// redundancy loses a block to every latent error its monthly scrubs meet. Issue #15: at the
/// field rate of latent errors (not the data sheet's 1e-14 per bit taken as the rate) the
/// 4 TB disk loses blocks with 6.1% over 5 years, the mirror 0.017%.
#[test]
fn a_pool_without_redundancy_loses_blocks() {
    let v = common::json(&[
        "compare",
        "examples/raidz2-10x4tb.toml",
        "--layout",
        "stripe-1",
        "--layout",
        "mirror-2",
        "--json",
    ]);
    let block = |i: usize| {
        v["layouts"][i]["closed_form"]["block_loss"]
            .as_f64()
            .unwrap()
    };
    assert!((0.060..0.062).contains(&block(0)), "{}", block(0));
    assert!((1.6e-4..1.7e-4).contains(&block(1)), "{}", block(1));
}

/// Issue #10: plan.svg's legend had classes of its own (0.01%, 1%) whatever the need, and a
/// filled swatch for the rings.
#[test]
fn the_plan_chart_legend_follows_the_need() {
    let dir = Scratch::new("plan-chart");
    let svg = dir.join("plan.svg");
    let (code, _, err) = run(&[
        "plan",
        "--disks",
        "24",
        "--disk",
        "seagate-exos-x16-16tb",
        "--need",
        "avail>=200TB,loss<=0.001%",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let drawn = std::fs::read_to_string(&svg).unwrap_or_default();
    assert_eq!(code, 0, "{err}");
    assert!(
        drawn.contains(">P(data loss) &lt;= 1.0e-3% (the need)</text>"),
        "{drawn}"
    );
    assert!(
        drawn.contains(">P(data loss) &lt;= 1.0e-4%</text>"),
        "{drawn}"
    );
    assert!(!drawn.contains("&lt;= 1%"), "{drawn}");
    assert!(drawn.contains(r##"r="5" fill="none" stroke="#000" stroke-width="2"/><text"##));
    // The pick: the most usable space under 0.001% (issue #26's default ranking).
    assert!(drawn.contains(r#"text-anchor="end">draid2:8d:24c:1s (P(data loss) 2.0e-4%)<"#));
}

/// Issue #10: compare's table said 367 random reads a second and its text 368 (the bound of
/// the limiting vdev, not the figure), and "x 8.00 (the pool's bytes per byte it moves)" read
/// as an amplification where it is the disks sharing a stream. Each text line now starts with
/// the table's figure, and the factor says what it relates.
#[test]
fn compare_text_carries_the_table_figure_and_says_what_its_factor_is() {
    let (code, out, err) = run(&[
        "compare",
        "examples/seed-001-pcix-15-disk.toml",
        "--layout",
        "3x raidz1-5",
    ]);
    assert_eq!(code, 0, "{err}");
    let table_iops = out
        .lines()
        .find(|l| l.starts_with("3x raidz1-5  "))
        .and_then(|l| l.split_whitespace().nth(9))
        .unwrap();
    let text = out
        .lines()
        .find(|l| l.starts_with("3x raidz1-5 fio-randread:qd=32 "))
        .unwrap();
    assert!(
        text.starts_with(&format!("3x raidz1-5 fio-randread:qd=32 {table_iops}/s: ")),
        "{out}"
    );
    assert!(
        out.contains(
            "516.5 MB/s x 1.00 (the workload's bytes per byte this resource moves) = 516.5 MB/s"
        ),
        "{out}"
    );
    let (_, report, _) = run(&["report"]);
    assert!(
        report.contains("185.6 MB/s x 8.00 (the workload's bytes per byte this resource moves)"),
        "{report}"
    );
}
