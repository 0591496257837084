//! Code generation: the fusions of an HLO module as GPU kernels.
//!
//! Each kernel is a `gpu.func` whose threads run the thread-id map of `xla_indexing_gpu`
//! (an `xla_indexing.loop` over the thread ids and the per-thread chunk and unroll loop) and
//! compute the elements they write with the elemental emitter (`elemental.rs`): every
//! parameter is read through one `xla_indexing.apply_indexing` of the thread-id map composed
//! with the fusion's maps on the way. [`kernels_text`] writes the kernels as MLIR text;
//! `xla_indexing_passes::compile` lowers them to NVVM, LLVM IR and PTX.

#![warn(missing_docs)]

mod array_constant;
mod body;
mod buffer;
mod complex;
mod concatenate;
mod elemental;
mod elementwise;
mod emitter_base;
mod error;
mod fp4;
mod fp8;
mod host;
mod in_place;
mod input_slices;
mod kernel;
mod lanes;
mod loop_emitter;
mod pad_to_static;
mod reduce_precision;
mod reduction;
mod scalar;
mod scatter;
mod scatter_sorted;
mod stochastic_convert;
mod transpose;
mod types;
mod vector;

pub use emitter_base::launch_attribute;
pub use host::{Buffer, BufferRole, HostValue, LaunchList, Step, byte_size, launch_list};

use xla_indexing_hlo::{HloError, Module};

use xla_indexing_gpu::tiled::{Tiling, plan_kernel_with};
use xla_indexing_gpu::{Device, Kernel, KernelPlan, kernels};

use xla_indexing_core::names::UniqueNames;
use xla_indexing_core::stack::on_large_stack;

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
    /// Whether the accesses the plan vectorizes are written as vector loads and stores
    /// (`false` writes every access per element, for comparing kernels).
    pub vectorize: bool,
    /// Kernels through a tiling of their output 0 rather than by XLA's emitters (see
    /// `xla_indexing_gpu::tiled`); `None` plans as XLA does.
    pub tiling: Option<Tiling>,
}

/// The plans of `module`'s kernels (only `options.fusion`'s where one is named), as `options`
/// ask.
pub fn kernel_plans(
    module: &Module,
    options: &CodegenOptions,
) -> Result<Vec<KernelPlan>, HloError> {
    let all = kernels(module);
    let chosen: Vec<Kernel> = match &options.fusion {
        None => all,
        Some(f) => {
            let found: Vec<Kernel> = all.iter().filter(|k| &k.name == f).cloned().collect();
            if found.is_empty() {
                let names: Vec<&str> = all.iter().map(|k| k.name.as_str()).collect();
                return Err(HloError::Usage(format!(
                    "no fusion named {f}; the kernels are: {}",
                    names.join(", ")
                )));
            }
            found
        }
    };
    chosen
        .into_iter()
        .map(|k| plan_kernel_with(module, k, &options.device, options.tiling.as_ref()))
        .collect()
}

/// The default chip, every kernel, maps simplified, vector accesses where the plan proves them.
impl Default for CodegenOptions {
    fn default() -> CodegenOptions {
        CodegenOptions {
            device: Device::default(),
            fusion: None,
            simplify: true,
            vectorize: true,
            tiling: None,
        }
    }
}

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
    let plans = kernel_plans(module, options)?;
    let chosen: Vec<_> = plans.iter().collect();
    kernels_module(module, &chosen, options, progress, None)
}

/// The kernels of `plans` (as [`kernel_plans`] gives them) written as [`kernels_text`] writes
/// them, for a caller that reads the plans too.
pub fn plans_text(
    module: &Module,
    plans: &[KernelPlan],
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let chosen: Vec<_> = plans.iter().collect();
    kernels_module(module, &chosen, options, &mut |_, _| {}, None)
}

/// The kernels of `module` (as [`kernels_text`] writes them, every fusion) and beside their
/// `gpu.module` a host `func.func` named after the entry computation that launches them all
/// with `gpu.launch_func` in the entry computation's order, on buffers assigned per module
/// (one device buffer per intermediate fusion result, reused nowhere; see `host.rs`). An entry
/// instruction that is neither a fusion, a parameter, a tuple, a `get-tuple-element` nor a
/// bitcast is an error located at it; so is `options.fusion`, since the host launches them all.
pub fn host_text_with_progress(
    module: &Module,
    options: &CodegenOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, HloError> {
    if let Some(f) = &options.fusion {
        return Err(HloError::Usage(format!(
            "--fusion {f} cannot be combined with the host, which launches every kernel"
        )));
    }
    let plans = kernel_plans(module, options)?;
    let chosen: Vec<_> = plans.iter().collect();
    let host = |symbols: &[String]| host::host_function(module, &plans, symbols);
    kernels_module(module, &chosen, options, progress, Some(&host))
}

/// The host function written after the kernels, given their symbols.
type HostWriter<'a> = &'a dyn Fn(&[String]) -> Result<String, HloError>;

/// `module attributes {gpu.container_module} { gpu.module @kernels { ... } }` with the kernels
/// of `chosen`, and the function `host` writes from their symbols after the `gpu.module`; the
/// kernels are named in the order of `chosen`.
fn kernels_module(
    module: &Module,
    chosen: &[&KernelPlan],
    options: &CodegenOptions,
    progress: &mut dyn FnMut(usize, usize),
    host: Option<HostWriter>,
) -> Result<String, HloError> {
    let symbols = kernel_symbols(chosen.iter().copied());
    let mut text =
        String::from("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n");
    let total = chosen.len();
    for (done, (plan, symbol)) in chosen.iter().zip(&symbols).enumerate() {
        let kernel = on_large_stack(|| kernel::kernel_function(module, plan, symbol, options))
            .map_err(|e| {
                plan.kernel
                    .error(format!("cannot be lowered: no thread to write it: {e}"))
            })?;
        text.push_str(&kernel?);
        progress(done + 1, total);
    }
    text.push_str("  }\n");
    if let Some(host) = host {
        text.push_str(&host(&symbols)?);
    }
    text.push_str("}\n");
    Ok(text)
}

/// The symbols of the kernels of `plans`, in their order, as the compiled module names them
/// (see [`unique_symbol`]).
pub fn kernel_symbols<'a>(plans: impl IntoIterator<Item = &'a KernelPlan>) -> Vec<String> {
    let mut used = UniqueNames::default();
    plans
        .into_iter()
        .map(|plan| unique_symbol(&plan.kernel.name, &mut used))
        .collect()
}

/// `name` with every character outside `[A-Za-z0-9_]` replaced by `_` (PTX identifiers), made
/// unique among `used` with a numeric suffix.
pub fn unique_symbol(name: &str, used: &mut UniqueNames) -> String {
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
