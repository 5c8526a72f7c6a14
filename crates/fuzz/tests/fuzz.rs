//! Every parser fuzzed for ZPOOLSIM_FUZZ_SECONDS each (default 1: scripts/test gives each 20),
//! and every input that once broke one replayed.

use std::time::Duration;
use zpoolsim_fuzz::{fuzz, parsers, run_one};

/// Seconds each parser is fuzzed for.
fn budget() -> Duration {
    let seconds = std::env::var("ZPOOLSIM_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(1.0);
    Duration::from_secs_f64(seconds)
}

#[test]
fn no_parser_breaks_on_mutated_input() {
    for parser in parsers() {
        match fuzz(&parser, budget(), 0x5eed_0010) {
            Ok(runs) => println!("fuzz {}: {runs} inputs, none broke it", parser.name),
            Err(crash) => panic!(
                "fuzz {} broke on {:?}: {}\n(add the input to crates/fuzz/regressions/{}/)",
                crash.parser,
                crash.input,
                crash.why,
                crash.parser.replace(' ', "-")
            ),
        }
    }
}

/// `regressions/<parser>/<case>`: inputs that broke a parser once, each kept as a test.
#[test]
fn inputs_that_broke_a_parser_once_are_handled() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/regressions");
    let mut replayed = 0;
    for parser in parsers() {
        let cases = std::path::Path::new(dir).join(parser.name.replace(' ', "-"));
        let Ok(entries) = std::fs::read_dir(&cases) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let input = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            if let Err(crash) = run_one(&parser, &input) {
                panic!("{}: {}", path.display(), crash.why);
            }
            replayed += 1;
        }
    }
    println!("replayed {replayed} inputs that once broke a parser");
}
