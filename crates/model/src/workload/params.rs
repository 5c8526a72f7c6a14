//! The `key=value` parameters of a preset: one place sets each, and the whole is checked once.

use super::{Access, CacheState, Data, Durability, Engine, Target, Workload, WorkloadError};
use crate::input::clip;
use crate::units::{format_bytes, parse_size};

/// The parameters a preset takes, for messages.
pub(super) const KEYS: &str =
    "bs, threads, qd, size, rwmix, offset, wcache, net, engine, direct, sync, \
fsync, end_fsync, data, cache, shared, fill";

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

    /// Sets one parameter (see [`KEYS`]): each group of parameters has its own setter, and
    /// a key none of them knows is refused with the list of keys.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), WorkloadError> {
        let param = Param { key, value };
        let name = canonical(key);
        // The groups' keys are disjoint, so the first setter that knows the key is the only one.
        if self.set_shape(name, &param)?
            || self.set_path(name, &param)?
            || self.set_durability(name, &param)?
            || self.set_contents(name, &param)?
        {
            return Ok(());
        }
        Err(WorkloadError(format!(
            "unknown parameter '{}' ({KEYS})",
            clip(key, 30)
        )))
    }

    /// The shape of the I/O stream: block size, threads, queue depth, data set, offset and
    /// read/write mix. False when `name` is not one of them.
    fn set_shape(&mut self, name: &str, p: &Param) -> Result<bool, WorkloadError> {
        match name {
            "bs" => {
                let bs = p.size()?;
                if !(1..=(1u64 << 30)).contains(&bs) {
                    return Err(p.bad("block size must be from 1 byte to 1 GiB"));
                }
                self.block_size = bs;
            }
            "threads" => self.threads = p.count()?,
            "qd" => self.queue_depth = p.count()?,
            "size" => {
                let s = p.size()?;
                if s == 0 {
                    return Err(p.bad("the data set cannot be empty"));
                }
                self.data_bytes = Some(s);
            }
            "offset" => self.offset_bytes = p.size()?,
            "rwmix" => match (self.access, p.value.parse::<u32>()) {
                (Access::Random { .. }, Ok(pct)) if pct <= 100 => {
                    self.access = Access::Random { read_pct: pct }
                }
                (Access::Random { .. }, _) => return Err(p.bad("expected a percentage of reads")),
                _ => return Err(p.bad("only random workloads have a read/write mix")),
            },
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The path a block takes to the disks: network, write cache, zvol, engine and O_DIRECT.
    /// False when `name` is not one of them.
    fn set_path(&mut self, name: &str, p: &Param) -> Result<bool, WorkloadError> {
        match name {
            "net" => self.network = p.switch()?,
            "wcache" => match &mut self.target {
                Target::RawDisk { write_cache } => *write_cache = p.switch()?,
                Target::Pool | Target::Zvol { .. } => {
                    return Err(p.bad("ZFS sets the write cache itself; wcache is for raw-*"))
                }
            },
            // A zvol as the target, of blocks of this size (512 B to 128 KiB, zfs_prop.c).
            "volblocksize" => self.target = zvol(self.target, p.size()?).map_err(|w| p.bad(w))?,
            "engine" => self.engine = engine(p.value).ok_or_else(|| p.bad(ENGINES))?,
            "direct" => self.direct = p.switch()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// When writes are made durable: each write (O_SYNC), every N writes, or once at the end.
    /// False when `name` is not one of them.
    fn set_durability(&mut self, name: &str, p: &Param) -> Result<bool, WorkloadError> {
        match name {
            // sync=off leaves whatever durability an earlier key chose.
            "sync" => {
                if p.switch()? {
                    self.durability = Durability::EachWrite
                }
            }
            "fsync" => self.durability = Durability::Every(p.count()?),
            "end_fsync" => {
                self.durability = if p.switch()? {
                    Durability::AtEnd
                } else {
                    Durability::None
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// What the blocks hold and where they start: data pattern, cache state, one shared file,
    /// how full the pool already is.
    /// False when `name` is not one of them.
    fn set_contents(&mut self, name: &str, p: &Param) -> Result<bool, WorkloadError> {
        match name {
            "data" => {
                self.data = data(p.value).ok_or_else(|| {
                    p.bad("expected random, urandom (read from /dev/urandom), zeros, pattern or sparse-N (N% of each record written)")
                })?
            }
            "cache" => {
                self.cache = match p.value {
                    "warm" => CacheState::Warm,
                    "cold" => CacheState::Cold,
                    _ => return Err(p.bad("expected warm (the run just wrote or read it) or cold")),
                }
            }
            "shared" => self.shared_file = p.switch()?,
            "fill" => {
                if let Target::RawDisk { .. } = self.target {
                    return Err(p.bad("a raw disk holds no pool; offset= says where on it"));
                }
                self.pool_fill = pool_fill(p.value).map_err(|why| p.bad(&why))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// One `key=value` being set, with the readers of its value; each failure names the pair.
struct Param<'a> {
    key: &'a str,
    value: &'a str,
}

impl Param<'_> {
    /// The one-line refusal of this pair, both sides clipped so a long input stays one line.
    fn bad(&self, why: &str) -> WorkloadError {
        WorkloadError(format!(
            "{}={}: {why}",
            clip(self.key, 20),
            clip(self.value, 40)
        ))
    }

    /// A byte count (`4k`, `1G`).
    fn size(&self) -> Result<u64, WorkloadError> {
        parse_size(self.value).map_err(|e| self.bad(&e.reason))
    }

    /// A count of threads, queue slots or writes, bounded by [`MAX_COUNT`].
    fn count(&self) -> Result<u32, WorkloadError> {
        match self.value.parse::<u32>() {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
            _ => Err(self.bad("expected a whole number from 1 to 65536")),
        }
    }

    /// An on/off switch in any of its usual spellings.
    fn switch(&self) -> Result<bool, WorkloadError> {
        match self.value {
            "on" | "true" | "1" | "yes" => Ok(true),
            "off" | "false" | "0" | "no" => Ok(false),
            _ => Err(self.bad("expected on or off")),
        }
    }
}

/// How full the pool is before the run, `fill=` as `80%` or `0.8`, within
/// [`crate::range::POOL_FILL`].
fn pool_fill(value: &str) -> Result<f64, String> {
    let range = crate::range::POOL_FILL;
    crate::range::share(value, &range).ok_or_else(|| crate::range::share_refusal(&range))
}

/// The engines, for messages.
const ENGINES: &str = "expected an engine: psync (or sync, pvsync), libaio, io_uring, posixaio";

/// An I/O engine by fio's name for it.
pub(super) fn engine(name: &str) -> Option<Engine> {
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
        ("urandom", _) => Some(Data::Urandom { padded: false }),
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
