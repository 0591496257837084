//! Instruction attributes: the typed values of the attributes the analysis reads (`dimensions`,
//! `slice`, `padding`, `window`, `dim_labels`, dot and gather dimension numbers, computations),
//! and the others as written.

use crate::parser::cursor::Pos;

/// One `key=value` attribute and where its value starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    /// The attribute's name, before the `=`.
    pub key: String,
    /// The value, typed where the key is one the analysis reads.
    pub value: AttrValue,
    /// Where the value starts in the text.
    pub pos: Pos,
}

/// An attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// `{1,0}`: dimension lists and sizes.
    Ints(Vec<i64>),
    /// `1`: `index`, `index_vector_dim`, group counts, ...
    Int(i64),
    /// `{[5:10:1], [3:20:7]}`.
    Slice(Vec<SliceDim>),
    /// `1_4_1x4_8_0`.
    Padding(Vec<PadDim>),
    /// `{size=3x3 stride=2x2 pad=1_1x1_1}`.
    Window(Vec<WindowDim>),
    /// `b01f_01io->b01f`.
    DimLabels(ConvDimLabels),
    /// `to_apply=%add`, `calls=%fused`, `branch_computations={%a, %b}`.
    Computations(Vec<String>),
    /// `backend_config={...}` that is valid JSON.
    Json(serde_json::Value),
    /// Any other value, as written (`kind=kLoop`, `metadata={...}`, strings with their quotes).
    Raw(String),
}

/// One dimension of a `slice` attribute: `[start:limit:stride]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceDim {
    /// First index taken (inclusive).
    pub start: i64,
    /// End of the range (exclusive).
    pub limit: i64,
    /// Step between the indices taken.
    pub stride: i64,
}

/// One dimension of a `padding` attribute: `low_high_interior`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadDim {
    /// Padding elements before the first element (negative removes elements).
    pub low: i64,
    /// Padding elements after the last element (negative removes elements).
    pub high: i64,
    /// Padding elements between each two neighbouring elements.
    pub interior: i64,
}

/// One dimension of a `window` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowDim {
    /// Window extent along the dimension.
    pub size: i64,
    /// Step between the starts of neighbouring windows.
    pub stride: i64,
    /// Padding before the (dilated) input.
    pub pad_low: i64,
    /// Padding after the (dilated) input.
    pub pad_high: i64,
    /// Base (input) dilation.
    pub lhs_dilate: i64,
    /// Window dilation.
    pub rhs_dilate: i64,
    /// Whether the window (kernel) is read in reverse.
    pub reversal: bool,
}

impl Default for WindowDim {
    fn default() -> Self {
        WindowDim {
            size: 1,
            stride: 1,
            pad_low: 0,
            pad_high: 0,
            lhs_dilate: 1,
            rhs_dilate: 1,
            reversal: false,
        }
    }
}

/// The roles of the dimensions of one convolution operand or result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConvDims {
    /// Batch (`b`) for the input and output, input feature (`i`) for the kernel.
    pub batch: usize,
    /// Feature (`f`) for the input and output, output feature (`o`) for the kernel.
    pub feature: usize,
    /// The dimension of each spatial position `0, 1, ...`.
    pub spatial: Vec<usize>,
}

/// `dim_labels=b01f_01io->b01f`: input, kernel and output dimension roles.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConvDimLabels {
    /// The input's dimension roles (left of `_`).
    pub input: ConvDims,
    /// The kernel's dimension roles (between `_` and `->`).
    pub kernel: ConvDims,
    /// The output's dimension roles (after `->`).
    pub output: ConvDims,
}

/// The keys whose values are `{i, j, ...}` integer lists.
pub const INT_LIST_KEYS: &[&str] = &[
    "dimensions",
    "slice_sizes",
    "dynamic_slice_sizes",
    "offset_dims",
    "collapsed_slice_dims",
    "start_index_map",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "lhs_batch_dims",
    "rhs_batch_dims",
    "lhs_contracting_dims",
    "rhs_contracting_dims",
    "update_window_dims",
    "inserted_window_dims",
    "scatter_dims_to_operand_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
];

/// The keys whose values are single integers.
pub const INT_KEYS: &[&str] = &[
    "index",
    "index_vector_dim",
    "iota_dimension",
    "feature_group_count",
    "batch_group_count",
    "k",
    "num_carries",
];

/// The keys whose values name computations.
pub const COMPUTATION_KEYS: &[&str] = &[
    "to_apply",
    "calls",
    "condition",
    "body",
    "branch_computations",
    "true_computation",
    "false_computation",
];
