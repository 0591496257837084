//! A run of a kernel's entry function: its arguments (buffers, tile ids), what its inputs
//! hold, and what it writes.
//!
//! An integer read from an input is one of a fixed set ([`INTEGERS`]: zero, one, minus one,
//! negative and too-large values), chosen by its buffer and offset, the same on both sides; a
//! kernel that reads integers is run once per rotation of that set, so that every input
//! integer takes every value and the clamps of gathers and dynamic slices are exercised.

use std::{collections::BTreeMap, rc::Rc};

use super::{
    Interp, Need, Result, Value,
    int::{int_width, stored},
    value::{Loc, Tensor},
};
use crate::{
    ir::{Func, Module, split_shaped},
    shape,
};

/// The buffer number of the first argument without a slice of its own.
pub const OWN_BUFFERS: u32 = 1 << 16;

/// The integers inputs hold, in turn: zero, one and minus one, values past the ends of small
/// dimensions both ways, and values inside them, so that few elements already exercise the
/// clamps and wraps of gathers and dynamic slices.
pub const INTEGERS: [i64; 11] = [0, -1, 1, 17, -5, 2, 9, 100, 4, -30, 6];

/// The value an input element holds: a float is itself; an integer of `width` bits is one of
/// [`INTEGERS`], chosen by where it is and by the run's `rotation`.
pub fn initial(loc: Loc, element: &str, index_width: u32, rotation: usize) -> Value {
    match int_width(element, index_width) {
        Some(width) => {
            let at =
                (loc.1 + 3 * i64::from(loc.0) + rotation as i64).rem_euclid(INTEGERS.len() as i64);
            Value::Int(stored(INTEGERS[at as usize], width))
        }
        None => Value::Data(Rc::new(vec![loc])),
    }
}

/// What a run wrote: per output element, its value.
pub type Writes = BTreeMap<Loc, Value>;

/// What one run wrote, and whether it read an integer input.
pub struct Run {
    pub writes: Writes,
    pub read_integers: bool,
}

/// Runs the module's entry function once (workgroup ids 0; the tiled emitter's tile id over
/// its whole range), its buffers fresh with integer inputs rotated by `rotation`, and returns
/// what it writes. A buffer argument is the buffer of its `xla.slice_index`, or of the one
/// `slices` gives at its position; without either (or with a negative one), its own.
pub fn run(module: &Module, slices: &[Option<i64>], rotation: usize) -> Result<Run> {
    let func = entry(module)?;
    let (mut args, ranged) = arguments(func, module.index_width, slices)?;
    let mut interp = Interp::new(module, rotation);
    let results = match ranged {
        None => interp.call(func, args)?,
        Some(Ranged { arg, lo, hi }) => {
            let mut all = Vec::new();
            for id in lo..=hi {
                args[arg] = Value::Int(id);
                all.extend(interp.call(func, args.clone())?);
            }
            all
        }
    };
    let index_width = module.index_width;
    let mut writes: Writes = interp
        .memory
        .into_iter()
        .map(|(loc, value)| {
            let element = interp.elements.get(&loc.0).cloned().unwrap_or_default();
            (loc, value.normalized(&element, index_width))
        })
        .collect();
    for result in results {
        if let Value::Tensor(t) = result {
            t.check_latest()?;
            for (off, value) in &t.store.borrow().written {
                writes.insert(
                    (t.buf, *off),
                    value.clone().normalized(&t.element, index_width),
                );
            }
        }
    }
    Ok(Run {
        writes,
        read_integers: interp.read_integers,
    })
}

/// The argument run over its whole range (the tiled emitter's tile id): its position and
/// bounds.
struct Ranged {
    arg: usize,
    lo: i64,
    hi: i64,
}

