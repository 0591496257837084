//! The pad-to-static emitter (`xla_indexing_gpu::pad_to_static` plans it): the dynamic input's
//! buffer is its bytes; the kernel views its data as the bound shape and its sizes as `s32`s
//! (`memref.view`), reads each size once and clamps it to its bound, so that sizes past the
//! bounds read no byte outside the data. The first thread of the first block stores the sizes
//! into outputs `1..=rank`; then every thread, for each of its elements of output 0, reads the
//! dense input element through the plan's read map where the element is within the sizes, and
//! stores it, or zero elsewhere.

use xla_indexing_core::Interval;
use xla_indexing_gpu::{KernelPlan, pad_to_static::PadToStaticPlan};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, LaneLoop, begin_kernel, end_kernel};
use super::scalar::{Typed, zero_literal};
use super::types::{DynamicBuffer, Element, dynamic_buffer};

/// The `gpu.func` of a kernel the pad-to-static emitter writes (see the module comment).
pub fn pad_to_static_function(
    module: &Module,
    plan: &KernelPlan,
    pad: &PadToStaticPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let fail = |err: String| plan.kernel.lowering_error(err);
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], &pad.thread_map), options)?;
    let buffer = dynamic_buffer(&pad.input).map_err(|err| fail(err.to_string()))?;
    let input = ArrayBuffer::new(format!("%arg{}", pad.parameter), &pad.input)
        .map_err(|err| fail(err.to_string()))?;
    let (data, raw_sizes) = views(&mut e, &input, &buffer).map_err(fail)?;
    let [padded, sizes_out @ ..] = &outputs[..] else {
        return Err(fail(
            "a pad-to-static kernel writes its padded array first".into(),
        ));
    };
    store_sizes(&mut e, &raw_sizes, sizes_out);
    let sizes: Vec<String> = raw_sizes
        .iter()
        .zip(&pad.input.dims)
        .map(|(size, &bound)| e.clamped_index(size, Interval::new(0, bound)))
        .collect();
    let read = pad
        .thread_map
        .compose(&pad.read_map)
        .map_err(|err| fail(format!("read map: {err}")))?;
    let lane_loop = LaneLoop::open(&mut e, &pad.thread_map, plan, options);
    lane_loop.each_lane(&mut e, |e| {
        let element = e
            .materialize(&Index::of(&pad.thread_map))
            .map_err(|err| fail(format!("output index: {err}")))?;
        let value = padded_element(e, &data, (&read, &sizes), &element).map_err(fail)?;
        padded.store(&mut e.body, &value, &element);
        Ok(())
    })?;
    lane_loop.close(&mut e);
    Ok(end_kernel(text, e))
}

/// The views of the dynamic input's bytes: its data as the bound shape, and its sizes as one
/// `s32` each, loaded.
fn views(
    e: &mut Emitter,
    input: &ArrayBuffer,
    buffer: &DynamicBuffer,
) -> Result<(ArrayBuffer, Vec<Typed>), String> {
    let data_name = e.body.fresh("data");
    let data = ArrayBuffer::new(data_name, &buffer.data).map_err(|err| err.to_string())?;
    let start = e.body.index(0).name;
    e.body.line(format!(
        "{} = memref.view {}[{start}][] : {} to {}",
        data.name, input.name, input.ty, data.ty
    ));
    let rank = buffer.data.rank();
    let sizes_ty = format!("memref<{rank}xi32>");
    let offset = e.body.index(buffer.sizes_offset).name;
    let sizes = e
        .body
        .op(
            "sizes",
            &sizes_ty,
            format!(
                "memref.view {}[{offset}][] : {} to {sizes_ty}",
                input.name, input.ty
            ),
        )
        .name;
    let element = Element::of("s32").map_err(|err| err.to_string())?;
    let loaded = (0..rank)
        .map(|k| {
            let at = e.body.index(k as i64).name;
            let value = e.body.op(
                "size",
                element.mlir,
                format!("memref.load {sizes}[{at}] : {sizes_ty}"),
            );
            Typed { value, element }
        })
        .collect();
    Ok((data, loaded))
}

/// Stores each size into its `s32[]` output, on the first thread of the first block.
fn store_sizes(e: &mut Emitter, sizes: &[Typed], outputs: &[ArrayBuffer]) {
    let zero = e.body.index(0).name;
    let ids = e.frame.dims.clone();
    let firsts = ids
        .iter()
        .map(|id| {
            e.body
                .op(
                    "first",
                    "i1",
                    format!("arith.cmpi eq, {id}, {zero} : index"),
                )
                .name
        })
        .collect();
    let Some(first) = e.body.all(firsts) else {
        return;
    };
    e.body.open(format!("scf.if {first} {{"));
    for (size, out) in sizes.iter().zip(outputs) {
        e.body.line(format!(
            "memref.store {}, {}[] : {}",
            size.value.name, out.name, out.ty
        ));
    }
    e.body.close("}", false);
}

/// The value of output 0 at `element`: the input element `read` gives (thread ids to input
/// index, its runtime variables the `sizes`) where every index is below its size, zero
/// elsewhere.
fn padded_element(
    e: &mut Emitter,
    data: &ArrayBuffer,
    (read, sizes): (&xla_indexing_core::IndexingMap, &[String]),
    element: &[String],
) -> Result<String, String> {
    let within = element
        .iter()
        .zip(sizes)
        .map(|(i, size)| {
            e.body
                .op(
                    "within",
                    "i1",
                    format!("arith.cmpi slt, {i}, {size} : index"),
                )
                .name
        })
        .collect();
    let ty = data.element.mlir;
    let within = e.body.all(within).ok_or("a dynamic array has dimensions")?;
    let value = e.body.fresh("padded");
    e.body
        .open(format!("{value} = scf.if {within} -> ({ty}) {{"));
    e.enter_scope();
    let at = e
        .materialize(&Index {
            map: read.clone(),
            rts: sizes.to_vec(),
        })
        .map_err(|err| format!("input index: {err}"))?;
    let loaded = data.load(&mut e.body, &at).name;
    e.body.line(format!("scf.yield {loaded} : {ty}"));
    e.leave_scope();
    e.body.close("} else {", true);
    let zero = e.body.constant(&zero_literal(data.element), ty).name;
    e.body.line(format!("scf.yield {zero} : {ty}"));
    e.body.close("}", false);
    Ok(value)
}
