//! StableHLO-like ops (the generic form that JAX prints, read with
//! `--allow-unregistered-dialect`) as HLO text, so that the HLO analysis of `xla-indexing-hlo`
//! gives their indexing maps: one op becomes a module whose entry computation has a parameter
//! per operand and the op as its root.
//!
//! Attributes are looked up by their StableHLO names (an unregistered op's properties can be read
//! by name but not listed); `#stablehlo.dot<...>`, `#stablehlo.conv<...>` and
//! `#stablehlo.gather<...>` arrive as opaque attributes and are read from their text.

use std::fmt::Write as _;

use melior::ir::{
    Attribute, OperationRef, Type, TypeLike, ValueLike, attribute::AttributeLike,
    operation::OperationLike,
};
use mlir_sys::{
    mlirAttributeIsADenseBoolArray, mlirAttributeIsADenseIntElements, mlirDenseArrayGetNumElements,
    mlirDenseBoolArrayGetElement, mlirDenseElementsAttrGetInt64Value,
    mlirElementsAttrGetNumElements, mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType,
    mlirShapedTypeGetRank, mlirShapedTypeHasStaticShape, mlirTypeIsARankedTensor,
};

use crate::passes::ranges::{dense_array, integer_attribute};

/// Why an op has no HLO form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    #[error("the indexing analysis does not know '{0}'")]
    UnknownOp(String),
    #[error("{0}")]
    Unsupported(String),
}

/// The StableHLO ops that are HLO elementwise ops, with their HLO opcodes.
pub(crate) const ELEMENTWISE: &[(&str, &str)] = &[
    ("abs", "abs"),
    ("cbrt", "cbrt"),
    ("ceil", "ceil"),
    ("convert", "convert"),
    ("cosine", "cos"),
    ("count_leading_zeros", "clz"),
    ("exponential", "exponential"),
    ("exponential_minus_one", "exponential-minus-one"),
    ("floor", "floor"),
    ("imag", "imag"),
    ("is_finite", "is-finite"),
    ("log", "log"),
    ("log_plus_one", "log-plus-one"),
    ("logistic", "logistic"),
    ("negate", "negate"),
    ("not", "not"),
    ("popcnt", "popcnt"),
    ("real", "real"),
    ("reduce_precision", "reduce-precision"),
    ("round_nearest_afz", "round-nearest-afz"),
    ("round_nearest_even", "round-nearest-even"),
    ("rsqrt", "rsqrt"),
    ("sign", "sign"),
    ("sine", "sine"),
    ("sqrt", "sqrt"),
    ("tan", "tan"),
    ("tanh", "tanh"),
    ("add", "add"),
    ("atan2", "atan2"),
    ("compare", "compare"),
    ("complex", "complex"),
    ("divide", "divide"),
    ("maximum", "maximum"),
    ("minimum", "minimum"),
    ("multiply", "multiply"),
    ("power", "power"),
    ("remainder", "remainder"),
    ("subtract", "subtract"),
    ("and", "and"),
    ("or", "or"),
    ("xor", "xor"),
    ("shift_left", "shift-left"),
    ("shift_right_arithmetic", "shift-right-arithmetic"),
    ("shift_right_logical", "shift-right-logical"),
    ("select", "select"),
    ("clamp", "clamp"),
];

/// Whether `name` is a StableHLO op this module translates.
pub fn is_stablehlo(name: &str) -> bool {
    name.starts_with("stablehlo.")
}

/// The HLO shape of a ranked, static tensor type (`f32[10,20]`), or `None`.
pub fn hlo_shape(ty: Type) -> Option<String> {
    // SAFETY: `ty` is a live type; shape queries are made only on ranked tensors.
    unsafe {
        let raw = ty.to_raw();
        if !mlirTypeIsARankedTensor(raw) || !mlirShapedTypeHasStaticShape(raw) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(raw);
        let dims: Vec<String> = (0..rank)
            .map(|i| mlirShapedTypeGetDimSize(raw, i as isize).to_string())
            .collect();
        let element = Type::from_raw(mlirShapedTypeGetElementType(raw));
        Some(format!(
            "{}[{}]",
            hlo_element(&element.to_string()),
            dims.join(",")
        ))
    }
}

