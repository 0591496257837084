//! The launch plan of a kernel: unroll factor, launch dimensions, thread-id map, and for every
//! output and operand the maps from thread ids to the elements read (the thread map composed
//! with the fusion's output-to-operand maps, simplified), and whether each access of an unrolled
//! thread's group is one vector access ([`crate::vector`]).

use xla_indexing_core::{ComposeError, IndexingMap};
use xla_indexing_hlo::Opcode;

use crate::concatenate::{ConcatenatePlan, plan_concatenate};
use crate::device::Device;
use crate::epilogue::reaches_hero;
use crate::error::PlanError;
use crate::in_place::{InPlacePlan, plan_in_place};
use crate::input_slices::{InputSlicesPlan, plan_input_slices};
use crate::kernel::{Kernel, element_bits, kernels};
use crate::launch::{LaunchDimensions, UnrollInputs, launch_dimensions, unroll_factor};
use crate::pad_to_static::{PadToStaticPlan, plan_pad_to_static};
use crate::reduction::{OutputSource, ReductionPlan, plan_reduction};
use crate::scatter::{ScatterPlan, plan_scatter};
use crate::thread_map::{thread_id_map, unroll_of};
use crate::tiling_space::TiledPlan;
use crate::transpose::{TransposePlan, plan_transpose};
use crate::vector::{Vectorization, lanes_run_together, vectorize};
use xla_indexing_hlo::access::{Access, OutOfRange, RuntimeVar};
use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::fusion::Composer;
use xla_indexing_hlo::module::Module;
use xla_indexing_hlo::shape::{ArrayShape, Shape};

/// Everything known about launching one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelPlan {
    /// The kernel planned.
    pub kernel: Kernel,
    /// The fused computation's name.
    pub computation: String,
    /// The emitter that writes the kernel.
    pub emitter: EmitterPlan,
    /// Consecutive output elements each thread writes.
    pub unroll: u64,
    /// Blocks and threads of the launch.
    pub launch: LaunchDimensions,
    /// Thread ids to the element each thread computes: of output 0 for the loop emitter, of the
    /// reduced input for the reduction emitter, of the transposed operand for the transpose
    /// emitter.
    pub thread_map: IndexingMap,
    /// One plan per output of the kernel, in order.
    pub outputs: Vec<OutputPlan>,
}

/// The emitter that writes a kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum EmitterPlan {
    /// XLA's loop emitter: each thread computes `unroll` adjacent output elements on its own.
    /// `fallback` says why the reduction or transpose emitter does not write a kernel that
    /// reduces or transposes.
    Loop {
        /// Why a fusion with a reduce or a transpose is not the reduction or transpose emitter's.
        fallback: Option<PlanError>,
    },
    /// The reduction emitter: threads share rows or columns (warp shuffles, shared memory).
    Reduction(Box<ReductionPlan>),
    /// The transpose emitter: a block moves a tile through shared memory.
    Transpose(Box<TransposePlan>),
    /// The concatenate emitter: one loop per operand of a concatenate.
    Concatenate(Box<ConcatenatePlan>),
    /// The scatter emitter: one thread per update element.
    Scatter(Box<ScatterPlan>),
    /// The in-place dynamic-update-slice emitter: one thread per update element.
    InPlace(Box<InPlacePlan>),
    /// The input-slices emitter: one thread per element of the sliced operands.
    InputSlices(Box<InputSlicesPlan>),
    /// The pad-to-static emitter: one thread per element of the static output.
    PadToStatic(Box<PadToStaticPlan>),
    /// A loop through a tiling of output 0 (`compile --tiling`): a block per tile, each thread
    /// computing its elements of the tile as the loop emitter does.
    Tiled(Box<TiledPlan>),
}

