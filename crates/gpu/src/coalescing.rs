//! Coalescing of a kernel's reads: how many 128-byte transactions one warp issues for an
//! operand, against the fewest that could carry the same bytes, and why an access is not
//! coalesced.
//!
//! The model: the first warp of the first block (`th_x` in `[0, lanes - 1]`, every other id 0)
//! reads through the thread map composed with the operand's map and its layout (the element's
//! offset in the operand's buffer, padding included). One *step* is one point of the per-thread
//! loop (the chunk and the operand's own range variables, such as reduced dimensions); in a step
//! every lane reads every element of its unrolled group (`unroll_id`), which the loop emitter
//! issues together. A step costs the distinct 128-byte segments its addresses fall in (buffers
//! are 128-byte aligned); its ideal is the distinct bytes it reads, rounded up to whole
//! transactions. Runtime variables take the midpoint of their range, as in XLA. Steps are counted
//! exactly up to a budget of evaluated points; beyond it the first steps are counted and the
//! result says so. An access is coalesced when `ideal > 0.9 × transactions`.
//!
//! Where the elements lie is a [`Buffer`]: an HLO shape's layout ([`analyze_access`]) or any
//! strides and offset, such as those of a strided MLIR memref ([`analyze_buffer_access`]).

use xla_indexing_core::{Atom, ComposeError, Expr, IndexingMap, Var, VarRef};

use crate::device::Device;
use crate::kernel::element_bits;
use crate::thread_map::{UNROLL_SYMBOL, restrict_to_warp};
use xla_indexing_hlo::layout::{Layout, LayoutError};
use xla_indexing_hlo::shape::ArrayShape;

/// The most (lane, unroll, step) points evaluated for one access.
pub const POINT_BUDGET: u64 = 1 << 22;

/// The coalescing of one access of one operand.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessCoalescing {
    /// Lanes of the analysed warp.
    pub lanes: u64,
    /// `(th_x)[loop symbols] -> (operand index)` for the warp.
    pub warp_map: IndexingMap,
    /// `(th_x)[loop symbols] -> (element offset in the buffer)` for the warp.
    pub offset_map: IndexingMap,
    /// The offset split into the part that depends on `th_x` alone, the part that depends on
    /// the loop symbols alone (with the constant) and the part that mixes both.
    pub split: Split,
    /// Per operand dimension that changes across the warp, how it changes.
    pub moving: Vec<MovingDim>,
    /// Loop steps of the warp, and how many of them were counted.
    pub steps: u128,
    /// How many of the `steps` were counted (fewer when the point budget ran out); the counts
    /// below are over these.
    pub counted_steps: u128,
    /// Transactions (of the device's size, 128 bytes) the counted steps issue, summed over steps.
    pub transactions: u64,
    /// The fewest transactions that could carry the bytes of the counted steps, summed over steps.
    pub ideal: u64,
    /// Whether `ideal > 0.9 × transactions` (or nothing is read).
    pub coalesced: bool,
    /// Why the access is not coalesced (absent when it is).
    pub reason: Option<String>,
}

/// How an operand's elements lie in its buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The element type in XLA's names (`f32`, `bf16`, `s32`, `pred`, ...).
    pub element: String,
    /// Dimension sizes.
    pub dims: Vec<i64>,
    /// Per dimension, the elements between neighbours along it in the buffer.
    pub strides: Vec<i64>,
    /// The element offset of index 0 from the buffer's start (which is taken to be aligned to a
    /// transaction).
    pub offset: i64,
    /// The dimension whose neighbours are adjacent in memory, if any.
    pub minor: Option<usize>,
    /// How reasons name the placement: `layout {1,0}`, `strides [256, 1]`.
    pub description: String,
}

impl Buffer {
    /// The buffer of an HLO array: its layout (the default one when none is written).
    pub fn of_shape(shape: &ArrayShape) -> Result<Buffer, LayoutError> {
        let layout = shape.layout_or_default();
        Ok(Buffer {
            element: shape.element.clone(),
            dims: shape.dims.clone(),
            strides: layout.strides(&shape.dims)?,
            offset: 0,
            minor: layout.minor_to_major.first().copied(),
            description: format!("layout {layout}"),
        })
    }

