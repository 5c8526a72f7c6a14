//! Every `zpoolsim` command of README.md works when copied: run as written from a directory
//! that has the repository's examples, each exits 0 (the charts land in its out/), and again
//! when the block is copied a second time. The
//! measuring commands need a real pool and fio: they are the measure tests' (measure_zfs_fuse.rs);
//! `serve` runs until stopped: it is web_api.rs's and web_page.rs's.

mod common;

use common::scratch::Scratch;
use std::path::Path;
use std::process::Command;

/// Commands that need a real pool, a device or a results database of benches (fleet.rs and
/// the measure tests run them), and the server, which runs until stopped.
const TESTED_ELSEWHERE: [&str; 6] = [
    "discover",
    "bench",
    "results",
    "calibrate",
    "serve",
    "fleet",
];

/// The words of a command line as a POSIX shell splits them: double quotes group, a `#`
/// outside them starts a comment.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            '#' if !quoted && !any => break,
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[test]
fn the_readme_splits_like_a_shell() {
    assert_eq!(
        words(r#"zpoolsim plan --need "a>=1,b<=2" --x y   # a comment"#),
        ["zpoolsim", "plan", "--need", "a>=1,b<=2", "--x", "y"]
    );
}

#[test]
fn every_command_of_the_readme_works_as_written() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(top.join("README.md")).unwrap();
    let dir = Scratch::new("readme");
    std::os::unix::fs::symlink(
        top.join("examples").canonicalize().unwrap(),
        dir.join("examples"),
    )
    .unwrap();
    let mut ran = 0;
    // Twice: a block copied again (a chart already drawn) must run again as written.
    let lines = readme.lines().filter(|l| l.starts_with("zpoolsim "));
    for line in lines.clone().chain(lines) {
        let args = words(line);
        if TESTED_ELSEWHERE.contains(&args[1].as_str()) {
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
            .args(&args[1..])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{line}: {err}");
        assert!(!out.stdout.is_empty(), "{line}: printed nothing");
        ran += 1;
    }
    assert!(ran >= 2 * 14, "{ran} commands run");
    for chart in ["out/qd.svg", "out/plan.svg"] {
        assert!(dir.join(chart).is_file(), "{chart}");
    }
}
