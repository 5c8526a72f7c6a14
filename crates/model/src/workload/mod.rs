//! Workloads: what an application does to a file (or a raw disk), written as the benchmark a
//! person ran. Two forms:
//! - a preset with parameters, `NAME[:key=value,...]` (`fio-randread:bs=4K,qd=32`), on the
//!   command line or in a TOML file as `kind = "NAME"` and the same keys;
//! - the command line itself (`bonnie++ -s 16384 -r 1024 -f -b`, `fio --rw=randread --bs=4k`,
//!   `iozone -i 0 -i 1 -t 4 -s 1g -r 128k`, `dd if=/dev/zero of=f bs=1M count=10000`), read with
//!   the tool's own defaults (`bonnie`, `fio`, `iozone`, `dd`); a command that runs several timed
//!   phases (bonnie++'s block write, rewrite, block read and seeks) gives one workload per phase.
//!
//! A command line may be led by how it was run (`prefix`): `N x 'CMD'` or `copies=N CMD` runs
//! N copies of it at once, each on its own file (tn-bench's parallel dd's), and `cache=cold`
//! or `cache=warm` says whether its data was in the ARC when the timing started.

mod args;
mod bonnie;
mod dd;
mod fio;
mod iozone;
mod params;
mod prefix;
mod presets;

pub use presets::{Preset, BONNIE_CHUNK, BONNIE_SEEKERS, BONNIE_SEEK_WRITE_PCT, PRESETS};

use std::fmt;

/// What the application does with its file (or raw device).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Access {
    /// Writes a file front to back (`dd if=/dev/zero of=file`, a block write).
    SeqWrite,
    /// Reads a file front to back (`dd if=file of=/dev/null`, a block read).
    SeqRead,
    /// Reads each block and writes it back in place before the next (Bonnie's rewrite).
    Rewrite,
    /// Writes over an existing file in place, front to back, by writes alone (`dd
    /// conv=notrunc` into a file): a write of part of a record first reads the record.
    Overwrite,
    /// Random reads, writes, or a mix with `read_pct` percent reads (fio randread/randwrite/randrw).
    Random {
        /// Percent of requests that are reads, 0 to 100.
        read_pct: u32,
    },
    /// A sequential mix (fio rw=rw): a read stream and a write stream through the same file,
    /// each from its own offset (fio keeps one position per direction, `last_pos[ddir]`),
    /// each request drawn a read with `read_pct` percent odds.
    SeqMix {
        /// Percent of requests that are reads, 0 to 100.
        read_pct: u32,
    },
    /// Bonnie's random seeks: a random read of one block; `write_pct` percent of them are
    /// dirtied and written back.
    Seeks {
        /// Percent of seeks whose block is written back, 0 to 100.
        write_pct: u32,
    },
}

impl Access {
    /// Whether successive requests follow each other on disk.
    pub fn is_sequential(&self) -> bool {
        matches!(
            self,
            Access::SeqWrite
                | Access::SeqRead
                | Access::Rewrite
                | Access::Overwrite
                | Access::SeqMix { .. }
        )
    }

    /// Whether a sequential read stream runs (a plain read or a mix's read side): the
    /// stream zfetch follows.
    pub fn reads_stream(&self) -> bool {
        match self {
            Access::SeqRead => true,
            Access::SeqMix { read_pct } => *read_pct > 0,
            _ => false,
        }
    }

    /// Whether the application writes at all.
    pub fn writes(&self) -> bool {
        match self {
            Access::SeqWrite | Access::Rewrite | Access::Overwrite => true,
            Access::SeqRead => false,
            Access::Random { read_pct } | Access::SeqMix { read_pct } => *read_pct < 100,
            Access::Seeks { write_pct } => *write_pct > 0,
        }
    }
}

/// Where the requests go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// A file in the pool's first dataset.
    Pool,
    /// The first disk of the system, bypassing ZFS (`dd of=/dev/rdsk/...`), with its write
    /// cache on or off.
    RawDisk {
        /// Whether the disk's volatile write cache is on.
        write_cache: bool,
    },
    /// A zvol of the pool (`/dev/zvol/POOL/NAME`, `/dev/zdN`): its blocks of `volblocksize`
    /// bytes (unstated: the release's default, 16 KiB from OpenZFS 2.2, 8 KiB before), the
    /// DMU without the ZPL's files (zvol_os.c: zvol_read/zvol_write).
    Zvol {
        /// The zvol's block size in bytes; `None`: the release's default.
        volblocksize: Option<u64>,
    },
}

