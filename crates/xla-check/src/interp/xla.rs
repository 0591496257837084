//! XLA's dialects: `xla.apply_indexing` (and ours, `xla_indexing.apply_indexing`), whose maps
//! the project's parser reads, and the tiled emitter's `xtile` ops on tiles of memrefs.

use std::rc::Rc;

use xla_indexing_core::IndexingMap;

use super::{
    Effect, Env, Interp, Need, Result, func,
    int::wrap,
    table::Handler,
    value::{Loc, Value},
};
use crate::{
    ir::{Op, bracket_lists, split_top},
    shape,
};

/// The ops of `xla`, `xla_indexing` and `xtile`.
pub const OPS: &[(&str, Handler)] = &[
    ("xla.apply_indexing", apply_indexing),
    ("xla_indexing.apply_indexing", apply_indexing),
    ("xtile.extract", extract),
    ("xtile.insert", insert),
    ("xtile.return", func::ret),
];

/// `xla.apply_indexing #map(%d0, %d1)[%s0]`: the map's results at its operands, at the
/// width of `index`.
fn apply_indexing(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let map = map(interp, op)?;
    let args = op
        .operands()
        .iter()
        .map(|n| interp.int(env, n))
        .collect::<Result<Vec<_>>>()?;
    let width = interp.index_width();
    Ok(Effect::Results(
        apply(&map, &args)?
            .into_iter()
            .map(|v| Value::Int(wrap(v, width)))
            .collect(),
    ))
}

/// The map an `apply_indexing` op applies, inline (`<"...">`) or through an alias; read once
/// per op.
fn map(interp: &mut Interp, op: &Op) -> Result<Rc<IndexingMap>> {
    if let Some(map) = interp.maps.get(&op.line) {
        return Ok(map.clone());
    }
    let text = op.text.split_whitespace().nth(1).need("no map")?;
    let text = if text.starts_with("#xla") {
        op.text.as_str()
    } else {
        let alias = text.split('(').next().unwrap_or(text);
        interp
            .module
            .aliases
            .get(alias)
            .need_with(|| format!("no alias {alias}"))?
    };
    let inner = text
        .split_once("<\"")
        .and_then(|(_, rest)| rest.split_once("\">"))
        .map(|(inner, _)| inner)
        .need("no map text")?;
    let map = Rc::new(IndexingMap::parse(inner)?);
    interp.maps.insert(op.line, map.clone());
    Ok(map)
}

/// The results of `map` at `values` (its dimensions, then its symbols); its domain is not
/// checked.
fn apply(map: &IndexingMap, values: &[i64]) -> Result<Vec<i64>> {
    let dims = map.dims().len();
    let variables = dims + map.num_symbols();
    if values.len() != variables {
        fail!("a map of {variables} variables applied to {}", values.len());
    }
    let (dims, symbols) = values.split_at(dims);
    map.evaluate(dims, symbols)
        .need_with(|| format!("{map} overflows at {values:?}"))
}

/// `xtile.extract %m[offsets] [sizes] [strides] : memref<..> -> tensor<..>`: the tile;
/// elements out of the memref are nothing (XLA masks them).
fn extract(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let operands = op.operands();
    let memref = operands.first().need("extract of nothing")?;
    let window = Window::of(interp, env, &op.text, memref)?;
    let ty = op.text.rsplit(" : ").next().unwrap_or("");
    let element = ty
        .split(" -> ")
        .next()
        .and_then(shape::shaped)
        .map(|(_, e)| e.to_owned())
        .need("extract from no memref type")?;
    let lanes = (0..shape::count(&window.sizes) as i64)
        .map(|at| match window.element(at) {
            Some(loc) => interp.load(loc, &element),
            None => Value::nothing(),
        })
        .collect();
    Ok(Value::vector(&window.sizes, lanes).into())
}

/// `xtile.insert %t into %m[offsets] [sizes] [strides] : tensor<..> -> memref<..>`: the
/// tile's elements inside the memref are stored.
fn insert(interp: &mut Interp, op: &Op, env: &mut Env) -> Result<Effect> {
    let names = op.operands();
    let [tile, memref, ..] = names[..] else {
        fail!("an insert of nothing");
    };
    let tile = interp.get(env, tile)?;
    let window = Window::of(interp, env, &op.text, memref)?;
    let element = op
        .text
        .rsplit(" -> ")
        .next()
        .and_then(shape::shaped)
        .map(|(_, e)| e.to_owned())
        .need("insert into no memref type")?;
    for at in 0..shape::count(&window.sizes) {
        if let Some(loc) = window.element(at as i64) {
            interp.store(loc, &element, tile.lane(at)?);
        }
    }
    Ok(Effect::none())
}

