//! The `key=value` parameters of a preset: one place sets each, and the whole is checked once.

use super::{Access, CacheState, Data, Durability, Engine, Target, Workload, WorkloadError};
use crate::input::clip;
use crate::units::{format_bytes, parse_size};

/// The parameters a preset takes, for messages.
pub const KEYS: &str = "bs, threads, qd, size, rwmix, offset, wcache, net, engine, direct, sync, \
fsync, end_fsync, data, cache, shared";

/// Most threads, queue depth or fsync interval a workload names.
const MAX_COUNT: u32 = 65_536;

impl Workload {
    /// Sets each parameter of `pairs`, refusing one given twice (an alias counts as its
    /// parameter: `t=2,threads=4`), then checks the parameters together.
    pub(super) fn apply<'a>(
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

    /// Sets one parameter (see [`KEYS`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), WorkloadError> {
        let bad =
            |why: &str| WorkloadError(format!("{}={}: {why}", clip(key, 20), clip(value, 40)));
        let size = || parse_size(value).map_err(|e| bad(&e.reason));
        let count = || -> Result<u32, WorkloadError> {
            match value.parse::<u32>() {
                Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
                _ => Err(bad("expected a whole number from 1 to 65536")),
            }
        };
        let switch = || match value {
            "on" | "true" | "1" | "yes" => Ok(true),
            "off" | "false" | "0" | "no" => Ok(false),
            _ => Err(bad("expected on or off")),
        };
        match canonical(key) {
            "bs" => {
                let bs = size()?;
                if !(1..=(1u64 << 30)).contains(&bs) {
                    return Err(bad("block size must be from 1 byte to 1 GiB"));
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
            "net" => self.network = switch()?,
            "rwmix" => match (self.access, value.parse::<u32>()) {
                (Access::Random { .. }, Ok(pct)) if pct <= 100 => {
                    self.access = Access::Random { read_pct: pct }
                }
                (Access::Random { .. }, _) => return Err(bad("expected a percentage of reads")),
                _ => return Err(bad("only random workloads have a read/write mix")),
            },
            "wcache" => match &mut self.target {
                Target::RawDisk { write_cache } => *write_cache = switch()?,
                Target::Pool | Target::Zvol { .. } => {
                    return Err(bad("ZFS sets the write cache itself; wcache is for raw-*"))
                }
            },
            // A zvol as the target, of blocks of this size (512 B to 128 KiB, zfs_prop.c).
            "volblocksize" => self.target = zvol(self.target, size()?).map_err(bad)?,
            "engine" => self.engine = engine(value).ok_or_else(|| bad(ENGINES))?,
            "direct" => self.direct = switch()?,
            "sync" => {
                if switch()? {
                    self.durability = Durability::EachWrite
                }
            }
            "fsync" => self.durability = Durability::Every(count()?),
            "end_fsync" => {
                self.durability = if switch()? {
                    Durability::AtEnd
                } else {
                    Durability::None
                }
            }
            "data" => {
                self.data = data(value).ok_or_else(|| {
                    bad("expected random, urandom (read from /dev/urandom), zeros, pattern or sparse-N (N% of each record written)")
                })?
            }
            "cache" => {
                self.cache = match value {
                    "warm" => CacheState::Warm,
                    "cold" => CacheState::Cold,
                    _ => return Err(bad("expected warm (the run just wrote or read it) or cold")),
                }
            }
            "shared" => self.shared_file = switch()?,
            _ => {
                return Err(WorkloadError(format!(
                    "unknown parameter '{}' ({KEYS})",
                    clip(key, 30)
                )))
            }
        }
        Ok(())
    }
}

/// The engines, for messages.
const ENGINES: &str = "expected an engine: psync (or sync, pvsync), libaio, io_uring, posixaio";

/// An I/O engine by fio's name for it.
pub fn engine(name: &str) -> Option<Engine> {
    Some(match name {
        "sync" | "psync" | "vsync" | "pvsync" | "pvsync2" => Engine::Sync,
        "libaio" => Engine::Libaio,
        "io_uring" => Engine::IoUring,
        "posixaio" => Engine::PosixAio,
        _ => return None,
    })
}

/// The parameter a key names: `t` and `numjobs` are `threads`, `iodepth` is `qd`, `ioengine`
/// is `engine`.
fn canonical(key: &str) -> &str {
    match key {
        "t" | "numjobs" => "threads",
        "iodepth" => "qd",
        "ioengine" => "engine",
        other => other,
    }
}

/// The `data=` values: random, zeros, pattern, or sparse-N (N% of each record written).
fn data(value: &str) -> Option<Data> {
    let sparse = value
        .strip_prefix("sparse-")
        .and_then(|p| p.parse::<u8>().ok())
        .filter(|p| (1..=100).contains(p));
    match (value, sparse) {
        ("random", _) => Some(Data::Random),
        ("urandom", _) => Some(Data::Urandom),
        ("zeros" | "zero", _) => Some(Data::Zeros),
        ("pattern", _) => Some(Data::Pattern),
        (_, Some(fill_pct)) => Some(Data::Sparse { fill_pct }),
        _ => None,
    }
}

/// The target a preset's `volblocksize=` makes: a zvol of blocks of `bytes` (a power of two
/// from 512 to 128K, zfs_prop.c), never a raw disk.
fn zvol(target: Target, bytes: u64) -> Result<Target, &'static str> {
    if let Target::RawDisk { .. } = target {
        return Err("a raw disk has no volblocksize; it is for a zvol");
    }
    if !(512..=128 << 10).contains(&bytes) || !bytes.is_power_of_two() {
        return Err("expected a power of two from 512 to 128K");
    }
    Ok(Target::Zvol {
        volblocksize: Some(bytes),
    })
}
