//! `xla-indexing-simplify`: index arithmetic rewritten as a whole, with the bounds of loops,
//! GPU ids, function arguments and indexing-map domains.
//!
//! Every integer and index value is read as an expression over the function's roots (its loop
//! variables, ids, arguments and the values it cannot read), composed through its producers
//! whatever their number of uses, and simplified by the core's simplifier (`values.rs`, with the
//! meaning of each op in `semantics.rs`, and `arith` ops of constants folded by `fold.rs`). Then,
//! with MLIR's greedy driver, each value is rewritten to its cheapest form (`rewrite.rs`): a
//! constant, a root, a value already computed with the same expression, or a new computation over
//! those, taken only when the function gets cheaper in divisions, ops and arithmetic and costlier
//! in none (`cost.rs`). Comparisons, selects and `min`/`max` that the ranges decide are replaced by
//! what they give, and `scf.if` and `affine.if` whose branch is decided by it (`decide.rs`); inside
//! an `if`, its condition is a fact. The maps of `affine.load`, `affine.store` and `affine.for` are
//! simplified in place (`affine_maps.rs`).
//!
//! Roots are bounded by what the IR says of them (`ranges.rs`) and by MLIR's integer range
//! analysis, which runs before the rewrites (the values it proves constant become constants)
//! and again after them (see `run`). The analysis is built once per round and kept up to date
//! as the patterns rewrite: the driver's listener reports every value it erases. The pass is
//! op-agnostic: it works on whatever op it is scheduled on. In builds with debug assertions it
//! checks that no function got costlier.

mod affine_maps;
mod conditions;
mod cost;
mod decide;
mod depends;
mod float_compare;
mod fold;
mod forms;
mod known;
mod rewrite;
mod semantics;
mod share;
mod unsigned_order;
mod values;

use std::{cell::RefCell, rc::Rc};

use melior::{
    Context, RewriterBase,
    ir::{Location, OperationRef, operation::OperationLike},
};

use self::{
    cost::{Cost, nested_cost},
    values::IndexValues,
};
use super::{PassFailure, ranges::Ranges};
use xla_indexing_mlir::{
    handles::op_key,
    indexing_ops::{APPLY_INDEXING, XLA_APPLY_INDEXING},
    ir::emit_warning,
    ir::{op_name, walk_nested},
    pass_entry,
    pass_host::{PassOption, PassSpec},
    rewrite::{Changed, Greedy, PatternError, RewriteFn, apply_tracking},
};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-simplify";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-simplify",
    c"XlaIndexingSimplify",
    c"Simplify index arithmetic as a whole (arith, affine and apply_indexing values composed over loop variables, GPU ids and arguments; comparisons, selects, min, max and ifs the ranges decide) using the bounds of loops, GPU ids and indexing-map domains",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 0] = [];

/// Ops whose values are rewritten to their cheapest forms.
const VALUE_OPS: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.divui",
    "arith.ceildivui",
    "arith.divsi",
    "arith.remui",
    "arith.remsi",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.index_cast",
    "arith.index_castui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.cmpi",
    "arith.select",
    "arith.minsi",
    "arith.maxsi",
    "arith.minui",
    "arith.maxui",
    "affine.apply",
    APPLY_INDEXING,
    XLA_APPLY_INDEXING,
];

/// A rewrite that uses the analysis.
type Analyzed = fn(&mut IndexValues, &Context, OperationRef, &RewriterBase) -> bool;

/// Ops with rewrites of their own.
const OTHER_OPS: &[(&str, Analyzed)] = &[
    ("affine.min", rewrite_min_max),
    ("affine.max", rewrite_min_max),
    ("affine.load", affine_maps::rewrite_affine_access),
    ("affine.store", affine_maps::rewrite_affine_access),
    ("affine.for", affine_maps::rewrite_affine_for),
    ("affine.if", decide::rewrite_affine_if),
    ("scf.if", fold_scf_if),
    ("arith.cmpf", decide::rewrite_cmpf),
];

fn rewrite_min_max(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    rewrite::rewrite_values(values, context, op, rewriter)
        || decide::narrow_min_max(values, context, op, rewriter)
}

fn fold_scf_if(
    values: &mut IndexValues,
    _context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    decide::fold_scf_if(values, op, rewriter)
}

/// Most rounds of the pass body (see [`run`]).
const MAX_ROUNDS: usize = 4;

