//! The choices zpoolsim makes for a user who did not make them: the workloads a layout is
//! measured by, how full a pool is assumed to be, the mission, the repair delay and the
//! simulation's size, the ranking's thresholds and the purposes (`--for`). Policies, not facts:
//! each says so.

use std::fmt;

/// Most disks a plan takes: with raidz widths up to 19 and dRAID data widths up to 16 a plan
/// evaluates about 230 layouts whatever the disk count, but each evaluation costs time in
/// proportion to the disks (performance and rebuild models per disk), so 1,000 disks take
/// seconds; beyond that the enumeration, not ZFS, is the limit. A policy, not a fact.
pub const MAX_DISKS: u32 = 1000;

/// Hours from a disk failing to its replacement being in the slot when no hot spare takes
/// over at once: three days to notice, fetch a disk and swap it. A policy, not a fact.
pub const REPLACEMENT_HOURS: f64 = 72.0;

/// The workloads `--need` bounds, in order: one fio sequential reader and one fio sequential
/// writer of 1 MiB requests, and 4 KiB random reads with 32 in flight (a loaded server rather
/// than one synchronous reader, whose rate would be one disk's whatever the layout). All
/// three are what an admin means by a pool's speed: fio's random buffers (incompressible, so
/// compression cannot turn them into holes as it does `dd`'s zeros) over a data set with no
/// `size`, which the model takes as far larger than RAM: past the dirty-data buffer and the
/// ARC, so every byte reaches or comes from the disks. `dd-write` stays a named workload. A
/// choice, not a fact.
pub const STANDARD_WORKLOADS: [&str; 3] = ["fio-read", "fio-write", "fio-randread:qd=32"];

/// The random workload `iops>=` needs are judged at when neither `--random` nor a `--for`
/// purpose sets one: a VM host's or a busy file server's concurrency, 8 clients each with 16
/// requests in flight (128 in all). A pool that must reach an IOPS figure serves many
/// clients at once; one thread with 32 in flight leaves most disks of a large pool idle, so
/// every layout of reads on separate disks ties there (24 disks: 1,361/s for a stripe and for
/// 12 mirrors alike) and no layout meets a figure the same disks reach loaded. The RAND/s
/// column shows this workload then, and the plan's `workloads:` line names it. A choice, not
/// a fact.
pub const NEEDS_RANDOM_WORKLOAD: &str = "fio-randread:threads=8,qd=16";

/// How full the pool is assumed to be when a rebuild's length matters (`report`, and the
/// `--fill` default of plan, compare and reliability): 80%, where pools are usually grown.
pub const FILL: f64 = 0.8;

/// The mission over which loss probabilities are given by default, years.
pub const YEARS: f64 = 5.0;

/// Monte Carlo missions of the one-page report: a tight interval at typical loss rates, well
/// under a second.
pub const REPORT_TRIALS: u64 = 100_000;

/// The seed of every simulation zpoolsim runs on its own: reports are reproducible.
pub const SEED: u64 = 1;

/// The default ranking's speed floor: a layout must read and write sequentially at least this
/// share of the best among those under the loss target, so that space is not bought with a
/// pool too slow to fill or copy. A policy, not a fact.
pub const SPEED_FLOOR: f64 = 0.5;

/// Layouts within this share of the most usable space are near ties in the default ranking:
/// random reads decide among them. A policy, not a fact.
pub const SPACE_TIE: f64 = 0.95;

/// Layouts within this share of the most random reads (or writes) are ties: the one with more
/// usable space wins (a tenth is about what the model's own error is). A policy, not a fact.
pub const SPEED_TIE: f64 = 0.9;

/// How the planner weighs the layouts that stay under the loss target (`--rank`). A policy,
/// not a fact: the default weighs what an admin weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// The most usable space among the layouts that read and write sequentially at least
    /// [`SPEED_FLOOR`] of the best; among those within [`SPACE_TIE`] of the most space, the
    /// most random reads (within [`SPEED_TIE`]: a tie, the more space wins).
    #[default]
    Usable,
    /// The most usable space.
    Space,
    /// The most random reads per second (within [`SPEED_TIE`]: the more space).
    Iops,
    /// The fastest sequential writes (within [`SPEED_TIE`]: the more space).
    Write,
}

impl Rank {
    pub(crate) const WORDS: &'static str = "usable, space, iops or write";

