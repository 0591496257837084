//! StableHLO on tiles, in generic form, as the tiled emitter's kernels hold it: shape ops
//! (transpose, broadcast, reshape, iota) and, for every other op, elementwise integer
//! arithmetic as `arith` computes it or float data.

use super::{
    Effect, Env, Interp, Need, Result, compute,
    int::{int_width, integer, wrap},
    table::Handler,
    value::{Tile, Value, union},
};
use crate::{ir::Op, shape};

/// The shape ops of StableHLO.
pub const OPS: &[(&str, Handler)] = &[
    ("stablehlo.transpose", transpose),
    ("stablehlo.broadcast_in_dim", broadcast_in_dim),
    ("stablehlo.reshape", reshape),
    ("stablehlo.iota", iota),
];

/// The shape and element type of the op's result tile.
fn result(op: &Op) -> Result<(Vec<i64>, &str)> {
    let ty = op.text.rsplit("-> ").next().unwrap_or("");
    shape::shaped(ty).need("a result of no tensor type")
}

/// The tile operand `k`.
fn tile(interp: &Interp, env: &Env, op: &Op, k: usize) -> Result<Tile> {
    let operands = op.operands();
    match interp.get(env, operands.get(k).need("an operand")?)? {
        Value::Vector { shape, elems } => Ok((shape, elems)),
        _ => fail!("an operand that is no tile"),
    }
}

/// The dimensions of the attribute `name = array<i64: ...>`.
fn dims(op: &Op, name: &str) -> Result<Vec<usize>> {
    let dims = shape::array_attr(&op.text, name).need_with(|| name.to_owned())?;
    Ok(dims.iter().map(|&d| d as usize).collect())
}

/// `stablehlo.transpose` by its `permutation`.
fn transpose(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let permutation = dims(op, "permutation")?;
    let (shape, elems) = tile(interp, env, op, 0)?;
    let (shape, elems) = shape::transpose(&shape, &elems, &permutation);
    Ok(Value::vector(&shape, elems).into())
}

/// `stablehlo.broadcast_in_dim` by its `broadcast_dimensions`.
fn broadcast_in_dim(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let dims = dims(op, "broadcast_dimensions")?;
    let (out, _) = result(op)?;
    let (shape, elems) = tile(interp, env, op, 0)?;
    Ok(Value::vector(&out, shape::broadcast(&shape, &elems, &dims, &out)).into())
}

/// `stablehlo.reshape`: the same row-major elements in the result's shape.
fn reshape(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let (out, _) = result(op)?;
    let (_, elems) = tile(interp, env, op, 0)?;
    Ok(Value::vector(&out, elems.to_vec()).into())
}

/// `stablehlo.iota` along its `iota_dimension`, of integers.
fn iota(interp: &mut Interp, op: &Op, _: &mut Env) -> Result<Effect> {
    let (out, element) = result(op)?;
    let dim = op
        .text
        .split("iota_dimension = ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|d| d.parse::<usize>().ok())
        .need("iota_dimension")?;
    let width = int_width(element, interp.index_width()).need("a float iota")?;
    let lanes = shape::iota(&out, dim)
        .into_iter()
        .map(|v| Value::Int(wrap(v, width)))
        .collect();
    Ok(Value::vector(&out, lanes).into())
}

/// Any other StableHLO op, elementwise: on integers as `arith` computes them, on floats (and
/// lanes out of the memref, which are nothing) as data.
pub fn elementwise(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let (out, element) = result(op)?;
    let args = interp.get_all(env, &op.operands())?;
    let name = op.name.trim_start_matches("stablehlo.");
    let arith = match name {
        "add" => Some("arith.addi"),
        "subtract" => Some("arith.subi"),
        "multiply" => Some("arith.muli"),
        "maximum" => Some("arith.maxsi"),
        "minimum" => Some("arith.minsi"),
        "and" => Some("arith.andi"),
        "or" => Some("arith.ori"),
        "xor" => Some("arith.xori"),
        _ => None,
    };
    let width = int_width(element, interp.index_width());
    let lanes = (0..shape::count(&out))
        .map(|k| {
            let lane = args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?;
            match (width, compute::ints(&lane), arith) {
                (Some(width), Some(ints), Some(arith)) => {
                    Ok(Value::Int(integer(arith, "", &ints, width)?))
                }
                (Some(_), Some(_), None) => {
                    fail!("the integer op stablehlo.{name} is not interpreted")
                }
                _ => union(&lane),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::vector(&out, lanes).into())
}
