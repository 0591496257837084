//! `xla-check mlir-bench`, which `cargo xtask bench mlir` runs: `xla-indexing-simplify`
//! (through `mlir-opt` with the plugin)
//! against upstream MLIR's routes on one generated module of GPU-style computations in
//! families (see [`families`]; each family written in `arith` also comes as its `affine` twin,
//! and a row of the table is a family in one form), all in the same run:
//!
//! * ours: `xla-indexing-simplify`, scheduled on each function as upstream's function passes
//!   are;
//! * ours, then `canonicalize, cse` (what a user runs after it);
//! * upstream: `affine-simplify-structures, canonicalize`;
//! * upstream's strongest: `affine-simplify-structures, canonicalize, cse, lower-affine`, then
//!   `canonicalize, cse, int-range-optimizations, arith-unsigned-when-equivalent,
//!   arith-int-range-narrowing{int-bitwidths-supported=32}` repeated to a fixed point (the
//!   rounds it takes, found by running it until its output stops changing, then timed as one
//!   pipeline).
//!
//! Upstream reads no `xla_indexing` op: its input has each `apply_indexing` written as the
//! `affine.apply` of its map (`xla-indexing-lower-apply{simplify=false prefer-affine=true}`,
//! what a user of upstream MLIR would write). Each route is timed on its own (best of
//! [`RUNS`]); then what is left is counted per function: integer divisions and remainders after
//! the same lowering of every output (`apply_indexing` as written, then `lower-affine`), and
//! comparisons, selects, `min`, `max` and `affine.if` in the output. Every function of every
//! output is checked against the generated one by the reference evaluator (testkit's
//! `kernel_soundness` example) at [`POINTS`] points of its domain (its corners and points at
//! random): a route is unsound in a function where it writes another value at one of them.
//! The table gives, per row, each route's count and the fewest any route reaches per
//! function. Acceptance: ours sound everywhere, never more left than upstream's strongest in a
//! row and fewer in all, in at most twice the time of `affine-simplify-structures,
//! canonicalize`. Writes the module to `target/bench/mlir-kernels.mlir` and the figures to
//! `target/bench/mlir.json`.
//!
//! In the last run (11,250 functions in 18 rows) ours left 9,202 divisions and remainders +
//! 2,188 decisions, ours then `canonicalize, cse` 10,324 + 1,695, upstream's plain route
//! 26,897 + 11,250 and its strongest 17,894 + 8,965 (in 2 rounds); no route was unsound at any
//! point. Against the strongest, ours left fewer in 11 rows and as many in 7, more in none: the
//! acceptance is met. The README has the table.

pub mod families;

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};

use self::families::{
    Domain, FAMILIES, PER_ROW, Rng, Row, generate, generate_large, generate_long_block, row_of,
    rows,
};
use crate::shell::describe;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Timed runs of each route; the best is reported.
const RUNS: usize = 3;

/// The generator's seed.
const SEED: u64 = 7;

/// The points of its domain at which each function is checked: its 16 corners, the rest at
/// random.
const POINTS: usize = 64;

/// The most rounds of a route's repeated part.
const MAX_ROUNDS: usize = 8;

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
    "affine.if ",
];

/// A route: its name, its column's title, whether it reads our ops (else it gets the upstream
/// input), its pipeline's passes run once, and those then repeated to a fixed point.
struct Route {
    name: &'static str,
    title: &'static str,
    ours: bool,
    once: &'static str,
    repeated: Option<&'static str>,
}

const ROUTES: [Route; 4] = [
    Route {
        name: "xla-indexing-simplify",
        title: "ours",
        ours: true,
        once: "func.func(xla-indexing-simplify)",
        repeated: None,
    },
    Route {
        name: "xla-indexing-simplify, canonicalize, cse",
        title: "ours+cse",
        ours: true,
        once: "func.func(xla-indexing-simplify), canonicalize, cse",
        repeated: None,
    },
    Route {
        name: "affine-simplify-structures, canonicalize",
        title: "upstream",
        ours: false,
        once: "func.func(affine-simplify-structures), canonicalize",
        repeated: None,
    },
    Route {
        name: "upstream's strongest",
        title: "strongest",
        ours: false,
        once: "func.func(affine-simplify-structures), canonicalize, cse, lower-affine",
        repeated: Some(
            "canonicalize, cse, int-range-optimizations, arith-unsigned-when-equivalent, \
             arith-int-range-narrowing{int-bitwidths-supported=32}",
        ),
    },
];

