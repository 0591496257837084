//! An expression as `affine` ops: an `affine.apply` of its map, after an `affine.min` or
//! `affine.max` for each `min` and `max` in it, since affine maps have neither.
//!
//! Each `min(a, b)` becomes `affine.min` of the two-result map `(dims)[symbols] -> (a, b)`, and
//! the expressions that hold it take its value as one more symbol, innermost first:
//! `max(d0, 4) floordiv 2 + min(d0, s0)` is
//!
//! ```text
//! %m0 = affine.max affine_map<(d0)[s0] -> (d0, 4)>(%d0)[%s0]
//! %m1 = affine.min affine_map<(d0)[s0, s1] -> (d0, s0)>(%d0)[%s0, %m0]
//! %r = affine.apply affine_map<(d0)[s0, s1, s2] -> (s1 floordiv 2 + s2)>(%d0)[%s0, %m0, %m1]
//! ```
//!
//! An atom that occurs twice is computed once. (The verifiers of `affine.apply`, `affine.min`
//! and `affine.max` check only the number of operands, so an `affine.min` result may be a symbol
//! operand; `lower-affine` expands the three ops with floor semantics.)

use melior::{
    Context, RewriterBase,
    ir::{AffineMap, Identifier, Location, Type, Value, operation::OperationBuilder},
};
use xla_indexing_core::{Atom, Expr};
use xla_indexing_mlir::handles::stretch_value;

use xla_indexing_mlir::affine::affine_from_expr;
use xla_indexing_mlir::ir::affine_map_attribute_of;

/// Emits `e` before the rewriter's insertion point; `operands` are the values of its
/// dimensions (the first `num_dims`) and symbols. Returns the value of `e`, `None` if an op
/// could not be built.
pub fn materialize<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    location: Location<'c>,
    e: &Expr,
    num_dims: usize,
    operands: &[Value<'c, 'c>],
) -> Option<Value<'c, 'c>> {
    let mut emitter = Emitter {
        context,
        rewriter,
        location,
        num_dims,
        operands: operands.to_vec(),
        outlined: Vec::new(),
    };
    let e = emitter.outline(e)?;
    emitter.emit("affine.apply", &[e])
}

/// Emits the ops of one expression.
struct Emitter<'c, 'r, 'a> {
    context: &'c Context,
    rewriter: &'r RewriterBase<'c, 'a>,
    location: Location<'c>,
    num_dims: usize,
    /// The values of the dimensions, the symbols, then the `min`s and `max`s computed so far.
    operands: Vec<Value<'c, 'c>>,
    /// Each `min` or `max` computed, with the symbol that holds its value.
    outlined: Vec<(Atom, u32)>,
}

impl<'c> Emitter<'c, '_, '_> {
    /// `e` with every `min` and `max` replaced by the symbol of its value (emitting their ops).
    fn outline(&mut self, e: &Expr) -> Option<Expr> {
        let mut parts = vec![Expr::constant(e.constant_term())];
        for (atom, coefficient) in e.terms() {
            let replaced = match atom {
                Atom::Var(_) => Expr::atom(atom.clone()),
                Atom::Min(..) | Atom::Max(..) => Expr::sym(self.extremum(atom)?),
                _ => {
                    let operands = atom
                        .operands()
                        .map(|x| self.outline(x))
                        .collect::<Option<Vec<_>>>()?;
                    atom.with_operands(&operands).ok()?
                }
            };
            parts.push(replaced.checked_scale(*coefficient).ok()?);
        }
        Expr::sum(&parts).ok()
    }

    /// The symbol holding the value of a `min` or `max` atom, emitting its op the first time.
    fn extremum(&mut self, atom: &Atom) -> Option<u32> {
        if let Some((_, symbol)) = self.outlined.iter().find(|(a, _)| a == atom) {
            return Some(*symbol);
        }
        let operands = atom
            .operands()
            .map(|x| self.outline(x))
            .collect::<Option<Vec<_>>>()?;
        let name = match atom {
            Atom::Min(..) => "affine.min",
            _ => "affine.max",
        };
        let value = self.emit(name, &operands)?;
        let symbol = u32::try_from(self.operands.len() - self.num_dims).ok()?;
        self.operands.push(value);
        self.outlined.push((atom.clone(), symbol));
        Some(symbol)
    }

    /// Emits op `name` (`affine.apply`, `affine.min` or `affine.max`) of the map with results
    /// `exprs` over the operands so far.
    fn emit(&self, name: &str, exprs: &[Expr]) -> Option<Value<'c, 'c>> {
        let results = exprs
            .iter()
            .map(|e| affine_from_expr(self.context, e))
            .collect::<Option<Vec<_>>>()?;
        let num_symbols = self.operands.len() - self.num_dims;
        let map = AffineMap::new(self.context, self.num_dims, num_symbols, &results);
        let attribute = affine_map_attribute_of(map);
        let op = OperationBuilder::new(name, self.location)
            .add_attributes(&[(Identifier::new(self.context, "map"), attribute)])
            .add_operands(&self.operands)
            .add_results(&[Type::index(self.context)])
            .build()
            .ok()?;
        let op = self.rewriter.insert(op);
        // SAFETY: the op was just inserted; the IR owns it.
        op.result(0).ok().map(|r| unsafe { stretch_value(r) })
    }
}
