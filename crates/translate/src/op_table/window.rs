//! Windows (`reduce-window`, `convolution`) and a convolution's dimension labels, in both
//! directions.

use std::fmt::Write as _;

use xla_indexing_hlo::attrs::{AttrValue, ConvDims, WindowDim};

use super::{
    Skip,
    convert::{ToHlo, ToMlir, array_text, join_ints, sizes},
};

/// The HLO attribute of a window.
const WINDOW: &str = "window";
/// The StableHLO attribute of a window's padding, a `tensor<Nx2xi64>` of (low, high) pairs.
const PADDING: &str = "padding";
/// The HLO attribute of a convolution's dimension labels.
const DIM_LABELS: &str = "dim_labels";
/// The StableHLO attribute of a convolution's dimension labels.
const CONV_LABELS: &str = "dimension_numbers";

/// One field of a window's dimensions.
type Field = fn(&WindowDim) -> i64;

/// The StableHLO arrays of a window's fields, as one op names them.
pub(crate) struct WindowNames {
    /// The window's sizes, or `None` where the kernel's shape gives them.
    size: Option<&'static str>,
    /// Its strides.
    stride: &'static str,
    /// Its base (input) dilations.
    lhs_dilate: &'static str,
    /// Its window (kernel) dilations.
    rhs_dilate: &'static str,
    /// The dimensions read in reverse, read but not written (the import does not know them).
    reversal: Option<&'static str>,
}

/// The window of a `reduce_window`.
pub(crate) const REDUCE_WINDOW: WindowNames = WindowNames {
    size: Some("window_dimensions"),
    stride: "window_strides",
    lhs_dilate: "base_dilations",
    rhs_dilate: "window_dilations",
    reversal: None,
};

/// The window of a `convolution`, whose sizes are the kernel's.
pub(crate) const CONVOLUTION: WindowNames = WindowNames {
    size: None,
    stride: "window_strides",
    lhs_dilate: "lhs_dilation",
    rhs_dilate: "rhs_dilation",
    reversal: Some("window_reversal"),
};

impl WindowNames {
    /// A StableHLO array per field of the HLO window, then its padding.
    pub(super) fn to_mlir(&self, to: &mut ToMlir) -> Option<()> {
        let AttrValue::Window(window) = to.instr.attr(WINDOW)? else {
            return None;
        };
        let fields: [(Option<&str>, Field); 4] = [
            (self.size, |d| d.size),
            (Some(self.stride), |d| d.stride),
            (Some(self.lhs_dilate), |d| d.lhs_dilate),
            (Some(self.rhs_dilate), |d| d.rhs_dilate),
        ];
        for (key, field) in fields {
            if let Some(key) = key {
                let values: Vec<i64> = window.iter().map(field).collect();
                to.push(key, array_text(&values));
            }
        }
        let pads: Vec<String> = window
            .iter()
            .map(|d| format!("[{}, {}]", d.pad_low, d.pad_high))
            .collect();
        to.push(
            PADDING,
            format!(
                "dense<[{}]> : tensor<{}x2xi64>",
                pads.join(", "),
                window.len()
            ),
        );
        Some(())
    }

    /// The HLO window of the StableHLO arrays: `window={size=3x3 stride=1x1 pad=1_1x1_1
    /// lhs_dilate=1x1 rhs_dilate=1x1 [rhs_reversal=0x0]}`; absent arrays are the defaults.
    pub(super) fn to_hlo(&self, to: &mut ToHlo) -> Result<(), Skip> {
        let size = match self.size {
            Some(key) => to.required_ints(key)?,
            None => kernel_sizes(to)?,
        };
        let rank = size.len();
        let or = |key: &str, default: i64, len: usize| {
            to.ints(key).unwrap_or_else(|| vec![default; len])
        };
        let padding = match or(PADDING, 0, 2 * rank).as_slice() {
            &[splat] => vec![splat; 2 * rank],
            padding => padding.to_vec(),
        };
        let pad: Vec<String> = padding
            .chunks(2)
            .map(|p| format!("{}_{}", p[0], p.get(1).copied().unwrap_or(0)))
            .collect();
        let join = |v: &[i64]| join_ints(v, "x");
        let mut text = format!(
            "{{size={} stride={} pad={} lhs_dilate={} rhs_dilate={}",
            join(&size),
            join(&or(self.stride, 1, rank)),
            pad.join("x"),
            join(&or(self.lhs_dilate, 1, rank)),
            join(&or(self.rhs_dilate, 1, rank))
        );
        let reversal = self.reversal.map(|key| or(key, 0, 0)).unwrap_or_default();
        if !reversal.is_empty() {
            let _ = write!(text, " rhs_reversal={}", join(&reversal));
        }
        text.push('}');
        to.push(WINDOW, text);
        Ok(())
    }
}

