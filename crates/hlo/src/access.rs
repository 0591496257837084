//! An indexing map together with the provenance of its runtime variables, and its composition.

use xla_indexing_core::{ComposeError, IndexingMap};

/// Where a runtime variable's value comes from: an element of an instruction's result, chosen by
/// `map` from the dimensions of the indexing map that uses the variable (the seed's `(d0, d1) ->
/// (d0, 0)` access pattern).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeVar {
    pub instruction: String,
    pub map: IndexingMap,
    /// What the op does with a value outside the variable's bounds.
    pub out_of_range: OutOfRange,
}

/// What an op does with an offset or index outside the bounds of its runtime variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutOfRange {
    /// Clamps it into the bounds (dynamic-slice, dynamic-update-slice, gather).
    Clamped,
    /// Drops the element it would have touched (scatter's windows out of bounds).
    Dropped,
}

/// An indexing map and one [`RuntimeVar`] per runtime variable of the map, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub map: IndexingMap,
    pub runtime: Vec<RuntimeVar>,
}

impl Access {
    /// A map without runtime variables.
    pub fn plain(map: IndexingMap) -> Access {
        Access {
            map,
            runtime: Vec::new(),
        }
    }

    /// `second ∘ self`: `self` maps A to B, `second` maps B to C; the result maps A to C. The
    /// runtime variables of `second` are re-expressed over A. The result is simplified and keeps
    /// only the symbols it uses.
    pub fn then(&self, second: &Access) -> Result<Access, ComposeError> {
        let map = self.map.compose(&second.map)?;
        let mut runtime = self.runtime.clone();
        for rt in &second.runtime {
            let mut m = self.map.compose(&rt.map)?;
            m.simplify();
            m.remove_unused_symbols();
            runtime.push(RuntimeVar {
                instruction: rt.instruction.clone(),
                map: m,
                out_of_range: rt.out_of_range,
            });
        }
        let mut out = Access { map, runtime };
        out.simplify();
        Ok(out)
    }

    /// Simplifies the map and drops unused symbols, keeping the runtime list in step.
    pub fn simplify(&mut self) {
        self.map.simplify();
        let num_range = self.map.range_vars().len();
        let removed = self.map.remove_unused_symbols();
        if removed.len() > num_range {
            let mut flags = removed[num_range..].iter();
            self.runtime
                .retain(|_| !flags.next().copied().unwrap_or(false));
        }
    }
}
