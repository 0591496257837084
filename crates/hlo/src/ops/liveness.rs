//! Which parameters a computation's results depend on. A `sort` reads the operands whose
//! parameters its comparator reads; a variadic `scatter` mixes the operands its combiner mixes.
//!
//! Each result leaf of an instruction depends on every leaf of every operand, except where the
//! structure says more: a `tuple` leaf is one operand's leaf, a `get-tuple-element` leaf one
//! leaf of its operand, and a `fusion` or `call` passes on what its computation's root depends
//! on (found the same way).

use crate::opcode::Opcode;
use std::collections::{BTreeSet, HashMap};

use crate::module::{Computation, Module};
use crate::ops::{OpKind, instruction_kind};

/// A parameter leaf: `(parameter number, leaf)`.
pub type ParamLeaf = (usize, usize);

/// How deep calls may nest inside a computation whose dependences are asked for.
const MAX_NESTING: usize = 64;

/// Why the dependences of a computation cannot be followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DependenceError {
    /// A computation calls itself, directly or through others (its name).
    #[error("computation {0} calls itself")]
    Recursive(String),
    /// Calls nest deeper than [`MAX_NESTING`] computations.
    #[error("calls nest deeper than {MAX_NESTING} computations")]
    TooDeep,
    /// An instruction's structure is not what its opcode needs (the instruction, what is wrong).
    #[error("{0}: {1}")]
    Malformed(String, String),
}

/// Per result leaf of computation `c`'s root, the parameter leaves it depends on. An error for
/// a computation that calls itself, nests calls too deep, or calls a computation that does not
/// exist.
pub fn root_dependences(
    module: &Module,
    c: usize,
) -> Result<Vec<BTreeSet<ParamLeaf>>, DependenceError> {
    let mut memo = HashMap::new();
    dependences(module, c, &mut Vec::new(), &mut memo)
}

type Memo = HashMap<usize, Vec<BTreeSet<ParamLeaf>>>;

fn dependences(
    module: &Module,
    c: usize,
    active: &mut Vec<usize>,
    memo: &mut Memo,
) -> Result<Vec<BTreeSet<ParamLeaf>>, DependenceError> {
    if let Some(done) = memo.get(&c) {
        return Ok(done.clone());
    }
    let comp = &module.computations[c];
    if active.contains(&c) {
        return Err(DependenceError::Recursive(comp.name.clone()));
    }
    if active.len() >= MAX_NESTING {
        return Err(DependenceError::TooDeep);
    }
    active.push(c);
    let mut per_leaf: Vec<Vec<BTreeSet<ParamLeaf>>> = vec![Vec::new(); comp.instructions.len()];
    for &i in &comp.post_order {
        per_leaf[i] = instruction_dependences(module, comp, i, &per_leaf, active, memo)?;
    }
    active.pop();
    let out = std::mem::take(&mut per_leaf[comp.root]);
    memo.insert(c, out.clone());
    Ok(out)
}

/// The parameter leaves each result leaf of instruction `i` depends on, given its operands'.
fn instruction_dependences(
    module: &Module,
    comp: &Computation,
    i: usize,
    per_leaf: &[Vec<BTreeSet<ParamLeaf>>],
    active: &mut Vec<usize>,
    memo: &mut Memo,
) -> Result<Vec<BTreeSet<ParamLeaf>>, DependenceError> {
    let instr = &comp.instructions[i];
    let leaves = instr.shape.leaf_count();
    let operand_leaves = |j: usize| -> &[BTreeSet<ParamLeaf>] { &per_leaf[instr.operands[j]] };
    let malformed = |why: String| DependenceError::Malformed(instr.name.clone(), why);
    if let Some(p) = instr.parameter_number {
        return Ok((0..leaves).map(|l| BTreeSet::from([(p, l)])).collect());
    }
    match (instr.opcode, instruction_kind(instr)) {
        (Opcode::Tuple, _) => Ok(instr
            .operands
            .iter()
            .enumerate()
            .flat_map(|(j, _)| operand_leaves(j).iter().cloned())
            .collect()),
        (Opcode::GetTupleElement, _) => {
            let range = instr
                .int("index")
                .and_then(|k| usize::try_from(k).ok())
                .and_then(|k| comp.instructions[instr.operands[0]].shape.element_leaves(k))
                .ok_or_else(|| malformed("index is out of range".into()))?;
            Ok(operand_leaves(0)[range].to_vec())
        }
        (_, Some(OpKind::Call)) => {
            let key = if instr.opcode == Opcode::Fusion {
                "calls"
            } else {
                "to_apply"
            };
            let [name] = instr.called(key) else {
                return Err(malformed(format!("needs one computation in {key}=")));
            };
            let callee = module
                .computation(name)
                .ok_or_else(|| malformed(format!("unknown computation {name}")))?;
            let inner = dependences(module, callee, active, memo)?;
            Ok(inner
                .iter()
                .map(|params| {
                    params
                        .iter()
                        .filter_map(|&(p, l)| operand_leaves(p).get(l))
                        .flatten()
                        .cloned()
                        .collect()
                })
                .collect())
        }
        _ => {
            let all: BTreeSet<ParamLeaf> = (0..instr.operands.len())
                .flat_map(|j| operand_leaves(j).iter().flatten().cloned())
                .collect();
            Ok(vec![all; leaves])
        }
    }
}
