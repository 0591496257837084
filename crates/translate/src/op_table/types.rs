//! Types in both directions: HLO shapes as MLIR tensor types, and MLIR tensor types as HLO
//! shapes.

use melior::ir::Type;
use std::fmt::Write as _;
use xla_indexing_hlo::shape::Shape;
use xla_indexing_mlir::ir::{shape_of, tensor_encoding, tuple_parts};

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
            if array.is_dynamic() {
                // StableHLO's bounds of a bounded dynamic tensor: a bound per dimension, `?`
                // for a static one.
                let bounds: Vec<String> = array
                    .dims
                    .iter()
                    .zip(&array.dynamic)
                    .map(|(size, &dynamic)| {
                        if dynamic {
                            size.to_string()
                        } else {
                            "?".into()
                        }
                    })
                    .collect();
                let _ = write!(text, ", {BOUNDS}<{}>", bounds.join(", "));
            }
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

/// The attribute in which StableHLO keeps a bounded dynamic tensor's bounds.
const BOUNDS: &str = "#stablehlo.bounds";

/// The bound of each dynamic dimension of a tensor type with StableHLO's bounds (`None` for a
/// static dimension), or `None` where the type has no such encoding.
fn bounds(ty: Type) -> Option<Vec<Option<i64>>> {
    let text = tensor_encoding(ty)?.to_string();
    let list = text
        .strip_prefix(BOUNDS)?
        .strip_prefix('<')?
        .strip_suffix('>')?;
    list.split(',')
        .map(|b| match b.trim() {
            "?" => Some(None),
            n => n.parse().ok().map(Some),
        })
        .collect()
}

/// The HLO shape of a ranked tensor type (`f32[10,20]`; dynamic dimensions with StableHLO's
/// bounds as `<=N`: `f32[10,<=20]`) or of a tuple of them (nested at any depth: `(f32[2],
/// (s32[3], f32[]))`), or `None`.
pub fn hlo_shape(ty: Type) -> Option<String> {
    if let Some(parts) = tuple_parts(ty) {
        let parts = parts
            .into_iter()
            .map(hlo_shape)
            .collect::<Option<Vec<_>>>()?;
        return Some(format!("({})", parts.join(", ")));
    }
    let shape = shape_of(ty).filter(|s| !s.is_memref)?;
    let dims: Vec<String> = match shape.static_sizes() {
        Some(sizes) => sizes.iter().map(i64::to_string).collect(),
        None => {
            let bounds = bounds(ty).filter(|b| b.len() == shape.sizes.len())?;
            shape
                .sizes
                .iter()
                .zip(bounds)
                .map(|(size, bound)| match (size, bound) {
                    (Some(s), None) => Some(s.to_string()),
                    (None, Some(b)) => Some(format!("<={b}")),
                    _ => None,
                })
                .collect::<Option<_>>()?
        }
    };
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
    use xla_indexing_hlo::shape::ArrayShape;

    #[test]
    fn bounded_dynamic_tensors_keep_their_bounds_both_ways() {
        let context = xla_indexing_mlir::session::full_context();
        context.set_allow_unregistered_dialects(true);
        for (element, dims, dynamic, hlo, mlir) in [
            (
                "s32",
                vec![2, 5],
                vec![false, true],
                "s32[2,<=5]",
                "tensor<2x?xi32, #stablehlo.bounds<?, 5>>",
            ),
            (
                "f16",
                vec![33, 40],
                vec![true, true],
                "f16[<=33,<=40]",
                "tensor<?x?xf16, #stablehlo.bounds<33, 40>>",
            ),
            ("f32", vec![3], vec![false], "f32[3]", "tensor<3xf32>"),
        ] {
            let array = ArrayShape {
                dynamic,
                ..ArrayShape::new(element, dims)
            };
            assert_eq!(array.to_string(), hlo);
            assert_eq!(mlir_type(&Shape::Array(array)), mlir);
            let ty = Type::parse(&context, mlir).expect("the type parses");
            assert_eq!(hlo_shape(ty).as_deref(), Some(hlo));
        }
        // Without its bounds a dynamic dimension has no HLO size.
        let unbounded = Type::parse(&context, "tensor<2x?xi32>").expect("the type parses");
        assert_eq!(hlo_shape(unbounded), None);
    }

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
