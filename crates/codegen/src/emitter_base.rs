//! What every emitter's kernel shares: its buffers and `gpu.func` header (with the launch
//! attribute and the shared buffers as workgroup memory), the thread and block ids, and the
//! `xla_indexing.loop`s over thread-id maps that the emitters' bodies run in.

use xla_indexing_core::{IndexingMap, Interval};
use xla_indexing_gpu::{
    EmitterPlan, KernelPlan,
    launch::LaunchDimensions,
    reduction::SharedBuffer,
    thread_map::{UNROLL_SYMBOL, unroll_of},
};
use xla_indexing_hlo::{HloError, Module, shape::Shape};

use super::CodegenOptions;
use super::body::Body;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Frame};
use super::error::CodegenError;
use super::lanes::Lanes;

/// The six thread-id values, as `gpu.thread_id` and `gpu.block_id` name them.
const IDS: [(&str, &str); 6] = [
    ("th_x", "gpu.thread_id x"),
    ("th_y", "gpu.thread_id y"),
    ("th_z", "gpu.thread_id z"),
    ("bl_x", "gpu.block_id x"),
    ("bl_y", "gpu.block_id y"),
    ("bl_z", "gpu.block_id z"),
];

/// A kernel's buffers: the fused computation's parameters (`%argN`), then the outputs
/// (`%outK`).
pub(crate) struct Signature {
    pub params: Vec<ArrayBuffer>,
    pub outputs: Vec<ArrayBuffer>,
}

/// The buffers of `plan`'s kernel; a tuple-shaped parameter or an element type that is not
/// lowered is an error naming the kernel.
pub(crate) fn signature(module: &Module, plan: &KernelPlan) -> Result<Signature, HloError> {
    let kernel = &plan.kernel;
    let comp = &module.computations[kernel.computation];
    let mut params = Vec::new();
    for n in 0..comp.num_parameters() {
        let i = comp
            .parameter(n)
            .ok_or_else(|| kernel.error(format!("cannot be lowered: parameter {n} is missing")))?;
        let Shape::Array(shape) = &comp.instructions[i].shape else {
            return Err(kernel.error(format!("cannot be lowered: parameter {n} is a tuple")));
        };
        if shape.is_dynamic() && !matches!(plan.emitter, EmitterPlan::PadToStatic(_)) {
            return Err(
                kernel.lowering_error(CodegenError::Dynamic(format!("parameter {n} {shape}")))
            );
        }
        params.push(
            ArrayBuffer::new(format!("%arg{n}"), shape).map_err(|e| kernel.lowering_error(e))?,
        );
    }
    let mut outputs = Vec::new();
    for (k, shape) in kernel.outputs.iter().enumerate() {
        if shape.is_dynamic() {
            return Err(kernel.lowering_error(CodegenError::Dynamic(format!("output {k} {shape}"))));
        }
        outputs.push(
            ArrayBuffer::new(format!("%out{k}"), shape).map_err(|e| kernel.lowering_error(e))?,
        );
    }
    Ok(Signature { params, outputs })
}

/// The opening line of a kernel's `gpu.func` (closed by the caller): its buffers, its shared
/// buffers (`workgroup` attributions, each `(SSA name, memref type)`) and its launch attribute
/// of `launch` and `map`.
pub(crate) fn function_header(
    symbol: &str,
    params: &[ArrayBuffer],
    outputs: &[ArrayBuffer],
    shared: &[ArrayBuffer],
    launch: &LaunchDimensions,
    map: &IndexingMap,
) -> String {
    let workgroup = if shared.is_empty() {
        String::new()
    } else {
        format!(" workgroup({})", typed_list(shared))
    };
    format!(
        "    gpu.func @{symbol}({}){workgroup} kernel attributes {{xla_indexing.launch = {}}} {{\n",
        signature_text(params, outputs),
        launch_attribute(launch, map)
    )
}

/// A kernel of the reduction, transpose, concatenate or scatter emitter, begun: its `gpu.func`
/// header, an emitter whose frame holds the thread ids, its output buffers and its shared
/// buffers.
pub(crate) struct Begun<'m> {
    pub text: String,
    pub emitter: Emitter<'m>,
    pub outputs: Vec<ArrayBuffer>,
    pub shared: Vec<ArrayBuffer>,
}

