//! `zpoolsim validate`: every published measurement of the corpus (validation/*.toml) against
//! the model's prediction and the rule-of-thumb baseline.

use crate::corpus::Corpus;
use crate::error::{CliError, CliResult};
use model::Workload;
use perf::validation::{self, CaseResult};

/// Compare predictions with the published measurements of the validation corpus.
#[derive(clap::Args)]
pub struct Args {
    /// A directory of case files (default: the corpus built into the binary, the
    /// repository's validation/).
    #[arg(long)]
    pub dir: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    let corpus = match &args.dir {
        Some(dir) => Corpus::Dir(dir.into()),
        None => Corpus::Embedded,
    };
    let mut results = Vec::new();
    let mut excluded = Vec::new();
    for (file, text) in corpus.case_files()? {
        let cases = validation::parse(&text).map_err(|e| CliError(format!("{file}: {e}")))?;
        for case in &cases.cases {
            let context = |e: String| CliError(format!("{file} case {}: {e}", case.id));
            let mut system = corpus.system(&case.system)?;
            if let Some(ashift) = case.ashift {
                system.pool.ashift = ashift;
            }
            let workload = Workload::parse(&case.workload).map_err(|e| context(e.to_string()))?;
            let p = perf::predict(&system, &workload).map_err(|e| context(e.to_string()))?;
            let base = perf::baseline::rule_of_thumb(&system, &workload);
            results.push(validation::score(case, &p, base));
        }
        excluded.extend(cases.excluded);
    }
    let summary = validation::summarize(results, excluded);
    if args.json {
        let text = serde_json::to_string_pretty(&summary).map_err(|e| CliError(e.to_string()))?;
        println!("{text}");
        return Ok(());
    }
    println!(
        "{:<28} {:>17} {:>9} {:>7} {:>9} {:>7}  bottleneck: source / model",
        "case", "measured", "model", "error", "rule", "error"
    );
    for c in &summary.cases {
        print_case(c);
    }
    println!();
    println!(
        "model:         median |error| {:.1}%, worst {:.1}% over {} cases (calibrations not counted)",
        summary.median_abs_error_pct,
        summary.worst_abs_error_pct,
        summary.cases.iter().filter(|c| !c.calibration).count()
    );
    println!(
        "rule of thumb: median |error| {:.1}%, worst {:.1}%",
        summary.baseline_median_abs_error_pct, summary.baseline_worst_abs_error_pct
    );
    println!(
        "bottleneck named by the source: the model agrees in {} of {}",
        summary.bottlenecks_agreeing, summary.bottlenecks_named
    );
    if !summary.excluded.is_empty() {
        println!();
        println!("excluded (no system + workload can produce them):");
        for x in &summary.excluded {
            println!("  {}: {}", x.id, x.reason);
        }
    }
    Ok(())
}

fn print_case(c: &CaseResult) {
    let measured = if c.measured[0] == c.measured[1] {
        format!("{:.1} {}", c.measured[0], c.unit)
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
        "{:<28} {:>17} {:>9.1} {:>+6.1}% {:>9} {:>7}  {bottleneck}",
        id, measured, c.predicted, c.error_pct, base, base_err
    );
}
