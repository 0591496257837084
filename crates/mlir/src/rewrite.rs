//! Rust rewrite patterns run by MLIR's greedy driver, with a listener that reports every value,
//! block and op the driver erases or changes ([`apply_patterns_greedily`]), so that analyses
//! keyed by IR identity stay true while the IR changes.

use std::{cell::RefCell, ffi::c_void, rc::Rc};

use melior::{
    Context, FrozenRewritePatternSet, PatternRewriter, RewritePattern, RewritePatternSet,
    RewriterBase, create_op_rewrite_pattern,
    ir::{Attribute, OperationRef, operation::OperationLike},
};
use mlir_sys::mlirFrozenRewritePatternSetDestroy;

use crate::{
    ffi::{self, MlirOperation},
    guard::guarded,
    pass_host::PassFailure,
};

/// A rewrite: returns whether it changed the IR (it must tell the rewriter about every change).
/// It may carry state of its own (options, an analysis).
pub type RewriteFn = Rc<dyn Fn(&Context, OperationRef, &RewriterBase) -> bool>;

/// Why running patterns failed.
#[derive(Debug)]
pub enum PatternError {
    /// A rewrite panicked at an op (the rewrite counts as no match; the first panic is kept):
    /// an internal error at the op's location.
    Panicked(PassFailure),
    /// The driver did not reach a fixed point.
    NotConverged,
}

impl From<PatternError> for PassFailure {
    fn from(error: PatternError) -> PassFailure {
        match error {
            PatternError::Panicked(failure) => failure,
            PatternError::NotConverged => "the rewrites did not converge".to_string().into(),
        }
    }
}

/// What the greedy driver changed, by identity ([`crate::handles::value_key`], [`crate::handles::op_key`], a block's address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// A value that goes (an erased op's result, an erased block's argument).
    ValueErased(usize),
    /// A value whose op changed in place (its operands or attributes).
    ValueModified(usize),
    /// A block that goes.
    BlockErased(usize),
    /// An op that goes.
    OpErased(usize),
    /// An op with regions changed in place: what its blocks may assume may have changed.
    RegionsModified(usize),
}

/// How the greedy driver runs.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    /// Visit ops top-down (definitions before uses) rather than bottom-up.
    pub top_down: bool,
    /// Let the driver fold ops (the ops' own `fold` hooks) besides applying the patterns.
    pub fold: bool,
    /// Let the driver also simplify regions (erase unreachable blocks, merge identical ones).
    pub simplify_regions: bool,
    /// Stop after this many rewrites (then the driver has not converged).
    pub max_rewrites: Option<usize>,
}

/// Runs MLIR's greedy driver with `patterns` on the regions of `op`, calling `on_changed` with
/// every change it makes (see `mlirXlaIndexingApplyPatternsGreedily`). Returns
/// whether the driver converged.
pub fn apply_patterns_greedily(
    op: OperationRef,
    patterns: FrozenRewritePatternSet,
    greedy: Greedy,
    on_changed: &mut dyn FnMut(Changed),
) -> bool {
    type Callback<'f> = &'f mut dyn FnMut(Changed);
    unsafe extern "C" fn changed(kind: ffi::Change, object: *mut c_void, user_data: *mut c_void) {
        let key = object as usize;
        let change = match kind {
            ffi::Change::ValueErased => Changed::ValueErased(key),
            ffi::Change::ValueModified => Changed::ValueModified(key),
            ffi::Change::BlockErased => Changed::BlockErased(key),
            ffi::Change::OperationErased => Changed::OpErased(key),
            ffi::Change::RegionsModified => Changed::RegionsModified(key),
        };
        // A panic must not unwind into C++; the callback only records what it is given.
        let _ = crate::guard::guarded(|| {
            // SAFETY: `user_data` is the callback passed below, live for the driver's run.
            let on_changed = unsafe { &mut *user_data.cast::<Callback>() };
            on_changed(change);
        });
    }
    let frozen = patterns.into_raw();
    let mut callback: Callback = on_changed;
    // SAFETY: `op` is live and `frozen` a valid pattern set, destroyed here (melior's wrapper
    // would leak it); `callback` outlives the call.
    unsafe {
        let result = ffi::mlirXlaIndexingApplyPatternsGreedily(
            op.to_raw(),
            frozen,
            greedy.top_down,
            greedy.fold,
            greedy.simplify_regions,
            greedy
                .max_rewrites
                .map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX)),
            changed,
            (&mut callback as *mut Callback).cast(),
        );
        mlirFrozenRewritePatternSetDestroy(frozen);
        result.value != 0
    }
}

