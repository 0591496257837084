//! `xla-indexing-lower-fusion`: the GPU kernel of every `xla_indexing.fusion` of a module, made
//! by the code generator of `xla-indexing-codegen` (the one behind `xla-indexing compile`).
//!
//! Each fusion's body becomes an HLO module ([`HloWriter`]): the fused computation has a
//! parameter per block argument and an instruction per op (the instruction the annotate pass
//! analyses for it), the regions of `stablehlo.reduce` and `reduce_window` become the
//! computations they call, and the operands of `xla_indexing.yield` are its root (a tuple for
//! several); the entry computation calls it with a `fusion` of the op's `kind` (`kLoop` when it
//! has none). The code generator plans it and writes its kernel (`plans_text`), which is parsed
//! into the pass's context and whose `gpu.func` moves into a `gpu.module @xla_indexing_kernels`
//! at the end of the module (made once; the module gets `gpu.container_module`). The fusion is marked with its kernel:
//!
//! ```mlir
//! %r = xla_indexing.fusion (%a) {name = "fused_computation", kind = "kLoop"}
//!     : (tensor<10x20xf32>) -> tensor<20x10xf32> {
//! ^bb0(%p0: tensor<10x20xf32>):
//!   %t = "stablehlo.transpose"(%p0) <{permutation = array<i64: 1, 0>}>
//!       : (tensor<10x20xf32>) -> tensor<20x10xf32>
//!   xla_indexing.yield %t : tensor<20x10xf32>
//! }
//! ```
//!
//! becomes the same op with `xla_indexing.kernel = @xla_indexing_kernels::@fused_computation`,
//! and
//!
//! ```mlir
//! gpu.module @xla_indexing_kernels {
//!   gpu.func @fused_computation(%arg0: memref<10x20xf32>, %arg1: memref<20x10xf32>) kernel
//!       attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], ...>} {
//!     ... xla_indexing.loop over the thread-id map, memref.load through apply_indexing ...
//!   }
//! }
//! ```
//!
//! A kernel takes a `memref` per fusion operand, then one per result, of the default (row-major)
//! layout (the import carries no layouts). Its name is the fusion's `name` with the characters
//! PTX does not allow replaced by `_`, made unique in the `gpu.module`.
//!
//! Only the device side is lowered: the fusion ops stay as they are, and the host side (buffers
//! for the tensors, copies, the kernel launches) is not generated. A fusion that already has
//! an `xla_indexing.kernel` is left alone, so the pass can run again. A fusion that cannot be
//! translated (an op without an HLO form here, a type that is not a static tensor) or lowered
//! (what the code generator does not handle) is an error at the fusion naming the op and why,
//! and the pass fails.
//!
//! Option `chip` (default `sm_90`) is the chip the kernels' launches are planned for (its
//! multiprocessors and limits, as `xla-indexing compile --chip`); the chip of the PTX is
//! `nvvm-attach-target`'s, which should be the same. Option `tiled` writes each fusion through
//! the best tiling of its output by the cost model (as `xla-indexing compile --tiling best`:
//! a block per tile) and marks the fusion with `xla_indexing.tiling = array<i64: ...>`, the
//! tile sizes (a fusion without a valid tiling keeps its emitter and gets no mark). A pipeline to PTX:
//!
//! ```text
//! xla-indexing-lower-fusion, xla-indexing-simplify, xla-indexing-lower-apply,
//! xla-indexing-launch-grid, gpu.module(convert-scf-to-cf, lower-affine, convert-gpu-to-nvvm,
//! canonicalize, cse, reconcile-unrealized-casts), xla-indexing-launch-grid,
//! nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu-module-to-binary{format=isa}
//! ```

use melior::{
    Context,
    ir::{
        Attribute, BlockLike, BlockRef, Module, OperationRef, RegionLike, ValueLike,
        attribute::StringAttribute,
        operation::{OperationLike, WalkOrder},
    },
};
use xla_indexing_hlo::{HloError, parse_module};
use xla_indexing_mlir::handles::{BlockHandle, OpHandle, collect_ops, with_context};
use xla_indexing_mlir::ir::{op_name, operations, parent_op, set_attribute};

use super::error::{LowerError, LowerErrorKind};
use super::{ChipOptions, PassFailure, chip_option};
use xla_indexing_codegen::{CodegenOptions, kernel_plans, plans_text, unique_symbol};
use xla_indexing_core::names::UniqueNames;
use xla_indexing_gpu::EmitterPlan;
use xla_indexing_gpu::tiled::Tiling;
use xla_indexing_mlir::ir::emit_error;
use xla_indexing_mlir::pass_entry;
use xla_indexing_mlir::pass_host::{PassOption, PassOptions, PassSpec};
use xla_indexing_translate::stablehlo::{HloWriter, hlo_shape};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-lower-fusion";

