//! The global constants of the performance model that no data sheet, source file or benchmark
//! gives: each has a prior (a documented approximation, below) and bounds, and is fitted by
//! code over the whole validation corpus (`zpoolsim validate --refit`, crates/validate), one
//! value for every system and case. A constant no case informs keeps its prior (the fit pulls
//! each gently towards it). `Constants::fitted()` reads the values the refit gives from the
//! data file crates/perf/data/constants.toml, which `validate --refit -o` writes; a test in
//! crates/validate checks that they are the refit's. Constants derived exactly from a stated
//! fact (the PCIe and parallel-bus efficiencies of link.rs) are not here: no case moves them.
//!
//! Costs of the data path are per era of the code (`Era`), in cycles of a 2012 core
//! (cpu.rs scales them to the host's): the Solaris-era code (2006-2010), the illumos code of
//! 2010-2016 (FreeBSD 9-11, illumos, ZFS on Linux 0.6), and the modern code (ZoL 0.7+, OpenZFS 2,
//! FreeBSD 12+).

use crate::release::Era;
use std::sync::OnceLock;

/// The committed refit (`Constants::fitted`).
const FITTED_FILE: &str = include_str!("../data/constants.toml");

/// The constants file's first lines.
const FILE_HEADER: &str = "\
# The performance model's fitted constants: what `zpoolsim validate --refit` gives on the
# committed validation corpus. crates/perf/src/constants.rs says what each stands for, with its
# prior and bounds. Rewritten by
#   zpoolsim validate --refit -o crates/perf/data/constants.toml --force
# and checked by crates/validate/tests/committed.rs; review the diff.
";

/// One fitted constant: its name, its prior and its bounds, and whether it is fitted on a
/// logarithmic scale (a positive figure) or a linear one (a share that may be 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The name in the constants file.
    pub name: &'static str,
    /// What it stands for, for `validate --refit`'s listing.
    pub about: &'static str,
    /// The value the fit starts from and is drawn toward: a documented approximation.
    pub prior: f64,
    /// The lowest value the fit may give.
    pub min: f64,
    /// The highest value the fit may give.
    pub max: f64,
    /// Fitted on a logarithmic scale (a positive figure), else a linear one (a share that may be
    /// 0).
    pub log_scale: bool,
}

const fn cost(name: &'static str, about: &'static str, prior: f64) -> Param {
    Param {
        name,
        about,
        prior,
        min: prior / 20.0,
        max: prior * 20.0,
        log_scale: true,
    }
}

