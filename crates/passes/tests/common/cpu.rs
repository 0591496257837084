//! Generated GPU kernels as a CPU program for `mlir-runner`: a test-only text transformation of
//! the kernels after `xla-indexing-lower-apply`.
//!
//! A kernel is split into phases at its top-level `gpu.barrier` and `gpu.shuffle` ops (one
//! inside a region is an error). Phase `p` of each `gpu.func @k(...) workgroup(...) kernel
//! attributes {...}` becomes a `func.func @k_phase<p>` that takes the kernel's buffers, its
//! workgroup attributions (without their address space), the per-block buffers that carry
//! values between phases and the six thread and block ids (`th_x, th_y, th_z, bl_x, bl_y,
//! bl_z`) as `index` arguments in place of the `gpu.thread_id` and `gpu.block_id` ops;
//! `gpu.return` becomes `return` and the `gpu.module` goes. A value that a phase defines at the
//! top level and a later phase uses is stored at the end of its phase to a buffer with one
//! element per thread of a block (indexed by its linear number `tx + ty * bdx + tz * bdx * bdy`)
//! and loaded at the start of the later phase; a memref (a view) is defined again by its op
//! instead. The types come from `mlir-opt`'s generic form of the kernels. A shuffle ends the
//! phase before it with every thread storing its operand to a buffer of its own; the phase it
//! opens starts with every thread loading the element of its source lane (CUDA's `shfl.sync`
//! on a full warp of 32 lanes, in segments of `width` lanes), or its own where the source lies
//! outside its segment, which is then not valid.
//!
//! `@main` allocates every buffer with the kernel's memref type (strided layouts included,
//! through `memref.reinterpret_cast` of a flat allocation), fills the inputs with
//! [`input_value`], and runs every kernel twice: each time it fills the outputs with a
//! different bit pattern (all zeros, then all ones), except the outputs that the caller says
//! start as a copy of an input (a scatter's output, whose buffer XLA shares with its operand),
//! which it copies from that input instead, runs every block of the grid in turn (its
//! workgroup memory filled with all ones, NaNs, first, so that reading what no thread wrote shows)
//! and in each block every phase for every thread of the block before the next phase, and prints
//! every output element's bits, in row-major order of its logical index. An element that the
//! kernel does not write differs between the two runs, except in an output copied from an input
//! (where it keeps the input's value). A kernel without barriers and shuffles is one phase: one
//! call per thread of the grid.
//!
//! Every `vector.load` and `vector.store` (which `generate-runtime-verification` does not check)
//! is preceded by checks of its own: its offset is a multiple of the alignment it claims (in
//! elements; the flat views start at their buffer, whose start the GPU aligns) and the vector
//! lies within the view ([`vector_checks`]).
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::hlo_eval::{Array, Ty, V, element_count, from_bits};
use super::runner;

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
    /// Whether the elements (of `element`, narrower than a byte) are packed two to a byte of
    /// the memref, a flat `memref<Kxi8>`, in the order of `strides`: element `n` of the
    /// layout in the low bits of byte `n / 2` when `n` is even, the high bits when odd.
    pub packed: bool,
    /// Whether the `i8` elements are `pred`s, each the byte 0 or 1 (as XLA stores them).
    pub pred: bool,
    /// For the bytes of a dynamic array (`memref<Kxi8>`), what they hold.
    pub dynamic: Option<Box<Dynamic>>,
}

/// The bytes of a dynamic array as XLA lays them out: the dense elements of its sizes from
/// the start (the rest of the bound shape's bytes unspecified), then one `i32` per dimension,
/// its size, at `sizes_offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dynamic {
    /// The dense elements: a one-dimensional buffer of the sizes' element count.
    pub dense: Buffer,
    pub sizes: Vec<i64>,
    pub sizes_offset: i64,
}

/// The sizes the checks give dynamic dimensions of bounds `dims` (`dynamic` says which are):
/// about two thirds of the bound, at least 1, so that a kernel sees both elements within the
/// sizes and padding.
pub fn dynamic_sizes(dims: &[i64], dynamic: &[bool]) -> Vec<i64> {
    dims.iter()
        .zip(dynamic)
        .map(|(&d, &dyn_dim)| {
            if dyn_dim {
                (d - d / 3 - 1).max(1).min(d)
            } else {
                d
            }
        })
        .collect()
}

impl Buffer {
    /// The packed buffer of `element`s (`i4`) of `dims` in the layout of `strides`, whose
    /// memref is `memref`.
    pub fn packed(memref: &str, dims: &[i64], element: &str, strides: Vec<i64>) -> Buffer {
        Buffer {
            memref: memref.to_string(),
            dims: dims.to_vec(),
            element: element.to_string(),
            strides,
            packed: true,
            pred: false,
            dynamic: None,
        }
    }

    /// The float type of the parts of a complex element (`f32` of `complex<f32>`).
    pub fn complex_part(&self) -> Option<&str> {
        self.element
            .strip_prefix("complex<")
            .and_then(|e| e.strip_suffix('>'))
    }
}

/// One kernel, as a CPU function.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub symbol: String,
    pub block: [u64; 3],
    pub grid: [u64; 3],
    /// Inputs, then outputs.
    pub buffers: Vec<Buffer>,
    /// The workgroup attributions (without their address space).
    pub workgroup: Vec<Buffer>,
    /// The types of the per-block buffers that carry values between phases, one element per
    /// thread.
    pub carries: Vec<String>,
    /// How many phases the barriers and shuffles split the kernel into.
    pub phases: usize,
    /// The `func.func` text of every phase ([`phase_symbol`]).
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
/// the type, pred the parity of `v + (17 + 4p) / 2`; complex numbers hold `v / 2` in their real
/// part and in their imaginary part the real part's value for parameter `p + COMPLEX_SHIFT`.
pub fn input_value(p: usize, n: i64, ty: Ty) -> V {
    let (a, b, m) = formula(p);
    let h = (n * a + b) % m;
    let v = h - m / 2;
    match ty {
        Ty::Pred => V::P(h % 2 == 1),
        // Stored as `i8` like `s8`, or packed as `s4`: the code is the byte or the nibble.
        Ty::F8(f8) => V::F(f8.decode(v as i8 as u8)),
        Ty::F4 => from_bits(ty, (v as u64) & 15),
        _ if ty.is_complex() => V::C(
            input_value(p, n, ty.part()).float(),
            input_value(p + COMPLEX_SHIFT, n, ty.part()).float(),
        ),
        _ if ty.is_float() => V::F(v as f64 * 0.5),
        _ => ty.wrap_int(v as i128),
    }
}

