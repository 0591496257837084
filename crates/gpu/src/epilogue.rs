//! The values a fusion's outputs are, and the heroes an output is an epilogue of: what the
//! reduction and transpose emitters share when they take a fusion apart.

use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::module::Computation;
use xla_indexing_hlo::shape::Shape;

use crate::error::PlanError;

/// The instructions whose values are a fusion's `outputs` outputs: the root's operands when the
/// root is a `tuple` of that many values, else the (array-shaped) root.
pub(crate) fn root_values(comp: &Computation, outputs: usize) -> Result<Vec<usize>, PlanError> {
    root_leaves(comp, outputs)?
        .into_iter()
        .map(|(i, leaf)| match leaf {
            None => Ok(i),
            Some(_) => Err(PlanError::Unsupported(format!(
                "an output is a result of {}, whose value is a tuple",
                comp.instructions[i].name
            ))),
        })
        .collect()
}

/// Per output of a fusion with `outputs` outputs, the instruction whose value it is and, for
/// an instruction whose value is a tuple (a variadic reduce), which of its results: the leaves
/// of the root, through nested `tuple`s, in order.
pub fn root_leaves(
    comp: &Computation,
    outputs: usize,
) -> Result<Vec<(usize, Option<usize>)>, PlanError> {
    let mut leaves = Vec::new();
    let mut pending = vec![comp.root];
    while let Some(i) = pending.pop() {
        let instr = &comp.instructions[i];
        match (&instr.shape, instr.opcode) {
            (Shape::Array(_), _) => leaves.push((i, None)),
            (Shape::Tuple(_), Opcode::Tuple) => pending.extend(instr.operands.iter().rev()),
            (Shape::Tuple(parts), _) if parts.iter().all(|p| matches!(p, Shape::Array(_))) => {
                leaves.extend((0..parts.len()).map(|k| (i, Some(k))));
            }
            _ => {
                return Err(PlanError::Unsupported(format!(
                    "{} is a nested tuple that is not a tuple op",
                    instr.name
                )));
            }
        }
    }
    if leaves.len() != outputs {
        return Err(PlanError::Unsupported(format!(
            "the root has {} leaves for {outputs} outputs",
            leaves.len()
        )));
    }
    Ok(leaves)
}

/// Whether a hero (an instruction `is_hero` accepts) is among instruction `i` and the
/// instructions it reads (in `comp`).
pub(crate) fn reaches_hero(comp: &Computation, i: usize, is_hero: &dyn Fn(usize) -> bool) -> bool {
    let mut pending = vec![i];
    let mut seen = vec![false; comp.instructions.len()];
    while let Some(i) = pending.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        if is_hero(i) {
            return true;
        }
        pending.extend(comp.instructions[i].operands.iter().copied());
    }
    false
}
