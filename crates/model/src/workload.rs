//! Workloads, named after the tools that produce them (`dd`, iozone, fio, Bonnie) and
//! parameterised: block size, threads, queue depth, data set size, raw-device placement.
//! Written on the command line as `NAME[:key=value,...]` (`fio-randread:bs=4K,qd=32`) or in a
//! TOML file as a `kind` and the same keys.

use crate::units::{format_bytes, parse_size, MIB};
use std::fmt;

/// What the application does with its file (or raw device).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Access {
    /// Writes one big file front to back (`dd if=/dev/zero of=file`, Bonnie block write).
    SeqWrite,
    /// Reads one big file front to back (`dd if=file of=/dev/null`, Bonnie block read).
    SeqRead,
    /// Reads each block and writes it back in place (Bonnie rewrite).
    Rewrite,
    /// Random reads, writes, or a mix with `read_pct` percent reads (fio randread/randwrite/randrw).
    Random { read_pct: u32 },
    /// Bonnie's random seeks: a random read of one block; `write_pct` percent of them are
    /// dirtied and written back.
    Seeks { write_pct: u32 },
}

impl Access {
    /// Whether successive requests follow each other on disk.
    pub fn is_sequential(&self) -> bool {
        matches!(self, Access::SeqWrite | Access::SeqRead | Access::Rewrite)
    }
}

/// Where the requests go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// A file in the pool's first dataset.
    Pool,
    /// The first disk of the system, bypassing ZFS (`dd of=/dev/rdsk/...`), with its write
    /// cache on or off.
    RawDisk { write_cache: bool },
}

/// One workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// The preset it came from, as written (`dd-read`).
    pub kind: String,
    pub access: Access,
    pub target: Target,
    /// Bytes per application request (`dd bs`, fio `bs`).
    pub block_size: u64,
    /// Concurrent threads or processes (iozone `-t`, fio `numjobs`, Bonnie's seekers).
    pub threads: u32,
    /// Requests each thread keeps in flight (fio `iodepth`); 1 for synchronous calls.
    pub queue_depth: u32,
    /// Bytes of data the workload touches; `None`: far larger than memory, so the ARC serves
    /// nothing (a stream of `dd` over a 100 GB file).
    pub data_bytes: Option<u64>,
    /// For a raw device: where on the disk the requests start.
    pub offset_bytes: u64,
    /// The application runs on clients across the network: the data crosses the host's NICs.
    pub network: bool,
}

/// Why a workload could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadError(pub String);

impl fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad workload: {}", self.0)
    }
}

impl std::error::Error for WorkloadError {}

/// One preset: its name, what it stands for, and its default shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub about: &'static str,
    pub access: Access,
    pub target: Target,
    pub block_size: u64,
    pub threads: u32,
}

/// A preset on a file in the pool, with one thread.
const fn pool(name: &'static str, about: &'static str, access: Access, block_size: u64) -> Preset {
    Preset {
        name,
        about,
        access,
        target: Target::Pool,
        block_size,
        threads: 1,
    }
}

/// fio's default block size (fio HOWTO, `bs`: "Defaults to 4096").
const FIO_BS: u64 = 4096;

