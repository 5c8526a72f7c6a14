//! A bonnie++ command line as bonnie++ 2.00a runs it (bonnie++.cpp TestFileOps, bon_io.cpp;
//! the Debian source package; docs/zfs-internals.md §8 says what each phase does):
//! - `-s SIZE[:CHUNK[:SEEKS[:SEEKERS]]]`: the file in MiB (or with a g suffix), chunks of
//!   8 KiB, 8192 seeks by 5 seeker processes unless given; without `-s`, twice `-r` MiB.
//! - per-character phases (`putc`, `getc`) over the first 3 MiB unless `-f` (or `-fN`: N MiB),
//!   one byte per write(2) or read(2) call (bon_io.cpp `write_block_byte`, `read_block_byte`;
//!   since bonnie++ 1.92, whose changelog reads "Made the per-byte code use read() and write()
//!   instead of putc() and getc()"): no stdio buffer, each byte a system call into ZFS;
//! - `write`: the file written chunk by chunk from a zeroed buffer with one byte bumped per
//!   chunk, then fsync and close inside the timing; `-D` opens it O_DIRECT;
//! - `rewrite`: each chunk read, one byte bumped, lseek back, written; fsync and close timed;
//! - `read`: each chunk read; `seeks`: the seekers read random chunks of the one file, every
//!   tenth written back, with an fsync after each such write under `-b`.
//!
//! `-c N` is recorded in the output only: 2.00a's source runs one copy of each test whatever N.
//! The small-file tests (`-n`) are not modelled: they produce no phase here.

use super::args::{count, size_in, unsupported, words};
use super::presets::{BONNIE_CHUNK, BONNIE_SEEK_WRITE_PCT};
use super::{Access, CacheState, Data, Durability, Engine, Target, Tool, Workload, WorkloadError};
use crate::units::MIB;

/// bonnie++'s DefaultSeekProcCount (bonnie.h).
const SEEKERS: u32 = 5;
/// bonnie++'s DefaultByteIO: MiB written and read a character at a time unless -f.
const BYTE_IO_MIB: u64 = 3;

/// What the options say.
struct Options {
    file_bytes: Option<u64>,
    ram_mib: Option<u64>,
    chunk: u64,
    seekers: u32,
    byte_io: u64,
    sync_seeks: bool,
    direct: bool,
}

/// The timed phases of a bonnie++ run.
pub(super) fn phases(spec: &str) -> Result<Vec<Workload>, WorkloadError> {
    let o = options(&words(spec)?[1..])?;
    let file = o.file()?;
    let phase = |name: &str, access, block_size, data_bytes| Workload {
        kind: format!("bonnie++ {name}"),
        tool: Tool::Bonnie,
        access,
        target: Target::Pool,
        block_size,
        threads: 1,
        queue_depth: 1,
        engine: Engine::Sync,
        data_bytes: Some(data_bytes),
        shared_file: true,
        durability: Durability::AtEnd,
        direct: false,
        data: Data::Pattern,
        cache: CacheState::Warm,
        offset_bytes: 0,
        network: false,
        pool_fill: 0.0,
    };
    let mut out = Vec::new();
    let byte_io = o.byte_io.min(file);
    if byte_io > 0 {
        out.push(phase("putc", Access::SeqWrite, 1, byte_io));
    }
    out.push(Workload {
        direct: o.direct,
        ..phase("write", Access::SeqWrite, o.chunk, file)
    });
    out.push(phase("rewrite", Access::Rewrite, o.chunk, file));
    if byte_io > 0 {
        out.push(phase("getc", Access::SeqRead, 1, byte_io));
    }
    out.push(phase("read", Access::SeqRead, o.chunk, file));
    out.push(Workload {
        threads: o.seekers,
        durability: if o.sync_seeks {
            Durability::Every(1)
        } else {
            Durability::None
        },
        ..phase(
            "seeks",
            Access::Seeks {
                write_pct: BONNIE_SEEK_WRITE_PCT,
            },
            o.chunk,
            file,
        )
    });
    Ok(out)
}

impl Options {
    /// The test file's size: `-s`, else twice `-r` and at least 300 MiB, else refused: the
    /// machine's RAM is not the model's to guess.
    fn file(&self) -> Result<u64, WorkloadError> {
        match (self.file_bytes, self.ram_mib) {
            (Some(bytes), _) => Ok(bytes),
            (None, Some(ram)) => Ok((2 * ram).max(300) * MIB),
            (None, None) => Err(WorkloadError(
                "bonnie++ without -s sizes its file at twice the machine's RAM: give -s SIZE (or -r MiB)"
                    .into(),
            )),
        }
    }
}

/// The options bonnie++'s getopt string `bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D` takes; those
/// that do not change the I/O tests are accepted and passed over.
fn options(args: &[String]) -> Result<Options, WorkloadError> {
    let mut o = Options {
        file_bytes: None,
        ram_mib: None,
        chunk: BONNIE_CHUNK,
        seekers: SEEKERS,
        byte_io: BYTE_IO_MIB * MIB,
        sync_seeks: false,
        direct: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) else {
            return Err(unsupported("bonnie++", arg));
        };
        // The flag is the first character, whatever its width in bytes.
        let (flag, attached) = flags.split_at(flags.chars().next().map_or(0, char::len_utf8));
        let mut value = || -> Result<String, WorkloadError> {
            if !attached.is_empty() {
                return Ok(attached.to_string());
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| WorkloadError(format!("bonnie++: -{flag} needs a value")))
        };
        match flag {
            "b" | "q" | "D" if !attached.is_empty() => return Err(unsupported("bonnie++", arg)),
            "b" => o.sync_seeks = true,
            "D" => o.direct = true,
            "q" => {}
            "f" => {
                o.byte_io = if attached.is_empty() {
                    0
                } else {
                    size_in(attached, MIB, "bonnie++ -f")?
                }
            }
            "s" => sizes(&value()?, &mut o)?,
            "r" => {
                let ram = value()?;
                o.ram_mib = Some(ram.parse().map_err(|_| {
                    WorkloadError(format!("bonnie++ -r '{ram}': expected MiB of RAM"))
                })?)
            }
            "c" | "d" | "g" | "l" | "m" | "n" | "p" | "u" | "x" | "y" | "z" | "Z" => {
                value()?;
            }
            _ => return Err(unsupported("bonnie++", arg)),
        }
        i += 1;
    }
    Ok(o)
}

/// `-s SIZE[:CHUNK[:SEEKS[:SEEKERS]]]`.
fn sizes(text: &str, o: &mut Options) -> Result<(), WorkloadError> {
    let mut parts = text.split(':');
    o.file_bytes = Some(size_in(parts.next().unwrap_or(""), MIB, "bonnie++ -s")?);
    if let Some(chunk) = parts.next() {
        o.chunk = size_in(chunk, 1, "bonnie++ chunk size")?;
        if !(256..=MIB).contains(&o.chunk) || !o.chunk.is_power_of_two() {
            return Err(WorkloadError(format!(
                "bonnie++ chunk size {chunk}: a power of two from 256 bytes to 1 MiB"
            )));
        }
    }
    if let Some(seeks) = parts.next() {
        size_in(seeks, 1, "bonnie++ seeks")?;
    }
    if let Some(seekers) = parts.next() {
        o.seekers = count(seekers, "bonnie++ seekers")?;
    }
    Ok(())
}
