//! `cargo xtask bench mlir`: `xla-indexing-simplify` (through `mlir-opt` with the plugin)
//! against upstream MLIR's routes on one generated module of GPU-style computations in
//! families (see [`families`]), all in the same run:
//!
//! * ours: `xla-indexing-simplify`, scheduled on each function as upstream's function passes
//!   are (alone: `canonicalize` composes `affine.apply` chains whatever their uses, copying a
//!   shared division into every user);
//! * upstream: `affine-simplify-structures, canonicalize`;
//! * upstream's strongest: that, then `lower-affine, int-range-optimizations,
//!   arith-int-range-narrowing{int-bitwidths-supported=32}, canonicalize`.
//!
//! Upstream reads no `xla_indexing` op: its input has each `apply_indexing` written as the
//! `affine.apply` of its map (`xla-indexing-lower-apply{simplify=false prefer-affine=true}`,
//! what a user of upstream MLIR would write). Each route is timed on its own (best of
//! [`RUNS`]); then what is left is counted per function: integer divisions and remainders after
//! the same lowering of every output (`apply_indexing` as written, then `lower-affine`), and
//! comparisons, selects, `min` and `max` in the output. The
//! table gives, per family, each route's count and the fewest any route reaches per function.
//! Acceptance: ours strictly fewer than upstream's strongest in every family and in total, in at
//! most twice the time of `affine-simplify-structures, canonicalize`. Writes the module to
//! `target/bench/mlir-kernels.mlir` and the figures to `target/bench/mlir.json`.

pub mod families;

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};

use self::families::{FAMILIES, PER_FAMILY, family_of, generate, generate_large};
use crate::run;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Timed runs of each route; the best is reported.
const RUNS: usize = 3;

/// The generator's seed.
const SEED: u64 = 7;

/// The `arith` ops that divide or take a remainder.
const DIVISIONS: &[&str] = &[
    "arith.divui ",
    "arith.divsi ",
    "arith.remui ",
    "arith.remsi ",
    "arith.floordivsi ",
    "arith.ceildivsi ",
    "arith.ceildivui ",
];

/// The ops that compare or choose.
const DECISIONS: &[&str] = &[
    "arith.cmpi ",
    "arith.select ",
    "arith.minsi ",
    "arith.maxsi ",
    "arith.minui ",
    "arith.maxui ",
    "affine.min ",
    "affine.max ",
];

/// A route: its name, whether it reads our ops (else it gets the upstream input) and its
/// pipeline.
struct Route {
    name: &'static str,
    ours: bool,
    pipeline: &'static str,
}

const ROUTES: [Route; 3] = [
    Route {
        name: "xla-indexing-simplify",
        ours: true,
        pipeline: "builtin.module(func.func(xla-indexing-simplify))",
    },
    Route {
        name: "affine-simplify-structures, canonicalize",
        ours: false,
        pipeline: "builtin.module(func.func(affine-simplify-structures), canonicalize)",
    },
    Route {
        name: "upstream's strongest",
        ours: false,
        pipeline: "builtin.module(func.func(affine-simplify-structures), canonicalize, lower-affine, \
                   int-range-optimizations, arith-int-range-narrowing{int-bitwidths-supported=32}, \
                   canonicalize)",
    },
];

/// `apply_indexing` as written, for upstream's input.
const AS_WRITTEN: &str =
    "builtin.module(xla-indexing-lower-apply{simplify=false prefer-affine=true linearize=false})";

/// The lowering every output goes through before its divisions are counted: maps as written,
/// then `lower-affine` (one `arith` division or remainder per `floordiv`, `ceildiv`, `mod`).
const LOWERING: &str = "builtin.module(xla-indexing-lower-apply{simplify=false prefer-affine=true linearize=false}, lower-affine)";

/// What is left in one function: divisions and remainders, and decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Left {
    pub divisions: usize,
    pub decisions: usize,
}

impl Left {
    fn total(self) -> usize {
        self.divisions + self.decisions
    }
}

impl std::ops::AddAssign for Left {
    fn add_assign(&mut self, other: Left) {
        self.divisions += other.divisions;
        self.decisions += other.decisions;
    }
}

