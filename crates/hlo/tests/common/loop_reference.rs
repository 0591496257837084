//! A brute-force reference for index dependences through `while` loops: the loop is run,
//! iteration by iteration, on index-tagged values that also carry each integer element's
//! value where it is known (constants, the counter, and what integer arithmetic, compares and
//! selects make of them), so that a `dynamic-slice` or `dynamic-update-slice` at the counter
//! reads and writes the one place XLA's clamping gives in that iteration. Every other op's
//! dependences are those of `reference::deps`; the condition's value decides when the loop
//! stops. Independent of the indexing maps.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

use super::reference::{Index, all_indices, deps};
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::module::{Computation, Instruction, Module};

/// One element: the `(parameter, leaf, index)` elements it depends on, and its integer value
/// when it is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Element {
    pub tags: BTreeSet<(usize, usize, Index)>,
    pub value: Option<i128>,
}

/// The elements of one array, by index.
pub type Leaf = HashMap<Index, Element>;

/// A value: its leaves (one for an array).
pub type Value = Vec<Leaf>;

/// The most iterations one loop may run here.
const MAX_TRIPS: usize = 10_000;

/// A value of `dims` whose every element carries only its own tag `(parameter, leaf, index)`.
pub fn tagged(parameter: usize, leaf: usize, dims: &[i64]) -> Leaf {
    all_indices(dims)
        .into_iter()
        .map(|idx| {
            let tags = BTreeSet::from([(parameter, leaf, idx.clone())]);
            (idx, Element { tags, value: None })
        })
        .collect()
}

/// Evaluates computation `c` on `params` (one value per parameter) and returns its root.
pub fn evaluate(m: &Module, c: usize, params: &[Value]) -> Value {
    let comp = &m.computations[c];
    let mut values: Vec<Option<Value>> = vec![None; comp.instructions.len()];
    for &i in &comp.post_order {
        let instr = &comp.instructions[i];
        let operands: Vec<&Value> = instr
            .operands
            .iter()
            .map(|&o| values[o].as_ref().expect("operand evaluated first"))
            .collect();
        values[i] = Some(instruction(m, comp, instr, &operands, params));
    }
    values[comp.root].take().unwrap()
}

/// Evaluates one instruction of `comp` on its operands' values (`params`: the computation's
/// parameters).
pub fn instruction(
    m: &Module,
    comp: &Computation,
    instr: &Instruction,
    operands: &[&Value],
    params: &[Value],
) -> Value {
    let callee = |key: &str| m.computation(&instr.called(key)[0]).unwrap();
    let owned = || {
        operands
            .iter()
            .map(|v| (*v).clone())
            .collect::<Vec<Value>>()
    };
    match instr.opcode {
        Opcode::Parameter => params[instr.parameter_number.unwrap()].clone(),
        Opcode::Tuple => operands.iter().flat_map(|v| v.iter().cloned()).collect(),
        Opcode::GetTupleElement => {
            let index = instr.int("index").unwrap() as usize;
            let shape = &comp.instructions[instr.operands[0]].shape;
            operands[0][shape.element_leaves(index).unwrap()].to_vec()
        }
        Opcode::Fusion => evaluate(m, callee("calls"), &owned()),
        Opcode::Call => evaluate(m, callee("to_apply"), &owned()),
        Opcode::While => {
            let (cond, body) = (callee("condition"), callee("body"));
            let mut state = operands[0].clone();
            for _ in 0..MAX_TRIPS {
                let go = evaluate(m, cond, std::slice::from_ref(&state));
                match go[0][&Vec::new()].value {
                    Some(0) => return state,
                    Some(_) => state = evaluate(m, body, &[state]),
                    None => panic!("{}: the condition's value is not known", instr.name),
                }
            }
            panic!("{}: more than {MAX_TRIPS} iterations", instr.name)
        }
        Opcode::DynamicSlice | Opcode::DynamicUpdateSlice => {
            dynamic(comp, instr, operands).unwrap_or_else(|| generic(m, comp, instr, operands))
        }
        _ => generic(m, comp, instr, operands),
    }
}

