//! XLA's pad-to-static emitter: a fusion whose root is `custom-call(param),
//! custom_call_target="PadToStatic"` turns a dynamic array into its static bound shape and its
//! dynamic sizes.
//!
//! A dynamic array lies in its buffer densely, in the dynamic sizes (`s32[2,<=5]` with sizes
//! `[2,3]` holds its six elements first), and the sizes follow the bound shape's bytes as one
//! `s32` per dimension. The kernel runs the loop emitter's thread map over the static output:
//! an element within the sizes reads the dense element of the same index (its row-major
//! position in the sizes, `d0 * rt1 + d1` in two dimensions), every other element is zero; the
//! first thread of the first block also stores the sizes into outputs `1..=rank`.

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_hlo::module::Module;
use xla_indexing_hlo::ops::custom_call_target;
use xla_indexing_hlo::shape::ArrayShape;
use xla_indexing_hlo::{Opcode, shape::Shape};

use crate::device::Device;
use crate::error::PlanError;
use crate::kernel::element_bits;
use crate::launch::{LaunchDimensions, UnrollInputs, unroll_factor};
use crate::thread_map::{launch_elements, loop_launch};

/// The `custom_call_target` XLA's pad-to-static emitter takes.
pub const PAD_TO_STATIC: &str = "PadToStatic";

/// The pad-to-static emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct PadToStaticPlan {
    /// The dynamic array read (the fused computation's parameter), its dimensions the bounds.
    pub input: ArrayShape,
    /// The fused computation's parameter number of the input.
    pub parameter: usize,
    /// One thread per element of output 0 (or `unroll` of them).
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (output 0 index)`.
    pub thread_map: IndexingMap,
    /// `(output 0 index){rt_0, ...} -> (input index)`: runtime variable `rt_k` is dynamic size
    /// `k` (in `[0, bound_k]`); the element within the sizes reads the input element whose
    /// row-major position in the bounds is its own position in the sizes (the constraints say
    /// where an element is within them).
    pub read_map: IndexingMap,
}

/// The pad-to-static emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs: `Ok(None)` unless its root is a `PadToStatic` custom call of a parameter; `Err`
/// why such a fusion cannot be written (a layout other than the default one, packed
/// elements, outputs that are not the bound shape and one `s32` per dimension).
pub fn plan_pad_to_static(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<PadToStaticPlan>, PlanError> {
    let comp = &module.computations[c];
    let root = &comp.instructions[comp.root];
    if root.opcode != Opcode::CustomCall || custom_call_target(root) != Some(PAD_TO_STATIC) {
        return Ok(None);
    }
    let unsupported = |why: String| Err(PlanError::Unsupported(format!("{}: {why}", root.name)));
    let [operand] = root.operands[..] else {
        return unsupported(format!("{PAD_TO_STATIC} takes one operand"));
    };
    let param = &comp.instructions[operand];
    let (Opcode::Parameter, Some(input)) = (param.opcode, param.array()) else {
        return unsupported(format!(
            "{PAD_TO_STATIC} reads {}, not a parameter array",
            param.name
        ));
    };
    let Some(parameter) = param.parameter_number else {
        return unsupported(format!("{} has no parameter number", param.name));
    };
    if !input.is_dynamic() {
        return unsupported(format!("{input} is not dynamic"));
    }
    if !input.has_default_layout() {
        return unsupported(format!(
            "the dynamic array {input} is not in the default layout"
        ));
    }
    if element_bits(&input.element).is_none_or(|b| b < 8) {
        return unsupported(format!("the elements of {input} are not whole bytes"));
    }
    let static_shape = ArrayShape {
        dynamic: vec![false; input.rank()],
        layout: None,
        ..input.clone()
    };
    let sizes = std::iter::repeat_n(
        Shape::Array(ArrayShape::new("s32", Vec::new())),
        input.rank(),
    );
    let expected = std::iter::once(Shape::Array(static_shape.clone())).chain(sizes);
    let leaves_agree = root.shape.leaves().len() == outputs
        && root
            .shape
            .leaves()
            .iter()
            .zip(expected.collect::<Vec<_>>().iter().flat_map(Shape::leaves))
            .all(|(got, want)| got.element == want.element && got.dims == want.dims);
    if !leaves_agree || outputs != input.rank() + 1 {
        return unsupported(format!(
            "its shape {} is not ({static_shape}, and an s32[] per dimension)",
            root.shape
        ));
    }
    let Some(output) = root.shape.leaves().first().map(|&l| l.clone()) else {
        return unsupported("it has no result".into());
    };
    let inputs = UnrollInputs {
        elements: launch_elements(&output)?,
        blocks_unrolling: false,
        smallest_output_bits: element_bits(&output.element),
    };
    let (launch, thread_map) = loop_launch(&output, unroll_factor(&inputs, device), device)?;
    let read_map =
        dense_read_map(&input.dims).map_err(|e| PlanError::Unsupported(e.to_string()))?;
    Ok(Some(PadToStaticPlan {
        input: input.clone(),
        parameter,
        launch,
        thread_map,
        read_map,
    }))
}

/// `(d_0, ..., d_n-1){rt_0, ..., rt_n-1} -> (input index)` for bounds `dims`: the position
/// `p = sum_k d_k * prod_{j > k} rt_j` of the element in the dynamic sizes, delinearized in
/// the bounds (`p floordiv stride_k mod dims_k`), constrained to `d_k <= rt_k - 1`.
fn dense_read_map(dims: &[i64]) -> Result<IndexingMap, xla_indexing_core::ArithError> {
    let n = dims.len();
    let rt = |k: usize| Expr::sym(k as u32);
    let mut position = Expr::zero();
    for k in 0..n {
        let mut term = Expr::dim(k as u32);
        for j in k + 1..n {
            term = term.checked_mul(&rt(j))?;
        }
        position = position.checked_add(&term)?;
    }
    let mut results = Vec::new();
    let mut stride = 1i64;
    for &d in dims.iter().rev() {
        let quotient = position.floor_div(stride)?;
        results.push(quotient.modulo(d)?);
        stride = stride
            .checked_mul(d)
            .ok_or(xla_indexing_core::ArithError::Overflow)?;
    }
    results.reverse();
    let dim_vars = dims
        .iter()
        .map(|&d| Var::new(Interval::new(0, d - 1)))
        .collect();
    let rt_vars = dims
        .iter()
        .map(|&d| Var::new(Interval::new(0, d)))
        .collect();
    let mut map = IndexingMap::new(results, dim_vars, Vec::new(), rt_vars);
    for k in 0..n {
        map.add_constraint(
            Expr::dim(k as u32).checked_sub(&rt(k))?,
            Interval::new(i64::MIN, -1),
        );
    }
    Ok(map)
}
