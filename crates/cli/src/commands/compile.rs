//! `xla-indexing compile`: the fusions of an HLO module as GPU kernels, as MLIR, LLVM IR or PTX.

use std::path::PathBuf;

use xla_indexing_codegen::CodegenOptions;
use xla_indexing_passes::compile::{CompileError, CompileOptions, Emit, compile};

use super::{ChipArg, TilingArg};
use crate::diag::{Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs};
use crate::progress::{Progress, QuietArg};

/// Lower fusions to GPU kernels: each thread computes the elements the thread-id map gives it,
/// reading every parameter through the thread map composed with the fusion's indexing maps.
///
/// --emit mlir   the kernels (gpu.func, xla_indexing.loop, apply_indexing), simplified
/// --emit llvm   LLVM IR for NVPTX (before LLVM's optimizer)
/// --emit ptx    PTX for --chip, through MLIR's NVPTX serialization
/// --emit host   the kernels as --emit mlir gives them, and a func.func named after the entry
///               computation that launches them all (gpu.launch_func, the grid and block of
///               `launch`) in the entry's order: its arguments are the entry's parameters,
///               then one out-parameter per leaf of its root, as memrefs in their HLO layouts;
///               every other fusion result gets its own gpu.alloc (reused nowhere, freed at
///               the end); bitcasts are views, tuples and get-tuple-element regroup buffers.
///               Any other entry instruction is an error at it (exit 1). Upstream lowers it
///               with func.func(gpu-async-region) and gpu-to-llvm.
///
/// Without --fusion every fusion of the module becomes a kernel of the one output (--emit host
/// takes no --fusion, exit 2). Kernels that call math functions (exp, tanh, ...) link
/// libdevice: --libdevice, XLA_INDEXING_LIBDEVICE, /usr/local/cuda, or the venv that
/// `cargo xtask setup` makes beside this binary's build.
/// A fusion the generator cannot lower is an error naming it and why (exit 1).
/// A module without fusions whose entry holds several ops (HLO before XLA's fusion passes) is
/// an error at its entry (exit 1) that says how to dump the module XLA compiled.
/// Example:
///   xla-indexing compile examples/hlo/transpose_exp_add.hlo --emit ptx
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value = "mlir")]
    emit: EmitArg,
    /// Only the kernel of this fusion instruction.
    #[arg(long, value_name = "F")]
    fusion: Option<String>,
    #[command(flatten)]
    chip: ChipArg,
    #[command(flatten)]
    tiling: TilingArg,
    /// libdevice.10.bc, for kernels that call math functions.
    #[arg(long, value_name = "PATH")]
    libdevice: Option<PathBuf>,
    #[command(flatten)]
    progress: QuietArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EmitArg {
    Mlir,
    Llvm,
    Ptx,
    Host,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (text, module) = super::read_fused_module(&args.file)?;
    let options = CompileOptions {
        codegen: CodegenOptions {
            device: args.chip.device(),
            fusion: args.fusion.clone(),
            simplify: true,
            vectorize: true,
            tiling: args.tiling.tiling.clone(),
        },
        chip: args.chip.chip.clone(),
        emit: match args.emit {
            EmitArg::Mlir => Emit::Mlir,
            EmitArg::Llvm => Emit::Llvm,
            EmitArg::Ptx => Emit::Ptx,
            EmitArg::Host => Emit::Host,
        },
        libdevice: crate::libdevice::find(args.libdevice.clone()),
    };
    let mut progress = Progress::new("compile", 0, args.progress.quiet);
    let compiled = compile(&module, &options, &mut |done, total| {
        progress.update(done, total)
    });
    drop(progress);
    let out = compiled.map_err(|e| match e {
        CompileError::Hlo(e) => super::hlo_failure(e, &args.file, &text),
        e @ CompileError::Chip(_) => Failure::new(Exit::Usage, Diagnostic::error(e.to_string())),
        e => Failure::new(Exit::Analysis, Diagnostic::error(e.to_string())),
    })?;
    let out = match args.output.format {
        Format::Text => out,
        Format::Json => {
            let key = match args.emit {
                EmitArg::Mlir => "mlir",
                EmitArg::Llvm => "llvm",
                EmitArg::Ptx => "ptx",
                EmitArg::Host => "host",
            };
            serde_json::json!({ key: out }).to_string()
        }
    };
    args.output.write(&out)
}