/// An op's elements from `reference::deps`, with the integer value of what arithmetic,
/// compares, selects and element moves make of known values.
fn generic(m: &Module, comp: &Computation, instr: &Instruction, operands: &[&Value]) -> Value {
    let mut out = Value::new();
    for (leaf, shape) in instr.shape.leaves().iter().enumerate() {
        let mut elements = Leaf::new();
        for idx in all_indices(&shape.dims) {
            let mut element = Element {
                value: constant_value(instr),
                ..Element::default()
            };
            let sources: Vec<&Element> = deps(m, comp, instr, leaf, &idx)
                .into_iter()
                .filter_map(|(j, l, src)| operands[j][l].get(&src))
                .collect();
            for s in &sources {
                element.tags.extend(s.tags.iter().cloned());
            }
            if element.value.is_none() {
                element.value = computed(instr, &sources);
            }
            elements.insert(idx, element);
        }
        out.push(elements);
    }
    out
}

/// The value of a scalar integer constant.
fn constant_value(instr: &Instruction) -> Option<i128> {
    (instr.opcode == Opcode::Constant)
        .then(|| instr.literal.as_deref()?.trim().parse().ok())
        .flatten()
}

/// The value an op computes from its sources' values (in operand order), where it is integer
/// arithmetic, a compare, a select or a move of one element.
fn computed(instr: &Instruction, sources: &[&Element]) -> Option<i128> {
    let v: Vec<i128> = sources.iter().map(|s| s.value).collect::<Option<_>>()?;
    Some(match (instr.opcode, v.as_slice()) {
        (Opcode::Add, [a, b]) => a + b,
        (Opcode::Subtract, [a, b]) => a - b,
        (Opcode::Multiply, [a, b]) => a * b,
        (Opcode::Maximum, [a, b]) => *a.max(b),
        (Opcode::Minimum, [a, b]) => *a.min(b),
        (Opcode::Select, [p, t, f]) => {
            if *p != 0 {
                *t
            } else {
                *f
            }
        }
        (Opcode::Compare, [a, b]) => {
            let direction = match instr.attr("direction") {
                Some(xla_indexing_hlo::attrs::AttrValue::Raw(d)) => d.as_str(),
                _ => return None,
            };
            i128::from(match direction {
                "LT" => a < b,
                "LE" => a <= b,
                "GT" => a > b,
                "GE" => a >= b,
                "EQ" => a == b,
                "NE" => a != b,
                _ => return None,
            })
        }
        (
            Opcode::Copy
            | Opcode::Convert
            | Opcode::Bitcast
            | Opcode::Reshape
            | Opcode::Broadcast
            | Opcode::Transpose
            | Opcode::Slice,
            [x],
        ) => *x,
        _ => return None,
    })
}

/// A `dynamic-slice` or `dynamic-update-slice` whose offsets are known: each start clamped as
/// XLA clamps it (into `[0, n - size]`); `None` when an offset is not known.
fn dynamic(comp: &Computation, instr: &Instruction, operands: &[&Value]) -> Option<Value> {
    let update = instr.opcode == Opcode::DynamicUpdateSlice;
    let first_offset = if update { 2 } else { 1 };
    let dims = &comp.instructions[instr.operands[0]].array()?.dims;
    let sizes: Vec<i64> = if update {
        comp.instructions[instr.operands[1]].array()?.dims.clone()
    } else {
        instr.ints("dynamic_slice_sizes")?.to_vec()
    };
    let mut starts = Vec::new();
    for (k, (&n, &size)) in dims.iter().zip(&sizes).enumerate() {
        let offset = operands[first_offset + k][0][&Vec::new()].value?;
        starts.push(offset.clamp(0, i128::from(n - size)) as i64);
    }
    let offsets: BTreeSet<(usize, usize, Index)> = (first_offset..operands.len())
        .flat_map(|j| operands[j][0][&Vec::new()].tags.iter().cloned())
        .collect();
    let shape = instr.array()?;
    let mut out = Leaf::new();
    for idx in all_indices(&shape.dims) {
        let mut element = if update {
            // XLA's convention (the maps' too): the operand is read everywhere.
            let mut e = operands[0][0][&idx].clone();
            let inside: Option<Index> = idx
                .iter()
                .zip(&starts)
                .zip(&sizes)
                .map(|((&i, &s), &size)| (s..s + size).contains(&i).then_some(i - s))
                .collect();
            if let Some(at) = inside {
                let u = &operands[1][0][&at];
                e.tags.extend(u.tags.iter().cloned());
                e.value = u.value;
            }
            e
        } else {
            let at: Index = idx.iter().zip(&starts).map(|(i, s)| i + s).collect();
            operands[0][0][&at].clone()
        };
        element.tags.extend(offsets.iter().cloned());
        out.insert(idx, element);
    }
    Some(vec![out])
}
