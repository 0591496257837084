//! `xla-check`: XLA's own CPU kernels against ours, counted and checked by interpretation.
//!
//! * `xla-check bench --dumps DIR --out DIR --xla-indexing BIN` runs every kernel of an XLA
//!   dump through XLA's pipeline and ours, prints the table and fails on a difference (see
//!   [`bench`](mod@bench)); `cargo xtask bench xla` makes the dump and runs it.
//! * `xla-check mlir-bench --plugin SO --kernel-soundness BIN --out DIR` runs
//!   `xla-indexing-simplify` against upstream MLIR's routes on a generated module (see
//!   [`mlir_bench`]); `cargo xtask bench mlir` builds the plugin and the checker and runs it.
//! * `xla-check compare XLA OURS [--emitted FILE]` runs two versions of one kernel (files of
//!   printed MLIR, such as those the bench writes under `OUT/{xla,ours}/`) and says whether
//!   they write the same; it exits with 1 unless they do.

mod bench;
mod mlir_bench;
mod shell;

use std::{fs, path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use xla_indexing_xla_check::check::{self, Check};

#[derive(Parser)]
#[command(
    name = "xla-check",
    about = "XLA's own CPU kernels against ours, checked by interpretation"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every kernel of an XLA dump through XLA's pipeline and ours: counted, checked, tabled.
    Bench {
        /// The dump (`--xla_dump_to`, with `--xla_dump_emitter_re=.*`).
        #[arg(long)]
        dumps: PathBuf,
        /// Where both sides' IR and `xla.json` are written.
        #[arg(long)]
        out: PathBuf,
        /// The `xla-indexing` binary that runs our pipeline.
        #[arg(long)]
        xla_indexing: PathBuf,
        /// The directory of LLVM's `opt` and `mlir-translate`.
        #[arg(long, default_value = "/usr/lib/llvm-22/bin")]
        llvm_bin: PathBuf,
    },
    /// `xla-indexing-simplify` against upstream MLIR's routes on a generated module.
    MlirBench {
        /// The plugin `libxla_indexing_plugin.so` (a release build: the routes are timed).
        #[arg(long)]
        plugin: PathBuf,
        /// testkit's `kernel_soundness` example, which checks every route's output.
        #[arg(long)]
        kernel_soundness: PathBuf,
        /// Where the module, the routes' outputs and `mlir.json` are written.
        #[arg(long)]
        out: PathBuf,
    },
    /// Runs two versions of a kernel on the same inputs and compares what they write.
    Compare {
        /// XLA's version (or any reference).
        xla: PathBuf,
        /// Ours.
        ours: PathBuf,
        /// The kernel as the emitter wrote it, whose arguments say which buffers alias.
        #[arg(long)]
        emitted: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    match run(Args::parse().command) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xla-check: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `command`; whether it found what it should.
fn run(command: Command) -> Result<bool> {
    match command {
        Command::Bench {
            dumps,
            out,
            xla_indexing,
            llvm_bin,
        } => {
            let tools = bench::Tools::new(xla_indexing, &llvm_bin)?;
            bench::run(&dumps, &out, &tools)?;
            Ok(true)
        }
        Command::MlirBench {
            plugin,
            kernel_soundness,
            out,
        } => {
            mlir_bench::run(&plugin, &kernel_soundness, &out)?;
            Ok(true)
        }
        Command::Compare { xla, ours, emitted } => {
            let read = |path: &PathBuf| {
                fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
            };
            let emitted = emitted.as_ref().map(read).transpose()?.unwrap_or_default();
            let check = check::compare(&read(&xla)?, &read(&ours)?, &emitted);
            println!("{check}");
            Ok(matches!(check, Check::Same { .. }))
        }
    }
}
