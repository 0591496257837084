//! Vector loads and stores of a loop kernel: whether the `unroll` elements a thread handles in
//! one step can be read or written with vector accesses (`ld.global.v4.f32`, `st.global.v2.f64`)
//! instead of one access per element.
//!
//! A thread of a loop kernel handles the elements `unroll_id` in `[0, unroll - 1]` of its group
//! together. An access of a buffer through a map `(thread ids)[chunk_id, unroll_id] -> (index)`
//! reads `w` of them with one vector access of `w` elements, for each group of lanes
//! `unroll_id` in `[g·w, g·w + w - 1]`, when over the whole domain of the thread map
//!
//! 1. *contiguity:* the element's offset in the buffer, `L = Σ index_k · stride_k`, is
//!    `E + unroll_id` with `E` free of `unroll_id`, and
//! 2. *alignment:* `E mod w = 0`, so that the group's first element, at `E + g·w`, starts a
//!    block of `w × element bytes` in the buffer.
//!
//! Both are decided by simplifying `L - unroll_id` and `(L - unroll_id) mod w` on the thread
//! map's domain with `unroll_id` restricted to the group: the access is vectorized only when the
//! first becomes free of `unroll_id` and the second the constant 0. Anything the simplifier
//! cannot show stays scalar. The width `w` is the largest power of two that divides `unroll` and
//! keeps a vector within [`MAX_VECTOR_BYTES`] and [`BUFFER_ALIGNMENT`]; narrower widths are tried
//! when a wider one is not aligned.
//!
//! Two facts outside the maps make this sound. Buffers start at an address aligned to
//! [`BUFFER_ALIGNMENT`] bytes (XLA aligns every buffer it passes to a kernel to at least 16
//! bytes), so an element offset that is a multiple of `w` is an address aligned to `w × bytes ≤
//! 16`. And the loop runs a thread's whole group or none of it: [`lanes_run_together`] holds
//! when the output's element count is a multiple of `unroll`, which [`crate::launch::unroll_factor`]
//! ensures except for the sub-byte widening.

use std::fmt;

use xla_indexing_core::{Expr, IndexingMap, Interval, VarRef};

use crate::kernel::element_bits;
use crate::thread_map::UNROLL_SYMBOL;
use xla_indexing_hlo::shape::ArrayShape;

/// The widest vector access, in bytes (`ld.global.v4.b32`, `ld.global.v2.b64`).
pub const MAX_VECTOR_BYTES: u64 = 16;

/// The alignment, in bytes, of the start of every buffer a kernel reads or writes.
pub const BUFFER_ALIGNMENT: u64 = 16;

/// How one access of a buffer reads or writes a thread's unrolled group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vectorization {
    /// Vectors of `lanes` consecutive elements (`unroll / lanes` of them per group), each
    /// aligned to `bytes` (`lanes × element bytes`).
    Vector {
        /// Elements per vector access.
        lanes: u64,
        /// Bytes per vector access, and the alignment of its address.
        bytes: u64,
    },
    /// One access per element, and why.
    Scalar(String),
}

impl Vectorization {
    /// The elements per vector access, `None` when the access is scalar.
    pub fn lanes(&self) -> Option<u64> {
        match self {
            Vectorization::Vector { lanes, .. } => Some(*lanes),
            Vectorization::Scalar(_) => None,
        }
    }
}

/// `vector of 4 (16 bytes aligned)` or `scalar: why`.
impl fmt::Display for Vectorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Vectorization::Vector { lanes, bytes } => {
                write!(f, "vector of {lanes} ({bytes} bytes aligned)")
            }
            Vectorization::Scalar(why) => write!(f, "scalar: {why}"),
        }
    }
}

/// Whether the thread loop of a kernel writing `elements` elements, `unroll` per thread, runs
/// either all of a thread's group or none of it: the thread map's only constraint bounds the
/// element number `t × unroll + chunk × per_chunk + unroll_id` by `elements - 1`, and its part
/// without `unroll_id` is a multiple of `unroll`, so a group is cut only when `elements` is not.
pub fn lanes_run_together(elements: u64, unroll: u64) -> bool {
    elements.is_multiple_of(unroll.max(1))
}