    /// A buffer of the given strides (in elements) and offset. Strides that are those of a dense
    /// layout (no padding, offset 0) are described as that layout, like an HLO shape's;
    /// otherwise the minor dimension is the last one of stride 1 or -1.
    pub fn strided(element: &str, dims: &[i64], strides: &[i64], offset: i64) -> Buffer {
        if offset == 0
            && let Some(layout) = dense_layout(dims, strides)
        {
            return Buffer {
                element: element.to_string(),
                dims: dims.to_vec(),
                strides: strides.to_vec(),
                offset,
                minor: layout.minor_to_major.first().copied(),
                description: format!("layout {layout}"),
            };
        }
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let description = if offset == 0 {
            format!("strides [{}]", list(strides))
        } else {
            format!("strides [{}] and offset {offset}", list(strides))
        };
        Buffer {
            element: element.to_string(),
            dims: dims.to_vec(),
            strides: strides.to_vec(),
            offset,
            minor: strides.iter().rposition(|s| s.abs() == 1),
            description,
        }
    }

    /// The map from an index to its element's position in the buffer,
    /// `(d0, ..., dn) -> (offset + Σ di * stride_i)`.
    fn physical_map(&self) -> Result<IndexingMap, ComposeError> {
        if self.strides.len() != self.dims.len() {
            return Err(ComposeError::Arity {
                results: self.dims.len(),
                dims: self.strides.len(),
            });
        }
        let mut linear = Expr::constant(self.offset);
        for (i, s) in self.strides.iter().enumerate() {
            linear = linear.checked_add(&Expr::dim(i as u32).checked_scale(*s)?)?;
        }
        Ok(IndexingMap::new(
            vec![linear],
            Var::from_sizes(&self.dims),
            Vec::new(),
            Vec::new(),
        ))
    }
}

/// The dense layout whose strides `strides` are, if any: dimensions ordered by stride (the
/// later one first among equals), each stride the product of the sizes of the more minor ones.
fn dense_layout(dims: &[i64], strides: &[i64]) -> Option<Layout> {
    if dims.len() != strides.len() {
        return None;
    }
    let mut minor_to_major: Vec<usize> = (0..dims.len()).collect();
    minor_to_major.sort_by_key(|&d| (strides[d], std::cmp::Reverse(d)));
    let layout = Layout::new(minor_to_major);
    (layout.strides(dims).ok()?.as_slice() == strides).then_some(layout)
}

/// An offset or index as `thread + loops + mixed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The terms that depend on `th_x` alone.
    pub thread: Expr,
    /// The terms without `th_x` (the loop symbols), and the constant.
    pub loops: Expr,
    /// The terms that depend on both `th_x` and loop symbols.
    pub mixed: Expr,
}

/// An operand dimension whose index changes across the warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovingDim {
    /// The operand dimension (0-based).
    pub dimension: usize,
    /// Elements the index advances from one lane to the next, when it is `k × th_x`.
    pub per_lane: Option<i64>,
    /// The index's split into thread, loop and mixed parts.
    pub split: Split,
    /// The dimension's stride in the buffer, in elements.
    pub layout_stride: i64,
}

/// Why an access could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoalescingError {
    /// The element type has no known width.
    #[error("unknown element type {0}")]
    ElementType(String),
    /// The layout does not fit the shape or cannot be linearized.
    #[error("layout: {0}")]
    Layout(#[from] LayoutError),
    /// Composing the thread map with the operand's map failed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// The operand's maps are not defined (why, as the plan says).
    #[error("maps undefined: {0}")]
    Undefined(String),
}

impl Split {
    /// Splits `e` by whether each term mentions dimension 0 (`th_x`), symbols, or both.
    pub fn of(e: &Expr) -> Split {
        let mut parts = [Vec::new(), Vec::new(), Vec::new()];
        for (atom, coef) in e.terms() {
            let (mut thread, mut loops) = (false, false);
            Expr::atom(atom.clone()).for_each_var(&mut |v| match v {
                VarRef::Dim(_) => thread = true,
                VarRef::Sym(_) => loops = true,
            });
            let slot = match (thread, loops) {
                (true, false) => 0,
                (false, _) => 1,
                (true, true) => 2,
            };
            parts[slot].push((atom.clone(), *coef));
        }
        let [t, l, m] = parts;
        let build = |terms, c| Expr::linear(terms, c).expect("a subset of an expression's terms");
        Split {
            thread: build(t, 0),
            loops: build(l, e.constant_term()),
            mixed: build(m, 0),
        }
    }

