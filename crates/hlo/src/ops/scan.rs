//! `scan(inputs..., inits...)`: a loop along `dimensions={d}` (backwards with `is_reverse=true`)
//! whose body takes each input's element at the step and the carries, and gives the outputs'
//! elements at the step and the next carries: `(outputs..., carries...) = body(inputs...,
//! carries...)`. The result is the outputs (arrays along the scan) and the final carries.
//!
//! An output element at step `i` reads the inputs the body reads at step `i`, and through the
//! carries the inputs earlier steps read: at distance `t` (step `i - 1 - t`), those that the
//! carries reached after `t` applications of the body read, and at the first step the inits
//! reached. The carries reached after `t` applications form a sequence of sets that settles or
//! cycles; each input's distances form intervals, one map each, with a range variable for the
//! step read and a constraint on its distance from the output's step:
//!
//! ```text
//! s = (f32[6], f32[]) scan(f32[6] x, f32[] init), dimensions={0}, num_carries=1, to_apply=add
//! output 0 -> x:    (d0)[s0] -> (s0), domain: d0 in [0, 5], s0 in [0, 5], d0 - s0 in [0, 5]
//! output 0 -> init: (d0) -> (), domain: d0 in [0, 5]
//! output 1 -> x:    ()[s0] -> (s0), domain: s0 in [0, 5], -s0 + 5 in [0, 5]
//! ```
//!
//! Maps are given for bodies of scalars (inputs of rank 1); larger bodies and distance patterns
//! of more than [`MAX_PIECES`] intervals have none.

use std::collections::BTreeSet;

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};

use super::{OpContext, OperandAccess, Outcome};
use crate::access::Access;
use crate::attrs::AttrValue;
use crate::error::HloError;

/// The most intervals of distances one (output, operand) pair may need.
const MAX_PIECES: usize = 8;

/// A scan's shape, checked, and what each result of one body application reads.
struct Scan {
    /// Inputs, carries and array outputs.
    inputs: usize,
    carries: usize,
    outputs: usize,
    /// Steps.
    len: i64,
    reverse: bool,
    /// Per body result: the inputs and the carries it reads.
    reads_input: Vec<BTreeSet<usize>>,
    reads_carry: Vec<BTreeSet<usize>>,
}

