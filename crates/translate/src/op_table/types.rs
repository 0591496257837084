//! Types in both directions: HLO shapes as MLIR tensor types, and MLIR tensor types as HLO
//! shapes.

use melior::ir::Type;
use std::fmt::Write as _;
use xla_indexing_hlo::shape::Shape;
use xla_indexing_mlir::ir::{shape_of, tuple_parts};

/// The MLIR type of an HLO shape: `tensor<10x20xf32>`, `tuple<...>`.
pub fn mlir_type(shape: &Shape) -> String {
    match shape {
        Shape::Array(array) => {
            let element = mlir_element(&array.element);
            if array.element == "token" {
                return element;
            }
            let mut text = String::from("tensor<");
            for (size, dynamic) in array.dims.iter().zip(&array.dynamic) {
                if *dynamic {
                    text.push('?');
                } else {
                    let _ = write!(text, "{size}");
                }
                text.push('x');
            }
            text.push_str(&element);
            text.push('>');
            text
        }
        Shape::Tuple(elements) => {
            let items: Vec<String> = elements.iter().map(mlir_type).collect();
            format!("tuple<{}>", items.join(", "))
        }
    }
}

/// Element types whose names differ in more than a prefix: (HLO, MLIR).
const ELEMENT_NAMES: [(&str, &str); 4] = [
    ("pred", "i1"),
    ("c64", "complex<f32>"),
    ("c128", "complex<f64>"),
    ("token", "!stablehlo.token"),
];

/// The prefixes of integer types, before their width: (HLO, MLIR), unsigned first.
const INTEGER_PREFIXES: [(&str, &str); 2] = [("u", "ui"), ("s", "i")];

/// The MLIR element type of an HLO element type (`pred` is `i1`, `s32` is `i32`, `u8` is `ui8`,
/// `c64` is `complex<f32>`, `f8e4m3fn` is `f8E4M3FN`).
pub fn mlir_element(hlo: &str) -> String {
    if let Some((_, mlir)) = ELEMENT_NAMES.iter().find(|(h, _)| *h == hlo) {
        return (*mlir).into();
    }
    let integer = INTEGER_PREFIXES
        .iter()
        .find_map(|(h, m)| Some(format!("{m}{}", hlo.strip_prefix(h)?)));
    // The small floats keep their width lower case (`f8E4M3FN`, `f4E2M1FN`, `f6E2M3FN`).
    integer.unwrap_or_else(|| {
        let small = ["f8", "f6", "f4"]
            .iter()
            .find_map(|w| Some((w, hlo.strip_prefix(w)?)));
        match small {
            Some((width, rest)) => format!("{width}{}", rest.to_uppercase()),
            None => hlo.into(),
        }
    })
}

/// The HLO shape of a ranked, static tensor type (`f32[10,20]`) or of a tuple of them (nested
/// at any depth: `(f32[2], (s32[3], f32[]))`), or `None`.
pub fn hlo_shape(ty: Type) -> Option<String> {
    if let Some(parts) = tuple_parts(ty) {
        let parts = parts
            .into_iter()
            .map(hlo_shape)
            .collect::<Option<Vec<_>>>()?;
        return Some(format!("({})", parts.join(", ")));
    }
    let shape = shape_of(ty).filter(|s| !s.is_memref)?;
    let dims: Vec<String> = shape.static_sizes()?.iter().map(i64::to_string).collect();
    Some(format!(
        "{}[{}]",
        hlo_element(&shape.element.to_string()),
        dims.join(",")
    ))
}

/// The HLO element type of an MLIR element type (`index` is `s64`).
pub fn hlo_element(mlir: &str) -> String {
    if mlir == "index" {
        return "s64".into();
    }
    if let Some((hlo, _)) = ELEMENT_NAMES.iter().find(|(_, m)| *m == mlir) {
        return (*hlo).into();
    }
    let integer = INTEGER_PREFIXES
        .iter()
        .find_map(|(h, m)| Some(format!("{h}{}", mlir.strip_prefix(m)?)));
    integer.unwrap_or_else(|| mlir.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_types_have_names_in_both() {
        for (hlo, mlir) in [
            ("pred", "i1"),
            ("s32", "i32"),
            ("u8", "ui8"),
            ("bf16", "bf16"),
            ("f32", "f32"),
            ("c64", "complex<f32>"),
            ("token", "!stablehlo.token"),
        ] {
            assert_eq!(mlir_element(hlo), mlir);
            assert_eq!(hlo_element(mlir), hlo);
        }
        assert_eq!(mlir_element("f8e4m3fn"), "f8E4M3FN");
        assert_eq!(mlir_element("f4e2m1fn"), "f4E2M1FN");
        assert_eq!(hlo_element("f4E2M1FN"), "f4e2m1fn");
        assert_eq!(hlo_element("f8E4M3FN"), "f8e4m3fn");
        assert_eq!(hlo_element("index"), "s64");
    }
}