/// Whether `path` is a zvol's device node: `/dev/zvol/...` (Linux udev's and FreeBSD's) or
/// Linux's `/dev/zdN`.
pub fn is_zvol_path(path: &str) -> bool {
    path.starts_with("/dev/zvol/")
        || path
            .strip_prefix("/dev/zd")
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// How the application issues requests: what lets its queue depth reach ZFS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// read(2)/write(2) or pread/pwrite: one request per thread at a time (fio's default
    /// psync, dd, iozone, Bonnie).
    Sync,
    /// Linux native AIO (fio libaio): asynchronous only for O_DIRECT files; on a buffered file
    /// io_submit does the I/O before it returns.
    Libaio,
    /// io_uring: buffered requests that would block go to kernel workers, so the depth reaches
    /// the file system.
    IoUring,
    /// POSIX AIO (fio posixaio): glibc serves one file descriptor's requests one at a time.
    PosixAio,
}

/// How writes are made durable, and whether the timing waits for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Nothing asks: the timing ends when the last write returns (fio's default, iozone without
    /// -e, dd without conv=).
    None,
    /// One fsync at the end, inside the timing (dd conv=fdatasync, iozone -e, fio end_fsync,
    /// bonnie++ closing each file).
    AtEnd,
    /// An fsync after every `n` writes (fio fsync=n; bonnie++ -b after each seek's update).
    Every(u32),
    /// Every write synchronous: O_SYNC/O_DSYNC (fio sync=1, dd oflag=dsync, iozone -o).
    EachWrite,
}

/// What the written bytes are: it decides what compression leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// Incompressible (fio's default random buffers).
    Random,
    /// Read from the kernel's random device (`dd if=/dev/urandom`): incompressible whatever
    /// the dataset's own data, and made by the kernel's generator on the writing thread, one
    /// read before each write. A read larger than the device gives at once comes back short;
    /// `padded` when the tool fills the rest of its block with zeros (dd `conv=sync`), else
    /// the read is taken as whole.
    Urandom {
        /// dd's `conv=sync`: a short read is padded with zero bytes to the block size.
        padded: bool,
    },
    /// All zeros (`dd if=/dev/zero`): a compressing dataset stores such blocks as holes.
    Zeros,
    /// A repeated pattern (Bonnie's and iozone's buffers): compresses to almost nothing.
    Pattern,
    /// Compressible to `percent` less than its size (fio buffer_compress_percentage).
    Compressible {
        /// Percent by which compression shrinks each buffer.
        percent: u8,
    },
    /// Random data filling `fill_pct` percent of each record, zeros the rest: small writes
    /// into a file nobody laid out (fio does not lay out a file a job only writes), so each
    /// record the txg writes holds the blocks written so far and holes.
    Sparse {
        /// Percent of each record written before the txg syncs it.
        fill_pct: u8,
    },
}

/// What the ARC holds of the data set when the timed phase starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheState {
    /// The run itself just wrote or read it (a benchmark's earlier phase, fio's layout): the
    /// ARC holds what fits.
    Warm,
    /// Not cached (a fresh import, or a data set read once long ago).
    Cold,
}

/// The program whose command line a workload was read from: what it does beside the timed
/// requests (dd writes each block it reads to its output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// A preset (`fio-randread:bs=4K`): only the requests themselves.
    Preset,
    /// `fio`.
    Fio,
    /// `dd`: one read and one write call per block.
    Dd,
    /// `bonnie++`.
    Bonnie,
    /// `iozone`.
    Iozone,
}

/// One workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// What it is called in reports: the preset as written, or the tool and phase.
    pub kind: String,
    /// The program that runs it.
    pub tool: Tool,
    /// The pattern of requests.
    pub access: Access,
    /// A file, a zvol or a raw disk.
    pub target: Target,
    /// Bytes per application request (`dd bs`, fio `bs`, Bonnie's chunk).
    pub block_size: u64,
    /// Concurrent threads or processes (iozone `-t`, fio `numjobs`, Bonnie's seekers).
    pub threads: u32,
    /// Requests each thread keeps in flight (fio `iodepth`); 1 for synchronous calls.
    pub queue_depth: u32,
    /// How requests are issued: what lets the queue depth reach ZFS.
    pub engine: Engine,
    /// Bytes of the data set: each thread's file, or the one file they share; `None`: far
    /// larger than memory (a `dd` over a 100 GB file).
    pub data_bytes: Option<u64>,
    /// Whether the threads share one file (Bonnie's seekers) rather than one file each.
    pub shared_file: bool,
    /// How writes are made durable, and whether the timing waits.
    pub durability: Durability,
    /// O_DIRECT (fio direct=1, dd oflag=direct, iozone -I).
    pub direct: bool,
    /// What the written bytes are: what compression leaves of them.
    pub data: Data,
    /// What the ARC holds when the timing starts.
    pub cache: CacheState,
    /// For a raw device: where on the disk the requests start.
    pub offset_bytes: u64,
    /// The application runs on clients across the network: the data crosses the host's NICs.
    pub network: bool,
    /// Share of the pool's space allocated before the run (`zpool list` CAP, `fill=`): that
    /// data holds the outer tracks of every hard disk, and what the run writes or lays out
    /// lands past it (metaslab.c activates the emptiest metaslabs first, ties to the lowest
    /// offset). 0 is an empty pool.
    pub pool_fill: f64,
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

