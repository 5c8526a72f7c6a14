//! The named workloads (`dd-read`, `fio-randread`, `bonnie-seeks`, ...) and their defaults.

use super::{Access, CacheState, Data, Durability, Engine, Target, Workload, WorkloadError};
use crate::units::MIB;

/// One preset: its name, what it stands for, and its default shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// The name to ask for (`dd-read`).
    pub name: &'static str,
    /// What it stands for, one line for `zpoolsim workloads`.
    pub about: &'static str,
    /// The pattern of requests.
    pub access: Access,
    /// A file, a zvol or a raw disk.
    pub target: Target,
    /// Bytes per request.
    pub block_size: u64,
    /// Threads or processes.
    pub threads: u32,
    /// How requests are issued.
    pub engine: Engine,
    /// How writes are made durable.
    pub durability: Durability,
    /// What the written bytes are.
    pub data: Data,
}

/// A preset on a file in the pool, one synchronous thread, incompressible data, nothing
/// flushed.
const fn pool(name: &'static str, about: &'static str, access: Access, block_size: u64) -> Preset {
    Preset {
        name,
        about,
        access,
        target: Target::Pool,
        block_size,
        threads: 1,
        engine: Engine::Sync,
        durability: Durability::None,
        data: Data::Random,
    }
}

/// A fio preset: its queue depth reaches ZFS (io_uring hands buffered requests that would
/// block to kernel workers), so `qd` means what the user wants it to; `engine=psync|libaio|
/// posixaio` gives fio's own engines their own semantics.
const fn fio(name: &'static str, about: &'static str, read_pct: u32) -> Preset {
    Preset {
        engine: Engine::IoUring,
        ..pool(name, about, Access::Random { read_pct }, FIO_BS)
    }
}

/// A Bonnie preset: 8 KiB chunks of a pattern, each file closed (and so flushed) in the timing.
const fn bonnie(name: &'static str, about: &'static str, access: Access) -> Preset {
    Preset {
        durability: Durability::AtEnd,
        data: Data::Pattern,
        ..pool(name, about, access, BONNIE_CHUNK)
    }
}

/// fio's default block size (fio HOWTO, `bs`: "Defaults to 4096").
const FIO_BS: u64 = 4096;

/// Bonnie's unit of I/O (Bonnie.c `Chunk`, 8192 bytes; bonnie++'s DefaultChunkSize, 1 << 13).
pub const BONNIE_CHUNK: u64 = 8192;
/// Seeker processes Bonnie forks for its random-seek test (Bonnie.c `SeekProcCount`, 4 in Tim
/// Bray's Bonnie from which Bonnie-64 derives; bonnie++ forks 5, its DefaultSeekProcCount).
pub const BONNIE_SEEKERS: u32 = 4;
/// Share of Bonnie's seeks whose block is dirtied and written back (Bonnie docs: "in 10% of
/// cases, it is dirtied and written back"; bonnie++'s UpdateSeek = 10: every tenth ticket).
pub const BONNIE_SEEK_WRITE_PCT: u32 = 10;

