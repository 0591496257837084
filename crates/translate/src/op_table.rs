//! The op table: one entry per op family, with its HLO opcode, its StableHLO name and its
//! attributes, each of which converts in both directions ([`Attr::to_mlir`] for the import of
//! HLO as StableHLO-like ops, [`Attr::to_hlo`] for the translation of such ops back to HLO).
//! [`crate::import`] and [`crate::stablehlo`] both go through it, so that an op's name and each
//! of its attributes are spelled once, here.

mod convert;
mod literal;
mod types;
mod window;

use xla_indexing_hlo::attrs::AttrValue;

pub(crate) use convert::{ToHlo, ToMlir};
pub use types::{hlo_element, hlo_shape, mlir_element, mlir_type};
use window::{CONVOLUTION, REDUCE_WINDOW, WindowNames};

/// Why an op has no HLO form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    /// An op that is no StableHLO-like op of the HLO table (its name).
    #[error("the indexing analysis does not know '{0}'")]
    UnknownOp(String),
    /// An op the table knows, in a form it cannot translate (why).
    #[error("{0}")]
    Unsupported(String),
}

/// The HLO attribute naming the computation that a `reduce`, `reduce-window` or `call` calls.
pub(crate) const TO_APPLY: &str = "to_apply";

/// One op family: an HLO opcode and the StableHLO op it is.
pub(crate) struct Family {
    /// The HLO opcode (`dynamic-slice`).
    pub(crate) hlo: &'static str,
    /// The StableHLO name, without `stablehlo.` (`dynamic_slice`).
    pub(crate) stablehlo: &'static str,
    /// Its attributes, in the order both forms write them.
    pub(crate) attributes: &'static [Attr],
    /// The HLO attribute naming the computation that its region holds, if it has one.
    pub(crate) region: Option<&'static str>,
}