/// What is left in each function of a route's output: divisions and remainders counted in
/// `lowered` (the output after [`LOWERING`], where only `arith` ops compute), comparisons,
/// selects, `min` and `max` in `output` (an `affine.min` or `affine.max` counts once: the lowering
/// would add comparisons for every `floordiv` and `mod` whose operand may be negative).
fn left_per_function(output: &str, lowered: &str) -> BTreeMap<String, Left> {
    let divisions = count_per_function(lowered, DIVISIONS);
    let decisions = count_per_function(output, DECISIONS);
    divisions
        .into_iter()
        .map(|(name, divisions)| {
            let decisions = decisions.get(&name).copied().unwrap_or_default();
            (
                name,
                Left {
                    divisions,
                    decisions,
                },
            )
        })
        .collect()
}

/// How many of `ops` each function of printed MLIR holds, by function name.
pub fn count_per_function(text: &str, ops: &[&str]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("func.func @") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            counts.insert(name.clone(), 0);
            current = Some(name);
            continue;
        }
        if let Some(count) = current.as_ref().and_then(|n| counts.get_mut(n)) {
            *count += ops.iter().filter(|op| line.contains(*op)).count();
        }
    }
    counts
}

/// Runs `mlir-opt` on `input` with `pipeline` (and the plugin); the output.
fn opt(input: &Path, plugin: &Path, pipeline: &str) -> Result<(Duration, String)> {
    let mut command = Command::new(MLIR_OPT);
    command
        .arg(input)
        .arg(format!("--load-dialect-plugin={}", plugin.display()))
        .arg(format!("--load-pass-plugin={}", plugin.display()))
        .arg(format!("--pass-pipeline={pipeline}"));
    eprintln!("xtask: $ {}", run::describe(&command));
    let start = Instant::now();
    let out = command
        .output()
        .with_context(|| format!("cannot run {MLIR_OPT}"))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        bail!(
            "`{}` failed ({}): {}",
            run::describe(&command),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok((elapsed, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// One route's figures.
struct Figures {
    time: Duration,
    per_function: BTreeMap<String, Left>,
}

/// Runs the benchmark; fails when the acceptance is not met.
pub fn bench(root: &Path, target: &Path) -> Result<()> {
    if !Path::new(MLIR_OPT).exists() {
        bail!("{MLIR_OPT} is missing: run `cargo xtask setup` (it installs mlir-22-tools)");
    }
    run::build_release(root, "xla-indexing-plugin", &[])?;
    let plugin = target.join("release/libxla_indexing_plugin.so");
    let out = target.join("bench");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let write = |name: &str, text: &str| -> Result<std::path::PathBuf> {
        let path = out.join(name);
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    };
    let input = write("mlir-kernels.mlir", &generate(SEED))?;
    let (_, upstream_text) = opt(&input, &plugin, AS_WRITTEN)?;
    let upstream_input = write("mlir-kernels-upstream.mlir", &upstream_text)?;
    let (_, lowered_input) = opt(&input, &plugin, LOWERING)?;
    let before = left_per_function(&generate(SEED), &lowered_input);

    let mut figures = Vec::new();
    for (k, route) in ROUTES.iter().enumerate() {
        let input = if route.ours { &input } else { &upstream_input };
        let (time, output) = best_of(input, &plugin, route.pipeline)?;
        let routed = write(&format!("mlir-route-{k}.mlir"), &output)?;
        let (_, lowered) = opt(&routed, &plugin, LOWERING)?;
        figures.push(Figures {
            time,
            per_function: left_per_function(&output, &lowered),
        });
    }
    // The same number of computations in a few large functions: the budgets keep the pass
    // linear in a function's size.
    let large = write(
        "mlir-kernels-large.mlir",
        &generate_large(SEED, LARGE.0, LARGE.1),
    )?;
    let (large_ours, _) = best_of(&large, &plugin, ROUTES[0].pipeline)?;
    let (_, large_upstream_text) = opt(&large, &plugin, AS_WRITTEN)?;
    let large_upstream = write("mlir-kernels-large-upstream.mlir", &large_upstream_text)?;
    let (large_peer, _) = best_of(&large_upstream, &plugin, ROUTES[1].pipeline)?;
    let large = Large {
        ours: large_ours,
        upstream: large_peer,
    };
    report(&out, &before, &figures, &large)
}

/// Functions and computations per function of the large module.
const LARGE: (usize, usize) = (10, 1000);

/// The times of ours and upstream (`affine-simplify-structures, canonicalize`) on the large
/// module.
struct Large {
    ours: Duration,
    upstream: Duration,
}

/// The best time of [`RUNS`] runs of `pipeline` on `input`, and the output.
fn best_of(input: &Path, plugin: &Path, pipeline: &str) -> Result<(Duration, String)> {
    let mut best = Duration::MAX;
    let mut output = String::new();
    for _ in 0..RUNS {
        let (time, text) = opt(input, plugin, pipeline)?;
        best = best.min(time);
        output = text;
    }
    Ok((best, output))
}

/// Sums `per_function` by family (and in all, last).
fn by_family(per_function: &BTreeMap<String, Left>) -> Vec<Left> {
    let mut sums = vec![Left::default(); FAMILIES.len() + 1];
    for (name, left) in per_function {
        if let Some(f) = family_of(name) {
            sums[f] += *left;
            sums[FAMILIES.len()] += *left;
        }
    }
    sums
}

/// Prints the table, writes the JSON, and checks the acceptance.
fn report(
    out: &Path,
    before: &BTreeMap<String, Left>,
    figures: &[Figures],
    large: &Large,
) -> Result<()> {
    // The fewest any route leaves in each function.
    let fewest: BTreeMap<String, Left> = before
        .keys()
        .map(|name| {
            let least = figures
                .iter()
                .filter_map(|f| f.per_function.get(name))
                .min_by_key(|l| (l.total(), l.divisions))
                .copied()
                .unwrap_or_default();
            (name.clone(), least)
        })
        .collect();
    let columns: Vec<Vec<Left>> = std::iter::once(by_family(before))
        .chain(figures.iter().map(|f| by_family(&f.per_function)))
        .chain(std::iter::once(by_family(&fewest)))
        .collect();
    println!(
        "{} functions in {} families; left after each route and the same lowering: divisions and remainders + comparisons, selects, min and max",
        PER_FAMILY * FAMILIES.len(),
        FAMILIES.len()
    );
    let mut header = format!("{:<22} {:>12}", "family", "before");
    for route in &ROUTES {
        let _ = write!(header, " {:>16}", short(route.name));
    }
    let _ = write!(header, " {:>12}", "fewest");
    println!("{header}");
    let names: Vec<&str> = FAMILIES
        .iter()
        .map(|f| f.name)
        .chain(std::iter::once("total"))
        .collect();
    let cell = |l: Left| format!("{}+{}", l.divisions, l.decisions);
    for (row, name) in names.iter().enumerate() {
        let mut line = format!("{name:<22} {:>12}", cell(columns[0][row]));
        for column in &columns[1..columns.len() - 1] {
            let _ = write!(line, " {:>16}", cell(column[row]));
        }
        let _ = write!(line, " {:>12}", cell(columns[columns.len() - 1][row]));
        println!("{line}");
    }
    let mut times = String::from("time (ms, best of 3)  ");
    for f in figures {
        let _ = write!(times, " {:>16.1}", f.time.as_secs_f64() * 1e3);
    }
    println!("{times}");
    let (ours, plain, strongest) = (&columns[1], &columns[2], &columns[3]);
    let ratio = figures[0].time.as_secs_f64() / figures[1].time.as_secs_f64();
    let strongest_ratio = figures[0].time.as_secs_f64() / figures[2].time.as_secs_f64();
    let behind: Vec<&str> = names
        .iter()
        .zip(ours.iter().zip(strongest))
        .filter(|(_, (o, s))| o.total() >= s.total())
        .map(|(n, _)| *n)
        .collect();
    let ahead_of_ours = figures[1..]
        .iter()
        .map(|f| {
            f.per_function
                .iter()
                .filter(|(name, l)| {
                    figures[0]
                        .per_function
                        .get(*name)
                        .is_some_and(|o| l.total() < o.total())
                })
                .count()
        })
        .sum::<usize>();
    let total = FAMILIES.len();
    println!(
        "ours / affine-simplify-structures, canonicalize: time {ratio:.2}x; ours / strongest: time {strongest_ratio:.2}x; left {} vs {} (strongest) and {} (plain); fewest possible {}",
        ours[total].total(),
        strongest[total].total(),
        plain[total].total(),
        columns[columns.len() - 1][total].total()
    );
    println!("functions where a peer leaves fewer than ours: {ahead_of_ours}");
    let large_ratio = large.ours.as_secs_f64() / figures[0].time.as_secs_f64();
    println!(
        "{} functions of {} computations: ours {:.1} ms ({large_ratio:.2}x its time on {} small functions), upstream {:.1} ms",
        LARGE.0,
        LARGE.1,
        large.ours.as_secs_f64() * 1e3,
        PER_FAMILY * FAMILIES.len(),
        large.upstream.as_secs_f64() * 1e3
    );
    let met = behind.is_empty() && ratio <= 2.0;
    let family_json: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(row, name)| {
            let values: Vec<String> = columns
                .iter()
                .map(|c| format!("[{}, {}]", c[row].divisions, c[row].decisions))
                .collect();
            format!("\"{name}\": [{}]", values.join(", "))
        })
        .collect();
    let json = format!(
        "{{\"functions\": {}, \"columns\": [\"before\", \"ours\", \"affine-simplify-structures\", \"strongest\", \"fewest\"], \"families\": {{{}}}, \"ms\": [{}], \"time_ratio\": {ratio:.3}, \"time_ratio_strongest\": {strongest_ratio:.3}, \"functions_a_peer_wins\": {ahead_of_ours}, \"large_ms\": [{:.1}, {:.1}], \"accepted\": {met}}}\n",
        PER_FAMILY * FAMILIES.len(),
        family_json.join(", "),
        figures
            .iter()
            .map(|f| format!("{:.1}", f.time.as_secs_f64() * 1e3))
            .collect::<Vec<_>>()
            .join(", "),
        large.ours.as_secs_f64() * 1e3,
        large.upstream.as_secs_f64() * 1e3,
    );
    let json_path = out.join("mlir.json");
    fs::write(&json_path, json).with_context(|| format!("writing {}", json_path.display()))?;
    if !met {
        bail!(
            "acceptance not met: strictly fewer left than upstream's strongest in every family (not in: {}), in at most 2x the time of affine-simplify-structures, canonicalize ({ratio:.2}x)",
            behind.join(", ")
        );
    }
    println!(
        "acceptance met: fewer left than upstream's strongest in every family, in at most 2x the time"
    );
    Ok(())
}

/// A short column title.
fn short(route: &str) -> &str {
    match route {
        "xla-indexing-simplify" => "ours",
        "affine-simplify-structures, canonicalize" => "upstream",
        _ => "strongest",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_is_deterministic_and_has_every_family() {
        let module = generate(SEED);
        assert_eq!(module, generate(SEED));
        let functions = count_per_function(&module, DIVISIONS);
        assert_eq!(functions.len(), PER_FAMILY * FAMILIES.len());
        for f in 0..FAMILIES.len() {
            let n = functions.keys().filter(|k| family_of(k) == Some(f)).count();
            assert_eq!(n, PER_FAMILY, "family {f}");
        }
    }

    #[test]
    fn what_is_left_is_counted_per_function() {
        let text = "func.func @f0_0(%a: index) {\n  %1 = arith.remui %x, %c : index\n  %2 = arith.addi %x, %c : index\n  %3 = arith.cmpi ult, %x, %c : index\n}\nfunc.func @f1_0() {\n  %4 = arith.floordivsi %x, %c : index\n}\n";
        let counts = left_per_function(text, text);
        assert_eq!(
            counts["f0_0"],
            Left {
                divisions: 1,
                decisions: 1
            }
        );
        assert_eq!(
            counts["f1_0"],
            Left {
                divisions: 1,
                decisions: 0
            }
        );
        assert_eq!(
            by_family(&counts)[FAMILIES.len()],
            Left {
                divisions: 2,
                decisions: 1
            }
        );
    }
}
