//! StableHLO-like ops (the generic form that JAX prints, read with
//! `--allow-unregistered-dialect`) as HLO text, so that the HLO crate can analyse them and
//! generate code for them. [`translate`] makes of one op a module whose entry computation has a
//! parameter per operand and the op as its root (the annotate pass analyses it); [`HloWriter`]
//! makes of a region of such ops (the body of an `xla_indexing.fusion`) a computation with an
//! instruction per op (the lower-fusion pass generates its kernel). Both write an op's
//! instruction the same way.
//!
//! Attributes are looked up by their StableHLO names (an unregistered op's properties can be read
//! by name but not listed); `#stablehlo.dot<...>`, `#stablehlo.conv<...>` and
//! `#stablehlo.gather<...>` arrive as opaque attributes and are read from their text.

use std::{
    collections::{HashMap, HashSet},
    fmt::Write as _,
};

use crate::ir::{dense_array, integer_attribute, op_name};
use melior::ir::{
    Attribute, BlockLike, Location, OperationRef, RegionLike, Type, TypeLike, ValueLike,
    attribute::AttributeLike, operation::OperationLike,
};
use mlir_sys::{
    mlirAttributeGetType, mlirAttributeIsADenseBoolArray, mlirAttributeIsADenseElements,
    mlirAttributeIsADenseIntElements, mlirAttributeIsAFloat, mlirAttributeIsAInteger,
    mlirDenseArrayGetNumElements, mlirDenseBoolArrayGetElement, mlirDenseElementsAttrGetInt64Value,
    mlirDenseElementsAttrGetSplatValue, mlirDenseElementsAttrIsSplat,
    mlirElementsAttrGetNumElements, mlirFloatAttrGetValueDouble, mlirIntegerAttrGetValueInt,
    mlirIntegerAttrGetValueSInt, mlirIntegerAttrGetValueUInt, mlirIntegerTypeIsSigned,
    mlirIntegerTypeIsUnsigned, mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType,
    mlirShapedTypeGetRank, mlirShapedTypeHasStaticShape, mlirTypeIsARankedTensor,
};

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