/// The elements of a memref an `xtile.extract`/`insert` reaches.
struct Window {
    buf: u32,
    /// The memref's shape.
    shape: Rc<[i64]>,
    offsets: Vec<i64>,
    sizes: Vec<i64>,
    strides: Vec<i64>,
}

impl Window {
    /// The window of `text` (`%m[%a, 0] [2, 4] [1, 1]`) into the memref operand `memref`.
    fn of(interp: &Interp, env: &Env, text: &str, memref: &str) -> Result<Window> {
        let at = text
            .find(&format!("{memref}["))
            .need("a tile without offsets")?
            + memref.len();
        let lists = bracket_lists(&text[at..]);
        let [offsets, sizes, strides] = lists[..] else {
            fail!("a tile without offsets, sizes and strides");
        };
        let numbers = |list: &str| -> Result<Vec<i64>> {
            split_top(list)
                .into_iter()
                .map(|item| interp.int_or_literal(env, item))
                .collect()
        };
        let Value::Memref { buf, shape } = interp.get(env, memref)? else {
            fail!("a tile of no memref");
        };
        let window = Window {
            buf,
            offsets: numbers(offsets)?,
            sizes: numbers(sizes)?,
            strides: numbers(strides)?,
            shape,
        };
        let rank = window.shape.len();
        if [&window.offsets, &window.sizes, &window.strides]
            .iter()
            .any(|l| l.len() != rank)
        {
            fail!("a tile of another rank than its memref");
        }
        Ok(window)
    }

    /// The memref element the tile's element at row-major position `at` is, if in bounds.
    fn element(&self, at: i64) -> Option<Loc> {
        let index = shape::unflat(at, &self.sizes);
        let at: Vec<i64> = (0..self.shape.len())
            .map(|k| self.offsets[k] + index[k] * self.strides[k])
            .collect();
        let inside = at
            .iter()
            .zip(self.shape.iter())
            .all(|(i, n)| (0..*n).contains(i));
        inside.then(|| (self.buf, shape::flat(&at, &self.shape)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{entry::OWN_BUFFERS, run};

    #[test]
    fn maps_applied_inline_and_through_aliases() {
        let text = "#indexing_map = #xla.indexing_map<\"(d0) -> ((d0 + 1) mod 2), domain: d0 in [1, 9]\">
module {
  func.func @f(%arg0: !llvm.ptr) attributes {xla.entry} {
    %c3 = arith.constant 3 : index
    %0 = xla.apply_indexing #indexing_map(%c3)
    %1 = xla.apply_indexing #xla.indexing_map<\"(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 3], s0 in [0, 3]\">(%0)[%c3]
    %2 = arith.index_castui %1 : index to i64
    %3 = llvm.getelementptr inbounds %arg0[0, %2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
    %cst = arith.constant 1.0 : f32
    llvm.store %cst, %3 : f32, !llvm.ptr
    return
  }
}";
        let writes = run(&crate::ir::parse(text).unwrap(), &[], 0)
            .unwrap()
            .writes;
        // (3 + 1) mod 2 = 0; 0 * 4 + 3 = 3.
        assert_eq!(
            writes.keys().copied().collect::<Vec<_>>(),
            vec![(OWN_BUFFERS, 3)]
        );
    }

    /// XLA's spelling (`/` and `%`, rounding down) and a unary minus on the operand after it,
    /// as the project's parser reads them.
    #[test]
    fn maps_in_xla_spelling() {
        let map = IndexingMap::parse(
            "(d0, d1)[s0] -> ((d0 - 1) / 2, (d0 - 1) mod 2, d1 ceildiv 4, -d0 % 3, min(d1, s0 * 2)), domain: d0 in [0, 9], d1 in [0, 6], s0 in [0, 3]",
        )
        .unwrap();
        assert_eq!(apply(&map, &[0, 5, 1]).unwrap(), vec![-1, 1, 2, 0, 2]);
        assert_eq!(apply(&map, &[4, 3, 3]).unwrap(), vec![1, 1, 1, 2, 3]);
        assert!(apply(&map, &[1, 2]).is_err());
        let named = IndexingMap::parse(
            "(pid, tid) -> (((pid * 30 + tid) mod 30) floordiv 15), domain: pid in [0, 1], tid in [0, 29]",
        )
        .unwrap();
        assert_eq!(apply(&named, &[0, 29]).unwrap(), vec![1]);
        assert_eq!(apply(&named, &[1, 14]).unwrap(), vec![0]);
    }
}