fn scan(cx: &OpContext<'_>) -> Result<Outcome<Scan>, HloError> {
    let carries = usize::try_from(cx.instr.int("num_carries").unwrap_or(0))
        .ok()
        .filter(|&c| c <= cx.instr.operands.len())
        .ok_or_else(|| cx.error("num_carries is out of range"))?;
    let inputs = cx.instr.operands.len() - carries;
    let reverse = match cx.instr.attr("is_reverse") {
        None => false,
        Some(AttrValue::Raw(v)) if v == "false" => false,
        Some(AttrValue::Raw(v)) if v == "true" => true,
        Some(_) => return Err(cx.error("is_reverse must be true or false")),
    };
    let leaves = cx.instr.shape.leaves();
    if leaves.len() < carries {
        return Err(cx.error(format!("{} results for {carries} carries", leaves.len())));
    }
    let outputs = leaves.len() - carries;
    let dims = cx.instr.ints("dimensions").unwrap_or(&[]);
    let mut len = None;
    for j in 0..inputs {
        let shape = cx.operand_array(j)?;
        if shape.rank() != 1 {
            return Ok(Outcome::NotDefined(
                "scan over inputs of rank other than 1 has no maps yet".into(),
            ));
        }
        if *len.get_or_insert(shape.dims[0]) != shape.dims[0] {
            return Err(cx.error("the inputs differ in length"));
        }
    }
    for (k, leaf) in leaves.iter().enumerate() {
        let want_rank = if k < outputs { 1 } else { 0 };
        if leaf.rank() != want_rank {
            return Ok(Outcome::NotDefined(
                "scan with outputs of rank other than 1 or carries other than scalars has no maps yet"
                    .into(),
            ));
        }
        if k < outputs && *len.get_or_insert(leaf.dims[0]) != leaf.dims[0] {
            return Err(cx.error("the outputs and inputs differ in length"));
        }
    }
    for j in inputs..inputs + carries {
        if cx.operand_array(j)?.rank() != 0 {
            return Ok(Outcome::NotDefined(
                "scan with carries other than scalars has no maps yet".into(),
            ));
        }
    }
    let Some(len) = len else {
        return Err(cx.error("a scan needs an input or an output to scan along"));
    };
    if dims != [0] {
        return Err(cx.error("a scan over rank-1 arrays needs dimensions={0}"));
    }
    let (comp, deps) = cx.applied(
        "body",
        inputs + carries,
        &format!(" for {inputs} inputs and {carries} carries"),
    )?;
    if deps.len() != outputs + carries {
        return Err(cx.error(format!(
            "the body {} gives {} values for {outputs} outputs and {carries} carries",
            comp.name,
            deps.len()
        )));
    }
    let split = |pick_input: bool| -> Vec<BTreeSet<usize>> {
        deps.iter()
            .map(|d| {
                d.iter()
                    .filter_map(|&(p, _)| match (p < inputs, pick_input) {
                        (true, true) => Some(p),
                        (false, false) => Some(p - inputs),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    Ok(Outcome::Defined(Scan {
        inputs,
        carries,
        outputs,
        len,
        reverse,
        reads_input: split(true),
        reads_carry: split(false),
    }))
}

/// What one result of the scan reads, by distance: `inputs[p]` the distances `t` at which it
/// reads input `p` (`-1` the output's own step, `t >= 0` the step `t + 1` before it), `inits[c]`
/// the distances `u` from the first step at which the chain reaches init `c`.
struct Reach {
    inputs: Vec<Vec<Interval>>,
    inits: Vec<Vec<Interval>>,
}

/// Adds distance `t` to a list of intervals built in increasing order (`t` no less than the
/// last one added).
fn extend(pieces: &mut Vec<Interval>, t: i64) {
    match pieces.last_mut() {
        Some(last) if t <= last.hi => {}
        Some(last) if last.hi + 1 == t => last.hi = t,
        _ => pieces.push(Interval::new(t, t)),
    }
}

/// The distances at which the chain from body result `start` reads each input and init, over
/// `len` steps; `None` when a pair needs more than [`MAX_PIECES`] intervals.
fn reach(s: &Scan, start: usize) -> Option<Reach> {
    let mut inputs = vec![Vec::new(); s.inputs];
    let mut inits = vec![Vec::new(); s.carries];
    for &p in &s.reads_input[start] {
        extend(&mut inputs[p], -1);
    }
    // `carries`: the carries entering the step `t` steps before the output's that the chain
    // reads (the inits when that step is the first); once it repeats its previous value, it
    // stays.
    let mut carries = s.reads_carry[start].clone();
    let mut t = 0i64;
    while t < s.len {
        for &c in &carries {
            extend(&mut inits[c], t);
        }
        let results: Vec<usize> = carries.iter().map(|&c| s.outputs + c).collect();
        let mut next = BTreeSet::new();
        for &r in &results {
            if t + 1 < s.len {
                for &p in &s.reads_input[r] {
                    extend(&mut inputs[p], t);
                }
            }
            next.extend(s.reads_carry[r].iter().copied());
        }
        if next == carries {
            // Settled: every later distance reads the same.
            let last = s.len - 1;
            for &c in &carries {
                if let Some(piece) = inits[c].last_mut() {
                    piece.hi = last;
                }
            }
            for r in results {
                for &p in &s.reads_input[r] {
                    if let Some(piece) = inputs[p].last_mut().filter(|_| t + 1 < s.len) {
                        piece.hi = last - 1;
                    }
                }
            }
            break;
        }
        carries = next;
        t += 1;
        if inputs.iter().chain(&inits).any(|v| v.len() > MAX_PIECES) {
            return None;
        }
    }
    Some(Reach { inputs, inits })
}

/// The map from a scalar to a scalar.
fn scalar() -> IndexingMap {
    IndexingMap::new(Vec::new(), Vec::new(), Vec::new(), Vec::new())
}

/// `scan`, result leaf `leaf` to the inputs and inits it reads.
pub fn output_to_input(
    cx: &OpContext<'_>,
    leaf: usize,
) -> Result<Outcome<Vec<OperandAccess>>, HloError> {
    let s = match scan(cx)? {
        Outcome::Defined(s) => s,
        Outcome::NotDefined(why) => return Ok(Outcome::NotDefined(why)),
    };
    let n = s.len;
    let is_array = leaf < s.outputs;
    let mut out = Vec::new();
    let mut push = |operand: usize, map: IndexingMap| {
        out.push(OperandAccess {
            operand,
            leaf: 0,
            access: Access::plain(map),
        });
    };
    if n == 0 {
        // No steps: a final carry is its init; the outputs are empty.
        if !is_array {
            let c = leaf - s.outputs;
            push(s.inputs + c, scalar());
        }
        return Ok(Outcome::Defined(out));
    }
    let Some(r) = reach(&s, leaf) else {
        return Ok(Outcome::NotDefined(format!(
            "scan whose carries reach the inputs in more than {MAX_PIECES} intervals of steps"
        )));
    };
    let dims = if is_array {
        Var::from_sizes(&[n])
    } else {
        Vec::new()
    };
    // The output's step: `d0`, or the last step for a final carry.
    let step = if is_array {
        Expr::dim(0)
    } else {
        Expr::constant(if s.reverse { 0 } else { n - 1 })
    };
    for (p, pieces) in r.inputs.iter().enumerate() {
        for piece in pieces {
            // Step read = step -/+ (t + 1) for t in the piece.
            let read = Expr::sym(0);
            let distance = if s.reverse {
                read.clone() - step.clone()
            } else {
                step.clone() - read.clone()
            };
            let mut map =
                IndexingMap::new(vec![read], dims.clone(), Var::from_sizes(&[n]), Vec::new());
            map.add_constraint(distance, Interval::new(piece.lo + 1, piece.hi + 1));
            push(p, map);
        }
    }
    for (c, pieces) in r.inits.iter().enumerate() {
        for piece in pieces {
            let map = if is_array {
                // The output steps whose chain reaches the first step at a distance in the
                // piece: `d0`, or `n - 1 - d0` backwards.
                let steps = if s.reverse {
                    Interval::new(n - 1 - piece.hi, n - 1 - piece.lo)
                } else {
                    *piece
                };
                IndexingMap::new(Vec::new(), vec![Var::new(steps)], Vec::new(), Vec::new())
            } else if piece.contains(n - 1) {
                scalar()
            } else {
                continue;
            };
            push(s.inputs + c, map);
        }
    }
    Ok(Outcome::Defined(out))
}
