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
    // A thread's unrolled elements (a vector, or a kept run) are read lane by lane in one
    // step, sharing the vector loads the plan proves.
    let read_map = transpose.read_map();
    let unroll = read_map.range_vars()[UNROLL_SYMBOL].bounds.count() as u64;
    let lanes = options.vectorize && plan.vectorized() && unroll > 1;
    let loop_map = if lanes {
        first_lanes(read_map)
    } else {
        read_map.clone()
    };
    let read_index = open_loop(&mut e, &loop_map, &[]).index;
    if lanes {
        let names = (0..unroll).map(|k| e.body.index(k as i64).name).collect();
        let depth = (e.body.regions(), e.scope_depth());
        e.lanes = Some(Lanes::new(read_map.clone(), unroll, names, depth));
    }
    for lane in 0..if lanes { unroll as usize } else { 1 } {
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
        let side = transpose
            .outputs
            .iter()
            .zip(&outputs)
            .filter(|(o, _)| !o.moved);
        store_outputs(&mut e, c, side, (&loop_map, &read_index))?;
    }
    e.lanes = None;
    close_loop(&mut e, &[], &[]);
    e.body.line("gpu.barrier");
    let write_index = open_loop(&mut e, transpose.write_map(), &[]).index;
    for (hero, tile) in transpose.heroes.iter().zip(&shared) {
        let at = tile_index(&mut e, &hero.load_map)?;
        let moved = tile.load(&mut e.body, &at);
        e.give(
            c,
            hero.hero,
            Typed {
                value: moved,
                element: tile.element,
            },
        );
    }
    let moved = transpose
        .outputs
        .iter()
        .zip(&outputs)
        .filter(|(o, _)| o.moved);
    store_outputs(&mut e, c, moved, (transpose.write_map(), &write_index))?;
    close_loop(&mut e, &[], &[]);
    Ok(end_kernel(text, e))
}

/// Computes each of `outputs` at its write map's element and stores it there; an output whose
/// write map is the loop's (`loop_map`, whose results are `loop_index`) stores at the loop's
/// index.
fn store_outputs<'a>(
    e: &mut Emitter,
    c: usize,
    outputs: impl Iterator<Item = (&'a TransposeOutput, &'a ArrayBuffer)>,
    (loop_map, loop_index): (&IndexingMap, &[String]),
) -> Result<(), HloError> {
    for (output, buffer) in outputs {
        let write = Index {
            map: output.write_map.clone(),
            rts: Vec::new(),
        };
        let value = e.value(c, output.root, &write)?;
        let index = if output.write_map == *loop_map {
            loop_index.to_vec()
        } else {
            e.materialize(&write)
                .map_err(|err| HloError::Usage(format!("output index: {err}")))?
        };
        buffer.store(&mut e.body, &value.value.name, &index);
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
