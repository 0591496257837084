//! Every opcode of XLA's HLO as the enum [`Opcode`]: how HLO text spells it, and what the
//! indexing analysis does with it (the family whose maps it has, or the reason it has none).
//! The one table below generates the enum, its parser and its printer, so that an opcode's
//! name is written once; every other crate matches on the enum, and a new opcode is a compile
//! error wherever a match must name it.

/// The families of ops with indexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// `parameter`, `constant`, `iota`: no operands.
    Source,
    /// Elementwise ops (`add`, `convert`, `select`, `map`, ...): each operand is read at the
    /// output's index (a scalar operand once per element).
    Elementwise,
    /// `bitcast-convert`: the same index, with one extra minor dimension on the narrower side when
    /// the element widths differ.
    BitcastConvert,
    /// `broadcast`: operand dimensions map to the result's `dimensions`; the others repeat it.
    Broadcast,
    /// `bitcast`: the element at the same place in memory, given both layouts.
    Bitcast,
    /// `reshape`: the element at the same row-major position.
    Reshape,
    /// `transpose`: dimensions permuted.
    Transpose,
    /// `reverse`: some dimensions read from the end.
    Reverse,
    /// `slice`: a strided window of the operand.
    Slice,
    /// `pad`: the operand spread out with edge and interior padding.
    Pad,
    /// `concatenate`: operands stacked along one dimension.
    Concatenate,
    /// `dynamic-slice`: a window at offsets known at run time.
    DynamicSlice,
    /// `dynamic-update-slice`: an update written at offsets known at run time.
    DynamicUpdateSlice,
    /// `gather`: slices at start indices read from another operand.
    Gather,
    /// `reduce`: each result element combines the input elements along the reduced dimensions
    /// (range variables out2in).
    Reduce,
    /// `reduce-window`: windows (strided, padded, dilated) reduced to one element each.
    ReduceWindow,
    /// `dot`: each result element combines the operands along the contracting dimensions (range
    /// variables out2in).
    Dot,
    /// `scaled-dot`: a dot of two operands, each multiplied by its block scales.
    ScaledDot,
    /// `convolution`: windows over the input's spatial dimensions times the kernel.
    Convolution,
    /// `scatter`: updates combined into a copy of the operands at runtime positions.
    Scatter,
    /// `sort`: rows permuted by a comparator.
    Sort,
    /// `topk` and the `TopK` custom call: the largest (or smallest) elements of each row.
    TopK,
    /// `all-gather`: the participants' operands concatenated; a map names the participant read.
    AllGather,
    /// `scan`: a loop along one dimension whose carries pass from step to step.
    Scan,
    /// `tuple`: result leaves are the operands' leaves.
    Tuple,
    /// `get-tuple-element`: one element of a tuple operand.
    GetTupleElement,
    /// `fusion` and `call`: composed over the called computation.
    Call,
}

/// What the analysis does with an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indexing {
    /// Maps of this family.
    Family(OpKind),
    /// No maps, for this reason.
    NotDefined(&'static str),
}

use Indexing::{Family, NotDefined};
use OpKind::*;

const COLLECTIVE: Indexing = NotDefined("a collective: it reads the buffers of other devices");
const ASYNC: Indexing = NotDefined("an asynchronous wrapper: its computation is analysed instead");
const IO: Indexing = NotDefined("host or device I/O, outside the arrays of a computation");
const DYNAMIC_SHAPE: Indexing = NotDefined("a dynamic shape: sizes are known only at run time");
const RANDOM: Indexing = NotDefined("random numbers, drawn at run time");
const EXPANDED: Indexing =
    NotDefined("XLA expands it into other ops before fusion, which have maps");
const SOLVER: Indexing =
    NotDefined("a library call: each output element depends on whole matrices");

