//! A constant's value, in both directions: an HLO literal as a StableHLO `dense<...>` attribute,
//! and a `dense<...>` attribute as an HLO literal (a splat as the broadcast of a scalar).

use melior::ir::Attribute;
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::shape::{ArrayShape, Shape};
use xla_indexing_mlir::ir::{Scalar, dense_values, splat_value};

use super::{
    Skip,
    convert::{ToHlo, ToMlir, braces, sizes},
    types::mlir_type,
};

/// The StableHLO attribute `mlir` of the HLO literal, or a warning where it has none.
pub(super) fn to_mlir(to: &mut ToMlir, mlir: &str) {
    let instr = to.instr;
    let literal = instr.literal.as_deref().unwrap_or_default();
    match instr.array().and_then(|a| dense(literal, a)) {
        Some(value) => to.push(mlir, value),
        None => to.warnings.push(format!(
            "constant '{}': its literal is not imported",
            instr.name
        )),
    }
}

/// The HLO literal of the StableHLO attribute `mlir`: a scalar is a `constant` of it, a splat
/// the `broadcast` of such a constant, any other array a `constant` of every value.
pub(super) fn to_hlo(to: &mut ToHlo, mlir: &str) -> Result<(), Skip> {
    let element = to.result.split('[').next().unwrap_or_default();
    let dims = sizes(to.result);
    let unsupported = || {
        Skip::Unsupported(format!(
            "'{}' holds a value of {} that is not dense integers, floats or preds",
            to.op_name, to.result
        ))
    };
    let value = to.attr(mlir).ok_or_else(unsupported)?;
    let Some(literal) = splat_literal(value, element) else {
        let values = dense_values(value, &dims).ok_or_else(unsupported)?;
        to.uses = vec![array_literal(&values, &dims, element)];
        return Ok(());
    };
    if dims.is_empty() {
        // The literal goes where the operands would.
        to.uses = vec![literal];
    } else {
        let scalar = format!("{}.scalar", to.name);
        let constant = format!("{element}[] {}({literal})", to.opcode);
        to.prelude.push((scalar.clone(), constant));
        to.uses = vec![format!("%{scalar}")];
        to.opcode = Opcode::Broadcast;
        to.push("dimensions", braces(&[]));
    }
    Ok(())
}

/// `dense<...> : tensor<...>` for an HLO literal (`1.5`, `{1, 2}`, `{ {1, 2}, {3, 4} }`,
/// `-inf`, `true`), or `None` when it has no such form here (elided, complex, ...).
fn dense(literal: &str, shape: &ArrayShape) -> Option<String> {
    if literal.is_empty() || literal.contains("...") || literal.contains('(') {
        return None;
    }
    let float_bits = match shape.element.as_str() {
        "f16" => Some(16),
        "bf16" => Some(-16),
        "f32" => Some(32),
        "f64" => Some(64),
        _ => None,
    };
    // Narrow floats (`f8e4m3fn`, `f4e2m1fn`, ...) are written as decimals like the others; their
    // infinities and NaNs have no form here.
    let narrow_float = ["f8", "f6", "f4"]
        .iter()
        .any(|p| shape.element.starts_with(p));
    let float = float_bits.is_some() || narrow_float;
    let mut text = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, text: &mut String| -> Option<()> {
        if token.is_empty() {
            return Some(());
        }
        let special = match (token.as_str(), float_bits) {
            (t @ ("inf" | "-inf" | "nan" | "-nan"), Some(bits)) => Some(special_float(t, bits)),
            ("inf" | "-inf" | "nan" | "-nan", None) => return None,
            _ => None,
        };
        match special {
            Some(hex) => text.push_str(&hex),
            None => {
                let ok = token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.'));
                if !ok {
                    return None;
                }
                // MLIR reads a float only with a dot before any exponent: `1` is `1.0`, `1e+09`
                // is `1.0e+09`.
                let (mantissa, exponent) = match token.find(['e', 'E']) {
                    Some(i) => token.split_at(i),
                    None => (token.as_str(), ""),
                };
                text.push_str(mantissa);
                let integer = mantissa.trim_start_matches(['-', '+']);
                if float && integer.chars().all(|c| c.is_ascii_digit()) {
                    text.push_str(".0");
                }
                text.push_str(exponent);
            }
        }
        token.clear();
        Some(())
    };
    for c in literal.chars() {
        match c {
            '{' | '}' | ',' => {
                flush(&mut token, &mut text)?;
                text.push(match c {
                    '{' => '[',
                    '}' => ']',
                    _ => ',',
                });
            }
            c if c.is_whitespace() => flush(&mut token, &mut text)?,
            c => token.push(c),
        }
    }
    flush(&mut token, &mut text)?;
    Some(format!(
        "dense<{text}> : {}",
        mlir_type(&Shape::Array(shape.clone()))
    ))
}