/// The presets: the one table `Workload::preset` reads and the "known:" list names.
pub const PRESETS: &[Preset] = &[
    Preset {
        data: Data::Zeros,
        ..pool(
            "dd-write",
            "dd if=/dev/zero of=file bs=1M: one sequential writer of zeros",
            Access::SeqWrite,
            MIB,
        )
    },
    pool(
        "dd-read",
        "dd if=file of=/dev/null bs=1M: one sequential reader",
        Access::SeqRead,
        MIB,
    ),
    Preset {
        data: Data::Pattern,
        ..pool(
            "iozone-write",
            "iozone -i 0 -t N: N sequential writers (threads=N)",
            Access::SeqWrite,
            MIB,
        )
    },
    pool(
        "iozone-read",
        "iozone -i 1 -t N: N sequential readers (threads=N)",
        Access::SeqRead,
        MIB,
    ),
    fio(
        "fio-randread",
        "fio rw=randread bs=4K (bs, threads, qd, size, engine, direct)",
        100,
    ),
    fio(
        "fio-randwrite",
        "fio rw=randwrite bs=4K (bs, threads, qd, size, engine, direct, fsync, sync)",
        0,
    ),
    fio(
        "fio-randrw",
        "fio rw=randrw rwmixread=70 bs=4K (rwmix, bs, threads, qd, size, engine, direct)",
        70,
    ),
    Preset {
        engine: Engine::IoUring,
        ..pool(
            "fio-write",
            "fio rw=write bs=1M (bs, threads, qd, size, engine, direct, fsync, sync)",
            Access::SeqWrite,
            MIB,
        )
    },
    Preset {
        engine: Engine::IoUring,
        ..pool(
            "fio-read",
            "fio rw=read bs=1M (bs, threads, qd, size, engine, direct)",
            Access::SeqRead,
            MIB,
        )
    },
    bonnie(
        "bonnie-write",
        "Bonnie block write: sequential write(2) of 8 KiB chunks",
        Access::SeqWrite,
    ),
    bonnie(
        "bonnie-rewrite",
        "Bonnie rewrite: read a chunk, dirty it, write it back",
        Access::Rewrite,
    ),
    bonnie(
        "bonnie-read",
        "Bonnie block read: sequential read(2) of 8 KiB chunks",
        Access::SeqRead,
    ),
    Preset {
        threads: BONNIE_SEEKERS,
        durability: Durability::None,
        ..bonnie(
            "bonnie-seeks",
            "Bonnie random seeks: 4 processes read random chunks, 10% written back",
            Access::Seeks {
                write_pct: BONNIE_SEEK_WRITE_PCT,
            },
        )
    },
    // The drive's volatile write cache is on unless switched off (wcache=off): SATA drives ship
    // with it enabled (ATA8-ACS SET FEATURES 02h/82h turns it on and off); seed 004 turned it off
    // with `format -e`, and its cases say wcache=off.
    Preset {
        target: Target::RawDisk { write_cache: true },
        ..pool(
            "raw-write",
            "dd to the raw first disk, one request at a time (bs, wcache=on|off, offset)",
            Access::SeqWrite,
            MIB,
        )
    },
    Preset {
        target: Target::RawDisk { write_cache: false },
        ..pool(
            "raw-read",
            "dd from the raw first disk, one request at a time (bs, offset)",
            Access::SeqRead,
            MIB,
        )
    },
    Preset {
        target: Target::RawDisk { write_cache: false },
        engine: Engine::Libaio,
        ..pool(
            "raw-randread",
            "fio rw=randread bs=4K on the raw first disk (bs, threads, qd, offset)",
            Access::Random { read_pct: 100 },
            FIO_BS,
        )
    },
];

impl Workload {
    /// A preset with its default parameters.
    pub fn preset(kind: &str) -> Result<Workload, WorkloadError> {
        let Some(p) = PRESETS.iter().find(|p| p.name == kind) else {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            return Err(WorkloadError(format!(
                "unknown workload '{}'; known: {}, or a command line of {}",
                crate::input::clip(kind, 60),
                names.join(", "),
                super::TOOLS.join(", ")
            )));
        };
        Ok(Workload {
            kind: kind.to_string(),
            tool: super::Tool::Preset,
            access: p.access,
            target: p.target,
            block_size: p.block_size,
            threads: p.threads,
            queue_depth: 1,
            engine: p.engine,
            data_bytes: None,
            shared_file: matches!(p.access, Access::Seeks { .. }),
            durability: p.durability,
            direct: false,
            data: p.data,
            cache: CacheState::Warm,
            offset_bytes: 0,
            network: false,
            pool_fill: 0.0,
        })
    }

    /// Reads `NAME[:key=value,...]`, e.g. `fio-randread:bs=4K,qd=32,threads=2`.
    pub(super) fn parse_preset(spec: &str) -> Result<Workload, WorkloadError> {
        let (kind, params) = spec.split_once(':').unwrap_or((spec, ""));
        let pairs = params
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|pair| {
                let (key, value) = pair.split_once('=').ok_or_else(|| {
                    WorkloadError(format!(
                        "'{}' is not key=value",
                        crate::input::clip(pair, 40)
                    ))
                })?;
                Ok((key.trim(), value.trim().to_string()))
            })
            .collect::<Result<Vec<_>, WorkloadError>>()?;
        Workload::preset(kind.trim())?.apply(pairs)
    }
}
