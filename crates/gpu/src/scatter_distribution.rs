//! How XLA's scatter emitter spreads a scatter's update elements over threads: distributed
//! updates (the loop emitter's launch over the updates, a thread's elements within one update
//! slice), or, when there are more slices than a wave of warps and a slice keeps most lanes of a
//! warp busy, distributed indices: a warp per update slice, each lane reading `vector`
//! adjacent elements of the slice per step, so that a warp's reads of a slice are contiguous
//! and its index vector is read once. With `indices_are_sorted` and several updates expected per
//! start, XLA's accumulating variant: a warp (or a few, for a long slice) takes
//! `indices_per_warp` consecutive slices, combining the updates of equal indices in registers
//! and landing them when the index changes.

use xla_indexing_core::interval::gcd;
use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var};

use crate::device::Device;
use crate::error::PlanError;
use crate::kernel::element_bits;
use crate::launch::{LaunchDimensions, UnrollInputs, unroll_factor};
use crate::thread_map::{
    DIM_NAMES, SYMBOL_NAMES, launch_elements, loop_launch, with_launch_bounds,
};
use xla_indexing_hlo::shape::ArrayShape;

/// Warps per block of XLA's scatter over distributed indices.
const WARPS_PER_BLOCK: u64 = 4;
/// The widest vector of update elements XLA's scatter reads, in bits.
const MAX_VECTOR_BITS: u64 = 64;
/// The widest vector of indices XLA's scatter over sorted indices reads, in bits.
const MAX_INDEX_VECTOR_BITS: u64 = 128;

/// Which threads take which update elements.
#[derive(Clone, Debug, PartialEq)]
pub enum Distribution {
    /// The loop emitter's launch over the updates, `vector` elements of one slice per thread.
    Updates {
        /// Elements per thread.
        vector: u64,
    },
    /// A warp per update slice, each lane `vector` adjacent elements of it per step.
    Indices {
        /// Adjacent elements per lane and step.
        vector: u64,
    },
    /// Sorted indices: each warp's slices in turn, their updates accumulated while the index
    /// stays the same (the thread map's third range variable, `index_id`, walks them).
    Sorted(Box<Sorted>),
}

/// XLA's scatter over sorted indices.
#[derive(Clone, Debug, PartialEq)]
pub struct Sorted {
    /// Adjacent elements per lane and step.
    pub vector: u64,
    /// Warps that share a slice.
    pub warps_per_slice: u64,
    /// Consecutive slices a warp takes.
    pub indices_per_warp: u64,
    /// Elements of one slice.
    pub slice_elements: i64,
    /// Indices a warp reads at a time (one vector of 128 bits where a slice has one index, a
    /// warp takes more slices than that, and the indices are a parameter), or 1. Where a slice
    /// has one index and a warp takes more slices than a vector holds, `indices_per_warp` is a
    /// whole number of vectors, as XLA pads it, whether or not they are read as vectors.
    pub indices_vector: u64,
    /// `(thread ids)[chunk_id, unroll_id, index_id] -> (position in the slice)` of the
    /// thread's element (`chunk_id` its step, `unroll_id` its place in the vector): positions
    /// past the slice are idle.
    pub position: IndexingMap,
}

impl Distribution {
    /// How the report names it.
    pub fn describe(&self) -> String {
        match self {
            Distribution::Updates { vector } => {
                format!("distributed updates, {vector} per thread")
            }
            Distribution::Indices { vector } => {
                format!(
                    "distributed indices: a warp per update slice, {vector} adjacent elements per lane"
                )
            }
            Distribution::Sorted(s) => format!(
                "sorted indices: {} slices per warp, {} warps per slice, {} adjacent elements per lane, equal indices accumulated in registers{}",
                s.indices_per_warp,
                s.warps_per_slice,
                s.vector,
                if s.indices_vector > 1 {
                    format!(", indices read {} at a time", s.indices_vector)
                } else {
                    String::new()
                }
            ),
        }
    }
}

/// The update elements of a scatter: their shape, and which of its dimensions are the window.
pub struct Updates<'a> {
    /// The updates' shape.
    pub shape: &'a ArrayShape,
    /// The update window dimensions (`update_window_dims`).
    pub window: &'a [usize],
    /// With `indices_are_sorted` (and one output), the number of starts at which a window
    /// fits: XLA's estimate of how many updates share a start.
    pub sorted_starts: Option<i64>,
    /// The bits of the index when a slice has one (an index vector of one component).
    pub index_bits: Option<u64>,
    /// Whether the indices are a parameter in the default layout (which vectors can load).
    pub indices_loadable: bool,
}