/// The fitted constants, in the order `Constants` reads them.
pub const PARAMS: [Param; 20] = [
    // Per-command time a disk spends that a queue or a cache cannot hide (decode, setup,
    // completion). Prior 0.1 ms: seed 004's write-through requests take 6.1 ms + size / media
    // rate at 10000 rpm, of which one revolution is 6.0 ms.
    Param {
        name: "disk_command_overhead_s",
        about: "hard disk: per-command time no queue hides",
        prior: 0.1e-3,
        min: 0.01e-3,
        max: 1e-3,
        log_scale: true,
    },
    // Share of a hard disk's media rate a txg's sequential writes reach beyond each txg's
    // commit (txg.rs commit_s, modelled apart): what no mechanism yet explains, such as the
    // space maps and the MOS written in the sync's later passes, and ditto copies of indirect
    // blocks placed away from the data. Prior 0.85: seed 004 (one disk, Solaris 2006) reached
    // 56-60 of 66. The refit settles it where sources whose hard-disk writes run far below
    // their disks for causes of their own (issue threads of ZoL 0.6) balance those near
    // seed 004's share (validation/README.md, "What holds hdd_write_efficiency").
    Param {
        name: "hdd_write_efficiency",
        about: "hard disk: share of the media rate a txg's writes reach beyond its commit",
        prior: 0.85,
        min: 0.3,
        max: 1.0,
        log_scale: false,
    },
    // Share of the ARC's maximum that holds a file's data when a benchmark reads it at random
    // after writing or reading it: the rest holds metadata, dbufs and the other lists. Prior
    // 0.75, an approximation.
    Param {
        name: "arc_data_share",
        about: "ARC: share of its maximum that caches a benchmark's file",
        prior: 0.75,
        min: 0.05,
        max: 1.0,
        log_scale: false,
    },
    // Share of the ARC's data capacity a sequential pass finds of a file larger than the ARC
    // that an earlier pass of the same run read or wrote: blocks the earlier pass met twice
    // (a ghost hit) sit in the MFU list, which a scan does not evict. Prior 0: a pure LRU
    // keeps nothing of a file larger than it across passes.
    Param {
        name: "arc_scan_retention",
        about: "ARC: share of its data a repeated scan of a larger file finds",
        prior: 0.0,
        min: 0.0,
        max: 1.0,
        log_scale: false,
    },
    // Cycles of one read(2) or write(2) call of a file through the kernel's VFS and ZFS that
    // every call pays once, however many records it spans, beyond copying its bytes and the
    // records' own work (below): the system call, the VFS, zfs_read's or zfs_write's entry,
    // the range lock (zfs_rangelock_enter), the dbuf of a record already taken, on a 2012
    // core, by era. Priors, APPROXIMATIONS: the whole call's former priors (Solaris era
    // 20,000 / 30,000, illumos era 15,000 / 25,000, modern 8,000 / 15,000, about 250k 4 KiB
    // reads a second from the ARC on one 3 GHz core) less the record's parts below.
    cost(
        "read_call_cycles_early",
        "application: cycles of a read call, once per call (Solaris era)",
        17_000.0,
    ),
    cost(
        "read_call_cycles_middle",
        "application: cycles of a read call, once per call (illumos era)",
        12_000.0,
    ),
    cost(
        "read_call_cycles_modern",
        "application: cycles of a read call, once per call (modern)",
        5_000.0,
    ),
    // Cycles a read call spends on each record it takes into a dbuf: dmu_read_uio_dnode
    // (dmu.c) holds the dbufs of every record it spans (dmu_buf_hold_array_by_dnode: the
    // dbuf hash, dbuf_read, an arc_read hit or miss on a record not yet held) and releases
    // them. Prior 3,000, an APPROXIMATION: the modern call's former 8,000 split between the
    // call and its one record.
    cost(
        "read_record_cycles",
        "application: cycles of a read call per record it takes into a dbuf",
        3_000.0,
    ),
    // Seconds glibc's POSIX AIO adds to each request (fio's posixaio engine): aio_write
    // queues the request for a helper thread and wakes it (aio_misc.c __aio_enqueue_request),
    // the helper makes the call, and the submitter sleeps in aio_suspend until the helper
    // wakes it: two wake-ups on the request's path, time the submitting thread waits rather
    // than cycles it spends. At depth 1 each side sleeps while the other works, so each
    // wake-up finds its core idle. Prior 22.6 us: two wake-ups of a thread sleeping on an
    // idle core as zil_commit.rs counts them (a 1.3 us switch, albertnetymk.github.io 2022,
    // and C1E's 10 us exit, Linux's intel_idle.c). The prior was 2.6 us, the switches alone,
    // which the fit's pull towards it held while the write call's cost was one figure.
    cost(
        "posixaio_handoff_s",
        "application: seconds of POSIX AIO's hand-off of one request to its thread and back",
        2.0 * crate::zil_commit::IDLE_WAKEUP_S,
    ),
    cost(
        "write_call_cycles_early",
        "application: cycles of a write call, once per call (Solaris era)",
        22_000.0,
    ),
    cost(
        "write_call_cycles_middle",
        "application: cycles of a write call, once per call (illumos era)",
        17_000.0,
    ),
    cost(
        "write_call_cycles_modern",
        "application: cycles of a write call, once per call (modern)",
        7_000.0,
    ),
    // Cycles of each transaction a write call takes (app.rs, `transactions_per_write`):
    // zfs_write's loop (zfs_vnops.c) creates it and holds the object's bonus buffer and the
    // chunk's range (dmu_tx_hold_sa, dmu_tx_hold_write_by_dnode), assigns it to the open txg
    // (dmu_tx_assign: the dataset's and the pool's space accounting under their locks, which
    // PR #14964 names as the cost of one transaction per small record), updates the znode's
    // times and size (sa_bulk_update), logs an itx (zfs_log_write) and commits. Prior 4,000,
    // an APPROXIMATION: about a quarter of the modern write call's former 15,000.
    cost(
        "write_tx_cycles",
        "application: cycles of each transaction a write call takes",
        4_000.0,
    ),
    // Cycles of each record a write call dirties anew in its txg: dbuf_dirty's full pass
    // (dbuf.c: the dirty record, the dnode's and the dataset's space accounting, the parent
    // indirect dirtied) and the dbuf's hold and fill (dmu_buf_will_fill or dmu_buf_will_dirty,
    // dmu.c dmu_write_uio_dnode), which a later write into the same dirty record skips
    // (dbuf_dirty returns the txg's record at once). Prior 4,000, an APPROXIMATION: about a
    // quarter of the modern write call's former 15,000 (half of it was the dirtying share's
    // prior, 0.5, with the transaction's part then counted in it).
    cost(
        "record_dirty_cycles",
        "application: cycles of each record a write call dirties anew",
        4_000.0,
    ),
    // How much more a write's transaction and dirtied records cost when they overwrite an
    // existing record than when they append: dmu_tx_hold_write looks up (and holds) the
    // existing block and its indirect blocks, and dirtying a cached record releases it from
    // the ARC. Prior 1.5, an approximation.
    Param {
        name: "overwrite_call_factor",
        about:
            "application: an overwriting write's transaction and records over an appending one's",
        prior: 1.5,
        min: 1.0,
        max: 5.0,
        log_scale: true,
    },
    // Records of a rewrite's reads in flight while the txg writes the same disks (txg.rs,
    // `switching_s`). Prior 1: the application reads each record before it rewrites it, and
    // the prefetcher, its requests answered from the ARC as fast as they are issued, runs
    // little ahead of a loop that waits on every record's write.
    Param {
        name: "rewrite_records_in_flight",
        about: "rewrite: records of the stream's reads in flight between the txg's writes",
        prior: 1.0,
        min: 0.05,
        max: 64.0,
        log_scale: true,
    },
    // Cycles of one zio through the pipeline (taskq dispatch, stages, the vdev queue, the
    // driver, the interrupt), by era, on a 2012 core. Priors, approximations: 150,000 for the
    // Solaris-era pipeline (~60 us), 40,000 for the illumos era, 15,000 for the modern code
    // (~150k small zios a second on a 3 GHz core).
    cost(
        "zio_cycles_early",
        "CPU: cycles of one zio (Solaris era)",
        150_000.0,
    ),
    cost(
        "zio_cycles_middle",
        "CPU: cycles of one zio (illumos era)",
        40_000.0,
    ),
    cost(
        "zio_cycles_modern",
        "CPU: cycles of one zio (modern)",
        15_000.0,
    ),
    // Cycles the ARC's eviction thread spends per byte it evicts from a full ARC
    // (arc_evict.rs): each header's hash lock, list removal and the free of its pages. Prior
    // 0.25, an approximation: about 1,000 cycles, a system call's worth, per 4 KiB page.
    cost(
        "arc_evict_cycles_per_byte",
        "ARC: cycles of the eviction thread per byte evicted from a full ARC",
        0.25,
    ),
];

