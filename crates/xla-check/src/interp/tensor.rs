//! `tensor`: ours reads and writes its buffers as tensors, checked in bounds.

use super::{
    Effect, Env, Interp, Need, Result, RunError,
    int::{int_width, wrap},
    table::Handler,
    value::{Tensor, Value},
};
use crate::{
    ir::{Op, bracket_lists, split_top},
    shape,
};

/// The ops of `tensor` (`tensor.parallel_insert_slice` is run by `scf.forall.in_parallel`).
pub const OPS: &[(&str, Handler)] = &[
    ("tensor.extract", extract),
    ("tensor.insert", insert),
    ("tensor.collapse_shape", collapse_shape),
    ("tensor.from_elements", from_elements),
];

/// `tensor.extract %t[%i, %j]`: what was inserted there, else the input.
fn extract(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let tensor = interp.tensor(env, operands.first().need("extract")?)?;
    let off = offset(interp, env, &tensor, &operands[1..])?;
    tensor.check_latest()?;
    let written = tensor.store.borrow().written.get(&off).cloned();
    let value = match written {
        Some(v) => v,
        None => interp.initial((tensor.buf, off), &tensor.element),
    };
    Ok(
        match (value, int_width(&tensor.element, interp.index_width())) {
            (Value::Int(v), Some(width)) => Value::Int(wrap(v, width)),
            (v, _) => v,
        }
        .into(),
    )
}

/// `tensor.insert %v into %t[%i, %j]`: the tensor's next version.
fn insert(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let value = interp.get(env, operands.first().need("insert")?)?;
    let mut tensor = interp.tensor(env, operands.get(1).need("insert")?)?;
    let off = offset(interp, env, &tensor, &operands[2..])?;
    tensor.check_latest()?;
    let value = value.normalized(&tensor.element, interp.index_width());
    let mut store = tensor.store.borrow_mut();
    store.written.insert(off, value);
    store.version += 1;
    let version = store.version;
    drop(store);
    tensor.version = version;
    Ok(Value::Tensor(tensor).into())
}

/// `tensor.collapse_shape`: a view of the same row-major elements (the tensor's store is
/// keyed by row-major offsets), with the shape of the result type.
fn collapse_shape(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let text = &op.text;
    let operands = op.operands();
    let mut tensor = interp.tensor(env, operands.first().need("collapse_shape")?)?;
    let ty = text.rsplit(" into ").next().unwrap_or("");
    let (shape, _) = shape::shaped(ty.split(" loc(").next().unwrap_or(ty))
        .need_with(|| format!("the result type of {text}"))?;
    if shape::count(&shape) != shape::count(&tensor.shape) {
        fail!("{text} changes the number of elements");
    }
    tensor.shape = shape.into();
    Ok(Value::Tensor(tensor).into())
}

/// `tensor.from_elements`: a tile of its operands.
fn from_elements(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let ty = op.text.rsplit(" : ").next().unwrap_or("");
    let (shape, _) = shape::shaped(ty).need("from_elements of no tensor")?;
    let elems = interp.get_all(env, &op.operands())?;
    Ok(Value::vector(&shape, elems).into())
}

/// `tensor.parallel_insert_slice %src into %out[0, 0] [M, N] [1, 1]` in an
/// `scf.forall.in_parallel`, of a whole tensor only: the output's name and its new value.
pub fn parallel_insert(interp: &Interp, op: &Op, env: &Env) -> Result<(String, Value)> {
    if op.name != "tensor.parallel_insert_slice" {
        fail!(
            "the op {} in scf.forall.in_parallel is not interpreted",
            op.name
        );
    }
    let names = op.operands();
    let (src, out) = (names.first().need("src")?, names.get(1).need("out")?);
    if names.len() != 2 {
        fail!("a parallel_insert_slice at dynamic offsets");
    }
    let value = interp.tensor(env, src)?;
    let target = interp.tensor(env, out)?;
    let open = op.text.find('[').need("offsets")?;
    let lists = bracket_lists(&op.text[open..]);
    let numbers =
        |l: &str| -> Vec<i64> { split_top(l).iter().filter_map(|n| n.parse().ok()).collect() };
    let whole = lists.len() == 3
        && numbers(lists[0]).iter().all(|o| *o == 0)
        && numbers(lists[1]) == target.shape.to_vec()
        && numbers(lists[2]).iter().all(|s| *s == 1);
    if !whole || value.shape != target.shape {
        fail!("a parallel_insert_slice of part of a tensor");
    }
    Ok(((*out).to_owned(), Value::Tensor(value)))
}

/// The row-major offset of the indices `names` in `tensor`, checked in bounds: an index out
/// of them is [`RunError::OutOfBounds`], a wrong index in the kernel.
fn offset(interp: &Interp, env: &Env, tensor: &Tensor, names: &[&str]) -> Result<i64> {
    if names.len() != tensor.shape.len() {
        fail!(
            "{} indices into a tensor of rank {}",
            names.len(),
            tensor.shape.len()
        );
    }
    let mut off = 0;
    for (name, &size) in names.iter().zip(tensor.shape.iter()) {
        let index = interp.int(env, name)?;
        if !(0..size).contains(&index) {
            return Err(RunError::OutOfBounds { index, size });
        }
        off = off * size + index;
    }
    Ok(off)
}
