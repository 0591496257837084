//! A kernel's arrays in memory — its buffers in global memory and its shared tiles — and the
//! element loads and stores through them.
//!
//! An array of bytes or wider elements is a memref of its dimensions, and an element is one
//! `memref.load` or `memref.store` at its multi-index. Elements narrower than a byte (`s4`,
//! `u4`) are packed two to a byte as XLA packs them: the element at linear position `n` of the
//! layout lives in byte `n floordiv 2`, in its low four bits when `n` is even and its high four
//! bits when it is odd. Their array is a flat `memref<Kxi8>`; a load shifts its element's half
//! down and truncates it, and a store changes only its half of the byte with two atomic
//! operations (clear the half, then set its bits), since the thread that writes the other
//! half may be storing at the same time.

use xla_indexing_gpu::reduction::SharedBuffer;
use xla_indexing_hlo::shape::ArrayShape;

use super::body::{Body, Scalar};
use super::error::CodegenError;
use super::types::{Class, Element, dynamic_buffer, memref_type};

/// The memory space that workgroup attributions (shared memory) live in.
const WORKGROUP: &str = "#gpu.address_space<workgroup>";

/// An array a kernel reads and writes: a buffer argument (a fused computation's parameter or an
/// output) in global memory, or a shared buffer of the block.
#[derive(Clone, Debug)]
pub(crate) struct ArrayBuffer {
    /// Its SSA name (`%arg0`, `%out1`, `%shared0`).
    pub name: String,
    /// Its memref type.
    pub ty: String,
    /// The array it holds.
    pub shape: ArrayShape,
    pub element: Element,
    /// The strides of the layout, in elements (used to find a packed element's byte).
    strides: Vec<i64>,
}

