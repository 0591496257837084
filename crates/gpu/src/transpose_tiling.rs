//! How XLA's transpose emitters tile a transpose: whether a transpose is tiled at all, which of
//! XLA's two tilings a fusion's transposes get, and the thread-id maps of the four accesses of
//! a tile (read from global memory, store into the shared tile, load from it, write to global
//! memory).
//!
//! A transpose's runs are `[Z, Y, X, M]` (see `transpose.rs`): `X` the source's minor run, `Y`
//! the run that becomes the result's minor run, `M` a minor run kept in place. A block of 128
//! threads (four warps) moves one tile of `Y × X` elements:
//!
//! - *padded* (XLA's `TransposeFusion`): the tile is `32v × (32v + 1)` (padded against bank
//!   conflicts; `× M` when a run is kept), each warp reads one tile row per step, each lane `v`
//!   adjacent elements of it (`unroll_id`), and after the barrier writes the transposed rows
//!   the same way. `v` is XLA's vector size: up to 4 bytes of elements when the launch has
//!   enough blocks, the tiles fit in shared memory, and `X` and `Y` are multiples of it;
//! - *packed* (XLA's `PackedTranspose`, elements narrower than 32 bits): `v` elements fill a
//!   32-bit bank, the tile is `32v × 32v`, and each `v × v` square of it is shifted along its
//!   row by `v` per `v` rows (a swizzle) instead of padded. A lane reads `v` adjacent elements of
//!   a row, and writes `v` adjacent elements of each of `v` transposed rows (`unroll_id` runs
//!   over the `v × v` square).

use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var};

use crate::device::Device;
use crate::error::PlanError;
use crate::launch::LaunchDimensions;
use crate::reduction::{ceil_div, id_vars, int, logical_index, uint};
use crate::thread_map::SYMBOL_NAMES;

/// Threads of a block (XLA's `kNumThreadsPerBlock`): four warps.
pub const THREADS: u64 = 128;
/// Tile rows the block moves per step: one per warp (XLA's `kNumRows`).
pub const WARP_ROWS: u64 = 4;
/// Lanes of a warp, and shared-memory banks.
const WARP: u64 = 32;
/// Bits of a shared-memory bank.
const BANK_BITS: u64 = 32;
/// Most bytes a thread reads as one vector in the padded tiling (XLA's `kMaxVectorizedBytes`).
const MAX_VECTOR_BYTES: u64 = 4;
/// Bytes of shared memory a block may use without opting in (XLA's `shared_memory_per_block`).
const SHARED_BYTES: u64 = 48 * 1024;
/// A transpose is tiled when both tiled runs have at least this many elements (XLA's
/// `kMinDimensionToTransposeTiled`) ...
const MIN_TILED: i64 = 4;
/// ... and together at least this many (`kMinTotalDimensionsToTransposeTiled`).
const MIN_TILED_TOTAL: i64 = 16 * 16;
/// A transpose of the last two dimensions alone needs both at least this large, since a
/// smaller one leaves most lanes of a warp idle (XLA's
/// `kMinDimensionToLastTwoDimensionsTransposeTiled`; its value is not in the sources we read,
/// and 8 reproduces XLA's choice of the loop emitter for its own `150 x 7` test).
const MIN_LAST_TWO: i64 = 8;
/// Most bits of a kept minor run that a tile element carries (`kMaxBitsInMostMinorDimension`).
const MAX_KEPT_BITS: i64 = 64;
/// The packed tile must fill at least this many rows and columns per element of a bank
/// (`10 · v`).
const MIN_PACKED_FILL: i64 = 10;

