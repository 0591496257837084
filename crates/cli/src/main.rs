//! `xla-indexing`: symbolic indexing analysis for tensor programs.

mod commands;
mod diag;
mod gpu_report;
mod libdevice;
mod output;
mod progress;
mod render;

use std::process::ExitCode;

use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};

use diag::{DiagFormat, Exit, Failure};

#[derive(Parser)]
#[command(
    name = "xla-indexing",
    version,
    about = "Symbolic indexing analysis for tensor programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Simplify(commands::simplify::Args),
    Ranges(commands::ranges::Args),
    Bounds(commands::bounds::Args),
    Indexing(commands::indexing::Args),
    Launch(commands::launch::Args),
    Coalescing(commands::coalescing::Args),
    Tiles(commands::tiles::Args),
    Render(commands::render::Args),
    Import(commands::import::Args),
    Opt(commands::opt::Args),
    Compile(commands::compile::Args),
}

/// The command line. A subcommand's `-h` prints what `--help` prints: the short help would drop
/// the examples, which are in the long description.
fn command() -> clap::Command {
    Cli::command().mut_subcommands(|sub| {
        sub.disable_help_flag(true).arg(
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::HelpLong)
                .help("Print help, with examples"),
        )
    })
}

fn main() -> ExitCode {
    let parsed = command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(Exit::Usage as u8)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let (result, format) = match cli.command {
        Command::Simplify(args) => {
            let format = args.output.diag_format();
            (commands::simplify::run(args), format)
        }
        Command::Ranges(args) => {
            let format = args.output.diag_format();
            (commands::ranges::run(args), format)
        }
        Command::Bounds(args) => {
            let format = args.output.diag_format();
            (commands::bounds::run(args), format)
        }
        Command::Indexing(args) => {
            let format = args.output.diag_format();
            (commands::indexing::run(args), format)
        }
        Command::Launch(args) => {
            let format = args.output.diag_format();
            (commands::launch::run(args), format)
        }
        Command::Coalescing(args) => {
            let format = args.output.diag_format();
            (commands::coalescing::run(args), format)
        }
        Command::Tiles(args) => {
            let format = args.output.diag_format();
            (commands::tiles::run(args), format)
        }
        Command::Render(args) => {
            let format = args.diag_format();
            (commands::render::run(args), format)
        }
        Command::Import(args) => {
            let format = args.output.diag_format();
            (commands::import::run(args), format)
        }
        Command::Opt(args) => {
            let format = args.output.diag_format();
            (commands::opt::run(args), format)
        }
        Command::Compile(args) => {
            let format = args.output.diag_format();
            (commands::compile::run(args), format)
        }
    };
    finish(result, format)
}

fn finish(result: Result<(), Failure>, format: DiagFormat) -> ExitCode {
    match result {
        Ok(()) | Err(Failure::ClosedOutput) => ExitCode::SUCCESS,
        Err(Failure::Error { exit, diagnostic }) => {
            diagnostic.emit(format);
            ExitCode::from(exit as u8)
        }
    }
}