/// The arguments `func` is first called with, and the one run over its range, if any.
fn arguments(
    func: &Func,
    index_width: u32,
    slices: &[Option<i64>],
) -> Result<(Vec<Value>, Option<Ranged>)> {
    let is_buffer =
        |ty: &str| ty == "!llvm.ptr" || ty.starts_with("tensor<") || ty.starts_with("memref<");
    let buffer_args = func.args.iter().filter(|(_, ty)| is_buffer(ty)).count();
    let slices = buffer_slices(slices, buffer_args);
    let mut args = Vec::new();
    let mut b = 0;
    let mut ranged = None;
    for (k, (name, ty)) in func.args.iter().enumerate() {
        let slice = func.slices[k].or_else(|| slices.get(b).copied().flatten());
        b += usize::from(is_buffer(ty));
        // Slices first, then the arguments without one, by position.
        let buf = match slice {
            Some(s) if s >= 0 => u32::try_from(s).ok(),
            _ => u32::try_from(k).ok().map(|k| OWN_BUFFERS + k),
        }
        .need_with(|| format!("argument {name}: no buffer number"))?;
        let value = if ty == "!llvm.ptr" {
            Value::Ptr { buf, off: 0 }
        } else if let Some(rest) = ty.strip_prefix("tensor<") {
            let (shape, element) = tensor_type(rest)?;
            Value::Tensor(Tensor {
                buf,
                shape: shape.into(),
                element: element.into(),
                store: Rc::default(),
                version: 0,
            })
        } else if ty.starts_with("memref<") {
            let (shape, _) =
                shape::shaped(ty).need_with(|| format!("argument {name} of type {ty}"))?;
            Value::Memref {
                buf,
                shape: shape.into(),
            }
        } else if int_width(ty, index_width).is_some() {
            if let Some((lo, hi)) = func.ranges[k].filter(|(lo, hi)| hi > lo)
                && ranged.replace(Ranged { arg: k, lo, hi }).is_some()
            {
                fail!("several arguments with ranges");
            }
            Value::Int(func.ranges[k].map_or(0, |(lo, _)| lo))
        } else {
            fail!("argument {name} of type {ty}");
        };
        args.push(value);
    }
    Ok((args, ranged))
}

/// The slices of a function's `count` buffer arguments, from the emitted kernel's `slices`:
/// the same when there are as many; else XLA has merged the arguments of one slice
/// (`xla-merge-pointers`), keeping the first of each.
fn buffer_slices(slices: &[Option<i64>], count: usize) -> Vec<Option<i64>> {
    if slices.len() == count {
        return slices.to_vec();
    }
    let mut kept: Vec<Option<i64>> = Vec::new();
    for slice in slices {
        let seen = matches!(slice, Some(s) if *s >= 0) && kept.contains(slice);
        if !seen {
            kept.push(*slice);
        }
    }
    kept
}

/// The kernel's entry: the function marked `xla.entry`.
pub fn entry(module: &Module) -> Result<&Func> {
    let mut entries = module.funcs.iter().filter(|f| f.entry);
    let func = entries.next().need("no function is marked xla.entry")?;
    if entries.next().is_some() {
        fail!("several functions are marked xla.entry");
    }
    Ok(func)
}

/// `AxBxf32>...` (after `tensor<`) as the shape and the element type.
fn tensor_type(rest: &str) -> Result<(Vec<i64>, String)> {
    let body = rest.split(['>', ',']).next().unwrap_or(rest);
    if rest[body.len()..].starts_with(',') {
        fail!("a tensor with an encoding (a layout): tensor<{rest}");
    }
    let (dims, element) = split_shaped(body);
    let shape = dims
        .iter()
        .map(|d| d.parse().ok())
        .collect::<Option<Vec<i64>>>()
        .need_with(|| format!("dynamic tensor<{rest}"))?;
    Ok((shape, element.trim().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_types() {
        assert_eq!(
            tensor_type("5x7xindex>").unwrap(),
            (vec![5, 7], "index".to_owned())
        );
        assert_eq!(tensor_type("f32>").unwrap(), (vec![], "f32".to_owned()));
        assert!(tensor_type("4x2xf32, dense<[1, 0]>>").is_err());
    }

    /// An in-place kernel whose two arguments of slice 0 XLA has merged into one pointer.
    #[test]
    fn merged_arguments_keep_the_first_of_each_slice() {
        assert_eq!(
            buffer_slices(&[Some(0), Some(0), Some(1)], 2),
            vec![Some(0), Some(1)]
        );
        assert_eq!(
            buffer_slices(&[Some(-1), Some(-1)], 1),
            vec![Some(-1), Some(-1)]
        );
    }
}
