//! The launch plan of a kernel: unroll factor, launch dimensions, thread-id map, and for every
//! output and operand the maps from thread ids to the elements read (the thread map composed
//! with the fusion's output-to-operand maps, simplified), and whether each access of an unrolled
//! thread's group is one vector access ([`super::vector`]).

use xla_indexing_core::{ComposeError, IndexingMap};

use super::kernel::{Kernel, element_bits, kernels};
use super::launch::{Device, LaunchDimensions, UnrollInputs, launch_dimensions, unroll_factor};
use super::thread_map::thread_id_map;
use super::vector::{Vectorization, lanes_run_together, vectorize};
use crate::access::Access;
use crate::error::HloError;
use crate::fusion::Composer;
use crate::module::Module;
use crate::shape::{ArrayShape, Shape};

/// Everything known about launching one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelPlan {
    /// The kernel planned.
    pub kernel: Kernel,
    /// The fused computation's name.
    pub computation: String,
    /// Consecutive output elements each thread writes.
    pub unroll: u64,
    /// Blocks and threads of the launch.
    pub launch: LaunchDimensions,
    /// Thread ids to the element of output 0 each thread writes.
    pub thread_map: IndexingMap,
    /// One plan per output of the kernel, in order.
    pub outputs: Vec<OutputPlan>,
}

/// One output of a kernel and what writing it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputPlan {
    /// The output's index among the kernel's outputs (0-based).
    pub output: usize,
    /// The output's shape, with its layout.
    pub shape: ArrayShape,
    /// Each parameter leaf that writing the output reads (empty when the output is skipped).
    pub operands: Vec<OperandPlan>,
    /// Why the output has no thread maps (its dimensions differ from output 0's).
    pub skipped: Option<String>,
    /// How a thread stores its group of elements of this output.
    pub store: Vectorization,
}

/// One parameter leaf of the fused computation, as read while writing one output.
#[derive(Clone, Debug, PartialEq)]
pub struct OperandPlan {
    /// The parameter number (`N` of `parameter(N)`).
    pub parameter: usize,
    /// The leaf within a tuple-shaped parameter.
    pub leaf: Option<usize>,
    /// The shape of the leaf read.
    pub shape: ArrayShape,
    /// Output element to operand element, one per distinct access.
    pub output_maps: Vec<Access>,
    /// Thread ids to operand element, in the same order.
    pub thread_maps: Vec<Access>,
    /// Why some path has no map (the lists are then incomplete).
    pub undefined: Option<String>,
    /// How each access of [`OperandPlan::thread_maps`] reads a thread's group, in the same
    /// order (as for a read at the top of the thread loop; reads under a condition or in an
    /// inner loop stay scalar whatever this says).
    pub vectors: Vec<Vectorization>,
}

impl KernelPlan {
    /// Whether some output or operand of the kernel is accessed with vectors: the kernel then
    /// handles a thread's group lane by lane, with those accesses shared by the lanes.
    pub fn vectorized(&self) -> bool {
        self.outputs.iter().any(|o| {
            o.store.lanes().is_some()
                || o.operands
                    .iter()
                    .any(|op| op.vectors.iter().any(|v| v.lanes().is_some()))
        })
    }
}

/// The plans of every kernel of the module (see [`kernels`]).
pub fn plan_module(module: &Module, device: &Device) -> Result<Vec<KernelPlan>, HloError> {
    kernels(module)
        .into_iter()
        .map(|k| plan_kernel(module, k, device))
        .collect()
}

