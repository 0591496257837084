//! The tiling space of a kernel's output (the power-of-two tile sizes under which every operand's
//! symbolic tile holds) and the tiling a cost model ranks first.
//!
//! The cost model, per candidate tile sizes `ts` of an output of sizes `D`:
//! - the grid has `N = prod ceil(D_i / ts_i)` tiles, one block of [`BLOCK_THREADS`] threads each;
//! - each tile reads every operand's tile and writes its own; each read or write moves whole
//!   32-byte sectors: a tile is cut into runs contiguous in memory (its layout's minor
//!   dimensions while the tile steps by 1 and covers them whole), each run rounded up to
//!   sectors. *Coalescing* is the useful share of the bytes moved;
//! - *occupancy* is the share of the chip's multiprocessors busy over the waves of blocks
//!   (`N / (waves * cores)`), times the share of a block's threads with an element (tiles of
//!   fewer than [`BLOCK_THREADS`] elements leave threads idle);
//! - *redundant bytes* are those read more than once over the grid (a broadcast operand read by
//!   every tile, overlapping windows, over-approximated tiles) — already in the bytes moved, and
//!   reported apart;
//! - the cost is the bytes moved over the occupancy (an estimate of the time at the chip's
//!   bandwidth, in bytes); ties go to fewer tiles. Every tile is priced as a full one (the
//!   partial tile at the end of a dimension too), which favours sizes that divide the
//!   dimensions. Candidates whose tiles together exceed
//!   [`REGISTER_BUDGET_BYTES`] are not ranked: a block could not keep them in registers.

use xla_indexing_hlo::shape::ArrayShape;

use crate::device::Device;
use crate::kernel::element_bits;
use crate::kernel_tiles::SymbolicKernelTiles;
use crate::symbolic_tile::SymbolicTile;
use crate::tiles::TileError;

/// Threads per block of a tiled kernel (four warps, as XLA's Triton tilings default to).
pub const BLOCK_THREADS: i64 = 128;

/// The most bytes of tiles (every operand's and the output's) one block may hold.
pub const REGISTER_BUDGET_BYTES: u64 = 64 * 1024;

/// Bytes one memory transaction moves.
const SECTOR_BYTES: u64 = 32;

/// One operand of the tiled output: its symbolic tile and its shape in memory.
pub struct TiledInput<'a> {
    /// The operand's symbolic tile.
    pub tile: &'a SymbolicTile,
    /// The operand's shape (element type, dimensions, layout).
    pub shape: &'a ArrayShape,
}

/// The inputs of one output's tiling space: every operand map's symbolic tile and shape, or
/// why the output has no tiling space (an operand not tiled symbolically).
pub fn tiled_inputs(k: &SymbolicKernelTiles) -> Result<Vec<TiledInput<'_>>, TileError> {
    k.operands
        .iter()
        .map(|o| {
            let label = o.label();
            let tile = o.tile.as_ref().map_err(|e| {
                TileError(format!("operand {label} is not tiled symbolically: {e}"))
            })?;
            let shape = o
                .shape
                .as_ref()
                .ok_or_else(|| TileError(format!("operand {label} has no shape")))?;
            Ok(TiledInput { tile, shape })
        })
        .collect()
}

/// A kernel through a tiling of its output 0.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledPlan {
    /// Tile sizes per dimension of output 0.
    pub sizes: Vec<i64>,
    /// Tiles per dimension (the last one along a dimension partial where the size does not
    /// divide it).
    pub counts: Vec<i64>,
    /// The cost model's figures, where the tiling is its best.
    pub cost: Option<TilingCost>,
}

