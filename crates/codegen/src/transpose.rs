//! The transpose emitter (`xla_indexing_gpu::transpose` plans it): a block moves one
//! `32 × 32` tile of each hero through shared memory.
//!
//! 1. Every thread computes each hero's source (the elemental emitter runs any fused prologue)
//!    at each element its read map gives it and stores it in the hero's shared tile at
//!    `[row, th_x]`, where `row = th_y + 8 · chunk_id`; the tiles are padded to `32 × 33`
//!    against bank conflicts. Side outputs (outputs that read no hero) are computed and stored
//!    in the same loop, at the elements it reads.
//! 2. `gpu.barrier`, at the top of the body, so that every thread of the block runs it.
//! 3. Every thread loads `[th_x, row]` of each tile, the hero's value at the element its write
//!    map gives it, gives them to the elemental emitter for the epilogues, and stores every
//!    output computed from the heroes at its write map's element.
//!
//! A hero that keeps its minor-most run in place (`[1, 0, 2]`) moves a run of it per tile
//! element: the tile is `32 × 33 × M` and both phases loop over `unroll_id` in it.
//!
//! Both phases are `xla_indexing.loop`s over the first hero's maps, whose constraints keep the
//! threads of a partial tile from reading or writing past the arrays.

use xla_indexing_core::IndexingMap;
use xla_indexing_gpu::{
    KernelPlan,
    reduction::SharedBuffer,
    thread_map::UNROLL_SYMBOL,
    transpose::{TransposeOutput, TransposePlan},
    vector::Vectorization,
};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, first_lanes, open_loop};
use super::lanes::Lanes;
use super::scalar::Typed;

/// The `gpu.func` of a kernel the transpose emitter writes (see the module comment).
pub fn transpose_function(
    module: &Module,
    plan: &KernelPlan,
    transpose: &TransposePlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let c = plan.kernel.computation;
    let tiles: Vec<SharedBuffer> = transpose.heroes.iter().map(|h| h.tile.clone()).collect();
    let Begun {
        text,
        emitter: mut e,
        outputs,
        shared,
    } = begin_kernel(
        module,
        plan,
        symbol,
        (&tiles, &transpose.launch_map),
        options,
    )?;
    // Phase 1: every hero's source read into its tile, side outputs stored where they are read.
    let side: Vec<Output> = outputs_where(transpose, plan, &outputs, false);
    let phase = Phase::open(&mut e, transpose.read_map(), plan, options)?;
    let mut stored = vec![Vec::new(); side.len()];
    for lane in 0..phase.lanes {
        e.set_lane(lane);
        for (hero, tile) in transpose.heroes.iter().zip(&shared) {
            let read = Index {
                map: hero.read_map.clone(),
                rts: Vec::new(),
            };
            let value = e.value(c, hero.source, &read)?;
            let at = tile_index(&mut e, &hero.store_map)?;
            tile.store(&mut e.body, &value.value.name, &at);
        }
        compute_outputs(&mut e, c, &side, &mut stored)?;
    }
    phase.close(&mut e, &side, &stored)?;
    e.body.line("gpu.barrier");
    // Phase 2: every hero's element loaded from its tile, the outputs computed from them.
    let moved: Vec<Output> = outputs_where(transpose, plan, &outputs, true);
    let phase = Phase::open(&mut e, transpose.write_map(), plan, options)?;
    let mut stored = vec![Vec::new(); moved.len()];
    for lane in 0..phase.lanes {
        e.set_lane(lane);
        for (hero, tile) in transpose.heroes.iter().zip(&shared) {
            let at = tile_index(&mut e, &hero.load_map)?;
            let value = tile.load(&mut e.body, &at);
            e.give(
                c,
                hero.hero,
                Typed {
                    value,
                    element: tile.element,
                },
            );
        }
        compute_outputs(&mut e, c, &moved, &mut stored)?;
    }
    phase.close(&mut e, &moved, &stored)?;
    Ok(end_kernel(text, e))
}

/// One output of a phase: what it stores, its buffer and how the plan stores a thread's lanes.
struct Output<'a> {
    plan: &'a TransposeOutput,
    buffer: &'a ArrayBuffer,
    store: &'a Vectorization,
}

