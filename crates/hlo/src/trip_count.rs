//! The trip count of a `while` whose condition and body prove it, as XLA's `known_trip_count`
//! pattern gives it: an integer induction variable, a tuple element initialised from a
//! constant, compared with a constant in the condition (`LT`, `LE`, `GT`, `GE`, either side)
//! and stepped by a constant in the body (`add` or `subtract`). The scalars are read through
//! copies, converts and the fusions that wrap them after XLA's passes (`wrapped_compare`,
//! `wrapped_add`), and the initial state through the `call` that holds the loop.

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

/// The trip count of `instr`, an instruction of `comp`, when it is a `while` whose condition
/// and body prove it.
pub fn known_trip_count(
    module: &Module,
    comp: &Computation,
    instr: &Instruction,
) -> Option<TripCount> {
    if instr.opcode != Opcode::While {
        return None;
    }
    let called = |key| match instr.called(key) {
        [name] => module.computation(name).map(|c| &module.computations[c]),
        _ => None,
    };
    let (cond, body) = (called("condition")?, called("body")?);
    let scalars = Scalars { module };
    let (element, direction, limit) = condition(&scalars, cond)?;
    let start = match scalars.leaf(comp, *instr.operands.first()?, element, 0)? {
        Term::Constant(start) => start,
        _ => return None,
    };
    let step = step(&scalars, body, element)?;
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

/// An integer scalar as the loop's pattern sees it, through copies, converts and the
/// boundaries of the fusions and calls that compute it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Term {
    /// Element `k` of the loop's state (`get-tuple-element(parameter(0)), index=k` in the
    /// condition or body).
    State(i64),
    Constant(i64),
    /// `compare` with its direction, `add` or `subtract`, of two terms.
    Op(Opcode, Option<String>, Box<Term>, Box<Term>),
}

/// How deep [`Scalars`] follows producers and callee boundaries.
const DEPTH: usize = 16;

/// What a computation's parameters hold while [`Scalars`] reads it.
enum Params {
    /// The loop's condition or body: parameter 0 is the state.
    LoopState,
    /// A callee: the terms of its caller's operands (`None` where unknown); outside the loop,
    /// none.
    Args(Vec<Option<Term>>),
}

/// Reads integer scalars of a module as [`Term`]s.
struct Scalars<'m> {
    module: &'m Module,
}

impl Scalars<'_> {
    /// Instruction `i` of `comp`, whose parameters hold `params`.
    fn term(&self, comp: &Computation, i: usize, params: &Params, depth: usize) -> Option<Term> {
        let depth = depth.checked_sub(1)?;
        let instr = &comp.instructions[i];
        let scalar = instr
            .array()
            .is_some_and(|a| a.dims.is_empty() && (is_integer(&a.element) || a.element == "pred"));
        if !scalar {
            return None;
        }
        let operand = |k: usize| self.term(comp, *instr.operands.get(k)?, params, depth);
        match instr.opcode {
            Opcode::Constant => instr
                .literal
                .as_deref()?
                .trim()
                .parse()
                .ok()
                .map(Term::Constant),
            Opcode::Parameter => match params {
                Params::Args(args) => args.get(instr.parameter_number?)?.clone(),
                Params::LoopState => None,
            },
            Opcode::GetTupleElement => {
                let tuple = &comp.instructions[*instr.operands.first()?];
                (matches!(params, Params::LoopState) && tuple.parameter_number == Some(0))
                    .then(|| instr.int("index").map(Term::State))
                    .flatten()
            }
            Opcode::Copy | Opcode::Convert | Opcode::Bitcast => operand(0),
            Opcode::Compare | Opcode::Add | Opcode::Subtract => {
                let direction = match instr.attr("direction") {
                    Some(AttrValue::Raw(d)) => Some(d.clone()),
                    _ => None,
                };
                Some(Term::Op(
                    instr.opcode,
                    direction,
                    Box::new(operand(0)?),
                    Box::new(operand(1)?),
                ))
            }
            Opcode::Fusion | Opcode::Call => {
                let [name] = instr.called(if instr.opcode == Opcode::Fusion {
                    "calls"
                } else {
                    "to_apply"
                }) else {
                    return None;
                };
                let callee = &self.module.computations[self.module.computation(name)?];
                let args = (0..instr.operands.len()).map(operand).collect();
                self.term(callee, callee.root, &Params::Args(args), depth)
            }
            _ => None,
        }
    }

    /// Leaf `element` of the tuple that instruction `i` of `comp` gives, as a term: through
    /// `tuple`s, and through a computation's parameter to the operand of its one caller.
    fn leaf(&self, comp: &Computation, i: usize, element: i64, depth: usize) -> Option<Term> {
        if depth > DEPTH {
            return None;
        }
        let instr = &comp.instructions[i];
        match instr.opcode {
            Opcode::Tuple => {
                let operand = *instr.operands.get(usize::try_from(element).ok()?)?;
                self.term(comp, operand, &Params::Args(Vec::new()), DEPTH)
            }
            Opcode::Parameter => {
                let (caller_comp, caller) = self.one_caller(comp)?;
                let operand = *caller.operands.get(instr.parameter_number?)?;
                self.leaf(caller_comp, operand, element, depth + 1)
            }
            _ => None,
        }
    }

    /// The one `call` of `comp` in the module, with its computation.
    fn one_caller(&self, comp: &Computation) -> Option<(&Computation, &Instruction)> {
        let mut callers = self.module.computations.iter().flat_map(|c| {
            c.instructions
                .iter()
                .filter(|i| {
                    i.opcode == Opcode::Call && i.called("to_apply") == [comp.name.as_str()]
                })
                .map(move |i| (c, i))
        });
        let one = callers.next()?;
        callers.next().is_none().then_some(one)
    }
}

/// The condition's root as `element direction limit`: a compare of the state's element with a
/// constant, turned so that the element is on the left.
fn condition(scalars: &Scalars<'_>, cond: &Computation) -> Option<(i64, &'static str, i64)> {
    let Term::Op(Opcode::Compare, Some(direction), a, b) =
        scalars.term(cond, cond.root, &Params::LoopState, DEPTH)?
    else {
        return None;
    };
    let (element, limit, direction) = match (*a, *b) {
        (Term::State(e), Term::Constant(l)) => (e, l, direction.as_str()),
        (Term::Constant(l), Term::State(e)) => (e, l, mirrored(&direction)?),
        _ => return None,
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
fn step(scalars: &Scalars<'_>, body: &Computation, element: i64) -> Option<i64> {
    let root = &body.instructions[body.root];
    if root.opcode != Opcode::Tuple {
        return None;
    }
    let next = *root.operands.get(usize::try_from(element).ok()?)?;
    let Term::Op(op, _, a, b) = scalars.term(body, next, &Params::LoopState, DEPTH)? else {
        return None;
    };
    match (op, *a, *b) {
        (Opcode::Add, Term::State(e), Term::Constant(c))
        | (Opcode::Add, Term::Constant(c), Term::State(e))
            if e == element =>
        {
            Some(c)
        }
        (Opcode::Subtract, Term::State(e), Term::Constant(c)) if e == element => c.checked_neg(),
        _ => None,
    }
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