/// `dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` for the HLO
/// dimension labels.
pub(super) fn labels_to_mlir(to: &mut ToMlir) -> Option<()> {
    let AttrValue::DimLabels(labels) = to.instr.attr(DIM_LABELS)? else {
        return None;
    };
    let ranks: Vec<usize> = to
        .operand_shapes
        .iter()
        .copied()
        .chain([&to.instr.shape])
        .map(|s| s.as_array().map_or(0, |a| a.dims.len()))
        .collect();
    let text = format!(
        "#stablehlo.conv<{}x{}->{}>",
        side_labels(&labels.input, ranks[0], 'b', 'f'),
        side_labels(&labels.kernel, ranks.get(1).copied().unwrap_or(0), 'i', 'o'),
        side_labels(&labels.output, *ranks.last().unwrap_or(&0), 'b', 'f'),
    );
    to.push(CONV_LABELS, text);
    Some(())
}

/// `dim_labels=b01f_01io->b01f` for the StableHLO dimension labels.
pub(super) fn labels_to_hlo(to: &mut ToHlo) -> Result<(), Skip> {
    let [input, kernel, output] = hlo_labels(to)?;
    to.push(DIM_LABELS, format!("{input}_{kernel}->{output}"));
    Ok(())
}

/// `[b, 0, 1, f]`: the labels of one side of a convolution.
fn side_labels(dims: &ConvDims, rank: usize, batch: char, feature: char) -> String {
    let mut labels = vec![String::from("?"); rank];
    let mut set = |i: usize, label: String| {
        if let Some(slot) = labels.get_mut(i) {
            *slot = label;
        }
    };
    set(dims.batch, batch.to_string());
    set(dims.feature, feature.to_string());
    for (spatial, &d) in dims.spatial.iter().enumerate() {
        set(d, spatial.to_string());
    }
    format!("[{}]", labels.join(", "))
}

/// The input, kernel and output labels of a convolution as HLO writes them: `#stablehlo.conv<[b,
/// 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` is `b01f`, `01io` and `b01f`.
fn hlo_labels(to: &ToHlo) -> Result<[String; 3], Skip> {
    let text = to
        .attr(CONV_LABELS)
        .ok_or_else(|| to.unsupported(&format!("no {CONV_LABELS}")))?
        .to_string();
    let unreadable = || to.unsupported(&format!("unreadable {CONV_LABELS}"));
    let inner = text
        .strip_prefix("#stablehlo.conv<")
        .and_then(|s| s.strip_suffix('>'))
        .ok_or_else(unreadable)?;
    let compact: String = inner
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ',' | ' '))
        .collect();
    let (operands, output) = compact.split_once("->").ok_or_else(unreadable)?;
    let (input, kernel) = operands.split_once('x').ok_or_else(unreadable)?;
    Ok([input.into(), kernel.into(), output.into()])
}

/// The kernel's sizes of the spatial dimensions, in spatial order: a convolution's window.
fn kernel_sizes(to: &ToHlo) -> Result<Vec<i64>, Skip> {
    let [_, kernel, _] = hlo_labels(to)?;
    let kernel_dims = to.operands.get(1).map(|s| sizes(s)).unwrap_or_default();
    let mut spatial: Vec<(u32, i64)> = kernel
        .chars()
        .zip(&kernel_dims)
        .filter_map(|(c, &size)| c.to_digit(10).map(|d| (d, size)))
        .collect();
    spatial.sort_unstable();
    Ok(spatial.iter().map(|(_, s)| *s).collect())
}