/// The vectorization of one access: `thread_map` is the kernel's thread-id map (its domain is
/// where the proof holds; range variable [`UNROLL_SYMBOL`] is `unroll_id`), `map` the same
/// variables to the index of `buffer` that the access reads or writes, `unroll` the elements
/// per thread. The caller checks [`lanes_run_together`] and that the access happens for every
/// point of the thread loop (not under a condition or in an inner loop).
pub fn vectorize(
    thread_map: &IndexingMap,
    map: &IndexingMap,
    buffer: &ArrayShape,
    unroll: u64,
) -> Vectorization {
    let scalar = |why: &str| Vectorization::Scalar(why.to_string());
    if unroll < 2 {
        return scalar("not unrolled");
    }
    let bytes = match element_bits(&buffer.element) {
        _ if matches!(buffer.element.as_str(), "c64" | "c128") => {
            return scalar("complex elements (XLA reads them one at a time)");
        }
        Some(bits) if bits >= 8 && bits.is_multiple_of(8) => bits / 8,
        _ => return scalar("sub-byte or unknown elements"),
    };
    if !map.rt_vars().is_empty() {
        return scalar("the index depends on runtime values");
    }
    if map.dims().len() != thread_map.dims().len()
        || map.range_vars().len() != thread_map.range_vars().len()
        || thread_map.range_vars().len() <= UNROLL_SYMBOL
        || map.results().len() != buffer.dims.len()
    {
        return scalar("the access is inside a loop of its own");
    }
    let Some(offset) = linear_offset(map, buffer) else {
        return scalar("the layout has no linear offsets");
    };
    let mut reason = "elements of a thread's group are not adjacent in the buffer".to_string();
    if !unroll.is_power_of_two() {
        return scalar(&format!(
            "{unroll} elements a step make no vector of a power of two"
        ));
    }
    let mut lanes = unroll.min(MAX_VECTOR_BYTES.min(BUFFER_ALIGNMENT) / bytes);
    while lanes >= 2 {
        if unroll.is_multiple_of(lanes) {
            match prove(thread_map, &offset, lanes, unroll) {
                Proof::Holds => {
                    return Vectorization::Vector {
                        lanes,
                        bytes: lanes * bytes,
                    };
                }
                // Smaller groups may still be adjacent (a packed transpose's rows of `v` within
                // a `v × v` square).
                Proof::NotAdjacent => {}
                Proof::NotAligned => {
                    reason = format!(
                        "adjacent elements, but the first of a group is not aligned to {} bytes",
                        lanes * bytes
                    );
                }
            }
        }
        lanes /= 2;
    }
    Vectorization::Scalar(reason)
}

/// `Σ index_k · stride_k` over `map`'s results: the element's offset in `buffer`'s layout
/// (`None` for a layout without strides, or on overflow).
pub fn linear_offset(map: &IndexingMap, buffer: &ArrayShape) -> Option<Expr> {
    let strides = buffer.layout_or_default().strides(&buffer.dims).ok()?;
    let mut offset = Expr::zero();
    for (r, s) in map.results().iter().zip(strides) {
        offset = offset.checked_add(&r.checked_scale(s).ok()?).ok()?;
    }
    Some(offset)
}

/// What the simplifier shows of an offset for one vector width.
enum Proof {
    Holds,
    NotAdjacent,
    NotAligned,
}

