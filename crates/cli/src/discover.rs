//! `zpoolsim discover [POOL] [-o FILE]`: a system file for this machine and one of its pools,
//! read back through the system-file parser before it is printed or written.

use crate::error::{CliError, CliResult};
use crate::files::{catalog, print_json, write, WriteTo};
use serde::Serialize;

/// Write a system file (the format of examples/) for this machine and one of its pools:
/// disks from lsblk, /sys and smartctl, controllers and PCIe links from /sys and lspci, CPU and
/// RAM from /proc, the ZFS release, the pool's layout and its datasets. What no tool shows is
/// marked `# assumed:` in the file.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The pool (default: the only pool imported).
    pub pool: Option<String>,
    #[command(flatten)]
    pub write_to: WriteTo,
    /// Print JSON: the pool, the system file and where it was written.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Discovered<'a> {
    pool: &'a str,
    system_toml: &'a str,
    written_to: Option<&'a str>,
}

pub(crate) fn run(args: &Args) -> CliResult {
    let file = args.write_to.file()?;
    let pool = match &args.pool {
        Some(p) => p.clone(),
        None => only_pool()?,
    };
    let text = discover::discover(&pool, catalog())?;
    model::system_file::parse(&text, "the discovered system file", catalog())
        .map_err(|e| CliError(format!("{e} (a defect of discover: please report it)")))?;
    if let Some(file) = file {
        write(file, args.write_to.force, &text)?;
    }
    if args.json {
        return print_json(&Discovered {
            pool: &pool,
            system_toml: &text,
            written_to: file,
        });
    }
    if file.is_none() {
        print!("{text}");
    }
    Ok(())
}

fn only_pool() -> Result<String, CliError> {
    let pools = discover::pools()?;
    match pools.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(CliError("no pool is imported: nothing to discover".into())),
        many => Err(CliError(format!(
            "{} pools are imported ({}): name one",
            many.len(),
            many.join(", ")
        ))),
    }
}
