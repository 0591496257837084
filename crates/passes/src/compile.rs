//! Kernels down to NVVM, LLVM IR and PTX, in process.
//!
//! 1. [`kernels_text`](xla_indexing_codegen::kernels_text) writes the kernels; `xla-indexing-simplify`
//!    simplifies their index arithmetic (`--emit mlir` stops here).
//! 2. `xla-indexing-lower-apply` lowers `xla_indexing.loop` and `apply_indexing` (in 32 bits
//!    where the values fit); `xla-indexing-launch-grid` turns the launch attribute into
//!    `known_block_size`, `known_grid_size` and `nvvm.reqntid`; upstream passes lower the
//!    `gpu.module` to NVVM (docs/architecture.md, "Maps to IR to PTX");
//!    `xla-indexing-launch-grid` again drops the `nvvm.maxntid` that `convert-gpu-to-nvvm`
//!    re-adds (ptxas rejects it beside `.reqntid`).
//! 3. `--emit llvm`: the `gpu.module`'s body, as a module with the NVPTX triple, translated to
//!    LLVM IR (before LLVM's optimizer). `--emit ptx`: `nvvm-attach-target` (with libdevice
//!    linked when the kernels call its math functions) and `gpu-module-to-binary{format=isa}`,
//!    which runs LLVM's optimizer and the NVPTX backend; the PTX is read from the binary.

use std::path::PathBuf;

use melior::ir::{
    Module, RegionLike,
    operation::{OperationLike, WalkOrder, WalkResult},
};
use xla_indexing_gpu::{Chip, UnknownChip};
use xla_indexing_hlo::{HloError, Module as HloModule};
use xla_indexing_mlir::ir::{gpu_object, operations};

use crate::opt::{Message, OptError, OptOptions, Session, session};
use xla_indexing_codegen::{CodegenOptions, host_text_with_progress, kernels_text_with_progress};

/// What `compile` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// The kernels in MLIR, simplified, before lowering.
    Mlir,
    /// LLVM IR for NVPTX, before LLVM's optimizer.
    Llvm,
    /// PTX for the chip.
    Ptx,
    /// The kernels as [`Emit::Mlir`] gives them and a host `func.func` that launches them all
    /// with `gpu.launch_func` on buffers assigned per module
    /// ([`host_text_with_progress`](xla_indexing_codegen::host_text_with_progress)).
    Host,
}

/// Options of [`compile`].
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// What kernels to generate, for which device.
    pub codegen: CodegenOptions,
    /// The NVPTX target (`sm_90`).
    pub chip: String,
    /// How far to lower.
    pub emit: Emit,
    /// libdevice (`libdevice.10.bc`), needed by kernels that call math functions; the caller
    /// finds it (the CLI: `--libdevice`, `XLA_INDEXING_LIBDEVICE`, a CUDA install, or the
    /// venv of `cargo xtask setup`).
    pub libdevice: Option<PathBuf>,
}

/// Why a compilation failed.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The HLO cannot be lowered (the error names the fusion or instruction and why).
    #[error(transparent)]
    Hlo(#[from] HloError),
    /// `--chip` is not in the table of chips.
    #[error(transparent)]
    Chip(#[from] UnknownChip),
    /// The kernels call math functions but no libdevice was given.
    #[error(
        "the kernels call libdevice math functions ({0}); pass --libdevice PATH/libdevice.10.bc \
         or set XLA_INDEXING_LIBDEVICE (PyPI's nvidia-cuda-nvcc-cu12 ships it under \
         nvidia/cuda_nvcc/nvvm/libdevice)"
    )]
    Libdevice(String),
    /// A pass failed on the generated kernels: a bug of the generator, reported with MLIR's
    /// diagnostics.
    #[error("lowering the generated kernels failed at `{stage}`: {}", messages(.errors))]
    Lowering {
        /// The pass or step that failed.
        stage: String,
        /// MLIR's diagnostics.
        errors: Vec<Message>,
    },
}

