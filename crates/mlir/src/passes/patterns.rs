//! Rust rewrite patterns run by MLIR's greedy driver.

use std::{cell::RefCell, rc::Rc};

use melior::{
    Context, GreedyRewriteDriverConfig, PatternRewriter, RewritePattern, RewritePatternSet,
    RewriterBase, StringRef, create_op_rewrite_pattern,
    ir::{Attribute, OperationRef, attribute::AttributeLike, operation::OperationLike},
};
use mlir_sys::{
    MlirOperation, mlirApplyPatternsAndFoldGreedilyWithOp, mlirFrozenRewritePatternSetDestroy,
    mlirOperationSetAttributeByName,
};

use crate::guard::guarded;

/// A rewrite: returns whether it changed the IR (it must tell the rewriter about every change).
pub type Rewrite = fn(&Context, OperationRef, &RewriterBase) -> bool;

/// Runs `patterns` (root op name, rewrite) on `operation` and everything nested in it with the
/// greedy driver, which also folds constants and removes dead ops. A panic in a rewrite is an
/// `Err` (the rewrite counts as no match), and so is a driver that did not converge.
pub fn apply_greedily(operation: OperationRef, patterns: &[(&str, Rewrite)]) -> Result<(), String> {
    let context = operation.context();
    // SAFETY: the context outlives the pass run, which is all this reference is used for.
    let context: &Context = unsafe { context.to_ref() };
    let panicked = Rc::new(RefCell::new(None));
    let set = RewritePatternSet::new(context);
    for (root, rewrite) in patterns {
        set.add(pattern(context, root, *rewrite, &panicked));
    }
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
pub fn set_attribute(rewriter: &RewriterBase, op: OperationRef, name: &str, attribute: Attribute) {
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