/// The plan of one kernel. A launch that exceeds the device's limits, or arithmetic that
/// overflows, is an error naming the kernel.
pub fn plan_kernel(
    module: &Module,
    kernel: Kernel,
    device: &Device,
) -> Result<KernelPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let Some(first) = kernel.outputs.first().cloned() else {
        return Err(kernel.error("writes no array"));
    };
    let elements = first
        .element_count()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| kernel.error(format!("output {first} has too many elements")))?;
    let inputs = UnrollInputs {
        elements,
        blocks_unrolling: blocks_unrolling(module, kernel.computation),
        smallest_output_bits: kernel
            .outputs
            .iter()
            .filter_map(|o| element_bits(&o.element))
            .min(),
    };
    let unroll = unroll_factor(&inputs, device);
    let launch = launch_dimensions(elements, unroll, device)
        .map_err(|e| kernel.error(format!("cannot launch {elements} elements: {e}")))?;
    let layout = first.layout_or_default();
    layout
        .validate(&first.dims)
        .map_err(|e| kernel.error(format!("output {first}: {e}")))?;
    let thread_map = thread_id_map(&launch, unroll, &first.dims, &layout)
        .map_err(|e| kernel.error(format!("thread-id map: {e}")))?;
    let together = lanes_run_together(elements, unroll);
    let vectorization = |map: &Access, shape: &ArrayShape| {
        if !together {
            Vectorization::Scalar(format!(
                "{elements} elements are not whole groups of {unroll}"
            ))
        } else if !map.runtime.is_empty() {
            Vectorization::Scalar("the index depends on runtime values".into())
        } else {
            vectorize(&thread_map, &map.map, shape, unroll)
        }
    };
    let mut composer = Composer::new(module);
    let mut outputs = Vec::new();
    for (k, shape) in kernel.outputs.iter().enumerate() {
        if shape.dims != first.dims {
            outputs.push(OutputPlan {
                output: k,
                shape: shape.clone(),
                operands: Vec::new(),
                skipped: Some(format!(
                    "its dimensions differ from output 0 ({first}), whose thread map the kernel uses"
                )),
                store: Vectorization::Scalar("not written".into()),
            });
            continue;
        }
        let mut operands = Vec::new();
        for p in composer.computation_output_to_input(kernel.computation, k)? {
            let param = comp
                .parameter(p.parameter)
                .map(|i| &comp.instructions[i].shape)
                .ok_or_else(|| kernel.error(format!("has no parameter {}", p.parameter)))?;
            let thread_maps = p
                .maps
                .accesses
                .iter()
                .map(|a| Access::plain(thread_map.clone()).then(a))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    kernel.error(format!("thread map of parameter {}: {e}", p.parameter))
                })?;
            let shape = param.leaves()[p.leaf].clone();
            // Over the thread map's variables, all kept (`thread_maps` drop the unused ones).
            let vectors = p
                .maps
                .accesses
                .iter()
                .map(|a| {
                    let mut map = thread_map.compose(&a.map)?;
                    map.simplify();
                    Ok(vectorization(&Access { map, ..a.clone() }, &shape))
                })
                .collect::<Result<Vec<_>, ComposeError>>()
                .map_err(|e| {
                    kernel.error(format!("thread map of parameter {}: {e}", p.parameter))
                })?;
            operands.push(OperandPlan {
                parameter: p.parameter,
                leaf: matches!(param, Shape::Tuple(_)).then_some(p.leaf),
                shape,
                output_maps: p.maps.accesses,
                thread_maps,
                undefined: p.maps.undefined,
                vectors,
            });
        }
        outputs.push(OutputPlan {
            output: k,
            shape: shape.clone(),
            operands,
            skipped: None,
            store: vectorization(&Access::plain(thread_map.clone()), shape),
        });
    }
    Ok(KernelPlan {
        computation: comp.name.clone(),
        kernel,
        unroll,
        launch,
        thread_map,
        outputs,
    })
}

/// Whether computation `c` (or one it calls, at any depth) holds an op that keeps the loop
/// emitter from unrolling: reduce-window, sort, dot, a concatenate of more than 10 operands, a
/// multi-output reduce. The calls are followed with a stack of their own, each computation once.
fn blocks_unrolling(module: &Module, c: usize) -> bool {
    let mut seen = vec![false; module.computations.len()];
    seen[c] = true;
    let mut pending = vec![c];
    while let Some(c) = pending.pop() {
        for i in &module.computations[c].instructions {
            let own = match i.opcode.as_str() {
                "reduce-window" | "sort" | "dot" => true,
                "concatenate" => i.operands.len() > 10,
                "reduce" => matches!(i.shape, Shape::Tuple(_)),
                _ => false,
            };
            if own {
                return true;
            }
            if !matches!(i.opcode.as_str(), "fusion" | "call") {
                continue;
            }
            let callees = i.called("calls").iter().chain(i.called("to_apply"));
            for callee in callees.filter_map(|n| module.computation(n)) {
                if !seen[callee] {
                    seen[callee] = true;
                    pending.push(callee);
                }
            }
        }
    }
    false
}
