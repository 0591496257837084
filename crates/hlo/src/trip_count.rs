//! The trip count of a `while` whose condition and body prove it, as XLA's `known_trip_count`
//! pattern gives it: an integer induction variable, a tuple element initialised from a
//! constant, compared with a constant in the condition (`LT`, `LE`, `GT`, `GE`, either side)
//! and stepped by a constant in the body (`add` or `subtract`).

use crate::opcode::Opcode;
use std::fmt;

use crate::attrs::AttrValue;
use crate::module::{Computation, Instruction, Module};

/// A loop whose iterations the module fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TripCount {
    /// The tuple element of the loop's state that counts.
    pub element: i64,
    /// Its initial value.
    pub start: i64,
    /// What the body adds to it each iteration.
    pub step: i64,
    /// The comparison that keeps the loop going, with the induction variable on the left
    /// (`LT`, `LE`, `GT` or `GE`).
    pub direction: &'static str,
    /// The constant it is compared with.
    pub limit: i64,
    /// How many times the body runs.
    pub iterations: i64,
}

impl fmt::Display for TripCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.direction {
            "LT" => "<",
            "LE" => "<=",
            "GT" => ">",
            _ => ">=",
        };
        write!(
            f,
            "{} iterations (state element {} from {} by {} while {op} {})",
            self.iterations, self.element, self.start, self.step, self.limit
        )
    }
}

/// The trip count of `instr`, a `while` of `comp`, when its condition and body prove one.
pub fn known_trip_count(
    module: &Module,
    comp: &Computation,
    instr: &Instruction,
) -> Option<TripCount> {
    let called = |key| match instr.called(key) {
        [name] => module.computation(name).map(|c| &module.computations[c]),
        _ => None,
    };
    let (cond, body) = (called("condition")?, called("body")?);
    let (element, direction, limit) = condition(cond)?;
    let init = &comp.instructions[*instr.operands.first()?];
    if init.opcode != Opcode::Tuple {
        return None;
    }
    let start = constant(comp, *init.operands.get(usize::try_from(element).ok()?)?)?;
    let step = step(body, element)?;
    let iterations = iterations(start, step, direction, limit)?;
    Some(TripCount {
        element,
        start,
        step,
        direction,
        limit,
        iterations,
    })
}

/// The condition's root as `element direction limit`: a compare of the state's element with a
/// constant, turned so that the element is on the left.
fn condition(cond: &Computation) -> Option<(i64, &'static str, i64)> {
    let root = &cond.instructions[cond.root];
    if root.opcode != Opcode::Compare {
        return None;
    }
    let [a, b] = root.operands[..] else {
        return None;
    };
    let direction = match root.attr("direction") {
        Some(AttrValue::Raw(d)) => d.as_str(),
        _ => return None,
    };
    let (element, limit, direction) = match (state_element(cond, a), constant(cond, b)) {
        (Some(e), Some(l)) => (e, l, direction),
        _ => (
            state_element(cond, b)?,
            constant(cond, a)?,
            mirrored(direction)?,
        ),
    };
    let direction = ["LT", "LE", "GT", "GE"]
        .into_iter()
        .find(|d| *d == direction)?;
    Some((element, direction, limit))
}

/// The comparison with its operands swapped.
fn mirrored(direction: &str) -> Option<&'static str> {
    Some(match direction {
        "LT" => "GT",
        "LE" => "GE",
        "GT" => "LT",
        "GE" => "LE",
        _ => return None,
    })
}

/// What the body's root adds to state element `element`: `add` of it and a constant (either
/// order), or `subtract` of a constant from it.
fn step(body: &Computation, element: i64) -> Option<i64> {
    let root = &body.instructions[body.root];
    if root.opcode != Opcode::Tuple {
        return None;
    }
    let next = &body.instructions[*root.operands.get(usize::try_from(element).ok()?)?];
    let [a, b] = next.operands[..] else {
        return None;
    };
    let is_counter = |i: usize| state_element(body, i) == Some(element);
    match next.opcode {
        Opcode::Add if is_counter(a) => constant(body, b),
        Opcode::Add if is_counter(b) => constant(body, a),
        Opcode::Subtract if is_counter(a) => constant(body, b)?.checked_neg(),
        _ => None,
    }
}