impl Updates<'_> {
    /// Elements of one update slice (the window).
    fn slice_elements(&self) -> i64 {
        self.window
            .iter()
            .filter_map(|&d| self.shape.dims.get(d))
            .product()
    }
}

/// XLA's distribution of `updates` on `device`, with its launch and thread map
/// (`(thread ids)[chunk_id, unroll_id] -> (update index)`).
pub fn distribute(
    updates: &Updates<'_>,
    device: &Device,
) -> Result<(Distribution, LaunchDimensions, IndexingMap), PlanError> {
    let shape = updates.shape;
    let elements = launch_elements(shape)?;
    let slice = updates.slice_elements().max(1);
    let slices = i64::try_from(elements).map_err(|_| PlanError::TooManyUpdates)? / slice;
    let warp = device.warp_size as i64;
    let bits = element_bits(&shape.element).unwrap_or(8).max(1);
    let mut vector = gcd(slice, (MAX_VECTOR_BITS / bits).max(1) as i64).max(1);
    while vector > 1 && warp * vector > slice {
        vector /= 2;
    }
    let active_lanes = warp.min(slice / vector);
    let wave = WARPS_PER_BLOCK * device.core_count;
    let bf16 = shape.element == "bf16";
    if let Some(starts) = updates.sorted_starts.filter(|_| !bf16)
        && slices > 2 * wave as i64
        && active_lanes > warp / 2
    {
        let mut indices_per_warp = (slices + starts.max(1) - 1) / starts.max(1);
        if indices_per_warp > 2 {
            // XLA reads one index per slice a vector of 128 bits at a time, the warp's slices
            // padded to whole vectors (also where the indices are computed, and then read one
            // by one).
            let indices_vector = match updates.index_bits {
                Some(bits) if bits > 0 && (MAX_INDEX_VECTOR_BITS / bits) as i64 > 1 => {
                    let v = (MAX_INDEX_VECTOR_BITS / bits) as i64;
                    if indices_per_warp > v {
                        indices_per_warp = (indices_per_warp + v - 1) / v * v;
                        if updates.indices_loadable { v } else { 1 }
                    } else {
                        1
                    }
                }
                _ => 1,
            };
            let warps_per_slice = (slice + active_lanes * vector - 1) / (active_lanes * vector);
            let layout = SortedLayout {
                slices,
                vector,
                warp,
                warps_per_slice,
                indices_per_warp,
            };
            let (launch, map, position) =
                sorted_maps(updates, &layout).map_err(PlanError::ThreadIdMap)?;
            let sorted = Sorted {
                vector: vector as u64,
                warps_per_slice: warps_per_slice as u64,
                indices_per_warp: indices_per_warp as u64,
                slice_elements: slice,
                indices_vector: indices_vector as u64,
                position,
            };
            return Ok((Distribution::Sorted(Box::new(sorted)), launch, map));
        }
    }
    if slices > wave as i64 && active_lanes > warp / 2 {
        let (launch, map) =
            warp_per_slice(updates, slices, vector, warp).map_err(PlanError::ThreadIdMap)?;
        return Ok((
            Distribution::Indices {
                vector: vector as u64,
            },
            launch,
            map,
        ));
    }
    let inputs = UnrollInputs {
        elements,
        blocks_unrolling: false,
        smallest_output_bits: None,
    };
    let unroll = gcd(slice, unroll_factor(&inputs, device) as i64).max(1) as u64;
    let (launch, map) = loop_launch(shape, unroll, device)?;
    Ok((Distribution::Updates { vector: unroll }, launch, map))
}

/// The shape of a warp-per-slice launch: `warps_per_slice` warps share a slice, each takes
/// `indices_per_warp` consecutive slices.
struct SortedLayout {
    slices: i64,
    vector: i64,
    warp: i64,
    warps_per_slice: i64,
    indices_per_warp: i64,
}

/// A warp per slice: blocks of 4 warps, warp `bl_x * 4 + th_x floordiv 32` on that slice (the
/// scatter dimensions of the update index, row-major), its lane `l` on elements
/// `chunk_id * 32v + l * v + unroll_id` of the window (row-major), while they are in it.
fn warp_per_slice(
    updates: &Updates<'_>,
    slices: i64,
    vector: i64,
    warp: i64,
) -> Result<(LaunchDimensions, IndexingMap), ArithError> {
    let layout = SortedLayout {
        slices,
        vector,
        warp,
        warps_per_slice: 1,
        indices_per_warp: 1,
    };
    let (launch, map, _) = sorted_maps(updates, &layout)?;
    Ok((launch, map))
}

