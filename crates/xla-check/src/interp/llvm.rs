//! LLVM's dialect as XLA's last stage holds it: addresses into buffers, loads and stores
//! (masked ones too), vectors and arrays of vectors, memref descriptors; `ub.poison`. Its
//! other ops compute one value from their operands ([`super::compute`]).

use super::{
    Effect, Env, Interp, Need, Result, RunError, arith, compute,
    table::Handler,
    value::{Loc, Value},
};
use crate::{
    ir::{Op, bracketed},
    shape,
};

/// The ops of LLVM's dialect with handlers of their own, and `ub.poison`.
pub const OPS: &[(&str, Handler)] = &[
    ("llvm.mlir.constant", arith::constant),
    ("llvm.mlir.zero", poison),
    ("llvm.mlir.poison", poison),
    ("llvm.mlir.undef", poison),
    ("ub.poison", poison),
    ("llvm.extractvalue", extract_value),
    ("llvm.insertvalue", insert_value),
    ("llvm.intr.masked.load", masked_load),
    ("llvm.intr.masked.store", masked_store),
    ("llvm.shufflevector", shuffle),
    ("llvm.insertelement", insert_element),
    ("llvm.extractelement", extract_element),
    ("llvm.getelementptr", gep),
    ("llvm.load", load),
    ("llvm.store", store),
];

/// Any other op of LLVM's dialect: one that computes a value, except a call, which could
/// touch memory.
pub fn other(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    if op.name == "llvm.call" {
        return Err(RunError::UnknownOp {
            name: op.name.clone(),
        });
    }
    compute::op(interp, op, env)
}

/// A zero, poison or undefined value: nothing, or a vector (or an LLVM array of vectors) of
/// nothing.
fn poison(_: &mut Interp, op: &Op, _: &mut Env) -> Result<Effect> {
    let ty = op.text.rsplit(" : ").next().unwrap_or("");
    let shape = shape::shaped(ty)
        .map(|(shape, _)| shape)
        .or_else(|| shape::aggregate(ty));
    Ok(match shape {
        Some(shape) => Value::vector(&shape, vec![Value::nothing(); shape::count(&shape)]),
        None => Value::nothing(),
    }
    .into())
}

/// `llvm.extractvalue %x[i, j]`: of a memref's descriptor, its pointers, offset (0), sizes
/// and strides (row-major); of an array of vectors, the vector (or array) at `[i, j]`.
fn extract_value(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let aggregate = operands.first().need("extractvalue")?;
    let position = position(&op.text)?;
    let value = match interp.get(env, aggregate)? {
        Value::Memref { buf, shape } => {
            let stride = |k: usize| shape[k + 1..].iter().product::<i64>();
            match position[..] {
                [0] | [1] => Value::Ptr { buf, off: 0 },
                [2] => Value::Int(0),
                [3, k] if k < shape.len() => Value::Int(shape[k]),
                [4, k] if k < shape.len() => Value::Int(stride(k)),
                _ => fail!("a memref descriptor's field {position:?}"),
            }
        }
        Value::Vector { shape, elems } => {
            let (base, sub) = sub_block(&shape, &position)?;
            let part = elems[base..base + shape::count(&sub)].to_vec();
            if sub.is_empty() {
                part.into_iter().next().unwrap_or_else(Value::nothing)
            } else {
                Value::vector(&sub, part)
            }
        }
        other => fail!("an extractvalue of {other:?}"),
    };
    Ok(value.into())
}

/// `llvm.insertvalue %v, %x[i, j]`: the array of vectors with the block at `[i, j]` replaced.
fn insert_value(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [value, aggregate] = operands[..] else {
        fail!("an insertvalue of {} operands", operands.len());
    };
    let value = interp.get(env, value)?;
    let Value::Vector { shape, elems } = interp.get(env, aggregate)? else {
        fail!("an insertvalue into no array of vectors");
    };
    let (base, sub) = sub_block(&shape, &position(&op.text)?)?;
    let mut elems = elems.to_vec();
    for k in 0..shape::count(&sub) {
        elems[base + k] = value.lane(k)?;
    }
    Ok(Value::vector(&shape, elems).into())
}

