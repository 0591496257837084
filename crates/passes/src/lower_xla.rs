//! `xla-indexing-lower-xla`: lowers the ops of XLA's emitters (the `xla` dialect of the dumps of
//! `--xla_dump_emitter_re`) to upstream ops, with the index arithmetic simplified as a whole.
//!
//! In order:
//!
//! 1. every `xla.pure_call` is inlined, as XLA's pipeline does, and the private functions left
//!    without calls are erased (`indexing_ops::inline_pure_calls`), so that the indices a callee
//!    computes are composed with the loop that computes its arguments;
//! 2. every `xla.workgroup_id` becomes what XLA's CPU pipeline makes of it where its `xla.range`
//!    is one value (the CPU emitters launch one workgroup: `[0, 0]`): an `arith.constant`;
//!    otherwise a `gpu.block_id` of the same dimension bounded by `upper_bound` (the workgroup
//!    of the GPU pipelines);
//! 3. every `tensor.extract` of a static multi-dimensional tensor reads the tensor's row-major
//!    flattening at one offset (`flatten.rs`), as XLA's CPU pipeline flattens tensors before it
//!    simplifies, so that an index a reshape splits and the offset rebuilds composes back whole;
//! 4. `xla-indexing-simplify` rewrites the index arithmetic as a whole (it reads `xla.loop`,
//!    `xla.apply_indexing` and `xla.range` as it reads our ops);
//! 5. `xla-indexing-lower-apply` lowers `xla.loop` to `scf.for` nests and every
//!    `xla.apply_indexing` to `arith`, remainders sharing the divisions of quotients;
//! 6. common subexpressions are eliminated (as `cse` does: lowering writes each
//!    `apply_indexing` on its own, so equal divisions in different ops become one), then
//!    `xla-indexing-simplify` runs again on the `arith` ops, and subexpressions are eliminated
//!    once more;
//! 7. the `nsw`/`nuw` flags of `arith.addi`, `subi` and `muli` are dropped. Lowering plans each
//!    `apply_indexing` over its map's domain, where no op wraps; but XLA's kernels evaluate maps
//!    outside their domains too and mask the value afterwards (a pad computes `(d0 - 1) mod 2` at
//!    `d0 = 0` and `andi`s it with `d0 >= 1`). With the flags such a value would be poison, and
//!    so would the mask; without them it is merely unused.
//!
//! What is left holds no `xla.` op. Option `index-bitwidth` is `xla-indexing-lower-apply`'s.

use std::rc::Rc;

use melior::{
    Context, RewriterBase,
    ir::{
        Attribute, Identifier, OperationRef, Type, Value,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder},
    },
};
use xla_indexing_core::VarRef;
use xla_indexing_mlir::{
    handles::{collect_ops, stretch_value, with_context},
    indexing_ops::inline_pure_calls,
    ir::{
        RANGE_ATTRIBUTE, eliminate_common_subexpressions, op_name, range_attribute, set_attribute,
    },
    pass_entry,
    pass_host::{PassOption, PassOptions, PassSpec},
    rewrite::{RewriteFn, apply_greedily},
};

use super::{PassFailure, arith, flatten::flatten_tensor_reads, lower_apply, simplify};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-lower-xla";

/// XLA's workgroup id op.
const WORKGROUP_ID: &str = "xla.workgroup_id";

/// The ops whose overflow flags step 7 drops, and the flags' attribute.
const FLAGGED_OPS: [&str; 3] = ["arith.addi", "arith.subi", "arith.muli"];
const OVERFLOW_FLAGS: &str = "overflowFlags";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-lower-xla",
    c"XlaIndexingLowerXla",
    c"Lower XLA's emitter ops (xla.pure_call inlined, xla.workgroup_id, xla.loop, xla.apply_indexing) to scf, arith and gpu ops, simplifying the index arithmetic as a whole so that remainders and quotients share divisions",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 1] = [PassOption::int(
    c"index-bitwidth",
    c"Compute index arithmetic in i32 where every value provably fits (32), or always on index (64)",
    32,
)];