/// Declares [`Opcode`] from rows `Variant "name" => indexing`, sorted by name.
macro_rules! opcodes {
    ($($variant:ident $name:literal => $indexing:expr,)*) => {
        /// An HLO opcode (XLA's `HLO_OPCODE_LIST`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Opcode {
            /// Every opcode, sorted by name.
            pub const ALL: &[Opcode] = &[$(Opcode::$variant,)*];

            /// The opcode as HLO text spells it (`get-tuple-element`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Opcode::$variant => $name,)*
                }
            }

            /// The opcode spelled `name`, `None` for a name that is no HLO opcode.
            pub fn parse(name: &str) -> Option<Opcode> {
                match name {
                    $($name => Some(Opcode::$variant),)*
                    _ => None,
                }
            }

            /// What the analysis does with the opcode.
            pub const fn indexing(self) -> Indexing {
                match self {
                    $(Opcode::$variant => $indexing,)*
                }
            }
        }
    };
}

opcodes! {
    Abs "abs" => Family(Elementwise),
    Acos "acos" => Family(Elementwise),
    Acosh "acosh" => Family(Elementwise),
    Add "add" => Family(Elementwise),
    AddDependency "add-dependency" => NotDefined("orders side effects: a token, not an array, is its operand"),
    AfterAll "after-all" => NotDefined("produces a token, not an array"),
    AllGather "all-gather" => Family(AllGather),
    AllGatherDone "all-gather-done" => ASYNC,
    AllGatherStart "all-gather-start" => ASYNC,
    AllReduce "all-reduce" => COLLECTIVE,
    AllReduceDone "all-reduce-done" => ASYNC,
    AllReduceStart "all-reduce-start" => ASYNC,
    AllToAll "all-to-all" => COLLECTIVE,
    And "and" => Family(Elementwise),
    Asin "asin" => Family(Elementwise),
    Asinh "asinh" => Family(Elementwise),
    AsyncDone "async-done" => ASYNC,
    AsyncStart "async-start" => ASYNC,
    AsyncUpdate "async-update" => ASYNC,
    Atan "atan" => Family(Elementwise),
    Atan2 "atan2" => Family(Elementwise),
    Atanh "atanh" => Family(Elementwise),
    BatchNormGrad "batch-norm-grad" => EXPANDED,
    BatchNormInference "batch-norm-inference" => EXPANDED,
    BatchNormTraining "batch-norm-training" => EXPANDED,
    Bitcast "bitcast" => Family(Bitcast),
    BitcastConvert "bitcast-convert" => Family(BitcastConvert),
    Broadcast "broadcast" => Family(Broadcast),
    Call "call" => Family(Call),
    Cbrt "cbrt" => Family(Elementwise),
    Ceil "ceil" => Family(Elementwise),
    Cholesky "cholesky" => SOLVER,
    Clamp "clamp" => Family(Elementwise),
    CollectiveBroadcast "collective-broadcast" => COLLECTIVE,
    CollectivePermute "collective-permute" => COLLECTIVE,
    CollectivePermuteDone "collective-permute-done" => ASYNC,
    CollectivePermuteStart "collective-permute-start" => ASYNC,
    CollectiveReduce "collective-reduce" => COLLECTIVE,
    Compare "compare" => Family(Elementwise),
    Complex "complex" => Family(Elementwise),
    Concatenate "concatenate" => Family(Concatenate),
    Conditional "conditional" => NotDefined("control flow: the branch taken is known only at run time"),
    Constant "constant" => Family(Source),
    Convert "convert" => Family(Elementwise),
    Convolution "convolution" => Family(Convolution),
    Copy "copy" => Family(Elementwise),
    CopyDone "copy-done" => ASYNC,
    CopyStart "copy-start" => ASYNC,
    Cosh "cosh" => Family(Elementwise),
    Cosine "cosine" => Family(Elementwise),
    CountLeadingZeros "count-leading-zeros" => Family(Elementwise),
    CustomCall "custom-call" => NotDefined("an opaque custom call: what it reads is not in the HLO"),
    Divide "divide" => Family(Elementwise),
    Domain "domain" => NotDefined("a sharding-domain marker, removed before fusion"),
    Dot "dot" => Family(Dot),
    DynamicReshape "dynamic-reshape" => DYNAMIC_SHAPE,
    DynamicSlice "dynamic-slice" => Family(DynamicSlice),
    DynamicUpdateSlice "dynamic-update-slice" => Family(DynamicUpdateSlice),
    Erf "erf" => Family(Elementwise),
    Exponential "exponential" => Family(Elementwise),
    ExponentialMinusOne "exponential-minus-one" => Family(Elementwise),
    Fft "fft" => SOLVER,
    Floor "floor" => Family(Elementwise),
    Fusion "fusion" => Family(Call),
    Gather "gather" => Family(Gather),
    GetDimensionSize "get-dimension-size" => DYNAMIC_SHAPE,
    GetTupleElement "get-tuple-element" => Family(GetTupleElement),
    Imag "imag" => Family(Elementwise),
    Infeed "infeed" => IO,
    Iota "iota" => Family(Source),
    IsFinite "is-finite" => Family(Elementwise),
    Log "log" => Family(Elementwise),
    LogPlusOne "log-plus-one" => Family(Elementwise),
    Logistic "logistic" => Family(Elementwise),
    Map "map" => Family(Elementwise),
    Maximum "maximum" => Family(Elementwise),
    Minimum "minimum" => Family(Elementwise),
    Mulhi "mulhi" => Family(Elementwise),
    Multiply "multiply" => Family(Elementwise),
    Negate "negate" => Family(Elementwise),
    Not "not" => Family(Elementwise),
    OptBarrier "opt-barrier" => NotDefined("an optimization barrier: it keeps a tuple as it is"),
    Or "or" => Family(Elementwise),
    Outfeed "outfeed" => IO,
    Pad "pad" => Family(Pad),
    Parameter "parameter" => Family(Source),
    PartitionId "partition-id" => Family(Source),
    Popcnt "popcnt" => Family(Elementwise),
    Power "power" => Family(Elementwise),
    RaggedAllToAll "ragged-all-to-all" => COLLECTIVE,
    RaggedDot "ragged-dot" => NotDefined("group sizes are known only at run time"),
    Real "real" => Family(Elementwise),
    Recv "recv" => IO,
    RecvDone "recv-done" => IO,
    Reduce "reduce" => Family(Reduce),
    ReducePrecision "reduce-precision" => Family(Elementwise),
    ReduceScatter "reduce-scatter" => COLLECTIVE,
    ReduceWindow "reduce-window" => Family(ReduceWindow),
    Remainder "remainder" => Family(Elementwise),
    ReplicaId "replica-id" => Family(Source),
    Reshape "reshape" => Family(Reshape),
    Reverse "reverse" => Family(Reverse),
    Rng "rng" => RANDOM,
    RngBitGenerator "rng-bit-generator" => RANDOM,
    RngGetAndUpdateState "rng-get-and-update-state" => RANDOM,
    RoundNearestAfz "round-nearest-afz" => Family(Elementwise),
    RoundNearestEven "round-nearest-even" => Family(Elementwise),
    Rsqrt "rsqrt" => Family(Elementwise),
    ScaledDot "scaled-dot" => Family(ScaledDot),
    Scan "scan" => Family(Scan),
    Scatter "scatter" => Family(Scatter),
    Select "select" => Family(Elementwise),
    SelectAndScatter "select-and-scatter" => NotDefined("where it writes is chosen by a comparator at run time"),
    Send "send" => IO,
    SendDone "send-done" => IO,
    SetDimensionSize "set-dimension-size" => DYNAMIC_SHAPE,
    ShiftLeft "shift-left" => Family(Elementwise),
    ShiftRightArithmetic "shift-right-arithmetic" => Family(Elementwise),
    ShiftRightLogical "shift-right-logical" => Family(Elementwise),
    Shuffle "shuffle" => EXPANDED,
    Sign "sign" => Family(Elementwise),
    Sine "sine" => Family(Elementwise),
    Sinh "sinh" => Family(Elementwise),
    Slice "slice" => Family(Slice),
    Sort "sort" => Family(Sort),
    Sqrt "sqrt" => Family(Elementwise),
    StochasticConvert "stochastic-convert" => Family(Elementwise),
    Subtract "subtract" => Family(Elementwise),
    Tan "tan" => Family(Elementwise),
    Tanh "tanh" => Family(Elementwise),
    Topk "topk" => Family(TopK),
    Transpose "transpose" => Family(Transpose),
    TriangularSolve "triangular-solve" => SOLVER,
    Tuple "tuple" => Family(Tuple),
    While "while" => NotDefined("control flow: maps through a loop's iterations are composed only where its trip count is known"),
    Xor "xor" => Family(Elementwise),
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
