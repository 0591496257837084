//! The kernels of an XLA dump made with `--xla_dump_emitter_re=.*`.
//!
//! For every kernel, XLA's CPU backend writes, with `PREFIX` = `module_NNNN.jit_PROGRAM.KERNEL`:
//!
//! * `PREFIX-pre-optimization.mlir`: the emitter's output, before any pass;
//! * `PREFIX.mlir-passes.log`: the IR before every pass (`// -----// IR Dump Before ...`);
//! * `PREFIX.ir-no-opt.ll` and `PREFIX.ir-with-opt.ll`: its LLVM IR before and after XLA's
//!   LLVM optimizer.
//!
//! `KERNEL` is `FUSION_kernel_module` for the emitters of XLA's loop family and
//! `__compute_module_FUSION` for the tiled emitter (XLA's `xtile` kernels); a scatter's is the
//! fusion's name alone. The emitter is named by the module's `xla.cpu_memory_region_name`,
//! `xla_cpu_emitter__EMITTER__hlo_opcode__OPCODE`.

use std::{
    fmt, fs, io,
    path::{Path, PathBuf},
};

/// A dump that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum DumpError {
    /// A file or directory of the dump that cannot be read.
    #[error("reading {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// A pass log without XLA's last MLIR stage.
    #[error("{} has no IR before {LAST_PASS}", log.display())]
    NoLastStage { log: PathBuf },
    /// A directory without kernels.
    #[error("no kernel in {} (no *.mlir-passes.log)", dir.display())]
    NoKernel { dir: PathBuf },
}

/// `fs::read_to_string`, its error naming the file.
fn read(path: &Path) -> Result<String, DumpError> {
    fs::read_to_string(path).map_err(|source| DumpError::Io {
        path: path.to_owned(),
        source,
    })
}

/// The pass whose input is XLA's last MLIR stage: after it, the kernel is LLVM dialect only.
const LAST_PASS: &str = "LowerToLLVMCPUPass";

/// The pass whose input is the last stage of XLA's loop family on tensors (`scf`, `arith`,
/// `tensor.extract`/`insert`, `xla.apply_indexing`): what the bench's checker is tried on.
const TENSOR_PASS: &str = "LowerTensorsPass";

/// An emitter of XLA's CPU backend.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Emitter {
    Loop,
    Concatenate,
    Scatter,
    DynamicUpdateSlice,
    Tiled,
    /// One the bench does not know, by its name in the region name.
    Other(String),
}

impl Emitter {
    /// The emitter named by a kernel module's text.
    pub fn of_module(text: &str) -> Emitter {
        let name = text
            .split("xla.cpu_memory_region_name = \"xla_cpu_emitter__")
            .nth(1)
            .and_then(|rest| rest.split("__").next())
            .unwrap_or("");
        match name {
            "loop_fusion_kernel_emitter" => Emitter::Loop,
            "concatenate_fusion_kernel_emitter" => Emitter::Concatenate,
            "cpu_scatter_fusion" => Emitter::Scatter,
            "dynamic_update_slice_kernel_emitter" => Emitter::DynamicUpdateSlice,
            "tiled_emitter" => Emitter::Tiled,
            other => Emitter::Other(other.to_owned()),
        }
    }

    /// Whether the emitter is XLA's tiled one (the table's second group).
    pub fn is_tiled(&self) -> bool {
        matches!(self, Emitter::Tiled)
    }
}

impl fmt::Display for Emitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Emitter::Loop => "loop",
            Emitter::Concatenate => "concatenate",
            Emitter::Scatter => "scatter",
            Emitter::DynamicUpdateSlice => "dynamic-update-slice",
            Emitter::Tiled => "tiled",
            Emitter::Other(name) => name,
        })
    }
}

/// One kernel of the dump.
#[derive(Debug)]
pub struct Kernel {
    /// `PROGRAM.KERNEL`, KERNEL without XLA's `_kernel_module` or `__compute_module_`.
    pub name: String,
    pub emitter: Emitter,
    /// The emitter's output.
    pub pre_optimization: PathBuf,
    /// XLA's last MLIR stage, cut from the pass log.
    pub last_stage: String,
    /// XLA's last stage on tensors, where the pipeline has one (not the tiled emitter's).
    pub tensor_stage: Option<String>,
    /// XLA's LLVM IR before LLVM's optimizer, when the dump has it.
    pub llvm_no_opt: Option<PathBuf>,
    /// XLA's LLVM IR after its own optimizer (what XLA ships), when the dump has it.
    pub llvm_with_opt: Option<PathBuf>,
}