/// The tools whose command lines are read as they were run.
const TOOLS: [&str; 4] = ["bonnie++", "fio", "iozone", "dd"];

/// Longest workload text read: a command line, not a file.
pub const MAX_SPEC_BYTES: usize = 4096;

impl Workload {
    /// Reads one workload: a preset with parameters, or a command line of one phase, or of
    /// several with `@PHASE` at the end choosing one (`bonnie++ -s 16384 -f @seeks`).
    pub fn parse(spec: &str) -> Result<Workload, WorkloadError> {
        one_phase(parse_phases(spec)?)
    }

    /// Reads a workload file: `kind = "fio-randread"` and the same keys as `parse`, or
    /// `command = "bonnie++ ..."` (with `phase = "seeks"` where it runs several).
    pub fn from_toml(text: &str) -> Result<Workload, WorkloadError> {
        one_phase(phases_from_toml(text)?)
    }

    /// Requests in flight from the application as written: threads times queue depth.
    pub fn outstanding(&self) -> u32 {
        self.threads.saturating_mul(self.queue_depth)
    }

    /// Bytes the whole workload touches: each thread's file, or the shared one.
    pub fn total_bytes(&self) -> Option<u64> {
        let files = if self.shared_file { 1 } else { self.threads };
        self.data_bytes.map(|b| b.saturating_mul(u64::from(files)))
    }
}

/// Every workload a spec names: one for a preset or for a command line with `@PHASE`, one
/// per timed phase for a command line without.
pub fn parse_phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let Some((command, name)) = spec.rsplit_once('@').filter(|(c, _)| is_command(c)) else {
        return parse_all(spec);
    };
    let name = name.trim();
    let mut phases = parse_all(command)?;
    let names: Vec<String> = phases.iter().map(|w| phase_name(&w.kind)).collect();
    let at = names.iter().position(|n| n == name).ok_or_else(|| {
        WorkloadError(format!(
            "no phase '{}' in this run; it has: {}",
            crate::input::clip(name, 40),
            names.join(", ")
        ))
    })?;
    Ok(vec![phases.swap_remove(at)])
}

/// The workloads of a workload file (see `Workload::from_toml`): every phase of a command
/// without `phase`.
pub fn phases_from_toml(text: &str) -> Result<Vec<Workload>, WorkloadError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| WorkloadError(e.message().to_string()))?;
    if let Some(command) = table.get("command").and_then(|c| c.as_str()) {
        return match table.get("phase").and_then(|p| p.as_str()) {
            Some(p) => parse_phases(&format!("{command} @{p}")),
            None => parse_phases(command),
        };
    }
    let kind = table.get("kind").and_then(|k| k.as_str()).ok_or_else(|| {
        WorkloadError("a workload file needs kind = \"NAME\" or command = \"bonnie++ ...\"".into())
    })?;
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
    Ok(vec![Workload::preset(kind)?.apply(pairs)?])
}

/// The one workload of `phases`, or what to add to choose one.
pub fn one_phase(mut phases: Vec<Workload>) -> Result<Workload, WorkloadError> {
    if phases.len() == 1 {
        return Ok(phases.remove(0));
    }
    Err(WorkloadError(format!(
        "this run has {} timed phases ({}): add @PHASE to choose one",
        phases.len(),
        phases
            .iter()
            .map(|w| phase_name(&w.kind))
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// Every workload a spec names: one for a preset, one per timed phase for a command line.
pub fn parse_all(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    if spec.len() > MAX_SPEC_BYTES {
        return Err(WorkloadError(format!(
            "a workload of {} bytes: at most {MAX_SPEC_BYTES}",
            spec.len()
        )));
    }
    let spec = spec.trim();
    if let Some(lead) = prefix::Lead::of(spec)? {
        if prefix::Lead::of(&lead.command)?.is_some() {
            return Err(WorkloadError(
                "one lead (N x '...', copies=, cache=) per command, not a lead inside another"
                    .into(),
            ));
        }
        return lead.apply(parse_all(&lead.command)?);
    }
    match args::tool(spec) {
        Some("bonnie++") => bonnie::phases(spec),
        Some("fio") => fio::phases(spec),
        Some("iozone") => iozone::phases(spec),
        Some("dd") => dd::phases(spec),
        _ => Workload::parse_preset(spec).map(|w| vec![w]),
    }
}

/// Whether `spec` is a command line of one of the tools read, led or not by how it was run.
fn is_command(spec: &str) -> bool {
    let spec = match prefix::Lead::of(spec.trim()) {
        Ok(Some(lead)) => lead.command,
        _ => spec.trim().to_string(),
    };
    args::tool(&spec).is_some_and(|t| TOOLS.contains(&t))
}

/// The phase part of a command workload's kind (`bonnie++ seeks` -> `seeks`).
fn phase_name(kind: &str) -> String {
    kind.rsplit(' ').next().unwrap_or(kind).to_string()
}

#[cfg(test)]
mod tests;