    fn word(self) -> &'static str {
        match self {
            Rank::Usable => "usable",
            Rank::Space => "space",
            Rank::Iops => "iops",
            Rank::Write => "write",
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl std::str::FromStr for Rank {
    type Err = String;
    fn from_str(s: &str) -> Result<Rank, String> {
        [Rank::Usable, Rank::Space, Rank::Iops, Rank::Write]
            .into_iter()
            .find(|r| r.word() == s.trim())
            .ok_or_else(|| {
                format!(
                    "unknown ranking '{}': {}",
                    model::input::echo(s),
                    Rank::WORDS
                )
            })
    }
}

/// What the pool is for (`--for`): the ranking an admin applies for it, and the random
/// workload its RAND/s column and `iops>=` needs are judged at. A policy, not a fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// Files and shares: the default ranking at the standard random workload.
    #[default]
    General,
    /// Virtual machines' disks: many guests reading and writing small blocks at once, so the
    /// most random reads (mirrors), judged with 8 guests of 4 requests in flight each.
    Vm,
    /// A database: its pages read at random by many sessions (16 KiB, InnoDB's page; 8 of 4
    /// in flight), so the most random reads.
    Database,
    /// Backups: big streams written once and rarely read, so the most usable space without a
    /// speed floor.
    Backup,
    /// Media: big files streamed, so the default ranking (space over a sequential speed floor).
    Media,
}

impl Purpose {
    pub(crate) const WORDS: &'static str = "general, vm, database, backup or media";

    const ALL: [Purpose; 5] = [
        Purpose::General,
        Purpose::Vm,
        Purpose::Database,
        Purpose::Backup,
        Purpose::Media,
    ];

    /// The word `--for` takes.
    pub fn word(self) -> &'static str {
        match self {
            Purpose::General => "general",
            Purpose::Vm => "vm",
            Purpose::Database => "database",
            Purpose::Backup => "backup",
            Purpose::Media => "media",
        }
    }

    /// The ranking this purpose applies when `--rank` is not given.
    pub fn rank(self) -> Rank {
        match self {
            Purpose::General | Purpose::Media => Rank::Usable,
            Purpose::Vm | Purpose::Database => Rank::Iops,
            Purpose::Backup => Rank::Space,
        }
    }

    /// The random workload this purpose judges layouts at when `--random` is not given; with
    /// an `iops>=` need, the general purposes judge at `NEEDS_RANDOM_WORKLOAD`.
    pub fn random_workload(self, iops_need: bool) -> &'static str {
        match self {
            Purpose::General | Purpose::Backup | Purpose::Media if iops_need => {
                NEEDS_RANDOM_WORKLOAD
            }
            Purpose::General | Purpose::Backup | Purpose::Media => STANDARD_WORKLOADS[2],
            Purpose::Vm => "fio-randread:threads=8,qd=4",
            Purpose::Database => "fio-randread:bs=16k,threads=8,qd=4",
        }
    }
}

impl std::str::FromStr for Purpose {
    type Err = String;
    fn from_str(s: &str) -> Result<Purpose, String> {
        Purpose::ALL
            .into_iter()
            .find(|p| p.word() == s.trim())
            .ok_or_else(|| {
                format!(
                    "unknown purpose '{}': {}",
                    model::input::echo(s),
                    Purpose::WORDS
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iops_need_is_judged_loaded_unless_the_purpose_says() {
        assert_eq!(
            Purpose::General.random_workload(false),
            "fio-randread:qd=32"
        );
        assert_eq!(
            Purpose::General.random_workload(true),
            NEEDS_RANDOM_WORKLOAD
        );
        assert_eq!(
            Purpose::Vm.random_workload(true),
            "fio-randread:threads=8,qd=4"
        );
    }

    #[test]
    fn every_purpose_reads_back_and_its_workload_parses() {
        for p in Purpose::ALL {
            assert_eq!(p.word().parse::<Purpose>(), Ok(p));
            for iops_need in [false, true] {
                let workload = p.random_workload(iops_need);
                assert!(model::Workload::parse(workload).is_ok(), "{p:?}");
            }
        }
        assert_eq!("vm".parse::<Purpose>().map(Purpose::rank), Ok(Rank::Iops));
        assert!("nas"
            .parse::<Purpose>()
            .unwrap_err()
            .contains("general, vm, database, backup or media"));
    }
}
