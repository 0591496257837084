//! The generated kernels compute the right values: every fusion of the modules under
//! `tests/data/codegen/`, of `examples/hlo/` and of the HLO crate's dumps is generated
//! (`codegen::kernels_text`), run through `xla-indexing-simplify, xla-indexing-lower-apply` in
//! process, turned into a CPU program (`common::cpu`: one call per thread of the launch grid)
//! and run with `mlir-runner`; every element of every output is compared with a brute-force
//! evaluation of the fused computation from XLA's operation semantics (`common::hlo_eval`), on
//! the same inputs.
//! Elements are compared bit for bit (NaNs as NaNs), except where a transcendental function
//! went into them: there, to a relative tolerance of a few units in the last place.
//!
//! Without `mlir-runner` or the runner utilities of LLVM 22 the execution tests print a note and
//! check nothing else.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
};

use common::{
    cpu::{self, Tools},
    hlo_eval::{self, Output, Ty, V, delinear, element_count, minor_to_major, ty_of},
};
use xla_indexing_codegen::{CodegenOptions, kernel_plans, kernels_text};
use xla_indexing_gpu::tiled::Tiling;
use xla_indexing_gpu::{Device, KernelPlan, plan_module};
use xla_indexing_hlo::{HloError, Module, parse_module};
use xla_indexing_passes::opt::{OptOptions, run_pipeline};
use xla_indexing_testkit::tools::require;

const PIPELINE: &str = "builtin.module(xla-indexing-simplify, xla-indexing-lower-apply)";