/// The attribute that names a fusion's kernel: `@xla_indexing_kernels::@NAME`.
pub const KERNEL_ATTRIBUTE: &str = "xla_indexing.kernel";

/// The attribute that holds the tile sizes of a fusion written through a tiling (option
/// `tiled`): `array<i64: 8, 16>`.
pub const TILING_ATTRIBUTE: &str = "xla_indexing.tiling";

/// The symbol of the `gpu.module` that holds the kernels.
pub const KERNELS_MODULE: &str = "xla_indexing_kernels";

const FUSION: &str = "xla_indexing.fusion";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-lower-fusion",
    c"XlaIndexingLowerFusion",
    c"Generate the GPU kernel of every xla_indexing.fusion (a gpu.func in gpu.module @xla_indexing_kernels, named by the fusion's xla_indexing.kernel); the fusions and the host side stay",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 2] = [
    chip_option(
        c"The chip whose limits and multiprocessors the kernels' launches are planned for (sm_70 to sm_100)",
    ),
    PassOption::flag(
        c"tiled",
        c"Write each fusion through the best tiling of its output by the cost model (as xla-indexing compile --tiling best) and mark the fusion with xla_indexing.tiling, the tile sizes",
        false,
    ),
];

/// The pass's options (in the order of [`OPTIONS`]).
struct LowerOptions {
    chip: ChipOptions,
    tiled: bool,
}

impl PassOptions for LowerOptions {
    fn decode(values: &[i64]) -> Result<LowerOptions, PassFailure> {
        Ok(LowerOptions {
            chip: ChipOptions::decode(values)?,
            tiled: values.get(1).is_some_and(|&v| v != 0),
        })
    }
}

fn run(operation: OperationRef, options: &LowerOptions) -> Result<(), PassFailure> {
    let codegen = CodegenOptions {
        device: options.chip.device.clone(),
        fusion: None,
        simplify: true,
        vectorize: true,
        tiling: options.tiled.then_some(Tiling::Best),
    };
    let name = op_name(&operation);
    if name != "builtin.module" {
        return Err(format!("runs on a builtin.module, not on '{name}'").into());
    }
    let module = OpHandle::of(&operation);
    let fusions = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        op_name(op) == FUSION
            && !op.has_attribute(KERNEL_ATTRIBUTE)
            && enclosing_module(op) == Some(module)
    });
    if fusions.is_empty() {
        return Ok(());
    }
    // SAFETY: the context is used inside the closure only.
    unsafe {
        with_context(&operation, |context| {
            lower_all(context, &operation, &fusions, &codegen)
        })
    }
}

/// Lowers `fusions` (of the module `operation`) into kernels of its `gpu.module`.
fn lower_all(
    context: &Context,
    operation: &OperationRef,
    fusions: &[OpHandle],
    options: &CodegenOptions,
) -> Result<(), PassFailure> {
    let body = operation
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or("the module has no body")?;
    let mut kernels = kernels_module(&body)?;
    let mut used = kernels.map(kernel_symbols).unwrap_or_default();
    let mut failures = 0usize;
    for handle in fusions {
        // SAFETY: the walk collected live ops, and none has been erased since (kernels are
        // moved into the module, fusions stay).
        let fusion = unsafe { handle.get() };
        let outcome = lower(context, &fusion, options, &mut used).and_then(|lowered| {
            place(
                context,
                &body,
                &mut kernels,
                &lowered.kernel,
                &lowered.symbol,
            )
            .map(|symbol| (symbol, lowered.tiling))
        });
        match outcome {
            Ok((symbol, tiling)) => {
                let reference = format!("@{KERNELS_MODULE}::@{symbol}");
                let attribute = Attribute::parse(context, &reference).ok_or_else(|| {
                    LowerError::from(LowerErrorKind::Internal(format!(
                        "`{reference}` does not parse"
                    )))
                })?;
                set_attribute(&fusion, KERNEL_ATTRIBUTE, attribute);
                if let Some(sizes) = tiling {
                    let text = format!("array<i64: {}>", join(&sizes));
                    let attribute = Attribute::parse(context, &text).ok_or_else(|| {
                        LowerError::from(LowerErrorKind::Internal(format!(
                            "`{text}` does not parse"
                        )))
                    })?;
                    set_attribute(&fusion, TILING_ATTRIBUTE, attribute);
                }
            }
            Err(error) => {
                emit_error(fusion.location(), &format!("{ARGUMENT}: {error}"));
                failures += 1;
            }
        }
    }
    if kernels.is_some() {
        set_attribute(operation, "gpu.container_module", Attribute::unit(context));
    }
    match failures {
        0 => Ok(()),
        1 => Err("a fusion could not be lowered (see the error above)".into()),
        n => Err(format!("{n} fusions could not be lowered (see the errors above)").into()),
    }
}