impl EmitterPlan {
    /// `loop`, the reduction family (`row reduction`, `multi-row reduction`, `column reduction`,
    /// `small column reduction`), `transpose`, `concatenate` or `scatter`.
    pub fn name(&self) -> &'static str {
        match self {
            EmitterPlan::Loop { .. } => "loop",
            EmitterPlan::Reduction(r) => r.kind.name(),
            EmitterPlan::Transpose(_) => "transpose",
            EmitterPlan::Concatenate(_) => "concatenate",
            EmitterPlan::Scatter(_) => "scatter",
            EmitterPlan::InPlace(_) => "in-place dynamic-update-slice",
            EmitterPlan::InputSlices(_) => "input slices",
            EmitterPlan::PadToStatic(_) => "pad to static",
            EmitterPlan::Tiled(_) => "tiled loop",
        }
    }

    /// Whether the kernel reads its operands through maps from elements of the output it
    /// writes (the loop and pad-to-static emitters), rather than from elements of its own (a
    /// reduction's input, a transpose's tile, a scatter's update).
    pub fn reads_from_output_elements(&self) -> bool {
        matches!(self, EmitterPlan::Loop { .. } | EmitterPlan::PadToStatic(_))
    }

    /// The outputs whose buffer must hold a parameter when the kernel starts, as
    /// `(output, parameter)` pairs: XLA gives a scatter's or an in-place update's output the
    /// operand's buffer, and the kernel only writes what changes.
    pub fn outputs_from_parameters(&self) -> Vec<(usize, usize)> {
        match self {
            EmitterPlan::Scatter(s) => s.operand_parameters.iter().copied().enumerate().collect(),
            EmitterPlan::InPlace(p) => p
                .slices
                .iter()
                .map(|s| s.operand_parameter)
                .enumerate()
                .collect(),
            _ => Vec::new(),
        }
    }
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
    /// Thread ids to the element of the output each thread stores, with the constraints under
    /// which it stores: one map per store of the kernel (the concatenate emitter stores once
    /// per operand, the other emitters once).
    pub write_maps: Vec<IndexingMap>,
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
    /// Thread ids to the elements [`OperandPlan::output_maps`] start from: the kernel's thread
    /// map, or for a reduction's epilogue its write map.
    pub read_map: IndexingMap,
    /// The emitter's element (see `read_map`) to operand element, one per distinct access.
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

