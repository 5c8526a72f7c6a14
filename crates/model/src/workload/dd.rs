//! A dd command line (GNU coreutils dd; docs/zfs-internals.md §8): `if=/dev/zero of=FILE`
//! writes zeros (`/dev/urandom` the kernel's random bytes), `if=FILE of=/dev/null` reads; `bs` (512 unless
//! given, with dd's binary K/M/G and decimal KB/MB/GB), `count` blocks; `conv=fdatasync` or
//! `conv=fsync` flush at the end inside the timing; `oflag=dsync|sync` makes each write
//! synchronous, `oflag=direct`/`iflag=direct` O_DIRECT. A device path (`/dev/sdb`,
//! `/dev/rdsk/c1t1d0s0`) as the other end is the raw first disk, a zvol's (`/dev/zvol/...`,
//! `/dev/zdN`) a zvol of the pool; `seek`/`skip` place it.

use super::args::{size_in, unsupported, words};
use super::{Access, CacheState, Data, Durability, Engine, Target, Workload, WorkloadError};
use crate::input::clip;

/// dd's block size when none is given (coreutils: "bs=BYTES ... (default: 512)").
const DD_BS: u64 = 512;

/// Sources of data that are not files: their bytes and what they are.
fn generator(path: &str) -> Option<Data> {
    match path {
        "/dev/zero" => Some(Data::Zeros),
        "/dev/urandom" | "/dev/random" => Some(Data::Urandom),
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

/// The one phase a dd copy runs.
pub fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let (mut input, mut output) = (None::<String>, None::<String>);
    let (mut bs, mut count, mut offset) = (DD_BS, None::<u64>, 0u64);
    let (mut flush, mut dsync, mut direct) = (false, false, false);
    for arg in words(spec)?.into_iter().skip(1) {
        let (key, value) = arg.split_once('=').ok_or_else(|| unsupported("dd", &arg))?;
        match key {
            "if" => input = Some(value.to_string()),
            "of" => output = Some(value.to_string()),
            "bs" | "obs" | "ibs" => bs = size_in(value, 1, "dd bs")?,
            "count" => count = Some(size_in(value, 1, "dd count")?),
            "seek" | "skip" => offset = size_in(value, 1, "dd seek")?,
            "status" => {}
            "conv" => {
                for c in value.split(',') {
                    match c {
                        "fdatasync" | "fsync" => flush = true,
                        "notrunc" | "sparse" | "noerror" | "sync" => {}
                        _ => return Err(unsupported("dd", &format!("conv={c}"))),
                    }
                }
            }
            "oflag" | "iflag" => {
                for f in value.split(',') {
                    match f {
                        "direct" => direct = true,
                        "dsync" | "sync" if key == "oflag" => dsync = true,
                        "nocache" | "noatime" | "fullblock" => {}
                        _ => return Err(unsupported("dd", &format!("{key}={f}"))),
                    }
                }
            }
            _ => return Err(unsupported("dd", &arg)),
        }
    }
    let (input, output) = (input.unwrap_or_default(), output.unwrap_or_default());
    let (access, device, data) = match (generator(&input), output.as_str()) {
        (Some(data), out) if !out.is_empty() && out != "/dev/null" => {
            (Access::SeqWrite, is_device(out), data)
        }
        (None, "/dev/null") if !input.is_empty() => (Access::SeqRead, is_device(&input), Data::Random),
        _ => {
            return Err(WorkloadError(format!(
                "dd if={} of={}: modelled are writes from /dev/zero or /dev/urandom to a file or disk, and reads of a file or disk to /dev/null",
                clip(&input, 30),
                clip(&output, 30)
            )))
        }
    };
    if access == Access::SeqWrite && count.is_none() {
        return Err(WorkloadError(
            "dd from a device without end: give count=".into(),
        ));
    }
    let w = Workload {
        kind: format!(
            "dd {}",
            if access == Access::SeqWrite {
                "write"
            } else {
                "read"
            }
        ),
        access,
        target: target(&input, &output, device),
        block_size: bs,
        threads: 1,
        queue_depth: 1,
        engine: Engine::Sync,
        data_bytes: count.and_then(|c| c.checked_mul(bs)),
        shared_file: false,
        durability: match (dsync, flush) {
            (true, _) => Durability::EachWrite,
            (false, true) => Durability::AtEnd,
            (false, false) => Durability::None,
        },
        direct,
        data,
        cache: CacheState::Warm,
        offset_bytes: offset.saturating_mul(bs),
        network: false,
    };
    w.check()?;
    Ok(vec![w])
}