/// `llvm.intr.masked.load(%p, %mask, %pass)`: the lanes the mask has on, loaded; the others
/// `%pass`'s.
fn masked_load(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [pointer, mask, pass] = operands[..] else {
        fail!("a masked load of {} operands", operands.len());
    };
    let loc = interp.pointer(env, pointer)?;
    let (mask, pass) = (interp.get(env, mask)?, interp.get(env, pass)?);
    let ty = op.text.rsplit("-> ").next().unwrap_or("");
    let (shape, element) = shape::shaped(ty).need("a masked load of no vector")?;
    let mask = mask_lanes(&mask, shape::count(&shape))?;
    Ok(load_vector(interp, loc, &shape, element, &mask, &pass)?.into())
}

/// `llvm.intr.masked.store %v, %p, %mask`: the lanes the mask has on, stored.
fn masked_store(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [value, pointer, mask] = operands[..] else {
        fail!("a masked store of {} operands", operands.len());
    };
    let loc = interp.pointer(env, pointer)?;
    let (value, mask) = (interp.get(env, value)?, interp.get(env, mask)?);
    let ty = op.text.rsplit(" : ").next().unwrap_or("");
    let ty = ty.split(',').next().unwrap_or("");
    let (shape, element) = shape::shaped(ty).need("a masked store of no vector")?;
    let mask = mask_lanes(&mask, shape::count(&shape))?;
    store_vector(interp, loc, element, &value, &mask)?;
    Ok(Effect::none())
}

