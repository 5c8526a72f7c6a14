//! Input that is not a bounded regular file is refused in one line with exit code 2 before a
//! byte of it is read: devices, FIFOs, symlinks to them, directories and files past 16 MiB, as
//! a system file, a --catalog, a workload file or a case file of validate --dir; standard input
//! by '-', read once.

mod common;

use common::run;
use common::scratch::Scratch;
use std::io::Write;
use std::process::{Command, Stdio};

/// A fresh directory of this test's own, removed when the test ends, also when it fails.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("input-{name}"))
}

fn refused_in_one_line(args: &[&str], says: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn devices_fifos_and_links_to_them_are_refused_wherever_a_file_goes() {
    let dir = scratch("special");
    let fifo = dir.join("fifo.toml");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let link = dir.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let cases = dir.join("cases");
    std::fs::create_dir(&cases).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", cases.join("random.toml")).unwrap();
    let (fifo, link, cases) = (
        fifo.to_str().unwrap(),
        link.to_str().unwrap(),
        cases.to_str().unwrap(),
    );
    let system = "examples/raidz2-10x4tb.toml";
    let device = "not a regular file (a character device)";
    for (args, says) in [
        (&["capacity", "/dev/zero"][..], device),
        (&["capacity", "/dev/urandom"], device),
        (&["capacity", fifo], "not a regular file (a FIFO)"),
        (&["capacity", link], device),
        (&["capacity", "crates"], "not a regular file (a directory)"),
        (&["report", link], device),
        (&["capacity", "--catalog", "/dev/zero", system], device),
        (&["predict", system, "-w", link], device),
        (&["predict", system, "-w", fifo], "a FIFO"),
        (&["validate", "--dir", cases], device),
    ] {
        refused_in_one_line(args, says);
    }
}

#[test]
fn a_file_past_16_mib_is_refused_by_its_size_before_it_is_read() {
    let dir = scratch("large");
    // Sparse: 50 GB that would take minutes and all the memory to read.
    let big = dir.join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(50_000_000_000)
        .unwrap();
    let big = big.to_str().unwrap();
    let says = "50000000000 bytes: an input is at most 16 MiB";
    refused_in_one_line(&["capacity", big], says);
    refused_in_one_line(&["catalog", "--catalog", big], says);
}

/// `zpoolsim ARGS` with `input` on its standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The reader may stop early (past the bound): a broken pipe here is expected.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn standard_input_is_read_by_dash_once_and_bounded() {
    let system = std::fs::read("examples/raidz2-10x4tb.toml")
        .or_else(|_| std::fs::read("../../examples/raidz2-10x4tb.toml"))
        .unwrap();
    let (code, out, err) = with_stdin(&["capacity", "-"], &system);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("zfs list AVAIL 27.6T"), "{out}");
    let (code, _, err) = with_stdin(&["capacity", "-"], b"[pool]\nlayout = 3\n");
    assert_eq!(code, 2);
    assert!(err.starts_with("zpoolsim: stdin:"), "{err}");
    let (code, _, err) = with_stdin(&["capacity", "--catalog", "-", "-"], b"");
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "zpoolsim: cannot read stdin: standard input is read once: give '-' for one input only"
    );
    let endless = vec![b'#'; 17 << 20];
    let (code, _, err) = with_stdin(&["capacity", "-"], &endless);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "zpoolsim: cannot read stdin: more than 16 MiB: an input is at most 16 MiB"
    );
}
