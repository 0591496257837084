//! The ops of `arith`, `math` and LLVM without handlers of their own, which compute one value
//! from their operands: integer ops exactly ([`super::int::integer`]), casts between integer
//! widths, selects, and everything else as data of its operands; lane by lane on vectors.

use super::{
    Effect, Env, Interp, Result, RunError,
    int::{int_width, integer, unsigned, wrap},
    value::{Value, select, union},
};
use crate::{ir::Op, shape};

/// An op of a dialect whose other ops all have handlers: its one value. An op with several
/// results or with regions could touch memory or control, and stops the run.
pub fn op(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    if op.results.len() != 1 || !op.regions.is_empty() {
        return Err(RunError::UnknownOp {
            name: op.name.clone(),
        });
    }
    let args = interp.get_all(env, &op.operands())?;
    let index_width = interp.index_width();
    let ty = shape::element_types(op.text.rsplit(" : ").next().unwrap_or("").trim());
    let value = match Value::vector_shape(&args) {
        Some(shape) => {
            let lanes = (0..shape::count(&shape))
                .map(|k| {
                    let lane = args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?;
                    scalar(op, &ty, &lane, index_width)
                })
                .collect::<Result<Vec<_>>>()?;
            Value::vector(&shape, lanes)
        }
        None => scalar(op, &ty, &args, index_width)?,
    };
    Ok(value.into())
}

/// The value of `op` on scalars `args` of type `ty` (the text after ` : `, element types for
/// vectors).
fn scalar(op: &Op, ty: &str, args: &[Value], index_width: u32) -> Result<Value> {
    let name = op.name.as_str();
    // Casts: `: i32 to index`, `llvm.zext %x : i32 to i64`.
    if let Some((from, to)) = ty.split_once(" to ") {
        let (Some(from), Some(to)) = (int_width(from, index_width), int_width(to, index_width))
        else {
            return union(args);
        };
        let Some(Value::Int(v)) = args.first() else {
            return union(args);
        };
        let zero_extend = matches!(name, "arith.index_castui" | "arith.extui" | "llvm.zext");
        let v = if zero_extend {
            unsigned(*v, from) as i64
        } else {
            wrap(*v, from)
        };
        return Ok(Value::Int(wrap(v, to)));
    }
    let width = ty
        .rsplit(", ")
        .next()
        .and_then(|t| int_width(t, index_width));
    match (ints(args), width) {
        (Some(ints), Some(width)) => integer(name, &op.text, &ints, width).map(Value::Int),
        _ if matches!(name, "arith.select" | "llvm.select") => select(args),
        _ => union(args),
    }
}

/// The integers of `values`, if they all are.
pub fn ints(values: &[Value]) -> Option<Vec<i64>> {
    values
        .iter()
        .map(|v| match v {
            Value::Int(i) => Some(*i),
            _ => None,
        })
        .collect()
}
