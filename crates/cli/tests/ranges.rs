//! Issue #18: every number a person gives has a documented range, in `--help` and in
//! docs/ranges.md, and a value outside it is refused in one line, exit code 2, before any work.

mod common;

use common::run;
use model::range::{self, Range};

/// Each flag with a range, a command that takes it, and a value no one means.
const FLAGS: [(&str, &str, &Range, &str); 7] = [
    ("reliability", "--years", &range::YEARS, "1e-320"),
    ("plan", "--years", &range::YEARS, "1e-320"),
    ("reliability", "--weibull", &range::WEIBULL_SHAPE, "0.001"),
    ("reliability", "--weibull", &range::WEIBULL_SHAPE, "10"),
    ("reliability", "--trials", &range::TRIALS, "20000000"),
    (
        "reliability",
        "--replacement-hours",
        &range::REPLACEMENT_HOURS,
        "1e308",
    ),
    ("plan", "--price", &range::PRICE_USD, "1e308"),
];

fn refused(args: &[&str], says: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn values_no_one_means_are_refused_in_one_sentence() {
    let system = "examples/modern-home-4x-red-plus.toml";
    for (command, flag, range, value) in FLAGS {
        let args: Vec<&str> = match command {
            "plan" => vec!["plan", "--disks", "6", "--disk", "4TB", flag, value],
            _ => vec![command, system, flag, value],
        };
        refused(&args, &format!("give {} ({})", range.span(), range.why));
        let (_, help, _) = run(&[command, "--help"]);
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(&range.span()),
            "{command} --help: {flag}: {}",
            range.span()
        );
    }
    for fill in ["1e-320", "0", "101%"] {
        refused(
            &["plan", "--disks", "6", "--disk", "4TB", "--fill", fill],
            "give a share of the pool from 1% to 100%",
        );
    }
    refused(
        &[
            "capacity", "--layout", "raidz1-3", "--disk", "4TB", "--sector", "65536",
        ],
        "--sector '65536': give 512 or 4096",
    );
}

#[test]
fn figures_in_files_are_held_to_their_ranges() {
    let dir = common::scratch::Scratch::new("ranges");
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/modern-12x20tb-special.toml"
    ))
    .unwrap();
    let file = dir.path("ratio.toml");
    std::fs::write(
        &file,
        base.replace("compression_ratio = 1.4", "compression_ratio = 1e308"),
    )
    .unwrap();
    refused(
        &["capacity", &file],
        "compression_ratio 1e308 is out of range: give 1 to 100",
    );
    // An inline disk at 1e-300 MB/s made a resilver of 1e306 hours.
    let seed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/seed-000-1320-box.toml"
    ))
    .unwrap();
    let inline = "model = { id = \"slow\", model = \"Slow\", medium = \"hdd\", interface = \"sata\", capacity_bytes = 750156374016, seq_outer_mb_s = 1e-300, sources = { default = \"test\" } }";
    let file = dir.path("slow.toml");
    std::fs::write(
        &file,
        seed.replacen("model = \"samsung-hd753lj\"", inline, 1),
    )
    .unwrap();
    refused(
        &["reliability", &file],
        "seq_outer_mb_s 1e-300 is out of range: give 1 to 10000000 MB/s",
    );
}

#[test]
fn the_docs_list_every_range() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ranges.md"))
            .expect("docs/ranges.md");
    for r in range::RANGES {
        let row = format!("| `{}` | {} |", r.name, r.span());
        assert!(docs.contains(&row), "docs/ranges.md lacks {row}");
    }
}