/// The plan of one kernel, as XLA picks the emitter: the pad-to-static emitter's for a
/// `PadToStatic` custom call, else the reduction emitter's when it takes the fusion, else the transpose emitter's, else the input-slices emitter's, else the scatter
/// emitter's, else the concatenate emitter's, else the in-place dynamic-update-slice
/// emitter's, else the loop emitter's. A launch that exceeds the device's limits, or arithmetic
/// that overflows, is an error naming the kernel.
pub fn plan_kernel(
    module: &Module,
    kernel: Kernel,
    device: &Device,
) -> Result<KernelPlan, HloError> {
    let (c, outputs) = (kernel.computation, kernel.outputs.len());
    // Each emitter in turn takes the fusion (`Some`), passes it on (`None`), or refuses it and
    // says why (the loop emitter then writes it with that reason).
    let fallback = 'refused: {
        match plan_pad_to_static(module, c, outputs, device) {
            Ok(Some(pad)) => return pad_to_static_kernel(module, kernel, pad),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_reduction(module, c, outputs, device) {
            Ok(Some(reduction)) => return reduction_kernel(module, kernel, reduction),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_transpose(module, c, outputs, device) {
            Ok(Some(transpose)) => return transpose_kernel(module, kernel, transpose),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_input_slices(module, c, outputs, device) {
            Ok(Some(slices)) => return input_slices_kernel(module, kernel, slices),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_scatter(module, c, outputs, device) {
            Ok(Some(scatter)) => return scatter_kernel(module, kernel, scatter),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_concatenate(module, c, outputs, device) {
            Ok(Some(concat)) => return concatenate_kernel(module, kernel, concat),
            Ok(None) => {}
            Err(why) => break 'refused Some(why),
        }
        match plan_in_place(module, c, outputs, device) {
            Ok(Some(in_place)) => return in_place_kernel(module, kernel, in_place),
            Ok(None) => None,
            Err(why) => Some(why),
        }
    };
    loop_kernel(module, kernel, device, fallback)
}

/// The transpose emitter's kernel: each hero's source is read through its read map; every
/// output is written through its write map, reading the heroes it is computed from and the
/// epilogue's other operands where it writes (a side output reads everything there).
fn transpose_kernel(
    module: &Module,
    kernel: Kernel,
    transpose: TransposePlan,
) -> Result<KernelPlan, HloError> {
    let c = kernel.computation;
    let comp = &module.computations[c];
    let mut composer = Composer::new(module);
    let mut hero_reads = Vec::new();
    for h in &transpose.heroes {
        let mut reads = operand_plans(module, &kernel, &mut composer, h.source, &h.read_map)?;
        if !transpose.whole_groups {
            let why = format!(
                "a thread's {} elements of a row may straddle its end",
                transpose.tiling.vector
            );
            for r in &mut reads {
                r.vectors = vec![Vectorization::Scalar(why.clone()); r.vectors.len()];
            }
        }
        hero_reads.push(reads);
    }
    let mut outputs = Vec::new();
    for (k, (shape, out)) in kernel.outputs.iter().zip(&transpose.outputs).enumerate() {
        let mut operands = Vec::new();
        if out.moved {
            for (h, reads) in transpose.heroes.iter().zip(&hero_reads) {
                if reaches_hero(comp, out.root, &|i| i == h.hero) {
                    operands.extend(reads.iter().cloned());
                }
            }
        }
        for (instr, map) in &out.free_reads {
            operands.extend(operand_plans(module, &kernel, &mut composer, *instr, map)?);
        }
        outputs.push(OutputPlan {
            output: k,
            shape: shape.clone(),
            operands,
            skipped: None,
            write_maps: vec![out.write_map.clone()],
            store: transpose_store(&transpose, out, shape),
        });
    }
    Ok(KernelPlan {
        computation: comp.name.clone(),
        kernel,
        unroll: 1,
        launch: transpose.launch,
        thread_map: transpose.read_map().clone(),
        emitter: EmitterPlan::Transpose(Box::new(transpose)),
        outputs,
    })
}

/// How a thread of the transpose emitter stores its unrolled elements of output `out`: in the
/// loop of the phase that stores it (over the read map for a side output, the write map for
/// the others), as one vector where the maps prove it and a thread's elements are whole groups.
fn transpose_store(
    transpose: &TransposePlan,
    out: &crate::transpose::TransposeOutput,
    shape: &ArrayShape,
) -> Vectorization {
    let phase = if out.moved {
        transpose.write_map()
    } else {
        transpose.read_map()
    };
    let unroll = unroll_of(phase);
    if !transpose.whole_groups {
        return Vectorization::Scalar(format!(
            "a thread's {} elements of a row may straddle its end",
            transpose.tiling.vector
        ));
    }
    vectorize(phase, &out.write_map, shape, unroll)
}

/// One output of a kernel that runs one loop over its thread map: the instructions it reads,
/// each through a map from the thread ids, and the map it is written through, element by
/// element (`store` says why).
struct ThreadMapOutput {
    reads: Vec<(usize, IndexingMap)>,
    write_map: IndexingMap,
    store: String,
}

/// The plan of a kernel that runs one loop over `thread_map` (the scatter, in-place and
/// input-slices emitters'), with `outputs` in order.
fn thread_map_kernel(
    module: &Module,
    kernel: Kernel,
    (launch, thread_map): (LaunchDimensions, IndexingMap),
    emitter: EmitterPlan,
    outputs: Vec<ThreadMapOutput>,
) -> Result<KernelPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let mut composer = Composer::new(module);
    let mut plans = Vec::new();
    for (k, (shape, out)) in kernel.outputs.iter().zip(outputs).enumerate() {
        let mut operands = Vec::new();
        for (from, map) in &out.reads {
            operands.extend(operand_plans(module, &kernel, &mut composer, *from, map)?);
        }
        plans.push(OutputPlan {
            output: k,
            shape: shape.clone(),
            operands,
            skipped: None,
            write_maps: vec![out.write_map],
            store: Vectorization::Scalar(out.store),
        });
    }
    Ok(KernelPlan {
        computation: comp.name.clone(),
        unroll: unroll_of(&thread_map),
        kernel,
        launch,
        thread_map,
        emitter,
        outputs: plans,
    })
}

/// The in-place emitter's kernel: each output reads its update through the thread map and its
/// offsets, and is written through its write map.
fn in_place_kernel(
    module: &Module,
    kernel: Kernel,
    in_place: InPlacePlan,
) -> Result<KernelPlan, HloError> {
    let scalar = in_place.thread_map.with_results(Vec::new());
    let outputs = in_place
        .slices
        .iter()
        .map(|slice| ThreadMapOutput {
            reads: std::iter::once((slice.update, in_place.thread_map.clone()))
                .chain(slice.offsets.iter().map(|&o| (o, scalar.clone())))
                .collect(),
            write_map: slice.write_map.clone(),
            store: "the in-place emitter stores at offsets known at run time".into(),
        })
        .collect();
    let threads = (in_place.launch, in_place.thread_map.clone());
    thread_map_kernel(
        module,
        kernel,
        threads,
        EmitterPlan::InPlace(Box::new(in_place)),
        outputs,
    )
}

/// The input-slices emitter's kernel: each output reads its slice's operand through the thread
/// map and is written through its write map.
fn input_slices_kernel(
    module: &Module,
    kernel: Kernel,
    slices: InputSlicesPlan,
) -> Result<KernelPlan, HloError> {
    let outputs = slices
        .slices
        .iter()
        .map(|slice| ThreadMapOutput {
            reads: vec![(slice.operand, slices.thread_map.clone())],
            write_map: slice.write_map.clone(),
            store: "the input-slices emitter stores each element under its slice's bounds check"
                .into(),
        })
        .collect();
    let threads = (slices.launch, slices.thread_map.clone());
    thread_map_kernel(
        module,
        kernel,
        threads,
        EmitterPlan::InputSlices(Box::new(slices)),
        outputs,
    )
}

/// The pad-to-static emitter's kernel: output 0 reads the dynamic input through the dense
/// read map (its runtime variables the dynamic sizes) and is written through the thread map;
/// each size is stored by the first thread of the first block.
fn pad_to_static_kernel(
    module: &Module,
    kernel: Kernel,
    pad: PadToStaticPlan,
) -> Result<KernelPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let error = |e: &dyn std::fmt::Display| kernel.error(format!("pad-to-static maps: {e}"));
    let param = comp
        .parameter(pad.parameter)
        .map(|i| comp.instructions[i].name.clone())
        .ok_or_else(|| kernel.error(format!("has no parameter {}", pad.parameter)))?;
    let output_dims = pad.read_map.dims().len();
    let runtime = (0..pad.input.rank())
        .map(|k| {
            let element = IndexingMap::new(
                vec![xla_indexing_core::Expr::constant(k as i64)],
                pad.read_map.dims().to_vec(),
                Vec::new(),
                Vec::new(),
            );
            RuntimeVar {
                instruction: format!("{param}'s dynamic size"),
                map: element,
                out_of_range: OutOfRange::Clamped,
            }
        })
        .collect();
    let read = Access::with_runtime(pad.read_map.clone(), runtime);
    let thread_read = Access::plain(pad.thread_map.clone())
        .then(&read)
        .map_err(|e| error(&e))?;
    debug_assert_eq!(output_dims, pad.thread_map.results().len());
    let operand = OperandPlan {
        parameter: pad.parameter,
        leaf: None,
        shape: pad.input.clone(),
        read_map: pad.thread_map.clone(),
        output_maps: vec![read],
        thread_maps: vec![thread_read],
        undefined: None,
        vectors: vec![Vectorization::Scalar(
            "the element read depends on the dynamic sizes".into(),
        )],
    };
    let first_thread = first_thread_map(&pad.thread_map);
    let outputs = kernel
        .outputs
        .iter()
        .enumerate()
        .map(|(k, shape)| OutputPlan {
            output: k,
            shape: shape.clone(),
            operands: if k == 0 {
                vec![operand.clone()]
            } else {
                Vec::new()
            },
            skipped: None,
            write_maps: vec![if k == 0 {
                pad.thread_map.clone()
            } else {
                first_thread.clone()
            }],
            store: Vectorization::Scalar(if k == 0 {
                "a padded element is stored as zero under a bounds check".into()
            } else {
                "the first thread of the first block stores the size".into()
            }),
        })
        .collect();
    Ok(KernelPlan {
        computation: comp.name.clone(),
        unroll: unroll_of(&pad.thread_map),
        kernel,
        launch: pad.launch,
        thread_map: pad.thread_map.clone(),
        emitter: EmitterPlan::PadToStatic(Box::new(pad)),
        outputs,
    })
}

/// `(thread ids) -> ()` on the first thread of the first block: where a scalar that one thread
/// stores is written.
fn first_thread_map(thread_map: &IndexingMap) -> IndexingMap {
    let mut map = IndexingMap::new(
        Vec::new(),
        thread_map.dims().to_vec(),
        Vec::new(),
        Vec::new(),
    );
    for k in 0..thread_map.dims().len() {
        map.add_constraint(
            xla_indexing_core::Expr::dim(k as u32),
            xla_indexing_core::Interval::point(0),
        );
    }
    map
}

/// The scatter emitter's kernel: each output reads the updates its combiner reads through the
/// thread map and the indices where the write map's runtime variables come from, and is written
/// through the write map (its elements are read there too: the combiner's current values).
fn scatter_kernel(
    module: &Module,
    kernel: Kernel,
    scatter: ScatterPlan,
) -> Result<KernelPlan, HloError> {
    let outputs = scatter
        .reads
        .iter()
        .map(|reads| ThreadMapOutput {
            reads: reads
                .iter()
                .map(|&j| (scatter.updates[j], scatter.thread_map.clone()))
                .chain(
                    scatter
                        .write
                        .runtime
                        .iter()
                        .map(|rt| (scatter.indices, rt.map.clone())),
                )
                .collect(),
            write_map: scatter.write.map.clone(),
            store: format!(
                "the scatter emitter combines one update at a time ({})",
                scatter.combiner.name()
            ),
        })
        .collect();
    let threads = (scatter.launch, scatter.thread_map.clone());
    thread_map_kernel(
        module,
        kernel,
        threads,
        EmitterPlan::Scatter(Box::new(scatter)),
        outputs,
    )
}

/// The plan of a kernel's only output, written through `write_maps` element by element (`why`
/// says so) and reading `operands`.
fn only_output(
    kernel: &Kernel,
    operands: Vec<OperandPlan>,
    write_maps: Vec<IndexingMap>,
    why: String,
) -> OutputPlan {
    OutputPlan {
        output: 0,
        shape: kernel.outputs[0].clone(),
        operands,
        skipped: None,
        write_maps,
        store: Vectorization::Scalar(why),
    }
}

/// The concatenate emitter's kernel: each operand of the hero is read through its loop's read
/// map (the epilogue is a chain of ops of one operand, which read nothing else).
fn concatenate_kernel(
    module: &Module,
    kernel: Kernel,
    concat: ConcatenatePlan,
) -> Result<KernelPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let mut composer = Composer::new(module);
    let mut operands = Vec::new();
    for l in &concat.loops {
        operands.extend(operand_plans(
            module,
            &kernel,
            &mut composer,
            l.operand,
            &l.read_map,
        )?);
    }
    let output = only_output(
        &kernel,
        operands,
        concat.loops.iter().map(|l| l.write_map.clone()).collect(),
        "the concatenate emitter stores elements one by one".into(),
    );
    Ok(KernelPlan {
        computation: comp.name.clone(),
        kernel,
        unroll: concat.unroll,
        launch: concat.launch,
        thread_map: concat.launch_map.clone(),
        emitter: EmitterPlan::Concatenate(Box::new(concat)),
        outputs: vec![output],
    })
}

/// The reduction emitter's kernel: every output is written through the plan's write map; the
/// heroes' inputs are read through its read map, the epilogue's other operands at the written
/// element.
fn reduction_kernel(
    module: &Module,
    kernel: Kernel,
    reduction: ReductionPlan,
) -> Result<KernelPlan, HloError> {
    let c = kernel.computation;
    let comp = &module.computations[c];
    let mut composer = Composer::new(module);
    let mut hero_reads = Vec::new();
    for (&h, read) in reduction.heroes.iter().zip(&reduction.input_maps) {
        let instr = &comp.instructions[h];
        for &input in &instr.operands[..instr.operands.len() / 2] {
            let mut reads = Vec::new();
            for free in free_operands(comp, input, &reduction.heroes) {
                reads.extend(operand_plans(module, &kernel, &mut composer, free, read)?);
            }
            // Heroes reading one parameter alike share the load (the emitter computes it once).
            for r in reads {
                if !hero_reads.contains(&r) {
                    hero_reads.push(r);
                }
            }
        }
    }
    let mut outputs = Vec::new();
    let unroll = reduction.read_map.range_vars()[crate::thread_map::UNROLL_SYMBOL]
        .bounds
        .count() as u64;
    for (k, (shape, source)) in kernel.outputs.iter().zip(&reduction.outputs).enumerate() {
        let (operands, write_map) = match *source {
            OutputSource::Epilogue(i) => {
                let mut operands = hero_reads.clone();
                for s in free_operands(comp, i, &reduction.heroes) {
                    operands.extend(operand_plans(
                        module,
                        &kernel,
                        &mut composer,
                        s,
                        &reduction.write_map,
                    )?);
                }
                (operands, reduction.write_map.clone())
            }
            OutputSource::Leaf { .. } => (hero_reads.clone(), reduction.write_map.clone()),
            OutputSource::Side(i) | OutputSource::Normalized(i) => {
                let at = reduction
                    .side_map(k, &reduction.read_map)
                    .map_err(|e| kernel.error(format!("write map of output {k}: {e}")))?;
                let mut operands = Vec::new();
                for free in free_operands(comp, i, &reduction.heroes) {
                    operands.extend(operand_plans(module, &kernel, &mut composer, free, &at)?);
                }
                (operands, at)
            }
        };
        outputs.push(OutputPlan {
            output: k,
            shape: shape.clone(),
            operands,
            skipped: None,
            store: match source {
                OutputSource::Side(_) | OutputSource::Normalized(_) if unroll > 1 => {
                    vectorize(&reduction.read_map, &write_map, shape, unroll)
                }
                OutputSource::Side(_) | OutputSource::Normalized(_) => {
                    Vectorization::Scalar("one element per step".into())
                }
                _ => Vectorization::Scalar("one thread of a row's or column's group stores".into()),
            },
            write_maps: vec![write_map],
        });
    }
    Ok(KernelPlan {
        computation: comp.name.clone(),
        kernel,
        unroll: 1,
        launch: reduction.launch,
        thread_map: reduction.read_map.clone(),
        emitter: EmitterPlan::Reduction(Box::new(reduction)),
        outputs,
    })
}

/// The instructions `i` is computed from that depend on no hero, stopping at each: `i` itself
/// when it depends on none, else what the ops on the way from `i` to the heroes read besides
/// them. The emitter reads them at the element it computes `i` at (the heroes' values it has).
fn free_operands(
    comp: &xla_indexing_hlo::module::Computation,
    i: usize,
    heroes: &[usize],
) -> Vec<usize> {
    let mut depends = vec![false; comp.instructions.len()];
    for &k in &comp.post_order {
        let instr = &comp.instructions[k];
        depends[k] = heroes.contains(&k) || instr.operands.iter().any(|&o| depends[o]);
    }
    let mut out = Vec::new();
    let mut pending = vec![i];
    let mut seen = vec![false; comp.instructions.len()];
    while let Some(k) = pending.pop() {
        if std::mem::replace(&mut seen[k], true) || heroes.contains(&k) {
            continue;
        }
        if !depends[k] {
            out.push(k);
            continue;
        }
        pending.extend(comp.instructions[k].operands.iter().copied());
    }
    out.sort_unstable();
    out
}

/// The parameter leaves instruction `from` reads, with the thread maps through `read_map` (thread
/// ids to `from`'s elements); a thread reads the elements of its step's `unroll_id`s together,
/// as one vector where the maps prove it.
fn operand_plans(
    module: &Module,
    kernel: &Kernel,
    composer: &mut Composer<'_>,
    from: usize,
    read_map: &IndexingMap,
) -> Result<Vec<OperandPlan>, HloError> {
    let unroll = unroll_of(read_map);
    let vectorization = |a: &Access, shape: &ArrayShape| {
        if unroll <= 1 {
            Vectorization::Scalar("one element per step".into())
        } else if !a.runtime.is_empty() {
            Vectorization::Scalar("the index depends on runtime values".into())
        } else {
            vectorize(read_map, &a.map, shape, unroll)
        }
    };
    composer
        .instruction_to_parameters(kernel.computation, from, 0)?
        .into_iter()
        .filter(|p| !p.maps.accesses.is_empty() || p.maps.undefined.is_some())
        .map(|p| operand_plan(module, kernel, p, read_map, &vectorization))
        .collect()
}

/// The plan of reading one parameter leaf through `read_map` then its maps `p`; `vectorization`
/// says how a thread's group reads through each access (over all of `read_map`'s variables).
fn operand_plan(
    module: &Module,
    kernel: &Kernel,
    p: xla_indexing_hlo::fusion::ParameterMaps,
    read_map: &IndexingMap,
    vectorization: &dyn Fn(&Access, &ArrayShape) -> Vectorization,
) -> Result<OperandPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let error = |e: &dyn std::fmt::Display| {
        kernel.error(format!("thread map of parameter {}: {e}", p.parameter))
    };
    let param = comp
        .parameter(p.parameter)
        .map(|i| &comp.instructions[i].shape)
        .ok_or_else(|| kernel.error(format!("has no parameter {}", p.parameter)))?;
    let thread_maps = p
        .maps
        .accesses
        .iter()
        .map(|a| Access::plain(read_map.clone()).then(a))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| error(&e))?;
    let shape = param.leaves()[p.leaf].clone();
    // Over the read map's variables, all kept (`thread_maps` drop the unused ones).
    let vectors = p
        .maps
        .accesses
        .iter()
        .map(|a| {
            let mut map = read_map.compose(&a.map)?;
            map.simplify();
            Ok(vectorization(&Access { map, ..a.clone() }, &shape))
        })
        .collect::<Result<Vec<_>, ComposeError>>()
        .map_err(|e| error(&e))?;
    Ok(OperandPlan {
        parameter: p.parameter,
        leaf: matches!(param, Shape::Tuple(_)).then_some(p.leaf),
        shape,
        read_map: read_map.clone(),
        output_maps: p.maps.accesses,
        thread_maps,
        undefined: p.maps.undefined,
        vectors,
    })
}

