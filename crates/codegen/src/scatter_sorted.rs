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
    vector::linear_offset,
};
use xla_indexing_hlo::{HloError, Module, shape::ArrayShape};

use super::CodegenOptions;
use super::body::Scalar;
use super::buffer::{ArrayBuffer, from_memory};
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};
use super::scalar::{Typed, zero_literal};
use super::scatter::{as_index, land, read_starts};
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
    let reader = IndicesVector::new(&mut e, module, plan, (scatter, sorted))?;
    let mut inits: Vec<(String, &str)> = vec![(minus_one, "index"); rts];
    inits.push((no, "i1"));
    inits.extend(elements.iter().map(|_| (nothing.clone(), element.mlir)));
    // With indices read as vectors, the last vector read is carried last.
    let carried_vector = reader.as_ref().map(|r| (r.initial(&mut e), r.ty.as_str()));
    inits.extend(carried_vector.clone());
    let open = open_loop(&mut e, &slices_map, &inits);
    let index_id = e.frame.syms[0].clone();
    let (previous, rest) = open.carried.split_at(rts);
    let vectors = usize::from(reader.is_some());
    let (fitted, accumulators) = (&rest[0], &rest[1..rest.len() - vectors]);
    // The slice's start, and whether it changed.
    e.frame.syms = vec![zero.clone(), zero.clone(), index_id.clone()];
    let (starts, fits, next_vector) = match &reader {
        Some(r) => {
            let carried = &rest[rest.len() - 1];
            let (starts, fits, v) = r.read(&mut e, plan, scatter, (&index_id, carried))?;
            (starts, fits, Some(v))
        }
        None => {
            let (starts, fits) = read_starts(&mut e, plan, scatter)?;
            (starts, fits, None)
        }
    };
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
    next.extend(next_vector);
    let types: Vec<&str> = inits.iter().map(|(_, t)| *t).collect();
    close_loop(&mut e, &next, &types);
    // The last accumulators, where their start fitted.
    let (last_starts, rest) = open.results.split_at(rts);
    let landing = Accumulated::of(&elements, &valid, &rest[1..rest.len() - vectors], element);
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

/// The indices of a scatter over sorted indices read a vector at a time
/// (`Sorted::indices_vector`): where the warp's slice is the first of a vector, the vector of
/// its indices is loaded from a one-dimensional view of the indices' buffer (lane by lane, at
/// positions clamped to the buffer, where the vector would pass its end), and carried through
/// the loop; each slice takes its element.
struct IndicesVector {
    /// The view of the indices' buffer, its type and its elements.
    view: (String, String, i64),
    /// The indices' array.
    shape: ArrayShape,
    /// Indices per vector, their element, and the vector's type.
    width: i64,
    element: Element,
    ty: String,
}

impl IndicesVector {
    /// The reader of `scatter`'s indices, when the plan reads them `indices_vector` at a time
    /// and they are a parameter of the fused computation in the default layout, with one index
    /// per slice.
    fn new(
        e: &mut Emitter,
        module: &Module,
        plan: &KernelPlan,
        (scatter, sorted): (&ScatterPlan, &Sorted),
    ) -> Result<Option<IndicesVector>, HloError> {
        let comp = &module.computations[plan.kernel.computation];
        let indices = &comp.instructions[scatter.indices];
        let (Some(p), Some(shape)) = (indices.parameter_number, indices.array()) else {
            return Ok(None);
        };
        let width = sorted.indices_vector as i64;
        if width < 2 || scatter.write.runtime.len() != 1 || !shape.has_default_layout() {
            return Ok(None);
        }
        let fail = |err: String| plan.kernel.lowering_error(err);
        let buffer =
            ArrayBuffer::new(format!("%arg{p}"), shape).map_err(|err| fail(err.to_string()))?;
        if buffer.is_packed() {
            return Ok(None);
        }
        let (view, view_ty) = e.flat_view(&buffer).map_err(|err| fail(err.to_string()))?;
        let size = shape
            .element_count()
            .ok_or_else(|| fail("too many indices".into()))?;
        let ty = format!("vector<{width}x{}>", buffer.element.memory());
        Ok(Some(IndicesVector {
            view: (view, view_ty, size),
            shape: shape.clone(),
            width,
            element: buffer.element,
            ty,
        }))
    }

    /// The vector before the first slice (never read: the first slice loads one).
    fn initial(&self, e: &mut Emitter) -> String {
        e.body
            .op(
                "indices",
                &self.ty,
                format!("arith.constant dense<0> : {}", self.ty),
            )
            .name
    }