/// The pass body (it has no options), for the passes that run it as a step.
///
/// MLIR's integer range analysis runs first: the constants it proves are in the IR before the
/// analysis reads it, and its ranges bound the roots'. The rewrites can let it prove more (a
/// branch that yielded an unbounded value now yields a constant), so it runs again after them,
/// and the rewrites again while it finds a new constant or a tighter range for a root, in
/// at most [`MAX_ROUNDS`] rounds.
pub(crate) fn run(operation: OperationRef, _: &()) -> Result<(), PassFailure> {
    let (mut ranges, _) = Ranges::solved(&operation);
    let before = cfg!(debug_assertions).then(|| function_costs(&operation));
    for _ in 0..MAX_ROUNDS {
        let Some(values) = rewrite_round(operation, ranges)? else {
            break;
        };
        let replaced;
        (ranges, replaced) = Ranges::solved(&operation);
        if replaced == 0 && !values.borrow().tightened_by(&ranges) {
            break;
        }
    }
    if let Some(before) = before {
        check_costs(&before, &function_costs(&operation))?;
    }
    Ok(())
}

/// One round of rewrites to a fixed point, with values' ranges from `ranges`: the analysis as
/// it ends, or `None` when nothing changed.
fn rewrite_round(
    operation: OperationRef,
    ranges: Ranges,
) -> Result<Option<Rc<RefCell<IndexValues>>>, PassFailure> {
    let values = Rc::new(RefCell::new(IndexValues::new(ranges)));
    let changed: Rc<RefCell<Vec<Changed>>> = Rc::default();
    // The analysis of every value the patterns rewrite, once, definitions before uses (what
    // they are computed from comes with them).
    walk_nested(&operation, &mut |op| {
        let name = op_name(op);
        if !VALUE_OPS.contains(&name.as_str()) && name != "affine.min" && name != "affine.max" {
            return;
        }
        let mut values = values.borrow_mut();
        for i in 0..op.result_count() {
            if let Ok(result) = op.result(i) {
                values.known(result.into());
            }
        }
    });
    let analyzed = |rewrite: Analyzed| -> RewriteFn {
        let (values, changed) = (values.clone(), changed.clone());
        Rc::new(move |context, op, rewriter| {
            let mut values = values.borrow_mut();
            let changes: Vec<Changed> = changed.borrow_mut().drain(..).collect();
            values.apply_changes(&changes);
            rewrite(&mut values, context, op, rewriter)
        })
    };
    let patterns: Vec<(&str, RewriteFn)> = VALUE_OPS
        .iter()
        .map(|name| (*name, analyzed(rewrite::rewrite_values)))
        .chain(
            OTHER_OPS
                .iter()
                .map(|(name, rewrite)| (*name, analyzed(*rewrite))),
        )
        .collect();
    // No folding: upstream folds are not cost-aware (`affine.if`'s composes `affine.apply`
    // producers into its set, copying their divisions), and the analysis folds every integer
    // value it can.
    // Every rewrite makes the IR cheaper by one count at least, so their number is bounded by
    // the counts of what it holds; past that a rewrite undoes another (a bug): the IR is still
    // right, and the pass says so rather than run forever.
    let total = nested_cost(&operation);
    let greedy = Greedy {
        top_down: true,
        fold: false,
        simplify_regions: false,
        max_rewrites: Some(total.divisions + total.ops + total.arithmetic + 16),
    };
    let mut any_change = false;
    let outcome = apply_tracking(operation, &patterns, greedy, &mut |c| {
        any_change = true;
        changed.borrow_mut().push(c)
    });
    match outcome {
        Err(PatternError::NotConverged) if !cfg!(debug_assertions) => emit_warning(
            operation.location(),
            "xla-indexing-simplify: stopped before a fixed point (a rewrite undid another); the IR is correct",
        ),
        other => other?,
    }
    if !any_change {
        return Ok(None);
    }
    values.borrow_mut().apply_changes(&changed.borrow());
    Ok(Some(values))
}

/// The cost of every function under `operation` (or of `operation` itself when it is one),
/// by the function op's identity, with its name and location.
fn function_costs<'c>(
    operation: &OperationRef<'c, '_>,
) -> Vec<(usize, String, Location<'c>, Cost)> {
    let mut functions = vec![*operation];
    walk_nested(operation, &mut |op| functions.push(*op));
    functions
        .into_iter()
        .filter(|f| op_name(f).ends_with("func"))
        .map(|f| {
            let name = f
                .attribute("sym_name")
                .map(|a| a.to_string())
                .unwrap_or_default();
            (op_key(&f), name, f.location(), nested_cost(&f))
        })
        .collect()
}

/// An error unless every function costs at most what it did.
fn check_costs(
    before: &[(usize, String, Location, Cost)],
    after: &[(usize, String, Location, Cost)],
) -> Result<(), PassFailure> {
    for (key, name, location, cost) in after {
        if let Some((_, _, _, old)) = before.iter().find(|(k, ..)| k == key)
            && !cost.within(*old)
        {
            return Err(PassFailure::at(
                *location,
                format!(
                    "internal error: function {name} got costlier: {old:?} before, {cost:?} after"
                ),
            ));
        }
    }
    Ok(())
}
