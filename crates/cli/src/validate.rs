//! `zpoolsim validate`: every published measurement of the corpus (validation/*.toml) against
//! the model's prediction and the rule-of-thumb baseline.

use crate::error::{CliError, CliResult};
use crate::files::{catalog, print_json, read, write, WriteTo};
use crate::progress::while_working;
use std::path::{Path, PathBuf};
use validate::{CaseResult, Corpus};

/// Compare predictions with the published measurements of the validation corpus.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// A directory of case files (default: the corpus built into the binary, the
    /// repository's validation/).
    #[arg(long)]
    pub dir: Option<String>,
    /// Refit the model's global constants to the corpus and print them beside the committed
    /// ones; with -o, write the constants file (crates/perf/data/constants.toml).
    #[arg(long, conflicts_with = "cv")]
    pub refit: bool,
    /// Leave-one-source-out cross-validation: refit without each source, predict it; with -o,
    /// write the error bands file (crates/perf/data/bands.toml).
    #[arg(long)]
    pub cv: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// With --refit: where to write the constants file; with --cv: the bands file.
    #[command(flatten)]
    pub write: WriteTo,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let corpus = match &args.dir {
        Some(dir) => from_dir(Path::new(dir))?,
        None => Corpus::embedded(catalog())?,
    };
    if args.refit {
        return refit(&corpus, args);
    }
    if args.cv {
        return cross_validate(&corpus, args);
    }
    if args.write.output.is_some() {
        return Err(CliError(
            "-o writes the constants file of --refit or the bands file of --cv; add one".into(),
        ));
    }
    let summary = validate::validate(&corpus)?;
    if args.json {
        return print_json(&summary);
    }
    println!(
        "{:<28} {:>17} {:>9} {:>7} {:>9} {:>7}  bottleneck: source / model",
        "case", "measured", "model", "error", "rule", "error"
    );
    for c in &summary.cases {
        print_case(c);
    }
    print_summary(&summary);
    Ok(())
}

/// The error statistics: the rates', the rule of thumb's, the bottlenecks, the latencies per
/// source and the excluded measurements.
fn print_summary(summary: &validate::Summary) {
    println!();
    println!(
        "model:         median |error| {:.1}%, worst {:.1}% over {} cases (calibrations not counted)",
        summary.median_abs_error_pct,
        summary.worst_abs_error_pct,
        summary
            .cases
            .iter()
            .filter(|c| !c.calibration && !c.latency)
            .count()
    );
    println!(
        "rule of thumb: median |error| {:.1}%, worst {:.1}%",
        summary.baseline_median_abs_error_pct, summary.baseline_worst_abs_error_pct
    );
    println!(
        "bottleneck named by the source: the model agrees in {} of {}",
        summary.bottlenecks_agreeing, summary.bottlenecks_named
    );
    for l in &summary.latency_by_source {
        println!(
            "latency, {}: median |error| of p99 {:.1}% over {} cases; of every percentile {:.1}% over {}",
            l.source, l.median_p99_abs_error_pct, l.p99_cases, l.median_abs_error_pct, l.cases
        );
    }
    if !summary.excluded.is_empty() {
        println!();
        println!("excluded (no system + workload can produce them):");
        for x in &summary.excluded {
            println!("  {}: {}", x.id, x.reason);
        }
    }
}

fn print_case(c: &CaseResult) {
    // A latency in seconds needs more than one decimal to show a millisecond.
    let prec = if c.latency { 3 } else { 1 };
    let measured = if c.measured[0] == c.measured[1] {
        format!("{:.prec$} {}", c.measured[0], c.unit)
    } else {
        let digits = usize::from(c.measured.iter().any(|v| v.fract() != 0.0));
        format!(
            "{:.digits$}-{:.digits$} {}",
            c.measured[0], c.measured[1], c.unit
        )
    };
    let (base, base_err) = match (c.baseline, c.baseline_error_pct) {
        (Some(b), Some(e)) => (format!("{b:.1}"), format!("{e:+.1}%")),
        _ => ("-".into(), "-".into()),
    };
    let bottleneck = match (&c.bottleneck_expected, c.bottleneck_agrees) {
        (Some(e), Some(ok)) => format!(
            "{e} / {} {}",
            c.bottleneck_predicted,
            if ok { "(agrees)" } else { "(DISAGREES)" }
        ),
        _ => format!("- / {}", c.bottleneck_predicted),
    };
    let id = if c.calibration {
        format!("{} (cal.)", c.id)
    } else {
        c.id.clone()
    };
    println!(
        "{:<28} {:>17} {:>9.prec$} {:>+6.1}% {:>9} {:>7}  {bottleneck}",
        id, measured, c.predicted, c.error_pct, base, base_err
    );
}

