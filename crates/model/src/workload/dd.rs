//! A dd command line (GNU coreutils dd; docs/zfs-internals.md §8): `if=/dev/zero of=FILE`
//! writes zeros (`/dev/urandom` the kernel's random bytes), `if=FILE of=/dev/null` reads; `bs` (512 unless
//! given, with dd's binary K/M/G and decimal KB/MB/GB), `count` blocks; `conv=fdatasync` or
//! `conv=fsync` flush at the end inside the timing; `oflag=dsync|sync` makes each write
//! synchronous, `oflag=direct`/`iflag=direct` O_DIRECT; `conv=notrunc` into a file writes over
//! the file in place (dd's reason to keep it: it exists). A device path (`/dev/sdb`,
//! `/dev/rdsk/c1t1d0s0`) as the other end is the raw first disk, a zvol's (`/dev/zvol/...`,
//! `/dev/zdN`) a zvol of the pool; `seek`/`skip` place it.

use super::args::{size_in, unsupported, words};
use super::{Access, CacheState, Data, Durability, Engine, Target, Tool, Workload, WorkloadError};
use crate::input::clip;

/// dd's block size when none is given (coreutils: "bs=BYTES ... (default: 512)").
const DD_BS: u64 = 512;

/// Sources of data that are not files: their bytes and what they are.
fn generator(path: &str) -> Option<Data> {
    match path {
        "/dev/zero" => Some(Data::Zeros),
        "/dev/urandom" | "/dev/random" => Some(Data::Urandom { padded: false }),
        _ => None,
    }
}

/// Whether a path is a disk device rather than a file in the pool.
fn is_device(path: &str) -> bool {
    path.starts_with("/dev/") && path != "/dev/null" && generator(path).is_none()
}

/// What a dd copy reads or writes: a zvol where either end is a zvol's node, the raw first
/// disk where it is another device (its write cache on, as SATA drives ship: presets.rs),
/// else a file of the pool.
fn target(input: &str, output: &str, device: bool) -> Target {
    if super::is_zvol_path(input) || super::is_zvol_path(output) {
        Target::Zvol { volblocksize: None }
    } else if device {
        Target::RawDisk { write_cache: true }
    } else {
        Target::Pool
    }
}

/// The operands of one dd command line, as dd reads them (the last of a repeated operand wins).
struct Operands {
    input: String,
    output: String,
    bs: u64,
    count: Option<u64>,
    /// `seek=`/`skip=`, in blocks of `bs`.
    offset: u64,
    /// `conv=fdatasync|fsync`: one flush at the end, inside dd's timing.
    flush: bool,
    /// `oflag=dsync|sync`: every write synchronous.
    dsync: bool,
    /// `conv=notrunc`: the output is not truncated, so a file is written over in place.
    notrunc: bool,
    /// `conv=sync`: each short read is padded with zero bytes to `bs` (coreutils dd; POSIX
    /// dd: "null bytes shall be appended to the input data up to the specified size").
    pad: bool,
    direct: bool,
}

impl Operands {
    /// Reads the `key=value` operands after the program name; any other word is refused.
    fn parse(spec: &str) -> Result<Operands, WorkloadError> {
        let mut ops = Operands {
            input: String::new(),
            output: String::new(),
            bs: DD_BS,
            count: None,
            offset: 0,
            flush: false,
            dsync: false,
            notrunc: false,
            pad: false,
            direct: false,
        };
        for arg in words(spec)?.into_iter().skip(1) {
            let (key, value) = arg.split_once('=').ok_or_else(|| unsupported("dd", &arg))?;
            match key {
                "if" => ops.input = value.to_string(),
                "of" => ops.output = value.to_string(),
                "bs" | "obs" | "ibs" => ops.bs = size_in(value, 1, "dd bs")?,
                "count" => ops.count = Some(size_in(value, 1, "dd count")?),
                "seek" | "skip" => ops.offset = size_in(value, 1, "dd seek")?,
                "status" => {}
                "conv" => ops.conv(value)?,
                "oflag" | "iflag" => ops.flags(key, value)?,
                _ => return Err(unsupported("dd", &arg)),
            }
        }
        Ok(ops)
    }

