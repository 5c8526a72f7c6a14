//! No value from outside adds a line, a section or a substitution to a fio job file: each job
//! is read back here the way fio's parser reads it (init.c `__parse_jobs_ini`, parse.c
//! `strip_blank_end`, options.c `get_next_str`), and must hold the same options as the job of
//! a plain directory, its `directory=` naming exactly the directory asked for.

use proptest::prelude::*;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use zpoolsim_bench::{data_size, job_files, Plan, DEFAULT_WORKLOADS};

/// C's isspace() in the C locale.
fn c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// parse.c's strip_blank_end: cut at the first `;`, then at the first `#`, then trailing blanks
/// and control characters.
fn strip_blank_end(line: &str) -> &str {
    let line = line.split(';').next().unwrap_or_default();
    let line = line.split('#').next().unwrap_or_default();
    line.trim_end_matches(|c: char| c_space(c) || c.is_ascii_control())
}

/// The sections and option lines fio reads from a job file, in order.
fn fio_reads(job: &str) -> Vec<String> {
    let mut read = Vec::new();
    for line in job.split('\n') {
        let line = line.trim_start_matches(c_space);
        // is_empty_or_comment: the first character neither blank nor control decides.
        match line.chars().find(|&c| !c_space(c) && !c.is_ascii_control()) {
            None | Some(';') | Some('#') => continue,
            Some(_) => read.push(strip_blank_end(line).to_string()),
        }
    }
    read
}

/// options.c's get_next_str over a whole `directory=` value: the names it splits it into.
fn directories(value: &str) -> Vec<String> {
    let mut names = vec![String::new()];
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => {
                names.last_mut().unwrap().push(chars.next().unwrap())
            }
            ':' => names.push(String::new()),
            c => names.last_mut().unwrap().push(c),
        }
    }
    names
}

fn plan(directory: PathBuf, workload: &str) -> Plan {
    Plan {
        directory,
        workloads: vec![workload.to_string()],
        data_bytes: 64 << 20,
        runtime_s: 5,
    }
}

/// The job files for `directory`, or the one-line refusal.
fn jobs(directory: &str) -> Result<Vec<String>, String> {
    job_files(&plan(directory.into(), "fio-randrw:qd=8")).map_err(|e| e.to_string())
}

#[test]
fn a_newline_in_the_directory_is_refused_not_run() {
    // The two attacks: a command run before the job, and a file outside the pool.
    for dir in [
        "/tank/x\nexec_prerun=sh -c 'id > /tmp/pwned'\n;",
        "/\nfilename=/etc/zpoolsim-victim",
        "/tank/a\rb",
    ] {
        let e = jobs(dir).unwrap_err();
        assert!(
            e.ends_with("fio's job file cannot name this directory: a control character (a newline would start a job-file line of its own); bench a directory whose path has none"),
            "{e}"
        );
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

#[test]
fn what_fio_would_cut_or_substitute_is_refused() {
    let refused = |dir: &str, why: &str| {
        let e = jobs(dir).unwrap_err();
        assert!(e.contains(why), "{dir:?}: {e}");
    };
    refused(
        "/tank/a;b",
        "a `;` or `#` (fio cuts a job-file line at either)",
    );
    refused("/tank/a#b", "a `;` or `#`");
    refused("/tank/${HOME}", "a `$` (fio replaces ${NAME}");
    refused("/tank/$ncpus*2", "a `$`");
    refused(&format!("/{}", "d".repeat(4100)), "longer than 4096 bytes");
    let not_utf8 = PathBuf::from(OsStr::from_bytes(b"/tank/\xff"));
    let e = job_files(&plan(not_utf8, "dd-read"))
        .unwrap_err()
        .to_string();
    assert_eq!(e, "/tank/\u{fffd}/zpoolsim-bench-PID: fio's job file cannot name this directory: its path is not UTF-8; bench a directory whose path has none");
}

#[test]
fn a_colon_in_the_directory_is_escaped_as_fio_documents() {
    let job = &jobs("/tank/a:b\\:c").unwrap()[0];
    assert!(
        job.contains("\ndirectory=/tank/a\\:b\\\\:c/zpoolsim-bench-PID\n"),
        "{job}"
    );
    let line = fio_reads(job)
        .into_iter()
        .find(|l| l.starts_with("directory="))
        .unwrap();
    assert_eq!(
        directories(&line["directory=".len()..]),
        ["/tank/a:b\\:c/zpoolsim-bench-PID"]
    );
}

proptest! {
    /// Any bytes in the directory's path: refused in one line, or the very options of a plain
    /// directory's job, with `directory=` naming exactly that path.
    #[test]
    fn no_directory_name_adds_a_line_to_a_job_file(bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
        let mut path = b"/tank/".to_vec();
        path.extend(&bytes);
        let dir = PathBuf::from(OsStr::from_bytes(&path));
        let plain = fio_reads(&job_files(&plan("/tank/x".into(), "fio-randrw:qd=8")).unwrap()[0]);
        match job_files(&plan(dir.clone(), "fio-randrw:qd=8")) {
            Err(e) => prop_assert!(!e.to_string().contains('\n'), "{e}"),
            Ok(jobs) => {
                let read = fio_reads(&jobs[0]);
                prop_assert_eq!(read.len(), plain.len());
                for (line, want) in read.iter().zip(&plain) {
                    let Some(value) = line.strip_prefix("directory=") else {
                        prop_assert_eq!(line, want);
                        continue;
                    };
                    let asked = dir.join("zpoolsim-bench-PID");
                    prop_assert_eq!(directories(value), [asked.to_str().unwrap()]);
                }
            }
        }
    }

    /// `bench --workloads W --size S`, W any text after a workload's name: refused in one line,
    /// or jobs whose every line fio reads is a section or a `key=value` with a plain key.
    #[test]
    fn no_workload_text_adds_a_line_to_a_job_file(
        kind in proptest::sample::select(DEFAULT_WORKLOADS.iter().map(|w| w.split(':').next().unwrap()).collect::<Vec<_>>()),
        params in "[ -~\n\t]{0,48}",
        size in "[0-9]{1,5}[KMGT]?",
    ) {
        let Ok(data_bytes) = data_size(&size) else { return Ok(()) };
        let plan = Plan { data_bytes, ..plan("/tank/bench".into(), &format!("{kind}:{params}")) };
        match job_files(&plan) {
            Ok(jobs) => {
                for line in jobs.iter().flat_map(|j| fio_reads(j)) {
                    let section = line.starts_with('[') && line.ends_with(']');
                    let option = line.split_once('=').is_some_and(|(k, _)| {
                        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    });
                    prop_assert!(section || option, "{line:?}");
                }
            }
            Err(e) => prop_assert!(!e.to_string().contains('\n'), "{e}"),
        }
    }
}