/// The loop emitter's kernel; `fallback` says why the reduction emitter does not take it.
fn loop_kernel(
    module: &Module,
    kernel: Kernel,
    device: &Device,
    fallback: Option<PlanError>,
) -> Result<KernelPlan, HloError> {
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
    let unroll = kernel
        .unroll_factor
        .unwrap_or_else(|| unroll_factor(&inputs, device));
    let launch = launch_dimensions(elements, unroll, device)
        .map_err(|e| kernel.error(format!("cannot launch {elements} elements: {e}")))?;
    let layout = first.layout_or_default();
    layout
        .validate(&first.dims)
        .map_err(|e| kernel.error(format!("output {first}: {e}")))?;
    let thread_map = thread_id_map(&launch, unroll, &first.dims, &layout)
        .map_err(|e| kernel.error(format!("thread-id map: {e}")))?;
    let together = lanes_run_together(elements, unroll);
    element_loop_kernel(
        module,
        kernel,
        EmitterPlan::Loop { fallback },
        (launch, thread_map),
        together,
    )
}

/// A kernel whose threads each compute their elements of output 0 on their own, as the loop
/// emitter's, over `thread_map` (the loop emitter's, or a tiled one): every output written at
/// the thread map's element (seen through a bitcast for a root of other dimensions), every
/// operand read through the fusion's maps from there; `together` says whether a thread's
/// unrolled elements are whole groups, which vector accesses need.
pub(crate) fn element_loop_kernel(
    module: &Module,
    kernel: Kernel,
    emitter: EmitterPlan,
    (launch, thread_map): (LaunchDimensions, IndexingMap),
    together: bool,
) -> Result<KernelPlan, HloError> {
    let comp = &module.computations[kernel.computation];
    let Some(first) = kernel.outputs.first().cloned() else {
        return Err(kernel.error("writes no array"));
    };
    let unroll = unroll_of(&thread_map);
    let elements = first.element_count().unwrap_or(0);
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
        let Some(write_map) = root_write_map(&thread_map, &first, shape)
            .map_err(|e| kernel.error(format!("write map of output {k}: {e}")))?
        else {
            outputs.push(OutputPlan {
                output: k,
                shape: shape.clone(),
                operands: Vec::new(),
                skipped: Some(format!(
                    "its elements are not output 0's ({first}) in another shape, and the kernel runs output 0's thread map"
                )),
                write_maps: vec![thread_map.clone()],
                store: Vectorization::Scalar("not written".into()),
            });
            continue;
        };
        let operands = composer
            .computation_output_to_input(kernel.computation, k)?
            .into_iter()
            .map(|p| operand_plan(module, &kernel, p, &write_map, &vectorization))
            .collect::<Result<Vec<_>, _>>()?;
        outputs.push(OutputPlan {
            output: k,
            shape: shape.clone(),
            operands,
            skipped: None,
            store: vectorization(&Access::plain(write_map.clone()), shape),
            write_maps: vec![write_map],
        });
    }
    Ok(KernelPlan {
        computation: comp.name.clone(),
        kernel,
        emitter,
        unroll,
        launch,
        thread_map,
        outputs,
    })
}

