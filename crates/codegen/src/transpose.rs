//! The transpose emitter (`xla_indexing_gpu::transpose` plans it): a block moves one
//! `32 × 32` tile through shared memory.
//!
//! 1. Every thread computes the hero's source (the elemental emitter runs any fused prologue)
//!    at each element its read map gives it and stores it in the shared tile at `[row, th_x]`,
//!    where `row = th_y + 8 · chunk_id`; the tile is padded to `32 × 33` against bank conflicts.
//! 2. `gpu.barrier`, at the top of the body, so that every thread of the block runs it.
//! 3. Every thread loads `[th_x, row]` of the tile, the hero's value at the element its write
//!    map gives it, gives it to the elemental emitter for the epilogue, and stores every output.
//!
//! A hero that keeps its minor-most run in place (`[1, 0, 2]`) moves a run of it per tile
//! element: the tile is `32 × 33 × M` and both phases loop over `unroll_id` in it.
//!
//! Both phases are `xla_indexing.loop`s over the plan's maps, whose constraints keep the threads
//! of a partial tile from reading or writing past the arrays.

use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_gpu::{
    KernelPlan,
    thread_map::UNROLL_SYMBOL,
    transpose::{BLOCK_ROWS, TransposePlan},
};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};
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
    let kernel = &plan.kernel;
    let c = kernel.computation;
    let Begun {
        text,
        emitter: mut e,
        outputs,
        shared,
    } = begin_kernel(
        module,
        plan,
        symbol,
        (std::slice::from_ref(&transpose.tile), &transpose.launch_map),
        options,
    )?;
    let (tile, tile_type) = &shared[0];
    let element = Element::of(&transpose.tile.element)
        .map_err(|e| plan.kernel.error(format!("cannot be lowered: {e}")))?;
    let read = Index {
        map: transpose.read_map.clone(),
        rts: Vec::new(),
    };
    // A kept minor-most run is the tile's third index: `unroll_id`.
    let kept = |e: &Emitter| {
        if transpose.tile.dims.len() > 2 {
            format!(", {}", e.frame.syms[UNROLL_SYMBOL])
        } else {
            String::new()
        }
    };
    open_loop(&mut e, &read.map, &[]);
    let value = e.value(c, transpose.source, &read)?;
    let row = tile_row(&mut e, &read.map)?;
    e.body.line(format!(
        "memref.store {}, {tile}[{row}, {}{}] : {tile_type}",
        value.value.name,
        e.frame.dims[0],
        kept(&e)
    ));
    close_loop(&mut e, &[], &[]);
    e.body.line("gpu.barrier");
    let write = Index {
        map: transpose.write_map.clone(),
        rts: Vec::new(),
    };
    let index = open_loop(&mut e, &write.map, &[]).index;
    let row = tile_row(&mut e, &write.map)?;
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
        transpose.hero,
        Typed {
            value: moved,
            element,
        },
    );
    for (&source, buffer) in transpose.outputs.iter().zip(&outputs) {
        let value = e.value(c, source, &write)?;
        buffer.store(&mut e.body, &value.value.name, &index);
    }
    close_loop(&mut e, &[], &[]);
    Ok(end_kernel(text, e))
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
