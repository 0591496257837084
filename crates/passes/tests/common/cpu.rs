//! Generated GPU kernels as a CPU program for `mlir-runner`: a test-only text transformation of
//! the kernels after `xla-indexing-lower-apply`.
//!
//! Each `gpu.func @k(...) kernel attributes {...}` becomes a `func.func @k` that takes the six
//! thread and block ids (`th_x, th_y, th_z, bl_x, bl_y, bl_z`) as extra `index` arguments in
//! place of the `gpu.thread_id` and `gpu.block_id` ops; `gpu.return` becomes `return` and the
//! `gpu.module` goes. `@main` allocates every buffer with the kernel's memref type (strided
//! layouts included, through `memref.reinterpret_cast` of a flat allocation), fills the inputs
//! with [`input_value`], and runs every kernel twice: each time it fills the outputs with a
//! different bit pattern (all zeros, then all ones), calls the kernel for every thread of the
//! grid and prints every output element's bits, in row-major order of its logical index. An
//! element that the kernel does not write differs between the two runs.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::hlo_eval::{Array, Ty, V, element_count};

/// One buffer argument of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// The memref type as the kernel declares it.
    pub memref: String,
    pub dims: Vec<i64>,
    /// The element's MLIR type (`f32`, `i1`, ...).
    pub element: String,
    /// Element strides (row-major ones when the type has no `strided` layout).
    pub strides: Vec<i64>,
}

/// One kernel, as a CPU function.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub symbol: String,
    pub block: [u64; 3],
    pub grid: [u64; 3],
    /// Inputs, then outputs.
    pub buffers: Vec<Buffer>,
    /// The `func.func` text.
    pub function: String,
}

/// A program: the kernels and `@main`.
#[derive(Clone, Debug)]
pub struct Program {
    pub kernels: Vec<Kernel>,
    /// Per kernel, how many of its buffers are inputs.
    pub inputs: Vec<usize>,
    pub text: String,
}

/// The value of element `n` (row-major linear number) of parameter `p` of type `ty`: a small
/// integer `v = (n * (2p + 3) + 7p + 1) mod (17 + 4p) - (17 + 4p) / 2`, negative for about half
/// of the elements; floats hold `v / 2` (exact in every float type), integers `v` wrapped to
/// the type, pred the parity of `v + (17 + 4p) / 2`.
pub fn input_value(p: usize, n: i64, ty: Ty) -> V {
    let (a, b, m) = formula(p);
    let h = (n * a + b) % m;
    let v = h - m / 2;
    match ty {
        Ty::Pred => V::P(h % 2 == 1),
        _ if ty.is_float() => V::F(v as f64 * 0.5),
        _ => ty.wrap_int(v as i128),
    }
}

/// The constants of [`input_value`] for parameter `p`.
fn formula(p: usize) -> (i64, i64, i64) {
    let p = p as i64;
    (2 * p + 3, 7 * p + 1, 17 + 4 * p)
}

/// The input array of parameter `p` with the given type and dimensions.
pub fn input_array(p: usize, ty: Ty, dims: &[i64]) -> Array {
    let n = element_count(dims) as i64;
    Array {
        ty,
        dims: dims.to_vec(),
        data: (0..n).map(|k| input_value(p, k, ty)).collect(),
    }
}