/// How far the parameter whose values a complex parameter's imaginary parts take is from it.
const COMPLEX_SHIFT: usize = 8;

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
    // The dimensions are the leading `Nx`; the element type (`complex<f32>`) may hold an `x`.
    let mut parts: Vec<&str> = Vec::new();
    let mut element = shape;
    while let Some((d, rest)) = element.split_once('x')
        && !d.is_empty()
        && d.bytes().all(|b| b.is_ascii_digit())
    {
        parts.push(d);
        element = rest;
    }
    let element = element.to_string();
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
        packed: false,
        pred: false,
        dynamic: None,
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

/// The lanes of a warp.
const WARP: u64 = 32;

/// The address space of workgroup attributions, which the CPU program's types go without.
const WORKGROUP: &str = ", #gpu.address_space<workgroup>";

/// Where a lane of a `gpu.shuffle` reads from, in its segment of `width` lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Lane `l ^ offset`.
    Xor,
    /// Lane `l + offset`.
    Down,
    /// Lane `l - offset`.
    Up,
    /// Lane `offset`.
    Idx,
}

/// A `gpu.shuffle` at the top level of a kernel.
#[derive(Clone, Debug)]
struct Shuffle {
    mode: Mode,
    value: String,
    offset: String,
    width: String,
    /// The value read, as its uses spell it.
    result: String,
    /// Whether the source lane lies in the segment, as its uses spell it.
    valid: String,
    /// The type of the value.
    ty: String,
}

/// An op at the top level of a kernel's body.
struct TopOp {
    /// Its lines, each ending with a newline, with the checks of its vector accesses.
    text: String,
    /// Its results as their uses spell them (`%5`, `%7#1`), with their types where the kernel
    /// synchronizes (from [`result_types`]), else empty strings.
    results: Vec<(String, String)>,
}

/// The ops between two synchronizations (a barrier or a shuffle): the CPU program runs a phase
/// for every thread of a block before it runs the next one.
#[derive(Default)]
struct Phase {
    /// The shuffle that opens the phase: each thread reads what its source lane stored at the
    /// end of the phase before.
    shuffle: Option<Shuffle>,
    ops: Vec<TopOp>,
}

/// Where a value defined at the top level of a kernel comes from.
struct Def {
    phase: usize,
    /// The op of the phase that defines it; `None` for the phase's shuffle.
    op: Option<usize>,
    ty: String,
}

/// What a phase takes from the phases before it.
#[derive(Default)]
struct Carry {
    /// The values it loads from the buffers their phase stored them to.
    reloads: Vec<String>,
    /// The ops, as (phase, op), that it runs again (those that define memrefs, which are
    /// views and cannot be stored), in program order.
    rematerialized: BTreeSet<(usize, usize)>,
}

/// The header of a `gpu.func`.
struct Header {
    symbol: String,
    block: [u64; 3],
    grid: [u64; 3],
    /// The arguments as written (`%arg0: memref<4xf32>`).
    args: Vec<String>,
    buffers: Vec<Buffer>,
    /// The workgroup attributions: their names and types without the address space.
    workgroup: Vec<(String, Buffer)>,
}

/// The position of the parenthesis that closes the one at `open` in `text`.
fn closing_paren(text: &str, open: usize) -> Result<usize, String> {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(open + i);
                }
            }
            _ => {}
        }
    }
    Err(format!("unclosed parenthesis in {text}"))
}

impl Header {
    /// Parses `gpu.func @k(%arg0: memref<...>, ...) workgroup(%arg2 : memref<...>) kernel
    /// attributes {xla_indexing.launch = ...} {` (the workgroup attributions are optional).
    fn parse(line: &str) -> Result<Header, String> {
        let open = line.find('(').ok_or("gpu.func without arguments")?;
        let symbol = line["gpu.func @".len()..open].to_string();
        let close = closing_paren(line, open)?;
        let args = split_top_level(&line[open + 1..close]);
        let buffers = args
            .iter()
            .map(|arg| {
                let (_, ty) = arg
                    .split_once(": ")
                    .ok_or_else(|| format!("argument {arg}"))?;
                parse_memref(ty)
            })
            .collect::<Result<_, _>>()?;
        let mut rest = &line[close + 1..];
        let mut workgroup = Vec::new();
        if rest.starts_with(" workgroup(") {
            let open = " workgroup".len();
            let close = closing_paren(rest, open)?;
            for attribution in split_top_level(&rest[open + 1..close]) {
                let (name, ty) = attribution
                    .split_once(':')
                    .ok_or_else(|| format!("workgroup attribution {attribution}"))?;
                let ty = ty.trim().replace(WORKGROUP, "");
                workgroup.push((name.trim().to_string(), parse_memref(&ty)?));
            }
            rest = &rest[close + 1..];
        }
        if !rest.starts_with(" kernel attributes {xla_indexing.launch = ") {
            return Err(format!("unexpected gpu.func header: {line}"));
        }
        Ok(Header {
            symbol,
            block: sizes(rest, "block")?,
            grid: sizes(rest, "grid")?,
            args,
            buffers,
            workgroup,
        })
    }
}

/// How much `line` opens braces: `{` count minus `}` count outside string literals.
fn brace_delta(line: &str) -> i64 {
    let mut delta = 0;
    let mut quoted = false;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '{' if !quoted => delta += 1,
            '}' if !quoted => delta -= 1,
            _ => {}
        }
    }
    delta
}

/// Groups the lines of a region's body into its ops: an op runs from a line at the body's
/// brace depth to the line that closes its regions. Block labels (`^bb0(...):`) are left out.
fn group_ops<'a>(lines: &[&'a str]) -> Result<Vec<Vec<&'a str>>, String> {
    let mut ops: Vec<Vec<&str>> = Vec::new();
    let mut depth = 0;
    for &line in lines {
        match ops.last_mut() {
            Some(op) if depth > 0 => op.push(line),
            _ if line.trim_start().starts_with('^') => continue,
            _ => ops.push(vec![line]),
        }
        depth += brace_delta(line);
        if depth < 0 {
            return Err(format!("unbalanced braces at `{line}`"));
        }
    }
    Ok(ops)
}

/// The SSA values `text` names (`%5`, `%7#1`, `%arg0`), in order, repeats included.
fn ssa_names(text: &str) -> Vec<String> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || "_$.-".contains(c);
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        let after = &rest[at + 1..];
        let mut end = after.find(|c| !is_name(c)).unwrap_or(after.len());
        if after[end..].starts_with('#') {
            let digits = after[end + 1..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len() - end - 1);
            end += 1 + digits;
        }
        names.push(format!("%{}", &after[..end]));
        rest = &after[end..];
    }
    names
}