/// The case files (*.toml) of `dir`, whose system files are read relative to it.
fn from_dir(dir: &Path) -> Result<Corpus, CliError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| CliError(format!("cannot read {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError(format!(
            "no case files (*.toml) in {}",
            dir.display()
        )));
    }
    let texts = files
        .iter()
        .map(|f| Ok((f.display().to_string(), read(f)?)))
        .collect::<Result<Vec<_>, CliError>>()?;
    Ok(Corpus::from_texts(texts, catalog(), |relative| {
        let path = dir.join(relative);
        read(&path)
            .map(|text| (path.display().to_string(), text))
            .map_err(|e| e.0)
    })?)
}

/// The refit constants beside their priors and the committed values; with -o, the constants
/// file written.
fn refit(corpus: &Corpus, args: &Args) -> CliResult {
    let file = args.write.file()?;
    let refit = while_working("refitting the constants", || validate::refit(corpus));
    if let Some(file) = file {
        write(file, args.write.force, &refit.file)?;
    }
    if args.json {
        return print_json(&refit);
    }
    println!(
        "{:<28} {:>14} {:>14} {:>14}  what it is",
        "constant", "prior", "committed", "fitted"
    );
    for c in &refit.constants {
        println!(
            "{:<28} {:>14.6e} {:>14.6e} {:>14.6e}  {}",
            c.name, c.prior, c.committed, c.fitted, c.about
        );
    }
    match file {
        Some(file) => println!("\nwrote {file}"),
        None => println!("\n-o crates/perf/data/constants.toml --force writes them for the model"),
    }
    Ok(())
}

/// One table of held-out errors.
fn print_groups(title: &str, groups: &[validate::Group]) {
    println!("{title}:");
    for g in groups {
        println!(
            "  {:<40} median |error| {:.1}%, p90 {:.1}% over {} cases from {} source(s)",
            g.name, g.median_pct, g.p90_pct, g.cases, g.sources
        );
    }
}

/// Leave-one-source-out cross-validation, by source, medium, era, workload, grade and class;
/// with -o, the bands file written.
fn cross_validate(corpus: &Corpus, args: &Args) -> CliResult {
    let file = args.write.file()?;
    let cv = while_working("cross-validating", || validate::cross_validate(corpus));
    if let Some(file) = file {
        write(file, args.write.force, &cv.bands().to_toml())?;
    }
    if args.json {
        return print_json(&cv);
    }
    println!("leave one source out: refit on the others, predict it");
    print_groups("by source", &cv.by_source);
    print_groups("by medium", &cv.by_medium);
    print_groups("by era", &cv.by_era);
    print_groups("by workload", &cv.by_pattern);
    print_groups("by grade", &cv.by_grade);
    print_groups(
        "apart from grade C",
        std::slice::from_ref(&cv.without_grade_c),
    );
    println!("bands (class; pattern on a medium, any release; pattern), as signed errors, (predicted - measured) / measured:");
    for b in &cv.by_class {
        println!(
            "  {:<66} median band {}, p90 band {} over {} cases from {} source(s)",
            b.scope.to_string(),
            range(b.p50),
            range(b.p90),
            b.cases,
            b.sources
        );
    }
    println!(
        "\ncross-validated median |error| {:.1}%, p90 {:.1}%, over {} cases",
        cv.median_abs_error_pct,
        cv.p90_abs_error_pct,
        cv.cases.len()
    );
    print_coverage(&cv.band_coverage);
    match file {
        Some(file) => println!("\nwrote {file}"),
        None => println!("\n-o crates/perf/data/bands.toml --force writes the bands for the model"),
    }
    Ok(())
}

/// How often the bands hold out of sample, over every case and by source, medium and grade.
fn print_coverage(c: &validate::Coverage) {
    println!(
        "band coverage out of sample (each case's band made without its source): {:.1}% within the median band, {:.1}% within the p90 band",
        c.p50_pct, c.p90_pct
    );
    for (by, groups) in [
        ("source", &c.by_source),
        ("medium", &c.by_medium),
        ("grade", &c.by_grade),
    ] {
        println!("  by {by}:");
        for g in groups {
            println!(
                "    {:<40} {:5.1}% within the median band, {:5.1}% within the p90 band, of {} cases",
                g.name, g.p50_pct, g.p90_pct, g.cases
            );
        }
    }
}

/// A band's range of signed errors, whole percent.
fn range(i: perf::Interval) -> String {
    format!("[{:+.0}%, {:+.0}%]", i.low_pct, i.high_pct)
}
