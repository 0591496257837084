//! The access pattern of one operand of a fused computation, by enumeration of its indexing maps:
//! how often each input element is read, how many input elements each output element reads, and
//! which accesses are coalesced.
//!
//! Coalescing is judged per map when the GPU loop kernel's analysis gives a verdict
//! ([`Judge::PerMap`]); otherwise ([`Judge::Neighbours`]) with one thread per output element,
//! threads numbered in the output's physical (layout) order, in warps of [`WARP`]: two
//! neighbouring threads of a warp access memory together when, at every value of the map's
//! symbols where both read, their input elements lie at most one slot apart in the input's
//! physical layout, and a thread is uncoalesced when either of its pairs is. Runtime variables
//! take every value of their range.

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::shape::ArrayShape;

/// Threads per warp.
pub const WARP: i64 = 32;
/// The most output or input elements a pattern covers.
pub const MAX_ELEMENTS: i64 = 1 << 22;
/// The most map evaluations one pattern costs.
pub const MAX_WORK: u128 = 1 << 25;
/// The most values of one map's symbols.
pub const MAX_SYMBOL_POINTS: u128 = 1 << 18;

/// How accesses are judged coalesced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge<'a> {
    /// Neighbouring threads (one per output element, layout order) read at most one slot apart.
    Neighbours,
    /// One verdict per map (`true`: coalesced), as the GPU kernel's analysis gives them.
    PerMap(&'a [bool]),
}

/// One warp of a loop kernel: which elements its lanes read in the kernel's first step (chunk 0,
/// every unrolled element). Thread `t` writes output elements `t * unroll + u` (layout order) in
/// the first step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warp {
    pub index: u64,
    pub unroll: u64,
    /// Threads of the whole launch.
    pub threads: u64,
}

impl Warp {
    /// The lane of this warp that writes output element `element` (layout order) in the first
    /// step, if one does.
    fn lane_of(&self, element: u64) -> Option<u8> {
        let thread = element / self.unroll.max(1);
        let lanes = WARP as u64;
        (thread < self.threads && thread / lanes == self.index).then(|| (thread % lanes) as u8)
    }
}

/// An operand's access pattern. Element arrays are in row-major (logical) order.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessPattern {
    pub output: ArrayShape,
    pub input: ArrayShape,
    /// Times each input element is read.
    pub reads: Vec<u32>,
    /// Input elements read by an uncoalesced access.
    pub input_uncoalesced: Vec<bool>,
    /// Input elements each output element reads.
    pub fan_in: Vec<u32>,
    /// Output elements whose accesses are uncoalesced.
    pub output_uncoalesced: Vec<bool>,
    /// Whether coalescing could be judged (not for tiled layouts).
    pub coalescing_known: bool,
    /// With a [`Warp`]: per input element, the lowest lane of the warp that reads it in the
    /// first step.
    pub lanes: Option<Vec<Option<u8>>>,
}

impl AccessPattern {
    /// The number of input elements read at least once.
    pub fn elements_read(&self) -> usize {
        self.reads.iter().filter(|r| **r > 0).count()
    }

    /// The number of output elements whose accesses are uncoalesced.
    pub fn uncoalesced_outputs(&self) -> usize {
        self.output_uncoalesced.iter().filter(|u| **u).count()
    }

