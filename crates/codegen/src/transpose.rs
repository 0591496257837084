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
    transpose::{TransposeOutput, TransposePlan},
    vector::Vectorization,
};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, LaneLoop, begin_kernel, end_kernel};
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
    let phase = LaneLoop::open(&mut e, transpose.read_map(), plan, options);
    let mut stored = vec![Vec::new(); side.len()];
    phase.each_lane(&mut e, |e| {
        for (hero, tile) in transpose.heroes.iter().zip(&shared) {
            let read = Index::of(&hero.read_map);
            let value = e.value(c, hero.source, &read)?;
            let at = tile_index(e, &hero.store_map)?;
            tile.store(&mut e.body, &value.value.name, &at);
        }
        compute_outputs(e, c, &side, &mut stored)
    })?;
    close_phase(phase, &mut e, &side, &stored)?;
    e.body.line("gpu.barrier");
    // Phase 2: every hero's element loaded from its tile, the outputs computed from them.
    let moved: Vec<Output> = outputs_where(transpose, plan, &outputs, true);
    let phase = LaneLoop::open(&mut e, transpose.write_map(), plan, options);
    let mut stored = vec![Vec::new(); moved.len()];
    phase.each_lane(&mut e, |e| {
        for (hero, tile) in transpose.heroes.iter().zip(&shared) {
            let at = tile_index(e, &hero.load_map)?;
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
        compute_outputs(e, c, &moved, &mut stored)
    })?;
    close_phase(phase, &mut e, &moved, &stored)?;
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

/// Stores every output's lanes (`stored[k]`, one value per lane of output `k`) and closes
/// the phase's loop: through the plan's vectors with lanes; else at the loop's index when the
/// output's write map is the loop's, or at its own.
fn close_phase(
    phase: LaneLoop,
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
        let index = if out.plan.write_map == phase.map {
            phase.index.clone()
        } else {
            e.materialize(&Index::of(&out.plan.write_map))
                .map_err(|err| HloError::Usage(format!("output index: {err}")))?
        };
        for v in values {
            out.buffer.store(&mut e.body, &v.value.name, &index);
        }
    }
    phase.close(e);
    Ok(())
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
        let write = Index::of(&out.plan.write_map);
        values.push(e.value(c, out.plan.root, &write)?);
    }
    Ok(())
}

/// The shared tile's index that `map` (a store or load map of the plan) gives the current
/// step of the loop.
fn tile_index(e: &mut Emitter, map: &IndexingMap) -> Result<Vec<String>, HloError> {
    let at = Index::of(map);
    e.materialize(&at)
        .map_err(|err| HloError::Usage(format!("tile index: {err}")))
}
