//! The soundness check of `cargo xtask bench mlir`: every kernel of each route's output run
//! against the same kernel of the reference module at the points the bench gives, with the
//! reference evaluator ([`evaluate_kernel`]).
//!
//! `cargo run -p xla-indexing-testkit --features mlir --example kernel_soundness -- POINTS
//! REFERENCE OUTPUT...`, where `POINTS` holds a line per kernel, `NAME T,B,I,J ...` (thread id,
//! block id, then the iteration of each loop by depth, one group per point). For each `OUTPUT`
//! (numbered from 0) it prints `checked K FUNCTIONS POINTS`, then `unsound K NAME T,B,I,J` for
//! each kernel that writes something else at a point where the reference's writes are defined,
//! and `error K NAME MESSAGE` for each it cannot run (`K` is `reference` for the reference).

use std::{collections::HashMap, fs, process::ExitCode};

use xla_indexing_mlir::session::{OptOptions, Session};
use xla_indexing_testkit::evaluate::{KernelPoint, KernelRun, evaluate_kernel, named_functions};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [points, reference, outputs @ ..] = args.as_slice() else {
        eprintln!("usage: kernel_soundness POINTS REFERENCE OUTPUT...");
        return ExitCode::from(2);
    };
    match check(points, reference, outputs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kernel_soundness: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the files, runs every kernel and prints what it finds.
fn check(points: &str, reference: &str, outputs: &[String]) -> Result<(), String> {
    let read = |path: &str| fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let points = parse_points(&read(points)?)?;
    let session = Session::new("kernel_soundness", OptOptions::default());
    let parse = |path: &str| {
        session
            .parse(&read(path)?)
            .map_err(|e| format!("{path}: {e}"))
    };
    let reference_module = parse(reference)?;
    let reference_functions = named_functions(&reference_module);
    // The reference's runs, per kernel: `None` where it cannot run.
    let mut expected: HashMap<&str, Vec<KernelRun>> = HashMap::new();
    for (name, at) in &points {
        let runs = reference_functions
            .get(name.as_str())
            .ok_or_else(|| format!("no function @{name} in {reference}"))
            .and_then(|f| {
                at.iter()
                    .map(|p| evaluate_kernel(f, p).map_err(|e| e.to_string()))
                    .collect::<Result<Vec<_>, _>>()
            });
        match runs {
            Ok(runs) => {
                expected.insert(name, runs);
            }
            Err(e) => println!("error reference {name} {e}"),
        }
    }
    for (k, output) in outputs.iter().enumerate() {
        let module = parse(output)?;
        let functions = named_functions(&module);
        let n_points: usize = points.iter().map(|(_, at)| at.len()).sum();
        println!("checked {k} {} {n_points}", points.len());
        for (name, at) in &points {
            let Some(runs) = expected.get(name.as_str()) else {
                continue;
            };
            let Some(function) = functions.get(name.as_str()) else {
                println!("error {k} {name} no such function");
                continue;
            };
            for (point, reference_run) in at.iter().zip(runs) {
                match evaluate_kernel(function, point) {
                    Ok(run) if run.refines(reference_run) => {}
                    Ok(_) => {
                        let ids = [point.thread, point.block]
                            .iter()
                            .chain(&point.iterations)
                            .map(i64::to_string)
                            .collect::<Vec<_>>()
                            .join(",");
                        println!("unsound {k} {name} {ids}");
                        break;
                    }
                    Err(e) => {
                        println!("error {k} {name} {e}");
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The points of each kernel, in the order of `text`.
fn parse_points(text: &str) -> Result<Vec<(String, Vec<KernelPoint>)>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default().to_owned();
            let at = words
                .map(|group| {
                    let ids = group
                        .split(',')
                        .map(str::parse)
                        .collect::<Result<Vec<i64>, _>>()
                        .map_err(|e| format!("{name}: {group}: {e}"))?;
                    match ids.as_slice() {
                        [thread, block, iterations @ ..] => Ok(KernelPoint {
                            thread: *thread,
                            block: *block,
                            iterations: iterations.to_vec(),
                        }),
                        _ => Err(format!("{name}: {group}: no thread and block ids")),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok((name, at))
        })
        .collect()
}