    /// Enumerates the maps (from `output` to `input`) at every output element.
    pub fn compute(
        maps: &[IndexingMap],
        output: &ArrayShape,
        input: &ArrayShape,
        judge: Judge<'_>,
        warp: Option<Warp>,
    ) -> Result<AccessPattern, String> {
        let n_out = element_count(output)?;
        let n_in = element_count(input)?;
        let mut work: u128 = 0;
        for m in maps.iter().filter(|m| !m.is_known_empty()) {
            if m.dims().len() != output.rank() || m.results().len() != input.rank() {
                return Err(format!("the map {m} does not go from {output} to {input}"));
            }
            let symbols: u128 = m
                .all_vars()
                .skip(output.rank())
                .fold(1, |acc: u128, v| acc.saturating_mul(v.bounds.count()));
            if symbols > MAX_SYMBOL_POINTS {
                return Err(format!(
                    "the map {m} reads {symbols} elements per output element, more than {MAX_SYMBOL_POINTS}"
                ));
            }
            work = work.saturating_add(symbols.saturating_mul(n_out as u128));
        }
        if work > MAX_WORK {
            return Err(format!(
                "drawing needs {work} map evaluations, more than {MAX_WORK}; pick a smaller fusion"
            ));
        }
        let in_strides = input.layout_or_default().strides(&input.dims).ok();
        let mut pattern = AccessPattern {
            output: output.clone(),
            input: input.clone(),
            reads: vec![0; n_in as usize],
            input_uncoalesced: vec![false; n_in as usize],
            fan_in: vec![0; n_out as usize],
            output_uncoalesced: vec![false; n_out as usize],
            coalescing_known: in_strides.is_some() || matches!(judge, Judge::PerMap(_)),
            lanes: warp.map(|_| vec![None; n_in as usize]),
        };
        for (k, m) in maps.iter().enumerate().filter(|(_, m)| !m.is_known_empty()) {
            let verdict = match judge {
                Judge::PerMap(v) => Some(v.get(k).copied().unwrap_or(true)),
                Judge::Neighbours => None,
            };
            pattern.add_map(m, in_strides.as_deref(), verdict, warp);
        }
        Ok(pattern)
    }

    /// Counts one map's reads and marks its uncoalesced threads: every thread that reads
    /// through a map with a negative `verdict`, or by comparing neighbours without one.
    fn add_map(
        &mut self,
        map: &IndexingMap,
        in_strides: Option<&[i64]>,
        verdict: Option<bool>,
        warp: Option<Warp>,
    ) {
        let symbols = symbol_points(map, self.output.rank());
        let out_layout = self.output.layout_or_default();
        let mut previous: Option<(usize, Vec<Option<Option<i64>>>)> = None;
        for (thread, index) in
            PhysicalOrder::new(&self.output.dims, &out_layout.minor_to_major).enumerate()
        {
            let out = row_major(&index, &self.output.dims);
            let lane = warp.and_then(|w| w.lane_of(thread as u64));
            let mut offsets = Vec::with_capacity(symbols.len());
            for syms in &symbols {
                let read = map
                    .contains(&index, syms)
                    .then(|| map.evaluate(&index, syms))
                    .flatten()
                    .filter(|e| in_bounds(e, &self.input.dims));
                offsets.push(read.as_ref().map(|e| {
                    let at = row_major(e, &self.input.dims);
                    self.reads[at] += 1;
                    self.fan_in[out] += 1;
                    if let (Some(lane), Some(lanes)) = (lane, self.lanes.as_mut()) {
                        let slot = &mut lanes[at];
                        *slot = Some(slot.map_or(lane, |l| l.min(lane)));
                    }
                    in_strides.and_then(|s| physical_offset(e, s))
                }));
            }
            match verdict {
                Some(coalesced) => {
                    if !coalesced && offsets.iter().any(|o| o.is_some()) {
                        self.output_uncoalesced[out] = true;
                    }
                }
                None => {
                    if let Some((prev, prev_offsets)) = previous.take()
                        && thread as i64 % WARP != 0
                        && in_strides.is_some()
                        && !neighbours_coalesced(&prev_offsets, &offsets)
                    {
                        self.output_uncoalesced[prev] = true;
                        self.output_uncoalesced[out] = true;
                    }
                    previous = Some((out, offsets));
                }
            }
        }
        self.mark_inputs(map, &symbols);
    }

    /// Marks the input elements read by uncoalesced threads.
    fn mark_inputs(&mut self, map: &IndexingMap, symbols: &[Vec<i64>]) {
        for index in PhysicalOrder::new(&self.output.dims, &[]) {
            if !self.output_uncoalesced[row_major(&index, &self.output.dims)] {
                continue;
            }
            for syms in symbols {
                if let Some(e) = map
                    .contains(&index, syms)
                    .then(|| map.evaluate(&index, syms))
                    .flatten()
                    .filter(|e| in_bounds(e, &self.input.dims))
                {
                    self.input_uncoalesced[row_major(&e, &self.input.dims)] = true;
                }
            }
        }
    }
}

