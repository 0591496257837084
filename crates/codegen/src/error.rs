//! Why the code generator cannot write a value, a buffer or an access: the reasons the
//! emitters give before the kernel or instruction at fault wraps them in an `HloError`.

use xla_indexing_core::{ArithError, ComposeError};
use xla_indexing_hlo::{Opcode, layout::LayoutError, shape::ArrayShape};

/// Why a part of a kernel is not written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CodegenError {
    /// An element type the generator has no MLIR type for.
    #[error("element type {0} is not lowered")]
    ElementType(String),
    /// An elementwise op on values of an element type (the MLIR type) it is not lowered for.
    #[error("{opcode} of {element} values is not lowered")]
    NotLowered {
        /// The op.
        opcode: Opcode,
        /// The MLIR type of its operands.
        element: &'static str,
    },
    /// A complex op one of whose float ops on the parts is not lowered.
    #[error("{opcode} of {element} values: {part}")]
    ComplexPart {
        /// The complex op.
        opcode: Opcode,
        /// The MLIR type of its operands.
        element: &'static str,
        /// Why the float op on the parts is not lowered.
        part: Box<CodegenError>,
    },
    /// An elementwise op given another number of operands than it takes.
    #[error("{opcode} takes {arity} operands, not {given}")]
    Arity {
        /// The op.
        opcode: Opcode,
        /// The operands it takes.
        arity: usize,
        /// The operands it was given.
        given: usize,
    },
    /// An op other than a conversion on `f4e2m1fn` values.
    #[error("{0} of f4e2m1fn values is not lowered (they are only converted)")]
    Fp4(Opcode),
    /// A `reduce-precision` without a number of bits (the attribute), or with no exponent bits.
    #[error("reduce-precision needs {0}=N (exponent_bits at least 1)")]
    ReducePrecisionBits(&'static str),
    /// A `compare` without its `direction` attribute.
    #[error("compare without direction=")]
    NoDirection,
    /// A comparison direction of real values that is not lowered.
    #[error("comparison direction {0} is not lowered")]
    Direction(String),
    /// A comparison direction of complex values other than `EQ` and `NE`.
    #[error("comparison {0} of complex values is not lowered")]
    ComplexDirection(String),
    /// A layout whose strides or size cannot be computed, in a memref type.
    #[error("layout of {shape}: {source}")]
    Layout {
        /// The array's shape, as HLO writes it.
        shape: String,
        /// Why its layout fails.
        source: LayoutError,
    },
    /// A buffer whose size in elements cannot be computed, for its one-dimensional view.
    #[error("{shape}: {source}")]
    BufferSize {
        /// The array's shape, as HLO writes it.
        shape: String,
        /// Why its size fails.
        source: LayoutError,
    },
    /// A dynamic array (its shape, as HLO writes it) whose buffer's bytes cannot be counted:
    /// packed elements, or more bytes than an `i64` counts.
    #[error("the buffer of the dynamic array {0} is not lowered")]
    DynamicBuffer(String),
    /// A dynamic array (its shape) in a kernel of an emitter other than the pad-to-static one.
    #[error(
        "{0} is dynamic: only the pad-to-static emitter reads dynamic arrays (XLA's dynamic padder leaves them nowhere else)"
    )]
    Dynamic(String),
    /// A shared buffer with more elements than an `i64` counts.
    #[error("shared buffer of {0} elements")]
    SharedBufferSize(u64),
    /// A vector access in a kernel whose threads compute no lanes.
    #[error("the kernel does not compute lanes")]
    NoLanes,
    /// A vector access to an array (its shape, as HLO writes it) whose layout gives no linear
    /// element offsets.
    #[error("{0} has no linear offsets")]
    NoLinearOffsets(String),
    /// Scatter indices of an element type (the MLIR type) that is not an integer.
    #[error("scatter indices of type {0}")]
    ScatterIndexType(&'static str),
    /// A reduction (named) without its reducer.
    #[error("{0} has no to_apply")]
    NoReducer(String),
    /// A reduction whose results are not one per input.
    #[error("{name} has {results} results for {inputs} inputs")]
    ReductionResults {
        /// The reduction.
        name: String,
        /// The results of its shape.
        results: usize,
        /// Its inputs.
        inputs: usize,
    },
    /// An array constant whose literal writes another number of elements than its shape holds.
    #[error("constant `{text}` writes {written} elements where its shape holds {count}")]
    ConstantCount {
        /// The literal.
        text: String,
        /// The elements it writes.
        written: usize,
        /// The elements of the shape.
        count: i64,
    },
    /// An array constant without elements.
    #[error("an array constant without elements is never read")]
    EmptyConstant,
    /// The row-major position of an array constant's element overflows.
    #[error("the constant's position: {0}")]
    ConstantPosition(ArithError),
    /// Index arithmetic that overflows.
    #[error(transparent)]
    Arith(#[from] ArithError),
    /// An index whose maps cannot be composed or materialized.
    #[error(transparent)]
    Compose(#[from] ComposeError),
}

impl CodegenError {
    /// The layout of `shape` fails for `source`.
    pub(crate) fn layout(shape: &ArrayShape, source: LayoutError) -> CodegenError {
        CodegenError::Layout {
            shape: shape.to_string(),
            source,
        }
    }
}