/// The presets: the one table `Workload::preset` reads and the "known:" list names.
pub const PRESETS: &[Preset] = &[
    pool(
        "dd-write",
        "dd if=/dev/zero of=file bs=1M: one sequential writer",
        Access::SeqWrite,
        MIB,
    ),
    pool(
        "dd-read",
        "dd if=file of=/dev/null bs=1M: one sequential reader",
        Access::SeqRead,
        MIB,
    ),
    pool(
        "iozone-write",
        "iozone -i 0 -t N: N sequential writers (threads=N)",
        Access::SeqWrite,
        MIB,
    ),
    pool(
        "iozone-read",
        "iozone -i 1 -t N: N sequential readers (threads=N)",
        Access::SeqRead,
        MIB,
    ),
    pool(
        "fio-randread",
        "fio rw=randread bs=4K (bs, threads, qd, size)",
        Access::Random { read_pct: 100 },
        FIO_BS,
    ),
    pool(
        "fio-randwrite",
        "fio rw=randwrite bs=4K (bs, threads, qd, size)",
        Access::Random { read_pct: 0 },
        FIO_BS,
    ),
    pool(
        "fio-randrw",
        "fio rw=randrw rwmixread=70 bs=4K (rwmix, bs, threads, qd, size)",
        Access::Random { read_pct: 70 },
        FIO_BS,
    ),
    pool(
        "bonnie-write",
        "Bonnie block write: sequential write(2) of 8 KiB chunks",
        Access::SeqWrite,
        BONNIE_CHUNK,
    ),
    pool(
        "bonnie-rewrite",
        "Bonnie rewrite: read a chunk, dirty it, write it back",
        Access::Rewrite,
        BONNIE_CHUNK,
    ),
    pool(
        "bonnie-read",
        "Bonnie block read: sequential read(2) of 8 KiB chunks",
        Access::SeqRead,
        BONNIE_CHUNK,
    ),
    Preset {
        threads: BONNIE_SEEKERS,
        ..pool(
            "bonnie-seeks",
            "Bonnie random seeks: 4 processes read random chunks, 10% written back",
            Access::Seeks {
                write_pct: BONNIE_SEEK_WRITE_PCT,
            },
            BONNIE_CHUNK,
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
        ..pool(
            "raw-randread",
            "fio rw=randread bs=4K on the raw first disk (bs, threads, qd, offset)",
            Access::Random { read_pct: 100 },
            FIO_BS,
        )
    },
];

/// Bonnie's unit of I/O (Bonnie.c `Chunk`, 8192 bytes).
pub const BONNIE_CHUNK: u64 = 8192;
/// Seeker processes Bonnie forks for its random-seek test (Bonnie.c `SeekProcCount`, 4 in
/// Tim Bray's Bonnie from which Bonnie-64 derives; bonnie++ uses 3).
pub const BONNIE_SEEKERS: u32 = 4;
/// Share of Bonnie's seeks whose block is dirtied and written back (Bonnie docs: "in 10% of
/// cases, it is dirtied and written back").
pub const BONNIE_SEEK_WRITE_PCT: u32 = 10;

impl Workload {
    /// A preset with its default parameters.
    pub fn preset(kind: &str) -> Result<Workload, WorkloadError> {
        let Some(p) = PRESETS.iter().find(|p| p.name == kind) else {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            return Err(WorkloadError(format!(
                "unknown workload '{kind}'; known: {}",
                names.join(", ")
            )));
        };
        Ok(Workload {
            kind: kind.to_string(),
            access: p.access,
            target: p.target,
            block_size: p.block_size,
            threads: p.threads,
            queue_depth: 1,
            data_bytes: None,
            offset_bytes: 0,
            network: false,
        })
    }

    /// Reads `NAME[:key=value,...]`, e.g. `fio-randread:bs=4K,qd=32,threads=2`.
    pub fn parse(spec: &str) -> Result<Workload, WorkloadError> {
        let (kind, params) = spec.split_once(':').unwrap_or((spec, ""));
        let pairs = params
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|pair| {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| WorkloadError(format!("'{pair}' is not key=value")))?;
                Ok((key.trim(), value.trim().to_string()))
            })
            .collect::<Result<Vec<_>, WorkloadError>>()?;
        Workload::preset(kind.trim())?.apply(pairs)
    }

    /// Reads a workload file: `kind = "fio-randread"` and the same keys as `parse`.
    pub fn from_toml(text: &str) -> Result<Workload, WorkloadError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| WorkloadError(e.message().to_string()))?;
        let kind = table
            .get("kind")
            .and_then(|k| k.as_str())
            .ok_or_else(|| WorkloadError("a workload file needs kind = \"NAME\"".into()))?;
        let pairs = table
            .iter()
            .filter(|(k, _)| k.as_str() != "kind")
            .map(|(key, value)| {
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) => f.to_string(),
                    toml::Value::Boolean(b) => (if *b { "on" } else { "off" }).to_string(),
                    _ => return Err(WorkloadError(format!("{key}: expected a value"))),
                };
                Ok((key.as_str(), text))
            })
            .collect::<Result<Vec<_>, WorkloadError>>()?;
        Workload::preset(kind)?.apply(pairs)
    }

    /// Sets each parameter of `pairs`, refusing one given twice (an alias counts as its
    /// parameter: `t=2,threads=4`), then checks the parameters together.
    fn apply<'a>(
        mut self,
        pairs: impl IntoIterator<Item = (&'a str, String)>,
    ) -> Result<Workload, WorkloadError> {
        let mut seen: Vec<&str> = Vec::new();
        for (key, value) in pairs {
            let name = canonical(key);
            if seen.contains(&name) {
                return Err(WorkloadError(format!(
                    "{name} is given twice: give each parameter once"
                )));
            }
            seen.push(name);
            self.set(key, &value)?;
        }
        self.check()?;
        Ok(self)
    }

    /// What no single parameter shows: a data set smaller than one block.
    pub fn check(&self) -> Result<(), WorkloadError> {
        match self.data_bytes {
            Some(size) if size < self.block_size => Err(WorkloadError(format!(
                "size={} is smaller than one block (bs={}): the data set holds at least one block",
                format_bytes(size),
                format_bytes(self.block_size)
            ))),
            _ => Ok(()),
        }
    }

    /// Sets one parameter: `bs`, `threads` (or `t`), `qd`, `size`, `rwmix` (read percent),
    /// `offset`, `wcache` (on/off), `net` (on/off: clients across the network).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), WorkloadError> {
        let bad = |why: &str| WorkloadError(format!("{key}={value}: {why}"));
        let size = || parse_size(value).map_err(|e| bad(&e.reason));
        let count = || -> Result<u32, WorkloadError> {
            match value.parse::<u32>() {
                Ok(n) if (1..=65_536).contains(&n) => Ok(n),
                _ => Err(bad("expected a whole number from 1 to 65536")),
            }
        };
        match canonical(key) {
            "bs" => {
                let bs = size()?;
                if !(512..=(1u64 << 30)).contains(&bs) {
                    return Err(bad("block size must be from 512 bytes to 1 GiB"));
                }
                self.block_size = bs;
            }
            "threads" => self.threads = count()?,
            "qd" => self.queue_depth = count()?,
            "size" => {
                let s = size()?;
                if s == 0 {
                    return Err(bad("the data set cannot be empty"));
                }
                self.data_bytes = Some(s);
            }
            "offset" => self.offset_bytes = size()?,
            "net" => {
                self.network = match value {
                    "on" | "true" => true,
                    "off" | "false" => false,
                    _ => return Err(bad("expected on or off")),
                }
            }
            "rwmix" => match (self.access, value.parse::<u32>()) {
                (Access::Random { .. }, Ok(pct)) if pct <= 100 => {
                    self.access = Access::Random { read_pct: pct }
                }
                (Access::Random { .. }, _) => return Err(bad("expected a percentage of reads")),
                _ => return Err(bad("only random workloads have a read/write mix")),
            },
            "wcache" => match (&mut self.target, value) {
                (Target::RawDisk { write_cache }, "on" | "true") => *write_cache = true,
                (Target::RawDisk { write_cache }, "off" | "false") => *write_cache = false,
                (Target::RawDisk { .. }, _) => return Err(bad("expected on or off")),
                (Target::Pool, _) => {
                    return Err(bad("ZFS sets the write cache itself; wcache is for raw-*"))
                }
            },
            _ => {
                return Err(WorkloadError(format!(
                    "unknown parameter '{key}' (bs, threads, qd, size, rwmix, offset, wcache, net)"
                )))
            }
        }
        Ok(())
    }

    /// Requests in flight from the application: threads times queue depth.
    pub fn outstanding(&self) -> u32 {
        self.threads.saturating_mul(self.queue_depth)
    }
}

