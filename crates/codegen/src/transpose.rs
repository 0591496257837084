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

use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_gpu::{
    KernelPlan,
    reduction::SharedBuffer,
    thread_map::UNROLL_SYMBOL,
    transpose::{BLOCK_ROWS, TransposeOutput, TransposePlan},
};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};
use super::global::GlobalBuffer;
use super::scalar::Typed;
use super::types::Element;

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
    let fail = |e: String| plan.kernel.error(format!("cannot be lowered: {e}"));
    // A kept minor-most run is the tile's third index: `unroll_id`.
    let kept = |e: &Emitter| {
        if transpose.sizes[3] > 1 {
            format!(", {}", e.frame.syms[UNROLL_SYMBOL])
        } else {
            String::new()
        }
    };
    open_loop(&mut e, transpose.read_map(), &[]);
    let row = tile_row(&mut e, transpose.read_map())?;
    for (hero, (tile, tile_type)) in transpose.heroes.iter().zip(&shared) {
        let read = Index {
            map: hero.read_map.clone(),
            rts: Vec::new(),
        };
        let value = e.value(c, hero.source, &read)?;
        e.body.line(format!(
            "memref.store {}, {tile}[{row}, {}{}] : {tile_type}",
            value.value.name,
            e.frame.dims[0],
            kept(&e)
        ));
    }
    let side = transpose
        .outputs
        .iter()
        .zip(&outputs)
        .filter(|(o, _)| !o.moved);
    store_outputs(&mut e, c, side)?;
    close_loop(&mut e, &[], &[]);
    e.body.line("gpu.barrier");
    open_loop(&mut e, transpose.write_map(), &[]);
    let row = tile_row(&mut e, transpose.write_map())?;
    for (hero, (tile, tile_type)) in transpose.heroes.iter().zip(&shared) {
        let element = Element::of(&hero.tile.element).map_err(fail)?;
        let moved = e.body.op(
            "moved",
            element.mlir,
            format!(
                "memref.load {tile}[{}, {row}{}] : {tile_type}",
                e.frame.dims[0],
                kept(&e)
            ),
        );
        e.give(
            c,
            hero.hero,
            Typed {
                value: moved,
                element,
            },
        );
    }
    let moved = transpose
        .outputs
        .iter()
        .zip(&outputs)
        .filter(|(o, _)| o.moved);
    store_outputs(&mut e, c, moved)?;
    close_loop(&mut e, &[], &[]);
    Ok(end_kernel(text, e))
}

/// Computes each of `outputs` at its write map's element and stores it there.
fn store_outputs<'a>(
    e: &mut Emitter,
    c: usize,
    outputs: impl Iterator<Item = (&'a TransposeOutput, &'a GlobalBuffer)>,
) -> Result<(), HloError> {
    for (output, buffer) in outputs {
        let write = Index {
            map: output.write_map.clone(),
            rts: Vec::new(),
        };
        let value = e.value(c, output.root, &write)?;
        let index = e
            .materialize(&write)
            .map_err(|err| HloError::Usage(format!("output index: {err}")))?;
        buffer.store(&mut e.body, &value.value.name, &index);
    }
    Ok(())
}

/// The tile row a thread moves at the current step of a loop over `map`:
/// `th_y + BLOCK_ROWS · chunk_id`.
fn tile_row(e: &mut Emitter, map: &IndexingMap) -> Result<String, HloError> {
    let fail = |err: String| HloError::Usage(format!("tile row: {err}"));
    let row = Expr::sym(0)
        .checked_scale(BLOCK_ROWS as i64)
        .and_then(|r| r.checked_add(&Expr::dim(1)))
        .map_err(|err| fail(err.to_string()))?;
    let at = Index {
        map: IndexingMap::new(
            vec![row],
            map.dims().to_vec(),
            map.range_vars().to_vec(),
            Vec::new(),
        ),
        rts: Vec::new(),
    };
    let names = e.materialize(&at).map_err(|err| fail(err.to_string()))?;
    names
        .into_iter()
        .next()
        .ok_or_else(|| fail("no value".into()))
}
