//! Code generation: the fusions of an HLO module as GPU kernels.
//!
//! Each kernel is a `gpu.func` whose threads run the thread-id map of `xla_indexing_hlo::gpu`
//! (an `xla_indexing.loop` over the thread ids and the per-thread chunk and unroll loop) and
//! compute the elements they write with the elemental emitter (`elemental.rs`): every
//! parameter is read through one `xla_indexing.apply_indexing` of the thread-id map composed
//! with the fusion's maps on the way. [`kernels_text`] writes the kernels as MLIR text;
//! [`pipeline`] lowers them to NVVM, LLVM IR and PTX.

mod body;
mod elemental;
mod kernel;
pub mod pipeline;
mod scalar;
mod types;

pub use kernel::launch_attribute;

use std::{io, panic, thread};

use xla_indexing_hlo::{
    HloError, Module,
    gpu::{Device, plan_module},
};

use crate::stablehlo::UniqueNames;

/// What to generate.
#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// The GPU the kernels' launches are planned for.
    pub device: Device,
    /// Only the kernel of this fusion (every kernel when `None`).
    pub fusion: Option<String>,
    /// Whether the composed maps are simplified before they are written (`false` writes them
    /// as composed, for comparing lowerings).
    pub simplify: bool,
}

/// The stack of the thread that writes a kernel. The elemental emitter recurses per
/// instruction on the way from a root to a parameter, up to `elemental::MAX_DEPTH` (20000)
/// levels; a debug build takes 11.5 KiB a level on a chain of negates and 14 KiB on one of
/// slices and concatenates (225 and 274 MiB at the limit). Fusions of thousands of ops in a chain
/// are common. The stack is address space, used only as deep as the emission goes.
const STACK_BYTES: usize = 1 << 30;

/// The kernels of `module` as one MLIR module holding a `gpu.module @kernels`; a kernel's name
/// is its fusion's, with characters PTX does not allow replaced by `_`. A fusion that cannot be
/// lowered is an error naming it and the reason. Each kernel is written on a thread with a
/// 1 GiB stack: fusions of thousands of ops in a chain are lowered (up to 20000 values
/// deep).
pub fn kernels_text(module: &Module, options: &CodegenOptions) -> Result<String, HloError> {
    kernels_text_with_progress(module, options, &mut |_, _| {})
}

/// [`kernels_text`], calling `progress(done, total)` after each kernel it writes.
pub fn kernels_text_with_progress(
    module: &Module,
    options: &CodegenOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, HloError> {
    let plans = plan_module(module, &options.device)?;
    let chosen: Vec<_> = match &options.fusion {
        None => plans.iter().collect(),
        Some(f) => {
            let found: Vec<_> = plans.iter().filter(|p| &p.kernel.name == f).collect();
            if found.is_empty() {
                let names: Vec<&str> = plans.iter().map(|p| p.kernel.name.as_str()).collect();
                return Err(HloError::Usage(format!(
                    "no fusion named {f}; the kernels are: {}",
                    names.join(", ")
                )));
            }
            found
        }
    };
    let mut used = UniqueNames::default();
    let mut text =
        String::from("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n");
    let total = chosen.len();
    for (done, plan) in chosen.into_iter().enumerate() {
        let symbol = unique_symbol(&plan.kernel.name, &mut used);
        let kernel =
            on_large_stack(|| kernel::kernel_function(module, plan, &symbol, options.simplify))
                .map_err(|e| {
                    plan.kernel
                        .error(format!("cannot be lowered: no thread to write it: {e}"))
                })?;
        text.push_str(&kernel?);
        progress(done + 1, total);
    }
    text.push_str("  }\n}\n");
    Ok(text)
}

/// Runs `f` on a thread with a [`STACK_BYTES`] stack and returns what it returns; a panic in
/// `f` goes on here. Also for MLIR's own recursion over deeply nested input
/// ([`crate::opt::run_pipeline`]).
pub(crate) fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> io::Result<T> {
    thread::scope(|scope| {
        let thread = thread::Builder::new()
            .name("xla-indexing-large-stack".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)?;
        Ok(thread.join().unwrap_or_else(|p| panic::resume_unwind(p)))
    })
}

/// `name` with every character outside `[A-Za-z0-9_]` replaced by `_` (PTX identifiers), made
/// unique among `used` with a numeric suffix.
pub(crate) fn unique_symbol(name: &str, used: &mut UniqueNames) -> String {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !base.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        base.insert(0, '_');
    }
    used.fresh(base, '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_ptx_identifiers_and_unique() {
        let mut used = UniqueNames::default();
        assert_eq!(unique_symbol("fusion.1", &mut used), "fusion_1");
        assert_eq!(unique_symbol("fusion_1", &mut used), "fusion_1_1");
        assert_eq!(unique_symbol("1x", &mut used), "_1x");
    }
}