/// A transpose's source dimensions in runs that move together (see `transpose.rs`), in the
/// source's layout order; a run that is absent is empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileRuns {
    /// `Z`: the runs that stay in their order on both sides, a tile's batch.
    pub batch: Vec<usize>,
    /// `Y`: the run that becomes the result's minor-most.
    pub y: Vec<usize>,
    /// `A`: the run just before `X` in the source and just after it in the result, which XLA's
    /// packed tile takes several rows of when `X` is short of a tile.
    pub a: Vec<usize>,
    /// `X`: the source's minor-most run (moved).
    pub x: Vec<usize>,
    /// `M`: the minor-most run when the transpose keeps it in place.
    pub kept: Vec<usize>,
    /// Whether the transpose swaps just `Y` and `X`, the last two runs on both sides.
    pub last_two: bool,
}

impl TileRuns {
    /// The runs' element counts in a source of dimensions `dims`.
    pub fn sizes(&self, dims: &[i64]) -> RunSizes {
        let size = |run: &[usize]| run.iter().map(|&d| dims[d]).product::<i64>();
        RunSizes {
            batch: size(&self.batch),
            y: size(&self.y),
            a: size(&self.a),
            x: size(&self.x),
            kept: size(&self.kept),
        }
    }
}

/// Element counts of a transpose's runs ([`TileRuns`]); 1 for an absent run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct RunSizes {
    pub batch: i64,
    pub y: i64,
    pub a: i64,
    pub x: i64,
    pub kept: i64,
}

impl RunSizes {
    /// Elements of the source.
    pub fn elements(&self) -> i64 {
        [self.batch, self.y, self.a, self.x, self.kept]
            .iter()
            .product()
    }
}

impl std::fmt::Display for RunSizes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let RunSizes {
            batch,
            y,
            a,
            x,
            kept,
        } = self;
        write!(f, "[Z, Y, A, X, M] = [{batch}, {y}, {a}, {x}, {kept}]")
    }
}

/// Which of XLA's tilings a transpose gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileKind {
    /// `32v × (32v + 1)`, padded against bank conflicts.
    Padded,
    /// `32v × 32v` with `v` elements per bank, swizzled against bank conflicts.
    Packed,
}

/// The tiling of a fusion's transposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Padded or packed.
    pub kind: TileKind,
    /// Elements a lane reads adjacent along `X` and writes adjacent along `Y` (XLA's vector
    /// size; 1 when a minor run is kept).
    pub vector: u64,
}

impl Tiling {
    /// Elements of a tile side: `32v`.
    pub fn side(self) -> u64 {
        WARP * self.vector
    }

    /// The shared tile's dimensions for a kept run of `kept` elements.
    pub fn tile_dims(self, kept: i64) -> Result<Vec<u64>, ArithError> {
        let side = self.side();
        let mut dims = match self.kind {
            TileKind::Padded => vec![side, side + 1],
            TileKind::Packed => vec![side, side],
        };
        if kept > 1 {
            dims.push(uint(kept)?);
        }
        Ok(dims)
    }
}

/// How XLA tiles a transpose with runs of `sizes` elements of `bits` bits (a `pred` counts 8,
/// as `element_bits` gives it), `last_two` when it swaps just the last two dimensions: packed
/// when its elements are narrower than a bank and the packed tile fills well; padded when the
/// tiled runs are large enough (and a kept run small enough); else not at all. `Err` says why
/// XLA's emitter leaves it to the loop emitter.
pub fn hero_kind(sizes: RunSizes, bits: u64, last_two: bool) -> Result<TileKind, PlanError> {
    let RunSizes { y, x, kept, .. } = sizes;
    let bits = bits as i64;
    if kept == 1 && packed_fits(sizes, bits) {
        return Ok(TileKind::Packed);
    }
    if kept > 1 && bits * kept > MAX_KEPT_BITS {
        return Err(PlanError::Unsupported(format!(
            "it keeps the minor-most dimension in place with {} bits per element, which XLA's \
             transpose emitter tiles only for at most {MAX_KEPT_BITS}",
            bits * kept
        )));
    }
    if kept == 1 && bits == 4 {
        return Err(PlanError::Unsupported(
            "XLA's transpose emitter leaves 4-bit transposes it cannot pack to the loop \
                    emitter"
                .into(),
        ));
    }
    if kept == 1 && last_two && x.min(y) < MIN_LAST_TWO {
        return Err(PlanError::Unsupported(format!(
            "it swaps the last two dimensions, of {y} and {x} elements, which XLA's transpose \
             emitter tiles only when both have {MIN_LAST_TWO} or more"
        )));
    }
    if x.min(y) < MIN_TILED || x.saturating_mul(y) < MIN_TILED_TOTAL {
        return Err(PlanError::Unsupported(format!(
            "it swaps runs of {y} and {x} elements, which XLA's transpose emitter tiles only \
             when both have {MIN_TILED} or more and {MIN_TILED_TOTAL} together"
        )));
    }
    Ok(TileKind::Padded)
}

