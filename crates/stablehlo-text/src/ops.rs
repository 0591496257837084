//! The pretty forms of StableHLO's operations, read and written in generic form.
//!
//! Most operations print as `operands (, keyword = value)* attr-dict : types`; `clauses`
//! reads that shape and `types` interprets the type list (one type for operands and result,
//! or a function type). The others have a reader of their own.

use crate::SyntaxError;
use crate::convert::Converter;
use crate::generic::{GenericOp, i64_array, int_list, owned, padding};

/// Operations whose pretty form is their operands, an optional attribute dictionary and a type
/// that every operand and the result share (or a function type), with their number of operands
/// (`None`: any number).
const SAME_TYPE: &[(&str, Option<usize>)] = &[
    ("abs", Some(1)),
    ("add", Some(2)),
    ("after_all", None),
    ("and", Some(2)),
    ("atan2", Some(2)),
    ("bitcast_convert", Some(1)),
    ("cbrt", Some(1)),
    ("ceil", Some(1)),
    ("clamp", Some(3)),
    ("convert", Some(1)),
    ("cosine", Some(1)),
    ("count_leading_zeros", Some(1)),
    ("create_token", Some(0)),
    ("divide", Some(2)),
    ("dynamic_reshape", Some(2)),
    ("dynamic_update_slice", None),
    ("exponential", Some(1)),
    ("exponential_minus_one", Some(1)),
    ("floor", Some(1)),
    ("imag", Some(1)),
    ("is_finite", Some(1)),
    ("log", Some(1)),
    ("log_plus_one", Some(1)),
    ("logistic", Some(1)),
    ("maximum", Some(2)),
    ("minimum", Some(2)),
    ("multiply", Some(2)),
    ("negate", Some(1)),
    ("not", Some(1)),
    ("or", Some(2)),
    ("partition_id", Some(0)),
    ("popcnt", Some(1)),
    ("power", Some(2)),
    ("real", Some(1)),
    ("remainder", Some(2)),
    ("replica_id", Some(0)),
    ("reshape", Some(1)),
    ("round_nearest_afz", Some(1)),
    ("round_nearest_even", Some(1)),
    ("rsqrt", Some(1)),
    ("shift_left", Some(2)),
    ("shift_right_arithmetic", Some(2)),
    ("shift_right_logical", Some(2)),
    ("sign", Some(1)),
    ("sine", Some(1)),
    ("sqrt", Some(1)),
    ("subtract", Some(2)),
    ("tan", Some(1)),
    ("tanh", Some(1)),
    ("uniform_dequantize", Some(1)),
    ("uniform_quantize", Some(1)),
    ("xor", Some(2)),
];

/// The inherent attributes (MLIR's properties) of the operations whose attribute dictionary
/// may hold some; every other attribute there is discardable.
const INHERENT: &[(&str, &[&str])] = &[
    ("cbrt", &["result_accuracy"]),
    (
        "composite",
        &["composite_attributes", "decomposition", "name", "version"],
    ),
    (
        "convolution",
        &[
            "batch_group_count",
            "feature_group_count",
            "precision_config",
        ],
    ),
    (
        "custom_call",
        &[
            "api_version",
            "backend_config",
            "call_target_name",
            "called_computations",
            "has_side_effect",
            "operand_layouts",
            "output_operand_aliases",
            "result_layouts",
            "result_tilings",
        ],
    ),
    ("cosine", &["result_accuracy"]),
    (
        "dynamic_broadcast_in_dim",
        &[
            "known_expanding_dimensions",
            "known_nonexpanding_dimensions",
        ],
    ),
    ("exponential", &["result_accuracy"]),
    ("exponential_minus_one", &["result_accuracy"]),
    ("log", &["result_accuracy"]),
    ("log_plus_one", &["result_accuracy"]),
    ("logistic", &["result_accuracy"]),
    ("rsqrt", &["result_accuracy"]),
    ("sine", &["result_accuracy"]),
    ("sqrt", &["result_accuracy"]),
    ("tan", &["result_accuracy"]),
    ("tanh", &["result_accuracy"]),
];

