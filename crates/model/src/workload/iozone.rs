//! An iozone command line as iozone runs it (iozone's documentation, iozone.org; docs/
//! zfs-internals.md §8): `-i 0` write then rewrite, `-i 1` read then reread, `-i 2` random read
//! then random write; `-s` the file (KiB unless suffixed), `-r` the record (KiB unless
//! suffixed), `-t N` N processes (threads with `-T`) each on its own file; `-e` times the fsync
//! at the end, `-I` O_DIRECT, `-o` O_SYNC, `-+n` no re-tests. Its buffers hold a repeated
//! pattern. Options that change only the report are passed over. Automatic mode (`-a`) sets
//! its file and record sizes from the smallest and largest `-s` and `-r` given (iozone.c's
//! `s_range`, `r_range`), so with one of each it runs that one size (its tests 0-2 where no
//! `-i` names them; the others, and `-A`, are refused).

use super::args::{count, size_in, unsupported, words};
use super::{Access, CacheState, Data, Durability, Engine, Target, Tool, Workload, WorkloadError};
use crate::input::clip;
use crate::units::KIB;

/// iozone's defaults: a 512 KiB file, 4 KiB records (iozone -h: "-s #  file size in Kb",
/// "-r #  record size in Kb"; its KILOBYTES and RECLEN defaults).
const FILE: u64 = 512 * KIB;
const RECORD: u64 = 4 * KIB;

/// Options that take a value and change only the report or names.
const PASSED_OVER_VALUE: &[&str] = &["-F", "-b", "-f", "-U", "-V", "-P", "-+m", "-+u"];
/// Flags that change only the report.
const PASSED_OVER_FLAG: &[&str] = &[
    "-R", "-O", "-x", "-w", "-T", "-M", "-c", "-C", "-Q", "-+u", "-S",
];

/// What the options say.
struct Options {
    tests: Vec<u32>,
    file: u64,
    record: u64,
    threads: u32,
    flush: bool,
    direct: bool,
    osync: bool,
    retests: bool,
    /// Automatic mode (`-a`), and how many `-s` and `-r` were given.
    auto: bool,
    sizes: u32,
    records: u32,
}

/// The timed phases of an iozone run.
pub(super) fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let o = options(&words(spec)?)?;
    if o.tests.is_empty() {
        return Err(WorkloadError(
            "iozone: name the tests with -i (0 write/rewrite, 1 read/reread, 2 random read/write)"
                .into(),
        ));
    }
    let base = Workload {
        kind: String::new(),
        tool: Tool::Iozone,
        access: Access::SeqWrite,
        target: Target::Pool,
        block_size: o.record,
        threads: o.threads,
        queue_depth: 1,
        engine: Engine::Sync,
        data_bytes: Some(o.file),
        shared_file: false,
        durability: match (o.osync, o.flush) {
            (true, _) => Durability::EachWrite,
            (false, true) => Durability::AtEnd,
            (false, false) => Durability::None,
        },
        direct: o.direct,
        data: Data::Pattern,
        cache: CacheState::Warm,
        offset_bytes: 0,
        network: false,
        pool_fill: 0.0,
    };
    base.check()?;
    let phase = |name: &str, access| Workload {
        kind: format!("iozone {name}"),
        access,
        ..base.clone()
    };
    let mut out = Vec::new();
    for n in o.tests {
        let (first, second) = match n {
            0 => (("write", Access::SeqWrite), ("rewrite", Access::SeqWrite)),
            1 => (("read", Access::SeqRead), ("reread", Access::SeqRead)),
            2 => (
                ("random-read", Access::Random { read_pct: 100 }),
                ("random-write", Access::Random { read_pct: 0 }),
            ),
            other => {
                return Err(WorkloadError(format!(
                    "iozone -i {other}: not modelled (0 write/rewrite, 1 read/reread, 2 random read/write)"
                )))
            }
        };
        out.push(phase(first.0, first.1));
        // -+n leaves out the re-tests (rewrite, reread); test 2's two phases are one test.
        if o.retests || n == 2 {
            out.push(phase(second.0, second.1));
        }
    }
    Ok(out)
}

/// Reads the options of `args` (the command's words, the tool first).
fn options(args: &[String]) -> Result<Options, WorkloadError> {
    let mut o = Options {
        tests: Vec::new(),
        file: FILE,
        record: RECORD,
        threads: 1,
        flush: false,
        direct: false,
        osync: false,
        retests: true,
        auto: false,
        sizes: 0,
        records: 0,
    };
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        let mut value = || -> Result<String, WorkloadError> {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| WorkloadError(format!("iozone: {arg} needs a value")))
        };
        match arg {
            "-i" => o.test(&value()?)?,
            "-s" => {
                o.file = size_in(&value()?, KIB, "iozone -s")?;
                o.sizes += 1;
            }
            "-r" => {
                o.record = size_in(&value()?, KIB, "iozone -r")?;
                o.records += 1;
            }
            "-a" => o.auto = true,
            "-t" => o.threads = count(&value()?, "iozone -t")?,
            "-e" => o.flush = true,
            "-I" => o.direct = true,
            "-o" => o.osync = true,
            "-+n" => o.retests = false,
            _ if PASSED_OVER_FLAG.contains(&arg) => {}
            _ if PASSED_OVER_VALUE.contains(&arg) => {
                value()?;
                // -F names one file per thread: the rest of the words up to the next option.
                if arg == "-F" {
                    while args.get(i + 1).is_some_and(|a| !a.starts_with('-')) {
                        i += 1;
                    }
                }
            }
            _ => return Err(unsupported("iozone", arg)),
        }
        i += 1;
    }
    o.settle_auto()?;
    Ok(o)
}

impl Options {
    /// `-i N`: one more test, each run once however often it is named.
    fn test(&mut self, text: &str) -> Result<(), WorkloadError> {
        let n = text.parse::<u32>().map_err(|_| {
            WorkloadError(format!(
                "iozone -i '{}': expected a test number",
                clip(text, 20)
            ))
        })?;
        if !self.tests.contains(&n) {
            self.tests.push(n);
        }
        Ok(())
    }

    /// Automatic mode runs the matrix between the smallest and largest `-s` and `-r`
    /// (iozone.c's `s_range`, `r_range`): only one of each makes it one run, whose tests are
    /// 0-2 unless `-i` names them.
    fn settle_auto(&mut self) -> Result<(), WorkloadError> {
        if !self.auto {
            return Ok(());
        }
        if self.sizes != 1 || self.records != 1 {
            return Err(WorkloadError(
                "iozone -a runs every file size from 64 KiB to 512 MiB and every record size from \
                 4 KiB to 16 MiB unless one -s and one -r fix them: give one of each"
                    .into(),
            ));
        }
        if self.tests.is_empty() {
            self.tests = vec![0, 1, 2];
        }
        Ok(())
    }
}
