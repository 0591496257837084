//! Runs the soundness invariant of `xla-indexing-simplify` on MLIR files of any origin
//! (upstream MLIR's tests, a user's kernels): every piece (split at `// -----`) goes through
//! the pass alone and followed by `xla-indexing-lower-apply`; every function whose arguments all
//! declare `xla.range` is evaluated at every point of that domain before and after, and a
//! changed value, an internal error or a missed fixed point is reported. Pieces the passes
//! refuse, or that do not parse, are counted and skipped.
//!
//! `cargo run -p xla-indexing-testkit --features passes --example values_kept -- FILE...`
//! prints a line per file (`FILE: pieces P, skipped S, functions F, points N`), then each
//! violation; the exit status is non-zero when there is one.

use std::{fs, process::ExitCode};

use xla_indexing_passes::opt::{OptOptions, session};
use xla_indexing_testkit::invariants::passes::{Input, values_are_kept};

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: values_kept FILE...");
        return ExitCode::from(2);
    }
    let session = session("values_kept", OptOptions::default());
    let mut violations = 0;
    for file in &files {
        let text = match fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(2);
            }
        };
        let pieces: Vec<&str> = text.split("\n// -----").collect();
        let (mut functions, mut points, mut skipped) = (0, 0, 0);
        for (k, piece) in pieces.iter().enumerate() {
            match values_are_kept(&session, piece, Input::Any) {
                Ok(covered) if covered.functions == 0 => skipped += 1,
                Ok(covered) => {
                    functions += covered.functions;
                    points += covered.points;
                }
                Err(message) => {
                    violations += 1;
                    println!("{file} piece {k}: {message}");
                }
            }
        }
        println!(
            "{file}: pieces {}, skipped {skipped}, functions {functions}, points {points}",
            pieces.len()
        );
    }
    if violations == 0 {
        ExitCode::SUCCESS
    } else {
        println!("{violations} violations");
        ExitCode::FAILURE
    }
}
