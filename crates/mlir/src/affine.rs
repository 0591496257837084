//! MLIR affine expressions to and from the core's quasi-affine [`Expr`]essions (the core's
//! products of two expressions and divisions by an expression have no affine counterpart here:
//! `lower-apply` computes them with `arith` ops).
//!
//! Affine dimensions are the core's dimensions and affine symbols its symbols, position for
//! position.

use melior::{Context, ir::AffineExpr};
use xla_indexing_core::{Atom, Expr, VarRef};

/// Converts an affine expression; `None` for a semi-affine one (a product of two non-constant
/// expressions, a division or `mod` by a non-constant: the passes that read `affine` ops keep
/// to quasi-affine maps), a division by zero, or arithmetic that overflows.
pub fn expr_from_affine(e: AffineExpr) -> Option<Expr> {
    expr_from_affine_with(e, &|v| Some(Expr::var(v)))
}

/// Converts an affine expression with each dimension and symbol replaced by what `var` gives
/// for it (the expressions of an op's operands): a product or a division by a symbol whose
/// operand is a constant is then quasi-affine. `None` as for [`expr_from_affine`], or where
/// `var` gives `None`.
pub fn expr_from_affine_with(e: AffineExpr, var: &dyn Fn(VarRef) -> Option<Expr>) -> Option<Expr> {
    if e.is_dim() {
        return var(VarRef::Dim(u32::try_from(e.dim_position()).ok()?));
    }
    if e.is_symbol() {
        return var(VarRef::Sym(u32::try_from(e.symbol_position()).ok()?));
    }
    if e.is_constant() {
        return Some(Expr::constant(e.constant_value()));
    }
    let (lhs, rhs) = (
        expr_from_affine_with(e.lhs(), var)?,
        expr_from_affine_with(e.rhs(), var)?,
    );
    if e.is_add() {
        return lhs.checked_add(&rhs).ok();
    }
    if e.is_mul() {
        return match (lhs.as_constant(), rhs.as_constant()) {
            (_, Some(k)) => lhs.checked_scale(k).ok(),
            (Some(k), None) => rhs.checked_scale(k).ok(),
            (None, None) => None,
        };
    }
    let divisor = rhs.as_constant()?;
    let result = if e.is_floor_div() {
        lhs.floor_div(divisor)
    } else if e.is_ceil_div() {
        lhs.ceil_div(divisor)
    } else if e.is_mod() {
        lhs.modulo(divisor)
    } else {
        return None;
    };
    result.ok()
}

/// Converts a core expression into an affine expression of `context`; `None` when it holds a
/// `min` or `max`, which affine expressions lack (an `affine.min` or `affine.max` op computes
/// one: see `passes/affine_ops.rs`), or a product of two expressions or a division by one,
/// which `lower-affine` cannot expand (`lower-apply` plans those as `arith` ops). (The core keeps every divisor at 2 or more, as affine maps
/// require.)
pub fn affine_from_expr<'c>(context: &'c Context, e: &Expr) -> Option<AffineExpr<'c>> {
    let mut sum: Option<AffineExpr<'c>> = None;
    for (atom, coefficient) in e.terms() {
        let atom = affine_from_atom(context, atom)?;
        let term = if *coefficient == 1 {
            atom
        } else {
            atom * AffineExpr::constant(context, *coefficient)
        };
        sum = Some(sum.map_or(term, |s| s + term));
    }
    let constant = e.constant_term();
    Some(match sum {
        None => AffineExpr::constant(context, constant),
        Some(s) if constant == 0 => s,
        Some(s) => s + AffineExpr::constant(context, constant),
    })
}

fn affine_from_atom<'c>(context: &'c Context, atom: &Atom) -> Option<AffineExpr<'c>> {
    let divide = |e: &Expr, k: i64, op: fn(AffineExpr<'c>, AffineExpr<'c>) -> AffineExpr<'c>| {
        Some(op(
            affine_from_expr(context, e)?,
            AffineExpr::constant(context, k),
        ))
    };
    match atom {
        Atom::Var(VarRef::Dim(i)) => Some(AffineExpr::dim(context, *i as usize)),
        Atom::Var(VarRef::Sym(i)) => Some(AffineExpr::symbol(context, *i as usize)),
        Atom::FloorDiv(e, k) => divide(e, *k, AffineExpr::floor_div),
        Atom::CeilDiv(e, k) => divide(e, *k, AffineExpr::ceil_div),
        Atom::Mod(e, k) => divide(e, *k, AffineExpr::modulo),
        Atom::Min(..) | Atom::Max(..) | Atom::Mul(..) | Atom::DivBy(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use melior::ir::{AffineMap, Attribute};

    use super::*;

    fn affine_map<'c>(context: &'c Context, text: &str) -> AffineMap<'c> {
        let attribute = Attribute::parse(context, &format!("affine_map<{text}>")).unwrap();
        crate::ir::affine_map_attribute(attribute).expect("an affine map attribute")
    }

    #[test]
    fn affine_expressions_round_trip() {
        let context = Context::new();
        for text in [
            "(d0, d1)[s0] -> (d0 * 4 + d1 floordiv 8 - s0 + 3)",
            "(d0) -> ((d0 * 3 + 1) mod 16 + (d0 ceildiv 2) * 5)",
            "()[s0] -> (7)",
        ] {
            let map = affine_map(&context, text);
            let e = expr_from_affine(map.result(0).unwrap()).unwrap();
            let back = affine_from_expr(&context, &e).unwrap();
            assert_eq!(
                expr_from_affine(back),
                Some(e),
                "{text} came back as {back}"
            );
        }
    }

    #[test]
    fn min_and_max_have_no_affine_expression() {
        let context = Context::new();
        let m = Expr::min_of(&Expr::dim(0), &Expr::sym(0));
        assert!(affine_from_expr(&context, &m).is_none());
        let inside = Expr::max_of(&Expr::dim(0), &Expr::constant(3))
            .floor_div(2)
            .unwrap();
        assert!(affine_from_expr(&context, &inside).is_none());
    }

    #[test]
    fn semi_affine_expressions_are_rejected() {
        let context = Context::new();
        for text in [
            "(d0)[s0] -> (d0 * s0)",
            "(d0)[s0] -> (d0 floordiv s0)",
            "(d0)[s0] -> (d0 mod s0)",
        ] {
            let map = affine_map(&context, text);
            assert_eq!(expr_from_affine(map.result(0).unwrap()), None, "{text}");
        }
    }
}
