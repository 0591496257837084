//! XLA's scatter over sorted indices (`xla_indexing_gpu::scatter_distribution::Sorted`): a
//! warp takes a run of consecutive update slices, each lane the same elements of every slice.
//! One `xla_indexing.loop` walks the slices (`index_id`), carrying the previous start, whether
//! it fits, and one accumulator per element of the lane. At each slice the thread reads the
//! start; when it differs from the previous one, the accumulators are landed at the previous
//! start (if it fitted) and restart from the slice's updates; else the updates are combined
//! into them with the scatter's combiner. After the loop the last accumulators are landed.
//! Landing is the scatter emitter's (`scatter::land`): a store, a load-combine-store for
//! unique indices, an atomic or a compare-and-swap loop.

use xla_indexing_gpu::{
    KernelPlan,
    scatter::ScatterPlan,
    scatter_distribution::Sorted,
    thread_map::{UNROLL_SYMBOL, fix_range_var},
};
use xla_indexing_hlo::{HloError, Module};

use super::CodegenOptions;
use super::body::Scalar;
use super::buffer::ArrayBuffer;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};
use super::scalar::{Typed, zero_literal};
use super::scatter::{land, read_starts};
use super::types::Element;

/// The `gpu.func` of a scatter over sorted indices (see the module comment).
pub fn sorted_function(
    module: &Module,
    plan: &KernelPlan,
    scatter: &ScatterPlan,
    sorted: &Sorted,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], &scatter.thread_map), options)?;
    let fail = |err: String| plan.kernel.lowering_error(err);
    let [output] = &outputs[..] else {
        return Err(fail("a scatter over sorted indices has one output".into()));
    };
    let map = &scatter.thread_map;
    let count = |k: usize| map.range_vars()[k].bounds.count() as i64;
    let elements: Vec<(i64, i64)> = (0..count(0))
        .flat_map(|step| (0..count(UNROLL_SYMBOL)).map(move |lane| (step, lane)))
        .collect();
    let zero = e.body.index(0).name;
    // Which of the lane's elements lie in the slice (the same for every slice).
    let mut valid = Vec::new();
    for &(step, lane) in &elements {
        let syms = [step, lane].map(|k| e.body.index(k).name);
        e.frame.syms = vec![syms[0].clone(), syms[1].clone(), zero.clone()];
        let at = e
            .materialize(&Index::of(&sorted.position))
            .map_err(|err| fail(format!("element position: {err}")))?;
        let size = e.body.index(sorted.slice_elements).name;
        valid.push(
            e.body
                .op(
                    "inside",
                    "i1",
                    format!("arith.cmpi ult, {}, {size} : index", at[0]),
                )
                .name,
        );
    }
    e.frame.syms.clear();
    // The loop over the warp's slices: the thread map at its first element.
    let slices_map = fix_range_var(map, 0, 0)
        .and_then(|m| fix_range_var(&m, 0, 0))
        .map_err(|err| fail(format!("slice loop: {err}")))?;
    let element = output.element;
    let minus_one = e.body.index(-1).name;
    let no = e.body.constant("false", "i1").name;
    let nothing = e.body.constant(&zero_literal(element), element.mlir).name;
    let rts = scatter.write.map.rt_vars().len();
    let mut inits: Vec<(String, &str)> = vec![(minus_one, "index"); rts];
    inits.push((no, "i1"));
    inits.extend(elements.iter().map(|_| (nothing.clone(), element.mlir)));
    let open = open_loop(&mut e, &slices_map, &inits);
    let index_id = e.frame.syms[0].clone();
    let (previous, rest) = open.carried.split_at(rts);
    let (fitted, accumulators) = (&rest[0], &rest[1..]);
    // The slice's start, and whether it changed.
    e.frame.syms = vec![zero.clone(), zero.clone(), index_id.clone()];
    let (starts, fits) = read_starts(&mut e, plan, scatter)?;
    let differs: Vec<String> = starts
        .iter()
        .zip(previous)
        .map(|(s, p)| {
            e.body
                .op("changed", "i1", format!("arith.cmpi ne, {s}, {p} : index"))
                .name
        })
        .collect();
    // The warp's first slice starts a run too (an empty index vector never differs).
    let first = e
        .body
        .op(
            "first",
            "i1",
            format!("arith.cmpi eq, {index_id}, {zero} : index"),
        )
        .name;
    let changed = any(&mut e, [first].into_iter().chain(differs).collect());
    let land_before = e
        .body
        .op("land", "i1", format!("arith.andi {changed}, {fitted} : i1"))
        .name;
    let landing = Accumulated::of(&elements, &valid, accumulators, element);
    land_all(
        &mut e,
        (module, plan, scatter),
        output,
        &landing,
        &land_before,
        previous,
    )?;
    let fits_now = fits.unwrap_or_else(|| e.body.constant("true", "i1").name);
    let fitted_next = e
        .body
        .op(
            "fits",
            "i1",
            format!("arith.select {changed}, {fits_now}, {fitted} : i1"),
        )
        .name;
    // Each element's accumulator: restarted by the slice's update when the start changed, else
    // combined with it.
    let instr = &module.computations[plan.kernel.computation].instructions[scatter.hero];
    let callee = instr
        .called("to_apply")
        .first()
        .cloned()
        .ok_or_else(|| fail("the scatter has no to_apply".into()))?;
    let mut next = starts.clone();
    next.push(fitted_next);
    for (&(step, lane), acc) in elements.iter().zip(&landing.values) {
        let syms = [step, lane].map(|k| e.body.index(k).name);
        e.frame.syms = vec![syms[0].clone(), syms[1].clone(), index_id.clone()];
        let at = Index::of(map);
        let update = e.value(plan.kernel.computation, scatter.updates[0], &at)?;
        let combined = e.apply(instr, &callee, vec![acc.clone(), update.clone()], &at)?;
        let ty = element.mlir;
        next.push(
            e.body
                .op(
                    "acc",
                    ty,
                    format!(
                        "arith.select {changed}, {}, {} : {ty}",
                        update.value.name, combined.value.name
                    ),
                )
                .name,
        );
    }
    let types: Vec<&str> = inits.iter().map(|(_, t)| *t).collect();
    close_loop(&mut e, &next, &types);
    // The last accumulators, where their start fitted.
    let (last_starts, rest) = open.results.split_at(rts);
    let landing = Accumulated::of(&elements, &valid, &rest[1..], element);
    land_all(
        &mut e,
        (module, plan, scatter),
        output,
        &landing,
        &rest[0],
        last_starts,
    )?;
    Ok(end_kernel(text, e))
}

