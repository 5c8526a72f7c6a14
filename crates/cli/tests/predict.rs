//! `zpoolsim predict` and `zpoolsim validate` end to end: the figures and JSON the issue asks
//! for, the corpus within tolerance, and one-line refusals with exit 2.

mod common;

use common::scratch::Scratch;
use common::{json, run};

#[test]
fn seed_000_stripe_read_is_bound_by_the_slowest_disk() {
    let v = json(&[
        "predict",
        "examples/seed-000-stripe-7.toml",
        "--workload",
        "dd-read",
        "--json",
    ]);
    let mb_s = v["throughput_bytes_per_s"].as_f64().unwrap() / 1e6;
    assert!((550.0..=567.0).contains(&mb_s), "{mb_s}");
    assert_eq!(v["bottleneck"]["kind"], "disk");
    assert!(v["bottleneck"]["utilization"].as_f64().unwrap() > 0.95);
    assert!(v["iops"].as_f64().unwrap() > 500.0);
    assert_eq!(v["devices"].as_array().unwrap().len(), 7);
    let (_, text, _) = run(&[
        "predict",
        "examples/seed-000-stripe-7.toml",
        "-w",
        "dd-read",
    ]);
    assert!(text.contains("81.0 MB/s x 7.00"), "{text}");
}