/// `llvm.shufflevector %a, %b [0, 4, -1]`: the lanes of both vectors the mask picks (`-1`,
/// nothing).
fn shuffle(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [a, b] = operands[..] else {
        fail!("a shuffle of {} operands", operands.len());
    };
    let all: Vec<Value> = match (interp.get(env, a)?, interp.get(env, b)?) {
        (Value::Vector { elems: x, .. }, Value::Vector { elems: y, .. }) => {
            x.iter().chain(y.iter()).cloned().collect()
        }
        _ => fail!("a shuffle of no vectors"),
    };
    let lanes = bracketed(&op.text)
        .need("a shuffle without a mask")?
        .into_iter()
        .map(|m| match m.parse::<i64>() {
            Ok(-1) => Ok(Value::nothing()),
            Ok(k) => all.get(k as usize).cloned().need("a shuffle lane"),
            Err(_) => fail!("shuffle mask {m}"),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::vector(&[lanes.len() as i64], lanes).into())
}

/// `llvm.insertelement %v, %vector[%k]`: the vector with lane `%k` replaced.
fn insert_element(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [value, vector, index] = operands[..] else {
        fail!("an insertelement of {} operands", operands.len());
    };
    let (value, k) = (interp.get(env, value)?, interp.int(env, index)?);
    let Value::Vector { shape, elems } = interp.get(env, vector)? else {
        fail!("an insertelement into no vector");
    };
    let mut elems = elems.to_vec();
    *elems
        .get_mut(k as usize)
        .need("an insertelement out of the vector")? = value;
    Ok(Value::vector(&shape, elems).into())
}

/// `llvm.extractelement %vector[%k]`: lane `%k`.
fn extract_element(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let [vector, index] = operands[..] else {
        fail!("an extractelement of {} operands", operands.len());
    };
    let k = interp.int(env, index)?;
    let k = usize::try_from(k)
        .ok()
        .need_with(|| format!("lane {k} of a vector"))?;
    Ok(interp.get(env, vector)?.lane(k)?.into())
}

/// `llvm.getelementptr [inbounds] %base[i, j] : (...) -> !llvm.ptr, T`: into an array
/// `!llvm.array<N x T>` (indices `[0, i]`) or over elements `T` (index `[i]`).
fn gep(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let text = &op.text;
    let operands = op.operands();
    let (buf, off) = interp.pointer(env, operands.first().need("gep without a base")?)?;
    let indices = bracketed(text)
        .need("gep without indices")?
        .into_iter()
        .map(|i| interp.int_or_literal(env, i))
        .collect::<Result<Vec<i64>>>()?;
    let element = text.rsplit(", ").next().unwrap_or("").trim();
    let step = match (element.starts_with("!llvm.array<"), indices.as_slice()) {
        (true, [0, i]) => *i,
        (false, [i]) if !element.starts_with("!llvm.") => *i,
        _ => fail!("an address into {element} by {indices:?}"),
    };
    Ok(Value::Ptr {
        buf,
        off: off + step,
    }
    .into())
}

/// `llvm.load %p : !llvm.ptr -> T`: a scalar, or a vector's lanes from consecutive elements.
fn load(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let loc = interp.pointer(env, operands.first().need("load")?)?;
    let ty = op.text.rsplit("-> ").next().unwrap_or("").trim();
    let value = match shape::shaped(ty) {
        Some((shape, element)) => {
            let all = vec![true; shape::count(&shape)];
            load_vector(interp, loc, &shape, element, &all, &Value::nothing())?
        }
        None => interp.load(loc, ty),
    };
    Ok(value.into())
}

/// `llvm.store %v, %p : T, !llvm.ptr`: a scalar, or a vector's lanes to consecutive elements.
fn store(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let (value, pointer) = (
        operands.first().need("store")?,
        operands.get(1).need("store")?,
    );
    let loc = interp.pointer(env, pointer)?;
    let ty = op.text.rsplit(" : ").next().unwrap_or("");
    let ty = ty.split(',').next().unwrap_or("").trim();
    let value = interp.get(env, value)?;
    match shape::shaped(ty) {
        Some((shape, element)) => {
            let all = vec![true; shape::count(&shape)];
            store_vector(interp, loc, element, &value, &all)?;
        }
        None => interp.store(loc, ty, value),
    }
    Ok(Effect::none())
}

/// A vector of `shape` loaded from consecutive elements from `loc` on, where `mask` is on;
/// elsewhere `pass`'s lanes.
fn load_vector(
    interp: &mut Interp,
    (buf, off): Loc,
    shape: &[i64],
    element: &str,
    mask: &[bool],
    pass: &Value,
) -> Result<Value> {
    let lanes = mask
        .iter()
        .enumerate()
        .map(|(k, &on)| {
            if on {
                Ok(interp.load((buf, off + k as i64), element))
            } else {
                pass.lane(k)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::vector(shape, lanes))
}

/// The lanes of `value` where `mask` is on, stored to consecutive elements from `loc` on.
fn store_vector(
    interp: &mut Interp,
    (buf, off): Loc,
    element: &str,
    value: &Value,
    mask: &[bool],
) -> Result<()> {
    for (k, &on) in mask.iter().enumerate() {
        if on {
            interp.store((buf, off + k as i64), element, value.lane(k)?);
        }
    }
    Ok(())
}

/// Whether each of the `count` lanes of `mask` (an `i1` vector known without data) is on.
fn mask_lanes(mask: &Value, count: usize) -> Result<Vec<bool>> {
    (0..count)
        .map(|k| match mask.lane(k)? {
            Value::Int(0) => Ok(false),
            Value::Int(_) => Ok(true),
            _ => fail!("a mask that depends on data"),
        })
        .collect()
}

/// The position `[i, j]` of `llvm.extractvalue`/`insertvalue`.
fn position(text: &str) -> Result<Vec<usize>> {
    bracketed(text)
        .need("no position")?
        .iter()
        .map(|p| p.parse().ok().need_with(|| format!("position {p}")))
        .collect()
}

/// Where the block at `position` of an array of vectors of `shape` starts, and its shape.
fn sub_block(shape: &[i64], position: &[usize]) -> Result<(usize, Vec<i64>)> {
    if position.len() > shape.len() || position.iter().zip(shape).any(|(&p, &n)| p as i64 >= n) {
        fail!("position {position:?} in {shape:?}");
    }
    let sub = shape[position.len()..].to_vec();
    let index: Vec<i64> = position.iter().map(|&p| p as i64).collect();
    let base = shape::flat(&index, &shape[..position.len()]) as usize * shape::count(&sub);
    Ok((base, sub))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_arrays_of_vectors() {
        // The vector at [3, 0] of an array of 4 x 1 vectors of 8.
        assert_eq!(sub_block(&[4, 1, 8], &[3, 0]).unwrap(), (24, vec![8]));
        assert!(sub_block(&[4, 1, 8], &[4]).is_err());
        assert_eq!(
            position("llvm.extractvalue %x[3, 0] : T").unwrap(),
            vec![3, 0]
        );
    }
}
