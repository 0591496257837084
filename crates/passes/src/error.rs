//! Why a pass cannot lower, check or analyse an op: [`LowerErrorKind`] says what went wrong,
//! [`LowerError`] adds where when the op at fault is another than the one the error is reported
//! at (an op inside a fusion, say).

use xla_indexing_core::ArithError;
use xla_indexing_gpu::{LaunchDimensions, LaunchError, coalescing::CoalescingError};
use xla_indexing_hlo::HloError;
use xla_indexing_mlir::{AttributeError, LAUNCH_ATTRIBUTE, pass_host::PassFailure};
use xla_indexing_translate::stablehlo::Skip;

/// What went wrong in a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerErrorKind {
    /// The op does not have the form the pass relies on; the sentence says what is wrong.
    #[error("{0}")]
    Invalid(String),
    /// The op has a form the pass does not handle; the sentence says which.
    #[error("{0}")]
    Unsupported(String),
    /// What the pass wrote itself is wrong; the sentence says what.
    #[error("internal error: {0}")]
    Internal(String),
    /// A loop (its op name) that could not be lowered (its own error was reported at it).
    #[error("cannot lower an {0}")]
    CannotLower(String),
    /// MLIR refused to build an op.
    #[error("cannot build {op}: {message}")]
    Build {
        /// The op's name.
        op: String,
        /// MLIR's complaint.
        message: String,
    },
    /// An error of the MLIR bindings, as they print it.
    #[error("{0}")]
    Mlir(String),
    /// An indexing map that makes no map attribute.
    #[error("cannot make a map attribute: {0}")]
    MapAttribute(AttributeError),
    /// A launch attribute that does not read.
    #[error("{attribute}: {0}", attribute = LAUNCH_ATTRIBUTE)]
    LaunchAttribute(AttributeError),
    /// A launch that makes no launch attribute.
    #[error(transparent)]
    Attribute(#[from] AttributeError),
    /// Launch sizes beyond the limits of the device (its chip's name).
    #[error(
        "block {} and grid {} cannot be launched on {chip}: {source}",
        sizes(.dims.threads),
        sizes(.dims.blocks)
    )]
    Limits {
        /// The sizes.
        dims: LaunchDimensions,
        /// The chip.
        chip: String,
        /// The limit they exceed.
        source: LaunchError,
    },
    /// The linear thread map of a grid overflows.
    #[error("the linear thread map of the grid: {0}")]
    LinearMap(ArithError),
    /// An index of a load (its position) that is no indexing map of thread ids, and why.
    #[error("index {index} is not an indexing map of thread ids: {why}")]
    Index {
        /// The index's position among the load's indices.
        index: usize,
        /// Why it is no indexing map.
        why: Box<LowerErrorKind>,
    },
    /// A dim (its position) of an enclosing loop that is no indexing map of thread ids, and why.
    #[error(
        "dim {dim} of an enclosing xla_indexing.loop is not an indexing map of thread ids: {why}"
    )]
    LoopDim {
        /// The dim's position among the loop's dims.
        dim: usize,
        /// Why it is no indexing map.
        why: Box<LowerErrorKind>,
    },
    /// An MLIR element type (as printed) with no XLA name.
    #[error("element type {0} has no XLA name")]
    ElementType(String),
    /// The HLO form of an op does not parse.
    #[error("the HLO form of the op does not parse: {0}")]
    OpHlo(HloError),
    /// The HLO form of a fusion does not parse.
    #[error("internal error: the HLO form of the fusion does not parse: {0}")]
    FusionHlo(HloError),
    /// The indexing analysis of an op's HLO form fails.
    #[error(transparent)]
    Hlo(HloError),
    /// An op with no HLO form, and why.
    #[error("{0}")]
    Untranslatable(String),
    /// An op has no HLO form (the translator's reason).
    #[error(transparent)]
    Skip(#[from] Skip),
    /// The indexing maps of an op are not defined, and why.
    #[error("{0}")]
    Undefined(String),
    /// The code generator refuses a fusion, in its words.
    #[error("{0}")]
    Codegen(String),
    /// Index arithmetic that overflows.
    #[error(transparent)]
    Arith(#[from] ArithError),
    /// An access the coalescing analysis cannot take.
    #[error(transparent)]
    Coalescing(#[from] CoalescingError),
}

/// Where an error is, when the op at fault is another than the one it is reported at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpLocation {
    /// The op at fault as the message names it (`'stablehlo.add'`, `result 1 of
    /// 'stablehlo.reduce'`).
    pub op: String,
    /// Its location without `loc(...)` (`"f.mlir":12:3`), empty when unknown.
    pub text: String,
}

/// What went wrong in a pass and, when the op at fault is another than the one it is reported
/// at, where: `'stablehlo.add' at "f.mlir":12:3: ...`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{kind}", located(.location.as_deref()))]
pub struct LowerError {
    /// The op at fault, when the error is not about the op it is reported at (boxed: most
    /// errors have none).
    pub location: Option<Box<OpLocation>>,
    /// What went wrong.
    pub kind: LowerErrorKind,
}

/// `[x, y, z]`: launch sizes as the launch-grid pass writes them.
pub(crate) fn sizes(values: [u64; 3]) -> String {
    format!("[{}, {}, {}]", values[0], values[1], values[2])
}

/// `OP at LOCATION: ` (or `OP: ` for an unknown location), nothing without an op.
fn located(location: Option<&OpLocation>) -> String {
    match location {
        None => String::new(),
        Some(OpLocation { op, text }) if text.is_empty() => format!("{op}: "),
        Some(OpLocation { op, text }) => format!("{op} at {text}: "),
    }
}

impl LowerError {
    /// An error about the op named `op` at location text `text` (empty when unknown).
    pub fn at(op: impl Into<String>, text: impl Into<String>, kind: LowerErrorKind) -> LowerError {
        LowerError {
            location: Some(Box::new(OpLocation {
                op: op.into(),
                text: text.into(),
            })),
            kind,
        }
    }
}

impl From<LowerErrorKind> for LowerError {
    fn from(kind: LowerErrorKind) -> LowerError {
        LowerError {
            location: None,
            kind,
        }
    }
}

/// A pass fails with the error's text, reported at the op it runs on.
impl From<LowerError> for PassFailure {
    fn from(error: LowerError) -> PassFailure {
        error.to_string().into()
    }
}