/// Runs `patterns` (root op name, rewrite) on `operation` and everything nested in it with the
/// greedy driver, bottom-up as MLIR's default, which also folds constants, removes dead ops
/// and simplifies regions.
pub fn apply_greedily(
    operation: OperationRef,
    patterns: &[(&str, RewriteFn)],
) -> Result<(), PatternError> {
    let greedy = Greedy {
        top_down: false,
        fold: true,
        simplify_regions: true,
        max_rewrites: None,
    };
    apply_tracking(operation, patterns, greedy, &mut |_| {})
}

/// Runs `patterns` on `operation` as [`apply_greedily`] does, as `greedy` says, and reports
/// every value and block the driver erases to `on_changed`.
pub fn apply_tracking(
    operation: OperationRef,
    patterns: &[(&str, RewriteFn)],
    greedy: Greedy,
    on_changed: &mut dyn FnMut(Changed),
) -> Result<(), PatternError> {
    let context = operation.context();
    // SAFETY: the context outlives the pass run, which is all this reference is used for.
    let context: &Context = unsafe { context.to_ref() };
    let panicked = Rc::new(RefCell::new(None));
    let set = RewritePatternSet::new(context);
    for (root, rewrite) in patterns {
        set.add(pattern(context, root, rewrite.clone(), &panicked));
    }
    let converged = apply_patterns_greedily(operation, set.freeze(), greedy, on_changed);
    if let Some(error) = panicked.borrow_mut().take() {
        return Err(error);
    }
    if !converged {
        return Err(PatternError::NotConverged);
    }
    Ok(())
}

/// A pattern rooted at ops named `root` that applies `rewrite`; a panic in it is recorded in
/// `panicked` with the op's location and counts as no match.
fn pattern(
    context: &Context,
    root: &str,
    rewrite: RewriteFn,
    panicked: &Rc<RefCell<Option<PatternError>>>,
) -> RewritePattern {
    let panicked = panicked.clone();
    let callback = move |_pattern, op: MlirOperation, rewriter| {
        // SAFETY: MLIR passes a live op and rewriter for the duration of the callback.
        let (op, rewriter) = unsafe {
            (
                OperationRef::from_raw(op),
                PatternRewriter::from_raw(rewriter),
            )
        };
        let location = op.location();
        let outcome = guarded(|| {
            let context = op.context();
            // SAFETY: the context outlives this callback, the only use of the reference.
            let context: &Context = unsafe { context.to_ref() };
            rewrite(context, op, &rewriter.as_rewriter_base())
        });
        outcome.unwrap_or_else(|message| {
            panicked.borrow_mut().get_or_insert_with(|| {
                PatternError::Panicked(PassFailure::at(
                    location,
                    format!("internal error: {message}"),
                ))
            });
            false
        })
    };
    create_op_rewrite_pattern(root, 1, context, callback, &[])
}

/// Replaces attribute `name` of `op`, telling the rewriter.
pub fn set_attribute(rewriter: &RewriterBase, op: OperationRef, name: &str, attribute: Attribute) {
    rewriter.start_op_modification(op);
    crate::ir::set_attribute(&op, name, attribute);
    rewriter.finalize_op_modification(op);
}

#[cfg(test)]
mod tests {
    use melior::ir::Module;

    use super::*;
    use crate::session::full_context;

    #[test]
    fn a_panicking_rewrite_is_an_error_at_its_op() {
        let context = full_context();
        let module = Module::parse(
            &context,
            "func.func @f(%a: index) -> index {\n  %0 = arith.addi %a, %a : index\n  return %0 : index\n}\n",
        )
        .unwrap();
        let panics: RewriteFn = Rc::new(|_, _, _| panic!("a bug"));
        let greedy = Greedy {
            top_down: true,
            fold: false,
            simplify_regions: false,
            max_rewrites: None,
        };
        let error = apply_tracking(
            module.as_operation(),
            &[("arith.addi", panics)],
            greedy,
            &mut |_| {},
        )
        .expect_err("the panic is reported");
        let failure = PassFailure::from(error);
        assert_eq!(failure.message, "internal error: a bug");
        let location = failure.location(&context).expect("located");
        assert_eq!(location.to_string(), "loc(\"-\":2:8)");
    }
}