/// A lane's accumulators: the elements they are of (`(chunk_id, unroll_id)`), whether each
/// lies in the slice, and their values.
struct Accumulated<'a> {
    elements: &'a [(i64, i64)],
    valid: &'a [String],
    values: Vec<Typed>,
}

impl<'a> Accumulated<'a> {
    /// The accumulators named `names`, of `element`.
    fn of(
        elements: &'a [(i64, i64)],
        valid: &'a [String],
        names: &[String],
        element: Element,
    ) -> Accumulated<'a> {
        let values = names
            .iter()
            .map(|a| Typed {
                value: Scalar::new(a.clone(), element.mlir),
                element,
            })
            .collect();
        Accumulated {
            elements,
            valid,
            values,
        }
    }
}

/// Lands every accumulator that lies in the slice at `starts`, where `when` holds.
fn land_all(
    e: &mut Emitter,
    (module, plan, scatter): (&Module, &KernelPlan, &ScatterPlan),
    output: &ArrayBuffer,
    accumulated: &Accumulated<'_>,
    when: &str,
    starts: &[String],
) -> Result<(), HloError> {
    let zero = e.body.index(0).name;
    for ((&(step, lane), valid), value) in accumulated
        .elements
        .iter()
        .zip(accumulated.valid)
        .zip(&accumulated.values)
    {
        let cond = e
            .body
            .op("land", "i1", format!("arith.andi {when}, {valid} : i1"))
            .name;
        e.body.open(format!("scf.if {cond} {{"));
        e.enter_scope();
        let syms = [step, lane].map(|k| e.body.index(k).name);
        e.frame.syms = vec![syms[0].clone(), syms[1].clone(), zero.clone()];
        let landing = Index {
            map: scatter.write.map.clone(),
            rts: starts.to_vec(),
        };
        let at = Index::of(&scatter.thread_map);
        land(
            e,
            module,
            plan,
            scatter,
            std::slice::from_ref(output),
            (std::slice::from_ref(value), &at),
            &landing,
        )?;
        e.leave_scope();
        e.body.close("}", false);
    }
    Ok(())
}

/// Whether any of `conditions` (at least one) holds.
fn any(e: &mut Emitter, conditions: Vec<String>) -> String {
    conditions
        .into_iter()
        .reduce(|a, b| {
            e.body
                .op("changed", "i1", format!("arith.ori {a}, {b} : i1"))
                .name
        })
        .unwrap_or_default()
}