    /// `k` when the thread part is `k × th_x` and nothing is mixed.
    pub fn per_lane(&self) -> Option<i64> {
        if self.mixed.as_constant() != Some(0) {
            return None;
        }
        match self.thread.terms() {
            [] => Some(0),
            [(Atom::Var(VarRef::Dim(0)), k)] => Some(*k),
            _ => None,
        }
    }
}

/// Analyses one access: `thread_map` is the kernel's thread-id map, `operand_map` the fusion's
/// map from output element to operand element, `operand` the operand's shape with its layout.
/// This is the entry point for passes that hold the two maps.
pub fn analyze_access(
    thread_map: &IndexingMap,
    operand_map: &IndexingMap,
    operand: &ArrayShape,
    device: &Device,
) -> Result<AccessCoalescing, CoalescingError> {
    let buffer = Buffer::of_shape(operand)?;
    analyze_buffer_access(thread_map, operand_map, &buffer, device)
}

/// [`analyze_access`] for an operand in any [`Buffer`]. The thread map's range variables are
/// the loop kernel's: the second (`unroll_id`) is the element of a thread's unrolled group, which
/// the warp reads in the same step.
pub fn analyze_buffer_access(
    thread_map: &IndexingMap,
    operand_map: &IndexingMap,
    buffer: &Buffer,
    device: &Device,
) -> Result<AccessCoalescing, CoalescingError> {
    let bits = element_bits(&buffer.element)
        .ok_or_else(|| CoalescingError::ElementType(buffer.element.clone()))?;
    let mut composed = thread_map.compose(operand_map)?;
    composed.simplify();
    let lanes = device
        .warp_size
        .min(thread_map.dims().first().map_or(1, |v| {
            u64::try_from(v.bounds.hi.saturating_add(1)).unwrap_or(1)
        }));
    let mut warp_map = restrict_to_warp(&composed, lanes).map_err(ComposeError::from)?;
    fix_runtime_vars(&mut warp_map)?;
    let mut offset_map = warp_map.compose(&buffer.physical_map()?)?;
    offset_map.simplify();
    let offset = offset_map
        .results()
        .first()
        .cloned()
        .unwrap_or_else(Expr::zero);
    let moving = moving_dims(&warp_map, &buffer.strides);
    let count = count_transactions(&offset_map, bits, device.transaction_bytes);
    let coalesced = count.transactions == 0 || 10 * count.ideal > 9 * count.transactions;
    let reason = (!coalesced).then(|| explain(&moving, buffer, bits, &count));
    Ok(AccessCoalescing {
        lanes,
        split: Split::of(&offset),
        moving,
        steps: count.steps,
        counted_steps: count.counted_steps,
        transactions: count.transactions,
        ideal: count.ideal,
        coalesced,
        reason,
        warp_map,
        offset_map,
    })
}

impl AccessCoalescing {
    /// The verdict with its counts: `coalesced, 4 transactions, ideal 4` or `NOT coalesced, 32
    /// transactions, ideal 1`.
    pub fn summary(&self) -> String {
        let verdict = if self.coalesced {
            "coalesced"
        } else {
            "NOT coalesced"
        };
        format!(
            "{verdict}, {} transactions, ideal {}",
            self.transactions, self.ideal
        )
    }

    /// `counted the first N of M steps` when the budget cut the count short.
    pub fn partial_count(&self) -> Option<String> {
        (self.counted_steps < self.steps).then(|| {
            format!(
                "counted the first {} of {} steps",
                self.counted_steps, self.steps
            )
        })
    }
}

