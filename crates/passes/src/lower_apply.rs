//! `xla-indexing-lower-apply`: lowers every `xla_indexing.loop` to `scf` (see `lower_loop.rs`),
//! rewrites memory accesses to linear addressing (see `linearize.rs`; option `linearize`, on by
//! default), then materializes every `xla_indexing.apply_indexing` as ops that standard MLIR
//! lowers.
//!
//! Each result is weighed in two forms: simplified within the op's domain, and as written (over
//! the domain narrowed by the operands); the cheaper to compute wins (on `i32` first, then fewer
//! divisions, then fewer ops). `simplify=false` lowers the expressions as written: the upstream
//! baseline of `cargo xtask bench gpu`. A result becomes, in order of preference, the operand it
//! is, an `arith.constant`, a sequence of `arith` ops (`addi`, `subi`, `muli`, unsigned
//! `divui` where the dividend is provably non-negative over the domain (a ceiling division by
//! a constant `k` as `(x + k - 1) divui k`, `ceildivui` by an expression),
//! `floordivsi`/`ceildivsi` otherwise, and a `mod` as its dividend less the modulus times the
//! quotient, with a dividend chosen to share the division with the floor divisions of every
//! `apply_indexing` of the operation: see `arith::plan_mod` and `dividends.rs`), or, when a
//! value on the way might not fit in 64 bits, an `affine.apply` of the result's expression
//! (which `lower-affine` expands with floor semantics). A product of two expressions or a
//! division by one (XLA's non-affine `SymbolicExpr`s) is always `arith` ops (`muli`,
//! `divui`/`floordivsi`/`ceildivsi`, a floor `mod` from `floordivsi`), `prefer-affine` or not,
//! since `affine` ops cannot hold it; where those ops cannot compute it exactly (a divisor that
//! may be 0, a value that may leave 64 bits) the pass fails with an error at the op. Every `addi`, `subi` and `muli` is exact,
//! so it carries `nsw`, and `nuw` where no value on the way is negative (which lets LLVM fold
//! constant offsets into addresses). Dimensions are the affine map's dims, range and runtime
//! variables its symbols. An op whose operands' ranges miss its domain (it never computes a
//! defined value) gets `arith.constant 0` for its results.
//!
//! Option `index-bitwidth` (default 32): where every variable, intermediate value and constant
//! of a result's computation provably lies in the signed 32-bit range over the domain (and
//! every unsigned division's dividend in `[0, 2^31 - 1]`), the `arith` ops compute on `i32`:
//! the operands are cast with `arith.index_castui` (`index_cast` for ones that may be
//! negative), the result back to `index` likewise. On NVPTX, where `index` is 64 bits, this
//! turns 64-bit divisions and remainders into 32-bit ones. `index-bitwidth=64` keeps every op
//! on `index`. See `arith::plan_narrow` for why the narrow ops are exact.

use std::cell::RefCell;
use std::rc::Rc;
use xla_indexing_mlir::handles::stretch_value;

use melior::{
    Context, RewriterBase,
    ir::{OperationRef, Value, operation::OperationLike},
};
use xla_indexing_core::VarRef;

use super::{
    PassFailure, affine_ops, arith, dividends::SharedDividends, linearize, lower_loop,
    ranges::apply_indexing_maps,
};
use xla_indexing_mlir::{
    indexing_ops::{APPLY_INDEXING_OPS, op_map},
    pass_entry,
    pass_host::{PassOption, PassOptions, PassSpec},
    rewrite::{RewriteFn, apply_greedily},
};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-lower-apply";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-lower-apply",
    c"XlaIndexingLowerApply",
    c"Lower xla_indexing.loop to scf, then xla_indexing.apply_indexing to arith ops (on i32 where every value fits; unsigned division where the dividend is provably non-negative) or affine.apply",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 4] = [
    PassOption::flag(
        c"prefer-affine",
        c"Emit every non-trivial result as affine.apply instead of arith ops",
        false,
    ),
    PassOption::int(
        c"index-bitwidth",
        c"Compute index arithmetic in i32 where every value provably fits (32), or always on index (64)",
        32,
    ),
    PassOption::flag(
        c"simplify",
        c"Simplify each map within its domain first (false: lower the expressions as written, for comparisons with upstream lowering)",
        true,
    ),
    PassOption::flag(
        c"linearize",
        c"Rewrite memref.load/store whose indices come from one apply_indexing into accesses of a 1-D view at the linear offset, computed by one apply_indexing",
        true,
    ),
];

/// The widths `index-bitwidth` accepts.
const INDEX_BITWIDTHS: [i64; 2] = [32, 64];

/// The pass's options, decoded once per run (in the order of [`OPTIONS`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    prefer_affine: bool,
    index_bitwidth: u32,
    simplify: bool,
    linearize: bool,
}

impl PassOptions for Options {
    fn decode(options: &[i64]) -> Result<Options, PassFailure> {
        let flag = |i: usize, default: bool| options.get(i).map_or(default, |&v| v != 0);
        let bitwidth = options.get(1).copied().unwrap_or(32);
        if !INDEX_BITWIDTHS.contains(&bitwidth) {
            return Err(format!("index-bitwidth must be 32 or 64, not {bitwidth}").into());
        }
        Ok(Options {
            prefer_affine: flag(0, false),
            index_bitwidth: bitwidth as u32,
            simplify: flag(2, true),
            linearize: flag(3, true),
        })
    }
}