/// The `builtin.module` closest around `op`.
fn enclosing_module(op: &OperationRef) -> Option<OpHandle> {
    let mut parent = parent_op(op);
    while let Some(p) = parent {
        if op_name(&p) == "builtin.module" {
            return Some(OpHandle::of(&p));
        }
        parent = parent_op(&p);
    }
    None
}

/// The `gpu.module @xla_indexing_kernels` already in the module body, if any.
fn kernels_module(body: &BlockRef) -> Result<Option<OpHandle>, LowerError> {
    for op in operations(body) {
        if symbol_name(&op).as_deref() == Some(KERNELS_MODULE) {
            if op_name(&op) == "gpu.module" {
                return Ok(Some(OpHandle::of(&op)));
            }
            return Err(LowerErrorKind::Invalid(format!(
                "the symbol @{KERNELS_MODULE} is taken by a '{}', not a gpu.module",
                op_name(&op)
            ))
            .into());
        }
    }
    Ok(None)
}

/// The symbols of the ops in a `gpu.module`'s body.
fn kernel_symbols(gpu_module: OpHandle) -> UniqueNames {
    // SAFETY: `gpu_module` is a live op of the module the pass runs on.
    let gpu_module = unsafe { gpu_module.get() };
    let mut symbols = UniqueNames::default();
    let body = gpu_module.region(0).ok().and_then(|r| r.first_block());
    for op in body.iter().flat_map(operations) {
        if let Some(name) = symbol_name(&op) {
            symbols.take(name);
        }
    }
    symbols
}

/// The `sym_name` of `op`, if it has one.
fn symbol_name(op: &OperationRef) -> Option<String> {
    let attribute = op.attribute("sym_name").ok()?;
    StringAttribute::try_from(attribute)
        .ok()
        .map(|s| s.value().to_owned())
}

/// A string attribute of `op`, if it has one.
fn string_attribute(op: &OperationRef, name: &str) -> Option<String> {
    let attribute = op.attribute(name).ok()?;
    StringAttribute::try_from(attribute)
        .ok()
        .map(|s| s.value().to_owned())
}

/// The HLO module of `fusion`: its body as the fused computation and an entry computation
/// that calls it with a `fusion` instruction named `instruction`; with the writer, which knows
/// the op of each instruction.
fn fusion_module(
    fusion: &OperationRef,
    instruction: &str,
) -> Result<(String, HloWriter), LowerError> {
    let name = string_attribute(fusion, "name");
    let kind = string_attribute(fusion, "kind").unwrap_or_else(|| "kLoop".into());
    if !kind.starts_with('k') || !kind.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(LowerErrorKind::Invalid(format!(
            "'{kind}' is not a fusion kind (kLoop, kInput, ...)"
        ))
        .into());
    }
    let mut writer = HloWriter::default();
    let instruction = writer.fresh(instruction);
    let (computation, shape) = writer
        .region(fusion, 0, name.as_deref().unwrap_or("fused_computation"))
        .map_err(|e| {
            let kind = LowerErrorKind::Untranslatable(e.reason);
            match e.op.as_str() {
                // About the fusion itself, where the error is.
                FUSION => LowerError::from(kind),
                _ => LowerError::at(format!("'{}'", e.op), e.location, kind),
            }
        })?;
    let main = writer.fresh("main");
    let mut params = Vec::new();
    let mut lines = String::new();
    let mut args = Vec::new();
    for (i, operand) in fusion.operands().enumerate() {
        let ty = operand.r#type();
        let shape = hlo_shape(ty).ok_or_else(|| {
            LowerErrorKind::Unsupported(format!(
                "operand {i} has a type that is not a static tensor: {ty}"
            ))
        })?;
        let param = writer.fresh(&format!("arg{i}"));
        params.push(format!("{param}: {shape}"));
        lines.push_str(&format!("  %{param} = {shape} parameter({i})\n"));
        args.push(format!("%{param}"));
    }
    // The backend config the import carried over (XLA's, as the fusion had it).
    let config = string_attribute(fusion, "backend_config")
        .filter(|c| c.starts_with('{') && c.ends_with('}') && !c.contains('\n'))
        .map(|c| format!(", backend_config={c}"))
        .unwrap_or_default();
    let text = format!(
        "HloModule {instruction}\n\n{}ENTRY %{main} ({}) -> {shape} {{\n{lines}  ROOT %{instruction} = {shape} fusion({}), kind={kind}, calls=%{computation}{config}\n}}\n",
        writer.computations(),
        params.join(", "),
        args.join(", "),
    );
    Ok((text, writer))
}