/// `Some(k)` when instruction `i` of `comp` is `get-tuple-element(parameter(0)), index=k`.
fn state_element(comp: &Computation, i: usize) -> Option<i64> {
    let gte = &comp.instructions[i];
    let [tuple] = gte.operands[..] else {
        return None;
    };
    (gte.opcode == Opcode::GetTupleElement && comp.instructions[tuple].parameter_number == Some(0))
        .then(|| gte.int("index"))
        .flatten()
}

/// The value of instruction `i` of `comp` when it is an integer scalar constant.
fn constant(comp: &Computation, i: usize) -> Option<i64> {
    let c = &comp.instructions[i];
    let shape = c.array()?;
    if c.opcode != Opcode::Constant || !shape.dims.is_empty() || !is_integer(&shape.element) {
        return None;
    }
    c.literal.as_deref()?.trim().parse().ok()
}

/// Whether an element type is an integer (the types XLA's pattern counts with).
fn is_integer(element: &str) -> bool {
    element.starts_with('s') || element.starts_with('u')
}

/// How many times `i = start; while (i direction limit) i += step` runs, when it ends.
fn iterations(start: i64, step: i64, direction: &str, limit: i64) -> Option<i64> {
    let (start, step, limit) = (i128::from(start), i128::from(step), i128::from(limit));
    // The distance to cover and the step towards it, both positive when the loop runs.
    let (distance, stride) = match direction {
        "LT" => (limit - start, step),
        "LE" => (limit - start + 1, step),
        "GT" => (start - limit, -step),
        "GE" => (start - limit + 1, -step),
        _ => return None,
    };
    if distance <= 0 {
        return Some(0);
    }
    if stride <= 0 {
        return None;
    }
    i64::try_from((distance + stride - 1) / stride).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_up_and_down() {
        assert_eq!(iterations(0, 1, "LT", 32), Some(32));
        assert_eq!(iterations(0, 2, "LT", 10), Some(5));
        assert_eq!(iterations(0, 3, "LE", 9), Some(4));
        assert_eq!(iterations(10, -1, "GT", 0), Some(10));
        assert_eq!(iterations(10, -4, "GE", 0), Some(3));
        assert_eq!(iterations(5, 1, "LT", 0), Some(0));
    }

    /// The trip count of the loop `w` of a module whose condition compares element 0 with
    /// `limit` (an instruction of the condition named `n`).
    fn loop_with_limit(limit: &str) -> Option<TripCount> {
        let text = format!(
            "cond {{\n  s = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  \
             {limit}\n  ROOT lt = pred[] compare(i, n), direction=LT\n}}\n\
             body {{\n  t = (s32[], s32[]) parameter(0)\n  j = s32[] get-tuple-element(t), index=0\n  \
             m = s32[] get-tuple-element(t), index=1\n  one = s32[] constant(1)\n  \
             next = s32[] add(one, j)\n  ROOT r = (s32[], s32[]) tuple(next, m)\n}}\n\
             ENTRY e {{\n  p = s32[] parameter(0)\n  zero = s32[] constant(0)\n  \
             init = (s32[], s32[]) tuple(zero, p)\n  \
             ROOT w = (s32[], s32[]) while(init), condition=cond, body=body\n}}\n"
        );
        let module = crate::parse_module(&text).unwrap();
        let entry = &module.computations[module.entry];
        known_trip_count(&module, entry, &entry.instructions[entry.root])
    }

    #[test]
    fn a_constant_limit_gives_the_count() {
        let trips = loop_with_limit("n = s32[] constant(32)").unwrap();
        assert_eq!(trips.iterations, 32);
        assert_eq!(
            trips.to_string(),
            "32 iterations (state element 0 from 0 by 1 while < 32)"
        );
    }

    #[test]
    fn a_limit_from_the_state_has_no_count() {
        assert_eq!(
            loop_with_limit("n = s32[] get-tuple-element(s), index=1"),
            None
        );
    }

    #[test]
    fn a_loop_that_never_ends_has_no_count() {
        assert_eq!(iterations(0, 0, "LT", 4), None);
        assert_eq!(iterations(0, -1, "LT", 4), None);
    }
}