fn messages(all: &[Message]) -> String {
    let errors: Vec<&str> = all.iter().map(|m| m.message.as_str()).collect();
    if errors.is_empty() {
        "no diagnostic".into()
    } else {
        errors.join("; ")
    }
}

/// How index arithmetic is lowered on the way to NVVM.
#[derive(Clone, Copy, Debug)]
pub struct IndexLowering {
    /// Passes on the generated kernels (their result is `--emit mlir`).
    pub simplify: &'static str,
    /// Passes that lower `xla_indexing.loop` and `apply_indexing`.
    pub lower: &'static str,
    /// Passes on each `gpu.module` before `convert-gpu-to-nvvm` (each followed by `, `).
    pub refine: &'static str,
}

impl IndexLowering {
    /// This project's: bound-aware simplification, then arith in 32 bits where values fit.
    pub const OURS: IndexLowering = IndexLowering {
        simplify: "xla-indexing-simplify",
        lower: "xla-indexing-lower-apply",
        refine: "",
    };

    /// Upstream MLIR's best alone, for comparison: the maps as written (buffers addressed
    /// linearly, as ours) become `affine.apply`, which `canonicalize` composes and simplifies as
    /// affine maps (what `affine-simplify-structures` does, which runs on `func.func` only),
    /// then `lower-affine`, `canonicalize`, `cse` and the integer-range passes (which know the
    /// thread-id ranges from `known_block_size`) lower and narrow.
    pub const UPSTREAM: IndexLowering = IndexLowering {
        simplify: "",
        lower: "xla-indexing-lower-apply{prefer-affine=true simplify=false index-bitwidth=64 linearize=true}",
        refine: "canonicalize, cse, lower-affine, canonicalize, cse, int-range-optimizations, \
                 arith-int-range-narrowing{int-bitwidths-supported=32}, ",
    };
}

/// The stages of a compilation, as far as [`CompileOptions::emit`] asks (the later ones are
/// `None` before it).
#[derive(Clone, Debug, Default)]
pub struct Artifacts {
    /// The kernels in MLIR, simplified.
    pub mlir: String,
    /// Their LLVM IR.
    pub llvm: Option<String>,
    /// Their PTX.
    pub ptx: Option<String>,
}

