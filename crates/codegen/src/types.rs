//! XLA element types and array shapes as the MLIR types of kernel arguments and scalars.

use xla_indexing_hlo::shape::ArrayShape;

use super::error::CodegenError;
use super::fp8::Fp8;

/// How the bits of an element are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Pred,
    Signed,
    Unsigned,
    Float,
    /// A complex number: two floats of half the element's bits (`c64` is two `f32`).
    Complex,
    /// `f4e2m1fn`, kept as its four bits (`i4`, packed in memory as `s4`): converted to and
    /// from other types by integer arithmetic (`fp4.rs`), no other op.
    Fp4,
    /// An 8-bit float type, kept as its bits (`i8`): converted by integer arithmetic
    /// (`fp8.rs`), every other op computed on `f32` values and rounded back.
    Fp8(Fp8),
}

/// `pred`, as the generator lowers it (`i1`).
pub const PRED: Element = Element {
    class: Class::Pred,
    bits: 1,
    mlir: "i1",
};

/// An element type the generator lowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub class: Class,
    pub bits: u32,
    /// The MLIR scalar type (`i1`, `i32`, `f16`, `bf16`, `complex<f32>`, ...).
    pub mlir: &'static str,
}

impl Element {
    /// The element type named `xla` (`f32`, `s8`, `pred`, ...), or why it is not lowered.
    pub fn of(xla: &str) -> Result<Element, CodegenError> {
        use Class::*;
        let (class, bits, mlir) = match xla {
            "pred" => (Pred, 1, "i1"),
            "s8" => (Signed, 8, "i8"),
            "s16" => (Signed, 16, "i16"),
            "s32" => (Signed, 32, "i32"),
            "s64" => (Signed, 64, "i64"),
            "u8" => (Unsigned, 8, "i8"),
            "u16" => (Unsigned, 16, "i16"),
            "u32" => (Unsigned, 32, "i32"),
            "u64" => (Unsigned, 64, "i64"),
            "s4" => (Signed, 4, "i4"),
            "f4e2m1fn" => (Fp4, 4, "i4"),
            "u4" => (Unsigned, 4, "i4"),
            "f16" => (Float, 16, "f16"),
            "bf16" => (Float, 16, "bf16"),
            "f32" => (Float, 32, "f32"),
            "f64" => (Float, 64, "f64"),
            "c64" => (Complex, 64, "complex<f32>"),
            "c128" => (Complex, 128, "complex<f64>"),
            other => match super::fp8::Fp8::of(other) {
                Some(fp8) => (Fp8(fp8), 8, "i8"),
                None => return Err(CodegenError::ElementType(other.to_string())),
            },
        };
        Ok(Element { class, bits, mlir })
    }

    pub fn is_float(self) -> bool {
        self.class == Class::Float
    }

    pub fn is_complex(self) -> bool {
        self.class == Class::Complex
    }

    /// The float type of a complex element's real and imaginary parts (`f32` of `c64`); a
    /// real element's own type.
    pub fn part(self) -> Element {
        match self.bits {
            _ if !self.is_complex() => self,
            64 => Element {
                class: Class::Float,
                bits: 32,
                mlir: "f32",
            },
            _ => Element {
                class: Class::Float,
                bits: 64,
                mlir: "f64",
            },
        }
    }

    /// Whether two elements share a byte in memory (`s4`, `u4`, `f4e2m1fn`): their buffers are bytes, and
    /// each access picks its element's half (`buffer.rs`).
    pub fn is_packed(self) -> bool {
        self.bits < 8 && self.class != Class::Pred
    }

    /// The MLIR type of the element in memory: a byte for `pred` (as XLA stores it, so that
    /// vectors of it are bytes, not bits) and for packed elements (two to the byte), else the
    /// value's type.
    pub fn memory(self) -> &'static str {
        if self.class == Class::Pred || self.is_packed() {
            "i8"
        } else {
            self.mlir
        }
    }

    /// Whether integer comparisons and divisions are signed (pred and unsigned types are not).
    pub fn is_signed(self) -> bool {
        self.class == Class::Signed
    }

    /// The exponent and mantissa (fraction) bits of an IEEE binary float type held as itself
    /// (`f16`, `bf16`, `f32`, `f64`); `None` for any other element.
    pub fn float_format(self) -> Option<(u32, u32)> {
        match self.mlir {
            "f16" => Some((5, 10)),
            "bf16" => Some((8, 7)),
            "f32" => Some((8, 23)),
            "f64" => Some((11, 52)),
            _ => None,
        }
    }
}

/// The memref type of an array: its dimensions, element type and, when the layout is not
/// row-major, its strides (`memref<8x128xf32, strided<[1, 8]>>`). Packed elements (`s4`)
/// live in a flat buffer of bytes (`memref<16xi8>` for `s4[4,8]`), two to a byte; `pred` is a
/// byte per element.
pub fn memref_type(shape: &ArrayShape) -> Result<String, CodegenError> {
    if shape.is_dynamic() {
        return memref_type(&dynamic_buffer(shape)?.bytes);
    }
    let element = Element::of(&shape.element)?;
    let (sizes, strides) = memref_layout(shape)?;
    let mut text = String::from("memref<");
    for d in &sizes {
        text.push_str(&format!("{d}x"));
    }
    text.push_str(element.memory());
    if !is_row_major(&sizes, &strides) {
        let list: Vec<String> = strides.iter().map(i64::to_string).collect();
        text.push_str(&format!(", strided<[{}]>", list.join(", ")));
    }
    text.push('>');
    Ok(text)
}