/// How one attribute (or a group of attributes that go together) of an op family converts. The
/// names are given as (HLO attribute, StableHLO attribute).
pub(crate) enum Attr {
    /// HLO `hlo={1,0}`, StableHLO `mlir = array<i64: 1, 0>`.
    Array(&'static str, &'static str),
    /// An [`Attr::Array`] of broadcast dimensions: StableHLO also broadcasts dimensions of size 1
    /// to any size, which HLO first reshapes away.
    Broadcast(&'static str, &'static str),
    /// HLO `hlo=1`, StableHLO `mlir = 1 : i64`, with the value of an absent one (`None` where it
    /// is required).
    Int(&'static str, &'static str, Option<i64>),
    /// HLO `hlo={1}` (a list of one), StableHLO `mlir = 1 : i64`.
    One(&'static str, &'static str),
    /// HLO `hlo=LT`, StableHLO `mlir = #stablehlo<mlir LT>` (the attribute names its kind).
    Enum(&'static str, &'static str),
    /// A constant's HLO literal, the StableHLO attribute `dense<...> : tensor<...>` named here.
    Literal(&'static str),
    /// An HLO attribute with three integers per dimension, three StableHLO arrays.
    Triples(Triples),
    /// HLO integer lists (and an integer) that StableHLO holds in one `#stablehlo.KIND<...>`.
    DimensionNumbers(DimensionNumbers),
    /// HLO `window={size=... stride=... pad=... lhs_dilate=... rhs_dilate=...}`, a StableHLO
    /// array per field (under the names of the op) and a `padding` tensor.
    Window(&'static WindowNames),
    /// HLO `dim_labels=b01f_01io->b01f`, StableHLO
    /// `dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`.
    ConvLabels,
}

/// An HLO attribute with three integers per dimension (`slice={[0:4:1], [2:8:2]}`), which
/// StableHLO holds as three arrays (`start_indices`, `limit_indices`, `strides`).
pub(crate) struct Triples {
    /// The HLO attribute.
    pub(crate) hlo: &'static str,
    /// The StableHLO attributes, one per place in a triple.
    pub(crate) mlir: [&'static str; 3],
    /// The triples of the parsed HLO attribute, or `None` for a value of another kind.
    pub(crate) read: fn(&AttrValue) -> Option<Vec<[i64; 3]>>,
    /// The HLO text of one triple.
    pub(crate) write: fn(&[i64; 3]) -> String,
    /// What the HLO text of the triples is: (before, between, after).
    pub(crate) around: [&'static str; 3],
}

/// HLO integer lists, and an integer after them, that StableHLO holds in one opaque attribute
/// `mlir = #stablehlo.KIND<field = [..], ..., field = n>`.
pub(crate) struct DimensionNumbers {
    /// The StableHLO attribute.
    pub(crate) mlir: &'static str,
    /// The kind of the StableHLO attribute (`dot` in `#stablehlo.dot<...>`).
    pub(crate) kind: &'static str,
    /// The lists, as (HLO attribute, StableHLO field).
    pub(crate) lists: &'static [(&'static str, &'static str)],
    /// The integer, as (HLO attribute, StableHLO field); 0 when absent.
    pub(crate) int: Option<(&'static str, &'static str)>,
}

/// `slice={[start:limit:stride], ...}`.
const SLICE: Triples = Triples {
    hlo: "slice",
    mlir: ["start_indices", "limit_indices", "strides"],
    read: |value| match value {
        AttrValue::Slice(dims) => Some(dims.iter().map(|d| [d.start, d.limit, d.stride]).collect()),
        _ => None,
    },
    write: |[start, limit, stride]| format!("[{start}:{limit}:{stride}]"),
    around: ["{", ", ", "}"],
};

/// `padding=low_high_interiorx...`.
const PADDING: Triples = Triples {
    hlo: "padding",
    mlir: ["edge_padding_low", "edge_padding_high", "interior_padding"],
    read: |value| match value {
        AttrValue::Padding(dims) => {
            Some(dims.iter().map(|d| [d.low, d.high, d.interior]).collect())
        }
        _ => None,
    },
    write: |[low, high, interior]| format!("{low}_{high}_{interior}"),
    around: ["", "x", ""],
};

/// A `dot`'s batch and contracting dimensions.
const DOT: DimensionNumbers = DimensionNumbers {
    mlir: "dot_dimension_numbers",
    kind: "dot",
    lists: &[
        ("lhs_batch_dims", "lhs_batching_dimensions"),
        ("rhs_batch_dims", "rhs_batching_dimensions"),
        ("lhs_contracting_dims", "lhs_contracting_dimensions"),
        ("rhs_contracting_dims", "rhs_contracting_dimensions"),
    ],
    int: None,
};

/// A `gather`'s dimension numbers.
const GATHER: DimensionNumbers = DimensionNumbers {
    mlir: "dimension_numbers",
    kind: "gather",
    lists: &[
        ("offset_dims", "offset_dims"),
        ("collapsed_slice_dims", "collapsed_slice_dims"),
        ("operand_batching_dims", "operand_batching_dims"),
        ("start_indices_batching_dims", "start_indices_batching_dims"),
        ("start_index_map", "start_index_map"),
    ],
    int: Some(("index_vector_dim", "index_vector_dim")),
};

/// A convolution's group count `key`, 1 when absent.
const fn group_count(key: &'static str) -> Attr {
    Attr::Int(key, key, Some(1))
}

/// A family with attributes and no region.
const fn op(stablehlo: &'static str, hlo: &'static str, attributes: &'static [Attr]) -> Family {
    Family {
        hlo,
        stablehlo,
        attributes,
        region: None,
    }
}

/// A family without attributes: the elementwise ops, and ops whose operand and result types say
/// all.
const fn plain(stablehlo: &'static str, hlo: &'static str) -> Family {
    op(stablehlo, hlo, &[])
}

/// A family whose region is the computation it calls.
const fn reducing(
    stablehlo: &'static str,
    hlo: &'static str,
    attributes: &'static [Attr],
) -> Family {
    Family {
        region: Some(TO_APPLY),
        ..op(stablehlo, hlo, attributes)
    }
}

/// The table: the StableHLO-like ops the HLO analysis knows, a family a row.
#[rustfmt::skip]
const FAMILIES: &[Family] = &[
    plain("abs", "abs"),
    plain("cbrt", "cbrt"),
    plain("ceil", "ceil"),
    plain("convert", "convert"),
    plain("cosine", "cosine"),
    plain("count_leading_zeros", "count-leading-zeros"),
    plain("exponential", "exponential"),
    plain("exponential_minus_one", "exponential-minus-one"),
    plain("floor", "floor"),
    plain("imag", "imag"),
    plain("is_finite", "is-finite"),
    plain("log", "log"),
    plain("log_plus_one", "log-plus-one"),
    plain("logistic", "logistic"),
    plain("negate", "negate"),
    plain("not", "not"),
    plain("popcnt", "popcnt"),
    plain("real", "real"),
    plain("reduce_precision", "reduce-precision"),
    plain("round_nearest_afz", "round-nearest-afz"),
    plain("round_nearest_even", "round-nearest-even"),
    plain("rsqrt", "rsqrt"),
    plain("sign", "sign"),
    plain("sine", "sine"),
    plain("sqrt", "sqrt"),
    plain("tan", "tan"),
    plain("tanh", "tanh"),
    plain("add", "add"),
    plain("atan2", "atan2"),
    op("compare", "compare", &[Attr::Enum("direction", "comparison_direction")]),
    plain("complex", "complex"),
    plain("divide", "divide"),
    plain("maximum", "maximum"),
    plain("minimum", "minimum"),
    plain("multiply", "multiply"),
    plain("power", "power"),
    plain("remainder", "remainder"),
    plain("subtract", "subtract"),
    plain("and", "and"),
    plain("or", "or"),
    plain("xor", "xor"),
    plain("shift_left", "shift-left"),
    plain("shift_right_arithmetic", "shift-right-arithmetic"),
    plain("shift_right_logical", "shift-right-logical"),
    plain("select", "select"),
    plain("clamp", "clamp"),
    op("constant", "constant", &[Attr::Literal("value")]),
    op("iota", "iota", &[Attr::Int("iota_dimension", "iota_dimension", None)]),
    plain("bitcast_convert", "bitcast-convert"),
    plain("reshape", "reshape"),
    op("broadcast_in_dim", "broadcast", &[Attr::Broadcast("dimensions", "broadcast_dimensions")]),
    op("transpose", "transpose", &[Attr::Array("dimensions", "permutation")]),
    op("reverse", "reverse", &[Attr::Array("dimensions", "dimensions")]),
    op("slice", "slice", &[Attr::Triples(SLICE)]),
    op("pad", "pad", &[Attr::Triples(PADDING)]),
    op("concatenate", "concatenate", &[Attr::One("dimensions", "dimension")]),
    op("dynamic_slice", "dynamic-slice", &[Attr::Array("dynamic_slice_sizes", "slice_sizes")]),
    plain("dynamic_update_slice", "dynamic-update-slice"),
    reducing("reduce", "reduce", &[Attr::Array("dimensions", "dimensions")]),
    op("dot_general", "dot", &[Attr::DimensionNumbers(DOT)]),
    op("gather", "gather", &[
        Attr::DimensionNumbers(GATHER),
        Attr::Array("slice_sizes", "slice_sizes"),
    ]),
    op("convolution", "convolution", &[
        Attr::Window(&CONVOLUTION),
        Attr::ConvLabels,
        group_count("feature_group_count"),
        group_count("batch_group_count"),
    ]),
    reducing("reduce_window", "reduce-window", &[Attr::Window(&REDUCE_WINDOW)]),
];

/// The family of the HLO opcode `hlo`.
pub(crate) fn by_hlo(hlo: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.hlo == hlo)
}

/// The family of the StableHLO op `stablehlo` (without `stablehlo.`).
pub(crate) fn by_stablehlo(stablehlo: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.stablehlo == stablehlo)
}