/// The parameter a key names: `t` and `numjobs` are `threads`, `iodepth` is `qd`.
fn canonical(key: &str) -> &str {
    match key {
        "t" | "numjobs" => "threads",
        "iodepth" => "qd",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_parameters() {
        let w = Workload::parse("fio-randread:bs=8K,qd=32,threads=2").unwrap();
        assert_eq!(w.access, Access::Random { read_pct: 100 });
        assert_eq!((w.block_size, w.queue_depth, w.threads), (8192, 32, 2));
        assert_eq!(w.outstanding(), 64);
        let dd = Workload::parse("dd-read").unwrap();
        assert_eq!((dd.block_size, dd.access), (MIB, Access::SeqRead));
        let raw = Workload::parse("raw-write:bs=16K,wcache=on,offset=500GB").unwrap();
        assert_eq!(raw.target, Target::RawDisk { write_cache: true });
        assert_eq!(raw.offset_bytes, 500_000_000_000);
        assert!(Workload::parse("dd-read:net=on").unwrap().network);
        let seeks = Workload::parse("bonnie-seeks").unwrap();
        assert_eq!(seeks.threads, 4);
        assert_eq!(seeks.access, Access::Seeks { write_pct: 10 });
    }

    #[test]
    fn from_file() {
        let w = Workload::from_toml("kind = \"fio-randrw\"\nrwmix = 50\nbs = \"16K\"\nqd = 4\n")
            .unwrap();
        assert_eq!(w.access, Access::Random { read_pct: 50 });
        assert_eq!((w.block_size, w.queue_depth), (16384, 4));
    }

    #[test]
    fn refuses_nonsense() {
        assert!(Workload::parse("dd-sideways")
            .unwrap_err()
            .0
            .contains("unknown workload"));
        assert!(Workload::parse("dd-read:bs=12")
            .unwrap_err()
            .0
            .contains("512 bytes"));
        assert!(Workload::parse("dd-read:qd=0").is_err());
        assert!(Workload::parse("dd-read:wcache=on").is_err());
        assert!(Workload::parse("dd-read:rwmix=50").is_err());
        assert!(Workload::parse("fio-randrw:rwmix=150").is_err());
        assert!(Workload::parse("dd-read:bs")
            .unwrap_err()
            .0
            .contains("key=value"));
        assert!(Workload::from_toml("bs = 4").is_err());
    }

    #[test]
    fn every_preset_parses_and_the_unknown_message_names_them_all() {
        for p in PRESETS {
            let w = Workload::parse(p.name).unwrap();
            assert_eq!(
                (w.access, w.target, w.block_size),
                (p.access, p.target, p.block_size)
            );
        }
        let raw = Workload::parse("raw-write").unwrap();
        assert_eq!(raw.target, Target::RawDisk { write_cache: true });
        let raw = Workload::parse("raw-randread:qd=8").unwrap();
        assert_eq!(raw.access, Access::Random { read_pct: 100 });
        assert_eq!(raw.target, Target::RawDisk { write_cache: false });
        assert_eq!((raw.block_size, raw.queue_depth), (4096, 8));
        let e = Workload::parse("dd-sideways").unwrap_err().0;
        assert_eq!(
            e,
            "unknown workload 'dd-sideways'; known: dd-write, dd-read, iozone-write, iozone-read, \
             fio-randread, fio-randwrite, fio-randrw, bonnie-write, bonnie-rewrite, bonnie-read, \
             bonnie-seeks, raw-write, raw-read, raw-randread"
        );
    }

    #[test]
    fn a_parameter_is_given_once() {
        assert_eq!(
            Workload::parse("fio-randread:qd=1,qd=64").unwrap_err().0,
            "qd is given twice: give each parameter once"
        );
        // An alias is the same parameter.
        assert_eq!(
            Workload::parse("fio-randread:t=2,threads=4").unwrap_err().0,
            "threads is given twice: give each parameter once"
        );
        assert_eq!(
            Workload::from_toml("kind = \"fio-randread\"\niodepth = 2\nqd = 4\n")
                .unwrap_err()
                .0,
            "qd is given twice: give each parameter once"
        );
    }

    #[test]
    fn the_data_set_holds_at_least_one_block() {
        assert_eq!(
            Workload::parse("dd-write:size=1K").unwrap_err().0,
            "size=1.00 KiB is smaller than one block (bs=1.00 MiB): the data set holds at least one block"
        );
        // Whatever the order of the keys.
        assert!(Workload::parse("fio-randread:size=8K,bs=16K").is_err());
        let w = Workload::parse("fio-randread:size=8K,bs=8K").unwrap();
        assert_eq!(w.data_bytes, Some(8192));
    }
}