/// The pass's options: `index-bitwidth`, which is `xla-indexing-lower-apply`'s, and decoded as
/// it decodes it.
struct Options {
    lower_apply: lower_apply::Options,
}

impl PassOptions for Options {
    fn decode(values: &[i64]) -> Result<Options, PassFailure> {
        let bitwidth = values.first().copied().unwrap_or(32);
        // lower-apply's options: prefer-affine, index-bitwidth, simplify, linearize.
        Ok(Options {
            lower_apply: lower_apply::Options::decode(&[0, bitwidth, 1, 1])?,
        })
    }
}

fn run(operation: OperationRef, options: &Options) -> Result<(), PassFailure> {
    if !inline_pure_calls(&operation) {
        return Err("cannot inline the pure calls".into());
    }
    lower_workgroup_ids(operation)?;
    flatten_tensor_reads(operation)?;
    simplify::run(operation, &())?;
    lower_apply::run(operation, &options.lower_apply)?;
    eliminate_common_subexpressions(&operation);
    simplify::run(operation, &())?;
    eliminate_common_subexpressions(&operation);
    let flagged = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        FLAGGED_OPS.contains(&op_name(op).as_str()) && op.attribute(OVERFLOW_FLAGS).is_ok()
    });
    // SAFETY: the context is used inside the closure only.
    unsafe {
        with_context(&operation, |context| {
            let none = Attribute::parse(context, "#arith.overflow<none>")
                .ok_or("cannot make #arith.overflow<none>")?;
            for handle in flagged {
                // The ops are live: nothing was erased since they were collected.
                set_attribute(&handle.get(), OVERFLOW_FLAGS, none);
            }
            Ok::<(), PassFailure>(())
        })
    }?;
    let left = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        op_name(op).starts_with("xla.")
    });
    match left.first() {
        None => Ok(()),
        // SAFETY: the op was collected just now, and nothing was erased since.
        Some(handle) => Err(format!(
            "{} is left after lowering",
            op_name(&unsafe { handle.get() })
        )
        .into()),
    }
}

/// Replaces every `xla.workgroup_id` as the module documentation says.
fn lower_workgroup_ids(operation: OperationRef) -> Result<(), PassFailure> {
    let rewrite: RewriteFn = Rc::new(lower_workgroup_id);
    Ok(apply_greedily(operation, &[(WORKGROUP_ID, rewrite)])?)
}

fn lower_workgroup_id(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let range = op.attribute(RANGE_ATTRIBUTE).ok().and_then(range_attribute);
    let index = Type::index(context);
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let value: Option<Value> = match range {
        Some((lo, hi)) if lo == hi => {
            let no_var = |_: VarRef| -> Option<Value> { None };
            arith::materialize(
                context,
                &arith::Plan::constant(lo),
                rewriter,
                location,
                index,
                &no_var,
            )
        }
        _ => {
            let Some(dimension) = op
                .attribute("dimension")
                .ok()
                .map(|a| a.to_string())
                .and_then(|text| gpu_dimension(context, &text))
            else {
                return false;
            };
            let mut attributes = vec![(Identifier::new(context, "dimension"), dimension)];
            if let Some((_, hi)) = range
                && let Some(bound) = hi.checked_add(1)
            {
                attributes.push((
                    Identifier::new(context, "upper_bound"),
                    IntegerAttribute::new(index, bound).into(),
                ));
            }
            let Ok(built) = OperationBuilder::new("gpu.block_id", location)
                .add_attributes(&attributes)
                .add_results(&[index])
                .build()
            else {
                return false;
            };
            let inserted = rewriter.insert(built);
            // SAFETY: the op was just inserted into the IR, which owns it from now on.
            inserted.result(0).ok().map(|r| unsafe { stretch_value(r) })
        }
    };
    let Some(value) = value else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}

/// `#gpu<dim x>` for the printed `#xla.dim<x>` (or `x`).
fn gpu_dimension<'c>(context: &'c Context, text: &str) -> Option<Attribute<'c>> {
    let axis = ["x", "y", "z"]
        .into_iter()
        .find(|axis| text.ends_with(&format!("{axis}>")) || text == *axis)?;
    Attribute::parse(context, &format!("#gpu<dim {axis}>"))
}