/// Compiles the fusions of `module` as [`CompileOptions::emit`] asks, calling
/// `progress(done, total)` after each kernel is written (before they are lowered together).
pub fn compile(
    module: &HloModule,
    options: &CompileOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, CompileError> {
    let text = if options.emit == Emit::Host {
        host_text_with_progress(module, &options.codegen, progress)?
    } else {
        kernels_text_with_progress(module, &options.codegen, progress)?
    };
    let out = compile_kernels(&text, options, IndexLowering::OURS)?;
    Ok(match options.emit {
        Emit::Mlir | Emit::Host => out.mlir,
        Emit::Llvm => out.llvm.unwrap_or_default(),
        Emit::Ptx => out.ptx.unwrap_or_default(),
    })
}

/// Lowers kernels written by [`kernels_text`](xla_indexing_codegen::kernels_text) with `index` lowering, up
/// to `options.emit`.
pub fn compile_kernels(
    text: &str,
    options: &CompileOptions,
    index: IndexLowering,
) -> Result<Artifacts, CompileError> {
    let features = Chip::named(&options.chip)?.ptx_features;
    let session = session("<kernels>", OptOptions::default());
    let stage = |e: OptError, stage: &str| CompileError::Lowering {
        stage: stage.into(),
        errors: match e {
            OptError::Parse(m) | OptError::Pass(m) => m,
            OptError::Pipeline(p) => vec![Message {
                severity: crate::opt::Severity::Error,
                message: p,
                file: None,
                line: None,
                column: None,
            }],
        },
    };
    let mut kernels = session.parse(text).map_err(|e| stage(e, "parse"))?;
    let run = |kernels: &mut Module, pipeline: String| {
        session
            .run(kernels, &pipeline)
            .map_err(|e| stage(e, &pipeline))
    };
    if !index.simplify.is_empty() {
        run(&mut kernels, format!("builtin.module({})", index.simplify))?;
    }
    let mut out = Artifacts {
        mlir: kernels.as_operation().to_string(),
        ..Artifacts::default()
    };
    if matches!(options.emit, Emit::Mlir | Emit::Host) {
        return Ok(out);
    }
    run(
        &mut kernels,
        format!(
            "builtin.module({}, xla-indexing-launch-grid, gpu.module({}convert-scf-to-cf, \
             lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), \
             xla-indexing-launch-grid)",
            index.lower, index.refine
        ),
    )?;
    let lowered = kernels.as_operation().to_string();
    out.llvm = Some(llvm_ir(&session, &lowered).map_err(|e| stage(e, "translate to LLVM IR"))?);
    if options.emit == Emit::Llvm {
        return Ok(out);
    }
    let mut attach = format!("chip={} features={features} O=3", options.chip);
    if let Some(function) = libdevice_call(&lowered) {
        let path = options
            .libdevice
            .as_ref()
            .ok_or(CompileError::Libdevice(function))?;
        attach.push_str(&format!(" l={}", path.display()));
    }
    run(
        &mut kernels,
        format!(
            "builtin.module(nvvm-attach-target{{{attach}}}, gpu-module-to-binary{{format=isa}})"
        ),
    )?;
    out.ptx = Some(ptx_of(&kernels).ok_or_else(|| CompileError::Lowering {
        stage: "gpu-module-to-binary".into(),
        errors: session.take_messages(),
    })?);
    Ok(out)
}

/// The first libdevice function (`__nv_expf`) that lowered kernels call, if any.
fn libdevice_call(lowered: &str) -> Option<String> {
    let at = lowered.find("@__nv_")?;
    let name: String = lowered[at + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    Some(name)
}

/// The lowered `gpu.module`'s body as LLVM IR for NVPTX.
fn llvm_ir(session: &Session, lowered: &str) -> Result<String, OptError> {
    let module = session.parse(lowered)?;
    let mut body =
        String::from("module attributes {llvm.target_triple = \"nvptx64-nvidia-cuda\"} {\n");
    for op in operations(&module.body()) {
        if op.name().as_string_ref().as_str() != Ok("gpu.module") {
            continue;
        }
        let Some(block) = op.region(0).ok().and_then(|r| r.first_block()) else {
            continue;
        };
        for inner in operations(&block) {
            body.push_str(&inner.to_string());
            body.push('\n');
        }
    }
    body.push_str("}\n");
    let device = session.parse(&body)?;
    // Translation of anything but the LLVM and NVVM dialects fails, and the C API then prints
    // a null module: refuse such modules first.
    let mut foreign = None;
    device.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        if !(name == "builtin.module" || name.starts_with("llvm.") || name.starts_with("nvvm.")) {
            foreign.get_or_insert(name);
        }
        WalkResult::Advance
    });
    if let Some(name) = foreign {
        return Err(OptError::Pass(vec![Message {
            severity: crate::opt::Severity::Error,
            message: format!("`{name}` is left after lowering to NVVM"),
            file: None,
            line: None,
            column: None,
        }]));
    }
    session.llvm_ir(&device)
}

/// The PTX of the first `gpu.binary`'s object.
fn ptx_of(module: &Module) -> Option<String> {
    for op in operations(&module.body()) {
        if op.name().as_string_ref().as_str() != Ok("gpu.binary") {
            continue;
        }
        let objects = op.attribute("objects").ok()?;
        let array = melior::ir::attribute::ArrayAttribute::try_from(objects).ok()?;
        let object = array.element(0).ok()?;
        return gpu_object(object);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libdevice_calls_are_found() {
        assert_eq!(
            libdevice_call("llvm.call @__nv_expf(%0) : (f32) -> f32").as_deref(),
            Some("__nv_expf")
        );
        assert_eq!(libdevice_call("llvm.fadd"), None);
    }
}
