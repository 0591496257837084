//! The op table: one entry per op family, with its HLO opcode, its StableHLO name and its
//! attributes, each of which converts in both directions ([`Attr::to_mlir`] for the import of
//! HLO as StableHLO-like ops, [`Attr::to_hlo`] for the translation of such ops back to HLO).
//! [`crate::import`] and [`crate::stablehlo`] both go through it, so that an op's name and each
//! of its attributes are spelled once, here.

mod convert;
mod literal;
mod types;
mod window;

use xla_indexing_hlo::Opcode;
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
    pub(crate) hlo: Opcode,
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
    /// HLO `hlo=5`, StableHLO `mlir = 5 : i32` (an attribute StableHLO keeps in 32 bits), which
    /// both must have.
    I32(&'static str, &'static str),
    /// HLO `hlo={1}` (a list of one), StableHLO `mlir = 1 : i64`.
    One(&'static str, &'static str),
    /// HLO `hlo=LT`, StableHLO `mlir = #stablehlo<mlir LT>` (the attribute names its kind).
    Enum(&'static str, &'static str),
    /// HLO `hlo="text"`, StableHLO `mlir = "text"`, both quoted strings.
    Str(&'static str, &'static str),
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
const fn op(stablehlo: &'static str, hlo: Opcode, attributes: &'static [Attr]) -> Family {
    Family {
        hlo,
        stablehlo,
        attributes,
        region: None,
    }
}

/// A family without attributes: the elementwise ops, and ops whose operand and result types say
/// all.
const fn plain(stablehlo: &'static str, hlo: Opcode) -> Family {
    op(stablehlo, hlo, &[])
}

/// A family whose region is the computation it calls.
const fn reducing(stablehlo: &'static str, hlo: Opcode, attributes: &'static [Attr]) -> Family {
    Family {
        region: Some(TO_APPLY),
        ..op(stablehlo, hlo, attributes)
    }
}

/// The table: the StableHLO-like ops the HLO analysis knows, a family a row.
#[rustfmt::skip]
const FAMILIES: &[Family] = &[
    plain("abs", Opcode::Abs),
    plain("cbrt", Opcode::Cbrt),
    plain("ceil", Opcode::Ceil),
    plain("convert", Opcode::Convert),
    plain("cosine", Opcode::Cosine),
    plain("count_leading_zeros", Opcode::CountLeadingZeros),
    plain("exponential", Opcode::Exponential),
    plain("exponential_minus_one", Opcode::ExponentialMinusOne),
    plain("floor", Opcode::Floor),
    plain("imag", Opcode::Imag),
    plain("is_finite", Opcode::IsFinite),
    plain("log", Opcode::Log),
    plain("log_plus_one", Opcode::LogPlusOne),
    plain("logistic", Opcode::Logistic),
    plain("negate", Opcode::Negate),
    plain("not", Opcode::Not),
    plain("popcnt", Opcode::Popcnt),
    plain("real", Opcode::Real),
    op(
        "reduce_precision",
        Opcode::ReducePrecision,
        &[
            Attr::I32("exponent_bits", "exponent_bits"),
            Attr::I32("mantissa_bits", "mantissa_bits"),
        ],
    ),
    plain("round_nearest_afz", Opcode::RoundNearestAfz),
    plain("round_nearest_even", Opcode::RoundNearestEven),
    plain("rsqrt", Opcode::Rsqrt),
    plain("sign", Opcode::Sign),
    plain("sine", Opcode::Sine),
    plain("sqrt", Opcode::Sqrt),
    plain("tan", Opcode::Tan),
    plain("tanh", Opcode::Tanh),
    plain("add", Opcode::Add),
    plain("atan2", Opcode::Atan2),
    op("compare", Opcode::Compare, &[Attr::Enum("direction", "comparison_direction")]),
    op(
        "custom_call",
        Opcode::CustomCall,
        &[Attr::Str("custom_call_target", "call_target_name")],
    ),
    plain("complex", Opcode::Complex),
    plain("divide", Opcode::Divide),
    plain("maximum", Opcode::Maximum),
    plain("minimum", Opcode::Minimum),
    plain("multiply", Opcode::Multiply),
    plain("power", Opcode::Power),
    plain("remainder", Opcode::Remainder),
    plain("subtract", Opcode::Subtract),
    plain("and", Opcode::And),
    plain("or", Opcode::Or),
    plain("xor", Opcode::Xor),
    plain("shift_left", Opcode::ShiftLeft),
    plain("shift_right_arithmetic", Opcode::ShiftRightArithmetic),
    plain("shift_right_logical", Opcode::ShiftRightLogical),
    plain("select", Opcode::Select),
    plain("clamp", Opcode::Clamp),
    op("constant", Opcode::Constant, &[Attr::Literal("value")]),
    op("iota", Opcode::Iota, &[Attr::Int("iota_dimension", "iota_dimension", None)]),
    plain("bitcast_convert", Opcode::BitcastConvert),
    plain("reshape", Opcode::Reshape),
    op("broadcast_in_dim", Opcode::Broadcast, &[Attr::Broadcast("dimensions", "broadcast_dimensions")]),
    op("transpose", Opcode::Transpose, &[Attr::Array("dimensions", "permutation")]),
    op("reverse", Opcode::Reverse, &[Attr::Array("dimensions", "dimensions")]),
    op("slice", Opcode::Slice, &[Attr::Triples(SLICE)]),
    op("pad", Opcode::Pad, &[Attr::Triples(PADDING)]),
    op("concatenate", Opcode::Concatenate, &[Attr::One("dimensions", "dimension")]),
    op("dynamic_slice", Opcode::DynamicSlice, &[Attr::Array("dynamic_slice_sizes", "slice_sizes")]),
    plain("dynamic_update_slice", Opcode::DynamicUpdateSlice),
    reducing("reduce", Opcode::Reduce, &[Attr::Array("dimensions", "dimensions")]),
    op("dot_general", Opcode::Dot, &[Attr::DimensionNumbers(DOT)]),
    op("gather", Opcode::Gather, &[
        Attr::DimensionNumbers(GATHER),
        Attr::Array("slice_sizes", "slice_sizes"),
    ]),
    op("convolution", Opcode::Convolution, &[
        Attr::Window(&CONVOLUTION),
        Attr::ConvLabels,
        group_count("feature_group_count"),
        group_count("batch_group_count"),
    ]),
    reducing("reduce_window", Opcode::ReduceWindow, &[Attr::Window(&REDUCE_WINDOW)]),
];

/// The family of the HLO opcode `hlo`.
pub(crate) fn by_hlo(hlo: Opcode) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.hlo == hlo)
}

/// The family of the StableHLO op `stablehlo` (without `stablehlo.`).
pub(crate) fn by_stablehlo(stablehlo: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.stablehlo == stablehlo)
}