/// The cost of one candidate tiling.
#[derive(Clone, Debug, PartialEq)]
pub struct TilingCost {
    /// Tile sizes per output dimension.
    pub sizes: Vec<i64>,
    /// Tiles (blocks) in the grid (saturated at `u64::MAX`).
    pub tiles: u64,
    /// Bytes of operand tiles read per output element.
    pub read_bytes_per_element: f64,
    /// Useful bytes over bytes moved in sectors, over all reads and writes.
    pub coalescing: f64,
    /// Busy share of the chip over the waves, times the share of threads with an element.
    pub occupancy: f64,
    /// Bytes read more than once over the whole grid (saturated at `u64::MAX`).
    pub redundant_bytes: u64,
    /// Whether every operand tile is exact (else some over-approximate).
    pub exact: bool,
    /// Bytes moved over occupancy; lower is better.
    pub cost: f64,
}

/// `1, 2, 4, ...` below `d`, and `d`.
pub fn candidate_sizes(d: i64) -> Vec<i64> {
    let mut out: Vec<i64> = std::iter::successors(Some(1i64), |s| s.checked_mul(2))
        .take_while(|&s| s < d)
        .collect();
    out.push(d.max(1));
    out
}

/// The candidates of the space: every combination of [`candidate_sizes`], at most `limit`.
fn candidates(dims: &[i64], limit: usize) -> Result<Vec<Vec<i64>>, TileError> {
    let per: Vec<Vec<i64>> = dims.iter().map(|&d| candidate_sizes(d)).collect();
    let total = per.iter().fold(1usize, |a, p| a.saturating_mul(p.len()));
    if total > limit {
        return Err(TileError(format!(
            "{total} candidate tilings, more than the {limit} searched"
        )));
    }
    let mut out = vec![Vec::new()];
    for p in per {
        out = out
            .into_iter()
            .flat_map(|c: Vec<i64>| {
                p.iter().map(move |&s| {
                    let mut c = c.clone();
                    c.push(s);
                    c
                })
            })
            .collect();
    }
    Ok(out)
}

/// The most candidates searched per output.
pub const CANDIDATE_LIMIT: usize = 1 << 16;