#[test]
fn a_benchmark_command_line_predicts_every_timed_phase() {
    let bonnie = "bonnie++ -u root -r 1024 -s 16384 -f -b -n 1 -c 4";
    let calomel = "examples/calomel-24x-wd-re-4tb.toml";
    let v = json(&["predict", calomel, "-w", bonnie, "--json"]);
    let phases = v.as_array().unwrap();
    let kinds: Vec<&str> = phases
        .iter()
        .map(|p| p["workload"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "bonnie++ write",
            "bonnie++ rewrite",
            "bonnie++ read",
            "bonnie++ seeks"
        ]
    );
    // Each states the error to expect: its class's cross-validated median and p90 bands
    // (crates/perf/data/bands.toml), as where the measured value lies around the prediction,
    // the median band within the p90 band, and the +/- that holds each.
    for p in phases {
        let range = |key: &str| -> Vec<f64> {
            p[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect()
        };
        let (p50, p90) = (range("expected_range_pct"), range("expected_range_p90_pct"));
        assert!(
            p90[0] <= p50[0] && p50[0] < p50[1] && p50[1] <= p90[1],
            "{p50:?} {p90:?}"
        );
        let reach = p["expected_error_pct"].as_f64().unwrap();
        assert_eq!(reach, p50[0].abs().max(p50[1].abs()));
        assert!(p["expected_error_p90_pct"].as_f64().unwrap() >= reach);
    }
    let (code, text, err) = run(&["predict", calomel, "-w", bonnie]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bonnie++ ")).count(),
        8
    );
    // One phase: the full report, with its expected error.
    let (_, one, _) = run(&["predict", calomel, "-w", &format!("{bonnie} @read")]);
    assert!(one.contains("expected:  measured typically "), "{one}");
    // A sweep varies one phase.
    let (code, _, err) = run(&["predict", calomel, "-w", bonnie, "--sweep", "bs=8K,64K"]);
    assert_eq!(code, 2);
    assert!(err.contains("add @PHASE"), "{err}");
}

#[test]
fn sweep_prints_the_curve_and_plots_it() {
    let dir = Scratch::new("sweep");
    let svg = dir.join("sweep.svg");
    let (code, out, err) = run(&[
        "predict",
        "examples/seed-004-dk32ej.toml",
        "-w",
        "raw-write:wcache=off",
        "--sweep",
        "bs=16K,128K,1M,8M",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Seed 004's curve at one request in flight: 16K ~2.5, 8M ~66 MB/s.
    let rates: Vec<f64> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(rates.len(), 4);
    assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
    assert!(
        (rates[0] - 2.6).abs() < 0.3 && (rates[3] - 65.9).abs() < 1.0,
        "{rates:?}"
    );
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains(">8M<"));
    assert!(drawn.contains(">MB/s</text>"), "{drawn}");
}

/// Issue #10: the README's qd chart of 4K random reads plotted MB/s (0.25 to 0.82, labelled
/// "1 MB/s"); random I/O is plotted in IOPS, the figure the table prints.
#[test]
fn a_sweep_of_random_reads_is_plotted_in_iops() {
    let dir = Scratch::new("qd");
    let svg = dir.join("qd.svg");
    let (code, out, err) = run(&[
        "predict",
        "examples/modern-12x20tb-special.toml",
        "-w",
        "fio-randread:bs=4K,qd=32",
        "--sweep",
        "qd=1..64",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let iops: Vec<f64> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains(">IOPS</text>"), "{drawn}");
    let best = iops.iter().copied().fold(0.0, f64::max);
    assert!(best > 100.0, "{iops:?}");
    assert!(drawn.contains(&format!(">{best:.0} IOPS: ")), "{drawn}");
}

/// The id prefixes of the cases of the sources before issue 29 (the seeds, Calomel's two
/// tables, clemtibs), whose misses over 50% are explained one by one in validation/README.md;
/// issue 29's sources are explained by source there (crates/validate/tests/committed.rs).
const EARLIER_PREFIXES: &[&str] = &["000-", "001-", "002-", "004-", "calomel-", "clemtibs-"];

#[test]
fn validate_meets_the_issue_s_bar() {
    let v = json(&["validate", "--json"]);
    let all = v["cases"].as_array().unwrap();
    assert!(all.len() >= 1693, "{}", all.len());
    // The constants are fitted over the whole corpus (issue 29). In sample, the whole corpus's
    // median and the earlier sources' stand where validation/README.md states them (19.1% over
    // 1,452 counted cases of 37 sources, and 10.3%), held as floors; the rule of thumb does far
    // worse.
    let whole = v["median_abs_error_pct"].as_f64().unwrap();
    assert!(whole <= 20.0, "{whole}");
    let earlier = |id: &str| EARLIER_PREFIXES.iter().any(|p| id.starts_with(p));
    let cases: Vec<&serde_json::Value> = all
        .iter()
        // Throughput cases: clemtibs's latency percentiles (issue 28) are scored apart.
        .filter(|c| earlier(c["id"].as_str().unwrap()) && c["latency"] == false)
        .collect();
    assert_eq!(
        cases.len(),
        223,
        "the seeds, Calomel's two tables and clemtibs"
    );
    let mut counted: Vec<f64> = cases
        .iter()
        .filter(|c| c["calibration"] == false)
        .map(|c| c["error_pct"].as_f64().unwrap().abs())
        .collect();
    counted.sort_by(f64::total_cmp);
    let median = counted[counted.len() / 2];
    assert!(median <= 15.0, "{median}");
    assert!(v["baseline_median_abs_error_pct"].as_f64().unwrap() > 50.0);
    // Every case over 50% has its sentence in validation/README.md, by id.
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../validation/README.md"
    ))
    .unwrap();
    for c in cases.iter().filter(|c| c["calibration"] == false) {
        let e = c["error_pct"].as_f64().unwrap();
        let id = c["id"].as_str().unwrap();
        if e.abs() > 50.0 {
            assert!(
                readme.contains(&format!("`{id}`")),
                "{id} is off by {e:.0}% and validation/README.md does not say why"
            );
        }
        assert!(c["measured"].is_array() && c["predicted"].is_number());
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec![
            "predict",
            "examples/seed-004-dk32ej.toml",
            "-w",
            "dd-sideways",
        ],
        vec![
            "predict",
            "examples/seed-004-dk32ej.toml",
            "-w",
            "dd-read:bs=0",
        ],
        vec!["predict", "examples/none.toml", "-w", "dd-read"],
        vec![
            "predict",
            "examples/seed-004-dk32ej.toml",
            "-w",
            "dd-read",
            "--sweep",
            "threads",
        ],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// Issue #18: predict needed a system file where report and reliability take the embedded
/// default; it takes it too, and says so.
#[test]
fn without_a_system_file_predict_uses_the_embedded_default_and_says_so() {
    let (code, out, err) = run(&["predict", "-w", "dd-read"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("assumed:   no system file: the embedded default system (default: 8 x Exos X16 16 TB raidz2-8"),
        "{out}"
    );
    assert!(out.contains("predicted: "), "{out}");
}

/// `predict --latency` (issue 28): the simulated percentiles of random reads on the modern
/// pool, in order and around the MVA's mean (163 ms for 32 requests at 196 IOPS); the same
/// in text; a 16 KiB synchronous writer's time shows its log device on the pool with one;
/// a sweep is refused in one line.
#[test]
fn latency_percentiles_and_where_the_time_goes() {
    let modern = "examples/modern-12x20tb-special.toml";
    let args = [
        "predict",
        modern,
        "-w",
        "fio-randread:bs=4K,qd=32",
        "--latency",
    ];
    let v = json(&[&args[..], &["--json"]].concat());
    let l = &v["latency_s"];
    let q = |k: &str| l[k].as_f64().unwrap();
    assert!(
        q("p50") < q("p90") && q("p90") < q("p99") && q("p99") < q("p999"),
        "{l}"
    );
    let mean = v["mean_latency_s"].as_f64().unwrap();
    assert!(
        q("p50") > 0.8 * mean && q("p50") < 1.2 * mean,
        "{l} vs {mean}"
    );
    assert_eq!(l["stations"][0]["station"], "application threads");
    let (code, text, _) = run(&args);
    assert_eq!(code, 0);
    assert!(
        text.contains("latency:   p50 ") && text.contains("time in:   "),
        "{text}"
    );
    let slog = "examples/modern-12x20tb-special-slog.toml";
    let sync = [
        "predict",
        slog,
        "-w",
        "fio-randwrite:bs=16K,sync=on",
        "--latency",
    ];
    let (_, text, _) = run(&sync);
    assert!(text.contains("log device "), "{text}");
    let sweep = [&args[..], &["--sweep", "qd=1,2"]].concat();
    let (code, _, err) = run(&sweep);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
}