/// The launch and thread map of warps on slices (`(thread ids)[chunk_id, unroll_id, index_id]
/// -> (update index)`, `index_id` walking a warp's consecutive slices where it takes more than
/// one), and the map to the
/// element's position in its slice. Warp `w = bl_x * 4 + th_x floordiv 32` takes part
/// `w mod W` of slices `(w floordiv W) * I + index_id` (`W` warps per slice, `I` slices per
/// warp); its lane `l` elements `part * 32v + chunk_id * 32vW + l * v + unroll_id` of each.
fn sorted_maps(
    updates: &Updates<'_>,
    layout: &SortedLayout,
) -> Result<(LaunchDimensions, IndexingMap, IndexingMap), ArithError> {
    let SortedLayout {
        slices,
        vector,
        warp,
        warps_per_slice,
        indices_per_warp,
    } = *layout;
    let per_block = WARPS_PER_BLOCK as i64;
    let warps = slices
        .checked_mul(warps_per_slice)
        .ok_or(ArithError::Overflow)?;
    let slices_per_block = per_block
        .checked_mul(indices_per_warp)
        .ok_or(ArithError::Overflow)?;
    let blocks = (warps + slices_per_block - 1) / slices_per_block;
    let slice = updates.slice_elements();
    let step = warp.checked_mul(vector).ok_or(ArithError::Overflow)?;
    let stride = step
        .checked_mul(warps_per_slice)
        .ok_or(ArithError::Overflow)?;
    let steps = (slice + stride - 1) / stride;
    let (th_x, bl_x) = (Expr::dim(0), Expr::dim(3));
    let warp_id = bl_x
        .checked_scale(per_block)?
        .checked_add(&th_x.floor_div(warp)?)?;
    // `index_id`, a third range variable where a warp takes several slices.
    let index_id = if indices_per_warp > 1 {
        Expr::sym(2)
    } else {
        Expr::zero()
    };
    let slice_id = warp_id
        .floor_div(warps_per_slice)?
        .checked_scale(indices_per_warp)?
        .checked_add(&index_id)?;
    let part = warp_id.modulo(warps_per_slice)?;
    let lane = th_x.modulo(warp)?;
    let element = part
        .checked_scale(step)?
        .checked_add(&Expr::sym(0).checked_scale(stride)?)?
        .checked_add(&lane.checked_scale(vector)?)?
        .checked_add(&Expr::sym(1))?;
    let dims = &updates.shape.dims;
    let scatter_dims: Vec<usize> = (0..dims.len())
        .filter(|d| !updates.window.contains(d))
        .collect();
    let mut results = vec![Expr::zero(); dims.len()];
    for (group, linear) in [(&scatter_dims[..], &slice_id), (updates.window, &element)] {
        let mut divisor = 1i64;
        for &d in group.iter().rev() {
            results[d] = linear.floor_div(divisor)?.modulo(dims[d].max(1))?;
            divisor = divisor.checked_mul(dims[d]).ok_or(ArithError::Overflow)?;
        }
    }
    let threads = per_block * warp;
    let counts = [threads, 1, 1, blocks, 1, 1];
    let dim_vars: Vec<Var> = DIM_NAMES
        .iter()
        .zip(counts)
        .map(|(name, n)| Var::named(Interval::upto(n), *name))
        .collect();
    let mut symbols = vec![
        Var::named(Interval::upto(steps), SYMBOL_NAMES[0]),
        Var::named(Interval::upto(vector), SYMBOL_NAMES[1]),
    ];
    if indices_per_warp > 1 {
        symbols.push(Var::named(Interval::upto(indices_per_warp), "index_id"));
    }
    let mut position = IndexingMap::new(
        vec![element.clone()],
        dim_vars.clone(),
        symbols.clone(),
        Vec::new(),
    );
    position.simplify();
    let mut map = IndexingMap::new(results, dim_vars, symbols, Vec::new());
    map.add_constraint(slice_id, Interval::new(0, slices - 1));
    map.add_constraint(element, Interval::new(0, slice - 1));
    let map = with_launch_bounds(&map);
    let launch = LaunchDimensions {
        blocks: [blocks as u64, 1, 1],
        threads: [threads as u64, 1, 1],
    };
    Ok((launch, map, position))
}
