//! The committed products of the corpus: the fitted constants (crates/perf/data/constants.toml)
//! and the error bands (crates/perf/data/bands.toml) are what `zpoolsim validate --refit` and
//! `--cv` compute from the embedded corpus, and the model meets the bars on it.

use model::Catalog;
use zpoolsim_validate::{cross_validate, Corpus};

fn corpus() -> Corpus {
    Corpus::embedded(Catalog::embedded()).expect("the embedded corpus loads")
}

#[test]
fn refit_reproduces_the_committed_constants() {
    let refit = zpoolsim_validate::refit(&corpus());
    for c in &refit.constants {
        assert!(
            (c.fitted / c.committed - 1.0).abs() < 1e-9,
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
fn cross_validation_gives_the_committed_bands_within_the_bar() {
    let cv = cross_validate(&corpus());
    // Issue #8: leave-one-source-out median at most 20%.
    assert!(
        cv.median_abs_error_pct <= 20.0,
        "{}",
        cv.median_abs_error_pct
    );
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
    // Issue #17: no case over 50% without a sentence in validation/README.md naming it.
    let summary = zpoolsim_validate::validate(&corpus()).expect("the corpus predicts");
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/README.md"),
    )
    .expect("validation/README.md");
    let unexplained: Vec<String> = summary
        .cases
        .iter()
        .filter(|c| !c.calibration && c.error_pct.abs() > 50.0)
        .filter(|c| !readme.contains(&format!("`{}`", c.id)))
        .map(|c| format!("{} ({:+.0}%)", c.id, c.error_pct))
        .collect();
    assert!(unexplained.is_empty(), "{unexplained:?}");
}
