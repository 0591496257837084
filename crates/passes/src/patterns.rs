//! Rust rewrite patterns run by MLIR's greedy driver.

use std::{cell::RefCell, rc::Rc};

use melior::{
    Context, PatternRewriter, RewritePattern, RewritePatternSet, RewriterBase,
    create_op_rewrite_pattern,
    ir::{Attribute, OperationRef, operation::OperationLike},
};
use mlir_sys::{MlirLocation, MlirOperation};

use super::PassFailure;
use xla_indexing_mlir::{
    guard::guarded,
    ir::{Changed, Greedy, apply_patterns_greedily},
};

/// A rewrite: returns whether it changed the IR (it must tell the rewriter about every change).
/// It may carry state of its own (options, an analysis).
pub type RewriteFn = Rc<dyn Fn(&Context, OperationRef, &RewriterBase) -> bool>;

/// Why running patterns failed.
#[derive(Debug)]
pub enum PatternError {
    /// A rewrite panicked at an op (the rewrite counts as no match; the first panic is kept).
    Panicked {
        location: MlirLocation,
        message: String,
    },
    /// The driver did not reach a fixed point.
    NotConverged,
}

impl From<PatternError> for PassFailure {
    fn from(error: PatternError) -> PassFailure {
        match error {
            PatternError::Panicked { location, message } => PassFailure {
                location: Some(location),
                message: format!("internal error: {message}"),
            },
            PatternError::NotConverged => "the rewrites did not converge".to_string().into(),
        }
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
        let location = op.location().to_raw();
        let outcome = guarded(|| {
            let context = op.context();
            // SAFETY: the context outlives this callback, the only use of the reference.
            let context: &Context = unsafe { context.to_ref() };
            rewrite(context, op, &rewriter.as_rewriter_base())
        });
        outcome.unwrap_or_else(|message| {
            panicked
                .borrow_mut()
                .get_or_insert(PatternError::Panicked { location, message });
            false
        })
    };
    create_op_rewrite_pattern(root, 1, context, callback, &[])
}

/// Replaces attribute `name` of `op`, telling the rewriter.
pub fn set_attribute(rewriter: &RewriterBase, op: OperationRef, name: &str, attribute: Attribute) {
    rewriter.start_op_modification(op);
    xla_indexing_mlir::ir::set_attribute(&op, name, attribute);
    rewriter.finalize_op_modification(op);
}

#[cfg(test)]
mod tests {
    use melior::ir::{Location, Module};

    use super::*;
    use crate::opt::full_context;

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
        let PassFailure { location, message } = error.into();
        assert_eq!(message, "internal error: a bug");
        // SAFETY: the location belongs to `context`, which is live.
        let location = unsafe { Location::from_raw(location.expect("located")) };
        assert_eq!(location.to_string(), "loc(\"-\":2:8)");
    }
}