/// The kernels of the dump in `dir`, sorted by name.
pub fn kernels(dir: &Path) -> Result<Vec<Kernel>, DumpError> {
    let io = |source| DumpError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut kernels = Vec::new();
    for entry in fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let Some(prefix) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".mlir-passes.log"))
            .map(str::to_owned)
        else {
            continue;
        };
        let pre_optimization = dir.join(format!("{prefix}-pre-optimization.mlir"));
        let module = read(&pre_optimization)?;
        let log = read(&path)?;
        let last_stage = stage_before(&log, LAST_PASS)
            .ok_or_else(|| DumpError::NoLastStage { log: path.clone() })?;
        let ll =
            |stage: &str| Some(dir.join(format!("{prefix}.{stage}.ll"))).filter(|p| p.is_file());
        let (llvm_no_opt, llvm_with_opt) = (ll("ir-no-opt"), ll("ir-with-opt"));
        kernels.push(Kernel {
            name: kernel_name(&prefix),
            emitter: Emitter::of_module(&module),
            pre_optimization,
            last_stage: last_stage.to_owned(),
            tensor_stage: stage_before(&log, TENSOR_PASS).map(str::to_owned),
            llvm_no_opt,
            llvm_with_opt,
        });
    }
    if kernels.is_empty() {
        return Err(DumpError::NoKernel {
            dir: dir.to_owned(),
        });
    }
    kernels.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(kernels)
}

/// `PROGRAM.KERNEL` of a dump file's prefix `module_NNNN.jit_PROGRAM.KERNEL`.
fn kernel_name(prefix: &str) -> String {
    let mut parts = prefix.splitn(3, '.');
    let _module = parts.next();
    let program = parts.next().unwrap_or("");
    let program = program.strip_prefix("jit_").unwrap_or(program);
    let kernel = parts.next().unwrap_or("");
    let kernel = kernel.strip_prefix("__compute_module_").unwrap_or(kernel);
    let kernel = kernel.strip_suffix("_kernel_module").unwrap_or(kernel);
    format!("{program}.{kernel}")
}

/// The IR a pass log shows before the pass `pass` (the last such dump).
pub fn stage_before<'a>(log: &'a str, pass: &str) -> Option<&'a str> {
    let marker = format!("IR Dump Before {pass}:");
    let header = log.rfind(&marker)?;
    let start = header + log[header..].find('\n')? + 1;
    let end = log[start..]
        .find("// -----// IR Dump")
        .map_or(log.len(), |n| start + n);
    Some(log[start..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_stage_is_cut_from_the_log() {
        let log = "// -----// IR Dump Before CSEPass: cse ('builtin.module' operation: @m) //----- //
module @m {
  old
}

// -----// IR Dump Before LowerToLLVMCPUPass: xla-lower-to-llvm-cpu ('builtin.module' operation: @m) //----- //
module @m {
  last
}


// -----// IR Dump Before ReconcileUnrealizedCastsPass: reconcile-unrealized-casts ('builtin.module' operation: @m) //----- //
module @m {
  llvm
}
";
        assert_eq!(stage_before(log, LAST_PASS), Some("module @m {\n  last\n}"));
        assert_eq!(stage_before(log, "CSEPass"), Some("module @m {\n  old\n}"));
        assert_eq!(stage_before(log, TENSOR_PASS), None);
    }

    #[test]
    fn names_and_emitters() {
        assert_eq!(
            kernel_name("module_0004.jit_pad_interior.wrapped_pad_kernel_module"),
            "pad_interior.wrapped_pad"
        );
        assert_eq!(
            kernel_name(
                "module_0028.jit_transpose_2d_small.__compute_module_transpose_copy_fusion"
            ),
            "transpose_2d_small.transpose_copy_fusion"
        );
        assert_eq!(
            kernel_name("module_0082.jit_scatter_add.wrapped_scatter"),
            "scatter_add.wrapped_scatter"
        );
        let module = "module @m attributes {xla.cpu_memory_region_name = \"xla_cpu_emitter__cpu_scatter_fusion__hlo_opcode__fusion\"} {";
        assert_eq!(Emitter::of_module(module), Emitter::Scatter);
        let tiled = Emitter::of_module(
            "xla.cpu_memory_region_name = \"xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion\"",
        );
        assert!(tiled.is_tiled());
        assert_eq!(
            Emitter::of_module("xla.cpu_memory_region_name = \"xla_cpu_emitter__new_one__hlo\"")
                .to_string(),
            "new_one"
        );
    }
}