/// The memref type `memref<4x8xf32, strided<[1, 4]>>` as a [`Buffer`].
pub fn parse_memref(text: &str) -> Result<Buffer, String> {
    let inner = text
        .strip_prefix("memref<")
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| format!("not a memref type: {text}"))?;
    let (shape, layout) = match inner.split_once(", strided<") {
        Some((s, l)) => (s, Some(l)),
        None => (inner, None),
    };
    let mut parts: Vec<&str> = shape.split('x').collect();
    let element = parts.pop().unwrap_or_default().to_string();
    let dims = parts
        .iter()
        .map(|d| {
            d.parse::<i64>()
                .map_err(|_| format!("dimension {d} of {text}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let strides = match layout {
        None => row_major_strides(&dims),
        Some(l) => {
            let list = l
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix("]>"))
                .ok_or_else(|| format!("layout of {text} is not strided<[...]>"))?;
            list.split(", ")
                .map(|s| {
                    s.parse::<i64>()
                        .map_err(|_| format!("stride {s} of {text}"))
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    Ok(Buffer {
        memref: text.to_string(),
        dims,
        element,
        strides,
    })
}

pub fn row_major_strides(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * dims[k + 1];
    }
    strides
}

/// Splits `a, b<c, d>, e` at the commas outside brackets.
fn split_top_level(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '<' | '[' | '(' | '{' => depth += 1,
            '>' | ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// The three numbers of `key = [x, y, z]` in `text`.
fn sizes(text: &str, key: &str) -> Result<[u64; 3], String> {
    let start = text
        .find(&format!("{key} = ["))
        .ok_or_else(|| format!("no `{key} = [` in the launch attribute"))?
        + key.len()
        + 4;
    let end = start + text[start..].find(']').ok_or("unclosed launch sizes")?;
    let v: Vec<u64> = text[start..end]
        .split(", ")
        .map(|s| s.parse().map_err(|_| format!("launch size {s}")))
        .collect::<Result<_, _>>()?;
    v.try_into()
        .map_err(|_| format!("{key} does not have three sizes"))
}

/// The thread and block id ops, in the order of the extra arguments.
const IDS: [&str; 6] = [
    "gpu.thread_id  x",
    "gpu.thread_id  y",
    "gpu.thread_id  z",
    "gpu.block_id  x",
    "gpu.block_id  y",
    "gpu.block_id  z",
];

/// The kernels of `lowered` (the printed module after `xla-indexing-lower-apply`) as CPU
/// functions, and the module's attribute aliases that do not name our dialect.
pub fn kernels(lowered: &str) -> Result<(Vec<String>, Vec<Kernel>), String> {
    let lines: Vec<&str> = lowered.lines().collect();
    let mut aliases = Vec::new();
    let mut kernels = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        if line.starts_with('#') && !line.contains("xla_indexing") {
            aliases.push(line.to_string());
        }
        let trimmed = line.trim_start();
        if !trimmed.starts_with("gpu.func @") {
            k += 1;
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let open = trimmed.find('(').ok_or("gpu.func without arguments")?;
        let symbol = trimmed["gpu.func @".len()..open].to_string();
        let mut depth = 0;
        let mut close = None;
        for (i, c) in trimmed[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.ok_or("unclosed gpu.func arguments")?;
        let rest = &trimmed[close + 1..];
        if !rest.starts_with(" kernel attributes {xla_indexing.launch = ") {
            return Err(format!("unexpected gpu.func header: {trimmed}"));
        }
        let block = sizes(rest, "block")?;
        let grid = sizes(rest, "grid")?;
        let args = split_top_level(&trimmed[open + 1..close]);
        let mut buffers = Vec::new();
        for arg in &args {
            let (_, ty) = arg
                .split_once(": ")
                .ok_or_else(|| format!("argument {arg}"))?;
            buffers.push(parse_memref(ty)?);
        }
        let mut ids: [Option<String>; 6] = Default::default();
        let mut body = String::new();
        let end = format!("{indent}}}");
        k += 1;
        loop {
            let line = *lines
                .get(k)
                .ok_or_else(|| format!("unclosed gpu.func @{symbol}"))?;
            k += 1;
            if line == end {
                break;
            }
            let t = line.trim();
            if let Some((name, op)) = t.split_once(" = ")
                && let Some(slot) = IDS.iter().position(|id| *id == op)
            {
                ids[slot] = Some(name.to_string());
                continue;
            }
            if t == "gpu.return" {
                let _ = writeln!(
                    body,
                    "{}return",
                    &line[..line.len() - line.trim_start().len()]
                );
                continue;
            }
            if t.contains("gpu.") {
                return Err(format!(
                    "@{symbol} holds a gpu op the CPU program cannot run: {t}"
                ));
            }
            let _ = writeln!(body, "{line}");
        }
        let names = ["tx", "ty", "tz", "bx", "by", "bz"];
        let id_args: Vec<String> = ids
            .iter()
            .zip(names)
            .map(|(id, n)| {
                format!(
                    "{}: index",
                    id.clone().unwrap_or_else(|| format!("%unused_{n}"))
                )
            })
            .collect();
        let mut all_args = args.clone();
        all_args.extend(id_args);
        let function = format!(
            "  func.func @{symbol}({}) {{\n{body}  }}\n",
            all_args.join(", ")
        );
        kernels.push(Kernel {
            symbol,
            block,
            grid,
            buffers,
            function,
        });
    }
    Ok((aliases, kernels))
}

/// MLIR text of `@main`'s body, with fresh SSA names.
#[derive(Default)]
struct Main {
    text: String,
    next: usize,
    depth: usize,
}

impl Main {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%m{}", self.next)
    }

    fn line(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(
            self.text,
            "{:w$}{}",
            "",
            line.as_ref(),
            w = 2 * self.depth + 4
        );
    }

    fn op(&mut self, op: impl AsRef<str>) -> String {
        let name = self.fresh();
        self.line(format!("{name} = {}", op.as_ref()));
        name
    }

    fn index(&mut self, v: i64) -> String {
        self.op(format!("arith.constant {v} : index"))
    }

    /// Opens `scf.for` loops over `dims` and returns the induction variables and the row-major
    /// linear number of the index; close them with [`Main::close_loops`].
    fn open_loops(&mut self, dims: &[i64]) -> (Vec<String>, String) {
        let zero = self.index(0);
        let one = self.index(1);
        let mut ivs = Vec::new();
        let mut lin = zero.clone();
        for &d in dims {
            let bound = self.index(d);
            let iv = self.fresh();
            self.line(format!("scf.for {iv} = {zero} to {bound} step {one} {{"));
            self.depth += 1;
            let scaled = self.op(format!("arith.muli {lin}, {bound} : index"));
            lin = self.op(format!("arith.addi {scaled}, {iv} : index"));
            ivs.push(iv);
        }
        (ivs, lin)
    }

    fn close_loops(&mut self, n: usize) {
        for _ in 0..n {
            self.depth -= 1;
            self.line("}");
        }
    }
}

/// The width in bits of an MLIR scalar type.
fn width(element: &str) -> Result<u32, String> {
    match element {
        "i1" => Ok(1),
        "f16" | "bf16" => Ok(16),
        "f64" => Ok(64),
        e if e.starts_with('i') || e.starts_with('f') => {
            e[1..].parse().map_err(|_| format!("element type {e}"))
        }
        e => Err(format!("element type {e}")),
    }
}

/// The CPU program of `kernels` (from [`kernels`]) with `inputs[k]` input buffers for kernel
/// `k`.
pub fn program(
    aliases: &[String],
    kernels: Vec<Kernel>,
    inputs: Vec<usize>,
) -> Result<Program, String> {
    let mut text = String::new();
    for a in aliases {
        let _ = writeln!(text, "{a}");
    }
    text.push_str("module {\n");
    text.push_str("  func.func private @printI64(i64)\n  func.func private @printNewline()\n");
    for k in &kernels {
        text.push_str(&k.function);
    }
    let mut m = Main::default();
    for (kernel, &n_inputs) in kernels.iter().zip(&inputs) {
        m.line(format!("// {}", kernel.symbol));
        let mut views = Vec::new();
        let mut flats = Vec::new();
        for b in &kernel.buffers {
            let size = 1 + b
                .dims
                .iter()
                .zip(&b.strides)
                .map(|(d, s)| (d - 1) * s)
                .sum::<i64>();
            let flat_ty = format!("memref<{size}x{}>", b.element);
            let flat = m.op(format!("memref.alloc() : {flat_ty}"));
            let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            let view = m.op(format!(
                "memref.reinterpret_cast {flat} to offset: [0], sizes: [{}], strides: [{}] : {flat_ty} to {}",
                list(&b.dims),
                list(&b.strides),
                b.memref
            ));
            flats.push((flat, flat_ty));
            views.push(view);
        }
        for (p, (b, view)) in kernel.buffers.iter().zip(&views).take(n_inputs).enumerate() {
            fill_input(&mut m, p, b, view)?;
        }
        for pattern in [false, true] {
            for (b, view) in kernel.buffers.iter().zip(&views).skip(n_inputs) {
                fill_pattern(&mut m, b, view, pattern)?;
            }
            // The grid, z outermost, then the block.
            let zero = m.index(0);
            let one = m.index(1);
            let mut ivs = Vec::new();
            for &n in kernel.grid.iter().rev().chain(kernel.block.iter().rev()) {
                let bound = m.index(n as i64);
                let iv = m.fresh();
                m.line(format!("scf.for {iv} = {zero} to {bound} step {one} {{"));
                m.depth += 1;
                ivs.push(iv);
            }
            // ivs: bz, by, bx, tz, ty, tx.
            let ids = [&ivs[5], &ivs[4], &ivs[3], &ivs[2], &ivs[1], &ivs[0]];
            let args: Vec<&str> = views
                .iter()
                .map(String::as_str)
                .chain(ids.iter().map(|s| s.as_str()))
                .collect();
            let types: Vec<&str> = kernel
                .buffers
                .iter()
                .map(|b| b.memref.as_str())
                .chain(std::iter::repeat_n("index", 6))
                .collect();
            m.line(format!(
                "func.call @{}({}) : ({}) -> ()",
                kernel.symbol,
                args.join(", "),
                types.join(", ")
            ));
            m.close_loops(6);
            for (b, view) in kernel.buffers.iter().zip(&views).skip(n_inputs) {
                print_buffer(&mut m, b, view)?;
            }
        }
        for (flat, ty) in flats {
            m.line(format!("memref.dealloc {flat} : {ty}"));
        }
    }
    text.push_str("  func.func @main() {\n");
    text.push_str(&m.text);
    text.push_str("    return\n  }\n}\n");
    Ok(Program {
        kernels,
        inputs,
        text,
    })
}

/// Stores [`input_value`] of parameter `p` at every element of `view`.
fn fill_input(m: &mut Main, p: usize, b: &Buffer, view: &str) -> Result<(), String> {
    let (a, c, modulus) = formula(p);
    let (ivs, lin) = m.open_loops(&b.dims);
    let n = m.op(format!("arith.index_cast {lin} : index to i64"));
    let a = m.op(format!("arith.constant {a} : i64"));
    let c = m.op(format!("arith.constant {c} : i64"));
    let modulus_v = m.op(format!("arith.constant {modulus} : i64"));
    let half = m.op(format!("arith.constant {} : i64", modulus / 2));
    let t = m.op(format!("arith.muli {n}, {a} : i64"));
    let t = m.op(format!("arith.addi {t}, {c} : i64"));
    let h = m.op(format!("arith.remsi {t}, {modulus_v} : i64"));
    let v = m.op(format!("arith.subi {h}, {half} : i64"));
    let e = b.element.as_str();
    let value = match e {
        "i1" => m.op(format!("arith.trunci {h} : i64 to i1")),
        "i64" => v,
        _ if e.starts_with('i') => m.op(format!("arith.trunci {v} : i64 to {e}")),
        _ => {
            let f = m.op(format!("arith.sitofp {v} : i64 to f64"));
            let half = m.op("arith.constant 0.5 : f64");
            let f = m.op(format!("arith.mulf {f}, {half} : f64"));
            if e == "f64" {
                f
            } else {
                m.op(format!("arith.truncf {f} : f64 to {e}"))
            }
        }
    };
    m.line(format!(
        "memref.store {value}, {view}[{}] : {}",
        ivs.join(", "),
        b.memref
    ));
    m.close_loops(b.dims.len());
    Ok(())
}

/// Stores all-zero or all-one bits at every element of `view`.
fn fill_pattern(m: &mut Main, b: &Buffer, view: &str, ones: bool) -> Result<(), String> {
    let bits = width(&b.element)?;
    let int = format!("i{bits}");
    let raw = m.op(format!(
        "arith.constant {} : {int}",
        if ones { -1 } else { 0 }
    ));
    let value = if b.element.starts_with('i') {
        raw
    } else {
        m.op(format!("arith.bitcast {raw} : {int} to {}", b.element))
    };
    let (ivs, _) = m.open_loops(&b.dims);
    m.line(format!(
        "memref.store {value}, {view}[{}] : {}",
        ivs.join(", "),
        b.memref
    ));
    m.close_loops(b.dims.len());
    Ok(())
}

/// Prints the bits of every element of `view`, one per line, row-major.
fn print_buffer(m: &mut Main, b: &Buffer, view: &str) -> Result<(), String> {
    let bits = width(&b.element)?;
    let (ivs, _) = m.open_loops(&b.dims);
    let v = m.op(format!(
        "memref.load {view}[{}] : {}",
        ivs.join(", "),
        b.memref
    ));
    let int = format!("i{bits}");
    let v = if b.element.starts_with('i') {
        v
    } else {
        m.op(format!("arith.bitcast {v} : {} to {int}", b.element))
    };
    let v = if bits < 64 {
        m.op(format!("arith.extui {v} : {int} to i64"))
    } else {
        v
    };
    m.line(format!("func.call @printI64({v}) : (i64) -> ()"));
    m.line("func.call @printNewline() : () -> ()");
    m.close_loops(b.dims.len());
    Ok(())
}

/// The LLVM 22 tools the programs run with.
#[derive(Clone, Debug)]
pub struct Tools {
    pub mlir_opt: PathBuf,
    pub mlir_runner: PathBuf,
    pub runner_utils: PathBuf,
}

impl Tools {
    /// The tools under `/usr/lib/llvm-22`, or why they are missing.
    pub fn find() -> Result<Tools, String> {
        let root = Path::new("/usr/lib/llvm-22");
        let tools = Tools {
            mlir_opt: root.join("bin/mlir-opt"),
            mlir_runner: root.join("bin/mlir-runner"),
            runner_utils: root.join("lib/libmlir_c_runner_utils.so"),
        };
        for p in [&tools.mlir_opt, &tools.mlir_runner, &tools.runner_utils] {
            if !p.is_file() {
                return Err(format!("{} is absent", p.display()));
            }
        }
        Ok(tools)
    }
}

/// The pipeline that lowers a CPU program to the LLVM dialect; every memref access is checked
/// at run time to lie within its buffer (`generate-runtime-verification`).
pub const TO_LLVM: &str = "builtin.module(generate-runtime-verification, convert-math-to-llvm, \
     convert-math-to-libm, lower-affine, convert-scf-to-cf, expand-strided-metadata, \
     convert-to-llvm, reconcile-unrealized-casts)";

/// Lowers and runs `program` (files are kept under `dir`) and returns the numbers it printed.
pub fn run(tools: &Tools, program: &str, dir: &Path) -> Result<Vec<i64>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let source = dir.join("program.mlir");
    let llvm = dir.join("program.llvm.mlir");
    std::fs::write(&source, program).map_err(|e| format!("{}: {e}", source.display()))?;
    let opt = Command::new(&tools.mlir_opt)
        .arg(&source)
        .arg(format!("--pass-pipeline={TO_LLVM}"))
        .arg("-o")
        .arg(&llvm)
        .output()
        .map_err(|e| format!("mlir-opt: {e}"))?;
    if !opt.status.success() {
        return Err(format!(
            "mlir-opt failed on {}: {}",
            source.display(),
            String::from_utf8_lossy(&opt.stderr)
        ));
    }
    let run = Command::new(&tools.mlir_runner)
        .args(["-e", "main", "-entry-point-result=void"])
        .arg(format!("-shared-libs={}", tools.runner_utils.display()))
        .arg(&llvm)
        .output()
        .map_err(|e| format!("mlir-runner: {e}"))?;
    if !run.status.success() {
        return Err(format!(
            "mlir-runner failed ({}) on {}:\n{}",
            run.status,
            llvm.display(),
            failure_message(tools, &llvm, &run.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&run.stdout);
    stdout
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.trim()
                .parse::<i64>()
                .map_err(|_| format!("unexpected output line `{l}`"))
        })
        .collect()
}

/// Why a run failed: a failed runtime check (an access out of bounds) prints its message on
/// stdout, which the abort that follows does not flush, so the program runs again with stdout
/// line-buffered (`stdbuf -oL`) and the message is read from there; otherwise stderr's start.
fn failure_message(tools: &Tools, llvm: &Path, stderr: &[u8]) -> String {
    let rerun = Command::new("stdbuf")
        .arg("-oL")
        .arg(&tools.mlir_runner)
        .args(["-e", "main", "-entry-point-result=void"])
        .arg(format!("-shared-libs={}", tools.runner_utils.display()))
        .arg(llvm)
        .output();
    if let Ok(out) = rerun {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let message: Vec<&str> = stdout
            .lines()
            .skip_while(|l| !l.starts_with("ERROR"))
            .take(4)
            .collect();
        if !message.is_empty() {
            return message.join("\n");
        }
    }
    let stderr = String::from_utf8_lossy(stderr);
    stderr.lines().take(12).collect::<Vec<_>>().join("\n")
}