    /// `conv=`: the flushes change the timing, `notrunc` what a write finds in the file,
    /// `sync` what a short read of a device becomes; the rest change nothing the model sees.
    fn conv(&mut self, value: &str) -> Result<(), WorkloadError> {
        for c in value.split(',') {
            match c {
                "fdatasync" | "fsync" => self.flush = true,
                "notrunc" => self.notrunc = true,
                "sync" => self.pad = true,
                "sparse" | "noerror" => {}
                _ => return Err(unsupported("dd", &format!("conv={c}"))),
            }
        }
        Ok(())
    }

    /// `oflag=`/`iflag=`: O_DIRECT on either end; O_DSYNC only where dd writes (`oflag`).
    fn flags(&mut self, key: &str, value: &str) -> Result<(), WorkloadError> {
        for f in value.split(',') {
            match f {
                "direct" => self.direct = true,
                "dsync" | "sync" if key == "oflag" => self.dsync = true,
                "nocache" | "noatime" | "fullblock" => {}
                _ => return Err(unsupported("dd", &format!("{key}={f}"))),
            }
        }
        Ok(())
    }

    /// Which way the copy runs: a generator into a file or device writes; a file or device
    /// into /dev/null reads. Gives the access, whether the other end is a device, and the
    /// bytes written (a read's are whatever the file holds).
    fn direction(&self) -> Result<(Access, bool, Data), WorkloadError> {
        let (input, output) = (&self.input, self.output.as_str());
        match (generator(input), output) {
            (Some(data), out) if !out.is_empty() && out != "/dev/null" => {
                let device = is_device(out);
                let data = match data {
                    Data::Urandom { .. } => Data::Urandom { padded: self.pad },
                    other => other,
                };
                // A device is never truncated; a file kept is written over.
                let over = self.notrunc && (!device || super::is_zvol_path(out));
                let access = if over { Access::Overwrite } else { Access::SeqWrite };
                Ok((access, device, data))
            }
            (None, "/dev/null") if !input.is_empty() => {
                Ok((Access::SeqRead, is_device(input), Data::Random))
            }
            _ => Err(WorkloadError(format!(
                "dd if={} of={}: modelled are writes from /dev/zero or /dev/urandom to a file or disk, and reads of a file or disk to /dev/null",
                clip(input, 30),
                clip(output, 30)
            ))),
        }
    }

    /// When the writes reach stable storage: O_DSYNC makes each one durable, which leaves
    /// nothing for the closing flush to wait on.
    fn durability(&self) -> Durability {
        match (self.dsync, self.flush) {
            (true, _) => Durability::EachWrite,
            (false, true) => Durability::AtEnd,
            (false, false) => Durability::None,
        }
    }
}

/// The one phase a dd copy runs.
pub(super) fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let ops = Operands::parse(spec)?;
    let (access, device, data) = ops.direction()?;
    // A generator never ends: without count= dd writes until the target is full.
    if access.writes() && ops.count.is_none() {
        return Err(WorkloadError(
            "dd from a device without end: give count=".into(),
        ));
    }
    let target = target(&ops.input, &ops.output, device);
    let w = Workload {
        kind: format!(
            "dd {}",
            match access {
                Access::Overwrite => "overwrite",
                Access::SeqWrite => "write",
                _ => "read",
            }
        ),
        tool: Tool::Dd,
        access,
        target,
        block_size: ops.bs,
        threads: 1,
        queue_depth: 1,
        engine: Engine::Sync,
        data_bytes: ops.count.and_then(|c| c.checked_mul(ops.bs)),
        shared_file: false,
        durability: ops.durability(),
        direct: ops.direct,
        data,
        // A device node's page cache holds nothing of it unless the run says so
        // (`cache=warm`): nothing read it before.
        cache: if matches!(target, Target::RawDisk { .. }) {
            CacheState::Cold
        } else {
            CacheState::Warm
        },
        offset_bytes: ops.offset.saturating_mul(ops.bs),
        network: false,
        pool_fill: 0.0,
    };
    w.check()?;
    Ok(vec![w])
}