/// The HLO element type of an MLIR element type.
pub fn hlo_element(mlir: &str) -> String {
    match mlir {
        "i1" => "pred".into(),
        "index" => "s64".into(),
        "complex<f32>" => "c64".into(),
        "complex<f64>" => "c128".into(),
        _ => {
            if let Some(bits) = mlir.strip_prefix("ui") {
                format!("u{bits}")
            } else if let Some(bits) = mlir.strip_prefix('i') {
                format!("s{bits}")
            } else {
                mlir.to_lowercase()
            }
        }
    }
}

/// The integers of a dense array (`array<i64: 1, 0>`, `array<i1: ...>`) or dense integer
/// elements (`dense<1> : tensor<2x2xi64>`) attribute, flattened.
fn ints(attribute: Attribute) -> Option<Vec<i64>> {
    if let Some(v) = dense_array(attribute) {
        return Some(v);
    }
    let raw = attribute.to_raw();
    // SAFETY: elements are read only for the kind of attribute it is, within its length.
    unsafe {
        if mlirAttributeIsADenseBoolArray(raw) {
            let n = mlirDenseArrayGetNumElements(raw);
            return Some(
                (0..n)
                    .map(|i| i64::from(mlirDenseBoolArrayGetElement(raw, i)))
                    .collect(),
            );
        }
        if mlirAttributeIsADenseIntElements(raw) {
            let n = mlirElementsAttrGetNumElements(raw);
            return Some(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetInt64Value(raw, i as isize))
                    .collect(),
            );
        }
    }
    None
}

/// `{a,b,c}`.
fn braces(values: &[i64]) -> String {
    format!("{{{}}}", join_ints(values, ","))
}

fn join_ints(values: &[i64], separator: &str) -> String {
    let items: Vec<String> = values.iter().map(i64::to_string).collect();
    items.join(separator)
}

