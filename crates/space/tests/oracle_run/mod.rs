//! Running the live oracle (scripts/openzfs-oracle.sh) from a test: the releases to run and
//! each one's output for a list of pools. Shared by tests/openzfs_live.rs (pools.txt) and
//! tests/openzfs_expansion.rs (expansions.txt).

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/openzfs-oracle.sh")
}

/// The releases the script knows, or those of ZPOOLSIM_ORACLE_RELEASES ("2.1.11 2.4.4").
pub(crate) fn releases() -> Vec<String> {
    let text = match std::env::var("ZPOOLSIM_ORACLE_RELEASES") {
        Ok(list) => list,
        Err(_) => {
            let out = Command::new("bash")
                .arg(script())
                .arg("versions")
                .output()
                .expect("bash runs");
            String::from_utf8(out.stdout).expect("utf-8")
        }
    };
    text.split([' ', ',', '\n'])
        .filter(|r| !r.is_empty())
        .map(String::from)
        .collect()
}

/// The oracle's output for every line of `pools`, or why there is none.
pub(crate) fn run(release: &str, pools: &str) -> Result<Vec<Value>, String> {
    let mut child = Command::new("bash")
        .arg(script())
        .args(["run", release])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(pools.as_bytes())
        .map_err(|e| e.to_string())?;
    drop(stdin);
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{e}: {l}")))
        .collect()
}

/// `run` of every release at once, one thread each.
pub(crate) fn run_all(
    releases: Vec<String>,
    pools: &str,
) -> Vec<(String, Result<Vec<Value>, String>)> {
    std::thread::scope(|s| {
        let handles: Vec<_> = releases
            .into_iter()
            .map(|r| s.spawn(move || (r.clone(), run(&r, pools))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// A release whose oracle could not run: a failure under CI, else a loud line on stderr.
pub(crate) fn skip(release: &str, what: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if ci {
        panic!("OpenZFS {release} oracle failed under CI: {why}");
    }
    // Straight to the stderr stream: the harness captures eprintln! of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED: OpenZFS {release} oracle ({what}): {why} ***\n"
    );
}
