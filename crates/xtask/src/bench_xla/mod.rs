//! `cargo xtask bench xla`: XLA's own CPU kernels, through XLA's pipeline and through ours.
//!
//! 1. Makes a venv `target/jaxenv` with Python 3.12 and the pinned JAX ([`JAX`]), and runs
//!    `bench/xla/programs.py` in it with XLA dumping every kernel to
//!    `target/bench-xla/dumps` (see [`dump`] for what the dump holds).
//! 2. For every kernel, XLA's side is its last MLIR stage: the IR before `LowerToLLVMCPUPass`,
//!    cut from the pass log. Ours is its IR before any pass (`*-pre-optimization.mlir`)
//!    through `xla-indexing opt` (which runs what `mlir-opt` with the plugin runs, and is
//!    where StableHLO's pretty form, which the tiled emitter's kernels hold, is read) and
//!    [`OURS`]: `xla-indexing-lower-xla`, then `canonicalize`, `cse` and `symbol-dce` (XLA's
//!    pipeline runs all three too; the last erases the functions no call is left to). Loops stay `scf.for` (the tiled emitter's `xtile.entry_func` holds one block,
//!    so `convert-scf-to-cf` cannot run on it); [`count`] counts each as the compare and the
//!    increment it becomes in `cf`, as on XLA's side.
//! 3. Counts, on both, divisions and remainders and index ops (see [`count`] for the exact
//!    definitions) and, after LLVM's `opt -O3`, LLVM's `udiv`, `sdiv`, `urem`, `srem`: XLA's
//!    from its `*.ir-no-opt.ll` (in LLVM 22's syntax, see [`llvm_text`]), ours lowered by
//!    [`TO_LLVM`] and `mlir-translate`.
//! 4. Checks that ours computes the same indices as XLA's, by running both on the same inputs
//!    over the kernel's whole domain (see [`eval`]). The checker is first tried on XLA's own
//!    pipeline: its last stage on tensors (before `LowerTensorsPass`) against its last stage,
//!    which must be the same; the summary gives what it found.
//!
//! The table groups the kernels of XLA's loop-family emitters (loop, concatenate, scatter,
//! dynamic-update-slice) and those of the tiled emitter. For a tiled kernel the index ops are
//! counted at two levels: XLA's last stage is its vector code, unrolled per tile, ours is still
//! a loop over tiles (`xtile` ops, which no upstream pass lowers, so it has no LLVM figure). The figures are measured in the run.
//! The bench fails when our pipeline fails on a kernel, when a check finds a difference, or
//! when the loop family's acceptance is not met: never more divisions and remainders than XLA
//! leaves, kernel by kernel, and strictly fewer in total. The counts need no optimized build,
//! so the debug build of `xla-indexing` is used. Writes both sides' IR under `target/bench-xla/{xla,ours}/` and
//! the figures to `target/bench-xla/xla.json`.

pub mod count;
pub mod dump;
pub mod eval;
pub mod ir;
pub mod llvm_text;
pub mod map;
pub mod tiles;

