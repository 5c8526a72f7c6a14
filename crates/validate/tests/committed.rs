//! The committed products of the corpus: the fitted constants (crates/perf/data/constants.toml)
//! and the error bands (crates/perf/data/bands.toml) are what `zpoolsim validate --refit` and
//! `--cv` compute from the whole embedded corpus (issue 29: fitted globally, cross-validated by
//! source), and the cross-validated figures hold where they stood when they were committed.

use model::Catalog;
use zpoolsim_validate::{cross_validate, Corpus};

fn corpus() -> Corpus {
    Corpus::embedded(Catalog::embedded()).expect("the embedded corpus loads")
}

#[test]
fn refit_reproduces_the_committed_constants() {
    let refit = zpoolsim_validate::refit(&corpus());
    for c in &refit.constants {
        // Equal values pass, zero too (a share fitted to its bound of 0: 0/0 is no ratio).
        assert!(
            c.fitted == c.committed || (c.fitted / c.committed - 1.0).abs() < 1e-9,
            "{}: refit {:e}, committed {:e}: run `zpoolsim validate --refit -o \
             crates/perf/data/constants.toml --force` and commit the file",
            c.name,
            c.fitted,
            c.committed
        );
    }
    // The file the refit writes is the model's, to the byte, when the values agree.
    let committed = include_str!("../../perf/data/constants.toml");
    if refit.constants.iter().all(|c| c.fitted == c.committed) {
        assert_eq!(refit.file, committed);
    }
}

#[test]
fn cross_validation_gives_the_committed_bands() {
    let cv = cross_validate(&corpus());
    // The figures validation/README.md states, as a floor for what follows: issue 29 asks for a
    // median of at most 25%, and bands holding out of sample: the p90 band 85-95% of the
    // cases, the median band 45-60%.
    assert!(
        cv.median_abs_error_pct <= CV_MEDIAN_PCT,
        "{}",
        cv.median_abs_error_pct
    );
    let c = &cv.band_coverage;
    assert!((85.0..=95.0).contains(&c.p90_pct), "p90 band: {c:?}");
    assert!((45.0..=60.0).contains(&c.p50_pct), "median band: {c:?}");
    // The file `--cv -o` writes is the model's, to the byte.
    assert_eq!(
        cv.bands().to_toml(),
        include_str!("../../perf/data/bands.toml"),
        "run `zpoolsim validate --cv -o crates/perf/data/bands.toml --force` and commit the file"
    );
    assert_eq!(&cv.bands().to_toml(), &perf::Bands::committed().to_toml());
}

#[test]
fn every_case_missed_by_more_than_half_is_explained() {
    // Issue #17: no case over 50% without a sentence in validation/README.md naming it. Issue 29
    // added whole published sources that the model does not yet describe: a case of one of
    // them is explained by its case file's own paragraph (the file named in backticks), which
    // says what the model does not see there; the earlier sources keep their case sentences.
    // Issue 28's latency sources are explained so too, their latency cases only, by their
    // paragraph of the latency section.
    let corpus = corpus();
    let per_source = ISSUE_29_SOURCES;
    let of = |files: &[&str], id: &str, latency_only: bool| {
        corpus.sources.iter().any(|s| {
            files.iter().any(|f| s.file.ends_with(f))
                && s.cases
                    .iter()
                    .any(|c| c.case.id == id && (!latency_only || c.case.metric.is_latency()))
        })
    };
    let covered = |id: &str| of(per_source, id, false) || of(LATENCY_SOURCES, id, true);
    let summary = zpoolsim_validate::validate(&corpus).expect("the corpus predicts");
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/README.md"),
    )
    .expect("validation/README.md");
    let unexplained: Vec<String> = summary
        .cases
        .iter()
        .filter(|c| !c.calibration && c.error_pct.abs() > 50.0)
        .filter(|c| !readme.contains(&format!("`{}`", c.id)))
        .filter(|c| !covered(&c.id))
        .map(|c| format!("{} ({:+.0}%)", c.id, c.error_pct))
        .collect();
    assert!(unexplained.is_empty(), "{unexplained:?}");
    for file in per_source.iter().chain(LATENCY_SOURCES) {
        assert!(
            readme.contains(&format!("- `{file}`")),
            "{file} has no paragraph"
        );
    }
}

/// The case files of the published sources of 2016-2026 (issue 29), each explained by one
/// paragraph of validation/README.md.
const ISSUE_29_SOURCES: &[&str] = &[
    "pajkastare-2024.toml",
    "phaus-2016-dl380.toml",
    "pruiz-2018-issue7834.toml",
    "duzlov-2023-fsync.toml",
    "aztorius-2023-issue15245.toml",
    "trenb-2017-issue6278.toml",
    "issue345-2011-cheetah.toml",
    "issue419-2011-raidz1.toml",
    "issue1705-2013-raidz2.toml",
    "louwrentius-2014-nas.toml",
    "issue3780-2015-raidz2-18.toml",
    "issue2431-2014-r720xd.toml",
    "issue8561-2019-3x-mirror.toml",
    "issue6453-2019-raidz2-10.toml",
    "issue8560-2019-raidz2-10.toml",
    "issue9375-2022-raidz2-6.toml",
    "issue361-2011-dd-rewrite.toml",
    "issue3950-2015-raidz2-9.toml",
    "ewwhite-2017-zfs-ha.toml",
    "tnbench-2026-samples.toml",
    "issue10066-2020-pm983.toml",
    "issue17940-2025-nvme.toml",
    "issue9786-2019-970-evo-plus.toml",
    "kmova-2020-gcp-nvme.toml",
    "microuser-2019-zfs-tune-bench.toml",
];

/// The sources of published latency percentiles (issue 28) whose latency cases one paragraph
/// of validation/README.md's latency section explains.
const LATENCY_SOURCES: &[&str] = &["clemtibs-2025-n6005.toml", "duzlov-2023-fsync.toml"];

/// The leave-one-source-out median |error| when the bands were last committed (22.4% over
/// 1,452 cases of 37 sources, validation/README.md), rounded up: under issue 29's bar of 25%,
/// and a guard against falling back.
const CV_MEDIAN_PCT: f64 = 23.0;