/// The buffer of a dynamic array as XLA allocates it: the elements of its bound shape (the
/// dense elements of the dynamic sizes first), then one `s32` per dimension, its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynamicBuffer {
    /// The whole buffer as an array of bytes, `u8[data + 4 * rank]`.
    pub bytes: ArrayShape,
    /// The bound shape, static, in the default layout: the elements at the buffer's start.
    pub data: ArrayShape,
    /// The byte offset of the sizes (the data's bytes).
    pub sizes_offset: i64,
}

/// The [`DynamicBuffer`] of dynamic array `shape`; packed elements are not lowered.
pub fn dynamic_buffer(shape: &ArrayShape) -> Result<DynamicBuffer, CodegenError> {
    let fail = || CodegenError::DynamicBuffer(shape.to_string());
    let element = Element::of(&shape.element)?;
    if element.is_packed() {
        return Err(fail());
    }
    let element_bytes = i64::from(element.bits.max(8) / 8);
    let rank = i64::try_from(shape.rank()).map_err(|_| fail())?;
    let sizes_offset = shape
        .element_count()
        .and_then(|n| n.checked_mul(element_bytes))
        .ok_or_else(fail)?;
    let total = sizes_offset.checked_add(4 * rank).ok_or_else(fail)?;
    Ok(DynamicBuffer {
        bytes: ArrayShape::new("u8", vec![total]),
        data: ArrayShape::new(shape.element.clone(), shape.dims.clone()),
        sizes_offset,
    })
}

/// The sizes and strides of an array's memref: the dimensions and the layout's strides, or
/// for packed elements one dimension of bytes (the elements rounded up to a whole byte).
pub fn memref_layout(shape: &ArrayShape) -> Result<(Vec<i64>, Vec<i64>), CodegenError> {
    let element = Element::of(&shape.element)?;
    let layout = shape.layout_or_default();
    if element.is_packed() {
        let elements = layout
            .buffer_size(&shape.dims)
            .map_err(|source| CodegenError::layout(shape, source))?;
        return Ok((vec![(elements + 1) / 2], vec![1]));
    }
    let strides = layout
        .strides(&shape.dims)
        .map_err(|source| CodegenError::layout(shape, source))?;
    Ok((shape.dims.clone(), strides))
}

/// Whether `strides` are those of the row-major layout of `dims`.
fn is_row_major(dims: &[i64], strides: &[i64]) -> bool {
    let mut expected = 1i64;
    for (d, s) in dims.iter().zip(strides).rev() {
        if *d > 1 && *s != expected {
            return false;
        }
        expected = expected.saturating_mul(*d);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(element: &str, dims: &[i64], minor_to_major: Option<&[usize]>) -> ArrayShape {
        let mut s = ArrayShape::new(element, dims.to_vec());
        s.layout = minor_to_major.map(|m| xla_indexing_hlo::layout::Layout::new(m.to_vec()));
        s
    }

    #[test]
    fn row_major_memrefs_carry_no_strides() {
        assert_eq!(
            memref_type(&shape("f32", &[8, 128], None)).unwrap(),
            "memref<8x128xf32>"
        );
        assert_eq!(
            memref_type(&shape("bf16", &[4, 1, 3], Some(&[2, 1, 0]))).unwrap(),
            "memref<4x1x3xbf16>"
        );
        // A byte per pred, as XLA stores them.
        assert_eq!(
            memref_type(&shape("pred", &[], None)).unwrap(),
            "memref<i8>"
        );
    }

    #[test]
    fn packed_elements_live_in_bytes() {
        assert_eq!(
            memref_type(&shape("s4", &[4, 7], None)).unwrap(),
            "memref<14xi8>"
        );
        assert_eq!(
            memref_type(&shape("u4", &[3, 3], Some(&[0, 1]))).unwrap(),
            "memref<5xi8>"
        );
        assert!(Element::of("s4").unwrap().is_packed());
        assert!(!Element::of("pred").unwrap().is_packed());
    }

    #[test]
    fn complex_elements_are_mlir_complex_numbers_of_their_parts() {
        assert_eq!(
            memref_type(&shape("c64", &[2, 3], None)).unwrap(),
            "memref<2x3xcomplex<f32>>"
        );
        let c128 = Element::of("c128").unwrap();
        assert_eq!(c128.mlir, "complex<f64>");
        assert_eq!(c128.part(), Element::of("f64").unwrap());
        assert!(c128.is_complex() && !c128.is_float() && !c128.is_packed());
    }

    #[test]
    fn other_layouts_become_strides() {
        assert_eq!(
            memref_type(&shape("f32", &[8, 128], Some(&[0, 1]))).unwrap(),
            "memref<8x128xf32, strided<[1, 8]>>"
        );
    }

    #[test]
    fn unknown_elements_are_refused() {
        assert!(memref_type(&shape("c32", &[2], None)).is_err());
        assert_eq!(
            Element::of("f8e8m0fnu").unwrap_err().to_string(),
            "element type f8e8m0fnu is not lowered"
        );
    }
}