use std::{
    ffi::OsString,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use self::{
    count::{Counts, count_llvm, count_mlir},
    dump::Kernel,
    eval::Check,
};
use crate::run;

/// JAX and its XLA, pinned: the dump's spelling is XLA's of this version.
const JAX: &[&str] = &["jax==0.12.0.1", "jaxlib==0.12.0.1"];

const LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

/// What XLA dumps: every `jit_*` module, every emitter's kernels, with the IR before each pass.
const XLA_FLAGS: &str = "--xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.* --xla_dump_to=";

/// Our pipeline on a kernel's pre-optimization IR.
pub const OURS: &str = "builtin.module(xla-indexing-lower-xla, canonicalize, cse, symbol-dce)";

/// Ours the rest of the way to the LLVM dialect, with upstream's passes (`convert-to-llvm`
/// converts every dialect at one `index` width, the module's).
const TO_LLVM: &str = "builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, convert-scf-to-cf, expand-strided-metadata, convert-math-to-llvm, convert-math-to-libm, convert-to-llvm, reconcile-unrealized-casts)";

/// The most characters of a tool's message the report repeats.
const MESSAGE: usize = 240;

/// One kernel's figures.
struct Row {
    name: String,
    emitter: dump::Emitter,
    xla: Counts,
    /// Ours, or why our pipeline failed.
    ours: Result<Counts, String>,
    /// Divisions and remainders after `opt -O3`: XLA's and ours (`None` where a side could not
    /// be lowered or has no LLVM IR).
    llvm: (Option<usize>, Option<usize>),
    check: Check,
    /// The checker on XLA's last stage on tensors against its last stage, where it has one.
    self_check: Option<Check>,
}

/// Runs the benchmark.
pub fn bench(root: &Path, target: &Path) -> Result<()> {
    let tool = |name: &str| -> Result<PathBuf> {
        let path = Path::new(LLVM_BIN).join(name);
        if !path.exists() {
            bail!("{} is missing: run `cargo xtask setup`", path.display());
        }
        Ok(path)
    };
    let tools = Tools {
        xla_indexing: target.join("debug/xla-indexing"),
        mlir_translate: tool("mlir-translate")?,
        opt: tool("opt")?,
    };
    let python =
        crate::bench::install_pinned(&python312()?, &target.join("jaxenv"), JAX, "jax.txt")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run::checked(
        Command::new(&cargo)
            .current_dir(root)
            .args(["build", "-p", "xla-indexing-cli"]),
    )?;

    let out = target.join("bench-xla");
    let dumps = out.join("dumps");
    for dir in [&dumps, &out.join("xla"), &out.join("ours")] {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
        }
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut flags = OsString::from(XLA_FLAGS);
    flags.push(&dumps);
    run::checked(
        Command::new(&python)
            .arg(root.join("bench/xla/programs.py"))
            .env("XLA_FLAGS", flags)
            .env("JAX_PLATFORMS", "cpu"),
    )?;

    let kernels = dump::kernels(&dumps)?;
    eprintln!("xtask: {} kernels in {}", kernels.len(), dumps.display());
    let rows = kernels
        .iter()
        .map(|kernel| measure(kernel, &tools, &out))
        .collect::<Result<Vec<_>>>()?;
    report(&rows, &out)
}

/// A Python 3.12: `python3.12` on the PATH, else pyenv's.
fn python312() -> Result<OsString> {
    if run::output("python3.12", ["--version"]).is_some() {
        return Ok("python3.12".into());
    }
    let home = std::env::var_os("HOME").context("no Python 3.12 on the PATH and no HOME")?;
    let versions = Path::new(&home).join(".pyenv/versions");
    let mut found: Vec<PathBuf> = fs::read_dir(&versions)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("3.12"))
        .map(|e| e.path().join("bin/python3.12"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found
        .pop()
        .map(PathBuf::into_os_string)
        .context("JAX 0.12 needs Python 3.12: none on the PATH nor in ~/.pyenv/versions")
}

/// The tools a kernel goes through.
struct Tools {
    xla_indexing: PathBuf,
    mlir_translate: PathBuf,
    opt: PathBuf,
}

impl Tools {
    /// `xla-indexing opt` with `pipeline` on the file `input`: its output, or its diagnostics.
    /// Ops of dialects it does not know (StableHLO's, in generic form) are let through.
    fn xla_indexing_opt(&self, input: &Path, pipeline: &str) -> Result<String, String> {
        let mut command = Command::new(&self.xla_indexing);
        command
            .args(["opt", "--allow-unregistered-dialect"])
            .arg(format!("--pass-pipeline={pipeline}"))
            .arg(input);
        output(&mut command)
    }

    /// XLA's or our LLVM IR file `ll` through `opt -O3`: its divisions and remainders.
    fn llvm_divisions(&self, ll: &Path) -> Result<usize, String> {
        let optimized = output(Command::new(&self.opt).args(["-O3", "-S"]).arg(ll))?;
        Ok(count_llvm(&optimized))
    }

    /// Our output `mlir` (a file) to LLVM IR, written to `ll`.
    fn to_llvm_ir(&self, mlir: &Path, ll: &Path) -> Result<(), String> {
        let lowered = self.xla_indexing_opt(mlir, TO_LLVM)?;
        let lowered_path = ll.with_extension("llvm.mlir");
        fs::write(&lowered_path, lowered).map_err(|e| e.to_string())?;
        let ir = output(
            Command::new(&self.mlir_translate)
                // Only XLA's discardable attributes (`xla.backend_kind` and the like) are left
                // of its dialect; the translation drops them.
                .arg("--allow-unregistered-dialect")
                .arg("--mlir-to-llvmir")
                .arg(&lowered_path),
        )?;
        fs::write(ll, ir).map_err(|e| e.to_string())
    }
}

/// Runs `command`: its stdout if it succeeds, else its stderr's first lines.
fn output(command: &mut Command) -> Result<String, String> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", run::describe(command)))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("").trim();
    let first: String = first.chars().take(MESSAGE).collect();
    Err(format!("{first} ({})", out.status))
}

/// One kernel through both pipelines, counted and checked.
fn measure(kernel: &Kernel, tools: &Tools, out: &Path) -> Result<Row> {
    let file = |dir: &str, ext: &str| out.join(dir).join(format!("{}.{ext}", kernel.name));
    let xla_path = file("xla", "mlir");
    fs::write(&xla_path, &kernel.last_stage)
        .with_context(|| format!("writing {}", xla_path.display()))?;
    let xla = count_mlir(&kernel.last_stage);
    let xla_llvm = match &kernel.llvm_no_opt {
        Some(ll) => {
            let text =
                fs::read_to_string(ll).with_context(|| format!("reading {}", ll.display()))?;
            let legacy = file("xla", "ll");
            fs::write(&legacy, llvm_text::for_llvm22(&text))
                .with_context(|| format!("writing {}", legacy.display()))?;
            let count = tools.llvm_divisions(&legacy);
            if let Err(e) = &count {
                eprintln!("xtask: {}: XLA's LLVM IR through opt: {e}", kernel.name);
            }
            count.ok()
        }
        None => None,
    };
    let emitted = fs::read_to_string(&kernel.pre_optimization)
        .with_context(|| format!("reading {}", kernel.pre_optimization.display()))?;
    let ours_text = tools.xla_indexing_opt(&kernel.pre_optimization, OURS);
    let (ours, ours_llvm, check) = match ours_text {
        Ok(text) => {
            let ours_path = file("ours", "mlir");
            fs::write(&ours_path, &text)
                .with_context(|| format!("writing {}", ours_path.display()))?;
            let ll = file("ours", "ll");
            let llvm = tools
                .to_llvm_ir(&ours_path, &ll)
                .and_then(|()| tools.llvm_divisions(&ll));
            if let Err(e) = &llvm {
                eprintln!("xtask: {}: ours to LLVM: {e}", kernel.name);
            }
            let check = eval::compare(&kernel.last_stage, &text, &emitted);
            (Ok(count_mlir(&text)), llvm.ok(), check)
        }
        Err(e) => (Err(e), None, Check::Unchecked("our pipeline failed".into())),
    };
    let self_check = kernel
        .tensor_stage
        .as_deref()
        .map(|tensors| eval::compare(&kernel.last_stage, tensors, &emitted));
    Ok(Row {
        self_check,
        name: kernel.name.clone(),
        emitter: kernel.emitter.clone(),
        xla,
        ours,
        llvm: (xla_llvm, ours_llvm),
        check,
    })
}

/// A table group: its title and whether a kernel of an emitter belongs.
type Group = (&'static str, fn(&dump::Emitter) -> bool);

/// The two groups of the table.
const GROUPS: [Group; 2] = [
    ("loop, concatenate, scatter, dynamic-update-slice", |e| {
        !e.is_tiled()
    }),
    ("tiled", dump::Emitter::is_tiled),
];

/// A group's sums.
#[derive(Default)]
struct Totals {
    kernels: usize,
    /// XLA's counts over every kernel.
    xla: Counts,
    /// Kernels our pipeline ran on, and XLA's and our counts over them.
    ran: usize,
    xla_ran: Counts,
    ours: Counts,
    /// Kernels with a division or remainder left: XLA's (of all), ours (of those it ran on).
    with_divisions: (usize, usize),
    /// Divisions and remainders after `opt -O3` over the kernels both sides have figures for,
    /// and how many those are.
    llvm: (usize, usize),
    llvm_kernels: usize,
    /// XLA's after `opt -O3` over every kernel it has figures for, and how many those are.
    llvm_xla: (usize, usize),
    /// Kernels where ours leaves more divisions and remainders than XLA.
    ours_more: usize,
    /// Checks of ours: same, differ, unchecked.
    checks: [usize; 3],
    /// The checker on XLA's own stages: same, differ, unchecked.
    self_checks: [usize; 3],
}

/// The slot of a check's outcome in a `[same, differ, unchecked]` count.
fn slot(check: &Check) -> usize {
    match check {
        Check::Same { .. } => 0,
        Check::Differs(_) => 1,
        Check::Unchecked(_) => 2,
    }
}

impl Totals {
    /// Whether ours ran on every kernel, never leaves more divisions and remainders than XLA,
    /// and leaves strictly fewer in all.
    fn accepted(&self) -> bool {
        self.ran == self.kernels && self.ours_more == 0 && self.ours.divisions < self.xla.divisions
    }

    fn add(&mut self, row: &Row) {
        self.kernels += 1;
        self.xla += row.xla;
        self.with_divisions.0 += usize::from(row.xla.divisions > 0);
        if let Ok(ours) = &row.ours {
            self.ran += 1;
            self.xla_ran += row.xla;
            self.ours += *ours;
            self.with_divisions.1 += usize::from(ours.divisions > 0);
            self.ours_more += usize::from(ours.divisions > row.xla.divisions);
        }
        if let Some(x) = row.llvm.0 {
            self.llvm_xla.0 += x;
            self.llvm_xla.1 += 1;
            if let Some(o) = row.llvm.1 {
                self.llvm.0 += x;
                self.llvm.1 += o;
                self.llvm_kernels += 1;
            }
        }
        self.checks[slot(&row.check)] += 1;
        if let Some(check) = &row.self_check {
            self.self_checks[slot(check)] += 1;
        }
    }
}

/// Prints the table, writes the JSON, and fails on a failure of ours, a difference or an
/// unmet acceptance.
fn report(rows: &[Row], out: &Path) -> Result<()> {
    let opt = |v: Option<usize>| v.map_or("-".to_owned(), |v| v.to_string());
    let mut totals: Vec<Totals> = Vec::new();
    let mut json_rows = Vec::new();
    for (title, belongs) in GROUPS {
        println!("\n{title}");
        println!(
            "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7}  check",
            "kernel", "emitter", "div XLA", "ours", "idx XLA", "ours", "O3 XLA", "ours"
        );
        let mut sums = Totals::default();
        for row in rows.iter().filter(|r| belongs(&r.emitter)) {
            sums.add(row);
            let (div, idx) = match &row.ours {
                Ok(c) => (c.divisions.to_string(), c.index_ops.to_string()),
                Err(_) => ("failed".to_owned(), "failed".to_owned()),
            };
            println!(
                "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7}  {}",
                row.name,
                row.emitter.to_string(),
                row.xla.divisions,
                div,
                row.xla.index_ops,
                idx,
                opt(row.llvm.0),
                opt(row.llvm.1),
                row.check
            );
            json_rows.push(json_row(row));
        }
        println!(
            "{:<62} {:<20} {:>7} {:>7} {:>8} {:>8} {:>7} {:>7}",
            format!("total ({} kernels)", sums.kernels),
            "",
            sums.xla.divisions,
            if sums.ran == sums.kernels {
                sums.ours.divisions.to_string()
            } else {
                "-".into()
            },
            sums.xla.index_ops,
            if sums.ran == sums.kernels {
                sums.ours.index_ops.to_string()
            } else {
                "-".into()
            },
            sums.llvm_xla.0,
            if sums.llvm_kernels == sums.kernels {
                sums.llvm.1.to_string()
            } else {
                "-".into()
            },
        );
        println!(
            "divisions and remainders: XLA {} in {} of {} kernels; ours ran on {} kernels, where XLA leaves {} and ours {} (in {} kernels); index ops there: XLA {}, ours {}",
            sums.xla.divisions,
            sums.with_divisions.0,
            sums.kernels,
            sums.ran,
            sums.xla_ran.divisions,
            sums.ours.divisions,
            sums.with_divisions.1,
            sums.xla_ran.index_ops,
            sums.ours.index_ops,
        );
        println!(
            "after opt -O3: XLA {} on the {} kernels with LLVM IR; on the {} kernels both sides reach: XLA {}, ours {}",
            sums.llvm_xla.0, sums.llvm_xla.1, sums.llvm_kernels, sums.llvm.0, sums.llvm.1
        );
        let [same, differ, unchecked] = sums.checks;
        println!(
            "checks of ours against XLA's: {same} same, {differ} differ, {unchecked} unchecked"
        );
        let [same, differ, unchecked] = sums.self_checks;
        if same + differ + unchecked > 0 {
            println!(
                "the checker on XLA's own pipeline (before LowerTensorsPass against its last stage): {same} same, {differ} differ, {unchecked} unchecked"
            );
        }
        totals.push(sums);
    }
    for row in rows {
        if let Some(check @ (Check::Differs(_) | Check::Unchecked(_))) = &row.self_check {
            println!("{}: the checker on XLA's own stages: {check}", row.name);
        }
    }
    let reasons: Vec<String> = rows
        .iter()
        .filter_map(|r| match (&r.ours, &r.check) {
            (Err(e), _) => Some(format!("{}: our pipeline failed: {e}", r.name)),
            (_, Check::Differs(why)) => Some(format!("{}: differs: {why}", r.name)),
            _ => match &r.self_check {
                Some(Check::Differs(why)) => Some(format!(
                    "{}: the checker finds XLA's own stages differ: {why}",
                    r.name
                )),
                _ => None,
            },
        })
        .collect();
    let json = format!(
        "{{\"pipeline\": \"{}\", \"kernels\": [\n{}\n]}}\n",
        OURS,
        json_rows.join(",\n")
    );
    let json_path = out.join("xla.json");
    fs::write(&json_path, json).with_context(|| format!("writing {}", json_path.display()))?;
    let more = |tiled: bool| -> Vec<&str> {
        rows.iter()
            .filter(|r| r.emitter.is_tiled() == tiled)
            .filter(|r| matches!(&r.ours, Ok(o) if o.divisions > r.xla.divisions))
            .map(|r| r.name.as_str())
            .collect()
    };
    for (k, (title, tiled)) in [("acceptance (loop family)", false), ("goal (tiled)", true)]
        .into_iter()
        .enumerate()
    {
        let group = &totals[k];
        println!(
            "{title}: {} (ours ran on {} of {} kernels, {} divisions and remainders against XLA's {} there; kernels where ours leaves more: {})",
            if group.accepted() { "met" } else { "not met" },
            group.ran,
            group.kernels,
            group.ours.divisions,
            group.xla_ran.divisions,
            if more(tiled).is_empty() {
                "none".to_owned()
            } else {
                more(tiled).join(", ")
            }
        );
    }
    let mut verdict = String::new();
    for reason in reasons.iter().take(20) {
        let _ = writeln!(verdict, "  {reason}");
    }
    if !reasons.is_empty() {
        bail!(
            "{} kernels failed or differ{}:\n{verdict}",
            reasons.len(),
            if reasons.len() > 20 {
                " (the first 20)"
            } else {
                ""
            }
        );
    }
    if !totals[0].accepted() {
        bail!("acceptance not met (loop family)");
    }
    Ok(())
}

/// A row as a JSON object.
fn json_row(row: &Row) -> String {
    let opt = |v: Option<usize>| v.map_or("null".to_owned(), |v| v.to_string());
    let (div, idx) = match &row.ours {
        Ok(c) => (c.divisions.to_string(), c.index_ops.to_string()),
        Err(_) => ("null".to_owned(), "null".to_owned()),
    };
    format!(
        "  {{\"kernel\": \"{}\", \"emitter\": \"{}\", \"divisions\": [{}, {div}], \"index_ops\": [{}, {idx}], \"llvm_divisions\": [{}, {}], \"check\": \"{}\"}}",
        row.name,
        row.emitter,
        row.xla.divisions,
        row.xla.index_ops,
        opt(row.llvm.0),
        opt(row.llvm.1),
        row.check.to_string().replace(['"', '\\'], "'")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(xla: usize, ours: Option<usize>) -> Row {
        let counts = |divisions| Counts {
            divisions,
            index_ops: 10,
        };
        Row {
            name: "p.k".into(),
            emitter: dump::Emitter::Loop,
            xla: counts(xla),
            ours: ours.map(counts).ok_or_else(|| "failed".to_owned()),
            llvm: (Some(xla), ours),
            check: Check::Same { elements: 1 },
            self_check: None,
        }
    }

    fn totals(rows: &[Row]) -> Totals {
        let mut totals = Totals::default();
        for row in rows {
            totals.add(row);
        }
        totals
    }

    #[test]
    fn acceptance_is_kernel_by_kernel_and_strict_in_total() {
        assert!(totals(&[row(2, Some(1)), row(0, Some(0))]).accepted());
        // Equal in total is not enough.
        assert!(!totals(&[row(2, Some(2)), row(0, Some(0))]).accepted());
        // One kernel with more fails, whatever the total.
        assert!(!totals(&[row(4, Some(1)), row(0, Some(1))]).accepted());
        // A kernel ours does not reach fails.
        assert!(!totals(&[row(4, Some(1)), row(1, None)]).accepted());
    }

    #[test]
    fn totals_keep_both_sides_apart() {
        let t = totals(&[row(4, Some(1)), row(3, None)]);
        assert_eq!((t.kernels, t.ran), (2, 1));
        assert_eq!(
            (t.xla.divisions, t.xla_ran.divisions, t.ours.divisions),
            (7, 4, 1)
        );
        assert_eq!(t.with_divisions, (2, 1));
        assert_eq!((t.llvm, t.llvm_kernels, t.llvm_xla), ((4, 1), 1, (7, 2)));
    }
}
