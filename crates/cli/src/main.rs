//! `xla-indexing`: symbolic indexing analysis for tensor programs.

mod commands;
mod diag;
mod output;
mod progress;
mod render;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use diag::{DiagFormat, Exit};

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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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
        Command::Render(args) => (commands::render::run(args), DiagFormat::Text),
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

fn finish(result: Result<(), diag::Failure>, format: DiagFormat) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            failure.diagnostic.emit(format);
            ExitCode::from(failure.exit as u8)
        }
    }
}
