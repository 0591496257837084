//! The roles of a reduction fusion's instructions for the reduction emitter: which depend on
//! no reduction, which are one value per row of the heroes (the `reduce`s and elementwise
//! functions of them), and which are one value per element of the heroes' input that read
//! heroes only through broadcasts along the reduced dimensions (as a softmax reads its row
//! maximum). A reduce whose input reads another hero that way comes after it: the heroes fall
//! into levels, each a pass over the row.

use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::module::{Computation, Instruction};
use xla_indexing_hlo::ops::{OpKind, instruction_kind};
use xla_indexing_hlo::shape::Shape;

use crate::error::PlanError;

/// What an instruction is to the reduction emitter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// It depends on no reduction.
    Free,
    /// One value per row: of the heroes' output shape, computed from these heroes by
    /// elementwise ops (a hero itself, or a `get-tuple-element` of one).
    Row(Vec<usize>),
    /// One value per element of the heroes' input shape, reading these heroes only through
    /// broadcasts of row values along the reduced dimensions.
    Element(Vec<usize>),
}

/// The input every hero reduces: its dimensions and the reduced ones (sorted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeroInput {
    /// Dimensions of the reduced input.
    pub dims: Vec<i64>,
    /// The reduced dimensions, sorted.
    pub reduced: Vec<usize>,
}

impl HeroInput {
    /// The kept dimensions, in order.
    fn kept(&self) -> Vec<i64> {
        (0..self.dims.len())
            .filter(|d| !self.reduced.contains(d))
            .map(|d| d as i64)
            .collect()
    }
}

/// The roles of every instruction of `comp` (by index), and per `reduce` its level: 1 when its
/// inputs read no hero, else one more than the deepest hero they read. Every reduce must
/// reduce `input`'s dimensions; an instruction that reads a hero other than as these roles
/// allow is an error naming it.
pub fn roles(comp: &Computation, input: &HeroInput) -> Result<(Vec<Role>, Vec<usize>), PlanError> {
    let n = comp.instructions.len();
    let mut roles = vec![Role::Free; n];
    let mut levels = vec![0usize; n];
    for &i in &comp.post_order {
        let instr = &comp.instructions[i];
        let operands: Vec<&Role> = instr.operands.iter().map(|&o| &roles[o]).collect();
        roles[i] = if instr.opcode == Opcode::Reduce {
            let (inputs, inits) = operands.split_at(instr.operands.len() / 2);
            if inits.iter().any(|r| **r != Role::Free) {
                return Err(PlanError::Unsupported(format!(
                    "the initial value of {} reads a reduction",
                    instr.name
                )));
            }
            let mut deps = Vec::new();
            for r in inputs {
                match r {
                    Role::Free => {}
                    Role::Element(hs) => deps.extend(hs.iter().copied()),
                    Role::Row(_) => return Err(read_through(instr)),
                }
            }
            levels[i] = 1 + deps.iter().map(|&d| levels[d]).max().unwrap_or(0);
            Role::Row(vec![i])
        } else if operands.iter().all(|r| **r == Role::Free)
            || (i == comp.root && instr.opcode == Opcode::Tuple)
        {
            // The root tuple only groups the outputs, each of which has its own role.
            Role::Free
        } else if instr.opcode == Opcode::GetTupleElement
            && comp.instructions[instr.operands[0]].opcode == Opcode::Reduce
        {
            Role::Row(vec![instr.operands[0]])
        } else if instr.opcode == Opcode::Broadcast {
            row_broadcast(instr, operands[0], input)?
        } else if instruction_kind(instr) == Some(OpKind::Elementwise)
            && instr.opcode != Opcode::Map
        {
            elementwise(instr, &operands)?
        } else {
            return Err(read_through(instr));
        };
    }
    Ok((roles, levels))
}

/// The error of a reduction read through `instr`.
fn read_through(instr: &Instruction) -> PlanError {
    PlanError::ReadThrough {
        hero: "reduction",
        name: instr.name.clone(),
        opcode: instr.opcode,
    }
}

/// An elementwise op's role: its operands' heroes, per row or per element (not both).
fn elementwise(instr: &Instruction, operands: &[&Role]) -> Result<Role, PlanError> {
    let (mut rows, mut elements) = (None::<Vec<usize>>, None::<Vec<usize>>);
    for r in operands {
        let (slot, hs) = match r {
            Role::Free => continue,
            Role::Row(hs) => (&mut rows, hs),
            Role::Element(hs) => (&mut elements, hs),
        };
        let all = slot.get_or_insert_with(Vec::new);
        all.extend(hs.iter().copied());
        all.sort_unstable();
        all.dedup();
    }
    match (rows, elements) {
        (Some(hs), None) => Ok(Role::Row(hs)),
        (None, Some(hs)) => Ok(Role::Element(hs)),
        _ => Err(PlanError::Unsupported(format!(
            "{} mixes values per row and per element",
            instr.name
        ))),
    }
}

/// A broadcast of a row value back over the reduced dimensions (its operand's dimensions are
/// the kept ones, in order): one value per element; any other broadcast of a hero is an error.
fn row_broadcast(
    instr: &Instruction,
    operand: &Role,
    input: &HeroInput,
) -> Result<Role, PlanError> {
    let Role::Row(hs) = operand else {
        return Err(read_through(instr));
    };
    let dims = instr.ints("dimensions").unwrap_or(&[]);
    let same_shape = matches!(&instr.shape, Shape::Array(a) if a.dims == input.dims);
    if same_shape && dims == input.kept().as_slice() {
        Ok(Role::Element(hs.clone()))
    } else {
        Err(read_through(instr))
    }
}