impl ArrayBuffer {
    /// The block's shared buffer `name` of the plan's `buffer` (row-major, in workgroup
    /// memory), or why its element type is not lowered.
    pub fn shared(name: String, buffer: &SharedBuffer) -> Result<ArrayBuffer, CodegenError> {
        let dims = buffer
            .dims
            .iter()
            .map(|&d| i64::try_from(d).map_err(|_| CodegenError::SharedBufferSize(d)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut array = ArrayBuffer::new(name, &ArrayShape::new(&buffer.element, dims))?;
        let memref = array.ty.strip_suffix('>').unwrap_or(&array.ty).to_string();
        array.ty = format!("{memref}, {WORKGROUP}>");
        Ok(array)
    }

    /// Buffer `name` holding `shape`, or why its element type or layout is not lowered. A
    /// dynamic array's buffer is its bytes ([`dynamic_buffer`]), which the pad-to-static
    /// emitter views.
    pub fn new(name: String, shape: &ArrayShape) -> Result<ArrayBuffer, CodegenError> {
        if shape.is_dynamic() {
            return ArrayBuffer::new(name, &dynamic_buffer(shape)?.bytes);
        }
        let element = Element::of(&shape.element)?;
        let strides = shape
            .layout_or_default()
            .strides(&shape.dims)
            .map_err(|source| CodegenError::layout(shape, source))?;
        Ok(ArrayBuffer {
            name,
            ty: memref_type(shape)?,
            shape: shape.clone(),
            element,
            strides,
        })
    }

    /// Whether two elements share each byte of the buffer.
    pub fn is_packed(&self) -> bool {
        self.element.is_packed()
    }

    /// The element at multi-index `at` (SSA names of `index` values).
    pub fn load(&self, body: &mut Body, at: &[String]) -> Scalar {
        let (name, ty, mlir) = (&self.name, &self.ty, self.element.mlir);
        if !self.is_packed() {
            let loaded = body.op(
                "v",
                self.element.memory(),
                format!("memref.load {name}[{}] : {ty}", at.join(", ")),
            );
            return from_memory(body, loaded, self.element);
        }
        let (byte, shift) = self.byte_and_shift(body, at);
        let loaded = body.op("byte", "i8", format!("memref.load {name}[{byte}] : {ty}"));
        let down = body.op(
            "byte",
            "i8",
            format!("arith.shrui {}, {shift} : i8", loaded.name),
        );
        body.op(
            "v",
            mlir,
            format!("arith.trunci {} : i8 to {mlir}", down.name),
        )
    }

    /// Stores `value` (of the buffer's element type) at multi-index `at`.
    pub fn store(&self, body: &mut Body, value: &str, at: &[String]) {
        let (name, ty) = (&self.name, &self.ty);
        if !self.is_packed() {
            let stored = to_memory(body, value, self.element);
            body.line(format!(
                "memref.store {stored}, {name}[{}] : {ty}",
                at.join(", ")
            ));
            return;
        }
        let (byte, shift) = self.byte_and_shift(body, at);
        let (keep, bits) = replaced_half(body, value, self.element, &shift);
        for (kind, operand) in [("andi", &keep), ("ori", &bits)] {
            body.op(
                "old",
                "i8",
                format!("memref.atomic_rmw {kind} {operand}, {name}[{byte}] : (i8, {ty}) -> i8"),
            );
        }
    }

    /// The byte of a packed buffer that holds the element at `at`, and the shift (`i8`) of
    /// the element's bits within it: `n floordiv 2` and `4 · (n mod 2)` of its linear
    /// position `n`.
    fn byte_and_shift(&self, body: &mut Body, at: &[String]) -> (String, String) {
        let mut linear: Option<String> = None;
        for (i, &stride) in at.iter().zip(&self.strides) {
            let term = if stride == 1 {
                i.clone()
            } else {
                let s = body.index(stride);
                body.op(
                    "lin",
                    "index",
                    format!("arith.muli {i}, {} : index", s.name),
                )
                .name
            };
            linear = Some(match linear {
                None => term,
                Some(sum) => {
                    body.op("lin", "index", format!("arith.addi {sum}, {term} : index"))
                        .name
                }
            });
        }
        let linear = linear.unwrap_or_else(|| body.index(0).name);
        packed_position(body, &linear, self.element.bits)
    }
}

/// The byte that holds the packed element of `bits` bits at linear position `linear` (an
/// `index`), and the shift (`i8`) of its bits within the byte: `n floordiv 2` and
/// A value of `element` read from memory as `loaded` (of its memory type): a `pred` byte is
/// true when it is not zero.
pub(crate) fn from_memory(body: &mut Body, loaded: Scalar, element: Element) -> Scalar {
    if element.class != Class::Pred {
        return loaded;
    }
    let zero = body.constant("0", "i8");
    body.op(
        "v",
        "i1",
        format!("arith.cmpi ne, {}, {} : i8", loaded.name, zero.name),
    )
}

/// `value` of `element` as memory holds it: a `pred` as the byte 0 or 1.
pub(crate) fn to_memory(body: &mut Body, value: &str, element: Element) -> String {
    if element.class != Class::Pred {
        return value.to_string();
    }
    body.op("byte", "i8", format!("arith.extui {value} : i1 to i8"))
        .name
}

/// `4 · (n mod 2)` for 4-bit elements.
pub(crate) fn packed_position(body: &mut Body, linear: &str, bits: u32) -> (String, String) {
    let per_byte = i64::from(8 / bits);
    let shift_bits = body.index(i64::from(per_byte.trailing_zeros()));
    let byte = body.op(
        "at",
        "index",
        format!("arith.shrui {linear}, {} : index", shift_bits.name),
    );
    let last = body.index(per_byte - 1);
    let slot = body.op(
        "slot",
        "index",
        format!("arith.andi {linear}, {} : index", last.name),
    );
    let slot = body.op(
        "slot",
        "i8",
        format!("arith.index_castui {} : index to i8", slot.name),
    );
    let width = body.constant(&bits.to_string(), "i8");
    let shift = body.op(
        "shift",
        "i8",
        format!("arith.muli {}, {} : i8", slot.name, width.name),
    );
    (byte.name, shift.name)
}

/// For storing the packed `value` at `shift` of a byte: the mask (`i8`) that keeps the byte's
/// other bits, and `value`'s bits in place.
pub(crate) fn replaced_half(
    body: &mut Body,
    value: &str,
    element: Element,
    shift: &str,
) -> (String, String) {
    let mlir = element.mlir;
    let wide = body.op("byte", "i8", format!("arith.extui {value} : {mlir} to i8"));
    let bits = body.op(
        "byte",
        "i8",
        format!("arith.shli {}, {shift} : i8", wide.name),
    );
    let ones = body.constant(&((1u32 << element.bits) - 1).to_string(), "i8");
    let half = body.op(
        "byte",
        "i8",
        format!("arith.shli {}, {shift} : i8", ones.name),
    );
    let all = body.constant("-1", "i8");
    let keep = body.op(
        "byte",
        "i8",
        format!("arith.xori {}, {} : i8", half.name, all.name),
    );
    (keep.name, bits.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xla_indexing_hlo::layout::Layout;

    fn lines(body: Body) -> Vec<String> {
        body.into_text()
            .lines()
            .map(|l| l.trim().to_string())
            .collect()
    }

    #[test]
    fn bytes_and_wider_are_plain_memref_accesses() {
        let b = ArrayBuffer::new("%arg0".into(), &ArrayShape::new("f32", vec![4, 8])).unwrap();
        let mut body = Body::default();
        let v = b.load(&mut body, &["%i".into(), "%j".into()]);
        b.store(&mut body, &v.name, &["%j".into(), "%i".into()]);
        assert_eq!(
            lines(body),
            [
                "%v1 = memref.load %arg0[%i, %j] : memref<4x8xf32>",
                "memref.store %v1, %arg0[%j, %i] : memref<4x8xf32>",
            ]
        );
    }

    #[test]
    fn packed_elements_are_halves_of_the_byte_at_half_their_linear_position() {
        let mut shape = ArrayShape::new("s4", vec![3, 5]);
        shape.layout = Some(Layout::new(vec![0, 1]));
        let b = ArrayBuffer::new("%arg0".into(), &shape).unwrap();
        assert_eq!(b.ty, "memref<8xi8>");
        let mut body = Body::default();
        let v = b.load(&mut body, &["%i".into(), "%j".into()]);
        assert_eq!(v.ty, "i4");
        let text = lines(body).join("\n");
        // Column-major: n = i + 3 j.
        assert!(text.contains("arith.muli %j, %c"), "{text}");
        assert!(text.contains("arith.addi %i, %lin"), "{text}");
        assert!(text.contains("arith.shrui %lin"), "{text}");
        assert!(text.contains("memref.load %arg0[%at"), "{text}");
        assert!(text.ends_with(": i8 to i4"), "{text}");
    }

    #[test]
    fn packed_stores_change_only_their_half_atomically() {
        let b = ArrayBuffer::new("%out0".into(), &ArrayShape::new("u4", vec![6])).unwrap();
        let mut body = Body::default();
        b.store(&mut body, "%x", &["%i".into()]);
        let text = lines(body).join("\n");
        assert!(text.contains("arith.extui %x : i4 to i8"), "{text}");
        assert!(text.contains("arith.constant 15 : i8"), "{text}");
        assert!(
            text.contains("memref.atomic_rmw andi") && text.contains("memref.atomic_rmw ori"),
            "{text}"
        );
        assert!(!text.contains("memref.store"), "{text}");
    }
}