/// The valid tilings of an output of sizes `dims`: the candidate sizes under which every
/// operand's tile holds (runtime values at their least). Also returns how many candidates there
/// were.
pub fn space(dims: &[i64], inputs: &[TiledInput<'_>]) -> Result<(Vec<Vec<i64>>, usize), TileError> {
    let all = candidates(dims, CANDIDATE_LIMIT)?;
    let n = all.len();
    let valid = all
        .into_iter()
        .filter(|ts| {
            inputs.iter().all(|i| {
                let rt: Vec<i64> = i
                    .tile
                    .offsets
                    .rt_vars()
                    .iter()
                    .map(|v| v.bounds.lo)
                    .collect();
                i.tile.holds_at(ts, &rt)
            })
        })
        .collect();
    Ok((valid, n))
}

/// Elements of a tile that are contiguous in memory, and runs per tile: the layout's minor
/// dimensions while the tile steps by 1 (or has one position) and covers each whole, then the
/// first dimension it does not cover whole, if it steps by 1 there.
fn contiguous_run(sizes: &[i64], strides: &[i64], shape: &ArrayShape) -> i64 {
    let layout = shape.layout_or_default();
    let mut run = 1i64;
    for &d in &layout.minor_to_major {
        let (n, s) = (
            sizes.get(d).copied().unwrap_or(1),
            strides.get(d).copied().unwrap_or(0),
        );
        if n > 1 && s != 1 {
            break;
        }
        run = run.saturating_mul(n);
        if n < shape.dims.get(d).copied().unwrap_or(1) {
            break;
        }
    }
    run.max(1)
}

/// Bytes moved in sectors and useful bytes for a tile of `elements` in runs of `run`.
fn moved(elements: u128, run: i64, bits: u64) -> (u128, u128) {
    let run = run.max(1) as u128;
    let runs = elements.div_ceil(run);
    let sectors = (run.saturating_mul(bits as u128)).div_ceil(8 * SECTOR_BYTES as u128);
    (
        runs.saturating_mul(sectors)
            .saturating_mul(SECTOR_BYTES as u128),
        elements.saturating_mul(bits as u128).div_ceil(8),
    )
}

/// The product of `xs` in `u128`, saturated.
fn product(xs: impl IntoIterator<Item = i64>) -> u128 {
    xs.into_iter()
        .fold(1u128, |a, x| a.saturating_mul(x.max(0) as u128))
}

fn bits_of(shape: &ArrayShape) -> Result<u64, TileError> {
    element_bits(&shape.element)
        .ok_or_else(|| TileError(format!("no size for elements of type {}", shape.element)))
}

/// A count for a report, saturated at `u64::MAX`.
fn saturated(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// The cost of tiling `output` by `ts` (see the module's documentation); `None` where the tiles
/// exceed the register budget.
pub fn cost(
    output: &ArrayShape,
    inputs: &[TiledInput<'_>],
    ts: &[i64],
    device: &Device,
) -> Result<Option<TilingCost>, TileError> {
    let tiles = product(
        output
            .dims
            .iter()
            .zip(ts)
            .map(|(&d, &s)| xla_indexing_core::interval::ceil_div(d.max(1), s.max(1))),
    );
    let out_elements = product(ts.iter().copied());
    let unit: Vec<i64> = vec![1; ts.len()];
    let (mut moved_bytes, mut useful) = moved(
        out_elements,
        contiguous_run(ts, &unit, output),
        bits_of(output)?,
    );
    let mut tile_bytes = useful;
    let (mut read_bytes, mut redundant, mut exact) = (0u128, 0u128, true);
    for i in inputs {
        let inst = i
            .tile
            .instantiate(ts)
            .ok_or_else(|| TileError(format!("an operand tile is undefined at sizes {ts:?}")))?;
        let bits = bits_of(i.shape)?;
        let elements = product(inst.sizes.iter().copied());
        let (m, u) = moved(
            elements,
            contiguous_run(&inst.sizes, &inst.strides, i.shape),
            bits,
        );
        moved_bytes = moved_bytes.saturating_add(m);
        useful = useful.saturating_add(u);
        tile_bytes = tile_bytes.saturating_add(u);
        read_bytes = read_bytes.saturating_add(u);
        let whole = product(i.shape.dims.iter().copied())
            .saturating_mul(bits as u128)
            .div_ceil(8);
        redundant = redundant.saturating_add(u.saturating_mul(tiles).saturating_sub(whole));
        exact &= inst.exact;
    }
    if tile_bytes > REGISTER_BUDGET_BYTES as u128 {
        return Ok(None);
    }
    let cores = device.core_count.max(1) as u128;
    let waves = tiles.div_ceil(cores);
    let lanes = out_elements.min(BLOCK_THREADS as u128) as f64 / BLOCK_THREADS as f64;
    let occupancy = tiles as f64 / (waves.saturating_mul(cores)) as f64 * lanes;
    Ok(Some(TilingCost {
        sizes: ts.to_vec(),
        tiles: saturated(tiles),
        read_bytes_per_element: read_bytes as f64 / out_elements as f64,
        coalescing: useful as f64 / moved_bytes as f64,
        occupancy,
        redundant_bytes: saturated(redundant),
        exact,
        cost: moved_bytes as f64 * tiles as f64 / occupancy,
    }))
}

/// Every valid tiling of `output` with its cost, the cheapest first (ties to fewer tiles); the
/// second value counts the valid tilings over the register budget.
pub fn ranked(
    output: &ArrayShape,
    inputs: &[TiledInput<'_>],
    device: &Device,
) -> Result<(Vec<TilingCost>, usize), TileError> {
    let (valid, _) = space(&output.dims, inputs)?;
    let mut out = Vec::new();
    let mut too_large = 0;
    for ts in &valid {
        match cost(output, inputs, ts, device)? {
            Some(c) => out.push(c),
            None => too_large += 1,
        }
    }
    out.sort_by(|a, b| a.cost.total_cmp(&b.cost).then(a.tiles.cmp(&b.tiles)));
    Ok((out, too_large))
}