/// Whether XLA's packed tile takes a transpose of runs of `sizes` elements of `bits` bits: `v`
/// of them fit a bank, the `32v × 32v` tile (its columns rows of `A` of `X` when `X` is short
/// of a side) fills at least `10v` rows and columns, and the rows of a partial tile along `Y`
/// come in whole vectors.
fn packed_fits(sizes: RunSizes, bits: i64) -> bool {
    let bank = BANK_BITS as i64;
    if bits >= bank || bits <= 0 {
        return false;
    }
    let v = bank / bits;
    let side = WARP as i64 * v;
    let (rows, cols) = packed_tile(sizes, side);
    let fill = MIN_PACKED_FILL * v;
    rows >= fill && cols >= fill && rows % v == 0 && cols % v == 0 && sizes.y % rows % v == 0
}

/// The rows (of `Y`) and columns (`A`-rows of `X`) a packed tile of `side` fills.
fn packed_tile(sizes: RunSizes, side: i64) -> (i64, i64) {
    let x_tile = sizes.x.min(side);
    let a_tile = sizes.a.min(side / x_tile.max(1));
    (sizes.y.min(side), a_tile * x_tile)
}

/// The tiling of a fusion whose heroes (in order) have `kinds` and elements of `bits`, tiling
/// runs of `sizes`: XLA's packed tiling when the first hero's is and every hero's elements are
/// as wide; else the padded tiling, with XLA's vector size when a thread's `v × v` elements
/// leave enough blocks to fill the device, the tiles fit in shared memory, and `X` and `Y` are
/// multiples of `v`.
pub fn fusion_tiling(kinds: &[TileKind], bits: &[u64], sizes: RunSizes, device: &Device) -> Tiling {
    let counted: Vec<i64> = bits.iter().map(|&b| b as i64).collect();
    let widest = counted.iter().copied().max().unwrap_or(8);
    if kinds.first() == Some(&TileKind::Packed) && counted.iter().all(|&b| b == widest) {
        return Tiling {
            kind: TileKind::Packed,
            vector: BANK_BITS / widest as u64,
        };
    }
    let padded = |vector| Tiling {
        kind: TileKind::Padded,
        vector,
    };
    let RunSizes {
        batch,
        y,
        a,
        x,
        kept,
    } = sizes;
    if kept > 1 {
        return padded(1);
    }
    let side = WARP as i64;
    let blocks = batch
        .saturating_mul(a)
        .saturating_mul(ceil_div(y, side))
        .saturating_mul(ceil_div(x, side));
    let shared: i64 = counted
        .iter()
        .map(|b| side * (side + 1) * (b / 8).max(1))
        .sum();
    let mut v = MAX_VECTOR_BYTES as i64 / (widest / 8).max(1);
    while v > 1 {
        let per_thread = v * v;
        let work = blocks.saturating_mul(THREADS as i64)
            >= per_thread
                .saturating_mul((device.core_count * device.threads_per_core_limit) as i64);
        let fits = shared.saturating_mul(per_thread) <= SHARED_BYTES as i64;
        if work && fits && x % v == 0 && y % v == 0 {
            return padded(v as u64);
        }
        v /= 2;
    }
    padded(1)
}