/// The pass body, for the passes that run it as a step.
pub(crate) fn run(operation: OperationRef, options: &Options) -> Result<(), PassFailure> {
    let options = *options;
    lower_loop::lower_loops(operation)?;
    if options.linearize {
        linearize::linearize_accesses(operation, options.simplify)?;
    }
    // The floor divisions of the whole operation, for remainders to share.
    let shared = SharedDividends::collect(operation);
    // A result that neither `arith` nor `affine` ops can compute, reported once the rewrite ends.
    let refused = Rc::new(RefCell::new(None));
    let refused_in = refused.clone();
    let rewrite: RewriteFn = Rc::new(move |context, op, rewriter| {
        lower_apply(context, op, rewriter, options, &shared, &refused_in)
    });
    let patterns = APPLY_INDEXING_OPS.map(|name| (name, rewrite.clone()));
    apply_greedily(operation, &patterns)?;
    match refused.take() {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

fn lower_apply(
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
    options: Options,
    shared: &SharedDividends,
    refused: &RefCell<Option<PassFailure>>,
) -> bool {
    let Some(maps) = apply_indexing_maps(&op) else {
        return lower_unreachable(context, op, rewriter);
    };
    // Lowering weighs each result as simplified against the result as written (over the domain
    // narrowed by the operands): the simplest form is not always the cheapest to compute.
    let candidates = if options.simplify {
        vec![maps.simplified, maps.narrowed]
    } else {
        vec![maps.written]
    };
    let map = &candidates[0];
    let index = melior::ir::Type::index(context);
    let num_dims = map.dims().len();
    let num_symbols = map.num_symbols();
    let location = op.location();
    let operand = |v: VarRef| -> Option<Value> {
        let i = match v {
            VarRef::Dim(i) => i as usize,
            VarRef::Sym(i) => num_dims + i as usize,
        };
        // SAFETY: the operands are live values of the IR being rewritten.
        op.operand(i).ok().map(|v| unsafe { stretch_value(v) })
    };
    let (prefer_affine, bitwidth) = (options.prefer_affine, options.index_bitwidth);
    let evaluators: Vec<_> = candidates.iter().map(|m| m.range_evaluator(true)).collect();
    let remainders: Vec<_> = candidates
        .iter()
        .map(|m| arith::Remainders::from_quotient_of(m.results(), shared.for_op(&op, m)))
        .collect();
    rewriter.set_insertion_point_before(op);
    let mut values = Vec::with_capacity(map.results().len());
    for (i, result) in map.results().iter().enumerate() {
        // `affine` ops hold quasi-affine results only: the others are planned whatever
        // `prefer-affine` says.
        let plan = candidates
            .iter()
            .zip(&evaluators)
            .zip(&remainders)
            .filter_map(|((m, ev), r)| {
                let e = m.results().get(i)?;
                let p = arith::plan_narrow(e, ev, 64, bitwidth, r)?;
                (!prefer_affine || p.ops.is_empty() || !e.is_quasi_affine()).then_some(p)
            })
            .min_by_key(|p| p.rank(bitwidth));
        let value = match plan {
            Some(plan) => arith::materialize(context, &plan, rewriter, location, index, &operand),
            None if !result.is_quasi_affine() => {
                refused.replace(Some(PassFailure::at(
                    location,
                    format!(
                        "{ARGUMENT}: result {i} `{result:?}` divides by an expression that may be 0 \
                         on the domain, or a value on the way may leave 64 bits; `affine` ops \
                         cannot hold a product or a division by an expression, so it stays"
                    ),
                )));
                return false;
            }
            None => {
                let operands: Vec<Value> = (0..num_dims + num_symbols)
                    .filter_map(|i| op.operand(i).ok())
                    // SAFETY: the operands are live values of the IR being rewritten.
                    .map(|v| unsafe { stretch_value(v) })
                    .collect();
                affine_ops::materialize(context, rewriter, location, result, num_dims, &operands)
            }
        };
        let Some(value) = value else {
            return false;
        };
        values.push(value);
    }
    rewriter.replace_op_with_values(op, &values);
    true
}

/// An `apply_indexing` for which [`apply_indexing_maps`] finds no map: without a readable map it
/// stays (the verifier reports it); otherwise no point of its domain is ever reached (its
/// operands' ranges miss the domain, as in the dead branch of a lowered `xla_indexing.loop`), so
/// its results are never defined and become `arith.constant 0`.
fn lower_unreachable(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    if op_map(&op).is_none() {
        return false;
    }
    let zero = arith::Plan::constant(0);
    let index = melior::ir::Type::index(context);
    rewriter.set_insertion_point_before(op);
    let no_var = |_: VarRef| -> Option<Value> { None };
    let values: Option<Vec<Value>> = (0..op.result_count())
        .map(|_| arith::materialize(context, &zero, rewriter, op.location(), index, &no_var))
        .collect();
    let Some(values) = values else {
        return false;
    };
    rewriter.replace_op_with_values(op, &values);
    true
}
