//! Indexing maps of single instructions, output to input and input to output.
//!
//! Each op family has its module; [`Opcode`] is the one table of every HLO opcode, with its
//! family or the reason it has none.
//! Maps are built from the instruction's attributes and shapes, which are checked on the way: a
//! mismatch is an [`HloError::Analysis`] naming the instruction. Where an op has no map in a
//! direction, the answer is [`Outcome::NotDefined`] with the reason, never a guess.

mod broadcast;
mod collective;
mod convolution;
mod dynamic;
mod elementwise;
pub mod liveness;
mod permute;
mod reduction;
mod reshape;
mod rows;
mod scaled_dot;
mod scan;
mod scatter;
mod slicing;
mod tuple;

pub use crate::opcode::{Indexing, OpKind, Opcode};
pub use reshape::{bitcast_map, reshape_map};

use std::collections::BTreeSet;

use xla_indexing_core::{ArithError, ComposeError, Expr, IndexingMap, Interval, Var};

use self::liveness::ParamLeaf;
use crate::access::Access;
use crate::attrs::AttrValue;
use crate::direction::Direction;
use crate::error::HloError;
use crate::module::{Computation, Instruction, Module};
use crate::shape::ArrayShape;
use crate::trip_count::known_trip_count;

/// The op family of an opcode, `None` for ops without indexing (see [`Opcode::indexing`]).
pub fn op_kind(opcode: Opcode) -> Option<OpKind> {
    family(opcode).ok()
}

/// Why an opcode has no maps: the table's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{opcode} has no indexing ({reason})")]
pub struct NoIndexing {
    /// The opcode.
    pub opcode: Opcode,
    /// Why it has none (the opcode table's words).
    pub reason: &'static str,
}

/// The op family of an opcode, or why it has none.
pub fn family(opcode: Opcode) -> Result<OpKind, NoIndexing> {
    match opcode.indexing() {
        Indexing::Family(kind) => Ok(kind),
        Indexing::NotDefined(reason) => Err(NoIndexing { opcode, reason }),
    }
}

/// The `custom_call_target`s whose custom calls have maps, with their family.
pub const CUSTOM_CALL_TARGETS: &[(&str, OpKind)] = &[("TopK", OpKind::TopK)];

/// The `custom_call_target`s whose meaning is known but has no maps, with the reason.
pub const CUSTOM_CALL_REASONS: &[(&str, &str)] = &[(
    "PadToStatic",
    "its elements within its operand's dynamic sizes are the operand's at the same index and the others zero, and the sizes are known only at run time; `launch` gives the kernel's read map",
)];

/// The op family of an instruction: its opcode's ([`family`]), except that a `custom-call` has
/// the family of its `custom_call_target` when [`CUSTOM_CALL_TARGETS`] lists it, and the reason
/// [`CUSTOM_CALL_REASONS`] gives when that lists it.
pub fn instruction_family(instr: &Instruction) -> Result<OpKind, NoIndexing> {
    if instr.opcode == Opcode::CustomCall
        && let Some(target) = custom_call_target(instr)
    {
        if let Some((_, kind)) = CUSTOM_CALL_TARGETS.iter().find(|(t, _)| *t == target) {
            return Ok(*kind);
        }
        if let Some((_, reason)) = CUSTOM_CALL_REASONS.iter().find(|(t, _)| *t == target) {
            return Err(NoIndexing {
                opcode: instr.opcode,
                reason,
            });
        }
    }
    family(instr.opcode)
}

/// The op family of an instruction, `None` when it has no indexing (see [`instruction_family`]).
pub fn instruction_kind(instr: &Instruction) -> Option<OpKind> {
    instruction_family(instr).ok()
}

/// The `custom_call_target` of an instruction, without its quotes.
pub fn custom_call_target(instr: &Instruction) -> Option<&str> {
    match instr.attr("custom_call_target") {
        Some(AttrValue::Raw(text)) => Some(
            text.strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(text),
        ),
        _ => None,
    }
}

/// A result that may be undefined for a stated reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    /// The value.
    Defined(T),
    /// Why there is none.
    NotDefined(String),
}

/// One output-to-input map: which operand (and leaf of it) is read, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandAccess {
    /// The operand read: its position in the instruction's operand list.
    pub operand: usize,
    /// The leaf of the operand's shape read (0 for an array).
    pub leaf: usize,
    /// The map from the output index to the operand index, with its runtime variables.
    pub access: Access,
}

/// One input-to-output map: which leaf of the result is written, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultAccess {
    /// The leaf of the result written (0 for an array).
    pub leaf: usize,
    /// The map from the operand index to the result index, with its runtime variables.
    pub access: Access,
}

