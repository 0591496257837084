//! The parsed form of an HLO module: computations of instructions, operands resolved to indices.

use std::collections::HashMap;

use crate::attrs::{Attr, AttrValue};
use crate::opcode::Opcode;
use crate::parser::cursor::Pos;
use crate::shape::{ArrayShape, Shape};

/// An HLO module.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// The name after `HloModule` (empty when the text has no header).
    pub name: String,
    /// Header attributes (`is_scheduled`, `entry_computation_layout`, ...).
    pub attrs: Vec<Attr>,
    /// The FileNames, FunctionNames, FileLocations and StackFrames sections of newer dumps.
    pub debug_info: DebugInfo,
    /// The computations, in text order.
    pub computations: Vec<Computation>,
    /// The `ENTRY` computation, or the last one when none is marked.
    pub entry: usize,
    /// Each computation's index by name, as the parser made them.
    pub(crate) names: HashMap<String, usize>,
}

/// The debug sections of a dump: entries `id value`, values as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugInfo {
    /// FileNames: `(id, file name)`.
    pub file_names: Vec<(i64, String)>,
    /// FunctionNames: `(id, function name)`.
    pub function_names: Vec<(i64, String)>,
    /// FileLocations: `(id, location)`.
    pub file_locations: Vec<(i64, String)>,
    /// StackFrames: `(id, frame)`.
    pub stack_frames: Vec<(i64, String)>,
}

/// A computation: a named graph of instructions with a root.
#[derive(Clone, Debug, PartialEq)]
pub struct Computation {
    /// The computation's name, without `%`.
    pub name: String,
    /// Whether it is marked `ENTRY`.
    pub is_entry: bool,
    /// `(p0: f32[10], ...) -> f32[10]` when written.
    pub signature: Option<Signature>,
    /// The instructions, in text order.
    pub instructions: Vec<Instruction>,
    /// Index in `instructions` of the root: the one marked `ROOT`, else the last.
    pub root: usize,
    /// Instruction indices with every operand before its users.
    pub post_order: Vec<usize>,
    /// Where the computation starts (`ENTRY` or its name).
    pub pos: Pos,
}

/// A computation's written parameter list and result shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    /// The parameters' names and shapes, in order.
    pub params: Vec<(String, Shape)>,
    /// The result's shape.
    pub result: Shape,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The instruction's name, without `%`.
    pub name: String,
    /// The result's shape.
    pub shape: Shape,
    /// The opcode (written `add`, `get-tuple-element`, ...).
    pub opcode: Opcode,
    /// Operand instructions, as indices into the computation.
    pub operands: Vec<usize>,
    /// `N` of `parameter(N)`.
    pub parameter_number: Option<usize>,
    /// The text between the parentheses of `constant(...)`.
    pub literal: Option<String>,
    /// The attributes after the operands, in text order.
    pub attrs: Vec<Attr>,
    /// Whether it is its computation's root (marked `ROOT`, or the last instruction when none is).
    pub is_root: bool,
    /// Where the instruction starts (`ROOT` or its name).
    pub pos: Pos,
}

impl Instruction {
    /// The value of attribute `key`.
    pub fn attr(&self, key: &str) -> Option<&AttrValue> {
        self.attrs.iter().find(|a| a.key == key).map(|a| &a.value)
    }

    /// An integer-list attribute.
    pub fn ints(&self, key: &str) -> Option<&[i64]> {
        match self.attr(key) {
            Some(AttrValue::Ints(v)) => Some(v),
            _ => None,
        }
    }

    /// An integer attribute.
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.attr(key) {
            Some(AttrValue::Int(v)) => Some(*v),
            _ => None,
        }
    }

    /// The computations an attribute names (`calls`, `to_apply`, ...).
    pub fn called(&self, key: &str) -> &[String] {
        match self.attr(key) {
            Some(AttrValue::Computations(v)) => v,
            _ => &[],
        }
    }

    /// The array shape of the instruction, when it is not a tuple.
    pub fn array(&self) -> Option<&ArrayShape> {
        self.shape.as_array()
    }
}

impl Module {
    /// The computation with the given name (without `%`). The parser's index answers when it
    /// still holds for `computations`; otherwise they are searched.
    pub fn computation(&self, name: &str) -> Option<usize> {
        match self.names.get(name) {
            Some(&i) if self.computations.get(i).is_some_and(|c| c.name == name) => Some(i),
            _ => self.computations.iter().position(|c| c.name == name),
        }
    }

    /// Which computations `c` reaches: itself and every computation its instructions name
    /// (`calls=`, `to_apply=`, `body=`, ...), transitively, marked `true` by index.
    pub fn called_from(&self, c: usize) -> Vec<bool> {
        let mut reached = vec![false; self.computations.len()];
        let mut todo = vec![c];
        while let Some(c) = todo.pop() {
            if std::mem::replace(&mut reached[c], true) {
                continue;
            }
            for instr in &self.computations[c].instructions {
                for a in &instr.attrs {
                    if let AttrValue::Computations(names) = &a.value {
                        todo.extend(names.iter().filter_map(|n| self.computation(n)));
                    }
                }
            }
        }
        reached
    }

    /// Every `(computation, instruction)` with the given name.
    pub fn find_instruction(&self, name: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (ci, c) in self.computations.iter().enumerate() {
            for (ii, instr) in c.instructions.iter().enumerate() {
                if instr.name == name {
                    out.push((ci, ii));
                }
            }
        }
        out
    }
}

impl Computation {
    /// The instruction of `parameter(n)`.
    pub fn parameter(&self, n: usize) -> Option<usize> {
        self.instructions
            .iter()
            .position(|i| i.parameter_number == Some(n))
    }

    /// The number of parameters.
    pub fn num_parameters(&self) -> usize {
        self.instructions
            .iter()
            .filter(|i| i.parameter_number.is_some())
            .count()
    }
}
