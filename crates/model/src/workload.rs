//! Workloads, named after the tools that produce them (`dd`, iozone, fio, Bonnie) and
//! parameterised: block size, threads, queue depth, data set size, raw-device placement.
//! Written on the command line as `NAME[:key=value,...]` (`fio-randread:bs=4K,qd=32`) or in a
//! TOML file as a `kind` and the same keys.

use crate::units::{parse_size, MIB};
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

/// The presets, with what each one stands for.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "dd-write",
        "dd if=/dev/zero of=file bs=1M: one sequential writer",
    ),
    (
        "dd-read",
        "dd if=file of=/dev/null bs=1M: one sequential reader",
    ),
    (
        "iozone-write",
        "iozone -i 0 -t N: N sequential writers (threads=N)",
    ),
    (
        "iozone-read",
        "iozone -i 1 -t N: N sequential readers (threads=N)",
    ),
    (
        "fio-randread",
        "fio rw=randread bs=4K (bs, threads, qd, size)",
    ),
    (
        "fio-randwrite",
        "fio rw=randwrite bs=4K (bs, threads, qd, size)",
    ),
    (
        "fio-randrw",
        "fio rw=randrw rwmixread=70 bs=4K (rwmix, bs, threads, qd, size)",
    ),
    (
        "bonnie-write",
        "Bonnie block write: sequential write(2) of 8 KiB chunks",
    ),
    (
        "bonnie-rewrite",
        "Bonnie rewrite: read a chunk, dirty it, write it back",
    ),
    (
        "bonnie-read",
        "Bonnie block read: sequential read(2) of 8 KiB chunks",
    ),
    (
        "bonnie-seeks",
        "Bonnie random seeks: 4 processes read random chunks, 10% written back",
    ),
    (
        "raw-write",
        "dd to the raw first disk, one request at a time (bs, wcache=on|off, offset)",
    ),
    (
        "raw-read",
        "dd from the raw first disk, one request at a time (bs, offset)",
    ),
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
        let base = |access, block_size| Workload {
            kind: kind.to_string(),
            access,
            target: Target::Pool,
            block_size,
            threads: 1,
            queue_depth: 1,
            data_bytes: None,
            offset_bytes: 0,
            network: false,
        };
        let random = |read_pct| base(Access::Random { read_pct }, 4096);
        Ok(match kind {
            "dd-write" | "iozone-write" => base(Access::SeqWrite, MIB),
            "dd-read" | "iozone-read" => base(Access::SeqRead, MIB),
            "fio-randread" => random(100),
            "fio-randwrite" => random(0),
            "fio-randrw" => random(70),
            "bonnie-write" => base(Access::SeqWrite, BONNIE_CHUNK),
            "bonnie-rewrite" => base(Access::Rewrite, BONNIE_CHUNK),
            "bonnie-read" => base(Access::SeqRead, BONNIE_CHUNK),
            "bonnie-seeks" => Workload {
                threads: BONNIE_SEEKERS,
                ..base(
                    Access::Seeks {
                        write_pct: BONNIE_SEEK_WRITE_PCT,
                    },
                    BONNIE_CHUNK,
                )
            },
            "raw-write" => Workload {
                target: Target::RawDisk { write_cache: false },
                ..base(Access::SeqWrite, MIB)
            },
            "raw-read" => Workload {
                target: Target::RawDisk { write_cache: false },
                ..base(Access::SeqRead, MIB)
            },
            "raw-randread" => Workload {
                target: Target::RawDisk { write_cache: false },
                ..random(100)
            },
            _ => {
                let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
                return Err(WorkloadError(format!(
                    "unknown workload '{kind}'; known: {}",
                    names.join(", ")
                )));
            }
        })
    }

    /// Reads `NAME[:key=value,...]`, e.g. `fio-randread:bs=4K,qd=32,threads=2`.
    pub fn parse(spec: &str) -> Result<Workload, WorkloadError> {
        let (kind, params) = spec.split_once(':').unwrap_or((spec, ""));
        let mut w = Workload::preset(kind.trim())?;
        for pair in params.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| WorkloadError(format!("'{pair}' is not key=value")))?;
            w.set(key.trim(), value.trim())?;
        }
        Ok(w)
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
        let mut w = Workload::preset(kind)?;
        for (key, value) in table.iter().filter(|(k, _)| k.as_str() != "kind") {
            let text = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => (if *b { "on" } else { "off" }).to_string(),
                _ => return Err(WorkloadError(format!("{key}: expected a value"))),
            };
            w.set(key, &text)?;
        }
        Ok(w)
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
        match key {
            "bs" => {
                let bs = size()?;
                if !(512..=(1u64 << 30)).contains(&bs) {
                    return Err(bad("block size must be from 512 bytes to 1 GiB"));
                }
                self.block_size = bs;
            }
            "threads" | "t" | "numjobs" => self.threads = count()?,
            "qd" | "iodepth" => self.queue_depth = count()?,
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
}