/// An instruction in its computation and module, with helpers for shapes, attributes, called
/// computations and errors.
pub struct OpContext<'a> {
    /// The module that holds the computation.
    pub module: &'a Module,
    /// The computation that holds the instruction.
    pub comp: &'a Computation,
    /// The instruction.
    pub instr: &'a Instruction,
}

impl<'a> OpContext<'a> {
    /// The context of `instr`, an instruction of `comp`, a computation of `module`.
    pub fn new(module: &'a Module, comp: &'a Computation, instr: &'a Instruction) -> OpContext<'a> {
        OpContext {
            module,
            comp,
            instr,
        }
    }

    /// The index of the one computation that attribute `key` (`to_apply`, ...) names.
    pub fn called(&self, key: &str) -> Result<usize, HloError> {
        let [name] = self.instr.called(key) else {
            return Err(self.error(format!("needs one computation in {key}=")));
        };
        self.module
            .computation(name)
            .ok_or_else(|| self.error(format!("unknown computation {name}")))
    }

    /// The computation in `to_apply` (the op's `role`: a comparator, a combiner, a body), which
    /// must take `parameters` parameters (`counted` ends the error when it does not: how they
    /// are counted), with the parameter leaves each leaf of its root reads.
    pub fn applied(
        &self,
        role: &str,
        parameters: usize,
        counted: &str,
    ) -> Result<(&'a Computation, Vec<BTreeSet<ParamLeaf>>), HloError> {
        let c = self.called("to_apply")?;
        let comp = &self.module.computations[c];
        if comp.num_parameters() != parameters {
            return Err(self.error(format!(
                "the {role} {} has {} parameters{counted}",
                comp.name,
                comp.num_parameters()
            )));
        }
        let deps =
            liveness::root_dependences(self.module, c).map_err(|e| self.error(e.to_string()))?;
        Ok((comp, deps))
    }

    /// An analysis error naming the instruction.
    pub fn error(&self, message: impl Into<String>) -> HloError {
        HloError::Analysis {
            instruction: self.instr.name.clone(),
            line: self.instr.pos.line,
            column: self.instr.pos.column,
            message: message.into(),
        }
    }

    /// The `j`-th operand instruction.
    pub fn operand(&self, j: usize) -> Result<&'a Instruction, HloError> {
        let i = *self
            .instr
            .operands
            .get(j)
            .ok_or_else(|| self.error(format!("{} needs operand {j}", self.instr.opcode)))?;
        Ok(&self.comp.instructions[i])
    }

    /// The array shape of operand `j`.
    pub fn operand_array(&self, j: usize) -> Result<&'a ArrayShape, HloError> {
        let op = self.operand(j)?;
        op.array()
            .ok_or_else(|| self.error(format!("operand {j} ('{}') is a tuple", op.name)))
    }

    /// The array shape of the result (which must not be a tuple).
    pub fn result_array(&self) -> Result<&'a ArrayShape, HloError> {
        self.instr
            .array()
            .ok_or_else(|| self.error("the result is a tuple, expected an array"))
    }

    /// Checks the number of operands.
    pub fn expect_operands(&self, n: usize) -> Result<(), HloError> {
        if self.instr.operands.len() != n {
            return Err(self.error(format!(
                "{} takes {n} operands, found {}",
                self.instr.opcode,
                self.instr.operands.len()
            )));
        }
        Ok(())
    }

    /// An integer-list attribute that must be present.
    pub fn ints(&self, key: &str) -> Result<&'a [i64], HloError> {
        self.instr
            .ints(key)
            .ok_or_else(|| self.error(format!("missing attribute {key}={{...}}")))
    }

    /// `index_vector_dim` of a gather or scatter whose indices have rank `rank`: at most `rank`
    /// (equal when the index vector is implicit).
    pub fn index_vector_dim(&self, rank: usize) -> Result<usize, HloError> {
        let ivd = self
            .instr
            .int("index_vector_dim")
            .ok_or_else(|| self.error("missing attribute index_vector_dim"))?;
        usize::try_from(ivd)
            .ok()
            .filter(|&v| v <= rank)
            .ok_or_else(|| self.error(format!("index_vector_dim={ivd} is out of range")))
    }

    /// Dimension numbers from an attribute, each checked to be below `rank` and distinct.
    pub fn dim_list(&self, key: &str, values: &[i64], rank: usize) -> Result<Vec<usize>, HloError> {
        let mut out: Vec<usize> = Vec::with_capacity(values.len());
        for &v in values {
            let d = usize::try_from(v)
                .ok()
                .filter(|&d| d < rank)
                .ok_or_else(|| {
                    self.error(format!(
                        "{key}: dimension {v} is out of range for rank {rank}"
                    ))
                })?;
            if out.contains(&d) {
                return Err(self.error(format!("{key}: dimension {v} appears twice")));
            }
            out.push(d);
        }
        Ok(out)
    }
}