/// How a type list after `:` that is not a function type gives the operands' and results'
/// types.
#[derive(Clone, Copy, PartialEq)]
enum Types {
    /// One type, of every operand and of the result.
    Same,
    /// `P, T`: the predicate's type, then that of both choices and the result (select).
    Select,
    /// `C`: the complex result; both operands have its real element type (complex).
    Complex,
    /// The operands' types; no result (return).
    Operands,
    /// The operands' types, which are the results' too (optimization_barrier).
    Passthrough,
    /// `tuple<T, U>`: the result; the operands are its elements (tuple).
    Tuple,
    /// Only a function type is accepted.
    Function,
}

/// Rewrites the operation `stablehlo.<op>` whose name the cursor has just read (it started at
/// byte `start`) in generic form.
pub(crate) fn convert(c: &mut Converter, op: &str, start: usize) -> Result<String, SyntaxError> {
    let full = format!("stablehlo.{op}");
    let context = full.as_str();
    let mut g = GenericOp::new(&full);
    let inherent = INHERENT
        .iter()
        .find(|(name, _)| *name == op)
        .map_or(&[][..], |(_, names)| names);
    let arity = SAME_TYPE.iter().find(|(name, _)| *name == op).map(|a| a.1);
    match op {
        _ if arity.is_some() => {
            clauses(c, &mut g, context, inherent, |_, _, _| Ok(None))?;
            if let Some(Some(n)) = arity
                && g.operands.len() != n
            {
                let s = if n == 1 { "" } else { "s" };
                return Err(c.cur.error_at(
                    start,
                    format!("{context} takes {n} operand{s}, found {}", g.operands.len()),
                ));
            }
            types(c, &mut g, Types::Same, context)?;
        }
        "select" | "complex" | "return" | "optimization_barrier" | "tuple" => {
            let kind = match op {
                "select" => Types::Select,
                "complex" => Types::Complex,
                "return" => Types::Operands,
                "optimization_barrier" => Types::Passthrough,
                _ => Types::Tuple,
            };
            clauses(c, &mut g, context, inherent, |_, _, _| Ok(None))?;
            if kind == Types::Operands && g.operands.is_empty() && !c.cur.eat(":") {
                // `stablehlo.return` with nothing to return has no type list.
            } else {
                types(c, &mut g, kind, context)?;
            }
        }
        "constant" => constant(c, &mut g, context)?,
        "iota"
        | "dynamic_iota"
        | "get_dimension_size"
        | "broadcast_in_dim"
        | "dynamic_broadcast_in_dim"
        | "broadcast"
        | "transpose"
        | "reverse"
        | "dynamic_slice"
        | "concatenate"
        | "pad"
        | "fft"
        | "reduce_precision"
        | "rng_bit_generator"
        | "dot"
        | "dot_general"
        | "compare" => {
            let mut dot_dims = DotDims::default();
            if op == "compare" {
                let direction = c.cur.expect_ident("a comparison direction", context)?;
                g.property(
                    "comparison_direction",
                    format!("#stablehlo<comparison_direction {direction}>"),
                );
                c.cur.expect(",", context)?;
            }
            clauses(c, &mut g, context, inherent, |c, g, keyword| {
                keyword_clause(c, g, op, keyword, &mut dot_dims, context)
            })?;
            if op == "dot_general" {
                g.property("dot_dimension_numbers", dot_dims.attribute());
            }
            types(c, &mut g, Types::Same, context)?;
        }
        "slice" => slice(c, &mut g, context)?,
        "get_tuple_element" => {
            g.operands.push(c.cur.value(context)?.to_string());
            c.cur.expect("[", context)?;
            g.property("index", format!("{} : i32", c.cur.integer(context)?));
            c.cur.expect("]", context)?;
            attribute_dict(c, &mut g, context, inherent)?;
            types(c, &mut g, Types::Function, context)?;
        }
        "custom_call" => {
            let target = c.cur.symbol(context)?;
            g.property("call_target_name", symbol_string(target));
            parenthesized_operands(c, &mut g, context)?;
            attribute_dict(c, &mut g, context, inherent)?;
            types(c, &mut g, Types::Function, context)?;
        }
        "composite" => {
            let name = c.cur.string(context)?;
            g.property("name", name);
            clauses(c, &mut g, context, inherent, |_, _, _| Ok(None))?;
            types(c, &mut g, Types::Function, context)?;
        }
        "convolution" => convolution(c, &mut g, context, inherent)?,
        "reduce" => reduce(c, &mut g, context)?,
        "while" => while_(c, &mut g, context)?,
        _ => return Err(unsupported(c, start, context)),
    }
    Ok(g.print())
}

