//! Kernels through a tiling of their output (`compile --tiling`): a block per tile of output 0,
//! its threads over the tile's elements in the layout's order (neighbouring threads on
//! neighbouring elements), each computing its elements as the loop emitter does. Every read
//! goes through the fusion's maps from the tile's element, which simplify to the operand's
//! symbolic tile: its offset at the block's tile plus the element's place in the tile.
//!
//! The tiling is given, or the best of the kernel's tiling space by the cost model of
//! [`crate::tiling_space`]. Scatters and in-place updates keep their emitters (they write part
//! of an output, which a loop over the output cannot), and so do a kernel with no valid tiling
//! and one with outputs of other elements than output 0's.

use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var};
use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::module::Module;
use xla_indexing_hlo::shape::ArrayShape;

use crate::device::Device;
use crate::kernel::Kernel;
use crate::kernel_tiles::symbolic_tiles_of_output;
use crate::launch::LaunchDimensions;
use crate::plan::{EmitterPlan, KernelPlan, element_loop_kernel, plan_kernel};
use crate::thread_map::{DIM_NAMES, SYMBOL_NAMES, with_launch_bounds};
use crate::tiles::TileError;
use crate::tiling_space::{BLOCK_THREADS, TiledPlan, TilingCost, ranked, tiled_inputs};

/// How `compile --tiling` tiles each kernel's output 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tiling {
    /// The tiling the cost model ranks first.
    Best,
    /// These sizes, one per dimension of output 0.
    Sizes(Vec<i64>),
}

/// The launch over the tiles of `shape` by `sizes` and its thread-id map: block `bl_x` takes
/// tile `t` (numbered in the layout's order), thread `th_x` of its `threads` takes the tile's
/// elements `chunk_id * threads + th_x` in the layout's order; elements past the tile, or past
/// the output in a partial tile, are constrained away.
pub fn tiled_launch(
    shape: &ArrayShape,
    sizes: &[i64],
    device: &Device,
) -> Result<(LaunchDimensions, IndexingMap), TileError> {
    let dims = &shape.dims;
    if sizes.len() != dims.len() {
        return Err(TileError(format!(
            "{} tile sizes for output {shape} of rank {}",
            sizes.len(),
            dims.len()
        )));
    }
    if let Some((s, d)) = sizes.iter().zip(dims).find(|(s, d)| **s < 1 || s > d) {
        return Err(TileError(format!("tile size {s} is not in [1, {d}]")));
    }
    let layout = shape.layout_or_default();
    layout.validate(dims).map_err(|e| format!("{shape}: {e}"))?;
    let overflow = || TileError(format!("the tiles of {shape} overflow"));
    let counts = tile_counts(dims, sizes);
    let product = |xs: &[i64]| {
        xs.iter()
            .try_fold(1i64, |a, &x| a.checked_mul(x))
            .ok_or_else(overflow)
    };
    let (tiles, elements) = (product(&counts)?, product(sizes)?);
    let warp = device.warp_size as i64;
    let threads = (elements.min(BLOCK_THREADS) + warp - 1) / warp * warp;
    if tiles as u64 > device.block_dim_limit[0] {
        return Err(TileError(format!(
            "{tiles} tiles exceed the {} blocks of a grid's x",
            device.block_dim_limit[0]
        )));
    }
    let chunks = (elements + threads - 1) / threads;
    let element = Expr::sym(0)
        .checked_scale(threads)
        .and_then(|c| c.checked_add(&Expr::dim(0)))
        .map_err(|_| overflow())?;
    let (mut results, mut constraints) = (vec![Expr::zero(); dims.len()], Vec::new());
    let (mut tile_div, mut element_div) = (1i64, 1i64);
    for &d in &layout.minor_to_major {
        let at = |id: &Expr, divisor: i64, count: i64| -> Result<Expr, ArithError> {
            id.floor_div(divisor)?.modulo(count.max(1))
        };
        let t = at(&Expr::dim(3), tile_div, counts[d]).map_err(|_| overflow())?;
        let e = at(&element, element_div, sizes[d]).map_err(|_| overflow())?;
        let index = t
            .checked_scale(sizes[d])
            .and_then(|x| x.checked_add(&e))
            .map_err(|_| overflow())?;
        if dims[d] % sizes[d] != 0 {
            constraints.push((index.clone(), Interval::upto(dims[d])));
        }
        results[d] = index;
        tile_div = tile_div.saturating_mul(counts[d]);
        element_div = element_div.saturating_mul(sizes[d]);
    }
    let launch = LaunchDimensions {
        blocks: [tiles as u64, 1, 1],
        threads: [threads as u64, 1, 1],
    };
    let ids = [threads, 1, 1, tiles, 1, 1];
    let dim_vars = DIM_NAMES
        .iter()
        .zip(ids)
        .map(|(name, n)| Var::named(Interval::upto(n), *name))
        .collect();
    let symbols = vec![
        Var::named(Interval::upto(chunks), SYMBOL_NAMES[0]),
        Var::named(Interval::upto(1), SYMBOL_NAMES[1]),
    ];
    let mut map = IndexingMap::new(results, dim_vars, symbols, Vec::new());
    map.add_constraint(element, Interval::upto(elements));
    for (e, iv) in constraints {
        map.add_constraint(e, iv);
    }
    Ok((launch, with_launch_bounds(&map)))
}