/// At most this many wrong elements are listed per output.
const SHOWN: usize = 8;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.hlo` files of `dir`; with `XLA_INDEXING_CODEGEN_ONLY=NAME` set, those whose name
/// contains `NAME` (for running one module while working on it).
fn hlo_files(dir: &Path) -> Vec<PathBuf> {
    let only = std::env::var("XLA_INDEXING_CODEGEN_ONLY").unwrap_or_default();
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .filter(|p| p.to_string_lossy().contains(&only))
        .collect();
    files.sort();
    files
}

fn options() -> CodegenOptions {
    CodegenOptions::default()
}

/// What a module's check counted.
#[derive(Debug, Default)]
struct Counts {
    kernels: usize,
    elements: usize,
}

/// Generates, lowers and runs the kernels of the module at `path` and compares every output
/// element with the reference; `Err` lists what differs.
fn check_module(path: &Path, tools: &Tools) -> Result<Counts, String> {
    check_module_with(path, tools, &|text| text)
}

/// [`check_module`] of the kernels `options` ask for.
fn check_module_as(path: &Path, tools: &Tools, options: &CodegenOptions) -> Result<Counts, String> {
    check_module_mutated(path, tools, options, &|text| text, &|text| text)
}

/// [`check_module`] with the CPU program passed through `mutate` before it runs (to show that
/// the check catches wrong kernels).
fn check_module_with(
    path: &Path,
    tools: &Tools,
    mutate: &dyn Fn(String) -> String,
) -> Result<Counts, String> {
    check_module_mutated(path, tools, &options(), &|text| text, mutate)
}

/// [`check_module_with`], with the lowered kernels passed through `lowered` before they become
/// the CPU program (whose checks then see the change).
fn check_module_mutated(
    path: &Path,
    tools: &Tools,
    options: &CodegenOptions,
    lowered_mutation: &dyn Fn(String) -> String,
    mutate: &dyn Fn(String) -> String,
) -> Result<Counts, String> {
    // The folder and the file (`codegen/pad.hlo`), which tell the modules apart: the checks run
    // in parallel, each in a directory of this name.
    let name = path
        .iter()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<PathBuf>()
        .to_string_lossy()
        .to_string();
    let text = fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let module = parse_module(&text).map_err(|e| format!("{name}: {e}"))?;
    let plans = kernel_plans(&module, options).map_err(|e| format!("{name}: {e}"))?;
    let kernels = kernels_text(&module, options).map_err(|e| format!("{name}: {e}"))?;
    // What the runs read and write stays in the target directory, for looking into failures.
    let variant = if options.tiling.is_some() {
        "codegen_exec_tiled"
    } else {
        "codegen_exec"
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(variant)
        .join(&name);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    fs::write(dir.join("kernels.mlir"), &kernels).map_err(|e| format!("{name}: {e}"))?;
    let lowered = run_pipeline(&kernels, &name, PIPELINE, OptOptions::default())
        .map_err(|e| format!("{name}: {PIPELINE} failed: {e:?}"))?;
    let lowered = lowered_mutation(lowered.text);
    fs::write(dir.join("lowered.mlir"), &lowered).map_err(|e| format!("{name}: {e}"))?;
    let (aliases, mut cpu_kernels) =
        cpu::kernels(tools, &lowered).map_err(|e| format!("{name}: {e}"))?;
    if cpu_kernels.len() != plans.len() {
        return Err(format!(
            "{name}: {} kernels for {} fusions",
            cpu_kernels.len(),
            plans.len()
        ));
    }
    let mut inputs = Vec::new();
    let mut initial = Vec::new();
    let mut expected = Vec::new();
    for (plan, kernel) in plans.iter().zip(&mut cpu_kernels) {
        let (n, outputs, buffers) =
            reference(&module, plan, kernel).map_err(|e| format!("{name}: {e}"))?;
        kernel.buffers = buffers;
        inputs.push(n);
        initial.push(initial_outputs(plan));
        expected.push(outputs);
    }
    let program =
        cpu::program(&aliases, cpu_kernels, inputs, initial).map_err(|e| format!("{name}: {e}"))?;
    let printed =
        cpu::run(tools, &mutate(program.text.clone()), &dir).map_err(|e| format!("{name}: {e}"))?;
    compare(&name, &program, &expected, &printed)
}

/// The outputs of `plan`'s kernel that start as a copy of one of its inputs, as (output, input)
/// pairs: a scatter's or an in-place update's outputs, each of whose buffers XLA shares with
/// its operand parameter.
fn initial_outputs(plan: &KernelPlan) -> Vec<(usize, usize)> {
    plan.emitter.outputs_from_parameters()
}

/// The inputs of `plan`'s kernel checked against its buffers, the expected outputs, and the
/// buffers as the program addresses them (packed ones by their elements).
fn reference(
    module: &Module,
    plan: &KernelPlan,
    kernel: &cpu::Kernel,
) -> Result<(usize, Vec<Output>, Vec<cpu::Buffer>), String> {
    let symbol = &kernel.symbol;
    // The kernels come in the plans' order, each named after its fusion (in PTX's alphabet).
    let expected_symbol: String = plan
        .kernel
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !symbol
        .trim_start_matches('_')
        .starts_with(expected_symbol.trim_start_matches('_'))
    {
        return Err(format!(
            "@{symbol} stands where the kernel of {} should",
            plan.kernel.name
        ));
    }
    let comp = &module.computations[plan.kernel.computation];
    let n_params = comp.num_parameters();
    let launch = (plan.launch.threads, plan.launch.blocks);
    if (kernel.block, kernel.grid) != launch {
        return Err(format!(
            "@{symbol}: launch attribute block {:?} grid {:?}, the plan says {:?}",
            kernel.block, kernel.grid, launch
        ));
    }
    if kernel.buffers.len() != n_params + plan.kernel.outputs.len() {
        return Err(format!(
            "@{symbol}: {} buffers for {n_params} parameters and {} outputs",
            kernel.buffers.len(),
            plan.kernel.outputs.len()
        ));
    }
    let mut params = Vec::new();
    let mut shapes = Vec::new();
    for p in 0..n_params {
        let i = comp
            .parameter(p)
            .ok_or(format!("@{symbol}: no parameter {p}"))?;
        let shape = comp.instructions[i]
            .array()
            .ok_or(format!("@{symbol}: parameter {p} is a tuple"))?;
        let ty = ty_of(shape)?;
        // A dynamic array holds the dense elements of its sizes.
        let sizes = cpu::dynamic_sizes(&shape.dims, &shape.dynamic);
        params.push(cpu::input_array(p, ty, &sizes));
        shapes.push(shape.clone());
    }
    shapes.extend(plan.kernel.outputs.iter().cloned());
    let buffers = shapes
        .iter()
        .zip(&kernel.buffers)
        .enumerate()
        .map(|(k, (shape, buffer))| {
            check_buffer(shape, buffer).map_err(|e| format!("@{symbol}: buffer {k}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let outputs = hlo_eval::evaluate(module, plan.kernel.computation, &params)
        .map_err(|e| format!("@{symbol}: reference: {e}"))?;
    if outputs.len() != plan.kernel.outputs.len() {
        return Err(format!(
            "@{symbol}: the reference has {} outputs, the kernel {}",
            outputs.len(),
            plan.kernel.outputs.len()
        ));
    }
    Ok((n_params, outputs, buffers))
}

/// The kernel's memref type has the HLO shape's dimensions, element type (a byte for `pred`) and the strides of its
/// layout (computed here from `minor_to_major`; dimensions of size 1 may have any stride), or
/// for elements narrower than a byte, is the flat `memref<Kxi8>` of their bytes. Returns the
/// buffer as the program addresses it.
fn check_buffer(
    shape: &xla_indexing_hlo::shape::ArrayShape,
    buffer: &cpu::Buffer,
) -> Result<cpu::Buffer, String> {
    let ty = ty_of(shape)?;
    let element = match ty {
        // A byte each, as XLA stores them.
        Ty::Pred => "i8".to_string(),
        Ty::S(b) | Ty::U(b) => format!("i{b}"),
        Ty::F16 => "f16".into(),
        Ty::Bf16 => "bf16".into(),
        // Packed as `s4`.
        Ty::F4 => "i4".into(),
        Ty::F8(_) => "i8".into(),
        Ty::F32 => "f32".into(),
        Ty::F64 => "f64".into(),
        Ty::C64 => "complex<f32>".into(),
        Ty::C128 => "complex<f64>".into(),
    };
    let mut strides = vec![0; shape.dims.len()];
    let mut stride = 1;
    for &d in &minor_to_major(shape) {
        strides[d] = stride;
        stride *= shape.dims[d];
    }
    let mismatch = || {
        format!(
            "{} is not the memref of {shape} (strides {strides:?})",
            buffer.memref
        )
    };
    if shape.is_dynamic() {
        return check_dynamic_buffer(shape, buffer, &element, ty);
    }
    if ty.bits() < 8 && ty != Ty::Pred {
        let bytes = (element_count(&shape.dims) as i64 + 1) / 2;
        if buffer.dims != [bytes] || buffer.element != "i8" {
            return Err(mismatch());
        }
        return Ok(cpu::Buffer::packed(
            &buffer.memref,
            &shape.dims,
            &element,
            strides.clone(),
        ));
    }
    let strides_agree = shape
        .dims
        .iter()
        .zip(strides.iter().zip(&buffer.strides))
        .all(|(&d, (a, b))| d == 1 || a == b);
    if buffer.dims != shape.dims || buffer.element != element || !strides_agree {
        return Err(mismatch());
    }
    Ok(cpu::Buffer {
        pred: ty == Ty::Pred,
        ..buffer.clone()
    })
}

/// The bytes of a dynamic array: `memref<Kxi8>` of its bound shape's bytes and an `i32` per
/// dimension ([`cpu::Dynamic`]).
fn check_dynamic_buffer(
    shape: &xla_indexing_hlo::shape::ArrayShape,
    buffer: &cpu::Buffer,
    element: &str,
    ty: Ty,
) -> Result<cpu::Buffer, String> {
    let bytes_per_element = (ty.bits().max(8) / 8) as i64;
    let sizes_offset = element_count(&shape.dims) as i64 * bytes_per_element;
    let bytes = sizes_offset + 4 * shape.dims.len() as i64;
    if buffer.dims != [bytes] || buffer.element != "i8" || ty.bits() < 8 && ty != Ty::Pred {
        return Err(format!(
            "{} is not the buffer of the dynamic {shape} ({bytes} bytes)",
            buffer.memref
        ));
    }
    let sizes = cpu::dynamic_sizes(&shape.dims, &shape.dynamic);
    let count = element_count(&sizes) as i64;
    let dense = cpu::Buffer {
        pred: ty == Ty::Pred,
        ..cpu::parse_memref(&format!("memref<{count}x{element}>"))?
    };
    Ok(cpu::Buffer {
        dynamic: Some(Box::new(cpu::Dynamic {
            dense,
            sizes,
            sizes_offset,
        })),
        ..buffer.clone()
    })
}

/// Compares the printed bits (two runs per kernel) with the expected outputs.
fn compare(
    name: &str,
    program: &cpu::Program,
    expected: &[Vec<Output>],
    printed: &[i64],
) -> Result<Counts, String> {
    let mut errors = Vec::new();
    let mut at = 0;
    let mut counts = Counts::default();
    let total: usize = expected
        .iter()
        .flatten()
        .map(|o| 2 * printed_words(o))
        .sum();
    if printed.len() != total {
        return Err(format!(
            "{name}: the program printed {} numbers, {total} expected",
            printed.len()
        ));
    }
    for (kernel, outputs) in program.kernels.iter().zip(expected) {
        counts.kernels += 1;
        let n: usize = outputs.iter().map(printed_words).sum();
        let (first, second) = (&printed[at..at + n], &printed[at + n..at + 2 * n]);
        at += 2 * n;
        let mut offset = 0;
        for (k, output) in outputs.iter().enumerate() {
            let a = &output.array;
            let count = element_count(&a.dims);
            let w = hlo_eval::words(a.ty);
            let mut wrong = 0;
            for e in 0..count {
                let at = offset + e * w;
                let words: Vec<u64> = first[at..at + w].iter().map(|&x| x as u64).collect();
                let again: Vec<u64> = second[at..at + w].iter().map(|&x| x as u64).collect();
                let bits = words[0];
                let index = delinear(&a.dims, e as i64);
                let place = format!("{name}: @{} output {k} at {index:?}", kernel.symbol);
                if words != again {
                    wrong += 1;
                    if wrong <= SHOWN {
                        errors.push(format!(
                            "{place}: not written (the runs with outputs preset to 0s and 1s \
                             give {:#x} and {:#x})",
                            bits, again[0]
                        ));
                    }
                    continue;
                }
                let got = hlo_eval::from_words(a.ty, &words);
                let want = a.data[e];
                if !agree(a.ty, want, got, output.approximate) {
                    wrong += 1;
                    if wrong <= SHOWN {
                        errors.push(format!(
                            "{place}: {} expected, the kernel wrote {} (bits {words:#x?}, expected \
                             {:#x?})",
                            show(want),
                            show(got),
                            hlo_eval::to_words(a.ty, want)
                        ));
                    }
                }
            }
            if wrong > SHOWN {
                errors.push(format!(
                    "{name}: @{} output {k}: {wrong} wrong elements of {count} in all",
                    kernel.symbol
                ));
            }
            offset += count * w;
            counts.elements += count;
        }
    }
    if errors.is_empty() {
        Ok(counts)
    } else {
        Err(errors.join("\n"))
    }
}

fn show(v: V) -> String {
    match v {
        V::P(b) => b.to_string(),
        V::I(i) => i.to_string(),
        V::F(f) => format!("{f:?}"),
        V::C(a, b) => format!("({a:?}, {b:?})"),
    }
}

/// How many numbers the program prints for `output`: one per element, two per complex one.
fn printed_words(output: &Output) -> usize {
    element_count(&output.array.dims) * hlo_eval::words(output.array.ty)
}

/// Whether the kernel's `got` is the reference's `want`: the same bits (any NaN for a NaN), or
/// for approximate values within a relative tolerance of a few units in the last place.
fn agree(ty: Ty, want: V, got: V, approximate: bool) -> bool {
    if ty.is_complex() {
        return complex_agree(ty, want, got, approximate);
    }
    if !ty.is_float() {
        return want == got;
    }
    let (w, g) = (want.float(), got.float());
    if w.is_nan() || g.is_nan() {
        return w.is_nan() && g.is_nan();
    }
    if !approximate || w.is_infinite() || g.is_infinite() {
        return w.to_bits() == g.to_bits();
    }
    let tolerance = match ty {
        Ty::F16 => 2e-3,
        Ty::Bf16 => 1.6e-2,
        _ => 1e-5,
    };
    (w - g).abs() <= tolerance * w.abs().max(g.abs()).max(1e-3)
}

/// [`agree`] of complex values, part by part; approximate parts are within the tolerance
/// relative to the larger modulus (a part near zero carries the error of the whole value).
fn complex_agree(ty: Ty, want: V, got: V, approximate: bool) -> bool {
    let (w, g) = (want.complex(), got.complex());
    let part = ty.part();
    if !approximate {
        return agree(part, V::F(w.0), V::F(g.0), false)
            && agree(part, V::F(w.1), V::F(g.1), false);
    }
    let scale = w.0.hypot(w.1).max(g.0.hypot(g.1));
    let scaled = |a: f64, b: f64| {
        if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
            return agree(part, V::F(a), V::F(b), true);
        }
        (a - b).abs() <= 1e-5 * scale.max(1e-3)
    };
    scaled(w.0, g.0) && scaled(w.1, g.1)
}

/// Runs `check_module` on every file and fails with every difference found.
fn check_all(files: &[PathBuf]) {
    check_all_as(files, &options());
}

/// [`check_all`] of the kernels `options` ask for.
fn check_all_as(files: &[PathBuf], options: &CodegenOptions) {
    let Some(tools) = require("executing the generated kernels", Tools::find()) else {
        return;
    };
    let mut failures = Vec::new();
    for path in files {
        let start = std::time::Instant::now();
        match check_module_as(path, &tools, options) {
            Ok(c) => eprintln!(
                "{}: {} kernels, {} output elements agree ({:.1} s)",
                path.display(),
                c.kernels,
                c.elements,
                start.elapsed().as_secs_f64()
            ),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kernels_of_the_test_modules_compute_xla_semantics() {
    let files = hlo_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen"));
    assert!(!files.is_empty());
    check_all(&files);
}

/// The HLO crate's dumps whose fusions all lower (XLA's own fusions of real programs); the
/// others hold a gather or a convolution the generator refuses.
const HLO_DUMPS: &[&str] = &[
    "attention.hlo",
    "concatenations.hlo",
    "convolutions.hlo",
    "dynamic_slices.hlo",
    "layer_norm.hlo",
    "pooling.hlo",
    "softmax.hlo",
    "softmax_sum.cpu_after_opt.hlo",
    "transformer_block.hlo",
    "transpose_exp_add.before_opt.hlo",
    "transpose_exp_add.cpu_after_opt.hlo",
];

#[test]
fn kernels_of_the_hlo_crate_dumps_compute_xla_semantics() {
    let dir = root().join("crates/hlo/tests/data");
    let files: Vec<PathBuf> = HLO_DUMPS.iter().map(|f| dir.join(f)).collect();
    check_all(&files);
}

#[test]
fn kernels_of_the_examples_compute_xla_semantics() {
    let files = hlo_files(&root().join("examples/hlo"));
    assert!(!files.is_empty());
    check_all(&files);
}

/// Kernels through the best tiling of each fusion (`compile --tiling best`): a block per tile,
/// reads through the symbolic tiles, on the examples, the HLO crate's dumps and the test
/// modules.
#[test]
fn tiled_kernels_compute_xla_semantics() {
    let dumps = root().join("crates/hlo/tests/data");
    let mut files = hlo_files(&root().join("examples/hlo"));
    files.extend(HLO_DUMPS.iter().map(|f| dumps.join(f)));
    files.extend(hlo_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen"),
    ));
    let options = CodegenOptions {
        tiling: Some(Tiling::Best),
        ..options()
    };
    check_all_as(&files, &options);
}

#[test]
fn a_wrong_kernel_is_reported_with_module_output_and_index() {
    let Some(tools) = require("the check of the kernel check", Tools::find()) else {
        return;
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen/elementwise_f32.hlo");
    // The binary kernel's subtraction computes an addition.
    let err = check_module_with(&path, &tools, &|text| {
        text.replacen("arith.subf", "arith.addf", 1)
    })
    .unwrap_err();
    assert!(
        err.contains(
            "elementwise_f32.hlo: @f0 output 1 at [0, 0]: -2.5 expected, the kernel wrote -4.5"
        ),
        "{err}"
    );
    assert!(err.contains("@f0 output 1: "), "{err}");
    // The binary kernel does not store its output 0 (the first store to the flat view of
    // `%arg2`, which linear addressing stores through).
    let err = check_module_with(&path, &tools, &|text| {
        let mut lines: Vec<&str> = text.lines().collect();
        let view = flat_view(&lines, "%arg2");
        let store = lines
            .iter()
            .position(|l| l.contains("memref.store") && l.contains(&format!("{view}[")))
            .expect("a store to output 0");
        lines.remove(store);
        lines.join("\n")
    })
    .unwrap_err();
    assert!(err.contains("@f0 output 0 at [0, 3]: not written"), "{err}");
    assert!(
        err.contains("@f0 output 0: 300 wrong elements of 300"),
        "{err}"
    );
    // The binary kernel reads its first parameter past its end: out of bounds.
    let err = check_module_with(&path, &tools, &|text| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let view = flat_view(&lines, "%arg0");
        let load = lines
            .iter()
            .position(|l| l.contains(&format!("memref.load {view}[")))
            .expect("a load of parameter 0");
        let line = &lines[load];
        let (head, rest) = line.split_once(&format!("{view}[")).unwrap();
        let (_, tail) = rest.split_once(']').unwrap();
        lines[load] = format!("{head}{view}[%past_the_end]{tail}");
        lines.insert(
            load,
            "%past_the_end = arith.constant 1000000 : index".into(),
        );
        lines.join("\n")
    })
    .unwrap_err();
    assert!(err.contains("mlir-runner failed"), "{err}");
    assert!(err.contains("out-of-bounds access"), "{err}");
}

/// How many of each access the kernel of every fusion of `tests/data/codegen/vector.hlo` holds:
/// `vector.load`, `vector.store`, `memref.load`, `memref.store`. The module's comment says which
/// accesses vectorize and which must not; its values are checked with the other test modules.
const VECTOR_ACCESSES: &[(&str, [usize; 4])] = &[
    // Both operands and the output as vectors of 4 f32.
    ("exp_add_fusion", [2, 1, 0, 0]),
    // A broadcast along rows of 512: a group never spans two rows.
    ("row_broadcast_fusion", [2, 1, 0, 0]),
    // Rows of 502: the broadcast operand is read per lane.
    ("rows_of_502_fusion", [1, 1, 4, 0]),
    // The transposed operand is read per lane.
    ("transpose_add_fusion", [1, 1, 4, 0]),
    // The slice at offset 1 per lane, the one at offset 2 as two vectors of 2.
    ("slices_fusion", [2, 1, 4, 0]),
    // f64: two vectors of 2 per group of 4, both ways.
    ("f64_square_fusion", [2, 2, 0, 0]),
    // Loads shared by the three outputs; the column-major output per lane, the pred output
    // (a byte per element, as XLA stores it) as one vector of 4.
    ("two_layouts_fusion", [2, 2, 0, 4]),
];

#[test]
fn vector_accesses_are_where_the_plan_proves_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen/vector.hlo");
    let module = parse_module(&fs::read_to_string(&path).expect("vector.hlo")).expect("parses");
    let plans = plan_module(&module, &Device::default()).expect("plans");
    assert_eq!(plans.len(), VECTOR_ACCESSES.len());
    for (fusion, want) in VECTOR_ACCESSES {
        let plan = plans
            .iter()
            .find(|p| p.kernel.name == *fusion)
            .unwrap_or_else(|| panic!("no fusion {fusion}"));
        assert!(plan.vectorized(), "{fusion}");
        let text = kernels_text(
            &module,
            &CodegenOptions {
                fusion: Some(fusion.to_string()),
                ..options()
            },
        )
        .expect("lowers");
        let count = |op: &str| text.matches(&format!(" {op} ")).count();
        let got = [
            count("vector.load"),
            count("vector.store"),
            count("memref.load"),
            count("memref.store"),
        ];
        assert_eq!(got, *want, "{fusion}:\n{text}");
        for line in text.lines().filter(|l| l.contains("vector.load")) {
            assert!(line.contains("{alignment = "), "{fusion}: {line}");
        }
    }
}

#[test]
fn a_misaligned_vector_access_is_reported() {
    let Some(tools) = require("the check of vector accesses", Tools::find()) else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codegen_exec_vector");
    fs::create_dir_all(&dir).expect("target directory");
    let path = dir.join("misaligned.hlo");
    fs::write(
        &path,
        "HloModule m\n\
         %fused (p0: f32[528,512]) -> f32[528,512] {\n\
         \x20 %p0 = f32[528,512]{1,0} parameter(0)\n\
         \x20 ROOT %n = f32[528,512]{1,0} negate(%p0)\n\
         }\n\
         ENTRY %main (x: f32[528,512]) -> f32[528,512] {\n\
         \x20 %x = f32[528,512]{1,0} parameter(0)\n\
         \x20 ROOT %f = f32[528,512]{1,0} fusion(%x), kind=kLoop, calls=%fused\n\
         }\n",
    )
    .expect("written");
    check_module(&path, &tools).expect("the vectorized kernel computes XLA's values");
    // The vector load one element further: misaligned, and past the end for the last thread.
    let shifted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let at = lines
            .iter()
            .position(|l| l.contains("vector.load "))
            .expect("a vector load");
        let (head, rest) = lines[at].split_once('[').expect("an offset");
        let (offset, tail) = rest.split_once(']').expect("an offset");
        let moved = format!("{head}[%misaligned]{tail}");
        let one = "%misaligned_one = arith.constant 1 : index".to_string();
        let sum = format!("%misaligned = arith.addi {offset}, %misaligned_one : index");
        lines[at] = moved;
        lines.insert(at, sum);
        lines.insert(at, one);
        lines.join("\n")
    };
    let err = check_module_mutated(&path, &tools, &options(), &shifted, &|text| text).unwrap_err();
    assert!(err.contains("mlir-runner failed"), "{err}");
    assert!(
        err.contains("ERROR: vector access at offset not aligned to 16 bytes"),
        "{err}"
    );
}

/// Scatters whose every element is known by hand: rows of a window of the whole row (two
/// updates on row 3 add up; starts 16 and -1 drop theirs), windows of two columns inserted on
/// dimension 0 (the start column 3 puts the window past the end: dropped, not clamped), an
/// implicit index vector of unsigned indices with a combiner that is not commutative (the
/// current element minus the update, in the updates' order; 255 and 16 drop theirs), and a
/// batching dimension.
const SCATTERS: &str = r#"
HloModule m
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(%a, %b)
}
%sub (c: f32[], d: f32[]) -> f32[] {
  %c = f32[] parameter(0)
  %d = f32[] parameter(1)
  ROOT %difference = f32[] subtract(%c, %d)
}
%fused (p0: f32[16,4], p1: s32[5,1], p2: f32[5,1,4], p3: s32[5,2], p4: f32[5,2], p5: u8[5], p6: f32[5,4], p7: f32[2,3], p8: s32[2,1], p9: f32[2]) -> (f32[16,4], f32[16,4], f32[16,4], f32[2,3]) {
  %p0 = f32[16,4]{1,0} parameter(0)
  %p1 = s32[5,1]{1,0} parameter(1)
  %p2 = f32[5,1,4]{2,1,0} parameter(2)
  %p3 = s32[5,2]{1,0} parameter(3)
  %p4 = f32[5,2]{1,0} parameter(4)
  %p5 = u8[5]{0} parameter(5)
  %p6 = f32[5,4]{1,0} parameter(6)
  %p7 = f32[2,3]{1,0} parameter(7)
  %p8 = s32[2,1]{1,0} parameter(8)
  %p9 = f32[2]{0} parameter(9)
  %rows = f32[16,4]{1,0} scatter(%p0, %p1, %p2), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add
  %pairs = f32[16,4]{1,0} scatter(%p0, %p3, %p4), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=%add
  %implicit = f32[16,4]{1,0} scatter(%p0, %p5, %p6), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%sub
  %batched = f32[2,3]{1,0} scatter(%p7, %p8, %p9), update_window_dims={}, inserted_window_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, index_vector_dim=1, to_apply=%add
  ROOT %t = (f32[16,4]{1,0}, f32[16,4]{1,0}, f32[16,4]{1,0}, f32[2,3]{1,0}) tuple(%rows, %pairs, %implicit, %batched)
}
ENTRY %main (x: f32[16,4]) -> f32[16,4] {
  ROOT %x = f32[16,4]{1,0} parameter(0)
}
"#;

#[test]
fn the_reference_scatters_as_xla() {
    let module = parse_module(SCATTERS).expect("the module parses");
    let fused = module.computation("fused").expect("the fused computation");
    let array = |ty: Ty, dims: &[i64], data: &[f64]| hlo_eval::Array {
        ty,
        dims: dims.to_vec(),
        data: data
            .iter()
            .map(|&x| {
                if ty.is_float() {
                    V::F(x)
                } else {
                    V::I(x as i128)
                }
            })
            .collect(),
    };
    // Operand element (r, c) is 4r + c; update element (i, .., c) is 100(i + 1) + c, 1000(i +
    // 1) + c and 10(i + 1) + c.
    let numbers = |n: usize, f: &dyn Fn(usize) -> f64| (0..n).map(f).collect::<Vec<_>>();
    let params = [
        array(Ty::F32, &[16, 4], &numbers(64, &|n| n as f64)),
        array(Ty::S(32), &[5, 1], &[3.0, 15.0, 16.0, 3.0, -1.0]),
        array(
            Ty::F32,
            &[5, 1, 4],
            &numbers(20, &|n| (100 * (n / 4 + 1) + n % 4) as f64),
        ),
        array(
            Ty::S(32),
            &[5, 2],
            &[2.0, 0.0, 2.0, 2.0, 2.0, 3.0, -1.0, 0.0, 7.0, 1.0],
        ),
        array(
            Ty::F32,
            &[5, 2],
            &numbers(10, &|n| (1000 * (n / 2 + 1) + n % 2) as f64),
        ),
        array(Ty::U(8), &[5], &[0.0, 255.0, 15.0, 0.0, 16.0]),
        array(
            Ty::F32,
            &[5, 4],
            &numbers(20, &|n| (10 * (n / 4 + 1) + n % 4) as f64),
        ),
        array(Ty::F32, &[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]),
        array(Ty::S(32), &[2, 1], &[2.0, 5.0]),
        array(Ty::F32, &[2], &[0.5, 0.25]),
    ];
    let outputs = hlo_eval::evaluate(&module, fused, &params).expect("evaluates");
    let at = |k: usize, r: i64, c: i64| outputs[k].array.at(&[r, c]).float();
    for c in 0..4 {
        let x = c as f64;
        // Rows 3 (twice) and 15; the others keep the operand.
        assert_eq!(
            at(0, 3, c),
            12.0 + x + 100.0 + x + 400.0 + x,
            "rows (3, {c})"
        );
        assert_eq!(at(0, 15, c), 60.0 + x + 200.0 + x, "rows (15, {c})");
        assert_eq!(at(0, 0, c), x, "rows (0, {c})");
        assert_eq!(at(0, 14, c), 56.0 + x, "rows (14, {c})");
        // Row 0 minus the updates 0 and 3, row 15 minus update 2.
        assert_eq!(
            at(2, 0, c),
            x - (10.0 + x) - (40.0 + x),
            "implicit (0, {c})"
        );
        assert_eq!(at(2, 15, c), 60.0 + x - (30.0 + x), "implicit (15, {c})");
        assert_eq!(at(2, 1, c), 4.0 + x, "implicit (1, {c})");
    }
    // (2, 0) and (2, 2) land; (2, 3) and (-1, 0) are dropped; (7, 1) lands on columns 1 and 2.
    let pairs = [
        ((2, 0), 1008.0),
        ((2, 1), 1010.0),
        ((2, 2), 2010.0),
        ((2, 3), 2012.0),
        ((7, 0), 28.0),
        ((7, 1), 5029.0),
        ((7, 2), 5031.0),
        ((7, 3), 31.0),
        ((15, 3), 63.0),
    ];
    for ((r, c), want) in pairs {
        assert_eq!(at(1, r, c), want, "pairs ({r}, {c})");
    }
    let changed = (0..64)
        .filter(|&n| outputs[1].array.data[n] != params[0].data[n])
        .count();
    assert_eq!(changed, 6, "pairs");
    // Batch 0 adds 0.5 at column 2; batch 1's column 5 is out of range.
    assert_eq!(
        outputs[3].array.data,
        [0.0, 1.0, 2.5, 3.0, 4.0, 5.0].map(V::F).to_vec()
    );
}

/// A variadic scatter known by hand: an argmax of (score, id) pairs, whose combiner takes both
/// current elements and both updates' elements and gives both new ones; two updates land on
/// element 1 in turn, one on element 3 loses to the operand, one at 4 is dropped.
const ARGMAX_SCATTER: &str = r#"
HloModule m
%argmax (a: f32[], b: s32[], c: f32[], d: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %b = s32[] parameter(1)
  %c = f32[] parameter(2)
  %d = s32[] parameter(3)
  %gt = pred[] compare(%c, %a), direction=GT
  %score = f32[] select(%gt, %c, %a)
  %id = s32[] select(%gt, %d, %b)
  ROOT %t = (f32[], s32[]) tuple(%score, %id)
}
%fused (p0: f32[4], p1: s32[4], p2: s32[4,1], p3: f32[4], p4: s32[4]) -> (f32[4], s32[4]) {
  %p0 = f32[4]{0} parameter(0)
  %p1 = s32[4]{0} parameter(1)
  %p2 = s32[4,1]{1,0} parameter(2)
  %p3 = f32[4]{0} parameter(3)
  %p4 = s32[4]{0} parameter(4)
  ROOT %s = (f32[4]{0}, s32[4]{0}) scatter(%p0, %p1, %p2, %p3, %p4), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%argmax
}
ENTRY %main (x: f32[4]) -> f32[4] {
  ROOT %x = f32[4]{0} parameter(0)
}
"#;

#[test]
fn the_reference_scatters_variadically_as_xla() {
    let module = parse_module(ARGMAX_SCATTER).expect("the module parses");
    let fused = module.computation("fused").expect("the fused computation");
    let array = |ty: Ty, data: &[i64]| hlo_eval::Array {
        ty,
        dims: vec![data.len() as i64],
        data: data
            .iter()
            .map(|&x| {
                if ty.is_float() {
                    V::F(x as f64)
                } else {
                    V::I(x.into())
                }
            })
            .collect(),
    };
    let indices = hlo_eval::Array {
        dims: vec![4, 1],
        ..array(Ty::S(32), &[1, 1, 3, 4])
    };
    let params = [
        array(Ty::F32, &[0, 3, 1, 0]),
        array(Ty::S(32), &[0, 1, 2, 3]),
        indices,
        array(Ty::F32, &[5, 2, -1, 9]),
        array(Ty::S(32), &[10, 20, 30, 40]),
    ];
    let outputs = hlo_eval::evaluate(&module, fused, &params).expect("evaluates");
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs[0].array.data, array(Ty::F32, &[0, 5, 1, 0]).data);
    assert_eq!(outputs[1].array.data, array(Ty::S(32), &[0, 10, 2, 3]).data);
}

/// The SSA name of the one-dimensional view that linear addressing makes of `buffer`.
fn flat_view(lines: &[impl AsRef<str>], buffer: &str) -> String {
    lines
        .iter()
        .find_map(|l| {
            let (name, op) = l.as_ref().trim().split_once(" = ")?;
            op.starts_with(&format!("memref.reinterpret_cast {buffer} "))
                .then(|| name.to_string())
        })
        .unwrap_or_else(|| panic!("no flat view of {buffer}"))
}

/// Generates the kernels of `hlo` and returns the error.
fn codegen_error(hlo: &str) -> HloError {
    let module = parse_module(hlo).expect("the module parses");
    kernels_text(&module, &options()).expect_err("the fusion cannot be lowered")
}

#[test]
fn fusions_the_generator_cannot_lower_are_errors_naming_the_instruction() {
    // XLA's printer elides large literals: there are no values to read.
    let elided_constant = "HloModule m\n%fused (p0: f32[300]) -> f32[300] {\n  %p0 = f32[300]{0} parameter(0)\n  \
         %table = f32[300]{0} constant({...})\n  ROOT %add = f32[300]{0} add(%p0, %table)\n}\n\
         ENTRY %main (x: f32[300]) -> f32[300] {\n  %x = f32[300]{0} parameter(0)\n  \
         ROOT %f = f32[300]{0} fusion(%x), kind=kLoop, calls=%fused\n}\n";
    let cases: [(&str, &str, &str); 6] = [
        (
            "sort",
            r#"
HloModule m
%less (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %lt = pred[] compare(%a, %b), direction=LT
}
%fused (p0: f32[16]) -> f32[16] {
  %p0 = f32[16]{0} parameter(0)
  %neg = f32[16]{0} negate(%p0)
  ROOT %sorted = f32[16]{0} sort(%neg), dimensions={0}, to_apply=%less
}
ENTRY %main (x: f32[16]) -> f32[16] {
  %x = f32[16]{0} parameter(0)
  ROOT %f = f32[16]{0} fusion(%x), kind=kLoop, calls=%fused
}
"#,
            "sorted",
        ),
        (
            "gather",
            r#"
HloModule m
%fused (p0: f32[8,4], p1: s32[3,1]) -> f32[3,4] {
  %p0 = f32[8,4]{1,0} parameter(0)
  %p1 = s32[3,1]{1,0} parameter(1)
  ROOT %rows = f32[3,4]{1,0} gather(%p0, %p1), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
}
ENTRY %main (x: f32[8,4], i: s32[3,1]) -> f32[3,4] {
  %x = f32[8,4]{1,0} parameter(0)
  %i = s32[3,1]{1,0} parameter(1)
  ROOT %f = f32[3,4]{1,0} fusion(%x, %i), kind=kLoop, calls=%fused
}
"#,
            "rows",
        ),
        (
            "array constant whose literal is elided",
            elided_constant,
            "table",
        ),
        (
            "complex op without a lowering",
            r#"
HloModule m
%fused (p0: f32[4], p1: f32[4]) -> c64[4] {
  %p0 = f32[4]{0} parameter(0)
  %p1 = f32[4]{0} parameter(1)
  %z = c64[4]{0} complex(%p0, %p1)
  ROOT %r = c64[4]{0} exponential-minus-one(%z)
}
ENTRY %main (x: f32[4], y: f32[4]) -> c64[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %f = c64[4]{0} fusion(%x, %y), kind=kLoop, calls=%fused
}
"#,
            "r",
        ),
        (
            "scatter of complex elements",
            r#"
HloModule m
%add (a: c64[], b: c64[]) -> c64[] {
  %a = c64[] parameter(0)
  %b = c64[] parameter(1)
  ROOT %s = c64[] add(%a, %b)
}
%fused (p0: c64[10], p1: s32[3,1], p2: c64[3]) -> c64[10] {
  %p0 = c64[10]{0} parameter(0)
  %p1 = s32[3,1]{1,0} parameter(1)
  %p2 = c64[3]{0} parameter(2)
  ROOT %s = c64[10]{0} scatter(%p0, %p1, %p2), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add
}
ENTRY %main (a: c64[10], c: s32[3,1], d: c64[3]) -> c64[10] {
  %a = c64[10]{0} parameter(0)
  %c = s32[3,1]{1,0} parameter(1)
  %d = c64[3]{0} parameter(2)
  ROOT %f = c64[10]{0} fusion(%a, %c, %d), kind=kInput, calls=%fused
}
"#,
            "s",
        ),
        (
            "variadic scatter with repeated indices, which the scatter emitter refuses",
            r#"
HloModule m
%add2 (a: f32[], b: s32[], c: f32[], d: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %b = s32[] parameter(1)
  %c = f32[] parameter(2)
  %d = s32[] parameter(3)
  %x = f32[] add(%a, %c)
  %y = s32[] add(%b, %d)
  ROOT %t = (f32[], s32[]) tuple(%x, %y)
}
%fused (p0: f32[10], p1: s32[10], p2: s32[3,1], p3: f32[3], p4: s32[3]) -> (f32[10], s32[10]) {
  %p0 = f32[10]{0} parameter(0)
  %p1 = s32[10]{0} parameter(1)
  %p2 = s32[3,1]{1,0} parameter(2)
  %p3 = f32[3]{0} parameter(3)
  %p4 = s32[3]{0} parameter(4)
  ROOT %s = (f32[10]{0}, s32[10]{0}) scatter(%p0, %p1, %p2, %p3, %p4), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add2
}
ENTRY %main (a: f32[10], b: s32[10], c: s32[3,1], d: f32[3], e: s32[3]) -> (f32[10], s32[10]) {
  %a = f32[10]{0} parameter(0)
  %b = s32[10]{0} parameter(1)
  %c = s32[3,1]{1,0} parameter(2)
  %d = f32[3]{0} parameter(3)
  %e = s32[3]{0} parameter(4)
  ROOT %f = (f32[10]{0}, s32[10]{0}) fusion(%a, %b, %c, %d, %e), kind=kLoop, calls=%fused
}
"#,
            "s",
        ),
    ];
    for (what, hlo, instruction) in cases {
        let err = codegen_error(hlo);
        let HloError::Analysis {
            instruction: named,
            message,
            ..
        } = &err
        else {
            panic!("{what}: not an analysis error naming an instruction: {err}");
        };
        assert_eq!(named, instruction, "{what}: {err}");
        assert!(message.starts_with("cannot be lowered: "), "{what}: {err}");
    }
    // A fusion its own emitter refused says why it stayed with the loop emitter.
    let err = codegen_error(cases[4].1).to_string();
    assert!(err.contains("c64 elements"), "{err}");
    let err = codegen_error(cases[5].1).to_string();
    assert!(
        err.contains("stayed with the loop emitter")
            && err.contains("combined together atomically"),
        "{err}"
    );
}

#[test]
fn dynamic_arrays_are_lowered_only_by_the_pad_to_static_emitter() {
    // XLA keeps a dynamic array's elements dense in its sizes: read at its bound shape's
    // places they would be wrong, so any other emitter refuses it, naming the kernel.
    let hlo = r#"
HloModule m
%fused (p0: f32[2,<=5]) -> f32[2,5] {
  %p0 = f32[2,<=5]{1,0} parameter(0)
  ROOT %neg = f32[2,5]{1,0} negate(%p0)
}
ENTRY %main (x: f32[2,<=5]) -> f32[2,5] {
  %x = f32[2,<=5]{1,0} parameter(0)
  ROOT %f = f32[2,5]{1,0} fusion(%x), kind=kLoop, calls=%fused
}
"#;
    let err = codegen_error(hlo).to_string();
    assert!(
        err.contains("cannot be lowered: parameter 0 f32[2,<=5]{1,0} is dynamic: only the pad-to-static emitter"),
        "{err}"
    );
}