/// The error for an operation whose pretty form is not read here.
fn unsupported(c: &Converter, start: usize, context: &str) -> SyntaxError {
    c.cur.error_at(
        start,
        format!(
            "{context} in pretty form is not supported; write it in generic form \
             (\"{context}\"(...) : (...) -> ...)"
        ),
    )
}

/// A symbol's name as a string attribute: `@foo` gives `"foo"`, `@"a b"` gives `"a b"`.
fn symbol_string(symbol: &str) -> String {
    let name = &symbol[1..];
    if name.starts_with('"') {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// Rewrites the CHLO operation `chlo.<op>` (JAX lowers `top_k` and special functions such as
/// `erf`, `acos` or `digamma` to CHLO): `top_k(%x, k = N) : T -> (V, I)`, or the elementwise
/// form `%a, %b attr-dict : T, U -> R`.
pub(crate) fn chlo(c: &mut Converter, op: &str, start: usize) -> Result<String, SyntaxError> {
    let full = format!("chlo.{op}");
    let context = full.as_str();
    let mut g = GenericOp::new(&full);
    match op {
        "top_k" => {
            c.cur.expect("(", context)?;
            g.operands.push(c.cur.value(context)?.to_string());
            c.cur.expect(",", context)?;
            c.cur.expect_keyword("k", context)?;
            c.cur.expect("=", context)?;
            g.property("k", format!("{} : i64", c.cur.integer(context)?));
            c.cur.expect(")", context)?;
            attribute_dict(c, &mut g, context, &["is_stable", "k"])?;
        }
        "constant" | "constant_like" | "ragged_dot" | "scan" => {
            return Err(unsupported(c, start, context));
        }
        _ => {
            let inherent = [
                "broadcast_dimensions",
                "compare_type",
                "comparison_direction",
            ];
            clauses(c, &mut g, context, &inherent, |_, _, _| Ok(None))?;
        }
    }
    c.cur.expect(":", context)?;
    g.inputs = owned(&c.cur.type_list(context)?);
    c.cur.expect("->", context)?;
    c.cur.skip_ws();
    let results = if c.cur.peek() == Some(b'(') {
        c.cur.parenthesized_types(context)?
    } else {
        vec![c.cur.type_(context)?]
    };
    g.results = owned(&results);
    Ok(g.print())
}

/// `sdy.mesh @name = <axes...> attr-dict`, the Shardy operation JAX prints beside StableHLO for
/// host callbacks and sharded arguments.
pub(crate) fn sdy_mesh(c: &mut Converter) -> Result<String, SyntaxError> {
    let context = "sdy.mesh";
    let mut g = GenericOp::new(context);
    let symbol = c.cur.symbol(context)?;
    g.property("sym_name", symbol_string(symbol));
    c.cur.expect("=", context)?;
    c.cur.skip_ws();
    if c.cur.peek() != Some(b'<') {
        return Err(c.cur.unexpected("'<'", context));
    }
    let mesh = c.cur.balanced(context)?;
    g.property("mesh", format!("#sdy.mesh{mesh}"));
    attribute_dict(c, &mut g, context, &["mesh", "sym_name"])?;
    Ok(g.print())
}

/// `%a, %b, keyword = value, BARE_WORD attr-dict`: operands, then clauses that `clause` turns
/// into properties (it returns `None` for a keyword the operation does not have).
fn clauses(
    c: &mut Converter,
    g: &mut GenericOp,
    context: &str,
    inherent: &[&str],
    mut clause: impl FnMut(&mut Converter, &mut GenericOp, &str) -> Result<Option<()>, SyntaxError>,
) -> Result<(), SyntaxError> {
    let mut first = true;
    loop {
        match c.cur.lookahead() {
            Some(b'%') => g.operands.push(c.cur.value(context)?.to_string()),
            Some(b) if b.is_ascii_alphabetic() => {
                c.cur.skip_ws();
                let at = c.cur.pos();
                let keyword = c.cur.ident().unwrap_or_default();
                if clause(c, g, keyword)?.is_none() {
                    return Err(c
                        .cur
                        .error_at(at, format!("unexpected '{keyword}' in {context}")));
                }
            }
            _ if first => break,
            // Something must follow a comma.
            _ => return Err(c.cur.unexpected("an operand or a keyword", context)),
        }
        first = false;
        if !c.cur.eat(",") {
            break;
        }
    }
    attribute_dict(c, g, context, inherent)
}

/// An optional attribute dictionary: `{...}`, or `attributes {...}`.
fn attribute_dict(
    c: &mut Converter,
    g: &mut GenericOp,
    context: &str,
    inherent: &[&str],
) -> Result<(), SyntaxError> {
    if c.cur.eat_keyword("attributes") || c.cur.lookahead() == Some(b'{') {
        let entries = c.cur.attribute_dict(context)?;
        g.attribute_dict(&entries, inherent);
    }
    Ok(())
}

/// `(%a, %b)`.
fn parenthesized_operands(
    c: &mut Converter,
    g: &mut GenericOp,
    context: &str,
) -> Result<(), SyntaxError> {
    c.cur.expect("(", context)?;
    if c.cur.eat(")") {
        return Ok(());
    }
    loop {
        g.operands.push(c.cur.value(context)?.to_string());
        if c.cur.eat(")") {
            return Ok(());
        }
        c.cur.expect(",", context)?;
    }
}

/// `: TYPES`: the operands' and results' types, as `kind` says.
fn types(
    c: &mut Converter,
    g: &mut GenericOp,
    kind: Types,
    context: &str,
) -> Result<(), SyntaxError> {
    c.cur.expect(":", context)?;
    c.cur.skip_ws();
    if c.cur.peek() == Some(b'(') {
        let (inputs, results) = c.cur.function_type(context)?;
        g.inputs = owned(&inputs);
        g.results = owned(&results);
        return Ok(());
    }
    let at = c.cur.pos();
    let list = c.cur.type_list(context)?;
    let n = g.operands.len();
    let wrong = |c: &Converter, expected: &str| {
        Err(c.cur.error_at(
            at,
            format!("{context} expects {expected} or a function type after ':'"),
        ))
    };
    match (kind, list.as_slice()) {
        (Types::Same, [t]) => {
            g.inputs = vec![t.to_string(); n];
            g.results = vec![t.to_string()];
        }
        (Types::Select, [p, t]) => {
            g.inputs = vec![p.to_string(), t.to_string(), t.to_string()];
            g.results = vec![t.to_string()];
        }
        (Types::Complex, [t]) => {
            let Some(real) = real_type(t) else {
                return wrong(c, "a complex type");
            };
            g.inputs = vec![real; n];
            g.results = vec![t.to_string()];
        }
        (Types::Operands, list) if list.len() == n => g.inputs = owned(list),
        (Types::Passthrough, list) if list.len() == n => {
            g.inputs = owned(list);
            g.results = owned(list);
        }
        (Types::Tuple, [t]) => {
            let Some(elements) = tuple_elements(t) else {
                return wrong(c, "a tuple type");
            };
            g.inputs = elements;
            g.results = vec![t.to_string()];
        }
        (Types::Same | Types::Complex | Types::Tuple, _) => return wrong(c, "one type"),
        (Types::Select, _) => return wrong(c, "two types (predicate, value)"),
        (Types::Operands | Types::Passthrough, _) => {
            return wrong(c, &format!("{n} types (one per operand)"));
        }
        (Types::Function, _) => {
            return Err(c.cur.error_at(
                at,
                format!("{context} expects a function type (T, ...) -> R after ':'"),
            ));
        }
    }
    Ok(())
}

/// The real type a complex `t` is made of: `tensor<4xcomplex<f32>>` gives `tensor<4xf32>`.
fn real_type(t: &str) -> Option<String> {
    let start = t.find("complex<")?;
    let inner_start = start + "complex<".len();
    let inner_end = inner_start + t[inner_start..].find('>')?;
    Some(format!(
        "{}{}{}",
        &t[..start],
        &t[inner_start..inner_end],
        &t[inner_end + 1..]
    ))
}

/// The element types of `tuple<T, U>`, split at its top-level commas.
fn tuple_elements(t: &str) -> Option<Vec<String>> {
    let inner = t.strip_prefix("tuple<")?.strip_suffix('>')?;
    let mut elements = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                elements.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        elements.push(inner[start..].trim().to_string());
    }
    Some(elements)
}

/// `constant attr-dict VALUE : T`: the value, typed, becomes the `value` property.
fn constant(c: &mut Converter, g: &mut GenericOp, context: &str) -> Result<(), SyntaxError> {
    attribute_dict(c, g, context, &["value"])?;
    c.cur.skip_ws();
    let start = c.cur.pos();
    // The value runs to the ':' of its type, outside brackets and strings.
    loop {
        match c.cur.peek() {
            None => return Err(c.cur.unexpected("':' and the constant's type", context)),
            Some(b':') => break,
            Some(b'(' | b'[' | b'{' | b'<') => {
                c.cur.balanced(context)?;
            }
            Some(b'"') => {
                c.cur.string(context)?;
            }
            Some(b'\n') => return Err(c.cur.unexpected("':' and the constant's type", context)),
            Some(_) => c.cur.bump(),
        }
    }
    let value = c.cur.src()[start..c.cur.pos()].trim_end();
    if value.is_empty() {
        return Err(c.cur.unexpected("a constant value", context));
    }
    c.cur.expect(":", context)?;
    c.cur.skip_ws();
    if c.cur.peek() == Some(b'(') {
        // A value whose type differs from the result's: `: (T) -> R`.
        let (inputs, results) = c.cur.function_type(context)?;
        let ([value_type], [result]) = (inputs.as_slice(), results.as_slice()) else {
            return Err(c
                .cur
                .error("a constant's function type has one input and one result"));
        };
        g.property("value", format!("{value} : {value_type}"));
        g.results = vec![result.to_string()];
    } else {
        let ty = c.cur.type_(context)?;
        g.property("value", format!("{value} : {ty}"));
        g.results = vec![ty.to_string()];
    }
    Ok(())
}

/// The dimension numbers of a dot_general, gathered from its two clauses.
#[derive(Default)]
struct DotDims {
    batching: Option<(Vec<i64>, Vec<i64>)>,
    contracting: Option<(Vec<i64>, Vec<i64>)>,
}

impl DotDims {
    /// `#stablehlo.dot<...>`, empty lists left out as StableHLO prints them.
    fn attribute(&self) -> String {
        let mut fields = Vec::new();
        for (name, dims) in [
            ("batching", &self.batching),
            ("contracting", &self.contracting),
        ] {
            let Some((lhs, rhs)) = dims else { continue };
            for (side, list) in [("lhs", lhs), ("rhs", rhs)] {
                if !list.is_empty() {
                    fields.push(format!("{side}_{name}_dimensions = {}", int_list(list)));
                }
            }
        }
        format!("#stablehlo.dot<{}>", fields.join(", "))
    }
}

/// One `keyword = value` clause (or bare word) of the operations read by `clauses`, as
/// properties; `None` for a keyword `op` does not have.
fn keyword_clause(
    c: &mut Converter,
    g: &mut GenericOp,
    op: &str,
    keyword: &str,
    dot_dims: &mut DotDims,
    context: &str,
) -> Result<Option<()>, SyntaxError> {
    if op == "compare" {
        // The optional comparison type, a bare word after the operands.
        g.property(
            "compare_type",
            format!("#stablehlo<comparison_type {keyword}>"),
        );
        return Ok(Some(()));
    }
    let property = match (op, keyword) {
        ("iota" | "dynamic_iota", "dim") => "iota_dimension",
        ("concatenate" | "get_dimension_size", "dim") => "dimension",
        ("broadcast_in_dim" | "dynamic_broadcast_in_dim", "dims") => "broadcast_dimensions",
        ("transpose", "dims") => "permutation",
        ("reverse", "dims") => "dimensions",
        ("broadcast", "sizes") => "broadcast_sizes",
        ("dynamic_slice", "sizes") => "slice_sizes",
        ("pad", "low") => "edge_padding_low",
        ("pad", "high") => "edge_padding_high",
        ("pad", "interior") => "interior_padding",
        ("fft", "type") => "fft_type",
        ("fft", "length") => "fft_length",
        ("reduce_precision", "format") => "format",
        ("rng_bit_generator", "algorithm") => "rng_algorithm",
        ("dot" | "dot_general", "precision") => "precision_config",
        ("dot_general", "algorithm") => "algorithm",
        ("dot_general", "batching_dims" | "contracting_dims") => keyword,
        _ => return Ok(None),
    };
    c.cur.expect("=", context)?;
    match property {
        "iota_dimension" | "dimension" => {
            let value = c.cur.integer(context)?;
            g.property(property, format!("{value} : i64"));
        }
        "fft_type" | "rng_algorithm" => {
            let value = c.cur.expect_ident("a keyword", context)?;
            g.property(property, format!("#stablehlo<{property} {value}>"));
        }
        "format" => {
            let at = c.cur.pos();
            let format = c.cur.expect_ident("a format eXmY", context)?;
            let bits = format
                .strip_prefix('e')
                .and_then(|rest| rest.split_once('m'))
                .and_then(|(e, m)| Some((e.parse::<i32>().ok()?, m.parse::<i32>().ok()?)));
            let Some((exponent, mantissa)) = bits else {
                return Err(c.cur.error_at(
                    at,
                    format!("expected a format eXmY in {context}, found '{format}'"),
                ));
            };
            g.property("exponent_bits", format!("{exponent} : i32"));
            g.property("mantissa_bits", format!("{mantissa} : i32"));
        }
        "precision_config" => {
            c.cur.expect("[", context)?;
            let mut values = Vec::new();
            while !c.cur.eat("]") {
                if !values.is_empty() {
                    c.cur.expect(",", context)?;
                }
                let value = c.cur.expect_ident("a precision", context)?;
                values.push(format!("#stablehlo<precision {value}>"));
            }
            g.property(property, format!("[{}]", values.join(", ")));
        }
        "algorithm" => {
            c.cur.skip_ws();
            if c.cur.peek() != Some(b'<') {
                return Err(c.cur.unexpected("'<'", context));
            }
            let body = c.cur.balanced(context)?;
            g.property(property, format!("#stablehlo.dot_algorithm{body}"));
        }
        "batching_dims" | "contracting_dims" => {
            let lhs = c.cur.integer_list(context)?;
            c.cur.expect_keyword("x", context)?;
            let rhs = c.cur.integer_list(context)?;
            let slot = if property == "batching_dims" {
                &mut dot_dims.batching
            } else {
                &mut dot_dims.contracting
            };
            *slot = Some((lhs, rhs));
        }
        _ => {
            let values = c.cur.integer_list(context)?;
            g.property(property, i64_array(&values));
        }
    }
    Ok(Some(()))
}

/// `slice %x [start:limit(:stride)?, ...] : (T) -> R`.
fn slice(c: &mut Converter, g: &mut GenericOp, context: &str) -> Result<(), SyntaxError> {
    g.operands.push(c.cur.value(context)?.to_string());
    c.cur.expect("[", context)?;
    let (mut starts, mut limits, mut strides) = (Vec::new(), Vec::new(), Vec::new());
    while !c.cur.eat("]") {
        if !starts.is_empty() {
            c.cur.expect(",", context)?;
        }
        starts.push(c.cur.integer(context)?);
        c.cur.expect(":", context)?;
        limits.push(c.cur.integer(context)?);
        strides.push(if c.cur.eat(":") {
            c.cur.integer(context)?
        } else {
            1
        });
    }
    g.property("start_indices", i64_array(&starts));
    g.property("limit_indices", i64_array(&limits));
    g.property("strides", i64_array(&strides));
    attribute_dict(c, g, context, &[])?;
    types(c, g, Types::Function, context)
}

/// `convolution(%lhs, %rhs) dim_numbers = [..]x[..]->[..], window = {...} attr-dict : (..) -> R`.
fn convolution(
    c: &mut Converter,
    g: &mut GenericOp,
    context: &str,
    inherent: &[&str],
) -> Result<(), SyntaxError> {
    parenthesized_operands(c, g, context)?;
    c.cur.expect_keyword("dim_numbers", context)?;
    c.cur.expect("=", context)?;
    let lhs = bracket_group(c, context)?;
    c.cur.expect_keyword("x", context)?;
    let rhs = bracket_group(c, context)?;
    c.cur.expect("->", context)?;
    let out = bracket_group(c, context)?;
    g.property(
        "dimension_numbers",
        format!("#stablehlo.conv<{lhs}x{rhs}->{out}>"),
    );
    if c.cur.eat(",") {
        c.cur.expect_keyword("window", context)?;
        c.cur.expect("=", context)?;
        c.cur.expect("{", context)?;
        while !c.cur.eat("}") {
            if c.cur.eat(",") {
                continue;
            }
            let at = c.cur.pos();
            let key = c.cur.expect_ident("a window field", context)?;
            c.cur.expect("=", context)?;
            match key {
                "stride" | "lhs_dilate" | "rhs_dilate" => {
                    let name = match key {
                        "stride" => "window_strides",
                        "lhs_dilate" => "lhs_dilation",
                        _ => "rhs_dilation",
                    };
                    let values = c.cur.integer_list(context)?;
                    g.property(name, i64_array(&values));
                }
                "pad" => {
                    c.cur.expect("[", context)?;
                    let mut pairs = Vec::new();
                    while !c.cur.eat("]") {
                        if !pairs.is_empty() {
                            c.cur.expect(",", context)?;
                        }
                        let pair = c.cur.integer_list(context)?;
                        let [low, high] = pair[..] else {
                            return Err(c.cur.error("a padding is a pair [low, high]"));
                        };
                        pairs.push((low, high));
                    }
                    g.property("padding", padding(&pairs));
                }
                "reverse" => {
                    c.cur.expect("[", context)?;
                    let mut flags = Vec::new();
                    while !c.cur.eat("]") {
                        if !flags.is_empty() {
                            c.cur.expect(",", context)?;
                        }
                        let flag = match c.cur.ident() {
                            Some("true") => "true",
                            Some("false") => "false",
                            _ => match c.cur.integer(context)? {
                                0 => "false",
                                _ => "true",
                            },
                        };
                        flags.push(flag);
                    }
                    let body = if flags.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", flags.join(", "))
                    };
                    g.property("window_reversal", format!("array<i1{body}>"));
                }
                _ => {
                    return Err(c
                        .cur
                        .error_at(at, format!("unknown window field '{key}' in {context}")));
                }
            }
        }
    }
    attribute_dict(c, g, context, inherent)?;
    types(c, g, Types::Function, context)
}

