//! Why an emitter does not plan a fusion: the reasons its planner gives, which leave the fusion
//! to the loop emitter (kept in [`crate::EmitterPlan::Loop`]) or, for the loop emitter's own
//! launch, make the kernel's error.

use xla_indexing_core::{ArithError, ComposeError};
use xla_indexing_hlo::{HloError, Opcode, layout::LayoutError};

use crate::launch::LaunchError;

/// Why a fusion is not planned by an emitter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The emitter does not take the fusion; the sentence says why, naming the instructions at
    /// fault.
    #[error("{0}")]
    Unsupported(String),
    /// The fusion's indexing maps are not defined; the sentence says why.
    #[error("{0}")]
    Undefined(String),
    /// An instruction (named) the emitter does not take, and why.
    #[error("{name}: {source}")]
    Instruction {
        /// The instruction.
        name: String,
        /// Why the emitter does not take it.
        source: Box<PlanError>,
    },
    /// A hero is read through an op its emitter does not fuse after it.
    #[error(
        "a {hero} is read through {name} ({opcode}), which the {hero} emitter does not fuse after it"
    )]
    ReadThrough {
        /// What the hero is: `reduction` or `transpose`.
        hero: &'static str,
        /// The instruction that reads it.
        name: String,
        /// That instruction's op.
        opcode: Opcode,
    },
    /// No output of the fusion depends on a hero (a `reduction` or a `transpose`).
    #[error("no output depends on a {0}")]
    NoHero(&'static str),
    /// An instruction (named) whose value is a tuple where an array is read.
    #[error("{0} is a tuple")]
    Tuple(String),
    /// The input of a reduction (named) is a tuple.
    #[error("the input of {0} is a tuple")]
    TupleInput(String),
    /// A transpose reads a tuple.
    #[error("the transpose reads a tuple")]
    TransposeOfTuple,
    /// A bitcast or reshape (named) whose operand's elements are not its own in memory.
    #[error("{0} changes the element count or a tiled layout")]
    NoBitcast(String),
    /// An array (its shape, as HLO writes it) whose elements do not fit the launch's counts.
    #[error("{0} has too many elements")]
    TooManyElements(String),
    /// A scatter of more update slices than an `i64` counts.
    #[error("too many updates")]
    TooManyUpdates,
    /// The elements of an array cannot be launched on the device.
    #[error("cannot launch {elements} elements of {shape}: {source}")]
    CannotLaunch {
        /// The elements.
        elements: u64,
        /// The array's shape, as HLO writes it.
        shape: String,
        /// Why the launch fails.
        source: LaunchError,
    },
    /// An array's layout does not fit its shape.
    #[error("{shape}: {source}")]
    Layout {
        /// The array's shape, as HLO writes it.
        shape: String,
        /// Why the layout does not fit.
        source: LayoutError,
    },
    /// The thread-id map of a loop overflows.
    #[error("thread-id map: {0}")]
    ThreadIdMap(ArithError),
    /// The thread maps of a reduction or transpose tiling overflow or do not compose.
    #[error("thread maps: {0}")]
    ThreadMaps(ComposeError),
    /// The write map of an output overflows or does not compose.
    #[error("write map: {0}")]
    WriteMap(ComposeError),
    /// The offset of a concatenate's operand (named) overflows.
    #[error("offset of {operand}: {source}")]
    Offset {
        /// The operand.
        operand: String,
        /// Why the offset fails.
        source: ArithError,
    },
    /// The bitcast from a reduction's input to a side output (named) does not compose.
    #[error("the bitcast to output {output}: {source}")]
    OutputBitcast {
        /// The output.
        output: String,
        /// Why the bitcast fails.
        source: ComposeError,
    },
    /// A launch beyond the device's limits.
    #[error(transparent)]
    Launch(#[from] LaunchError),
    /// Index arithmetic that overflows.
    #[error(transparent)]
    Arith(#[from] ArithError),
    /// Maps that do not compose.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// The indexing analysis of an op fails (its message, without the location).
    #[error("{}", .0.message())]
    Hlo(HloError),
}