/// Replaces every runtime variable by the midpoint of its range (XLA's choice), keeping the
/// variables so that the map's symbols stay in place.
fn fix_runtime_vars(map: &mut IndexingMap) -> Result<(), ComposeError> {
    let r = map.range_vars().len();
    let mids: Vec<(usize, i64)> = map
        .rt_vars()
        .iter()
        .enumerate()
        .map(|(i, v)| (r + i, v.bounds.lo + (v.bounds.hi - v.bounds.lo) / 2))
        .collect();
    if mids.is_empty() {
        return Ok(());
    }
    let subst = |e: &Expr| {
        e.rewrite_vars(&mut |v| match v {
            VarRef::Sym(i) => mids
                .iter()
                .find(|(s, _)| *s == i as usize)
                .map(|(_, m)| Expr::constant(*m)),
            VarRef::Dim(_) => None,
        })
    };
    let results = map
        .results()
        .iter()
        .map(subst)
        .collect::<Result<Vec<_>, _>>()?;
    let constraints = map
        .constraints()
        .iter()
        .map(|(e, iv)| Ok((subst(e)?, *iv)))
        .collect::<Result<Vec<_>, ComposeError>>()?;
    let mut fixed = map.with_results(results);
    fixed.clear_constraints();
    for (e, iv) in constraints {
        fixed.add_constraint(e, iv);
    }
    fixed.simplify();
    *map = fixed;
    Ok(())
}

fn moving_dims(warp_map: &IndexingMap, strides: &[i64]) -> Vec<MovingDim> {
    warp_map
        .results()
        .iter()
        .enumerate()
        .filter_map(|(d, e)| {
            let split = Split::of(e);
            let moves =
                split.thread.as_constant() != Some(0) || split.mixed.as_constant() != Some(0);
            moves.then(|| MovingDim {
                dimension: d,
                per_lane: split.per_lane(),
                split,
                layout_stride: strides.get(d).copied().unwrap_or(0),
            })
        })
        .collect()
}

/// What [`count_transactions`] found.
struct Count {
    steps: u128,
    counted_steps: u128,
    transactions: u64,
    ideal: u64,
}

/// Counts, step by step, the segments the warp's addresses fall in and the ideal.
fn count_transactions(offsets: &IndexingMap, bits: u64, transaction_bytes: u64) -> Count {
    let segment_bits = i128::from(transaction_bytes.max(1) * 8);
    let syms = offsets.range_vars().len();
    let rt: Vec<i64> = offsets.rt_vars().iter().map(|v| v.bounds.lo).collect();
    let outer: Vec<usize> = (0..syms).filter(|&s| s != UNROLL_SYMBOL).collect();
    let bound = |s: usize| offsets.range_vars()[s].bounds;
    let steps = outer
        .iter()
        .fold(1u128, |a, &s| a.saturating_mul(bound(s).count()));
    let lanes = offsets.dims().first().map_or(1, |v| v.bounds.count());
    let vector = if UNROLL_SYMBOL < syms {
        bound(UNROLL_SYMBOL).count()
    } else {
        1
    };
    let per_step = lanes.saturating_mul(vector).max(1);
    let max_steps = (u128::from(POINT_BUDGET) / per_step).max(1).min(steps);
    let mut count = Count {
        steps,
        counted_steps: 0,
        transactions: 0,
        ideal: 0,
    };
    if offsets.is_known_empty() || steps == 0 || offsets.all_vars().any(|v| !v.bounds.is_feasible())
    {
        return count;
    }
    let mut point: Vec<i64> = (0..syms).map(|s| bound(s).lo).collect();
    let mut addresses = Vec::new();
    while count.counted_steps < max_steps {
        addresses.clear();
        let vector_range = if UNROLL_SYMBOL < syms {
            bound(UNROLL_SYMBOL)
        } else {
            xla_indexing_core::Interval::point(0)
        };
        let th = offsets
            .dims()
            .first()
            .map(|v| v.bounds)
            .unwrap_or(xla_indexing_core::Interval::point(0));
        for t in th.lo..=th.hi {
            for v in vector_range.lo..=vector_range.hi {
                if UNROLL_SYMBOL < syms {
                    point[UNROLL_SYMBOL] = v;
                }
                let all: Vec<i64> = point.iter().chain(&rt).copied().collect();
                if offsets.contains(&[t], &all)
                    && let Some(&[o]) = offsets.evaluate(&[t], &all).as_deref()
                {
                    addresses.push(o);
                }
            }
        }
        addresses.sort_unstable();
        addresses.dedup();
        let mut segments: Vec<i128> = addresses
            .iter()
            .map(|&o| (i128::from(o) * i128::from(bits)).div_euclid(segment_bits))
            .collect();
        segments.dedup();
        count.transactions += segments.len() as u64;
        let bytes_bits = addresses.len() as i128 * i128::from(bits);
        count.ideal += (bytes_bits + segment_bits - 1).div_euclid(segment_bits) as u64;
        count.counted_steps += 1;
        if !advance(&mut point, &outer, &bound) {
            break;
        }
    }
    count
}