    /// The current slice's start (one index) and whether its window fits, read from the vector
    /// `carried` or from a vector loaded here where the slice is the first of one; returns
    /// them with the vector to carry on.
    fn read(
        &self,
        e: &mut Emitter,
        plan: &KernelPlan,
        scatter: &ScatterPlan,
        (index_id, carried): (&str, &str),
    ) -> Result<(Vec<String>, Option<String>, String), HloError> {
        let fail = |err: String| plan.kernel.lowering_error(err);
        let (rt, var) = match (&scatter.write.runtime[..], scatter.write.map.rt_vars()) {
            ([rt], [var]) => (rt, var),
            _ => return Err(fail("sorted indices read as vectors have one index".into())),
        };
        let offset = linear_offset(&rt.map, &self.shape)
            .ok_or_else(|| fail("the index's place in its buffer".into()))?;
        let at = e
            .materialize(&Index::from(rt.map.with_results(vec![offset])))
            .map_err(|err| fail(format!("index position: {err}")))?;
        let at = at[0].clone();
        let width = e.body.index(self.width).name;
        let lane = e
            .body
            .op(
                "lane",
                "index",
                format!("arith.remui {index_id}, {width} : index"),
            )
            .name;
        let zero = e.body.index(0).name;
        let first = e
            .body
            .op(
                "first",
                "i1",
                format!("arith.cmpi eq, {lane}, {zero} : index"),
            )
            .name;
        let ty = &self.ty;
        let vector = e.body.fresh("indices");
        e.body
            .open(format!("{vector} = scf.if {first} -> ({ty}) {{"));
        let loaded = self.load(e, (&at, &width));
        e.body.line(format!("scf.yield {loaded} : {ty}"));
        e.body.close("} else {", true);
        e.body.line(format!("scf.yield {carried} : {ty}"));
        e.body.close("}", false);
        let memory = self.element.memory();
        let raw = e
            .body
            .op(
                "index",
                memory,
                format!("vector.extract {vector}[{lane}] : {memory} from {ty}"),
            )
            .name;
        let value = Typed {
            value: from_memory(&mut e.body, Scalar::new(raw, memory), self.element),
            element: self.element,
        };
        let start = as_index(e, &value).map_err(|err| fail(err.to_string()))?;
        let fits = e.body.within(&start, (var.bounds.lo, var.bounds.hi));
        Ok((vec![start], Some(fits), vector))
    }

    /// The vector of indices at position `at` of the view (`width` the index constant of its
    /// lanes): one `vector.load` where it lies within the buffer, else lane by lane at
    /// positions clamped to the buffer's last.
    fn load(&self, e: &mut Emitter, (at, width): (&str, &str)) -> String {
        let (view, view_ty) = (&self.view.0, &self.view.1);
        let ty = &self.ty;
        let end = e
            .body
            .op("end", "index", format!("arith.addi {at}, {width} : index"))
            .name;
        let size = e.body.index(self.view.2).name;
        let whole = e
            .body
            .op(
                "whole",
                "i1",
                format!("arith.cmpi sle, {end}, {size} : index"),
            )
            .name;
        let loaded = e.body.fresh("indices");
        let bytes = self.width * i64::from(self.element.bits.max(8) / 8);
        let memory = self.element.memory();
        e.body
            .open(format!("{loaded} = scf.if {whole} -> ({ty}) {{"));
        let v = e.body.op(
            "indices",
            ty,
            format!("vector.load {view}[{at}] {{alignment = {bytes} : i64}} : {view_ty}, {ty}"),
        );
        e.body.line(format!("scf.yield {} : {ty}", v.name));
        e.body.close("} else {", true);
        let last = e.body.index(self.view.2 - 1).name;
        let lanes: Vec<String> = (0..self.width)
            .map(|k| {
                let k = e.body.index(k).name;
                let p = e
                    .body
                    .op("pos", "index", format!("arith.addi {at}, {k} : index"))
                    .name;
                let p = e
                    .body
                    .op("pos", "index", format!("arith.minui {p}, {last} : index"))
                    .name;
                e.body
                    .op(
                        "index",
                        memory,
                        format!("memref.load {view}[{p}] : {view_ty}"),
                    )
                    .name
            })
            .collect();
        let gathered = e.body.op(
            "indices",
            ty,
            format!("vector.from_elements {} : {ty}", lanes.join(", ")),
        );
        e.body.line(format!("scf.yield {} : {ty}", gathered.name));
        e.body.close("}", false);
        loaded
    }
}
