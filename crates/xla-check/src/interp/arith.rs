//! `arith`: constants (LLVM's `llvm.mlir.constant` too); its other ops compute one value
//! from their operands ([`super::compute`]).

use super::{
    Effect, Env, Interp, Need, Result,
    int::{int_width, wrap},
    table::Handler,
    value::Value,
};
use crate::{ir::Op, shape};

/// The ops of `arith` with handlers of their own.
pub const OPS: &[(&str, Handler)] = &[("arith.constant", constant)];

/// `arith.constant` and `llvm.mlir.constant`: an integer, float data of no input, or a
/// vector of them (`dense<[1, 2]> : vector<2xi32>`, a splat `dense<0.0> : tensor<4xf32>`).
pub fn constant(interp: &mut Interp, op: &Op, _: &mut Env) -> Result<Effect> {
    let text = &op.text;
    let index_width = interp.index_width();
    let ty = text.rsplit(" : ").next().unwrap_or("").trim();
    if let Some((shape, element)) = shape::shaped(ty) {
        let items = shape::dense_items(text).need("a shaped constant that is not dense")?;
        let lanes = items
            .iter()
            .map(|item| literal(item, element, index_width))
            .collect::<Result<Vec<_>>>()?;
        let n = shape::count(&shape);
        let lanes = match lanes.len() {
            1 => vec![lanes[0].clone(); n],
            len if len == n => lanes,
            len => fail!("{len} values for {n} elements"),
        };
        return Ok(Value::vector(&shape, lanes).into());
    }
    let body = text
        .trim_start_matches("arith.constant")
        .trim_start_matches("llvm.mlir.constant")
        .trim()
        .trim_start_matches('(');
    let item = body.split([' ', ')']).next().unwrap_or("");
    Ok(literal(item, ty, index_width)?.into())
}

/// One constant `item` of type `ty`: an integer (`true` is -1 as an `i1`), else data.
fn literal(item: &str, ty: &str, index_width: u32) -> Result<Value> {
    match (item, int_width(ty, index_width)) {
        ("true", _) => Ok(Value::Int(-1)),
        ("false", _) => Ok(Value::Int(0)),
        (item, Some(width)) => {
            let v: i64 = item
                .parse()
                .ok()
                .need_with(|| format!("integer constant {item}"))?;
            Ok(Value::Int(wrap(v, width)))
        }
        _ => Ok(Value::nothing()),
    }
}