/// The dimension sizes of an HLO array shape `f32[2,3]`.
fn sizes(shape: &str) -> Vec<i64> {
    shape
        .split_once('[')
        .map(|(_, d)| {
            d.trim_end_matches(']')
                .split(',')
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The integer list named `key` inside an opaque attribute's text: `key = [1, 2]`.
fn opaque_list(text: &str, key: &str) -> Vec<i64> {
    let Some(start) = find_key(text, key) else {
        return Vec::new();
    };
    let rest = &text[start..];
    let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

/// The integer named `key` inside an opaque attribute's text: `key = 1`.
fn opaque_int(text: &str, key: &str) -> Option<i64> {
    let rest = &text[find_key(text, key)?..];
    let value = rest.split_once('=')?.1.trim_start();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(value.len());
    value[..end].parse().ok()
}

/// Where `key` starts as a whole word followed by `=`.
fn find_key(text: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(key) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with('=') {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}

/// Translates `op` (a StableHLO op with ranked, static tensor operands and results) into an HLO
/// module whose entry computation has parameter `i` for operand `i` and computes the op.
pub fn translate(op: &OperationRef) -> Result<String, Skip> {
    let name = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let short = name.strip_prefix("stablehlo.").unwrap_or(&name);
    let shape_of = |ty: Type| {
        hlo_shape(ty).ok_or_else(|| {
            Skip::Unsupported(format!(
                "'{name}' has a type that is not a static tensor: {ty}"
            ))
        })
    };
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let value = op
            .operand(i)
            .map_err(|e| Skip::Unsupported(e.to_string()))?;
        operands.push(shape_of(value.r#type())?);
    }
    let mut results = Vec::new();
    for i in 0..op.result_count() {
        let value = op.result(i).map_err(|e| Skip::Unsupported(e.to_string()))?;
        results.push(shape_of(value.r#type())?);
    }
    let result = match results.as_slice() {
        [one] => one.clone(),
        many => format!("({})", many.join(", ")),
    };
    let attr = |key: &str| op.attribute(key).ok();
    let ints_of = |key: &str| -> Result<Vec<i64>, Skip> {
        attr(key)
            .and_then(ints)
            .ok_or_else(|| Skip::Unsupported(format!("'{name}' has no integer list '{key}'")))
    };
    let opaque = |key: &str| attr(key).map(|a| a.to_string()).unwrap_or_default();
    let mut calls = false;
    let mut prelude: Vec<String> = Vec::new();
    let mut uses: Vec<String> = (0..operands.len()).map(|i| format!("%p{i}")).collect();
    let (opcode, attributes): (&str, String) = if let Some((_, hlo)) =
        ELEMENTWISE.iter().find(|(s, _)| *s == short)
    {
        let extra = if short == "compare" {
            let direction = opaque("comparison_direction");
            let direction = direction
                .rsplit(' ')
                .next()
                .unwrap_or("EQ")
                .trim_end_matches('>');
            format!(", direction={direction}")
        } else {
            String::new()
        };
        (hlo, extra)
    } else {
        match short {
            "bitcast_convert" => ("bitcast-convert", String::new()),
            "reshape" => ("reshape", String::new()),
            "broadcast_in_dim" => {
                // StableHLO also broadcasts dimensions of size 1 to any size; HLO first reshapes
                // them away.
                let dims = ints_of("broadcast_dimensions")?;
                let (from, to) = (sizes(&operands[0]), sizes(&results[0]));
                let kept: Vec<usize> = (0..dims.len())
                    .filter(|&i| {
                        let target = usize::try_from(dims[i]).ok().and_then(|d| to.get(d));
                        !(from.get(i) == Some(&1) && target.is_some_and(|&t| t != 1))
                    })
                    .collect();
                if kept.len() != dims.len() {
                    let element = operands[0].split('[').next().unwrap_or("f32");
                    let kept_sizes: Vec<i64> = kept.iter().map(|&i| from[i]).collect();
                    let shape = format!("{element}[{}]", join_ints(&kept_sizes, ","));
                    prelude.push(format!("%squeezed = {shape} reshape(%p0)"));
                    uses[0] = "%squeezed".into();
                }
                let kept_dims: Vec<i64> = kept.iter().map(|&i| dims[i]).collect();
                ("broadcast", format!(", dimensions={}", braces(&kept_dims)))
            }
            "transpose" => (
                "transpose",
                format!(", dimensions={}", braces(&ints_of("permutation")?)),
            ),
            "reverse" => (
                "reverse",
                format!(", dimensions={}", braces(&ints_of("dimensions")?)),
            ),
            "slice" => {
                let (starts, limits, strides) = (
                    ints_of("start_indices")?,
                    ints_of("limit_indices")?,
                    ints_of("strides")?,
                );
                let dims: Vec<String> = starts
                    .iter()
                    .zip(&limits)
                    .zip(&strides)
                    .map(|((s, l), st)| format!("[{s}:{l}:{st}]"))
                    .collect();
                ("slice", format!(", slice={{{}}}", dims.join(", ")))
            }
            "pad" => {
                let (low, high, interior) = (
                    ints_of("edge_padding_low")?,
                    ints_of("edge_padding_high")?,
                    ints_of("interior_padding")?,
                );
                let dims: Vec<String> = low
                    .iter()
                    .zip(&high)
                    .zip(&interior)
                    .map(|((l, h), i)| format!("{l}_{h}_{i}"))
                    .collect();
                ("pad", format!(", padding={}", dims.join("x")))
            }
            "concatenate" => {
                let d = attr("dimension")
                    .and_then(integer_attribute)
                    .ok_or_else(|| Skip::Unsupported(format!("'{name}' has no 'dimension'")))?;
                ("concatenate", format!(", dimensions={{{d}}}"))
            }
            "dynamic_slice" => (
                "dynamic-slice",
                format!(", dynamic_slice_sizes={}", braces(&ints_of("slice_sizes")?)),
            ),
            "dynamic_update_slice" => ("dynamic-update-slice", String::new()),
            "reduce" => {
                calls = true;
                (
                    "reduce",
                    format!(
                        ", dimensions={}, to_apply=%reducer",
                        braces(&ints_of("dimensions")?)
                    ),
                )
            }
            "dot_general" => {
                let text = opaque("dot_dimension_numbers");
                let list = |key| braces(&opaque_list(&text, key));
                (
                    "dot",
                    format!(
                        ", lhs_batch_dims={}, rhs_batch_dims={}, lhs_contracting_dims={}, rhs_contracting_dims={}",
                        list("lhs_batching_dimensions"),
                        list("rhs_batching_dimensions"),
                        list("lhs_contracting_dimensions"),
                        list("rhs_contracting_dimensions"),
                    ),
                )
            }
            "gather" => {
                let text = opaque("dimension_numbers");
                let list = |key| braces(&opaque_list(&text, key));
                let index_vector_dim = opaque_int(&text, "index_vector_dim").unwrap_or(0);
                (
                    "gather",
                    format!(
                        ", offset_dims={}, collapsed_slice_dims={}, start_index_map={}, operand_batching_dims={}, start_indices_batching_dims={}, index_vector_dim={index_vector_dim}, slice_sizes={}",
                        list("offset_dims"),
                        list("collapsed_slice_dims"),
                        list("start_index_map"),
                        list("operand_batching_dims"),
                        list("start_indices_batching_dims"),
                        braces(&ints_of("slice_sizes")?),
                    ),
                )
            }
            "convolution" => ("convolution", convolution(op, &name, &operands)?),
            "reduce_window" => {
                calls = true;
                let size = ints_of("window_dimensions")?;
                let rank = size.len();
                let or_ones = |key: &str| ints_of(key).unwrap_or_else(|_| vec![1; rank]);
                let padding = ints_of("padding").unwrap_or_else(|_| vec![0; 2 * rank]);
                let window = window_text(
                    &size,
                    &or_ones("window_strides"),
                    &padding,
                    &or_ones("base_dilations"),
                    &or_ones("window_dilations"),
                    &[],
                );
                (
                    "reduce-window",
                    format!(", window={window}, to_apply=%reducer"),
                )
            }
            _ => return Err(Skip::UnknownOp(name)),
        }
    };
    let mut text = String::from("HloModule annotate\n\n");
    if calls {
        text.push_str(
            "%reducer (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  \
             %b = f32[] parameter(1)\n  ROOT %r = f32[] add(%a, %b)\n}\n\n",
        );
    }
    let params: Vec<String> = operands
        .iter()
        .enumerate()
        .map(|(i, s)| format!("p{i}: {s}"))
        .collect();
    let _ = writeln!(text, "ENTRY %main ({}) -> {result} {{", params.join(", "));
    for (i, s) in operands.iter().enumerate() {
        let _ = writeln!(text, "  %p{i} = {s} parameter({i})");
    }
    for instruction in &prelude {
        let _ = writeln!(text, "  {instruction}");
    }
    let _ = writeln!(
        text,
        "  ROOT %op = {result} {opcode}({}){attributes}\n}}",
        uses.join(", ")
    );
    Ok(text)
}

/// `size=3x3 stride=1x1 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1 [rhs_reversal=0x0]`.
fn window_text(
    size: &[i64],
    stride: &[i64],
    padding: &[i64],
    lhs_dilate: &[i64],
    rhs_dilate: &[i64],
    reversal: &[i64],
) -> String {
    let join = |v: &[i64]| join_ints(v, "x");
    let pad: Vec<String> = padding
        .chunks(2)
        .map(|p| format!("{}_{}", p[0], p.get(1).copied().unwrap_or(0)))
        .collect();
    let mut text = format!(
        "{{size={} stride={} pad={} lhs_dilate={} rhs_dilate={}",
        join(size),
        join(stride),
        pad.join("x"),
        join(lhs_dilate),
        join(rhs_dilate)
    );
    if !reversal.is_empty() {
        let _ = write!(text, " rhs_reversal={}", join(reversal));
    }
    text.push('}');
    text
}

/// The attributes of a `convolution`: `window`, `dim_labels` and the group counts.
fn convolution(op: &OperationRef, name: &str, operands: &[String]) -> Result<String, Skip> {
    let unsupported = |what: &str| Skip::Unsupported(format!("'{name}': {what}"));
    let labels = op
        .attribute("dimension_numbers")
        .map_err(|_| unsupported("no dimension_numbers"))?
        .to_string();
    // `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` is HLO's `b01f_01io->b01f`.
    let inner = labels
        .strip_prefix("#stablehlo.conv<")
        .and_then(|s| s.strip_suffix('>'))
        .ok_or_else(|| unsupported("unreadable dimension_numbers"))?;
    let compact: String = inner
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ',' | ' '))
        .collect();
    let (operands_part, output) = compact
        .split_once("->")
        .ok_or_else(|| unsupported("unreadable dimension_numbers"))?;
    let (input, kernel) = operands_part
        .split_once('x')
        .ok_or_else(|| unsupported("unreadable dimension_numbers"))?;
    // Kernel sizes of the spatial dimensions, in spatial order.
    let kernel_dims = operands.get(1).map(|s| sizes(s)).unwrap_or_default();
    let mut spatial: Vec<(u32, i64)> = kernel
        .chars()
        .zip(&kernel_dims)
        .filter_map(|(c, &size)| c.to_digit(10).map(|d| (d, size)))
        .collect();
    spatial.sort_unstable();
    let size: Vec<i64> = spatial.iter().map(|(_, s)| *s).collect();
    let rank = size.len();
    let ints_or =
        |key: &str, default: Vec<i64>| op.attribute(key).ok().and_then(ints).unwrap_or(default);
    let padding = ints_or("padding", vec![0; 2 * rank]);
    let padding = if padding.len() == 1 {
        vec![padding[0]; 2 * rank]
    } else {
        padding
    };
    let window = window_text(
        &size,
        &ints_or("window_strides", vec![1; rank]),
        &padding,
        &ints_or("lhs_dilation", vec![1; rank]),
        &ints_or("rhs_dilation", vec![1; rank]),
        &ints_or("window_reversal", Vec::new()),
    );
    let group = |key: &str| {
        op.attribute(key)
            .ok()
            .and_then(integer_attribute)
            .unwrap_or(1)
    };
    Ok(format!(
        ", window={window}, dim_labels={input}_{kernel}->{output}, feature_group_count={}, batch_group_count={}",
        group("feature_group_count"),
        group("batch_group_count")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_attributes_are_read_by_key() {
        let dot = "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
                   lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>";
        assert_eq!(opaque_list(dot, "lhs_contracting_dimensions"), vec![2]);
        assert_eq!(opaque_list(dot, "rhs_batching_dimensions"), vec![0]);
        assert_eq!(opaque_list(dot, "offset_dims"), Vec::<i64>::new());
        let gather = "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], \
                      start_index_map = [0], index_vector_dim = 1>";
        assert_eq!(opaque_int(gather, "index_vector_dim"), Some(1));
        assert_eq!(opaque_list(gather, "start_index_map"), vec![0]);
    }

    #[test]
    fn element_types_have_hlo_names() {
        assert_eq!(hlo_element("f32"), "f32");
        assert_eq!(hlo_element("i32"), "s32");
        assert_eq!(hlo_element("ui8"), "u8");
        assert_eq!(hlo_element("i1"), "pred");
        assert_eq!(hlo_element("bf16"), "bf16");
    }
}
