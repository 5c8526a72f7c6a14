//! `zpoolsim calibrate --raw /dev/X`: a disk's zone curve and random-read latency from fio
//! reads, as a catalog entry for `--catalog`.

use crate::error::CliResult;
use crate::files::{print_json, write, WriteTo};

/// Measure a disk with fio reads only (never a write): its sequential rate at equal steps
/// across the surface and the mean time of one 4 KiB random read, written as a catalog entry
/// to pass with --catalog. A device that is mounted or part of a pool is refused.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The block device to read (/dev/sdX).
    #[arg(long, value_name = "/dev/X")]
    pub raw: String,
    /// Points across the disk (2 to 64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=64))]
    pub zones: u32,
    /// Seconds of reading at each point and of random reads (1 to 600).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub runtime: u32,
    #[command(flatten)]
    pub write_to: WriteTo,
    /// Print JSON: the zones, the random-read time and the entry.
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let file = args.write_to.file()?;
    let c = discover::calibrate(&args.raw, args.zones, args.runtime)?;
    if let Some(file) = file {
        write(file, args.write_to.force, &c.entry)?;
    }
    if args.json {
        return print_json(&c);
    }
    eprintln!(
        "{}: mean 4 KiB random read {:.2} ms",
        c.device, c.random_read_ms
    );
    for z in &c.zones {
        eprintln!("  at {:>16} bytes: {:8.1} MB/s", z.offset_bytes, z.mb_s);
    }
    if file.is_none() {
        print!("{}", c.entry);
    }
    Ok(())
}