/// The StableHLO ops that are HLO elementwise ops, with their HLO opcodes.
pub(crate) const ELEMENTWISE: &[(&str, &str)] = &[
    ("abs", "abs"),
    ("cbrt", "cbrt"),
    ("ceil", "ceil"),
    ("convert", "convert"),
    ("cosine", "cosine"),
    ("count_leading_zeros", "count-leading-zeros"),
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
/// module whose entry computation has parameter `i` for operand `i` and computes the op. The
/// region of a `reduce` or `reduce_window` is not translated: the op's indexing maps do not
/// depend on it, so the module calls a stand-in `add` reducer ([`HloWriter`] translates the
/// real one).
pub fn translate(op: &OperationRef) -> Result<String, Skip> {
    let uses: Vec<String> = (0..op.operand_count()).map(|i| format!("%p{i}")).collect();
    let instruction = instruction(op, "op", &uses, "%reducer")?;
    let mut text = String::from("HloModule annotate\n\n");
    if instruction.calls {
        text.push_str(
            "%reducer (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  \
             %b = f32[] parameter(1)\n  ROOT %r = f32[] add(%a, %b)\n}\n\n",
        );
    }
    let params: Vec<String> = instruction
        .operands
        .iter()
        .enumerate()
        .map(|(i, s)| format!("p{i}: {s}"))
        .collect();
    let _ = writeln!(
        text,
        "ENTRY %main ({}) -> {} {{",
        params.join(", "),
        instruction.result
    );
    for (i, s) in instruction.operands.iter().enumerate() {
        let _ = writeln!(text, "  %p{i} = {s} parameter({i})");
    }
    for (name, body) in &instruction.prelude {
        let _ = writeln!(text, "  %{name} = {body}");
    }
    let _ = writeln!(text, "  ROOT %op = {}\n}}", instruction.text);
    Ok(text)
}

/// One op as an HLO instruction, as [`instruction`] writes it.
struct HloInstruction {
    /// The HLO shapes of the op's operands.
    operands: Vec<String>,
    /// The HLO shape of its result (a tuple for several results).
    result: String,
    /// Instructions it needs first, as (name, `SHAPE OPCODE(...)...`), in order (a `reshape` that
    /// drops the broadcast dimensions of size 1, say).
    prelude: Vec<(String, String)>,
    /// `SHAPE OPCODE(OPERANDS), ATTRIBUTES`: the instruction after `%NAME = `.
    text: String,
    /// Whether it calls the `to_apply` computation (`reduce`, `reduce_window`).
    calls: bool,
}

/// Whether the StableHLO op `short` (without `stablehlo.`) calls its region as a computation.
fn calls_region(short: &str) -> bool {
    matches!(short, "reduce" | "reduce_window")
}

/// `op` as the HLO instruction named `name` whose operands are the HLO values `uses` (one per
/// operand of `op`: `%p0`) and which calls `to_apply` (`%reducer`) if it calls a computation.
fn instruction(
    op: &OperationRef,
    name: &str,
    uses: &[String],
    to_apply: &str,
) -> Result<HloInstruction, Skip> {
    let op_name = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let short = op_name.strip_prefix("stablehlo.").unwrap_or(&op_name);
    let shape_of = |ty: Type| {
        hlo_shape(ty).ok_or_else(|| {
            Skip::Unsupported(format!(
                "'{op_name}' has a type that is not a static tensor: {ty}"
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
    if uses.len() != operands.len() {
        return Err(Skip::Unsupported(format!(
            "'{op_name}' has {} operands, but {} HLO values were given",
            operands.len(),
            uses.len()
        )));
    }
    let attr = |key: &str| op.attribute(key).ok();
    let ints_of = |key: &str| -> Result<Vec<i64>, Skip> {
        attr(key)
            .and_then(ints)
            .ok_or_else(|| Skip::Unsupported(format!("'{op_name}' has no integer list '{key}'")))
    };
    let opaque = |key: &str| attr(key).map(|a| a.to_string()).unwrap_or_default();
    let mut prelude: Vec<(String, String)> = Vec::new();
    let mut uses = uses.to_vec();
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
            "constant" => {
                let element = result.split('[').next().unwrap_or_default();
                let literal = attr("value")
                    .and_then(|v| splat_literal(v, element))
                    .ok_or_else(|| {
                        Skip::Unsupported(format!(
                            "'{op_name}' holds a value of {result} that is not a scalar or a splat \
                             of an integer, float or pred type"
                        ))
                    })?;
                if sizes(&result).is_empty() {
                    // The literal goes where the operands would.
                    uses = vec![literal];
                    ("constant", String::new())
                } else {
                    // A splat is its one value broadcast.
                    let scalar = format!("{name}.scalar");
                    prelude.push((scalar.clone(), format!("{element}[] constant({literal})")));
                    uses = vec![format!("%{scalar}")];
                    ("broadcast", ", dimensions={}".into())
                }
            }
            "iota" => {
                let d = attr("iota_dimension")
                    .and_then(integer_attribute)
                    .ok_or_else(|| {
                        Skip::Unsupported(format!("'{op_name}' has no 'iota_dimension'"))
                    })?;
                ("iota", format!(", iota_dimension={d}"))
            }
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
                    let squeezed = format!("{name}.squeezed");
                    prelude.push((squeezed.clone(), format!("{shape} reshape({})", uses[0])));
                    uses[0] = format!("%{squeezed}");
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
                    .ok_or_else(|| Skip::Unsupported(format!("'{op_name}' has no 'dimension'")))?;
                ("concatenate", format!(", dimensions={{{d}}}"))
            }
            "dynamic_slice" => (
                "dynamic-slice",
                format!(", dynamic_slice_sizes={}", braces(&ints_of("slice_sizes")?)),
            ),
            "dynamic_update_slice" => ("dynamic-update-slice", String::new()),
            "reduce" => (
                "reduce",
                format!(
                    ", dimensions={}, to_apply={to_apply}",
                    braces(&ints_of("dimensions")?)
                ),
            ),
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
            "convolution" => ("convolution", convolution(op, &op_name, &operands)?),
            "reduce_window" => {
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
                    format!(", window={window}, to_apply={to_apply}"),
                )
            }
            _ => return Err(Skip::UnknownOp(op_name)),
        }
    };
    let text = format!("{result} {opcode}({}){attributes}", uses.join(", "));
    Ok(HloInstruction {
        operands,
        result,
        prelude,
        text,
        calls: calls_region(short),
    })
}

/// The HLO literal of a `stablehlo.constant`'s `value` when it holds one value (a scalar or a
/// splat) of the HLO element type `element`: `0`, `-1.5`, `-inf`, `nan`, `true`.
fn splat_literal(value: Attribute, element: &str) -> Option<String> {
    let raw = value.to_raw();
    // SAFETY: `value` is a live attribute; the splat value is read only from a splat dense
    // elements attribute, and read as the kind of attribute it is.
    unsafe {
        if !mlirAttributeIsADenseElements(raw) || !mlirDenseElementsAttrIsSplat(raw) {
            return None;
        }
        let splat = mlirDenseElementsAttrGetSplatValue(raw);
        if mlirAttributeIsAFloat(splat) {
            return Some(float_literal(mlirFloatAttrGetValueDouble(splat)));
        }
        if !mlirAttributeIsAInteger(splat) {
            return None;
        }
        let ty = mlirAttributeGetType(splat);
        Some(if element == "pred" {
            (mlirIntegerAttrGetValueInt(splat) != 0).to_string()
        } else if mlirIntegerTypeIsUnsigned(ty) {
            mlirIntegerAttrGetValueUInt(splat).to_string()
        } else if mlirIntegerTypeIsSigned(ty) {
            mlirIntegerAttrGetValueSInt(splat).to_string()
        } else {
            mlirIntegerAttrGetValueInt(splat).to_string()
        })
    }
}

/// A float as HLO writes it in a literal: the shortest text that reads back as the same value,
/// `inf`, `-inf` or `nan`.
fn float_literal(value: f64) -> String {
    if value.is_nan() {
        "nan".into()
    } else if value.is_infinite() {
        if value < 0.0 { "-inf" } else { "inf" }.into()
    } else {
        format!("{value:?}")
    }
}

/// Why a region has no HLO form: the op, where it is (`"f.hlo":12:3`, or empty when unknown),
/// and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{op}'{}: {reason}", at(location))]
pub struct RegionError {
    /// The op's name.
    pub op: String,
    /// Where it is.
    pub location: String,
    /// Why it has no HLO form.
    pub reason: String,
}

/// ` at LOCATION`, or nothing for an unknown location.
fn at(location: &str) -> String {
    if location.is_empty() {
        String::new()
    } else {
        format!(" at {location}")
    }
}

impl RegionError {
    fn new(op: &OperationRef, reason: impl Into<String>) -> RegionError {
        RegionError {
            op: op_name(op),
            location: location_text(op.location()),
            reason: reason.into(),
        }
    }

    /// Why `op` has no HLO form, without the op's name where the reason starts with it.
    fn skipped(op: &OperationRef, skip: Skip) -> RegionError {
        let mut error = RegionError::new(op, skip.to_string());
        if let Some(rest) = error.reason.strip_prefix(&format!("'{}' ", error.op)) {
            error.reason = rest.to_owned();
        }
        error
    }
}

/// The text of a location without `loc(...)`, or empty for an unknown one.
pub fn location_text(location: Location) -> String {
    let text = location.to_string();
    let inner = text
        .strip_prefix("loc(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(&text);
    if inner == "unknown" {
        String::new()
    } else {
        inner.to_owned()
    }
}

/// Names unique in one scope: a name asked for again gets the first numeric suffix not given
/// to it yet (`add`, `add.1`, `add.2`, ...). Each base name keeps its next suffix, so that `n`
/// names made from one base take time linear in `n`, not quadratic (a chain of thousands of
/// negates names as many `negate`s).
#[derive(Debug, Default)]
pub(crate) struct UniqueNames {
    taken: HashSet<String>,
    /// Per base name, the next suffix to try: those below it are taken (names are never given
    /// back).
    next: HashMap<String, usize>,
}

impl UniqueNames {
    /// `base` when it is free, else `base`, `separator` and the first suffix that is; the name
    /// is taken from now on.
    pub(crate) fn fresh(&mut self, base: String, separator: char) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let next = self.next.entry(base.clone()).or_insert(1);
        loop {
            let name = format!("{base}{separator}{next}");
            *next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }

    /// Takes `name` as it is (a name made elsewhere), so that [`UniqueNames::fresh`] does not
    /// give it.
    pub(crate) fn take(&mut self, name: String) {
        self.taken.insert(name);
    }
}

/// Writes regions of StableHLO-like ops as the computations of an HLO module, for code
/// generation: a computation has a parameter per block argument and an instruction per op
/// (the instruction [`translate`] makes of it, after the instructions it needs first; the
/// results of an op with several are taken out of its tuple by `get-tuple-element`), and the
/// operands of the terminator (`xla_indexing.yield`, `stablehlo.return`) are its root (a tuple
/// for several). The region of a `reduce` or `reduce_window` becomes the computation it calls,
/// written the same way: `"stablehlo.maximum"` on `tensor<f32>` and `"stablehlo.return"` become
/// `%maximum = f32[] maximum(%param_0, %param_1)` as its root.
///
/// Instructions and computations get names unique in the module, made from the op names
/// (`exponential`, `exponential.1`); [`HloWriter::origin`] says which op an instruction was
/// written for.
#[derive(Debug, Default)]
pub struct HloWriter {
    /// The computations written so far, callees before callers.
    computations: String,
    /// The names in use.
    names: UniqueNames,
    /// What each instruction was written for (`'stablehlo.add'`, `result 1 of
    /// 'stablehlo.reduce'`) and the op's location.
    origins: HashMap<String, (String, String)>,
}

impl HloWriter {
    /// A fresh name made from `base` (characters HLO names do not allow replaced by `_`), with a
    /// `.N` suffix when `base` is taken.
    pub fn fresh(&mut self, base: &str) -> String {
        let mut base: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() {
            base.push('_');
        }
        self.names.fresh(base, '.')
    }

    /// What the instruction `name` was written for (`'stablehlo.add'`, or `result 1 of
    /// 'stablehlo.reduce'` for the `get-tuple-element` of an op's result) and the op's location
    /// text (empty when unknown).
    pub fn origin(&self, name: &str) -> Option<(&str, &str)> {
        self.origins
            .get(name)
            .map(|(op, location)| (op.as_str(), location.as_str()))
    }

    /// Writes the body of `op`'s region `index` as a computation named after `base`; returns its
    /// name and the HLO shape of its root.
    pub fn region(
        &mut self,
        op: &OperationRef,
        index: usize,
        base: &str,
    ) -> Result<(String, String), RegionError> {
        let region = op
            .region(index)
            .map_err(|_| RegionError::new(op, format!("has no region {index}")))?;
        let block = region
            .first_block()
            .ok_or_else(|| RegionError::new(op, "its region is empty"))?;
        if block.next_in_region().is_some() {
            return Err(RegionError::new(op, "its region has several blocks"));
        }
        let name = self.fresh(base);
        let mut values: HashMap<usize, String> = HashMap::new();
        let mut lines: Vec<(String, String)> = Vec::new();
        let mut params = Vec::new();
        for i in 0..block.argument_count() {
            let argument = block
                .argument(i)
                .map_err(|e| RegionError::new(op, e.to_string()))?;
            let shape = hlo_shape(argument.r#type()).ok_or_else(|| {
                RegionError::new(
                    op,
                    format!(
                        "region argument {i} has a type that is not a static tensor: {}",
                        argument.r#type()
                    ),
                )
            })?;
            let param = self.fresh(&format!("param_{i}"));
            params.push(format!("{param}: {shape}"));
            lines.push((param.clone(), format!("{shape} parameter({i})")));
            values.insert(value_key(argument), format!("%{param}"));
        }
        let mut root = None;
        let mut next = block.first_operation();
        while let Some(current) = next {
            next = current.next_in_block();
            match op_name(&current).as_str() {
                "xla_indexing.yield" | "stablehlo.return" => {
                    root = Some(self.root(&current, &values, &mut lines)?);
                }
                _ => self.op(&current, &mut values, &mut lines)?,
            }
        }
        let (root, shape) =
            root.ok_or_else(|| RegionError::new(op, "its region has no terminator"))?;
        let _ = writeln!(
            self.computations,
            "%{name} ({}) -> {shape} {{",
            params.join(", ")
        );
        for (instruction, text) in &lines {
            let marker = if *instruction == root { "ROOT " } else { "" };
            let _ = writeln!(self.computations, "  {marker}%{instruction} = {text}");
        }
        self.computations.push_str("}\n\n");
        Ok((name, shape))
    }

    /// The computations written so far, callees before callers.
    pub fn computations(&self) -> &str {
        &self.computations
    }

    /// The instruction of `op` (and those it needs first), whose results are then named in
    /// `values`.
    fn op(
        &mut self,
        op: &OperationRef,
        values: &mut HashMap<usize, String>,
        lines: &mut Vec<(String, String)>,
    ) -> Result<(), RegionError> {
        let full = op_name(op);
        if !is_stablehlo(&full) {
            return Err(RegionError::new(
                op,
                "only StableHLO-like ops have an HLO form",
            ));
        }
        let short = full.trim_start_matches("stablehlo.");
        let mut uses = Vec::with_capacity(op.operand_count());
        for operand in op.operands() {
            let name = values
                .get(&value_key(operand))
                .ok_or_else(|| RegionError::new(op, "uses a value defined outside its region"))?;
            uses.push(name.clone());
        }
        let to_apply = if calls_region(short) {
            let (callee, _) = self.region(op, 0, &format!("{short}_computation"))?;
            format!("%{callee}")
        } else {
            String::new()
        };
        let name = self.fresh(short);
        let instruction = instruction(op, &name, &uses, &to_apply)
            .map_err(|skip| RegionError::skipped(op, skip))?;
        let location = location_text(op.location());
        let origin = (format!("'{full}'"), location.clone());
        for (prelude, text) in instruction.prelude {
            self.names.take(prelude.clone());
            self.origins.insert(prelude.clone(), origin.clone());
            lines.push((prelude, text));
        }
        lines.push((name.clone(), instruction.text));
        self.origins.insert(name.clone(), origin.clone());
        match op.result_count() {
            0 => return Err(RegionError::new(op, "has no results")),
            1 => {
                let result = op
                    .result(0)
                    .map_err(|e| RegionError::new(op, e.to_string()))?;
                values.insert(value_key(result), format!("%{name}"));
            }
            n => {
                for j in 0..n {
                    let result = op
                        .result(j)
                        .map_err(|e| RegionError::new(op, e.to_string()))?;
                    // `instruction` checked that every result has a static tensor type.
                    let shape = hlo_shape(result.r#type()).unwrap_or_default();
                    let element = self.fresh(&format!("{name}.{j}"));
                    lines.push((
                        element.clone(),
                        format!("{shape} get-tuple-element(%{name}), index={j}"),
                    ));
                    self.origins.insert(
                        element.clone(),
                        (format!("result {j} of '{full}'"), location.clone()),
                    );
                    values.insert(value_key(result), format!("%{element}"));
                }
            }
        }
        Ok(())
    }

    /// The root of a region ended by `terminator`: the instruction of its one operand, or a
    /// tuple of its operands; with the root's HLO shape.
    fn root(
        &mut self,
        terminator: &OperationRef,
        values: &HashMap<usize, String>,
        lines: &mut Vec<(String, String)>,
    ) -> Result<(String, String), RegionError> {
        let mut uses = Vec::new();
        let mut shapes = Vec::new();
        for operand in terminator.operands() {
            let name = values.get(&value_key(operand)).ok_or_else(|| {
                RegionError::new(terminator, "uses a value defined outside its region")
            })?;
            uses.push(name.clone());
            shapes.push(hlo_shape(operand.r#type()).ok_or_else(|| {
                RegionError::new(
                    terminator,
                    format!(
                        "gives a value that is not a static tensor: {}",
                        operand.r#type()
                    ),
                )
            })?);
        }
        match (uses.as_slice(), shapes.as_slice()) {
            ([], _) => Err(RegionError::new(terminator, "gives no values")),
            ([one], [shape]) => Ok((one.trim_start_matches('%').to_owned(), shape.clone())),
            _ => {
                let name = self.fresh("tuple");
                let shape = format!("({})", shapes.join(", "));
                lines.push((name.clone(), format!("{shape} tuple({})", uses.join(", "))));
                Ok((name, shape))
            }
        }
    }
}

/// A key for an SSA value (its address in MLIR).
fn value_key<'c>(value: impl ValueLike<'c>) -> usize {
    value.to_raw().ptr as usize
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
    fn float_literals_read_back_as_the_same_value() {
        assert_eq!(float_literal(0.0), "0.0");
        assert_eq!(float_literal(-1.5), "-1.5");
        assert_eq!(float_literal(f64::from(0.1f32)), "0.10000000149011612");
        assert_eq!(float_literal(1e-40), "1e-40");
        assert_eq!(float_literal(f64::NEG_INFINITY), "-inf");
        assert_eq!(float_literal(f64::INFINITY), "inf");
        assert_eq!(float_literal(f64::NAN), "nan");
    }

    #[test]
    fn element_types_have_hlo_names() {
        assert_eq!(hlo_element("f32"), "f32");
        assert_eq!(hlo_element("i32"), "s32");
        assert_eq!(hlo_element("ui8"), "u8");
        assert_eq!(hlo_element("i1"), "pred");
        assert_eq!(hlo_element("bf16"), "bf16");
    }

    #[test]
    fn unique_names_count_on_per_base() {
        let mut names = UniqueNames::default();
        assert_eq!(names.fresh("negate".into(), '.'), "negate");
        assert_eq!(names.fresh("negate".into(), '.'), "negate.1");
        names.take("negate.2".into());
        assert_eq!(names.fresh("negate".into(), '.'), "negate.3");
        // A name made from another base is not given again.
        assert_eq!(names.fresh("negate.3".into(), '.'), "negate.3.1");
        assert_eq!(names.fresh("add".into(), '_'), "add");
        assert_eq!(names.fresh("add".into(), '_'), "add_1");
        let mut writer = HloWriter::default();
        assert_eq!(writer.fresh("a b"), "a_b");
        assert_eq!(writer.fresh("a b"), "a_b.1");
        assert_eq!(writer.fresh(""), "_");
    }
}