/// The next point of the outer symbols in lexicographic order; false after the last.
fn advance(
    point: &mut [i64],
    outer: &[usize],
    bound: &impl Fn(usize) -> xla_indexing_core::Interval,
) -> bool {
    for &s in outer.iter().rev() {
        if point[s] < bound(s).hi {
            point[s] += 1;
            return true;
        }
        point[s] = bound(s).lo;
    }
    false
}

/// The reason an access is not coalesced: the dimension the lanes move along and its stride.
fn explain(moving: &[MovingDim], buffer: &Buffer, bits: u64, count: &Count) -> String {
    let ratio = count.transactions as f64 / count.ideal.max(1) as f64;
    let tally = format!(
        "{} transactions where {} would do ({ratio:.1}x)",
        count.transactions, count.ideal
    );
    let minor = buffer.minor;
    let place = &buffer.description;
    let bytes = |elements: i64| elements.saturating_mul(bits as i64) / 8;
    let worst = moving
        .iter()
        .filter(|m| Some(m.dimension) != minor || m.per_lane.is_none_or(|k| k.abs() > 1))
        .max_by_key(|m| {
            m.layout_stride
                .saturating_mul(m.per_lane.unwrap_or(1).abs())
        });
    let Some(m) = worst else {
        return format!("the warp's elements straddle transaction boundaries: {tally}");
    };
    let why = match m.per_lane {
        Some(k) if Some(m.dimension) == minor => format!(
            "lanes step {k} elements along dimension {} (the minor one in {place}), {} bytes \
             apart",
            m.dimension,
            bytes(k.saturating_mul(m.layout_stride)).abs()
        ),
        Some(k) => format!(
            "lanes step {k} along dimension {}, which is not minor in {place} (stride {} \
             elements), so neighbouring lanes are {} bytes apart",
            m.dimension,
            m.layout_stride,
            bytes(k.saturating_mul(m.layout_stride)).abs()
        ),
        None => {
            let how = if m.split.mixed.as_constant() != Some(0) {
                "with the lane and the loop together"
            } else {
                "non-linearly with the lane"
            };
            let role = if Some(m.dimension) == minor {
                "the minor one".to_string()
            } else {
                format!("not minor: stride {} elements", m.layout_stride)
            };
            format!("dimension {} moves {how} ({role} in {place})", m.dimension)
        }
    };
    format!("{why}: {tally}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{launch_dimensions, thread_id_map};
    use xla_indexing_hlo::layout::Layout;

    /// The thread map of a loop kernel writing an `f32[8, 128]` output row-major.
    fn thread_map() -> IndexingMap {
        let launch = launch_dimensions(1024, 1, &Device::h100()).unwrap();
        thread_id_map(&launch, 1, &[8, 128], &Layout::default_for_rank(2)).unwrap()
    }

    fn analyze(operand_map: &str, buffer: &Buffer) -> AccessCoalescing {
        let operand_map = IndexingMap::parse(operand_map).unwrap();
        analyze_buffer_access(&thread_map(), &operand_map, buffer, &Device::h100()).unwrap()
    }

    #[test]
    fn strided_buffer_of_a_layout_matches_the_layout() {
        let identity = "(d0, d1) -> (d0, d1), domain: d0 in [0, 7], d1 in [0, 127]";
        for m2m in [vec![1, 0], vec![0, 1]] {
            let mut shape = ArrayShape::new("f32", vec![8, 128]);
            shape.layout = Some(Layout::new(m2m));
            let of_shape = Buffer::of_shape(&shape).unwrap();
            let strided = Buffer::strided("f32", &[8, 128], &of_shape.strides, 0);
            let (a, b) = (analyze(identity, &of_shape), analyze(identity, &strided));
            assert_eq!(
                (a.transactions, a.ideal, a.coalesced),
                (b.transactions, b.ideal, b.coalesced)
            );
            assert_eq!(a.reason.is_some(), b.reason.is_some());
        }
    }

    #[test]
    fn strided_buffer_names_its_strides_in_reasons() {
        let identity = "(d0, d1) -> (d0, d1), domain: d0 in [0, 7], d1 in [0, 127]";
        // Rows padded to 256 elements: still one transaction per warp.
        let padded = analyze(identity, &Buffer::strided("f32", &[8, 128], &[256, 1], 0));
        assert_eq!(padded.summary(), "coalesced, 1 transactions, ideal 1");
        // Column-major: neighbouring lanes 8 elements apart, four lanes per transaction.
        let columns = analyze(identity, &Buffer::strided("f32", &[8, 128], &[1, 8], 0));
        assert_eq!(columns.summary(), "NOT coalesced, 8 transactions, ideal 1");
        assert_eq!(
            columns.reason.as_deref(),
            Some(
                "lanes step 1 along dimension 1, which is not minor in layout {0,1} (stride 8 \
                 elements), so neighbouring lanes are 32 bytes apart: 8 transactions where 1 \
                 would do (8.0x)"
            )
        );
        // Columns of a wider buffer: strides that no dense layout has.
        let wide = analyze(identity, &Buffer::strided("f32", &[8, 128], &[1, 16], 0));
        assert!(
            wide.reason
                .unwrap()
                .contains("not minor in strides [1, 16]")
        );
        // Every other element of the minor dimension: twice the bytes.
        let sparse = analyze(identity, &Buffer::strided("f32", &[8, 128], &[256, 2], 0));
        assert_eq!(sparse.summary(), "NOT coalesced, 2 transactions, ideal 1");
        assert!(sparse.reason.unwrap().contains("strides [256, 2]"));
    }

    #[test]
    fn strided_buffer_offset_shifts_transaction_boundaries() {
        let identity = "(d0, d1) -> (d0, d1), domain: d0 in [0, 7], d1 in [0, 127]";
        let shifted = analyze(identity, &Buffer::strided("f32", &[8, 128], &[128, 1], 1));
        assert_eq!(shifted.summary(), "NOT coalesced, 2 transactions, ideal 1");
        assert_eq!(
            shifted.reason.as_deref(),
            Some(
                "the warp's elements straddle transaction boundaries: 2 transactions where 1 \
                 would do (2.0x)"
            )
        );
        let aligned = analyze(identity, &Buffer::strided("f32", &[8, 128], &[128, 1], 32));
        assert!(aligned.coalesced);
    }

    #[test]
    fn strided_buffer_of_dense_strides_is_a_layout() {
        let described = |dims: &[i64], strides: &[i64], offset| {
            let b = Buffer::strided("f32", dims, strides, offset);
            (b.description, b.minor)
        };
        assert_eq!(
            described(&[8, 128], &[128, 1], 0),
            ("layout {1,0}".to_string(), Some(1))
        );
        assert_eq!(
            described(&[2, 3, 4], &[1, 8, 2], 0),
            ("layout {0,2,1}".to_string(), Some(0))
        );
        assert_eq!(
            described(&[4, 1], &[1, 1], 0),
            ("layout {1,0}".to_string(), Some(1))
        );
        assert_eq!(
            described(&[8, 128], &[128, 1], 4),
            ("strides [128, 1] and offset 4".to_string(), Some(1))
        );
        assert_eq!(
            described(&[8, 128], &[256, 1], 0),
            ("strides [256, 1]".to_string(), Some(1))
        );
    }

    #[test]
    fn strided_buffer_minor_dimension_is_the_last_of_unit_stride() {
        assert_eq!(Buffer::strided("f32", &[2, 4], &[8, 1], 0).minor, Some(1));
        assert_eq!(Buffer::strided("f32", &[4, 2], &[1, 1], 0).minor, Some(1));
        assert_eq!(Buffer::strided("f32", &[4], &[-1], 0).minor, Some(0));
        assert_eq!(Buffer::strided("f32", &[4], &[2], 0).minor, None);
        assert_eq!(
            Buffer::strided("f32", &[4], &[2], 3).description,
            "strides [2] and offset 3"
        );
    }
}