/// The best tiling of `kernel`'s output 0 by the cost model, or why it has none.
pub fn best_tiling(
    module: &Module,
    kernel: &Kernel,
    device: &Device,
) -> Result<TilingCost, TileError> {
    let tiles = symbolic_tiles_of_output(module, kernel, 0).map_err(|e| e.to_string())?;
    let inputs = tiled_inputs(&tiles)?;
    let (ranked, too_large) = ranked(&kernel.outputs[0], &inputs, device)?;
    ranked.into_iter().next().ok_or_else(|| {
        TileError(format!(
            "no tiling is valid within the register budget ({too_large} over it)"
        ))
    })
}

/// The plan of `kernel` through `tiling`: its own plan where its emitter writes part of an
/// output (scatter, in-place update), where output 0 is empty, where an output is not output
/// 0's elements in another shape (a loop over output 0 cannot write it), or, for
/// [`Tiling::Best`], where it has no valid tiling. Sizes that do not fit output 0 are an error
/// naming the kernel.
pub fn plan_tiled_kernel(
    module: &Module,
    kernel: Kernel,
    device: &Device,
    tiling: &Tiling,
) -> Result<KernelPlan, HloError> {
    let own = plan_kernel(module, kernel.clone(), device)?;
    let empty = kernel.outputs[0].dims.contains(&0);
    if empty || !own.emitter.outputs_from_parameters().is_empty() {
        return Ok(own);
    }
    let (sizes, cost) = match tiling {
        Tiling::Sizes(s) => (s.clone(), None),
        Tiling::Best => match best_tiling(module, &kernel, device) {
            Ok(c) => (c.sizes.clone(), Some(c)),
            Err(_) => return Ok(own),
        },
    };
    let (launch, map) = tiled_launch(&kernel.outputs[0], &sizes, device)
        .map_err(|e| kernel.error(format!("tiling: {e}")))?;
    let counts = tile_counts(&kernel.outputs[0].dims, &sizes);
    let plan = TiledPlan {
        sizes,
        counts,
        cost,
    };
    let tiled = element_loop_kernel(
        module,
        kernel,
        EmitterPlan::Tiled(Box::new(plan)),
        (launch, map),
        true,
    )?;
    // An output whose elements are not output 0's in another shape is not written by a loop
    // over output 0's tiles (a reduction's side output of the reduced shape).
    Ok(if tiled.outputs.iter().any(|o| o.skipped.is_some()) {
        own
    } else {
        tiled
    })
}

/// Tiles per dimension of `dims` cut by `sizes`.
fn tile_counts(dims: &[i64], sizes: &[i64]) -> Vec<i64> {
    dims.iter()
        .zip(sizes)
        .map(|(&d, &s)| xla_indexing_core::interval::ceil_div(d, s))
        .collect()
}

/// The plan of `kernel`: as XLA's emitters plan it, or through `tiling` where one is given.
pub fn plan_kernel_with(
    module: &Module,
    kernel: Kernel,
    device: &Device,
    tiling: Option<&Tiling>,
) -> Result<KernelPlan, HloError> {
    match tiling {
        None => plan_kernel(module, kernel, device),
        Some(t) => plan_tiled_kernel(module, kernel, device, t),
    }
}