/// Converts arithmetic and composition failures into errors naming the instruction.
pub trait OrAnalysisError<T> {
    /// The value, or the failure as an [`HloError::Analysis`] naming `cx`'s instruction.
    fn or_err(self, cx: &OpContext<'_>) -> Result<T, HloError>;
}

impl<T> OrAnalysisError<T> for Result<T, ArithError> {
    fn or_err(self, cx: &OpContext<'_>) -> Result<T, HloError> {
        self.map_err(|e| cx.error(e.to_string()))
    }
}

impl<T> OrAnalysisError<T> for Result<T, ComposeError> {
    fn or_err(self, cx: &OpContext<'_>) -> Result<T, HloError> {
        self.map_err(|e| cx.error(e.to_string()))
    }
}

/// `(d0, ..., dn) -> ()` over the given dimension sizes: a scalar read once per element.
pub fn scalar_read(dims: &[i64]) -> IndexingMap {
    IndexingMap::from_tensor_sizes(Vec::new(), dims, &[])
}

/// `()[s0, ..., sn] -> (s0, ..., sn)`: a scalar written to every element of the given shape.
pub fn scalar_write(dims: &[i64]) -> IndexingMap {
    let results = (0..dims.len() as u32).map(Expr::sym).collect();
    IndexingMap::from_tensor_sizes(results, &[], dims)
}

/// A map over dimensions with explicit bounds.
pub fn map_with_bounds(results: Vec<Expr>, dims: Vec<Interval>, range: &[i64]) -> IndexingMap {
    IndexingMap::new(
        results,
        dims.into_iter().map(Var::new).collect(),
        Var::from_sizes(range),
        Vec::new(),
    )
}

/// The maps of an op without operands (none), after checking what it has: an `iota`'s
/// `iota_dimension` names a dimension of its array result.
fn source<T>(cx: &OpContext<'_>) -> Result<Outcome<Vec<T>>, HloError> {
    if cx.instr.opcode == Opcode::Iota {
        let rank = cx.result_array()?.rank();
        match cx.instr.int("iota_dimension") {
            Some(d) if usize::try_from(d).is_ok_and(|d| d < rank) => {}
            Some(d) => {
                return Err(cx.error(format!(
                    "iota_dimension={d} is not a dimension of a rank-{rank} result"
                )));
            }
            None => return Err(cx.error("iota without an iota_dimension")),
        }
    }
    Ok(Outcome::Defined(Vec::new()))
}

/// Why an instruction has no maps: its opcode's reason, and for a `while` how many iterations it
/// runs (when its condition and body prove it) or that only the run knows.
fn no_maps(cx: &OpContext<'_>, why: NoIndexing) -> String {
    if cx.instr.opcode != Opcode::While {
        return why.to_string();
    }
    match known_trip_count(cx.module, cx.comp, cx.instr) {
        Some(trips) => format!("{why}; it runs {trips}"),
        None => format!("{why}; its trip count is known only at run time"),
    }
}

/// Output-to-input maps of output leaf `leaf` of an instruction that is not a `fusion` or
/// `call` (those are composed by [`crate::fusion`]).
pub fn output_to_input(
    cx: &OpContext<'_>,
    leaf: usize,
) -> Result<Outcome<Vec<OperandAccess>>, HloError> {
    use OpKind::*;
    let kind = match instruction_family(cx.instr) {
        Ok(kind) => kind,
        Err(why) => return Ok(Outcome::NotDefined(no_maps(cx, why))),
    };
    let all = |v: Vec<(usize, IndexingMap)>| {
        Outcome::Defined(
            v.into_iter()
                .map(|(operand, map)| OperandAccess {
                    operand,
                    leaf: 0,
                    access: Access::plain(map),
                })
                .collect(),
        )
    };
    let single = |map: IndexingMap| all(vec![(0, map)]);
    let out2in = Direction::OutputToInput;
    Ok(match kind {
        Source => source(cx)?,
        Elementwise => all(elementwise::output_to_input(cx)?),
        BitcastConvert => single(elementwise::bitcast_convert(cx, out2in)?),
        Broadcast => single(broadcast::output_to_input(cx)?),
        Bitcast => reshape::bitcast(cx, out2in)?.map_defined(|m| {
            vec![OperandAccess {
                operand: 0,
                leaf: 0,
                access: Access::plain(m),
            }]
        }),
        Reshape => single(reshape::reshape(cx, out2in)?),
        Transpose => single(permute::transpose(cx, out2in)?),
        Reverse => single(permute::reverse(cx)?),
        Slice => single(slicing::slice(cx, out2in)?),
        Pad => all(slicing::pad_output_to_input(cx)?),
        Concatenate => all(slicing::concatenate(cx, out2in)?),
        DynamicSlice => dynamic::dynamic_slice(cx)?,
        DynamicUpdateSlice => dynamic::dynamic_update_slice(cx)?,
        Gather => dynamic::gather(cx)?,
        Reduce => all(reduction::reduce_output_to_input(cx)?),
        ReduceWindow => reduction::reduce_window(cx)?,
        Dot => all(reduction::dot_output_to_input(cx, 2)?),
        ScaledDot => match scaled_dot::output_to_input(cx)? {
            Outcome::Defined(maps) => all(maps),
            Outcome::NotDefined(why) => Outcome::NotDefined(why),
        },
        Convolution => Outcome::Defined(convolution::output_to_input(cx)?),
        Scatter => Outcome::Defined(scatter::output_to_input(cx, leaf)?),
        AllGather => Outcome::Defined(collective::output_to_input(cx, leaf)?),
        Scan => scan::output_to_input(cx, leaf)?,
        Sort => Outcome::Defined(rows::sort_output_to_input(cx, leaf)?),
        TopK => Outcome::Defined(rows::top_k_output_to_input(cx)?),
        Tuple => Outcome::Defined(tuple::tuple_output_to_input(cx, leaf)?),
        GetTupleElement => Outcome::Defined(tuple::gte_output_to_input(cx, leaf)?),
        Call => return Err(cx.error("calls are composed over their computation")),
    })
}

/// Input-to-output maps from leaf `leaf` of operand `operand` of an instruction that is not a
/// `fusion` or `call`.
pub fn input_to_output(
    cx: &OpContext<'_>,
    operand: usize,
    leaf: usize,
) -> Result<Outcome<Vec<ResultAccess>>, HloError> {
    use OpKind::*;
    let kind = match instruction_family(cx.instr) {
        Ok(kind) => kind,
        Err(why) => return Ok(Outcome::NotDefined(no_maps(cx, why))),
    };
    let single = |map: IndexingMap| {
        Outcome::Defined(vec![ResultAccess {
            leaf: 0,
            access: Access::plain(map),
        }])
    };
    let pick = |v: Vec<(usize, IndexingMap)>| -> Result<IndexingMap, HloError> {
        v.into_iter()
            .find(|(j, _)| *j == operand)
            .map(|(_, m)| m)
            .ok_or_else(|| cx.error(format!("has no operand {operand}")))
    };
    let in2out = Direction::InputToOutput;
    Ok(match kind {
        Source => source(cx)?,
        Elementwise => single(elementwise::input_to_output(cx, operand)?),
        BitcastConvert => single(elementwise::bitcast_convert(cx, in2out)?),
        Broadcast => single(broadcast::input_to_output(cx)?),
        Bitcast => reshape::bitcast(cx, in2out)?.map_defined(|m| {
            vec![ResultAccess {
                leaf: 0,
                access: Access::plain(m),
            }]
        }),
        Reshape => single(reshape::reshape(cx, in2out)?),
        Transpose => single(permute::transpose(cx, in2out)?),
        Reverse => single(permute::reverse(cx)?),
        Slice => single(slicing::slice(cx, in2out)?),
        Pad => single(slicing::pad_input_to_output(cx, operand)?),
        Concatenate => single(pick(slicing::concatenate(cx, in2out)?)?),
        Reduce => Outcome::Defined(
            reduction::reduce_input_to_output(cx, operand)?
                .into_iter()
                .map(|(leaf, map)| ResultAccess {
                    leaf,
                    access: Access::plain(map),
                })
                .collect(),
        ),
        Dot => single(reduction::dot_input_to_output(cx, operand, 2)?),
        ScaledDot => match scaled_dot::input_to_output(cx, operand)? {
            Outcome::Defined(map) => single(map),
            Outcome::NotDefined(why) => Outcome::NotDefined(why),
        },
        Scatter => Outcome::Defined(scatter::input_to_output(cx, operand)?),
        AllGather => Outcome::Defined(collective::input_to_output(cx, operand)?),
        Sort => Outcome::Defined(rows::sort_input_to_output(cx, operand)?),
        TopK => Outcome::Defined(rows::top_k_input_to_output(cx)?),
        Tuple => Outcome::Defined(tuple::tuple_input_to_output(cx, operand, leaf)?),
        GetTupleElement => Outcome::Defined(tuple::gte_input_to_output(cx, leaf)?),
        DynamicSlice | DynamicUpdateSlice | Gather | ReduceWindow | Convolution | Scan => {
            Outcome::NotDefined(format!("{} has no input-to-output map", cx.instr.opcode))
        }
        Call => return Err(cx.error("calls are composed over their computation")),
    })
}

impl<T> Outcome<T> {
    /// Transforms a defined value.
    pub fn map_defined<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        match self {
            Outcome::Defined(v) => Outcome::Defined(f(v)),
            Outcome::NotDefined(r) => Outcome::NotDefined(r),
        }
    }
}
