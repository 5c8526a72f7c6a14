//! What a fresh clone meets before any command: no file naming one machine's folders, every
//! crate under the workspace lints, `scripts/test` running every test target whatever fails
//! first, and Debian installs that keep apt-get's progress out of the test log unless they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

fn top() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files of the repository under `dir`, leaving out git's and cargo's own directories.
fn repository_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name();
        if name == ".git" || name == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            repository_files(&entry.path(), out);
        } else {
            out.push(entry.path());
        }
    }
}

/// A clone lives anywhere: the shared reference folder is named as ../shared (next to the
/// repository), never by one machine's absolute path.
#[test]
fn no_file_names_an_absolute_path_of_one_machine() {
    let mut files = Vec::new();
    repository_files(&top(), &mut files);
    assert!(files.len() > 100, "{} files", files.len());
    // Spelt in two pieces, so that this file does not name it.
    let machine = ["/wo", "rk/"].concat();
    let named: Vec<_> = files
        .iter()
        .filter(|f| {
            let bytes = std::fs::read(f).unwrap();
            bytes
                .windows(machine.len())
                .any(|w| w == machine.as_bytes())
        })
        .map(|f| f.strip_prefix(top()).unwrap().display().to_string())
        .collect();
    assert!(named.is_empty(), "{machine} is named in {named:?}");
}

/// Every crate's public items say what they are and nothing private is `pub`: each member
/// opts in to the workspace's `missing_docs` and `unreachable_pub`, which `cargo clippy -D
/// warnings` in scripts/test then enforces.
#[test]
fn every_crate_takes_the_workspace_lints() {
    let mut crates: Vec<_> = std::fs::read_dir(top().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("Cargo.toml"))
        .filter(|p| p.exists())
        .collect();
    crates.sort();
    assert!(crates.len() >= 14, "{crates:?}");
    let without: Vec<_> = crates
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            !lines
                .windows(2)
                .any(|w| w == ["[lints]", "workspace = true"])
        })
        .collect();
    assert!(
        without.is_empty(),
        "no `[lints] workspace = true` in {without:?}"
    );
}

/// The workspace crates `dir`'s Cargo.toml depends on (not its dev-dependencies), by directory
/// name; every member is named in the root Cargo.toml's `[workspace.dependencies]` by it.
fn crate_dependencies(dir: &Path, members: &[String]) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut section = "";
    let mut deps: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" {
            let name = line.split(['.', ' ', '=']).next().unwrap_or("");
            if members.iter().any(|m| m == name) {
                deps.push(name.to_string());
            }
        }
    }
    deps.sort();
    deps
}

/// README's dependency graph is the one the crates' Cargo.toml have: each line `crate -> a,
/// b`, `model` with none, and `cli -> every crate above but parse`.
#[test]
fn readme_names_the_crates_and_their_edges_as_they_are() {
    let mut members: Vec<String> = std::fs::read_dir(top().join("crates"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    members.sort();
    let readme = std::fs::read_to_string(top().join("README.md")).unwrap();
    let (_, graph) = readme.split_once("The dependency graph").unwrap();
    let block = graph.split("```").nth(1).unwrap();
    let mut seen: Vec<String> = Vec::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (names, edges) = line.split_once("->").unwrap_or((line, ""));
        let names: Vec<String> = if line.starts_with("model ") {
            vec!["model".to_string()]
        } else {
            names.split(',').map(|n| n.trim().to_string()).collect()
        };
        let mut want: Vec<String> = match edges.trim().strip_prefix("every crate above but ") {
            Some(but) => seen.iter().filter(|c| *c != but).cloned().collect(),
            None => edges.split(',').map(|e| e.trim().to_string()).collect(),
        };
        want.retain(|w| !w.is_empty());
        want.sort();
        want.dedup();
        for name in names {
            let got = crate_dependencies(&top().join("crates").join(&name), &members);
            assert_eq!(got, want, "README's edges of {name}");
            seen.push(name);
        }
    }
    seen.sort();
    assert_eq!(seen, members, "README's graph names every crate once");
    let (_, layout) = readme.split_once("## Layout of the code").unwrap();
    for m in &members {
        assert!(
            layout.contains(&format!("crates/{m} ")),
            "README's layout has no crates/{m}"
        );
    }
}

/// cargo stops at the first failing test target unless told not to, which hid about 60 of 68
/// targets behind one failing zfs-fuse test.
#[test]
fn scripts_test_runs_every_target_when_one_fails() {
    let script = std::fs::read_to_string(top().join("scripts/test")).unwrap();
    let runs: Vec<_> = script
        .lines()
        .filter(|l| l.trim_start().starts_with("cargo test") || l.contains(" cargo test "))
        .collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
    for run in runs {
        assert!(run.contains("--no-fail-fast"), "{run}");
    }
}

/// scripts/apt-install.sh with a fake apt-get first on PATH that talks like the real one
/// (a line on stdout, one on stderr, then exit `code`); exit code, stdout and stderr.
fn install_with(dir: &Path, code: i32) -> (i32, String, String) {
    let bin = dir.join(format!("bin{code}"));
    std::fs::create_dir_all(&bin).unwrap();
    let apt = bin.join("apt-get");
    let fake = format!(
        "#!/bin/sh\necho \"Get:1 http://deb.debian.org $*\"\necho 'Unpacking fio ...' >&2\nexit {code}\n"
    );
    std::fs::write(&apt, fake).unwrap();
    Command::new("chmod").arg("+x").arg(&apt).status().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(top().join("scripts/apt-install.sh"))
        .arg("fio")
        .env("PATH", path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn installs_are_one_line_unless_they_fail() {
    let dir = std::env::temp_dir().join(format!("zpoolsim-apt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, out, err) = install_with(&dir, 0);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert_eq!(err, "installing fio (Debian packages)\n");

    let (code, out, err) = install_with(&dir, 100);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("installing fio (Debian packages)\ninstalling fio failed; apt-get said:\n")
            && err.contains("Get:1 http://deb.debian.org update -qq")
            && err.contains("Unpacking fio ..."),
        "{err}"
    );
}