/// A fusion's kernel, parsed into the pass's context.
struct Lowered<'c> {
    /// Its symbol, unique in the `gpu.module`.
    symbol: String,
    /// The kernel's module.
    kernel: Module<'c>,
    /// The tile sizes of output 0, where the kernel runs through a tiling.
    tiling: Option<Vec<i64>>,
}

/// The kernel of `fusion` as `options` plan it, parsed into `context`, with its symbol (unique
/// among `used`).
fn lower<'c>(
    context: &'c Context,
    fusion: &OperationRef,
    options: &CodegenOptions,
    used: &mut UniqueNames,
) -> Result<Lowered<'c>, LowerError> {
    let name = string_attribute(fusion, "name");
    let symbol = unique_symbol(name.as_deref().unwrap_or("fusion"), used);
    let (text, writer) = fusion_module(fusion, &symbol)?;
    let module = parse_module(&text).map_err(LowerErrorKind::FusionHlo)?;
    let failed = |e| codegen_error(&writer, &symbol, e);
    let plans = kernel_plans(&module, options).map_err(failed)?;
    let tiling = plans.iter().find_map(|p| match &p.emitter {
        EmitterPlan::Tiled(t) => Some(t.sizes.clone()),
        _ => None,
    });
    let kernel = plans_text(&module, &plans, options).map_err(failed)?;
    let kernel = Module::parse(context, &kernel)
        .ok_or_else(|| LowerErrorKind::Internal("the generated kernel does not parse".into()))?;
    Ok(Lowered {
        symbol,
        kernel,
        tiling,
    })
}