/// A `[...]` group as written.
fn bracket_group<'a>(c: &mut Converter<'a>, context: &str) -> Result<&'a str, SyntaxError> {
    c.cur.skip_ws();
    if c.cur.peek() != Some(b'[') {
        return Err(c.cur.unexpected("'['", context));
    }
    c.cur.balanced(context)
}

/// `reduce(%x init: %i), ... applies OP across dimensions = [..] : F` (one input, its body a
/// single binary op), or `reduce(...) across dimensions = [..] : F reducer(%a: T, %b: T) ... {
/// body }`. The reducer's argument pairs (lhs, rhs of each input) become the block arguments
/// all lhs first.
fn reduce(c: &mut Converter, g: &mut GenericOp, context: &str) -> Result<(), SyntaxError> {
    let mut inits = Vec::new();
    loop {
        c.cur.expect("(", context)?;
        g.operands.push(c.cur.value(context)?.to_string());
        c.cur.expect_keyword("init", context)?;
        c.cur.expect(":", context)?;
        inits.push(c.cur.value(context)?.to_string());
        c.cur.expect(")", context)?;
        if !c.cur.eat(",") {
            break;
        }
    }
    let n = g.operands.len();
    g.operands.extend(inits);
    let applies = if c.cur.eat_keyword("applies") {
        let at = c.cur.pos();
        let body_op = c.cur.expect_ident("the reducing operation", context)?;
        if n != 1 {
            return Err(c.cur.error_at(at, "'applies' needs a reduce of one input"));
        }
        Some(body_op)
    } else {
        None
    };
    c.cur.expect_keyword("across", context)?;
    c.cur.expect_keyword("dimensions", context)?;
    c.cur.expect("=", context)?;
    let dims = c.cur.integer_list(context)?;
    g.property("dimensions", i64_array(&dims));
    attribute_dict(c, g, context, &[])?;
    types(c, g, Types::Function, context)?;
    if g.inputs.len() != 2 * n {
        return Err(c.cur.error(format!(
            "{context} of {n} inputs needs {} operand types, found {}",
            2 * n,
            g.inputs.len()
        )));
    }
    let region = match applies {
        Some(body_op) => {
            let ty = g.inputs[1].clone();
            let (lhs, rhs, result) = (c.fresh_name(), c.fresh_name(), c.fresh_name());
            format!(
                "{{^bb0({lhs}: {ty}, {rhs}: {ty}): {result} = \"{body_op}\"({lhs}, {rhs}) : \
                 ({ty}, {ty}) -> {ty} \"stablehlo.return\"({result}) : ({ty}) -> ()}}"
            )
        }
        None => {
            c.cur.expect_keyword("reducer", context)?;
            let (mut lhs, mut rhs) = (Vec::new(), Vec::new());
            for _ in 0..n {
                c.cur.expect("(", context)?;
                lhs.push(block_argument(c, context)?);
                c.cur.expect(",", context)?;
                rhs.push(block_argument(c, context)?);
                c.cur.expect(")", context)?;
            }
            lhs.extend(rhs);
            let header = format!("^bb0({}):", lhs.join(", "));
            c.region(&header, context)?
        }
    };
    g.regions.push(region);
    Ok(())
}