/// The hexadecimal form MLIR accepts for an infinity or NaN of a float type (`-16` is bf16).
fn special_float(token: &str, bits: i32) -> String {
    let (inf, nan, sign): (u64, u64, u64) = match bits {
        16 => (0x7C00, 0x7E00, 0x8000),
        -16 => (0x7F80, 0x7FC0, 0x8000),
        32 => (0x7F80_0000, 0x7FC0_0000, 0x8000_0000),
        _ => (
            0x7FF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x8000_0000_0000_0000,
        ),
    };
    let value = match token {
        "inf" => inf,
        "-inf" => inf | sign,
        "nan" => nan,
        _ => nan | sign,
    };
    format!("0x{value:X}")
}

/// The HLO literal of a `stablehlo.constant`'s `value` when it holds one value (a scalar or a
/// splat) of the HLO element type `element`: `0`, `-1.5`, `-inf`, `nan`, `true`.
fn splat_literal(value: Attribute, element: &str) -> Option<String> {
    Some(scalar_literal(splat_value(value)?, element))
}

/// One value of the HLO element type `element` as HLO writes it in a literal.
fn scalar_literal(value: Scalar, element: &str) -> String {
    match value {
        Scalar::Float(f) => float_literal(f),
        Scalar::Int(i) if element == "pred" => (i != 0).to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::Unsigned(u) => u.to_string(),
    }
}

/// The HLO literal of an array of `dims` holding `values` in row-major order: `{1, 2}`,
/// `{ {1, 2}, {3, 4} }`.
fn array_literal(values: &[Scalar], dims: &[i64], element: &str) -> String {
    let Some((&outer, inner)) = dims.split_first() else {
        return values
            .first()
            .map_or_else(String::new, |&v| scalar_literal(v, element));
    };
    let step = values.len() / usize::try_from(outer.max(1)).unwrap_or(1);
    let parts: Vec<String> = values
        .chunks(step.max(1))
        .map(|chunk| array_literal(chunk, inner, element))
        .collect();
    format!("{{{}}}", parts.join(", "))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_become_dense_attributes() {
        let shape = ArrayShape::new("f32", vec![2, 2]);
        assert_eq!(
            dense("{ {1, -inf}, {nan, 2.5} }", &shape).as_deref(),
            Some("dense<[[1.0,0xFF800000],[0x7FC00000,2.5]]> : tensor<2x2xf32>")
        );
        assert_eq!(
            dense("0", &ArrayShape::new("s32", vec![])).as_deref(),
            Some("dense<0> : tensor<i32>")
        );
        assert_eq!(
            dense("1e+09", &ArrayShape::new("f32", vec![])).as_deref(),
            Some("dense<1.0e+09> : tensor<f32>")
        );
        assert_eq!(
            dense("-2.5E-3", &ArrayShape::new("f64", vec![])).as_deref(),
            Some("dense<-2.5E-3> : tensor<f64>")
        );
        assert_eq!(dense("{...}", &shape), None);
        // Narrow floats: decimals, but no form for their infinities and NaNs.
        let f8 = ArrayShape::new("f8e4m3fn", vec![]);
        assert_eq!(
            dense("1", &f8).as_deref(),
            Some("dense<1.0> : tensor<f8E4M3FN>")
        );
        assert_eq!(dense("nan", &f8), None);
    }

    #[test]
    fn arrays_are_written_row_major_in_braces() {
        let values = [1, 2, 3, 4, 5, 6].map(Scalar::Int);
        assert_eq!(
            array_literal(&values, &[2, 3], "s32"),
            "{{1, 2, 3}, {4, 5, 6}}"
        );
        assert_eq!(
            array_literal(&[Scalar::Int(-1), Scalar::Int(0)], &[2], "pred"),
            "{true, false}"
        );
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
}