/// `text` with every SSA value named in `renames` renamed.
fn rename_values(text: &str, renames: &HashMap<String, String>) -> String {
    if renames.is_empty() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut rest = text;
    for name in ssa_names(text) {
        let at = rest.find(&name).unwrap_or_default();
        out.push_str(&rest[..at]);
        out.push_str(renames.get(&name).unwrap_or(&name));
        rest = &rest[at + name.len()..];
    }
    out.push_str(rest);
    out
}

/// The name under which the CPU program defines the value `name` again (a reload or a
/// shuffle's result): `name` itself, except for one result of several (`%7#1`), which
/// becomes `%cpu_7_1`.
fn def_name(name: &str) -> String {
    match name.split_once('#') {
        Some((base, k)) => format!("%cpu_{}_{k}", &base[1..]),
        None => name.to_string(),
    }
}

/// The results of the op whose first line is `line`, as their uses spell them: `%a, %b:2 =
/// ...` gives `%a`, `%b#0`, `%b#1`.
fn result_names(line: &str) -> Result<Vec<String>, String> {
    let t = line.trim();
    if !t.starts_with('%') {
        return Ok(Vec::new());
    }
    let (names, _) = t
        .split_once(" = ")
        .ok_or_else(|| format!("results of `{t}`"))?;
    let mut out = Vec::new();
    for name in names.split(", ") {
        match name.split_once(':') {
            Some((base, n)) => {
                let n: usize = n.parse().map_err(|_| format!("results of `{t}`"))?;
                out.extend((0..n).map(|k| format!("{base}#{k}")));
            }
            None => out.push(name.to_string()),
        }
    }
    Ok(out)
}

/// The top-level `gpu.shuffle` `line` (`%r, %valid = gpu.shuffle  xor %v, %offset, %width :
/// f32`) with its results.
fn parse_shuffle(line: &str, results: &[(String, String)]) -> Result<Shuffle, String> {
    let (_, op) = line
        .split_once("gpu.shuffle")
        .ok_or_else(|| format!("not a shuffle: {line}"))?;
    let (operands, _) = op
        .rsplit_once(" : ")
        .ok_or_else(|| format!("shuffle without a type: {line}"))?;
    let operands = operands.trim();
    let (mode, operands) = operands
        .split_once(' ')
        .ok_or_else(|| format!("shuffle without operands: {line}"))?;
    let mode = match mode {
        "xor" => Mode::Xor,
        "down" => Mode::Down,
        "up" => Mode::Up,
        "idx" => Mode::Idx,
        other => return Err(format!("unknown gpu.shuffle mode `{other}`: {line}")),
    };
    let operands: Vec<&str> = operands.split(", ").map(str::trim).collect();
    let ([value, offset, width], [(result, ty), (valid, _)]) = (operands.as_slice(), results)
    else {
        return Err(format!(
            "a shuffle takes three operands and has two results: {line}"
        ));
    };
    Ok(Shuffle {
        mode,
        value: value.to_string(),
        offset: offset.to_string(),
        width: width.to_string(),
        result: result.clone(),
        valid: valid.clone(),
        ty: ty.clone(),
    })
}

