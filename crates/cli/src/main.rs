//! `zpoolsim`: how much space, how fast and how safe a ZFS pool will be on its hardware.
//! Each subcommand lives in its own module; this file only dispatches and turns errors into
//! one line on stderr and exit code 2.

mod args;
mod bench;
mod calibrate;
mod capacity;
mod catalog;
mod compare;
mod discover;
mod error;
mod files;
mod fleet;
mod plan;
mod predict;
mod progress;
mod raidz_expansion;
mod reliability;
mod render;
mod report;
mod results;
mod serve;
mod svg;
mod validate;

use clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use model::input::escape_controls;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// ZFS pool space, speed and safety, from a description of the hardware and the pool.
///
/// Layouts are written as zpool create builds them: stripe-N, mirror-N, raidz1-N, raidz2-N,
/// raidz3-N, draid<p>:<d>d:<c>c:<s>s; a count prefix 'Kx' repeats a group ('3x raidz1-5') and
/// '+' joins groups ('2x raidz2-6 + mirror-2').
#[derive(Parser)]
#[command(name = "zpoolsim", version, propagate_version = true)]
struct Cli {
    /// A catalog file of your own (disks, controllers, CPUs, links in the catalog's format), merged
    /// over the embedded catalog for system files and --disk ids; may be repeated.
    #[arg(long = "catalog", global = true, value_name = "USER.toml")]
    catalogs: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Bench(bench::Args),
    Calibrate(calibrate::Args),
    Capacity(capacity::Args),
    Catalog(catalog::Args),
    Compare(compare::Args),
    Discover(discover::Args),
    Fleet(fleet::Args),
    Plan(plan::Args),
    Predict(predict::Args),
    Reliability(reliability::Args),
    Report(report::Args),
    Results(results::Args),
    Serve(serve::Args),
    Validate(validate::Args),
}

/// A report piped into `head` ends quietly, as Unix tools do, rather than with a panic on the
/// closed pipe: the default action of SIGPIPE is restored (Rust's runtime ignores it).
fn end_quietly_on_closed_pipe() {
    // SAFETY: setting a signal's disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Output that cannot be written (a full disk, a closed descriptor) makes `println!` panic: that
/// becomes the same one line and exit code 2 as any other failure. A panic from a defect of ours
/// is one line too, with exit code 101 and no backtrace to wade through.
fn panics_as_one_line() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            eprintln!("zpoolsim: cannot write the output: {why}");
            std::process::exit(2);
        }
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("zpoolsim: internal error{place}: {message} (a defect: please report it)");
        std::process::exit(101);
    }));
}

/// Whether standard output was closed when the process started (`>&-`). Rust's runtime then
/// reopens descriptor 1 on /dev/null before `main`, and every line would be dropped silently;
/// so it is looked at earlier, by an ELF initializer, which the C library runs before the
/// runtime starts.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

extern "C" fn look_at_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags; -1 means it is not open.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// The command line, every subcommand taking negative numbers as values (`--trials -1` is
/// then refused as a bad number rather than as an unknown option).
fn parse_arguments() -> Result<Cli, clap::Error> {
    let mut command = Cli::command();
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, |s| s.allow_negative_numbers(true));
    }
    Cli::from_arg_matches_mut(&mut command.try_get_matches()?)
}

fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    panics_as_one_line();
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        eprintln!("zpoolsim: cannot write the output: standard output is closed");
        return ExitCode::from(2);
    }
    let cli = match parse_arguments() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() || e.kind() == DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        Err(e) => {
            eprintln!("{}", error::clap_message(&e));
            return ExitCode::from(2);
        }
    };
    if let Err(e) = files::use_catalog_files(&cli.catalogs) {
        eprintln!("zpoolsim: {}", escape_controls(&e.to_string()));
        return ExitCode::from(2);
    }
    let result = match &cli.command {
        Command::Bench(args) => bench::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Capacity(args) => capacity::run(args),
        Command::Catalog(args) => catalog::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Discover(args) => discover::run(args),
        Command::Fleet(args) => fleet::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Reliability(args) => reliability::run(args),
        Command::Report(args) => report::run(args),
        Command::Results(args) => results::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Validate(args) => validate::run(args),
    };
    let result = result.and_then(|()| {
        use std::io::Write;
        std::io::stdout()
            .flush()
            .map_err(|e| error::CliError(format!("cannot write the output: {e}")))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zpoolsim: {}", escape_controls(&e.to_string()));
            ExitCode::from(2)
        }
    }
}
