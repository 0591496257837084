//! One fusion as a `gpu.func`: the emitter its plan names writes it.

use xla_indexing_hlo::{HloError, Module};

use xla_indexing_gpu::{EmitterPlan, KernelPlan, PlanError, scatter_distribution::Distribution};

use super::CodegenOptions;
use super::concatenate::concatenate_function;
use super::in_place::in_place_function;
use super::input_slices::input_slices_function;
use super::loop_emitter::loop_function;
use super::pad_to_static::pad_to_static_function;
use super::reduction::reduction_function;
use super::scatter::scatter_function;
use super::scatter_sorted::sorted_function;
use super::transpose::transpose_function;

/// A loop kernel's error, with why the fusion's own emitter refused it (a scatter the loop
/// emitter cannot write says why the scatter emitter did not take it).
fn refused(error: HloError, fallback: &Option<PlanError>) -> HloError {
    match (error, fallback) {
        (
            HloError::Analysis {
                instruction,
                line,
                column,
                message,
            },
            Some(why),
        ) => HloError::Analysis {
            instruction,
            line,
            column,
            message: format!("{message} (it stayed with the loop emitter: {why})"),
        },
        (error, _) => error,
    }
}

/// The `gpu.func` of one kernel, indented for a `gpu.module` body, written by the emitter its
/// plan names; `options` say whether composed maps are simplified before they are written and
/// whether the plan's vector accesses are used.
pub fn kernel_function(
    module: &Module,
    plan: &KernelPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    match &plan.emitter {
        EmitterPlan::Loop { fallback } => {
            loop_function(module, plan, symbol, options).map_err(|e| refused(e, fallback))
        }
        EmitterPlan::Reduction(r) => reduction_function(module, plan, r, symbol, options),
        EmitterPlan::Transpose(t) => transpose_function(module, plan, t, symbol, options),
        EmitterPlan::Concatenate(c) => concatenate_function(module, plan, c, symbol, options),
        EmitterPlan::Scatter(s) => match &s.distribution {
            Distribution::Sorted(sorted) => {
                sorted_function(module, plan, s, sorted, symbol, options)
            }
            _ => scatter_function(module, plan, s, symbol, options),
        },
        EmitterPlan::InPlace(p) => in_place_function(module, plan, p, symbol, options),
        EmitterPlan::InputSlices(s) => input_slices_function(module, plan, s, symbol, options),
        EmitterPlan::PadToStatic(p) => pad_to_static_function(module, plan, p, symbol, options),
        EmitterPlan::Tiled(_) => loop_function(module, plan, symbol, options),
    }
}