/// The generic form of `text` (`mlir-opt --mlir-print-op-generic`; the attributes of our
/// dialect stay opaque).
fn print_generic(tools: &Tools, text: &str) -> Result<String, String> {
    let mut child = Command::new(&tools.mlir_opt)
        .args([
            "--allow-unregistered-dialect",
            "--mlir-print-op-generic",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("mlir-opt: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("mlir-opt without stdin")?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("mlir-opt: {e}"))?;
    writer
        .join()
        .map_err(|_| "the writer to mlir-opt panicked".to_string())?
        .map_err(|e| format!("writing to mlir-opt: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "mlir-opt could not print the kernels in generic form: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The result types of every top-level op of every `gpu.func` of `lowered` (kernels and ops in
/// order), from the generic form, where an op ends with its function type `: (operand types)
/// -> (result types)` (the last ` -> ` of its last line: types print affine maps as aliases).
fn result_types(tools: &Tools, lowered: &str) -> Result<Vec<Vec<Vec<String>>>, String> {
    let generic = print_generic(tools, lowered)?;
    let lines: Vec<&str> = generic.lines().collect();
    let mut kernels = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        k += 1;
        if !line.trim_start().starts_with("\"gpu.func\"") {
            continue;
        }
        let start = k;
        let mut depth = brace_delta(line);
        while depth > 0 {
            let line = lines.get(k).ok_or("unclosed generic gpu.func")?;
            depth += brace_delta(line);
            k += 1;
        }
        let ops = group_ops(&lines[start..k - 1])?;
        let types = ops
            .iter()
            .map(|op| {
                let last = op.last().map_or("", |l| l.trim());
                let (_, results) = last
                    .rsplit_once(" -> ")
                    .ok_or_else(|| format!("no function type in `{last}`"))?;
                Ok(match results.strip_prefix('(') {
                    Some(list) => split_top_level(list.strip_suffix(')').unwrap_or(list)),
                    None => vec![results.to_string()],
                })
            })
            .collect::<Result<_, String>>()?;
        kernels.push(types);
    }
    Ok(kernels)
}

/// Whether the op starting with `line` synchronizes the threads of a block.
fn synchronizes(line: &str) -> bool {
    line.contains("gpu.barrier") || line.contains("gpu.shuffle")
}

/// The kernels of `lowered` (the printed module after `xla-indexing-lower-apply`) as CPU
/// functions, and the module's attribute aliases that do not name our dialect with its global
/// constants (`memref.global`, which [`program`] puts inside its module). The result types
/// of the kernels with phases come from `mlir-opt`'s generic form of `lowered`.
pub fn kernels(tools: &Tools, lowered: &str) -> Result<(Vec<String>, Vec<Kernel>), String> {
    let lines: Vec<&str> = lowered.lines().collect();
    let mut aliases = Vec::new();
    let mut kernels = Vec::new();
    let mut types: Option<Vec<Vec<Vec<String>>>> = None;
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        k += 1;
        if line.starts_with('#') && !line.contains("xla_indexing") {
            aliases.push(line.to_string());
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("memref.global ") {
            aliases.push(trimmed.to_string());
        }
        if !trimmed.starts_with("gpu.func @") {
            continue;
        }
        let header = Header::parse(trimmed)?;
        let end = format!("{}}}", &line[..line.len() - trimmed.len()]);
        let length = lines[k..]
            .iter()
            .position(|l| *l == end)
            .ok_or_else(|| format!("unclosed gpu.func @{}", header.symbol))?;
        let ops = group_ops(&lines[k..k + length])?;
        k += length + 1;
        let op_types = if ops.iter().any(|op| synchronizes(op[0])) {
            if types.is_none() {
                types = Some(result_types(tools, lowered)?);
            }
            let all = types.as_ref().and_then(|t| t.get(kernels.len()));
            let op_types = all
                .filter(|t| t.len() == ops.len())
                .ok_or_else(|| format!("@{}: the generic form has other ops", header.symbol))?;
            Some(op_types.as_slice())
        } else {
            None
        };
        let symbol = header.symbol.clone();
        kernels.push(kernel(header, &ops, op_types).map_err(|e| format!("@{symbol}: {e}"))?);
    }
    Ok((aliases, kernels))
}

/// The lines of the top-level op `op` in a CPU function, with the checks of its vector
/// accesses (numbered on from `checks`): the thread and block id ops go (their names to `ids`),
/// as do `gpu.return`, barriers and shuffles.
fn op_text(
    op: &[&str],
    ids: &mut [Option<String>; 6],
    checks: &mut usize,
) -> Result<String, String> {
    let mut text = String::new();
    for (j, line) in op.iter().enumerate() {
        let t = line.trim();
        if let Some((name, id)) = t.split_once(" = ")
            && let Some(slot) = IDS.iter().position(|i| *i == id)
        {
            ids[slot] = Some(name.to_string());
            continue;
        }
        if synchronizes(t) && j > 0 {
            return Err(format!(
                "a barrier or shuffle inside a region (the CPU program splits kernels only \
                 at their top-level ones): {t}"
            ));
        }
        if t == "gpu.return" || synchronizes(t) {
            continue;
        }
        if t.replace(WORKGROUP, "").contains("gpu.") {
            return Err(format!("a gpu op the CPU program cannot run: {t}"));
        }
        if t.contains("vector.load ") || t.contains("vector.store ") {
            *checks += 1;
            let checked =
                vector_checks(t, &format!("%vcheck{checks}_")).map_err(|e| format!("{e}: {t}"))?;
            let indent = &line[..line.len() - line.trim_start().len()];
            for c in checked {
                let _ = writeln!(text, "{indent}{c}");
            }
        }
        let _ = writeln!(text, "{line}");
    }
    Ok(text)
}

/// The names of the thread and block ids of a kernel body with the top-level ops `ops` (their
/// lines), whose result types are `types` where it synchronizes, and its phases.
fn phases(
    ops: &[Vec<&str>],
    types: Option<&[Vec<String>]>,
) -> Result<([String; 6], Vec<Phase>), String> {
    let mut ids: [Option<String>; 6] = Default::default();
    let mut phases = Vec::new();
    let mut current = Phase::default();
    let mut checks = 0usize;
    for (n, op) in ops.iter().enumerate() {
        let text = op_text(op, &mut ids, &mut checks)?;
        let first = op[0].trim();
        let names = result_names(first)?;
        let results: Vec<(String, String)> = match types.map(|t| &t[n]) {
            Some(t) if t.len() != names.len() => {
                return Err(format!("{} result types for `{first}`", t.len()));
            }
            Some(t) => names.into_iter().zip(t.iter().cloned()).collect(),
            None => names.into_iter().map(|n| (n, String::new())).collect(),
        };
        if first == "gpu.barrier" {
            phases.push(std::mem::take(&mut current));
        } else if first.contains("gpu.shuffle") {
            let opening = Phase {
                shuffle: Some(parse_shuffle(first, &results)?),
                ops: Vec::new(),
            };
            phases.push(std::mem::replace(&mut current, opening));
        } else if !text.is_empty() {
            current.ops.push(TopOp { text, results });
        }
    }
    phases.push(current);
    let names = ["tx", "ty", "tz", "bx", "by", "bz"];
    let ids = std::array::from_fn(|k| {
        ids[k]
            .clone()
            .unwrap_or_else(|| format!("%cpu_{}", names[k]))
    });
    Ok((ids, phases))
}

/// The kernel of `header` with the top-level ops `ops` (their lines), whose result types are
/// `types` where it synchronizes.
fn kernel(
    header: Header,
    ops: &[Vec<&str>],
    types: Option<&[Vec<String>]>,
) -> Result<Kernel, String> {
    let (ids, phases) = phases(ops, types)?;
    let layout = Layout::new(&phases, header.block.iter().product());
    let mut args = header.args.clone();
    args.extend(
        header
            .workgroup
            .iter()
            .map(|(name, b)| format!("{name}: {}", b.memref)),
    );
    args.extend(
        layout
            .buffers
            .iter()
            .enumerate()
            .map(|(k, ty)| format!("%cpu_carry{k}: {ty}")),
    );
    args.extend(ids.iter().map(|id| format!("{id}: index")));
    let mut function = String::new();
    for p in 0..phases.len() {
        let body = layout.phase(&phases, p, &ids, header.block);
        let _ = write!(
            function,
            "  func.func @{}({}) {{\n{body}  }}\n",
            phase_symbol(&header.symbol, p),
            args.join(", ")
        );
    }
    Ok(Kernel {
        symbol: header.symbol,
        block: header.block,
        grid: header.grid,
        buffers: header.buffers,
        workgroup: header.workgroup.into_iter().map(|(_, b)| b).collect(),
        carries: layout.buffers.clone(),
        phases: phases.len(),
        function: function.replace(WORKGROUP, ""),
    })
}

/// The CPU function of phase `p` of the kernel `symbol`.
pub fn phase_symbol(symbol: &str, p: usize) -> String {
    format!("{symbol}_phase{p}")
}

/// The values defined at the top level of `phases`.
fn definitions(phases: &[Phase]) -> HashMap<String, Def> {
    let mut defs = HashMap::new();
    for (p, phase) in phases.iter().enumerate() {
        if let Some(s) = &phase.shuffle {
            let def = |ty: &str| Def {
                phase: p,
                op: None,
                ty: ty.to_string(),
            };
            defs.insert(s.result.clone(), def(&s.ty));
            defs.insert(s.valid.clone(), def("i1"));
        }
        for (o, op) in phase.ops.iter().enumerate() {
            for (name, ty) in &op.results {
                let def = Def {
                    phase: p,
                    op: Some(o),
                    ty: ty.clone(),
                };
                defs.insert(name.clone(), def);
            }
        }
    }
    defs
}

/// The values phase `p` uses: those its ops name, its shuffle's offset and width, and the
/// value it stores for the shuffle that opens the next phase.
fn uses(phases: &[Phase], p: usize) -> Vec<String> {
    let phase = &phases[p];
    let mut names: Vec<String> = phase
        .ops
        .iter()
        .flat_map(|op| ssa_names(&op.text))
        .collect();
    if let Some(s) = &phase.shuffle {
        names.extend([s.offset.clone(), s.width.clone()]);
    }
    if let Some(next) = phases.get(p + 1).and_then(|n| n.shuffle.as_ref()) {
        names.push(next.value.clone());
    }
    names
}

/// What every phase takes from the phases before it: memrefs are defined again (with what
/// their ops use), other values reloaded.
fn carries(phases: &[Phase], defs: &HashMap<String, Def>) -> Vec<Carry> {
    (0..phases.len())
        .map(|p| {
            let mut carry = Carry::default();
            let mut pending = uses(phases, p);
            let mut seen = HashSet::new();
            while let Some(name) = pending.pop() {
                let Some(def) = defs.get(&name) else {
                    continue;
                };
                if def.phase >= p || !seen.insert(name.clone()) {
                    continue;
                }
                match def.op {
                    Some(o) if def.ty.starts_with("memref<") => {
                        if carry.rematerialized.insert((def.phase, o)) {
                            pending.extend(ssa_names(&phases[def.phase].ops[o].text));
                        }
                    }
                    _ => carry.reloads.push(name),
                }
            }
            carry
        })
        .collect()
}

/// The per-block buffers that carry values between the phases of a kernel, one element per
/// thread (indexed by its linear number).
struct Layout {
    /// Their types.
    buffers: Vec<String>,
    carries: Vec<Carry>,
    /// The buffer of every reloaded value.
    spills: HashMap<String, usize>,
    /// Per phase, the values it stores for later phases (the values they reload, the operand of
    /// the shuffle that opens the next), with their buffers.
    stores: Vec<Vec<(String, usize)>>,
    /// Per phase, the buffer of the shuffle that opens it.
    shuffles: Vec<Option<usize>>,
    threads: u64,
}

impl Layout {
    /// The buffers of `phases` in a block of `threads` threads.
    fn new(phases: &[Phase], threads: u64) -> Layout {
        let defs = definitions(phases);
        let carries = carries(phases, &defs);
        let mut layout = Layout {
            buffers: Vec::new(),
            carries: Vec::new(),
            spills: HashMap::new(),
            stores: vec![Vec::new(); phases.len()],
            shuffles: Vec::new(),
            threads,
        };
        for name in carries.iter().flat_map(|c| &c.reloads) {
            if layout.spills.contains_key(name) {
                continue;
            }
            let def = &defs[name];
            let k = layout.buffer(&def.ty);
            layout.spills.insert(name.clone(), k);
            layout.stores[def.phase].push((name.clone(), k));
        }
        for (p, phase) in phases.iter().enumerate() {
            let shuffle = phase.shuffle.as_ref().zip(p.checked_sub(1));
            let k = shuffle.map(|(s, before)| {
                let k = layout.buffer(&s.ty);
                layout.stores[before].push((s.value.clone(), k));
                k
            });
            layout.shuffles.push(k);
        }
        layout.carries = carries;
        layout
    }

    /// A new buffer of `ty` elements.
    fn buffer(&mut self, ty: &str) -> usize {
        self.buffers.push(format!("memref<{}x{ty}>", self.threads));
        self.buffers.len() - 1
    }

    /// The body of phase `p` of `phases`, whose thread and block ids are `ids`: the reloads,
    /// the ops it defines again, its shuffle, its ops, the stores for later phases.
    fn phase(&self, phases: &[Phase], p: usize, ids: &[String; 6], block: [u64; 3]) -> String {
        let mut e = Emitter::new("%cpu");
        let lin = if phases.len() > 1 {
            e.linear_id(ids, block)
        } else {
            String::new()
        };
        let carry = &self.carries[p];
        let mut renames = HashMap::new();
        let mut define = |name: &String| {
            let new = def_name(name);
            if new != *name {
                renames.insert(name.clone(), new.clone());
            }
            new
        };
        for name in &carry.reloads {
            let k = self.spills[name];
            e.line(format!(
                "{} = memref.load %cpu_carry{k}[{lin}] : {}",
                define(name),
                self.buffers[k]
            ));
        }
        for &(q, o) in &carry.rematerialized {
            e.text.push_str(&phases[q].ops[o].text);
        }
        if let (Some(s), Some(k)) = (&phases[p].shuffle, self.shuffles[p]) {
            define(&s.result);
            define(&s.valid);
            let buffer = format!("%cpu_carry{k}");
            e.shuffle(s, &buffer, &self.buffers[k], &lin, self.threads);
        }
        for op in &phases[p].ops {
            e.text.push_str(&op.text);
        }
        for (name, k) in &self.stores[p] {
            e.line(format!(
                "memref.store {name}, %cpu_carry{k}[{lin}] : {}",
                self.buffers[*k]
            ));
        }
        e.line("return");
        rename_values(&e.text, &renames)
    }
}

/// The checks run before the vector access `op` (`vector.load %view[%l] {alignment = A : i64}
/// : memref<NxT>, vector<WxT>` or `vector.store %v, %view[%l] ...`), with SSA names starting
/// with `prefix`: `%l` is a multiple of `A / bytes of T` and `%l + W <= N`, each a `cf.assert`
/// whose message starts with `ERROR` (which a failed run reports).
pub fn vector_checks(op: &str, prefix: &str) -> Result<Vec<String>, String> {
    let between = |text: &str, open: &str, close: char| -> Result<String, String> {
        let start = text.find(open).ok_or_else(|| format!("no `{open}`"))? + open.len();
        let end = text[start..]
            .find(close)
            .ok_or_else(|| format!("no `{close}` after `{open}`"))?;
        Ok(text[start..start + end].to_string())
    };
    let offset = between(op, "[", ']')?;
    let alignment: u32 = between(op, "{alignment = ", ' ')?
        .parse()
        .map_err(|_| "alignment".to_string())?;
    let (size, element) = between(op, ": memref<", '>')?
        .split_once('x')
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .ok_or("view type")?;
    let lanes = between(op, "vector<", 'x')?;
    let bytes = width(&element)? / 8;
    if bytes == 0 || !alignment.is_multiple_of(bytes) {
        return Err(format!("alignment {alignment} of {element} elements"));
    }
    let p = prefix;
    Ok(vec![
        format!("{p}a = arith.constant {} : index", alignment / bytes),
        format!("{p}zero = arith.constant 0 : index"),
        format!("{p}rem = arith.remui {offset}, {p}a : index"),
        format!("{p}aligned = arith.cmpi eq, {p}rem, {p}zero : index"),
        format!(
            "cf.assert {p}aligned, \"ERROR: vector access at offset not aligned to {alignment} bytes\""
        ),
        format!("{p}w = arith.constant {lanes} : index"),
        format!("{p}n = arith.constant {size} : index"),
        format!("{p}end = arith.addi {offset}, {p}w : index"),
        format!("{p}inside = arith.cmpi ule, {p}end, {p}n : index"),
        format!("cf.assert {p}inside, \"ERROR: vector access past the end of its buffer\""),
    ])
}

/// MLIR text of a function's body (`@main`'s, a phase's prologue and epilogue), with fresh SSA
/// names.
struct Emitter {
    text: String,
    /// The start of the fresh names (`%m` gives `%m1`, `%m2`, ...).
    prefix: &'static str,
    next: usize,
    depth: usize,
}

impl Emitter {
    fn new(prefix: &'static str) -> Emitter {
        Emitter {
            text: String::new(),
            prefix,
            next: 0,
            depth: 0,
        }
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("{}{}", self.prefix, self.next)
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
    /// linear number of the index; close them with [`Emitter::close_loops`].
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

    /// The linear number `tx + ty * bdx + tz * bdx * bdy` of the thread `ids` in a block of
    /// `block` threads.
    fn linear_id(&mut self, ids: &[String; 6], block: [u64; 3]) -> String {
        let x = self.index(block[0] as i64);
        let xy = self.index((block[0] * block[1]) as i64);
        let y = self.op(format!("arith.muli {}, {x} : index", ids[1]));
        let z = self.op(format!("arith.muli {}, {xy} : index", ids[2]));
        let sum = self.op(format!("arith.addi {}, {y} : index", ids[0]));
        self.op(format!("arith.addi {sum}, {z} : index"))
    }

    /// Defines the results of `s` for the thread `lin` of a block of `threads`: the value its
    /// source lane stored in `buffer` (of type `ty`), and whether the source lies in the
    /// thread's segment of its warp (and in the block); where it does not, the thread's own
    /// value. A width that is not a power of two up to 32 fails a `cf.assert`.
    fn shuffle(&mut self, s: &Shuffle, buffer: &str, ty: &str, lin: &str, threads: u64) {
        let zero = self.index(0);
        let one = self.index(1);
        let warp = self.index(WARP as i64);
        let last_lane = self.index(WARP as i64 - 1);
        let lane = self.op(format!("arith.remui {lin}, {warp} : index"));
        let warp_start = self.op(format!("arith.subi {lin}, {lane} : index"));
        let offset = self.op(format!("arith.index_cast {} : i32 to index", s.offset));
        let width = self.op(format!("arith.index_cast {} : i32 to index", s.width));
        let below = self.op(format!("arith.subi {width}, {one} : index"));
        let bits = self.op(format!("arith.andi {width}, {below} : index"));
        let power = self.op(format!("arith.cmpi eq, {bits}, {zero} : index"));
        let small = self.op(format!("arith.cmpi ule, {below}, {last_lane} : index"));
        let width_ok = self.op(format!("arith.andi {power}, {small} : i1"));
        self.line(format!(
            "cf.assert {width_ok}, \"ERROR: gpu.shuffle width is not a power of two up to {WARP}\""
        ));
        let in_segment = self.op(format!("arith.remui {lane}, {width} : index"));
        let segment_start = self.op(format!("arith.subi {lane}, {in_segment} : index"));
        let source = match s.mode {
            Mode::Xor => self.op(format!("arith.xori {in_segment}, {offset} : index")),
            Mode::Down => self.op(format!("arith.addi {in_segment}, {offset} : index")),
            Mode::Up => self.op(format!("arith.subi {in_segment}, {offset} : index")),
            Mode::Idx => offset,
        };
        let from_start = self.op(format!("arith.cmpi sge, {source}, {zero} : index"));
        let before_end = self.op(format!("arith.cmpi slt, {source}, {width} : index"));
        let inside = self.op(format!("arith.andi {from_start}, {before_end} : i1"));
        let start = self.op(format!("arith.addi {warp_start}, {segment_start} : index"));
        let candidate = self.op(format!("arith.addi {start}, {source} : index"));
        let n = self.index(threads as i64);
        let exists = self.op(format!("arith.cmpi slt, {candidate}, {n} : index"));
        let valid = def_name(&s.valid);
        self.line(format!("{valid} = arith.andi {inside}, {exists} : i1"));
        let from = self.op(format!("arith.select {valid}, {candidate}, {lin} : index"));
        let result = def_name(&s.result);
        self.line(format!("{result} = memref.load {buffer}[{from}] : {ty}"));
    }
}

/// The width in bits of an MLIR scalar type.
fn width(element: &str) -> Result<u32, String> {
    match element {
        "i1" => Ok(1),
        "f16" | "bf16" => Ok(16),
        "f64" | "complex<f32>" => Ok(64),
        "complex<f64>" => Ok(128),
        e if e.starts_with('i') || e.starts_with('f') => {
            e[1..].parse().map_err(|_| format!("element type {e}"))
        }
        e => Err(format!("element type {e}")),
    }
}

/// The CPU program of `kernels` (from [`kernels`]) with `inputs[k]` input buffers for kernel
/// `k`; `initial[k]` lists the outputs of kernel `k` that start as a copy of one of its inputs,
/// as (output, input) pairs numbered among the kernel's outputs and inputs (a scatter's output,
/// whose buffer XLA shares with its operand); the other outputs start as bit patterns.
pub fn program(
    aliases: &[String],
    kernels: Vec<Kernel>,
    inputs: Vec<usize>,
    initial: Vec<Vec<(usize, usize)>>,
) -> Result<Program, String> {
    if initial.len() != kernels.len() {
        return Err(format!(
            "the initial outputs of {} kernels given for {} kernels",
            initial.len(),
            kernels.len()
        ));
    }
    let mut text = String::new();
    let (globals, aliases): (Vec<&String>, Vec<&String>) = aliases
        .iter()
        .partition(|a| a.starts_with("memref.global "));
    for a in aliases {
        let _ = writeln!(text, "{a}");
    }
    text.push_str("module {\n");
    for g in globals {
        let _ = writeln!(text, "  {g}");
    }
    text.push_str("  func.func private @printI64(i64)\n  func.func private @printNewline()\n");
    for k in &kernels {
        text.push_str(&k.function);
    }
    let mut m = Emitter::new("%m");
    for ((kernel, &n_inputs), copies) in kernels.iter().zip(&inputs).zip(&initial) {
        m.line(format!("// {}", kernel.symbol));
        let mut views = Vec::new();
        let mut flats = Vec::new();
        for b in &kernel.buffers {
            if b.packed {
                let flat = m.op(format!("memref.alloc() : {}", b.memref));
                flats.push((flat.clone(), b.memref.clone()));
                views.push(flat);
                continue;
            }
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
        // A block's memory: its workgroup attributions, then the buffers that carry values
        // between its phases.
        let block_types: Vec<String> = kernel
            .workgroup
            .iter()
            .map(|b| b.memref.clone())
            .chain(kernel.carries.iter().cloned())
            .collect();
        for ty in &block_types {
            let memory = m.op(format!("memref.alloc() : {ty}"));
            views.push(memory.clone());
            flats.push((memory, ty.clone()));
        }
        for (p, (b, view)) in kernel.buffers.iter().zip(&views).take(n_inputs).enumerate() {
            fill_input(&mut m, p, b, view)?;
        }
        let outputs = &kernel.buffers[n_inputs..];
        let output_views = &views[n_inputs..kernel.buffers.len()];
        for &(o, i) in copies {
            if o >= outputs.len() || i >= n_inputs {
                return Err(format!(
                    "@{}: output {o} cannot start as input {i}",
                    kernel.symbol
                ));
            }
        }
        for pattern in [false, true] {
            for (o, (b, view)) in outputs.iter().zip(output_views).enumerate() {
                match copies.iter().find(|c| c.0 == o) {
                    Some(&(_, i)) => copy_buffer(&mut m, &kernel.buffers[i], &views[i], b, view)?,
                    None => fill_pattern(&mut m, b, view, pattern)?,
                }
            }
            // The grid, z outermost; in each block, its workgroup memory holds garbage (NaNs)
            // and every phase runs for all its threads before the next.
            let (bl, _) = m.open_loops(&reversed(kernel.grid));
            let workgroup = &views[kernel.buffers.len()..];
            for (b, view) in kernel.workgroup.iter().zip(workgroup) {
                fill_pattern(&mut m, b, view, true)?;
            }
            for p in 0..kernel.phases {
                let (th, _) = m.open_loops(&reversed(kernel.block));
                let ids = [&th[2], &th[1], &th[0], &bl[2], &bl[1], &bl[0]];
                let args: Vec<&str> = views.iter().chain(ids).map(String::as_str).collect();
                let types: Vec<&str> = kernel
                    .buffers
                    .iter()
                    .map(|b| b.memref.as_str())
                    .chain(block_types.iter().map(String::as_str))
                    .chain(std::iter::repeat_n("index", 6))
                    .collect();
                m.line(format!(
                    "func.call @{}({}) : ({}) -> ()",
                    phase_symbol(&kernel.symbol, p),
                    args.join(", "),
                    types.join(", ")
                ));
                m.close_loops(3);
            }
            m.close_loops(3);
            for (b, view) in outputs.iter().zip(output_views) {
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

/// The sizes `[x, y, z]` as loop bounds, z outermost.
fn reversed(sizes: [u64; 3]) -> [i64; 3] {
    [sizes[2] as i64, sizes[1] as i64, sizes[0] as i64]
}

/// Stores [`input_value`] of parameter `p` at every element of `view`.
fn fill_input(m: &mut Emitter, p: usize, b: &Buffer, view: &str) -> Result<(), String> {
    if let Some(dynamic) = &b.dynamic {
        return fill_dynamic(m, p, b, dynamic, view);
    }
    if b.packed {
        // Each element's store keeps the other half of its byte: the bytes start as zeros.
        fill_bytes(m, b, view, 0);
    }
    let (ivs, lin) = m.open_loops(&b.dims);
    let n = m.op(format!("arith.index_cast {lin} : index to i64"));
    let value = match b.complex_part() {
        Some(part) => {
            let re = input_element(m, p, &n, part);
            let im = input_element(m, p + COMPLEX_SHIFT, &n, part);
            m.op(format!("complex.create {re}, {im} : {}", b.element))
        }
        None if b.pred => {
            let bit = input_element(m, p, &n, "i1");
            m.op(format!("arith.extui {bit} : i1 to i8"))
        }
        None => input_element(m, p, &n, &b.element),
    };
    store_element(m, b, view, &ivs, &value);
    m.close_loops(b.dims.len());
    Ok(())
}

/// Fills the bytes of dynamic array `b` (parameter `p`): every byte with ones (so that a read
/// of padding shows), the dense elements from the start as [`fill_input`] fills an array of
/// their count, and the sizes.
fn fill_dynamic(
    m: &mut Emitter,
    p: usize,
    b: &Buffer,
    dynamic: &Dynamic,
    bytes: &str,
) -> Result<(), String> {
    fill_pattern(m, b, bytes, true)?;
    let start = m.op("arith.constant 0 : index");
    let dense = m.op(format!(
        "memref.view {bytes}[{start}][] : {} to {}",
        b.memref, dynamic.dense.memref
    ));
    fill_input(m, p, &dynamic.dense, &dense)?;
    let sizes_ty = format!("memref<{}xi32>", dynamic.sizes.len());
    let offset = m.op(format!("arith.constant {} : index", dynamic.sizes_offset));
    let sizes = m.op(format!(
        "memref.view {bytes}[{offset}][] : {} to {sizes_ty}",
        b.memref
    ));
    for (k, size) in dynamic.sizes.iter().enumerate() {
        let at = m.op(format!("arith.constant {k} : index"));
        let value = m.op(format!("arith.constant {size} : i32"));
        m.line(format!("memref.store {value}, {sizes}[{at}] : {sizes_ty}"));
    }
    Ok(())
}

/// [`input_value`] of element `n` (an `i64`) of parameter `p`, of MLIR scalar type `e`.
fn input_element(m: &mut Emitter, p: usize, n: &str, e: &str) -> String {
    let (a, c, modulus) = formula(p);
    let a = m.op(format!("arith.constant {a} : i64"));
    let c = m.op(format!("arith.constant {c} : i64"));
    let modulus_v = m.op(format!("arith.constant {modulus} : i64"));
    let half = m.op(format!("arith.constant {} : i64", modulus / 2));
    let t = m.op(format!("arith.muli {n}, {a} : i64"));
    let t = m.op(format!("arith.addi {t}, {c} : i64"));
    let h = m.op(format!("arith.remsi {t}, {modulus_v} : i64"));
    let v = m.op(format!("arith.subi {h}, {half} : i64"));
    match e {
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
    }
}

/// Stores all-zero or all-one bits at every element of `view`.
fn fill_pattern(m: &mut Emitter, b: &Buffer, view: &str, ones: bool) -> Result<(), String> {
    if b.packed {
        fill_bytes(m, b, view, if ones { -1 } else { 0 });
        return Ok(());
    }
    let scalar = b.complex_part().unwrap_or(&b.element);
    let bits = width(scalar)?;
    let int = format!("i{bits}");
    let raw = m.op(format!(
        "arith.constant {} : {int}",
        if ones { -1 } else { 0 }
    ));
    let mut value = if scalar.starts_with('i') {
        raw
    } else {
        m.op(format!("arith.bitcast {raw} : {int} to {scalar}"))
    };
    if b.complex_part().is_some() {
        value = m.op(format!("complex.create {value}, {value} : {}", b.element));
    }
    let (ivs, _) = m.open_loops(&b.dims);
    m.line(format!(
        "memref.store {value}, {view}[{}] : {}",
        ivs.join(", "),
        b.memref
    ));
    m.close_loops(b.dims.len());
    Ok(())
}

/// Copies every element of `from` (of buffer `a`) to the same index of `to` (of buffer `b`, which
/// has `a`'s dimensions and element type, in any layout).
fn copy_buffer(
    m: &mut Emitter,
    a: &Buffer,
    from: &str,
    b: &Buffer,
    to: &str,
) -> Result<(), String> {
    if a.dims != b.dims || a.element != b.element || a.packed != b.packed {
        return Err(format!(
            "{} cannot start as a copy of {}",
            b.memref, a.memref
        ));
    }
    let (ivs, _) = m.open_loops(&b.dims);
    let v = load_element(m, a, from, &ivs);
    store_element(m, b, to, &ivs, &v);
    m.close_loops(b.dims.len());
    Ok(())
}

/// Stores the byte `value` at every byte of the packed buffer `view`.
fn fill_bytes(m: &mut Emitter, b: &Buffer, view: &str, value: i64) {
    let bytes = (b.dims.iter().product::<i64>() + 1) / 2;
    let v = m.op(format!("arith.constant {value} : i8"));
    let (ivs, _) = m.open_loops(&[bytes]);
    m.line(format!(
        "memref.store {v}, {view}[{}] : {}",
        ivs[0], b.memref
    ));
    m.close_loops(1);
}

/// The element of `view` at `ivs`.
fn load_element(m: &mut Emitter, b: &Buffer, view: &str, ivs: &[String]) -> String {
    if !b.packed {
        return m.op(format!(
            "memref.load {view}[{}] : {}",
            ivs.join(", "),
            b.memref
        ));
    }
    let (byte, shift) = packed_place(m, b, ivs);
    let loaded = m.op(format!("memref.load {view}[{byte}] : {}", b.memref));
    let down = m.op(format!("arith.shrui {loaded}, {shift} : i8"));
    m.op(format!("arith.trunci {down} : i8 to {}", b.element))
}

/// Stores `value` at `ivs` of `view`; a packed element replaces its half of the byte.
fn store_element(m: &mut Emitter, b: &Buffer, view: &str, ivs: &[String], value: &str) {
    if !b.packed {
        m.line(format!(
            "memref.store {value}, {view}[{}] : {}",
            ivs.join(", "),
            b.memref
        ));
        return;
    }
    let (byte, shift) = packed_place(m, b, ivs);
    let old = m.op(format!("memref.load {view}[{byte}] : {}", b.memref));
    let wide = m.op(format!("arith.extui {value} : {} to i8", b.element));
    let bits = m.op(format!("arith.shli {wide}, {shift} : i8"));
    let ones = m.op("arith.constant 15 : i8");
    let half = m.op(format!("arith.shli {ones}, {shift} : i8"));
    let all = m.op("arith.constant -1 : i8");
    let keep = m.op(format!("arith.xori {half}, {all} : i8"));
    let kept = m.op(format!("arith.andi {old}, {keep} : i8"));
    let new = m.op(format!("arith.ori {kept}, {bits} : i8"));
    m.line(format!("memref.store {new}, {view}[{byte}] : {}", b.memref));
}

/// The byte of packed `b` that holds the element at `ivs`, and its shift in the byte (`i8`).
fn packed_place(m: &mut Emitter, b: &Buffer, ivs: &[String]) -> (String, String) {
    let mut n = m.index(0);
    for (iv, &stride) in ivs.iter().zip(&b.strides) {
        let s = m.index(stride);
        let term = m.op(format!("arith.muli {iv}, {s} : index"));
        n = m.op(format!("arith.addi {n}, {term} : index"));
    }
    let two = m.index(2);
    let byte = m.op(format!("arith.divui {n}, {two} : index"));
    let odd = m.op(format!("arith.remui {n}, {two} : index"));
    let odd = m.op(format!("arith.index_castui {odd} : index to i8"));
    let four = m.op("arith.constant 4 : i8");
    let shift = m.op(format!("arith.muli {odd}, {four} : i8"));
    (byte, shift)
}

/// Prints the bits of every element of `view`, one per line, row-major.
/// A complex element prints its real part's bits, then its imaginary part's.
fn print_buffer(m: &mut Emitter, b: &Buffer, view: &str) -> Result<(), String> {
    let (ivs, _) = m.open_loops(&b.dims);
    let v = load_element(m, b, view, &ivs);
    match b.complex_part() {
        Some(part) => {
            let re = m.op(format!("complex.re {v} : {}", b.element));
            let im = m.op(format!("complex.im {v} : {}", b.element));
            print_bits(m, &re, part)?;
            print_bits(m, &im, part)?;
        }
        None => print_bits(m, &v, &b.element)?,
    }
    m.close_loops(b.dims.len());
    Ok(())
}

/// Prints the bits of scalar `v` of MLIR type `e` on a line of their own.
fn print_bits(m: &mut Emitter, v: &str, e: &str) -> Result<(), String> {
    let bits = width(e)?;
    let int = format!("i{bits}");
    let v = if e.starts_with('i') {
        v.to_string()
    } else {
        m.op(format!("arith.bitcast {v} : {e} to {int}"))
    };
    let v = if bits < 64 {
        m.op(format!("arith.extui {v} : {int} to i64"))
    } else {
        v
    };
    m.line(format!("func.call @printI64({v}) : (i64) -> ()"));
    m.line("func.call @printNewline() : () -> ()");
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
            mlir_runner: PathBuf::from(runner::RUNNER),
            runner_utils: PathBuf::from(runner::RUNNER_UTILS),
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
