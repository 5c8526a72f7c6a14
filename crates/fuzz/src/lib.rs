//! Fuzzing on stable Rust, in CI: each parser of user input (layouts, sizes, workloads, needs,
//! system files, catalogs, the web API's JSON bodies, a disk's
//! label) takes seed inputs mutated by a deterministic generator for a bounded time, and must
//! return, never panic, with every error one line. The libFuzzer
//! targets in crates/model/fuzz (nightly, coverage-guided) remain for longer runs; an input
//! that breaks a parser goes into `regressions/`, replayed by every test run.

mod mutate;
mod parsers;

pub use mutate::Mutator;
pub use parsers::{parsers, Parser};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// An input that made a parser panic or break its promises.
#[derive(Debug)]
pub struct Crash {
    /// The name of the parser that broke (`Parser::name`).
    pub parser: &'static str,
    /// The input that broke it, to save as a reproducer.
    pub input: String,
    /// What went wrong: the panic's message or the broken promise.
    pub why: String,
}

/// Runs `parser` on `input`: `Err` when it panics or its check of the result fails.
pub fn run_one(parser: &Parser, input: &str) -> Result<(), Crash> {
    let outcome = catch_unwind(AssertUnwindSafe(|| (parser.run)(input)));
    let why = match outcome {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(why)) => why,
        Err(panic) => panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string()),
    };
    Err(Crash {
        parser: parser.name,
        input: input.to_string(),
        why,
    })
}

/// Mutates `parser`'s seeds for `budget` from `seed`: the number of inputs run, or the first
/// that broke it.
pub fn fuzz(parser: &Parser, budget: Duration, seed: u64) -> Result<u64, Crash> {
    let mut mutator = Mutator::new(seed, &parser.seeds);
    let start = Instant::now();
    let mut runs = 0;
    for seed in &parser.seeds {
        run_one(parser, seed)?;
        runs += 1;
    }
    while start.elapsed() < budget {
        // A batch between clock reads: parsing is micro- to milliseconds.
        for _ in 0..64 {
            run_one(parser, &mutator.next_input())?;
            runs += 1;
        }
    }
    Ok(runs)
}