/// The route of our pass alone.
const OURS: usize = 0;
/// Upstream's plain route, the time reference.
const PLAIN: usize = 2;
/// Upstream's strongest route.
const STRONGEST: usize = 3;

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
    eprintln!("xla-check: $ {}", describe(&command));
    let start = Instant::now();
    let out = command
        .output()
        .with_context(|| format!("cannot run {MLIR_OPT}"))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        bail!(
            "`{}` failed ({}): {}",
            describe(&command),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok((elapsed, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// One route's figures.
struct Figures {
    /// The passes it ran, as one pipeline.
    pipeline: String,
    time: Duration,
    per_function: BTreeMap<String, Left>,
    /// The functions it left unsound, and those the evaluator could not run.
    unsound: Vec<String>,
    unevaluated: Vec<String>,
}

/// Runs the benchmark with the plugin at `plugin` and testkit's `kernel_soundness` example at
/// `kernel_soundness`, writing its files into `out`; fails when the acceptance is not met.
pub fn run(plugin: &Path, kernel_soundness: &Path, out: &Path) -> Result<()> {
    for tool in [Path::new(MLIR_OPT), plugin, kernel_soundness] {
        if !tool.exists() {
            bail!(
                "{} is missing: run `cargo xtask bench mlir`, which installs and builds the tools",
                tool.display()
            );
        }
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let write = |name: &str, text: &str| write_in(out, name, text);
    let module = generate(SEED);
    let input = write("mlir-kernels.mlir", &module.text)?;
    let (_, upstream_text) = opt(&input, plugin, AS_WRITTEN)?;
    let upstream_input = write("mlir-kernels-upstream.mlir", &upstream_text)?;
    let (_, lowered_input) = opt(&input, plugin, LOWERING)?;
    let before = left_per_function(&module.text, &lowered_input);

    let mut figures = Vec::new();
    let mut outputs = Vec::new();
    for (k, route) in ROUTES.iter().enumerate() {
        let input = if route.ours { &input } else { &upstream_input };
        let pipeline = fixed_point(input, plugin, route)?;
        let (time, output) = best_of(input, plugin, &pipeline)?;
        let routed = write(&format!("mlir-route-{k}.mlir"), &output)?;
        let (_, lowered) = opt(&routed, plugin, LOWERING)?;
        figures.push(Figures {
            pipeline,
            time,
            per_function: left_per_function(&output, &lowered),
            unsound: Vec::new(),
            unevaluated: Vec::new(),
        });
        outputs.push(routed);
    }
    let points = write("mlir-points.txt", &points(&module.domains))?;
    check_soundness(kernel_soundness, &points, &input, &outputs, &mut figures)?;
    // The same number of computations in a few large functions: the budgets keep the pass
    // linear in a function's size.
    let large = timed_both(
        out,
        "mlir-kernels-large",
        &generate_large(SEED, LARGE.0, LARGE.1),
        plugin,
        &figures,
    )?;
    // And in one block: what a rewrite does per op must not grow with the block.
    let long_block = timed_both(
        out,
        "mlir-kernels-long-block",
        &generate_long_block(SEED, LONG_BLOCK),
        plugin,
        &figures,
    )?;
    report(out, &before, &figures, &large, &long_block)
}

/// The pipeline of `route`: its passes run once, then its repeated passes as many times as
/// they change the output of `input` (at most [`MAX_ROUNDS`]).
fn fixed_point(input: &Path, plugin: &Path, route: &Route) -> Result<String> {
    let pipeline = |rounds: usize| {
        let passes: Vec<&str> = std::iter::once(route.once)
            .chain(
                route
                    .repeated
                    .iter()
                    .flat_map(|r| std::iter::repeat_n(*r, rounds)),
            )
            .collect();
        format!("builtin.module({})", passes.join(", "))
    };
    let Some(repeated) = route.repeated else {
        return Ok(pipeline(0));
    };
    let (_, mut text) = opt(input, plugin, &pipeline(0))?;
    let scratch = input.with_extension("round.mlir");
    for rounds in 0..MAX_ROUNDS {
        fs::write(&scratch, &text).with_context(|| format!("writing {}", scratch.display()))?;
        let (_, next) = opt(&scratch, plugin, &format!("builtin.module({repeated})"))?;
        if next == text {
            eprintln!(
                "xla-check: {}: a fixed point after {rounds} rounds",
                route.name
            );
            return Ok(pipeline(rounds));
        }
        text = next;
    }
    eprintln!(
        "xla-check: {}: no fixed point in {MAX_ROUNDS} rounds",
        route.name
    );
    Ok(pipeline(MAX_ROUNDS))
}

/// The points of each function's domain it is checked at, a line per function (see testkit's
/// `kernel_soundness`): its corners, then points at random, [`POINTS`] in all.
fn points(domains: &[Domain]) -> String {
    let mut rng = Rng::new(SEED);
    let mut text = String::new();
    for domain in domains {
        text.push_str(&domain.name);
        for p in 0..POINTS {
            let coordinates: Vec<String> = domain
                .extents
                .iter()
                .enumerate()
                .map(|(axis, &extent)| {
                    let at = if p < 1 << domain.extents.len() {
                        // Corner `p`: the last value on the axes of its set bits.
                        if p >> axis & 1 == 1 { extent - 1 } else { 0 }
                    } else {
                        (rng.next() % extent as u64) as i64
                    };
                    at.to_string()
                })
                .collect();
            let _ = write!(text, " {}", coordinates.join(","));
        }
        text.push('\n');
    }
    text
}

/// Runs every function of every output against the generated module at `points` (testkit's
/// `kernel_soundness`); notes in `figures` where a route is unsound or cannot be run.
fn check_soundness(
    kernel_soundness: &Path,
    points: &Path,
    reference: &Path,
    outputs: &[PathBuf],
    figures: &mut [Figures],
) -> Result<()> {
    let mut command = Command::new(kernel_soundness);
    command.arg(points).arg(reference).args(outputs);
    eprintln!("xla-check: $ {}", describe(&command));
    let out = command
        .output()
        .context("cannot run testkit's kernel_soundness")?;
    if !out.status.success() {
        bail!(
            "kernel_soundness failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["checked", ..] => {}
            ["error", "reference", name, ..] => {
                bail!("the reference evaluator cannot run @{name}: {line}")
            }
            [kind @ ("unsound" | "error"), k, name, ..] => {
                let k: usize = k.parse().context("a route's number")?;
                let figures = figures.get_mut(k).context("a route's number")?;
                let list = if *kind == "unsound" {
                    &mut figures.unsound
                } else {
                    &mut figures.unevaluated
                };
                list.push((*name).to_owned());
                if list.len() == 1 {
                    eprintln!("xla-check: {}: {line}", ROUTES[k].name);
                }
            }
            _ => bail!("kernel_soundness printed `{line}`"),
        }
    }
    Ok(())
}

/// Functions and computations per function of the large module.
const LARGE: (usize, usize) = (10, 1000);

/// Computations in the one block of the long-block module (a pass that looks at the whole
/// block for every op it rewrites takes seconds there).
const LONG_BLOCK: usize = 4000;

/// The times of ours and upstream (`affine-simplify-structures, canonicalize`) on a module of
/// large functions or of one long block.
struct Large {
    ours: Duration,
    upstream: Duration,
}

/// Writes `text` to the file `name` in `out`; its path.
fn write_in(out: &Path, name: &str, text: &str) -> Result<PathBuf> {
    let path = out.join(name);
    fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The best times of ours and of upstream's plain route on the module `text` (written to
/// `name`.mlir in `out`, and as written for upstream to `name`-upstream.mlir).
fn timed_both(
    out: &Path,
    name: &str,
    text: &str,
    plugin: &Path,
    figures: &[Figures],
) -> Result<Large> {
    let input = write_in(out, &format!("{name}.mlir"), text)?;
    let (ours, _) = best_of(&input, plugin, &figures[OURS].pipeline)?;
    let (_, upstream_text) = opt(&input, plugin, AS_WRITTEN)?;
    let upstream_input = write_in(out, &format!("{name}-upstream.mlir"), &upstream_text)?;
    let (upstream, _) = best_of(&upstream_input, plugin, &figures[PLAIN].pipeline)?;
    Ok(Large { ours, upstream })
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

/// Sums `per_function` by row (and in all, last).
fn by_row(per_function: &BTreeMap<String, Left>) -> Vec<Left> {
    let n_rows = rows().len();
    let mut sums = vec![Left::default(); n_rows + 1];
    for (name, left) in per_function {
        if let Some(r) = row_of(name) {
            sums[r] += *left;
            sums[n_rows] += *left;
        }
    }
    sums
}

/// How many of `names` are in each row (and in all, last).
fn count_by_row(names: &[String]) -> Vec<usize> {
    let n_rows = rows().len();
    let mut counts = vec![0; n_rows + 1];
    for r in names.iter().filter_map(|n| row_of(n)) {
        counts[r] += 1;
        counts[n_rows] += 1;
    }
    counts
}

/// The title of `row` in the table.
fn row_title(row: Row) -> String {
    format!("{} ({})", FAMILIES[row.family].name, row.form.name())
}

/// Prints the table, writes the JSON, and checks the acceptance.
fn report(
    out: &Path,
    before: &BTreeMap<String, Left>,
    figures: &[Figures],
    large: &Large,
    long_block: &Large,
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
    let columns: Vec<Vec<Left>> = std::iter::once(by_row(before))
        .chain(figures.iter().map(|f| by_row(&f.per_function)))
        .chain(std::iter::once(by_row(&fewest)))
        .collect();
    let rows = rows();
    println!(
        "{} functions in {} rows ({} families, those written in arith also as their affine twin); left after each route and the same lowering: divisions and remainders + comparisons, selects, min, max and affine.if",
        PER_ROW * rows.len(),
        rows.len(),
        FAMILIES.len()
    );
    for (route, f) in ROUTES.iter().zip(figures) {
        println!("{}: {}", route.title, f.pipeline);
    }
    let mut header = format!("{:<40} {:>14}", "family (form)", "before");
    for route in &ROUTES {
        let _ = write!(header, " {:>14}", route.title);
    }
    let _ = write!(header, " {:>14}", "fewest");
    println!("{header}");
    let names: Vec<String> = rows
        .iter()
        .map(|r| row_title(*r))
        .chain(std::iter::once("total".to_owned()))
        .collect();
    let cell = |l: Left| format!("{}+{}", l.divisions, l.decisions);
    for (row, name) in names.iter().enumerate() {
        let mut line = format!("{name:<40}");
        for column in &columns {
            let _ = write!(line, " {:>14}", cell(column[row]));
        }
        println!("{line}");
    }
    let unsound: Vec<Vec<usize>> = figures.iter().map(|f| count_by_row(&f.unsound)).collect();
    let mut line = format!("{:<40} {:>14}", "unsound functions (not run)", "-");
    for f in figures {
        let cell = format!("{} ({})", f.unsound.len(), f.unevaluated.len());
        let _ = write!(line, " {cell:>14}");
    }
    println!("{line}");
    let mut times = format!("{:<40} {:>14}", "time (ms, best of 3)", "-");
    for f in figures {
        let _ = write!(times, " {:>14.1}", f.time.as_secs_f64() * 1e3);
    }
    println!("{times}");
    println!(
        "soundness: every function of every output run against the generated one at {POINTS} points of its domain (its 16 corners and {} at random)",
        POINTS - 16
    );
    let total = rows.len();
    let (ours, strongest) = (&columns[1 + OURS], &columns[1 + STRONGEST]);
    let ratio = figures[OURS].time.as_secs_f64() / figures[PLAIN].time.as_secs_f64();
    let strongest_ratio = figures[OURS].time.as_secs_f64() / figures[STRONGEST].time.as_secs_f64();
    let rows_where = |keep: fn(usize, usize) -> bool| -> Vec<&str> {
        names[..total]
            .iter()
            .zip(ours.iter().zip(strongest))
            .filter(|(_, (o, s))| keep(o.total(), s.total()))
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let (fewer, tied, more) = (
        rows_where(|o, s| o < s),
        rows_where(|o, s| o == s),
        rows_where(|o, s| o > s),
    );
    let ahead_of_ours = figures
        .iter()
        .enumerate()
        .filter(|(k, _)| !ROUTES[*k].ours)
        .map(|(_, f)| {
            f.per_function
                .iter()
                .filter(|(name, l)| {
                    figures[OURS]
                        .per_function
                        .get(*name)
                        .is_some_and(|o| l.total() < o.total())
                })
                .count()
        })
        .sum::<usize>();
    println!(
        "ours / affine-simplify-structures, canonicalize: time {ratio:.2}x; ours / strongest: time {strongest_ratio:.2}x; left {} vs {} (strongest) and {} (plain); fewest possible {}",
        ours[total].total(),
        strongest[total].total(),
        columns[1 + PLAIN][total].total(),
        columns[columns.len() - 1][total].total()
    );
    println!(
        "against upstream's strongest, ours leaves fewer in {} of {total} rows, as many in {} ({}), more in {} ({})",
        fewer.len(),
        tied.len(),
        tied.join("; "),
        more.len(),
        more.join("; ")
    );
    println!("functions where an upstream route leaves fewer than ours: {ahead_of_ours}");
    let large_ratio = large.ours.as_secs_f64() / figures[OURS].time.as_secs_f64();
    println!(
        "{} functions of {} computations: ours {:.1} ms ({large_ratio:.2}x its time on {} small functions), upstream {:.1} ms",
        LARGE.0,
        LARGE.1,
        large.ours.as_secs_f64() * 1e3,
        PER_ROW * total,
        large.upstream.as_secs_f64() * 1e3
    );
    println!(
        "one block of {LONG_BLOCK} computations: ours {:.1} ms, upstream {:.1} ms",
        long_block.ours.as_secs_f64() * 1e3,
        long_block.upstream.as_secs_f64() * 1e3
    );
    let ours_sound = figures[OURS].unsound.is_empty() && figures[OURS].unevaluated.is_empty();
    let met = ours_sound
        && more.is_empty()
        && ours[total].total() < strongest[total].total()
        && ratio <= 2.0;
    let row_json: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(row, name)| {
            let values: Vec<String> = columns
                .iter()
                .map(|c| format!("[{}, {}]", c[row].divisions, c[row].decisions))
                .collect();
            let unsound: Vec<String> = unsound.iter().map(|u| u[row].to_string()).collect();
            format!(
                "\"{name}\": {{\"left\": [{}], \"unsound\": [{}]}}",
                values.join(", "),
                unsound.join(", ")
            )
        })
        .collect();
    let titles: Vec<String> = std::iter::once("before")
        .chain(ROUTES.iter().map(|r| r.title))
        .chain(std::iter::once("fewest"))
        .map(|t| format!("\"{t}\""))
        .collect();
    let json = format!(
        "{{\"functions\": {}, \"points_per_function\": {POINTS}, \"columns\": [{}], \"rows\": {{{}}}, \"ms\": [{}], \"time_ratio\": {ratio:.3}, \"time_ratio_strongest\": {strongest_ratio:.3}, \"functions_a_peer_wins\": {ahead_of_ours}, \"large_ms\": [{:.1}, {:.1}], \"long_block_ms\": [{:.1}, {:.1}], \"accepted\": {met}}}\n",
        PER_ROW * total,
        titles.join(", "),
        row_json.join(", "),
        figures
            .iter()
            .map(|f| format!("{:.1}", f.time.as_secs_f64() * 1e3))
            .collect::<Vec<_>>()
            .join(", "),
        large.ours.as_secs_f64() * 1e3,
        large.upstream.as_secs_f64() * 1e3,
        long_block.ours.as_secs_f64() * 1e3,
        long_block.upstream.as_secs_f64() * 1e3,
    );
    let json_path = out.join("mlir.json");
    fs::write(&json_path, json).with_context(|| format!("writing {}", json_path.display()))?;
    if !met {
        bail!(
            "acceptance not met: ours sound ({ours_sound}), never more left than upstream's strongest in a row (more in: {}) and fewer in all ({} vs {}), in at most 2x the time of affine-simplify-structures, canonicalize ({ratio:.2}x)",
            more.join("; "),
            ours[total].total(),
            strongest[total].total()
        );
    }
    println!(
        "acceptance met: ours sound, never more left than upstream's strongest in a row and fewer in all, in at most 2x the time"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_is_deterministic_and_has_every_family() {
        let module = generate(SEED);
        assert_eq!(module.text, generate(SEED).text);
        let functions = count_per_function(&module.text, DIVISIONS);
        assert_eq!(functions.len(), PER_ROW * rows().len());
        assert_eq!(module.domains.len(), functions.len());
        for r in 0..rows().len() {
            let n = functions.keys().filter(|k| row_of(k) == Some(r)).count();
            assert_eq!(n, PER_ROW, "row {r}");
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
            by_row(&counts)[rows().len()],
            Left {
                divisions: 2,
                decisions: 1
            }
        );
    }
}