/// The outputs stored after the barrier (`moved`) or before it.
fn outputs_where<'a>(
    transpose: &'a TransposePlan,
    plan: &'a KernelPlan,
    buffers: &'a [ArrayBuffer],
    moved: bool,
) -> Vec<Output<'a>> {
    transpose
        .outputs
        .iter()
        .zip(buffers)
        .zip(&plan.outputs)
        .filter(|((o, _), _)| o.moved == moved)
        .map(|((o, buffer), out)| Output {
            plan: o,
            buffer,
            store: &out.store,
        })
        .collect()
}

/// A phase's `xla_indexing.loop` over `map`: with lanes, the loop runs over a thread's groups
/// (`unroll_id` fixed to 0) and its body computes each of the unrolled elements in turn,
/// sharing vector loads and stores where the plan proves them.
struct Phase {
    map: IndexingMap,
    index: Vec<String>,
    /// The unrolled elements the body computes in turn (1 without lanes).
    lanes: usize,
}

impl Phase {
    /// Opens the loop over `map`, with lanes when the plan vectorizes some access and a
    /// thread's unrolled elements are whole groups.
    fn open(
        e: &mut Emitter,
        map: &IndexingMap,
        plan: &KernelPlan,
        options: &CodegenOptions,
    ) -> Result<Phase, HloError> {
        let unroll = map.range_vars()[UNROLL_SYMBOL].bounds.count() as u64;
        let lanes = options.vectorize && plan.vectorized() && unroll > 1;
        let loop_map = if lanes { first_lanes(map) } else { map.clone() };
        let index = open_loop(e, &loop_map, &[]).index;
        if lanes {
            let names = (0..unroll).map(|k| e.body.index(k as i64).name).collect();
            let depth = (e.body.regions(), e.scope_depth());
            e.lanes = Some(Lanes::new(map.clone(), unroll, names, depth));
        }
        Ok(Phase {
            map: loop_map,
            index,
            lanes: if lanes { unroll as usize } else { 1 },
        })
    }

    /// Stores every output's lanes (`stored[k]`, one value per lane of output `k`) and closes
    /// the loop: through the plan's vectors with lanes; else at the loop's index when the
    /// output's write map is the loop's, or at its own.
    fn close(
        self,
        e: &mut Emitter,
        outputs: &[Output],
        stored: &[Vec<Typed>],
    ) -> Result<(), HloError> {
        for (out, values) in outputs.iter().zip(stored) {
            if e.lanes.is_some() {
                e.store_lanes(out.buffer, &out.plan.write_map, values, out.store)
                    .map_err(|err| HloError::Usage(format!("output store: {err}")))?;
                continue;
            }
            let index = if out.plan.write_map == self.map {
                self.index.clone()
            } else {
                e.materialize(&Index {
                    map: out.plan.write_map.clone(),
                    rts: Vec::new(),
                })
                .map_err(|err| HloError::Usage(format!("output index: {err}")))?
            };
            for v in values {
                out.buffer.store(&mut e.body, &v.value.name, &index);
            }
        }
        e.lanes = None;
        close_loop(e, &[], &[]);
        Ok(())
    }
}

/// Each of `outputs` computed at its write map's element (of the current lane), appended to
/// its list in `stored`.
fn compute_outputs(
    e: &mut Emitter,
    c: usize,
    outputs: &[Output],
    stored: &mut [Vec<Typed>],
) -> Result<(), HloError> {
    for (out, values) in outputs.iter().zip(stored.iter_mut()) {
        let write = Index {
            map: out.plan.write_map.clone(),
            rts: Vec::new(),
        };
        values.push(e.value(c, out.plan.root, &write)?);
    }
    Ok(())
}

/// The shared tile's index that `map` (a store or load map of the plan) gives the current
/// step of the loop.
fn tile_index(e: &mut Emitter, map: &IndexingMap) -> Result<Vec<String>, HloError> {
    let at = Index {
        map: map.clone(),
        rts: Vec::new(),
    };
    e.materialize(&at)
        .map_err(|err| HloError::Usage(format!("tile index: {err}")))
}