fn join(sizes: &[i64]) -> String {
    sizes
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A code generator error in the words of the fusion's ops: what an instruction was written
/// for, and where its op is.
fn codegen_error(writer: &HloWriter, fusion_instruction: &str, error: HloError) -> LowerError {
    match &error {
        HloError::Analysis {
            instruction,
            message,
            ..
        } => {
            let kind = LowerErrorKind::Codegen(message.clone());
            match writer.origin(instruction) {
                Some((what, location)) => LowerError::at(what, location, kind),
                None if instruction == fusion_instruction => kind.into(),
                None => LowerErrorKind::Codegen(error.to_string()).into(),
            }
        }
        _ => LowerErrorKind::Codegen(error.to_string()).into(),
    }
}

/// Moves the `gpu.func` of `kernel` (a module holding `gpu.module @kernels { gpu.func ... }`),
/// renamed `symbol`, into the kernels' `gpu.module` at the end of `body` (this one, renamed,
/// when there is none yet); returns the symbol.
fn place(
    context: &Context,
    body: &BlockRef,
    kernels: &mut Option<OpHandle>,
    kernel: &Module,
    symbol: &str,
) -> Result<String, LowerError> {
    let internal = || {
        LowerErrorKind::Internal("the generated kernel is not a gpu.module of one gpu.func".into())
    };
    let gpu_module = kernel
        .body()
        .first_operation()
        .filter(|op| op_name(op) == "gpu.module")
        .ok_or_else(internal)?;
    let function = gpu_module
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
        .filter(|op| op_name(op) == "gpu.func")
        .ok_or_else(internal)?;
    set_attribute(
        &function,
        "sym_name",
        StringAttribute::new(context, symbol).into(),
    );
    match kernels {
        None => {
            set_attribute(
                &gpu_module,
                "sym_name",
                StringAttribute::new(context, KERNELS_MODULE).into(),
            );
            let gpu_module = OpHandle::of(&gpu_module);
            // SAFETY: the op and the block of the pass's module are live.
            unsafe { gpu_module.move_to_end(BlockHandle::of(body)) };
            *kernels = Some(gpu_module);
        }
        Some(target) => {
            // SAFETY: `target` is the live gpu.module of the pass's module.
            let block = unsafe { target.entry_block(0) }.ok_or_else(|| {
                LowerErrorKind::Invalid("the gpu.module of the kernels has no body".into())
            })?;
            // SAFETY: the gpu.func and the block are live.
            unsafe { OpHandle::of(&function).move_to_end(block) };
        }
    }
    Ok(symbol.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opt::full_context;

    /// The first fusion of `source`'s HLO form, with its fusion instruction named `kernel`.
    fn hlo_of(source: &str) -> Result<String, LowerError> {
        let context = full_context();
        context.set_allow_unregistered_dialects(true);
        let module = Module::parse(&context, source).expect("the test input parses");
        let fusions = collect_ops(&module.as_operation(), WalkOrder::PreOrder, |op| {
            op_name(op) == FUSION
        });
        // SAFETY: the fusion lives in `module`, which outlives this use.
        let fusion = unsafe { fusions.first().expect("a fusion").get() };
        fusion_module(&fusion, "kernel").map(|(text, _)| text)
    }

    #[test]
    fn fusion_module_has_the_real_reducer() {
        let text = hlo_of(
            r#"
func.func @f(%in: tensor<8x32xf32>) -> tensor<8xf32> {
  %r = xla_indexing.fusion (%in) {name = "row_max", kind = "kInput"} : (tensor<8x32xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8x32xf32>):
    %init = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %max = "stablehlo.reduce"(%p, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    xla_indexing.yield %max : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
"#,
        );
        assert_eq!(
            text.as_deref(),
            Ok(r#"HloModule kernel

%reduce_computation (param_0.1: f32[], param_1: f32[]) -> f32[] {
  %param_0.1 = f32[] parameter(0)
  %param_1 = f32[] parameter(1)
  ROOT %maximum = f32[] maximum(%param_0.1, %param_1)
}

%row_max (param_0: f32[8,32]) -> f32[8] {
  %param_0 = f32[8,32] parameter(0)
  %constant = f32[] constant(-inf)
  ROOT %reduce = f32[8] reduce(%param_0, %constant), dimensions={1}, to_apply=%reduce_computation
}

ENTRY %main (arg0: f32[8,32]) -> f32[8] {
  %arg0 = f32[8,32] parameter(0)
  ROOT %kernel = f32[8] fusion(%arg0), kind=kInput, calls=%row_max
}
"#)
        );
    }

    #[test]
    fn fusion_module_broadcasts_splats_and_returns_a_tuple() {
        let text = hlo_of(
            r#"
func.func @f(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<2x4xi1>) {
  %r:2 = xla_indexing.fusion (%x) {name = "pair"} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x4xi1>) {
  ^bb0(%p: tensor<4xi32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
    %t = "stablehlo.constant"() <{value = dense<true> : tensor<2x4xi1>}> : () -> tensor<2x4xi1>
    %s = "stablehlo.add"(%p, %one) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    xla_indexing.yield %s, %t : tensor<4xi32>, tensor<2x4xi1>
  }
  return %r#0, %r#1 : tensor<4xi32>, tensor<2x4xi1>
}
"#,
        );
        assert_eq!(
            text.as_deref(),
            Ok(r#"HloModule kernel

%pair (param_0: s32[4]) -> (s32[4], pred[2,4]) {
  %param_0 = s32[4] parameter(0)
  %constant.scalar = s32[] constant(1)
  %constant = s32[4] broadcast(%constant.scalar), dimensions={}
  %constant.1.scalar = pred[] constant(true)
  %constant.1 = pred[2,4] broadcast(%constant.1.scalar), dimensions={}
  %add = s32[4] add(%param_0, %constant)
  ROOT %tuple = (s32[4], pred[2,4]) tuple(%add, %constant.1)
}

ENTRY %main (arg0: s32[4]) -> (s32[4], pred[2,4]) {
  %arg0 = s32[4] parameter(0)
  ROOT %kernel = (s32[4], pred[2,4]) fusion(%arg0), kind=kLoop, calls=%pair
}
"#)
        );
    }

    #[test]
    fn fusion_module_rejects_values_from_outside() {
        let text = hlo_of(
            r#"
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla_indexing.fusion (%x) {name = "reduce_outside"} : (tensor<4xf32>) -> tensor<f32> {
  ^bb0(%p: tensor<4xf32>):
    %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %s = "stablehlo.reduce"(%p, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "stablehlo.add"(%a, %zero) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    xla_indexing.yield %s : tensor<f32>
  }
  return %x : tensor<4xf32>
}
"#,
        );
        let message = text.unwrap_err().to_string();
        assert!(
            message.starts_with("'stablehlo.add' at ")
                && message.ends_with(": uses a value defined outside its region"),
            "{message}"
        );
    }
}