/// Begins `plan`'s kernel `symbol`: the header with the plan's `shared` buffers as workgroup
/// memory (`%shared0`, ...) and `launch_map` in its launch attribute, and the thread ids.
pub(crate) fn begin_kernel<'m>(
    module: &'m Module,
    plan: &KernelPlan,
    symbol: &str,
    (shared, launch_map): (&[SharedBuffer], &IndexingMap),
    options: &CodegenOptions,
) -> Result<Begun<'m>, HloError> {
    let kernel = &plan.kernel;
    let Signature { params, outputs } = signature(module, plan)?;
    let shared = shared
        .iter()
        .enumerate()
        .map(|(k, b)| {
            ArrayBuffer::shared(format!("%shared{k}"), b).map_err(|e| kernel.lowering_error(e))
        })
        .collect::<Result<Vec<_>, HloError>>()?;
    let text = function_header(symbol, &params, &outputs, &shared, &plan.launch, launch_map);
    let mut body = Body::at_depth(3);
    let dims = thread_ids(&mut body);
    let frame = Frame {
        dims,
        syms: Vec::new(),
    };
    let emitter = Emitter::new(module, (body, frame), params, options.simplify, symbol);
    Ok(Begun {
        text,
        emitter,
        outputs,
        shared,
    })
}

/// The whole kernel `symbol` of an emitter that runs one lane loop over `thread_map` (no shared
/// memory): `element` writes the body for the current thread and lane, given the output
/// buffers.
pub(crate) fn lane_kernel(
    module: &Module,
    plan: &KernelPlan,
    symbol: &str,
    thread_map: &IndexingMap,
    options: &CodegenOptions,
    mut element: impl FnMut(&mut Emitter, &[ArrayBuffer]) -> Result<(), HloError>,
) -> Result<String, HloError> {
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], thread_map), options)?;
    let lane_loop = LaneLoop::open(&mut e, thread_map, plan, options);
    lane_loop.each_lane(&mut e, |e| element(e, &outputs))?;
    lane_loop.close(&mut e);
    Ok(end_kernel(text, e))
}

/// The text of a kernel begun with `header` (its `gpu.func` line) whose body `e` has written:
/// the global constants it reads, then the header, the body, `gpu.return` and the closing
/// brace.
pub(crate) fn end_kernel(header: String, mut e: Emitter) -> String {
    e.body.line("gpu.return");
    let mut text = e.global_lines();
    text.push_str(&header);
    text.push_str(&e.body.into_text());
    text.push_str("    }\n");
    text
}

