//! Every opcode of XLA's HLO, as HLO text spells it, with what the indexing analysis does with it:
//! the family whose maps it has, or the reason it has none.

use super::OpKind::{self, *};

/// What the analysis does with an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indexing {
    /// Maps of this family.
    Family(OpKind),
    /// No maps, for this reason.
    NotDefined(&'static str),
}

use Indexing::{Family, NotDefined};

const COLLECTIVE: Indexing = NotDefined("a collective: it reads the buffers of other devices");
const ASYNC: Indexing = NotDefined("an asynchronous wrapper: its computation is analysed instead");
const IO: Indexing = NotDefined("host or device I/O, outside the arrays of a computation");
const DYNAMIC_SHAPE: Indexing = NotDefined("a dynamic shape: sizes are known only at run time");
const RANDOM: Indexing = NotDefined("random numbers, drawn at run time");
const EXPANDED: Indexing =
    NotDefined("XLA expands it into other ops before fusion, which have maps");
const SOLVER: Indexing =
    NotDefined("a library call: each output element depends on whole matrices");

/// Every HLO opcode (XLA's `HLO_OPCODE_LIST`), sorted by name.
pub const OPCODES: &[(&str, Indexing)] = &[
    ("abs", Family(Elementwise)),
    ("acos", Family(Elementwise)),
    ("acosh", Family(Elementwise)),
    ("add", Family(Elementwise)),
    (
        "add-dependency",
        NotDefined("orders side effects: a token, not an array, is its operand"),
    ),
    ("after-all", NotDefined("produces a token, not an array")),
    ("all-gather", Family(AllGather)),
    ("all-gather-done", ASYNC),
    ("all-gather-start", ASYNC),
    ("all-reduce", COLLECTIVE),
    ("all-reduce-done", ASYNC),
    ("all-reduce-start", ASYNC),
    ("all-to-all", COLLECTIVE),
    ("and", Family(Elementwise)),
    ("asin", Family(Elementwise)),
    ("asinh", Family(Elementwise)),
    ("async-done", ASYNC),
    ("async-start", ASYNC),
    ("async-update", ASYNC),
    ("atan", Family(Elementwise)),
    ("atan2", Family(Elementwise)),
    ("atanh", Family(Elementwise)),
    ("batch-norm-grad", EXPANDED),
    ("batch-norm-inference", EXPANDED),
    ("batch-norm-training", EXPANDED),
    ("bitcast", Family(Bitcast)),
    ("bitcast-convert", Family(BitcastConvert)),
    ("broadcast", Family(Broadcast)),
    ("call", Family(Call)),
    ("cbrt", Family(Elementwise)),
    ("ceil", Family(Elementwise)),
    ("cholesky", SOLVER),
    ("clamp", Family(Elementwise)),
    ("collective-broadcast", COLLECTIVE),
    ("collective-permute", COLLECTIVE),
    ("collective-permute-done", ASYNC),
    ("collective-permute-start", ASYNC),
    ("collective-reduce", COLLECTIVE),
    ("compare", Family(Elementwise)),
    ("complex", Family(Elementwise)),
    ("concatenate", Family(Concatenate)),
    (
        "conditional",
        NotDefined("control flow: the branch taken is known only at run time"),
    ),
    ("constant", Family(Source)),
    ("convert", Family(Elementwise)),
    ("convolution", Family(Convolution)),
    ("copy", Family(Elementwise)),
    ("copy-done", ASYNC),
    ("copy-start", ASYNC),
    ("cosh", Family(Elementwise)),
    ("cosine", Family(Elementwise)),
    ("count-leading-zeros", Family(Elementwise)),
    (
        "custom-call",
        NotDefined("an opaque custom call: what it reads is not in the HLO"),
    ),
    ("divide", Family(Elementwise)),
    (
        "domain",
        NotDefined("a sharding-domain marker, removed before fusion"),
    ),
    ("dot", Family(Dot)),
    ("dynamic-reshape", DYNAMIC_SHAPE),
    ("dynamic-slice", Family(DynamicSlice)),
    ("dynamic-update-slice", Family(DynamicUpdateSlice)),
    ("erf", Family(Elementwise)),
    ("exponential", Family(Elementwise)),
    ("exponential-minus-one", Family(Elementwise)),
    ("fft", SOLVER),
    ("floor", Family(Elementwise)),
    ("fusion", Family(Call)),
    ("gather", Family(Gather)),
    ("get-dimension-size", DYNAMIC_SHAPE),
    ("get-tuple-element", Family(GetTupleElement)),
    ("imag", Family(Elementwise)),
    ("infeed", IO),
    ("iota", Family(Source)),
    ("is-finite", Family(Elementwise)),
    ("log", Family(Elementwise)),
    ("log-plus-one", Family(Elementwise)),
    ("logistic", Family(Elementwise)),
    ("map", Family(Elementwise)),
    ("maximum", Family(Elementwise)),
    ("minimum", Family(Elementwise)),
    ("mulhi", Family(Elementwise)),
    ("multiply", Family(Elementwise)),
    ("negate", Family(Elementwise)),
    ("not", Family(Elementwise)),
    (
        "opt-barrier",
        NotDefined("an optimization barrier: it keeps a tuple as it is"),
    ),
    ("or", Family(Elementwise)),
    ("outfeed", IO),
    ("pad", Family(Pad)),
    ("parameter", Family(Source)),
    ("partition-id", Family(Source)),
    ("popcnt", Family(Elementwise)),
    ("power", Family(Elementwise)),
    ("ragged-all-to-all", COLLECTIVE),
    (
        "ragged-dot",
        NotDefined("group sizes are known only at run time"),
    ),
    ("real", Family(Elementwise)),
    ("recv", IO),
    ("recv-done", IO),
    ("reduce", Family(Reduce)),
    ("reduce-precision", Family(Elementwise)),
    ("reduce-scatter", COLLECTIVE),
    ("reduce-window", Family(ReduceWindow)),
    ("remainder", Family(Elementwise)),
    ("replica-id", Family(Source)),
    ("reshape", Family(Reshape)),
    ("reverse", Family(Reverse)),
    ("rng", RANDOM),
    ("rng-bit-generator", RANDOM),
    ("rng-get-and-update-state", RANDOM),
    ("round-nearest-afz", Family(Elementwise)),
    ("round-nearest-even", Family(Elementwise)),
    ("rsqrt", Family(Elementwise)),
    ("scaled-dot", Family(ScaledDot)),
    ("scan", Family(Scan)),
    ("scatter", Family(Scatter)),
    ("select", Family(Elementwise)),
    (
        "select-and-scatter",
        NotDefined("where it writes is chosen by a comparator at run time"),
    ),
    ("send", IO),
    ("send-done", IO),
    ("set-dimension-size", DYNAMIC_SHAPE),
    ("shift-left", Family(Elementwise)),
    ("shift-right-arithmetic", Family(Elementwise)),
    ("shift-right-logical", Family(Elementwise)),
    ("shuffle", EXPANDED),
    ("sign", Family(Elementwise)),
    ("sine", Family(Elementwise)),
    ("sinh", Family(Elementwise)),
    ("slice", Family(Slice)),
    ("sort", Family(Sort)),
    ("sqrt", Family(Elementwise)),
    ("stochastic-convert", Family(Elementwise)),
    ("subtract", Family(Elementwise)),
    ("tan", Family(Elementwise)),
    ("tanh", Family(Elementwise)),
    ("topk", Family(TopK)),
    ("transpose", Family(Transpose)),
    ("triangular-solve", SOLVER),
    ("tuple", Family(Tuple)),
    (
        "while",
        NotDefined("control flow: maps through a loop's iterations are not composed"),
    ),
    ("xor", Family(Elementwise)),
];

/// What the analysis does with `opcode`; `None` for a name that is no HLO opcode.
pub fn indexing(opcode: &str) -> Option<Indexing> {
    OPCODES
        .binary_search_by(|(name, _)| name.cmp(&opcode))
        .ok()
        .map(|i| OPCODES[i].1)
}
