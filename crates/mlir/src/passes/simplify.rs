//! `xla-indexing-simplify`: simplifies the maps of `xla_indexing.apply_indexing` and
//! `affine.apply` ops with the core's bound-aware simplifier.
//!
//! * `xla_indexing.apply_indexing`: the map is simplified within its own domain. When every
//!   result becomes a plain variable, the op is replaced by the corresponding operands.
//! * `affine.apply`: affine maps carry no domain, so every operand ranges over all integers;
//!   what remains are the identities that hold everywhere (`(d0 * 8 + d1 * 8) floordiv 8` is
//!   `d0 + d1`). A result that becomes one operand replaces the op.
//!
//! The rewrites are Rust patterns run by MLIR's greedy driver, which also folds and removes dead
//! ops. The pass is op-agnostic: it works on whatever op it is scheduled on.

use std::{cell::RefCell, rc::Rc};

use melior::{
    Context, GreedyRewriteDriverConfig, PatternRewriter, RewritePattern, RewritePatternSet,
    RewriterBase, StringRef, create_op_rewrite_pattern,
    ir::{
        AffineExpr, AffineMap, Attribute, OperationRef, Value, attribute::AttributeLike,
        operation::OperationLike, r#type::TypeId,
    },
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use mlir_sys::{
    MlirOperation, mlirAffineMapAttrGet, mlirAffineMapAttrGetValue,
    mlirApplyPatternsAndFoldGreedilyWithOp, mlirAttributeIsAAffineMap,
    mlirFrozenRewritePatternSetDestroy, mlirOperationSetAttributeByName,
};
use xla_indexing_core::{IndexingMap, Interval, Var, VarRef};

use crate::{
    affine::{affine_from_expr, expr_from_affine},
    attribute::{attribute_map, map_attribute},
    guard::{emit_error, guarded},
};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-simplify";

/// A [`TypeId`] needs a unique, 8-byte aligned address.
#[repr(C, align(8))]
struct PassIdAnchor(u64);

static PASS_ID: PassIdAnchor = PassIdAnchor(0);

/// Creates the `xla-indexing-simplify` pass.
pub fn create_simplify_pass() -> Pass {
    create_external(
        SimplifyPass,
        TypeId::create(&PASS_ID),
        "XlaIndexingSimplify",
        ARGUMENT,
        "Simplify the indexing maps of xla_indexing.apply_indexing and affine.apply ops",
        "",
        &[],
    )
}

#[derive(Clone)]
struct SimplifyPass;

impl<'c> RunExternalPass<'c> for SimplifyPass {
    fn initialize(&mut self, _context: melior::ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        let outcome = guarded(|| simplify(operation)).and_then(|result| result);
        if let Err(message) = outcome {
            emit_error(operation.location(), &format!("{ARGUMENT}: {message}"));
            pass.signal_failure();
        }
    }
}

/// Runs the simplification patterns on `operation` and everything nested in it.
fn simplify(operation: OperationRef) -> Result<(), String> {
    let context = operation.context();
    // SAFETY: the context outlives the pass run, which is all this reference is used for.
    let context: &Context = unsafe { context.to_ref() };
    let panicked = Rc::new(RefCell::new(None));
    let set = RewritePatternSet::new(context);
    set.add(pattern(
        context,
        "xla_indexing.apply_indexing",
        rewrite_apply_indexing,
        &panicked,
    ));
    set.add(pattern(
        context,
        "affine.apply",
        rewrite_affine_apply,
        &panicked,
    ));
    let frozen = set.freeze().into_raw();
    let config = GreedyRewriteDriverConfig::new();
    // SAFETY: `operation` is live, `frozen` is a valid pattern set and `config` outlives the
    // call. melior's wrapper would leak the frozen set, so it is destroyed here.
    let converged = unsafe {
        let result =
            mlirApplyPatternsAndFoldGreedilyWithOp(operation.to_raw(), frozen, config.to_raw());
        mlirFrozenRewritePatternSetDestroy(frozen);
        result
    };
    if let Some(message) = panicked.borrow_mut().take() {
        return Err(format!("internal error: {message}"));
    }
    if converged.value == 0 {
        return Err("the rewrites did not converge".into());
    }
    Ok(())
}

type Rewrite = fn(&Context, OperationRef, &RewriterBase) -> bool;

/// A pattern rooted at ops named `root` that applies `rewrite`; a panic in it is recorded in
/// `panicked` and counts as no match.
fn pattern(
    context: &Context,
    root: &str,
    rewrite: Rewrite,
    panicked: &Rc<RefCell<Option<String>>>,
) -> RewritePattern {
    let panicked = panicked.clone();
    let callback = move |_pattern, op: MlirOperation, rewriter| {
        let outcome = guarded(|| {
            // SAFETY: MLIR passes a live op and rewriter for the duration of the callback.
            let (op, rewriter) = unsafe {
                (
                    OperationRef::from_raw(op),
                    PatternRewriter::from_raw(rewriter),
                )
            };
            let context = op.context();
            // SAFETY: the context outlives this callback, the only use of the reference.
            let context: &Context = unsafe { context.to_ref() };
            rewrite(context, op, &rewriter.as_rewriter_base())
        });
        outcome.unwrap_or_else(|message| {
            panicked.borrow_mut().get_or_insert(message);
            false
        })
    };
    create_op_rewrite_pattern(root, 1, context, callback, &[])
}

/// Replaces attribute `name` of `op`, telling the rewriter.
fn set_attribute(rewriter: &RewriterBase, op: OperationRef, name: &str, attribute: Attribute) {
    rewriter.start_op_modification(op);
    // SAFETY: `op` is live, and `attribute` belongs to its context.
    unsafe {
        mlirOperationSetAttributeByName(
            op.to_raw(),
            StringRef::new(name).to_raw(),
            attribute.to_raw(),
        )
    };
    rewriter.finalize_op_modification(op);
}

fn rewrite_apply_indexing(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Ok(attribute) = op.attribute("indexing_map") else {
        return false;
    };
    let Ok(map) = attribute_map(attribute) else {
        return false;
    };
    let mut simplified = map.clone();
    simplified.simplify();
    if simplified.is_known_empty() {
        return false;
    }
    let num_dims = simplified.dims().len();
    let forwarded: Option<Vec<Value>> = simplified
        .results()
        .iter()
        .map(|result| {
            let index = match result.as_var()? {
                VarRef::Dim(i) => usize::try_from(i).ok()?,
                VarRef::Sym(i) => num_dims + usize::try_from(i).ok()?,
            };
            op.operand(index).ok()
        })
        .collect();
    if let Some(values) = forwarded {
        rewriter.replace_op_with_values(op, &values);
        return true;
    }
    if simplified == map {
        return false;
    }
    let Ok(attribute) = map_attribute(context, &simplified) else {
        return false;
    };
    set_attribute(rewriter, op, "indexing_map", attribute);
    true
}

fn rewrite_affine_apply(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Ok(attribute) = op.attribute("map") else {
        return false;
    };
    // SAFETY: `attribute` is a live attribute; its value is read only if it is an affine map.
    let map = unsafe {
        if !mlirAttributeIsAAffineMap(attribute.to_raw()) {
            return false;
        }
        AffineMap::from_raw(mlirAffineMapAttrGetValue(attribute.to_raw()))
    };
    let (num_dims, num_symbols) = (map.dim_count(), map.symbol_count());
    let Some(results) = (0..map.result_count())
        .map(|i| map.result(i).ok().and_then(expr_from_affine))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let unbounded = |n| vec![Var::new(Interval::FULL); n];
    // Building the core's expressions already normalizes them, so whether `simplify` changed
    // anything does not tell whether the affine map changes: the maps are compared below.
    let mut indexing_map = IndexingMap::new(
        results,
        unbounded(num_dims),
        unbounded(num_symbols),
        Vec::new(),
    );
    indexing_map.simplify();
    if indexing_map.is_known_empty() {
        return false;
    }
    let exprs: Vec<AffineExpr> = indexing_map
        .results()
        .iter()
        .map(|e| affine_from_expr(context, e))
        .collect();
    if let [single] = exprs.as_slice() {
        let operand = if single.is_dim() {
            Some(single.dim_position())
        } else if single.is_symbol() {
            Some(num_dims + single.symbol_position())
        } else {
            None
        };
        if let Some(value) = operand.and_then(|i| op.operand(i).ok()) {
            rewriter.replace_op_with_values(op, &[value]);
            return true;
        }
    }
    let simplified = AffineMap::new(context, num_dims, num_symbols, &exprs);
    if simplified == map {
        return false;
    }
    // SAFETY: `simplified` is a live affine map of `context`.
    let attribute = unsafe { Attribute::from_raw(mlirAffineMapAttrGet(simplified.to_raw())) };
    set_attribute(rewriter, op, "map", attribute);
    true
}