/// Values of the constants, in the order of [`PARAMS`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Constants(pub [f64; PARAMS.len()]);

/// Index of an era's figure in a group of three.
fn era_index(era: Era) -> usize {
    match era {
        Era::Early => 0,
        Era::Middle => 1,
        Era::Modern => 2,
    }
}

impl Constants {
    /// The priors.
    pub fn priors() -> Constants {
        Constants(PARAMS.map(|p| p.prior))
    }

    /// The values `zpoolsim validate --refit` gives on the committed corpus: the constants
    /// file crates/perf/data/constants.toml, read once.
    pub fn fitted() -> Constants {
        static FITTED: OnceLock<Constants> = OnceLock::new();
        *FITTED.get_or_init(|| {
            Constants::from_toml(FITTED_FILE)
                .expect("crates/perf/data/constants.toml holds every constant (a test reads it)")
        })
    }

    /// Reads a constants file: every constant of [`PARAMS`] by name, each within its bounds,
    /// and nothing else.
    pub fn from_toml(text: &str) -> Result<Constants, String> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
        if let Some(key) = table.keys().find(|k| !PARAMS.iter().any(|p| p.name == *k)) {
            return Err(format!("{key}: not a constant of the model"));
        }
        let mut values = [0.0; PARAMS.len()];
        for (value, p) in values.iter_mut().zip(&PARAMS) {
            *value = match table.get(p.name) {
                Some(toml::Value::Float(v)) => *v,
                Some(toml::Value::Integer(v)) => *v as f64,
                Some(_) => return Err(format!("{}: expected a number", p.name)),
                None => return Err(format!("{}: missing", p.name)),
            };
            if !(p.min..=p.max).contains(value) {
                return Err(format!(
                    "{} = {value}: outside {}..={}",
                    p.name, p.min, p.max
                ));
            }
        }
        Ok(Constants(values))
    }

    /// The constants file of these values, as `from_toml` reads it: a header, then one
    /// `name = value` line per constant in the order of [`PARAMS`], each value in the shortest
    /// notation that reads back to the same bits.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(FILE_HEADER);
        for (p, v) in PARAMS.iter().zip(self.0) {
            out += &format!("{} = {v:e}\n", p.name);
        }
        out
    }

    pub(crate) fn disk_command_overhead_s(&self) -> f64 {
        self.0[const { index("disk_command_overhead_s") }]
    }
    pub(crate) fn hdd_write_efficiency(&self) -> f64 {
        self.0[const { index("hdd_write_efficiency") }]
    }
    pub(crate) fn arc_data_share(&self) -> f64 {
        self.0[const { index("arc_data_share") }]
    }
    pub(crate) fn arc_scan_retention(&self) -> f64 {
        self.0[const { index("arc_scan_retention") }]
    }
    pub(crate) fn read_call_cycles(&self, era: Era) -> f64 {
        self.0[const { index("read_call_cycles_early") } + era_index(era)]
    }
    pub(crate) fn read_record_cycles(&self) -> f64 {
        self.0[const { index("read_record_cycles") }]
    }
    pub(crate) fn posixaio_handoff_s(&self) -> f64 {
        self.0[const { index("posixaio_handoff_s") }]
    }
    pub(crate) fn write_call_cycles(&self, era: Era) -> f64 {
        self.0[const { index("write_call_cycles_early") } + era_index(era)]
    }
    pub(crate) fn write_tx_cycles(&self) -> f64 {
        self.0[const { index("write_tx_cycles") }]
    }
    pub(crate) fn record_dirty_cycles(&self) -> f64 {
        self.0[const { index("record_dirty_cycles") }]
    }
    pub(crate) fn overwrite_call_factor(&self) -> f64 {
        self.0[const { index("overwrite_call_factor") }]
    }
    pub(crate) fn rewrite_records_in_flight(&self) -> f64 {
        self.0[const { index("rewrite_records_in_flight") }]
    }
    pub(crate) fn zio_cycles(&self, era: Era) -> f64 {
        self.0[const { index("zio_cycles_early") } + era_index(era)]
    }
    pub(crate) fn arc_evict_cycles_per_byte(&self) -> f64 {
        self.0[const { index("arc_evict_cycles_per_byte") }]
    }
}