/// Whether `offset` (over `thread_map`'s variables) is `E + unroll_id` with `E mod lanes = 0`,
/// for every group of `lanes` lanes of the `unroll`.
fn prove(thread_map: &IndexingMap, offset: &Expr, lanes: u64, unroll: u64) -> Proof {
    let u = Expr::sym(UNROLL_SYMBOL as u32);
    let (Ok(base), Ok(lanes_i)) = (offset.checked_sub(&u), i64::try_from(lanes)) else {
        return Proof::NotAdjacent;
    };
    let Ok(residue) = base.modulo(lanes_i) else {
        return Proof::NotAdjacent;
    };
    for group in 0..unroll / lanes {
        let first = (group * lanes) as i64;
        let mut range_vars = thread_map.range_vars().to_vec();
        range_vars[UNROLL_SYMBOL].bounds = range_vars[UNROLL_SYMBOL]
            .bounds
            .intersect(Interval::new(first, first + lanes_i - 1));
        let mut check = IndexingMap::new(
            vec![base.clone(), residue.clone()],
            thread_map.dims().to_vec(),
            range_vars,
            thread_map.rt_vars().to_vec(),
        );
        for (e, iv) in thread_map.constraints() {
            check.add_constraint(e.clone(), *iv);
        }
        check.simplify();
        if check.is_known_empty() {
            continue;
        }
        if check.results()[0].uses(VarRef::Sym(UNROLL_SYMBOL as u32)) {
            return Proof::NotAdjacent;
        }
        if check.results()[1].as_constant() != Some(0) {
            return Proof::NotAligned;
        }
    }
    Proof::Holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;
    use crate::launch::launch_dimensions;
    use crate::thread_map::thread_id_map;
    use xla_indexing_hlo::layout::Layout;

    /// The thread map of a row-major output of `dims` unrolled by `unroll`.
    fn thread_map(dims: &[i64], unroll: u64) -> IndexingMap {
        let elements = dims.iter().product::<i64>() as u64;
        let launch = launch_dimensions(elements, unroll, &Device::h100()).unwrap();
        thread_id_map(&launch, unroll, dims, &Layout::default_for_rank(dims.len())).unwrap()
    }

    /// The thread map composed with an output-to-operand map given as text.
    fn through(t: &IndexingMap, operand_map: &str) -> IndexingMap {
        let m = IndexingMap::parse(operand_map).unwrap();
        let mut c = t.compose(&m).unwrap();
        c.simplify();
        c
    }

    fn shape(element: &str, dims: &[i64]) -> ArrayShape {
        ArrayShape::new(element, dims.to_vec())
    }

    #[test]
    fn same_shape_rows_are_vectors_of_sixteen_bytes() {
        let t = thread_map(&[4096, 4096], 4);
        let v = vectorize(&t, &t, &shape("f32", &[4096, 4096]), 4);
        assert_eq!(
            v,
            Vectorization::Vector {
                lanes: 4,
                bytes: 16
            }
        );
        assert_eq!(v.to_string(), "vector of 4 (16 bytes aligned)");
        let f64s = vectorize(&t, &t, &shape("f64", &[4096, 4096]), 4);
        assert_eq!(
            f64s,
            Vectorization::Vector {
                lanes: 2,
                bytes: 16
            }
        );
        let f16s = vectorize(&t, &t, &shape("f16", &[4096, 4096]), 4);
        assert_eq!(f16s, Vectorization::Vector { lanes: 4, bytes: 8 });
        let odd = thread_map(&[270338], 2);
        let halves = vectorize(&odd, &odd, &shape("f16", &[270338]), 2);
        assert_eq!(halves, Vectorization::Vector { lanes: 2, bytes: 4 });
    }

    #[test]
    fn row_broadcasts_vectorize_when_rows_hold_whole_groups() {
        let t = thread_map(&[528, 512], 4);
        let row = through(
            &t,
            "(d0, d1) -> (d1), domain: d0 in [0, 527], d1 in [0, 511]",
        );
        assert_eq!(
            vectorize(&t, &row, &shape("f32", &[512]), 4).lanes(),
            Some(4)
        );
        // Rows of 502: a group can span two rows, whose broadcast elements are not adjacent.
        let t = thread_map(&[540, 502], 4);
        let row = through(
            &t,
            "(d0, d1) -> (d1), domain: d0 in [0, 539], d1 in [0, 501]",
        );
        assert_eq!(
            vectorize(&t, &row, &shape("f32", &[502]), 4),
            Vectorization::Scalar(
                "elements of a thread's group are not adjacent in the buffer".into()
            )
        );
        // A column broadcast reads one element for the whole group.
        let t = thread_map(&[528, 512], 4);
        let column = through(
            &t,
            "(d0, d1) -> (d0), domain: d0 in [0, 527], d1 in [0, 511]",
        );
        assert_eq!(
            vectorize(&t, &column, &shape("f32", &[528]), 4).lanes(),
            None
        );
    }

    #[test]
    fn transposes_and_column_major_buffers_stay_scalar() {
        let t = thread_map(&[528, 512], 4);
        let transposed = through(
            &t,
            "(d0, d1) -> (d1, d0), domain: d0 in [0, 527], d1 in [0, 511]",
        );
        assert_eq!(
            vectorize(&t, &transposed, &shape("f32", &[512, 528]), 4).lanes(),
            None
        );
        let mut column_major = shape("f32", &[528, 512]);
        column_major.layout = Some(Layout::new(vec![0, 1]));
        assert_eq!(vectorize(&t, &t, &column_major, 4).lanes(), None);
    }

    #[test]
    fn slices_vectorize_only_as_far_as_their_offset_is_aligned() {
        let t = thread_map(&[270336], 4);
        let slice = |offset: i64| {
            through(
                &t,
                &format!("(d0) -> (d0 + {offset}), domain: d0 in [0, 270335]"),
            )
        };
        let buffer = shape("f32", &[270340]);
        assert_eq!(vectorize(&t, &slice(4), &buffer, 4).lanes(), Some(4));
        assert_eq!(vectorize(&t, &slice(2), &buffer, 4).lanes(), Some(2));
        assert_eq!(
            vectorize(&t, &slice(1), &buffer, 4),
            Vectorization::Scalar(
                "adjacent elements, but the first of a group is not aligned to 8 bytes".into()
            )
        );
        // Every second element: not adjacent.
        let strided = through(&t, "(d0) -> (d0 * 2), domain: d0 in [0, 270335]");
        assert_eq!(
            vectorize(&t, &strided, &shape("f32", &[540672]), 4).lanes(),
            None
        );
    }

    #[test]
    fn elements_and_loops_that_stay_scalar() {
        let t = thread_map(&[528, 512], 4);
        // `pred` is a byte per element in memory, as XLA stores it: four are one vector.
        assert_eq!(
            vectorize(&t, &t, &shape("pred", &[528, 512]), 4).lanes(),
            Some(4)
        );
        // As XLA's, complex elements are read one at a time.
        assert_eq!(
            vectorize(&t, &t, &shape("c64", &[528, 512]), 4).lanes(),
            None
        );
        let small = thread_map(&[8, 128], 1);
        assert_eq!(
            vectorize(&small, &small, &shape("f32", &[8, 128]), 1),
            Vectorization::Scalar("not unrolled".into())
        );
        assert!(lanes_run_together(270336, 4));
        assert!(!lanes_run_together(270338, 4));
        assert!(lanes_run_together(1024, 1));
    }
}
