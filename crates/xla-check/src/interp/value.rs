//! The interpreter's values and how float data combines.
//!
//! Integers are exact. A float is not computed: it is the set of input elements it depends
//! on, so that a stored value says which elements feed it whatever float ops combine them.

use std::{cell::RefCell, collections::BTreeMap, rc::Rc};

use super::{
    Need, Result,
    int::{int_width, stored},
};
use crate::shape;

/// An input element: its buffer (argument number among the buffers) and its offset.
pub type Loc = (u32, i64);

/// A value in the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer or `index`, sign-extended from its width.
    Int(i64),
    /// Float data (or anything computed from it): the input elements it depends on, sorted.
    Data(Rc<Vec<Loc>>),
    /// A pointer into buffer `buf` at element `off`.
    Ptr { buf: u32, off: i64 },
    /// A tensor of ours.
    Tensor(Tensor),
    /// A vector (XLA's tiled code) or a tile (ours, a small tensor the tiled emitter computes
    /// on): its shape and its elements, row-major.
    Vector {
        shape: Rc<[i64]>,
        elems: Rc<Vec<Value>>,
    },
    /// A memref argument (the tiled emitter's buffers): its buffer and its shape (row-major).
    Memref { buf: u32, shape: Rc<[i64]> },
}

impl Value {
    /// A vector of `shape` holding `elems`.
    pub fn vector(shape: &[i64], elems: Vec<Value>) -> Value {
        Value::Vector {
            shape: shape.into(),
            elems: Rc::new(elems),
        }
    }

    /// Nothing: what an out-of-bounds or poison lane holds.
    pub fn nothing() -> Value {
        Value::Data(Rc::new(Vec::new()))
    }

    /// Lane `k` of a vector; a scalar is the same in every lane.
    pub fn lane(&self, k: usize) -> Result<Value> {
        match self {
            Value::Vector { elems, .. } => elems
                .get(k)
                .cloned()
                .need_with(|| format!("lane {k} of a vector of {}", elems.len())),
            other => Ok(other.clone()),
        }
    }

    /// The shape of the first vector among `values`, if any.
    pub fn vector_shape(values: &[Value]) -> Option<Rc<[i64]>> {
        values.iter().find_map(|v| match v {
            Value::Vector { shape, .. } => Some(shape.clone()),
            _ => None,
        })
    }

    /// The value as memory of `element` holds it: an integer zero-extended from its width
    /// (so that `i1` true is 1 in a tensor of `i1` and in a buffer of `i8` alike).
    pub fn normalized(self, element: &str, index_width: u32) -> Value {
        match (self, int_width(element, index_width)) {
            (Value::Int(v), Some(width)) => Value::Int(stored(v, width)),
            (value, _) => value,
        }
    }
}

/// A vector's or tile's shape and elements.
pub type Tile = (Rc<[i64]>, Rc<Vec<Value>>);

/// A tensor value of ours: one version of the tensor that began as buffer `buf`. Inserting
/// into the latest version updates the one store in place and makes a new version; using an
/// older version after that stops the run (unchecked), so that kernels that insert into a
/// tensor of N elements N times run in linear time.
#[derive(Clone, Debug)]
pub struct Tensor {
    pub buf: u32,
    pub shape: Rc<[i64]>,
    pub element: Rc<str>,
    pub store: Rc<RefCell<Store>>,
    pub version: u64,
}

/// What has been inserted into a tensor, and its latest version.
#[derive(Debug, Default)]
pub struct Store {
    pub written: BTreeMap<i64, Value>,
    pub version: u64,
}

impl PartialEq for Tensor {
    fn eq(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.store, &other.store) && self.version == other.version
    }
}

impl Tensor {
    /// Fails unless this is the tensor's latest version.
    pub fn check_latest(&self) -> Result<()> {
        if self.store.borrow().version != self.version {
            fail!("a tensor is used after a later insert into it");
        }
        Ok(())
    }
}

/// The union of the inputs the data among `values` depends on; integers add nothing.
pub fn union<'a>(values: impl IntoIterator<Item = &'a Value>) -> Result<Value> {
    let mut deps: Vec<Loc> = Vec::new();
    for value in values {
        match value {
            Value::Int(_) => {}
            Value::Data(d) => deps.extend(d.iter().copied()),
            other => fail!("data computed from {other:?}"),
        }
    }
    deps.sort_unstable();
    deps.dedup();
    Ok(Value::Data(Rc::new(deps)))
}

/// The union of `args` lane by lane when one is a vector (a vector of the unions), else
/// [`union`].
pub fn lanewise_union(args: &[Value]) -> Result<Value> {
    let Some(shape) = Value::vector_shape(args) else {
        return union(args);
    };
    let lanes = (0..shape::count(&shape))
        .map(|k| union(&args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?))
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::vector(&shape, lanes))
}

/// A select whose condition or operands are data: the chosen operand when the condition is
/// known, else what all three depend on.
pub fn select(args: &[Value]) -> Result<Value> {
    match args {
        [Value::Int(c), a, b] => Ok(if *c != 0 { a.clone() } else { b.clone() }),
        _ => union(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_flows_through_float_ops_and_selects() {
        let a = Value::Data(Rc::new(vec![(0, 1)]));
        let b = Value::Data(Rc::new(vec![(1, 0), (0, 1)]));
        assert_eq!(
            union([&a, &b, &Value::Int(3)]).unwrap(),
            Value::Data(Rc::new(vec![(0, 1), (1, 0)]))
        );
        assert_eq!(select(&[Value::Int(0), a.clone(), b.clone()]).unwrap(), b);
        let cond = Value::Data(Rc::new(vec![(2, 2)]));
        assert_eq!(
            select(&[cond, a, Value::Int(1)]).unwrap(),
            Value::Data(Rc::new(vec![(0, 1), (2, 2)]))
        );
    }
}