/// The place of the constant named `name` in [`PARAMS`], found when the crate is compiled
/// (a name that is not there fails the build): the fit's order is the order of `PARAMS`
/// alone, and reordering it moves no accessor.
const fn index(name: &str) -> usize {
    let mut i = 0;
    while i < PARAMS.len() {
        if same(PARAMS[i].name.as_bytes(), name.as_bytes()) {
            return i;
        }
        i += 1;
    }
    panic!("not a constant of PARAMS");
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed file reads, and writing its values gives it back byte for byte: a refit
    /// that finds the same values leaves the file unchanged.
    #[test]
    fn the_constants_file_reads_and_writes_back() {
        let fitted = Constants::fitted();
        assert_eq!(fitted.to_toml(), FITTED_FILE);
        let first = FITTED_FILE.lines().find(|l| l.contains(" = ")).unwrap();
        let value: f64 = first.split(" = ").nth(1).unwrap().parse().unwrap();
        assert_eq!(fitted.disk_command_overhead_s(), value);
    }

    /// Each era's figures of a cost stand in PARAMS in the order `era_index` reads them.
    #[test]
    fn each_eras_figures_follow_each_other() {
        for cost in ["read_call_cycles", "write_call_cycles", "zio_cycles"] {
            let first = index(&format!("{cost}_early"));
            assert_eq!(index(&format!("{cost}_middle")), first + 1);
            assert_eq!(index(&format!("{cost}_modern")), first + 2);
        }
    }

    #[test]
    fn a_constants_file_names_every_constant_within_its_bounds() {
        let file = Constants::priors().to_toml();
        assert_eq!(Constants::from_toml(&file), Ok(Constants::priors()));
        let missing = file.replace("zio_cycles_modern = 1.5e4\n", "");
        assert_eq!(
            Constants::from_toml(&missing),
            Err("zio_cycles_modern: missing".into())
        );
        let unknown = format!("{file}zio_cycles_future = 1\n");
        assert!(Constants::from_toml(&unknown)
            .unwrap_err()
            .contains("not a constant"));
        let outside = file.replace("hdd_write_efficiency = 8.5e-1", "hdd_write_efficiency = 2");
        assert!(Constants::from_toml(&outside)
            .unwrap_err()
            .contains("outside 0.3..=1"));
    }
}
