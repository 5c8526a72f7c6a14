//! `zpoolsim calibrate --raw /dev/X`: a disk's zone curve and random-read latency from fio
//! reads, as a catalog entry for `--catalog`.

use crate::error::CliResult;
use crate::files::{refuse_overwrite, write};

/// Measure a disk with fio reads only (never a write): its sequential rate at equal steps
/// across the surface and the mean time of one 4 KiB random read, written as a catalog entry
/// to pass with --catalog. A device that is mounted or part of a pool is refused.
#[derive(clap::Args)]
pub struct Args {
    /// The block device to read (/dev/sdX).
    #[arg(long, value_name = "/dev/X")]
    pub raw: String,
    /// Points across the disk (2 to 64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=64))]
    pub zones: u32,
    /// Seconds of reading at each point and of random reads (1 to 600).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub runtime: u32,
    /// Write the catalog entry here instead of printing it.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    /// Overwrite FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print JSON: the zones, the random-read time and the entry.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> CliResult {
    if let Some(file) = &args.output {
        refuse_overwrite(file, args.force)?;
    }
    let c = measure::calibrate::run(&args.raw, args.zones, args.runtime)?;
    if let Some(file) = &args.output {
        write(file, &c.entry)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&c)?);
        return Ok(());
    }
    eprintln!(
        "{}: mean 4 KiB random read {:.2} ms",
        c.device, c.random_read_ms
    );
    for (offset, mb_s) in &c.zones {
        eprintln!("  at {:>16} bytes: {mb_s:8.1} MB/s", offset);
    }
    if args.output.is_none() {
        print!("{}", c.entry);
    }
    Ok(())
}