/// The loop emitter's write map of an output of shape `root`, given the thread map over output
/// 0 (of shape `first`): the thread map itself where the dimensions are the same, else, as XLA
/// indexes the roots of a multi-output loop fusion, the thread map through the bitcast from
/// output 0 to the root (the element at the same place in memory). `None` when no bitcast
/// relates them (other element counts, tiled layouts).
fn root_write_map(
    thread_map: &IndexingMap,
    first: &ArrayShape,
    root: &ArrayShape,
) -> Result<Option<IndexingMap>, ComposeError> {
    if root.dims == first.dims {
        return Ok(Some(thread_map.clone()));
    }
    let Some(bitcast) = xla_indexing_hlo::ops::bitcast_map(first, root)? else {
        return Ok(None);
    };
    let mut map = thread_map.compose(&bitcast)?;
    map.simplify();
    Ok(Some(map))
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
            let own = match i.opcode {
                Opcode::ReduceWindow | Opcode::Sort | Opcode::Dot => true,
                Opcode::Concatenate => i.operands.len() > 10,
                Opcode::Reduce => matches!(i.shape, Shape::Tuple(_)),
                _ => false,
            };
            if own {
                return true;
            }
            if !matches!(i.opcode, Opcode::Fusion | Opcode::Call) {
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