/// `%a : memref<...>, %b : memref<...>`, a workgroup attribution list.
fn typed_list(values: &[ArrayBuffer]) -> String {
    values
        .iter()
        .map(|b| format!("{} : {}", b.name, b.ty))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `%arg0: memref<...>, ..., %out0: memref<...>`.
fn signature_text(params: &[ArrayBuffer], outputs: &[ArrayBuffer]) -> String {
    params
        .iter()
        .chain(outputs)
        .map(|b| format!("{}: {}", b.name, b.ty))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the six thread and block ids and returns their names.
pub(crate) fn thread_ids(body: &mut Body) -> Vec<String> {
    IDS.iter()
        .map(|(name, op)| {
            body.line(format!("%{name} = {op}"));
            format!("%{name}")
        })
        .collect()
}

/// An `xla_indexing.loop` opened by [`open_loop`]: the names of its index, of the values it
/// carries inside the body, and of its results (one per carried value).
pub(crate) struct OpenLoop {
    pub index: Vec<String>,
    pub carried: Vec<String>,
    pub results: Vec<String>,
}

/// Opens an `xla_indexing.loop` over `map`'s thread ids and symbols (`[chunk_id, unroll_id]`,
/// or none) carrying `iter_args` (each an initial value and its type), makes the symbols the
/// frame's and opens a scope for the body.
pub(crate) fn open_loop(
    e: &mut Emitter,
    map: &IndexingMap,
    iter_args: &[(String, &str)],
) -> OpenLoop {
    let syms: Vec<String> = ["chunk", "unroll"]
        .iter()
        .take(map.range_vars().len())
        .map(|s| e.body.fresh(s))
        .collect();
    let index: Vec<String> = map.results().iter().map(|_| e.body.fresh("i")).collect();
    let syms_text = if syms.is_empty() {
        String::new()
    } else {
        format!("[{}]", syms.join(", "))
    };
    let carried: Vec<String> = iter_args.iter().map(|_| e.body.fresh("acc")).collect();
    let name = e.body.fresh("carried");
    let (results, defined) = match iter_args.len() {
        0 => (Vec::new(), String::new()),
        1 => (vec![name.clone()], format!("{name} = ")),
        n => (
            (0..n).map(|k| format!("{name}#{k}")).collect(),
            format!("{name}:{n} = "),
        ),
    };
    let carrying = if iter_args.is_empty() {
        String::new()
    } else {
        let args: Vec<String> = carried
            .iter()
            .zip(iter_args)
            .map(|(a, (init, _))| format!("{a} = {init}"))
            .collect();
        let types: Vec<&str> = iter_args.iter().map(|(_, t)| *t).collect();
        format!(" iter_args({}) -> ({})", args.join(", "), types.join(", "))
    };
    e.body.open(format!(
        "{defined}xla_indexing.loop ({}){syms_text} -> ({}) in #xla_indexing.map<\"{map}\">{carrying} {{",
        e.frame.dims.join(", "),
        index.join(", ")
    ));
    e.frame.syms = syms;
    e.enter_scope();
    OpenLoop {
        index,
        carried,
        results,
    }
}

/// Closes the loop of [`open_loop`], yielding `values` of `types` (the carried values' next).
pub(crate) fn close_loop(e: &mut Emitter, values: &[String], types: &[&str]) {
    e.leave_scope();
    e.frame.syms.clear();
    e.body.line(if values.is_empty() {
        "xla_indexing.yield".to_string()
    } else {
        format!(
            "xla_indexing.yield {} : {}",
            values.join(", "),
            types.join(", ")
        )
    });
    e.body.close("}", false);
}

/// An `xla_indexing.loop` over a thread map whose unrolled elements the body computes in turn
/// (lanes), sharing the vector loads and stores the plan proves; without lanes (no vector
/// access planned, or nothing unrolled) a plain loop over the map.
pub(crate) struct LaneLoop {
    /// The map the loop runs over: with lanes, the thread map at `unroll_id = 0`.
    pub map: IndexingMap,
    /// The loop's index (the map's results).
    pub index: Vec<String>,
    /// The unrolled elements the body computes in turn (1 without lanes).
    pub lanes: usize,
}

impl LaneLoop {
    /// Opens the loop over `map`, with lanes when the plan vectorizes some access and a
    /// thread's unrolled elements are whole groups.
    pub(crate) fn open(
        e: &mut Emitter,
        map: &IndexingMap,
        plan: &KernelPlan,
        options: &CodegenOptions,
    ) -> LaneLoop {
        let unroll = unroll_of(map);
        let lanes = options.vectorize && plan.vectorized() && unroll > 1;
        let loop_map = if lanes { first_lanes(map) } else { map.clone() };
        let index = open_loop(e, &loop_map, &[]).index;
        if lanes {
            let names = (0..unroll).map(|k| e.body.index(k as i64).name).collect();
            let depth = (e.body.regions(), e.scope_depth());
            e.lanes = Some(Lanes::new(map.clone(), unroll, names, depth));
        }
        LaneLoop {
            map: loop_map,
            index,
            lanes: if lanes { unroll as usize } else { 1 },
        }
    }

    /// Runs `body` once per lane, each lane made the emitter's current one.
    pub(crate) fn each_lane(
        &self,
        e: &mut Emitter,
        mut body: impl FnMut(&mut Emitter) -> Result<(), HloError>,
    ) -> Result<(), HloError> {
        for lane in 0..self.lanes {
            e.set_lane(lane);
            body(e)?;
        }
        Ok(())
    }

    /// Closes the loop, yielding nothing.
    pub(crate) fn close(self, e: &mut Emitter) {
        e.lanes = None;
        close_loop(e, &[], &[]);
    }
}

/// The thread loop of a kernel that computes its lanes one by one: `map` with `unroll_id` fixed
/// to 0, so that the loop runs once per group (the plan vectorizes only where a group runs all
/// its lanes or none, `xla_indexing_gpu::vector::lanes_run_together`).
pub(crate) fn first_lanes(map: &IndexingMap) -> IndexingMap {
    let mut range_vars = map.range_vars().to_vec();
    range_vars[UNROLL_SYMBOL].bounds = Interval::point(0);
    let mut first = IndexingMap::new(
        map.results().to_vec(),
        map.dims().to_vec(),
        range_vars,
        map.rt_vars().to_vec(),
    );
    for (e, iv) in map.constraints() {
        first.add_constraint(e.clone(), *iv);
    }
    first
}

/// `#xla_indexing.launch<block = [...], grid = [...], map = "...">`.
pub fn launch_attribute(launch: &LaunchDimensions, map: &xla_indexing_core::IndexingMap) -> String {
    let list = |v: &[u64; 3]| format!("[{}, {}, {}]", v[0], v[1], v[2]);
    format!(
        "#xla_indexing.launch<block = {}, grid = {}, map = \"{map}\">",
        list(&launch.threads),
        list(&launch.blocks)
    )
}