/// `%name: T`, with an optional `loc(...)`.
fn block_argument(c: &mut Converter, context: &str) -> Result<String, SyntaxError> {
    let name = c.cur.value(context)?;
    c.cur.expect(":", context)?;
    let ty = c.cur.type_(context)?;
    let mut argument = format!("{name}: {ty}");
    if c.cur.eat_keyword("loc") {
        c.cur.skip_ws();
        if c.cur.peek() != Some(b'(') {
            return Err(c.cur.unexpected("'('", context));
        }
        argument += &format!(" loc{}", c.cur.balanced(context)?);
    }
    Ok(argument)
}

/// `while(%iterArg = %init, ...) : T, ... attr-dict cond { ... } do { ... }`: both regions
/// take the iteration arguments as their block arguments.
fn while_(c: &mut Converter, g: &mut GenericOp, context: &str) -> Result<(), SyntaxError> {
    c.cur.expect("(", context)?;
    let mut names = Vec::new();
    if !c.cur.eat(")") {
        loop {
            names.push(c.cur.value(context)?);
            c.cur.expect("=", context)?;
            g.operands.push(c.cur.value(context)?.to_string());
            if c.cur.eat(")") {
                break;
            }
            c.cur.expect(",", context)?;
        }
    }
    let types = if names.is_empty() {
        Vec::new()
    } else {
        c.cur.expect(":", context)?;
        let at = c.cur.pos();
        let types = c.cur.type_list(context)?;
        if types.len() != names.len() {
            return Err(c.cur.error_at(
                at,
                format!(
                    "{context} has {} iteration arguments but {} types",
                    names.len(),
                    types.len()
                ),
            ));
        }
        types
    };
    attribute_dict(c, g, context, &[])?;
    let arguments: Vec<String> = names
        .iter()
        .zip(&types)
        .map(|(name, ty)| format!("{name}: {ty}"))
        .collect();
    let header = format!("^bb0({}):", arguments.join(", "));
    c.cur.expect_keyword("cond", context)?;
    let cond = c.region(&header, context)?;
    c.cur.expect_keyword("do", context)?;
    let body = c.region(&header, context)?;
    g.regions = vec![cond, body];
    g.inputs = owned(&types);
    g.results = g.inputs.clone();
    Ok(())
}