/// Whether two neighbouring threads' reads (per symbol value: whether the thread reads, and
/// the element's offset when the layout gives one) are at most one slot apart wherever both
/// read.
fn neighbours_coalesced(a: &[Option<Option<i64>>], b: &[Option<Option<i64>>]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| match (x.flatten(), y.flatten()) {
            (Some(x), Some(y)) => y.abs_diff(x) <= 1,
            _ => true,
        })
}

fn element_count(shape: &ArrayShape) -> Result<i64, String> {
    match shape.element_count() {
        Some(n) if n <= MAX_ELEMENTS => Ok(n),
        _ => Err(format!(
            "{shape} has more than {MAX_ELEMENTS} elements, too many to draw one by one"
        )),
    }
}

/// Every value of the map's symbols (range variables, then runtime variables).
fn symbol_points(map: &IndexingMap, rank: usize) -> Vec<Vec<i64>> {
    let bounds: Vec<_> = map.all_vars().skip(rank).map(|v| v.bounds).collect();
    let mut points = vec![Vec::new()];
    for b in bounds {
        points = points
            .into_iter()
            .flat_map(|p| {
                (b.lo..=b.hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    points
}

fn in_bounds(index: &[i64], dims: &[i64]) -> bool {
    index.len() == dims.len() && index.iter().zip(dims).all(|(i, d)| (0..*d).contains(i))
}

/// The row-major position of an in-bounds index.
pub fn row_major(index: &[i64], dims: &[i64]) -> usize {
    index
        .iter()
        .zip(dims)
        .fold(0usize, |acc, (i, d)| acc * *d as usize + *i as usize)
}

fn physical_offset(index: &[i64], strides: &[i64]) -> Option<i64> {
    index
        .iter()
        .zip(strides)
        .try_fold(0i64, |acc, (i, s)| acc.checked_add(i.checked_mul(*s)?))
}

/// The indices of a shape, the dimensions of `minor_to_major` varying fastest first (row-major
/// when it is empty).
struct PhysicalOrder {
    dims: Vec<i64>,
    order: Vec<usize>,
    next: Option<Vec<i64>>,
}

impl PhysicalOrder {
    fn new(dims: &[i64], minor_to_major: &[usize]) -> PhysicalOrder {
        let order = if minor_to_major.len() == dims.len() {
            minor_to_major.to_vec()
        } else {
            (0..dims.len()).rev().collect()
        };
        let empty = dims.iter().any(|d| *d <= 0);
        PhysicalOrder {
            dims: dims.to_vec(),
            order,
            next: (!empty).then(|| vec![0; dims.len()]),
        }
    }
}

impl Iterator for PhysicalOrder {
    type Item = Vec<i64>;

    fn next(&mut self) -> Option<Vec<i64>> {
        let current = self.next.take()?;
        let mut index = current.clone();
        for &d in &self.order {
            index[d] += 1;
            if index[d] < self.dims[d] {
                self.next = Some(index);
                return Some(current);
            }
            index[d] = 0;
        }
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(dims: &[i64]) -> ArrayShape {
        ArrayShape::new("f32", dims.to_vec())
    }

    #[test]
    fn physical_order_follows_the_layout() {
        let order: Vec<_> = PhysicalOrder::new(&[2, 3], &[0, 1]).collect();
        assert_eq!(
            order,
            [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]].map(|a| a.to_vec())
        );
        assert_eq!(PhysicalOrder::new(&[], &[]).count(), 1);
        assert_eq!(PhysicalOrder::new(&[3, 0], &[]).count(), 0);
    }

    #[test]
    fn a_copy_is_coalesced_and_a_transpose_is_not() {
        let copy =
            IndexingMap::parse("(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 7]").unwrap();
        let p = AccessPattern::compute(
            &[copy],
            &shape(&[4, 8]),
            &shape(&[4, 8]),
            Judge::Neighbours,
            None,
        )
        .unwrap();
        assert!(p.reads.iter().all(|r| *r == 1));
        assert!(p.fan_in.iter().all(|r| *r == 1));
        assert!(!p.output_uncoalesced.iter().any(|u| *u));
        let transpose =
            IndexingMap::parse("(d0, d1) -> (d1, d0), domain: d0 in [0, 3], d1 in [0, 7]").unwrap();
        let p = AccessPattern::compute(
            &[transpose],
            &shape(&[4, 8]),
            &shape(&[8, 4]),
            Judge::Neighbours,
            None,
        )
        .unwrap();
        assert!(p.output_uncoalesced.iter().all(|u| *u));
        assert!(p.input_uncoalesced.iter().all(|u| *u));
    }

    #[test]
    fn a_row_reduction_reads_whole_rows() {
        let reduce =
            IndexingMap::parse("(d0)[s0] -> (d0, s0), domain: d0 in [0, 3], s0 in [0, 5]").unwrap();
        let p = AccessPattern::compute(
            &[reduce],
            &shape(&[4]),
            &shape(&[4, 6]),
            Judge::Neighbours,
            None,
        )
        .unwrap();
        assert_eq!(p.fan_in, vec![6; 4]);
        assert_eq!(p.reads, vec![1; 24]);
        assert!(p.output_uncoalesced.iter().all(|u| *u));
        let column =
            IndexingMap::parse("(d0)[s0] -> (s0, d0), domain: d0 in [0, 5], s0 in [0, 3]").unwrap();
        let p = AccessPattern::compute(
            &[column],
            &shape(&[6]),
            &shape(&[4, 6]),
            Judge::Neighbours,
            None,
        )
        .unwrap();
        assert!(!p.output_uncoalesced.iter().any(|u| *u));
    }

    #[test]
    fn verdicts_per_map_mark_every_thread_that_reads() {
        let reduce =
            IndexingMap::parse("(d0)[s0] -> (d0, s0), domain: d0 in [0, 3], s0 in [0, 5]").unwrap();
        let (output, input) = (shape(&[4]), shape(&[4, 6]));
        let p = AccessPattern::compute(
            std::slice::from_ref(&reduce),
            &output,
            &input,
            Judge::PerMap(&[true]),
            None,
        )
        .unwrap();
        assert!(!p.output_uncoalesced.iter().any(|u| *u));
        let p = AccessPattern::compute(&[reduce], &output, &input, Judge::PerMap(&[false]), None)
            .unwrap();
        assert!(p.output_uncoalesced.iter().all(|u| *u));
        assert!(p.input_uncoalesced.iter().all(|u| *u));
    }

    #[test]
    fn a_warp_reads_by_lane() {
        let transpose =
            IndexingMap::parse("(d0, d1) -> (d1, d0), domain: d0 in [0, 3], d1 in [0, 15]")
                .unwrap();
        let warp = Warp {
            index: 1,
            unroll: 2,
            threads: 32,
        };
        let p = AccessPattern::compute(
            &[transpose],
            &shape(&[4, 16]),
            &shape(&[16, 4]),
            Judge::Neighbours,
            Some(warp),
        )
        .unwrap();
        // Warp 1 would hold threads 32..63, past the 32 threads of the launch.
        assert!(p.lanes.as_ref().unwrap().iter().all(Option::is_none));
        let warp = Warp { index: 0, ..warp };
        let map = IndexingMap::parse("(d0, d1) -> (d1, d0), domain: d0 in [0, 3], d1 in [0, 15]")
            .unwrap();
        let p = AccessPattern::compute(
            &[map],
            &shape(&[4, 16]),
            &shape(&[16, 4]),
            Judge::Neighbours,
            Some(warp),
        )
        .unwrap();
        let lanes = p.lanes.unwrap();
        // Output element (0, 3) is element 3 in layout order: thread 1 (two per thread).
        assert_eq!(lanes[row_major(&[3, 0], &[16, 4])], Some(1));
        assert_eq!(lanes[row_major(&[15, 3], &[16, 4])], Some(31));
    }

    #[test]
    fn huge_shapes_are_refused() {
        let map = IndexingMap::parse("(d0) -> (d0), domain: d0 in [0, 1099511627775]").unwrap();
        let big = shape(&[1 << 40]);
        let err = AccessPattern::compute(&[map], &big, &big, Judge::Neighbours, None).unwrap_err();
        assert!(err.contains("too many to draw"), "{err}");
    }
}