/// The thread-id maps of one hero under a tiling.
#[derive(Clone, Debug, PartialEq)]
pub struct TileMaps {
    /// 128 threads per block, a block per tile.
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (source index)`, with the constraints of reading.
    pub read: IndexingMap,
    /// The shared-tile index each read element is stored at (same variables and constraints).
    pub store: IndexingMap,
    /// `(thread ids)[chunk_id, unroll_id] -> (hero index)`: the element of the hero a thread
    /// holds after the barrier, with the constraints under which it holds one.
    pub write: IndexingMap,
    /// The shared-tile index each held element is loaded from (same variables and
    /// constraints).
    pub load: IndexingMap,
}

/// The maps of a hero whose source has dimensions `dims`, whose result dimension `d` is source
/// dimension `perm[d]`, whose runs are `runs` of `sizes` elements, under `tiling`.
///
/// A tile is `rows × cols`: rows of `Y`, columns of `X` — for the packed tiling, `a_tile`
/// rows of `A` of `x_tile` elements of `X` each when `X` is short of a side. The blocks run
/// over the batch, then the tiles of `Y`, of `A` and of `X` (minor).
pub fn tile_maps(
    dims: &[i64],
    perm: &[usize],
    runs: &TileRuns,
    sizes: RunSizes,
    tiling: Tiling,
) -> Result<TileMaps, ArithError> {
    let RunSizes {
        batch,
        y: ys,
        a: a_size,
        x: xs,
        kept,
    } = sizes;
    let (v, side) = (int(tiling.vector)?, int(tiling.side())?);
    let packed = tiling.kind == TileKind::Packed;
    let (rows, cols) = if packed {
        packed_tile(sizes, side)
    } else {
        (ys.min(side), xs.min(side))
    };
    // Columns of a tile: `a_tile` rows of `A`, each of `x_tile` elements of `X`.
    let x_tile = if packed { xs.min(side) } else { side };
    let a_tile = if packed { cols / x_tile.max(1) } else { 1 };
    let counts = [
        batch,
        ceil_div(ys, side),
        ceil_div(a_size, a_tile.max(1)),
        ceil_div(xs, x_tile),
    ];
    let blocks = counts
        .iter()
        .try_fold(1i64, |acc, &n| acc.checked_mul(n))
        .ok_or(ArithError::Overflow)?;
    let launch = LaunchDimensions {
        blocks: [uint(blocks)?, 1, 1],
        threads: [THREADS, 1, 1],
    };
    let (th, bl, chunk, unroll) = (Expr::dim(0), Expr::dim(3), Expr::sym(0), Expr::sym(1));
    let warp_rows = int(WARP_ROWS)?;
    let lane = th.modulo(int(WARP)?)?;
    let warp = th.floor_div(int(WARP)?)?;
    let block = delinearize_blocks(&bl, &counts)?;
    let z = block[0].clone();
    let y0 = block[1].checked_scale(side)?;
    let a0 = block[2].checked_scale(a_tile)?;
    let x0 = block[3].checked_scale(x_tile)?;
    let step = chunk.checked_scale(warp_rows)?.checked_add(&warp)?;
    let lanes_of = |e: Expr| -> Result<Expr, ArithError> { lane.checked_scale(v)?.checked_add(&e) };
    // The unroll symbol: a kept run's element, else a vector's element (both vectors of a
    // packed write's `v × v` square).
    let (m, read_lane) = if kept > 1 {
        (unroll.clone(), Expr::zero())
    } else {
        (Expr::zero(), unroll.clone())
    };
    let (write_col, write_row, write_unroll) = if packed {
        (
            step.checked_scale(v)?.checked_add(&unroll.floor_div(v)?)?,
            lanes_of(unroll.modulo(v)?)?,
            v.checked_mul(v).ok_or(ArithError::Overflow)?,
        )
    } else {
        (step.clone(), lanes_of(read_lane.clone())?, kept.max(v))
    };
    let (read_row, read_col) = (step.clone(), lanes_of(read_lane)?);
    let tile_index = |row: &Expr, col: &Expr| -> Result<Vec<Expr>, ArithError> {
        let col = if packed {
            // Each `v × v` square shifted by `v` per `v` rows, within the row.
            col.checked_add(&row.floor_div(v)?.checked_scale(v)?)?
                .modulo(side)?
        } else {
            col.clone()
        };
        let mut index = vec![row.clone(), col];
        if kept > 1 {
            index.push(m.clone());
        }
        Ok(index)
    };
    // The `A` and `X` elements of tile column `col`.
    let a_x = |col: &Expr| -> Result<(Expr, Expr), ArithError> {
        Ok((
            a0.checked_add(&col.floor_div(x_tile)?)?,
            x0.checked_add(&col.modulo(x_tile)?)?,
        ))
    };
    let at = |row: &Expr, col: &Expr| -> Result<Vec<Expr>, ArithError> {
        let (a, x) = a_x(col)?;
        let parts = [
            (z.clone(), runs.batch.clone()),
            (y0.checked_add(row)?, runs.y.clone()),
            (a, runs.a.clone()),
            (x, runs.x.clone()),
            (m.clone(), runs.kept.clone()),
        ];
        logical_index(dims, &parts)
    };
    let ids = id_vars(&launch)?;
    let symbols = |chunks: i64, unroll: i64| {
        vec![
            Var::named(Interval::upto(chunks), SYMBOL_NAMES[0]),
            Var::named(Interval::upto(unroll), SYMBOL_NAMES[1]),
        ]
    };
    // Within the tile and within the arrays.
    let bounds = |row: &Expr, col: &Expr| -> Result<Vec<(Expr, Interval)>, ArithError> {
        let (a, x) = a_x(col)?;
        Ok(vec![
            (row.clone(), Interval::upto(rows)),
            (col.clone(), Interval::upto(cols)),
            (y0.checked_add(row)?, Interval::upto(ys)),
            (a, Interval::upto(a_size)),
            (x, Interval::upto(xs)),
        ])
    };
    let map = |index: Vec<Expr>, syms: &[Var], bounds: &[(Expr, Interval)]| {
        let mut m = IndexingMap::new(index, ids.clone(), syms.to_vec(), Vec::new());
        for (e, iv) in bounds {
            m.add_constraint(e.clone(), *iv);
        }
        m.simplify();
        m
    };
    let read_syms = symbols(ceil_div(rows, warp_rows), kept.max(v));
    let read_bounds = bounds(&read_row, &read_col)?;
    let write_chunks = if packed {
        ceil_div(cols, warp_rows * v)
    } else {
        ceil_div(cols, warp_rows)
    };
    let write_syms = symbols(write_chunks, write_unroll);
    let write_bounds = bounds(&write_row, &write_col)?;
    let written = at(&write_row, &write_col)?;
    let write_index = perm.iter().map(|&d| written[d].clone()).collect();
    Ok(TileMaps {
        launch,
        read: map(at(&read_row, &read_col)?, &read_syms, &read_bounds),
        store: map(tile_index(&read_row, &read_col)?, &read_syms, &read_bounds),
        write: map(write_index, &write_syms, &write_bounds),
        load: map(
            tile_index(&write_row, &write_col)?,
            &write_syms,
            &write_bounds,
        ),
    })
}

/// The digits of block id `bl` over `counts` (major first).
fn delinearize_blocks(bl: &Expr, counts: &[i64]) -> Result<Vec<Expr>, ArithError> {
    let mut digits = Vec::with_capacity(counts.len());
    let mut below = 1i64;
    for &n in counts.iter().rev() {
        digits.push(bl.floor_div(below)?.modulo(n)?);
        below = below.checked_mul(n).ok_or(ArithError::Overflow)?;
    }
    digits.reverse();
    Ok(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs of `Y`, `A`, `X` and `M` elements and no batch.
    fn sz(y: i64, a: i64, x: i64, kept: i64) -> RunSizes {
        RunSizes {
            batch: 1,
            y,
            a,
            x,
            kept,
        }
    }

    #[test]
    fn xla_kinds_for_its_own_test_shapes() {
        // 16-, 8- and 4-bit transposes of large runs pack; f32 pads.
        assert_eq!(
            hero_kind(sz(1024, 1, 1024, 1), 16, true),
            Ok(TileKind::Packed)
        );
        assert_eq!(
            hero_kind(sz(1024, 1, 1024, 1), 8, true),
            Ok(TileKind::Packed)
        );
        assert_eq!(
            hero_kind(sz(1024, 1, 1024, 1), 4, true),
            Ok(TileKind::Packed)
        );
        assert_eq!(
            hero_kind(sz(1024, 1, 1024, 1), 32, true),
            Ok(TileKind::Padded)
        );
        // 150 x 7, the last two dimensions: too thin for a tile; the same runs swapped across a
        // batch dimension are tiled.
        assert!(hero_kind(sz(150, 1, 7, 1), 32, true).is_err());
        assert_eq!(hero_kind(sz(150, 1, 7, 1), 32, false), Ok(TileKind::Padded));
        // 4 x 64 swaps enough elements; 3 x 1024 and 10 x 20 do not.
        assert_eq!(hero_kind(sz(4, 1, 64, 1), 32, false), Ok(TileKind::Padded));
        assert!(hero_kind(sz(3, 1, 1024, 1), 32, false).is_err());
        assert!(hero_kind(sz(10, 1, 20, 1), 32, true).is_err());
        // A 4-bit transpose that cannot pack stays with the loop emitter.
        assert!(hero_kind(sz(100, 1, 30, 1), 4, true).is_err());
        // A kept run of 3 bytes (24 bits) is tiled; of 16 bytes it is not.
        assert_eq!(hero_kind(sz(40, 1, 50, 3), 8, false), Ok(TileKind::Padded));
        assert!(hero_kind(sz(40, 1, 50, 16), 8, false).is_err());
        // XLA's packed test shape: a 16-bit [2, 4, 64, 10, 6] -> [4, 2, 6, 10, 64] packs six
        // elements of X times ten rows of A per tile row.
        assert_eq!(hero_kind(sz(64, 10, 6, 1), 16, false), Ok(TileKind::Packed));
    }

    #[test]
    fn padded_tiles_vectorize_with_enough_blocks() {
        let h100 = Device::h100();
        let kinds = [TileKind::Padded];
        // u8, 8192 x 8192: enough blocks for 4 x 4 elements per thread; 4096 x 4096 only for
        // 2 x 2.
        assert_eq!(
            fusion_tiling(&kinds, &[8], sz(4096, 1, 4096, 1), &h100).vector,
            2
        );
        let t = fusion_tiling(&kinds, &[8], sz(8192, 1, 8192, 1), &h100);
        assert_eq!((t.kind, t.vector, t.side()), (TileKind::Padded, 4, 128));
        assert_eq!(t.tile_dims(1).unwrap(), [128, 129]);
        // Too few blocks for any vector.
        assert_eq!(
            fusion_tiling(&kinds, &[8], sz(64, 1, 64, 1), &h100).vector,
            1
        );
        // f32 never vectorizes.
        assert_eq!(
            fusion_tiling(&kinds, &[32], sz(8192, 1, 8192, 1), &h100).vector,
            1
        );
        // Packed tiles of 16-bit elements: 64 x 64.
        let t = fusion_tiling(&[TileKind::Packed], &[16, 16], sz(1024, 1, 1024, 1), &h100);
        assert_eq!((t.kind, t.vector), (TileKind::Packed, 2));
        assert_eq!(t.tile_dims(1).unwrap(), [64, 64]);
    }
}
