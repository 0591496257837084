//! The transpose emitter's plan: which fusions it writes and the thread-id maps of its reads
//! and writes.
//!
//! A fusion goes to the transpose emitter when its outputs are elementwise functions (an
//! *epilogue*) of one *hero*: a `transpose`, or a `copy` that changes the layout, that moves the
//! minor-most dimension in memory. In layout order, after dropping dimensions of size 1 and
//! merging dimensions that stay adjacent in both the hero's operand and its result, the
//! operand's minor-most run is `X`, the run that becomes the result's minor-most is `Y`, and
//! the other runs together are the batch `Z`: `[Y, X] -> [X, Y]`, `[Z, Y, X] -> [Z, X, Y]`,
//! and as XLA's emitter any other permutation that moves `X` (`[2, 1, 0]`, `[1, 3, 0, 2]`).
//! A permutation that keeps the minor-most run `M` in place (`[1, 0, 2]`) is tiled as XLA's
//! emitter tiles it when `M` is at most 8 bytes: the runs next to it are `Y` and `X`, and each
//! element of the tile is a run of `M` (`unroll_id`).
//!
//! A block of `32 × 8` threads moves one `32 × 32` tile of one batch element `z`: thread
//! `(x, y)` reads rows `y, y + 8, y + 16, y + 24` of the tile at column `x` (adjacent along the
//! operand's minor dimension, coalesced) into a shared tile, and after a barrier writes rows
//! `y + 8k` of the transposed tile at column `x`, adjacent along the result's minor dimension.
//! The blocks are one-dimensional: `bl_x` runs over the batch, then the tile rows, then the
//! tile columns. Anything else stays with the loop emitter, and the plan says why.

use xla_indexing_core::{ArithError, Expr, IndexingMap, Interval, Var};

use crate::device::Device;
use crate::epilogue::{reaches_hero, root_values};
use crate::kernel::element_bits;
use crate::launch::LaunchDimensions;
use crate::reduction::SharedBuffer;
use crate::reduction::{ceil_div, check_launch, id_vars, int, launch_map, logical_index, uint};
use crate::thread_map::SYMBOL_NAMES;
use xla_indexing_hlo::module::{Computation, Module};
use xla_indexing_hlo::ops::{OpKind, bitcast_map, instruction_kind, reshape_map};
use xla_indexing_hlo::shape::{ArrayShape, Shape};

/// Side of a tile: a block moves `TILE × TILE` elements.
pub const TILE: u64 = 32;
/// Rows of threads of a block: each thread moves `TILE / BLOCK_ROWS` rows of its tile.
pub const BLOCK_ROWS: u64 = 8;

/// The transpose emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct TransposePlan {
    /// The transposes the block moves through shared memory, each with its own tile; all
    /// are tiled alike (the same `[Z, Y, X, M]` sizes), so one launch moves them together.
    pub heroes: Vec<TransposeHero>,
    /// Per kernel output, what it stores and where.
    pub outputs: Vec<TransposeOutput>,
    /// The sources' sizes in layout order: `[Z, Y, X, M]` (`Z` is 1 for a 2-d transpose, `M`
    /// the kept minor-most run, 1 when the heroes move it).
    pub sizes: [i64; 4],
    /// The launch.
    pub launch: LaunchDimensions,
    /// The first hero's read map over every thread of the launch, without the constraints:
    /// the launch attribute's map.
    pub launch_map: IndexingMap,
}

/// One transpose the block moves through a shared tile.
#[derive(Clone, Debug, PartialEq)]
pub struct TransposeHero {
    /// The `transpose` or `copy` instruction of the fused computation.
    pub hero: usize,
    /// The instruction whose elements the read map indexes: the hero's operand, or the source
    /// of the `transpose`s and `copy`s before it that only change the layout (bitcasts).
    pub source: usize,
    /// `(thread ids)[chunk_id, unroll_id] -> (source index)`: the element a thread reads
    /// into the shared tile at each row step (`unroll_id` runs over the kept minor-most run,
    /// else has the one value 0).
    pub read_map: IndexingMap,
    /// `(thread ids)[chunk_id, unroll_id] -> (hero index)`: the element of the hero a thread
    /// holds after the barrier at each row step, with the constraints under which it holds one.
    pub write_map: IndexingMap,
    /// The shared tile: `TILE × (TILE + 1)` elements of the hero's type (padded against bank
    /// conflicts), each a run of `M` elements when the hero keeps its minor-most run.
    pub tile: SharedBuffer,
}

/// What one output of a transpose fusion stores.
#[derive(Clone, Debug, PartialEq)]
pub struct TransposeOutput {
    /// The instruction whose value the output is.
    pub root: usize,
    /// Whether the output is computed from the heroes (stored after the barrier, from the
    /// tiles) or is a side output that reads none of them (stored before the barrier, at the
    /// elements the block reads, as XLA's emitter stores it).
    pub moved: bool,
    /// `(thread ids)[chunk_id, unroll_id] -> (output index)`: the element a thread stores at
    /// each step, with the constraints under which it stores.
    pub write_map: IndexingMap,
    /// The instructions the output reads besides the heroes, each with the map from thread ids
    /// to its element (the output's epilogue reads them where it stores).
    pub free_reads: Vec<(usize, IndexingMap)>,
}

impl TransposePlan {
    /// The first hero's read map: the thread map of the kernel's first phase.
    pub fn read_map(&self) -> &IndexingMap {
        &self.heroes[0].read_map
    }

    /// The first hero's write map: the thread map of the kernel's second phase.
    pub fn write_map(&self) -> &IndexingMap {
        &self.heroes[0].write_map
    }
}

/// The hero's logical dimensions in runs that move together, in the operand's layout order:
/// `[Z, Y, X, M]` with `Z` empty for a 2-d transpose and `M` the minor-most run when the hero
/// keeps it in place (empty otherwise).
type Runs = [Vec<usize>; 4];

/// Most bytes of a kept minor-most run that a tile's element carries (XLA's
/// `kMaxBytesInMostMinorDimension`).
const MAX_KEPT_BYTES: i64 = 8;
/// Fewest bytes a kept minor-most run times the smaller of the two tiled runs must give for
/// the tile to pay (XLA's `kMinDimensionToTransposeTiled`).
const MIN_KEPT_TILE_BYTES: i64 = 16;

/// The transpose emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs, `Ok(None)` when no `transpose` or `copy` of the fusion moves elements in memory;
/// `Err` says why the transpose emitter does not take it (the loop emitter then does).
///
/// Every output is computed from the heroes through elementwise ops, bitcasts and reshapes (an
/// epilogue), or reads none of them (a side output, which must be a bitcast of the first hero's
/// source in size, as XLA's emitter requires). The heroes must tile alike.
pub fn plan_transpose(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<TransposePlan>, String> {
    let comp = &module.computations[c];
    let moves = |k: usize| physical_order(comp, k).is_some_and(|o| o.len() > 1);
    if !(0..comp.instructions.len()).any(moves) {
        return Ok(None);
    }
    // The heroes: the transposes the emitter tiles. One it does not tile (a large kept
    // minor-most run) is computed where it is read, as any other op.
    let mut tiled = Vec::new();
    let mut refused = None;
    for k in (0..comp.instructions.len()).filter(|&k| moves(k)) {
        let source = hero_source(comp, k).ok_or("the transpose reads a tuple")?;
        match tiled_runs(comp, k, &source) {
            Ok(runs) => tiled.push((k, source, runs)),
            Err(why) => refused = refused.or(Some(why)),
        }
    }
    let is_hero = |k: usize| tiled.iter().any(|(h, _, _)| *h == k);
    let roots = root_values(comp, outputs)?;
    let mut paths = Vec::new();
    for &root in &roots {
        paths.push(epilogue_path(comp, root, &is_hero)?);
    }
    tiled.retain(|(h, _, _)| roots.iter().any(|&r| reaches_hero(comp, r, &|k| k == *h)));
    if tiled.is_empty() {
        return Err(refused.unwrap_or_else(|| "no output depends on a transpose".into()));
    }
    let mut heroes: Vec<TransposeHero> = Vec::new();
    let mut geometry: Option<([i64; 4], LaunchDimensions)> = None;
    for (hero, source, runs) in &tiled {
        let (launch, read_map, write_map, sizes) = maps(&source.shape.dims, &source.perm, runs)
            .map_err(|e| format!("thread maps: {e}"))?;
        match &geometry {
            None => geometry = Some((sizes, launch)),
            Some((first, _)) if *first != sizes => {
                return Err(format!(
                    "the transposes {} and {} are tiled differently ([Z, Y, X, M] = {first:?} and {sizes:?})",
                    comp.instructions[tiled[0].0].name, comp.instructions[*hero].name
                ));
            }
            Some(_) => {}
        }
        let element = comp.instructions[*hero]
            .shape
            .as_array()
            .map(|a| a.element.clone())
            .ok_or("the transpose is a tuple")?;
        let mut tile = vec![TILE, TILE + 1];
        if sizes[3] > 1 {
            tile.push(uint(sizes[3]).map_err(|e| format!("thread maps: {e}"))?);
        }
        heroes.push(TransposeHero {
            hero: *hero,
            source: source.instr,
            read_map,
            write_map,
            tile: SharedBuffer {
                dims: tile,
                element,
            },
        });
    }
    let Some((sizes, launch)) = geometry else {
        return Err("no output depends on a transpose".into());
    };
    check_launch(&launch, device)?;
    let launch_map = launch_map(&launch, &heroes[0].read_map)?;
    let outputs = roots
        .iter()
        .zip(paths)
        .map(|(&root, path)| plan_output(comp, root, path, &heroes))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Some(TransposePlan {
        heroes,
        outputs,
        sizes,
        launch,
        launch_map,
    }))
}

/// The plan of output `root`: stored from the heroes at the element `path` (from `root` down
/// to a hero) leads to, or a side output stored at the elements the first hero's source is
/// read at, seen through a bitcast to the root's shape.
fn plan_output(
    comp: &Computation,
    root: usize,
    path: Vec<usize>,
    heroes: &[TransposeHero],
) -> Result<TransposeOutput, String> {
    let name = &comp.instructions[root].name;
    let root_shape = comp.instructions[root]
        .shape
        .as_array()
        .ok_or_else(|| format!("output {name} is a tuple"))?;
    let Some(&hero) = path.last() else {
        let first = &heroes[0];
        let source = comp.instructions[first.source]
            .shape
            .as_array()
            .ok_or("the transpose reads a tuple")?;
        let bitcast = bitcast_map(source, root_shape)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                format!(
                    "side output {name} ({root_shape}) is no bitcast of the transpose's operand ({source})"
                )
            })?;
        let mut write_map = first
            .read_map
            .compose(&bitcast)
            .map_err(|e| e.to_string())?;
        write_map.simplify();
        return Ok(TransposeOutput {
            root,
            moved: false,
            free_reads: vec![(root, write_map.clone())],
            write_map,
        });
    };
    let first = heroes
        .iter()
        .find(|h| h.hero == hero)
        .ok_or("a hero without a tile")?;
    let mut forward = IndexingMap::identity(&array_dims(comp, hero)?);
    for pair in path.windows(2).rev() {
        forward = forward
            .compose(&step_map(comp, pair[0], pair[1])?)
            .map_err(|e| e.to_string())?;
    }
    let mut write_map = first
        .write_map
        .compose(&forward)
        .map_err(|e| e.to_string())?;
    write_map.simplify();
    let mut free_reads = Vec::new();
    check_epilogue(comp, root, &write_map, heroes, &mut free_reads)?;
    Ok(TransposeOutput {
        root,
        moved: true,
        write_map,
        free_reads,
    })
}

/// The instructions from `root` down to the first hero (an instruction `is_hero` accepts)
/// through elementwise ops, bitcasts and reshapes, `root` first; empty when `root` reads no
/// hero. A hero read through another op is an error.
fn epilogue_path(
    comp: &Computation,
    root: usize,
    is_hero: &dyn Fn(usize) -> bool,
) -> Result<Vec<usize>, String> {
    if is_hero(root) {
        return Ok(vec![root]);
    }
    if !reaches_hero(comp, root, is_hero) {
        return Ok(Vec::new());
    }
    let instr = &comp.instructions[root];
    if !is_epilogue_op(comp, root) {
        return Err(format!(
            "a transpose is read through {} ({}), which the transpose emitter does not fuse after it",
            instr.name, instr.opcode
        ));
    }
    for &operand in &instr.operands {
        let mut path = epilogue_path(comp, operand, is_hero)?;
        if !path.is_empty() {
            path.insert(0, root);
            return Ok(path);
        }
    }
    Ok(Vec::new())
}

/// Whether instruction `i` may stand between a hero and an output: an elementwise op (not a
/// `map`), a `bitcast` or a `reshape`.
fn is_epilogue_op(comp: &Computation, i: usize) -> bool {
    let instr = &comp.instructions[i];
    matches!(instr.opcode.as_str(), "bitcast" | "reshape")
        || (instruction_kind(instr) == Some(OpKind::Elementwise) && instr.opcode != "map")
}

/// The map from an index of `operand` to the index of `user` (an epilogue op reading it) that
/// holds the element computed from it: the identity for elementwise ops, the bitcast or the
/// reshape otherwise.
fn step_map(comp: &Computation, user: usize, operand: usize) -> Result<IndexingMap, String> {
    let (to, from) = (array(comp, user)?, array(comp, operand)?);
    let name = &comp.instructions[user].name;
    let map = match comp.instructions[user].opcode.as_str() {
        "bitcast" => bitcast_map(from, to).map_err(|e| e.to_string())?,
        "reshape" => reshape_map(&from.dims, &to.dims).map_err(|e| e.to_string())?,
        _ => Some(IndexingMap::identity(&to.dims)),
    };
    map.ok_or_else(|| format!("{name} changes the element count or a tiled layout"))
}

/// Walks the epilogue of an output from `i`, whose element each thread stores is `map` (thread
/// ids to index of `i`): every hero must be read at its write map's element (the value the
/// thread holds from the tile), and the instructions that read no hero are collected with
/// their maps into `free`.
fn check_epilogue(
    comp: &Computation,
    i: usize,
    map: &IndexingMap,
    heroes: &[TransposeHero],
    free: &mut Vec<(usize, IndexingMap)>,
) -> Result<(), String> {
    if let Some(h) = heroes.iter().find(|h| h.hero == i) {
        if map.to_string() != h.write_map.to_string() {
            return Err(format!(
                "an output reads {} at other elements than a thread moves ({map} against {})",
                comp.instructions[i].name, h.write_map
            ));
        }
        return Ok(());
    }
    if !heroes
        .iter()
        .any(|h| reaches_hero(comp, i, &|k| k == h.hero))
    {
        if !free.iter().any(|(k, m)| *k == i && m == map) {
            free.push((i, map.clone()));
        }
        return Ok(());
    }
    let instr = &comp.instructions[i];
    if !is_epilogue_op(comp, i) {
        return Err(format!(
            "a transpose is read through {} ({}), which the transpose emitter does not fuse after it",
            instr.name, instr.opcode
        ));
    }
    for &operand in &instr.operands {
        let back = match instr.opcode.as_str() {
            "bitcast" | "reshape" => inverse_step(comp, i, operand)?,
            _ => IndexingMap::identity(&array_dims(comp, i)?),
        };
        let mut m = map.compose(&back).map_err(|e| e.to_string())?;
        m.simplify();
        check_epilogue(comp, operand, &m, heroes, free)?;
    }
    Ok(())
}

/// The map from an index of `user` (a bitcast or reshape) to the index of its `operand` that
/// holds the same element.
fn inverse_step(comp: &Computation, user: usize, operand: usize) -> Result<IndexingMap, String> {
    let (from, to) = (array(comp, user)?, array(comp, operand)?);
    let map = match comp.instructions[user].opcode.as_str() {
        "bitcast" => bitcast_map(from, to).map_err(|e| e.to_string())?,
        _ => reshape_map(&from.dims, &to.dims).map_err(|e| e.to_string())?,
    };
    map.ok_or_else(|| {
        format!(
            "{} changes the element count or a tiled layout",
            comp.instructions[user].name
        )
    })
}

/// The array shape of instruction `i`.
fn array(comp: &Computation, i: usize) -> Result<&ArrayShape, String> {
    comp.instructions[i]
        .shape
        .as_array()
        .ok_or_else(|| format!("{} is a tuple", comp.instructions[i].name))
}

/// The dimensions of instruction `i`'s array.
fn array_dims(comp: &Computation, i: usize) -> Result<Vec<i64>, String> {
    Ok(array(comp, i)?.dims.clone())
}

/// What a hero reads: an instruction, its shape, and the dimension of it each of the hero's
/// result dimensions takes.
struct Source<'a> {
    instr: usize,
    shape: &'a ArrayShape,
    perm: Vec<usize>,
}

/// The operand of instruction `k` when it is a `transpose` or `copy` of an array (a `copy`
/// takes dimension `d` from dimension `d`); `None` for other ops and tuples.
fn hero_operand(comp: &Computation, k: usize) -> Option<Source<'_>> {
    let instr = &comp.instructions[k];
    let operand = *instr.operands.first()?;
    let Shape::Array(shape) = &comp.instructions[operand].shape else {
        return None;
    };
    let perm = match instr.opcode.as_str() {
        "copy" => (0..shape.dims.len()).collect(),
        "transpose" => instr
            .ints("dimensions")?
            .iter()
            .map(|&d| usize::try_from(d).ok().filter(|&d| d < shape.dims.len()))
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    Some(Source {
        instr: operand,
        shape,
        perm,
    })
}

/// What hero `k` moves: its operand, or, through `transpose`s and `copy`s that move nothing in
/// memory (layout changes that are bitcasts), their source, with the dimensions composed. Both
/// routes to a kernel then agree: HLO's `transpose` to a column-major layout and `copy` back
/// reads the elements StableHLO's plain `transpose` reads.
fn hero_source(comp: &Computation, k: usize) -> Option<Source<'_>> {
    let mut source = hero_operand(comp, k)?;
    while physical_order(comp, source.instr).is_some_and(|o| o.len() <= 1) {
        let inner = hero_operand(comp, source.instr)?;
        let perm = source.perm.iter().map(|&d| inner.perm[d]).collect();
        source = Source { perm, ..inner };
    }
    Some(source)
}

/// How instruction `k` (a `transpose` or `copy`) moves its operand in memory (see
/// [`runs_of`]); `None` for other ops.
fn physical_order(comp: &Computation, k: usize) -> Option<Vec<(Vec<usize>, usize)>> {
    let Shape::Array(result) = &comp.instructions[k].shape else {
        return None;
    };
    runs_of(&hero_operand(comp, k)?, result)
}

/// How `result` lies in memory against `source`: the runs of the source's logical dimensions
/// (size 1 dropped) that stay adjacent in both layouts, in the source's layout order, each with
/// its place in the result's layout order. One run means nothing moves (a bitcast).
fn runs_of(source: &Source<'_>, result: &ArrayShape) -> Option<Vec<(Vec<usize>, usize)>> {
    let (operand, perm) = (source.shape, &source.perm);
    let wide = |d: &usize| operand.dims[*d] != 1;
    let from: Vec<usize> = operand
        .layout_or_default()
        .major_to_minor()
        .into_iter()
        .filter(wide)
        .collect();
    let to: Vec<usize> = result
        .layout_or_default()
        .major_to_minor()
        .into_iter()
        .map(|d| perm.get(d).copied())
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .filter(wide)
        .collect();
    let place = |d: usize| to.iter().position(|&t| t == d);
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &d in &from {
        match runs.last_mut() {
            Some(run) if place(d) == place(*run.last()?).map(|p| p + 1) => run.push(d),
            _ => runs.push(vec![d]),
        }
    }
    let mut starts: Vec<usize> = runs.iter().filter_map(|r| place(r[0])).collect();
    starts.sort_unstable();
    runs.into_iter()
        .map(|r| {
            let at = starts.iter().position(|&s| Some(s) == place(r[0]))?;
            Some((r, at))
        })
        .collect()
}

/// The runs of hero `hero` reading `source` as `[Z, Y, X, M]`: `X` the source's minor-most
/// run, `Y` the run that becomes the result's minor-most, and `Z` every other run, in the
/// source's layout order (the batch a block's tile belongs to). Any permutation that moves the
/// minor-most run is tiled so, `[1, 0]`, `[0, 2, 1]`, `[2, 1, 0]` or `[1, 3, 0, 2]` in layout
/// order alike. One that keeps it in place (`[1, 0, 2]`) is tiled as XLA tiles it when the
/// kept run `M` is small (at most 8 bytes) and the tile pays (`M`'s bytes times the smaller of
/// the next two runs at least 16): `X` and `Y` are then the runs next to `M`, and each element
/// of the tile is a run of `M`.
fn tiled_runs(comp: &Computation, hero: usize, source: &Source<'_>) -> Result<Runs, String> {
    let Shape::Array(result) = &comp.instructions[hero].shape else {
        return Err("the transpose is a tuple".into());
    };
    let name = &comp.instructions[hero].name;
    let mut order = runs_of(source, result).unwrap_or_default();
    if order.len() <= 1 {
        return Err(format!("{name} moves nothing in memory"));
    }
    let mut runs: Runs = Default::default();
    let last = order.len() - 1;
    if order[last].1 == last {
        let (kept, _) = order.pop().unwrap_or_default();
        let size = |run: &[usize]| run.iter().map(|&d| source.shape.dims[d]).product::<i64>();
        let bytes = element_bits(&result.element).map_or(8, |b| (b as i64 / 8).max(1));
        let kept_bytes = bytes * size(&kept);
        let last = order.len() - 1;
        let y = order
            .iter()
            .find(|(_, at)| *at == last)
            .map_or(0, |(r, _)| size(r));
        let x = order.last().map_or(0, |(r, _)| size(r));
        if kept_bytes > MAX_KEPT_BYTES || kept_bytes * x.min(y) < MIN_KEPT_TILE_BYTES {
            return Err(format!(
                "{name} keeps the minor-most dimension in place with {kept_bytes} bytes per \
                 element of a tile of {x} x {y}, which XLA's transpose emitter tiles only for \
                 at most {MAX_KEPT_BYTES} bytes and {MIN_KEPT_TILE_BYTES} bytes times the smaller side"
            ));
        }
        runs[3] = kept;
    }
    let last = order.len() - 1;
    for (k, (run, at)) in order.into_iter().enumerate() {
        let slot = if k == last {
            2
        } else if at == last {
            1
        } else {
            0
        };
        runs[slot].extend(run);
    }
    Ok(runs)
}

/// The constraints of a tile's element: its row and column within the arrays' `Y` and `X`.
type Bounds = [(Expr, Interval); 2];

/// The launch, the read map, the write map and the `[Z, Y, X, M]` sizes of a hero whose
/// operand has dimensions `dims`, whose result dimension `d` is operand dimension `perm[d]`,
/// and whose runs are `runs` (`unroll_id` runs over a kept minor-most run `M`).
fn maps(
    dims: &[i64],
    perm: &[usize],
    runs: &Runs,
) -> Result<(LaunchDimensions, IndexingMap, IndexingMap, [i64; 4]), ArithError> {
    let size = |run: &Vec<usize>| run.iter().map(|&d| dims[d]).product::<i64>();
    let sizes = [
        size(&runs[0]),
        size(&runs[1]),
        size(&runs[2]),
        size(&runs[3]),
    ];
    let [_, ys, xs, kept] = sizes;
    let t = int(TILE)?;
    let (tiles_y, tiles_x) = (ceil_div(ys, t), ceil_div(xs, t));
    let per_batch = tiles_y.checked_mul(tiles_x).ok_or(ArithError::Overflow)?;
    let blocks = sizes[0]
        .checked_mul(per_batch)
        .ok_or(ArithError::Overflow)?;
    let launch = LaunchDimensions {
        blocks: [uint(blocks)?, 1, 1],
        threads: [TILE, BLOCK_ROWS, 1],
    };
    let (th_x, th_y, bl_x, chunk) = (Expr::dim(0), Expr::dim(1), Expr::dim(3), Expr::sym(0));
    let z = bl_x.floor_div(per_batch)?;
    let y0 = bl_x.floor_div(tiles_x)?.modulo(tiles_y)?.checked_scale(t)?;
    let x0 = bl_x.modulo(tiles_x)?.checked_scale(t)?;
    let row = th_y.checked_add(&chunk.checked_scale(int(BLOCK_ROWS)?)?)?;
    let ids = id_vars(&launch)?;
    let symbols = vec![
        Var::named(Interval::upto(int(TILE / BLOCK_ROWS)?), SYMBOL_NAMES[0]),
        Var::named(Interval::upto(kept), SYMBOL_NAMES[1]),
    ];
    let at = |y: Expr, x: Expr| -> Result<(Vec<Expr>, Bounds), ArithError> {
        let parts = [
            (z.clone(), runs[0].clone()),
            (y.clone(), runs[1].clone()),
            (x.clone(), runs[2].clone()),
            (Expr::sym(1), runs[3].clone()),
        ];
        let bounds = [(y, Interval::upto(ys)), (x, Interval::upto(xs))];
        Ok((logical_index(dims, &parts)?, bounds))
    };
    let map = |index: Vec<Expr>, bounds: Bounds| {
        let mut m = IndexingMap::new(index, ids.clone(), symbols.clone(), Vec::new());
        for (e, iv) in bounds {
            m.add_constraint(e, iv);
        }
        m.simplify();
        m
    };
    let (read_index, read_bounds) = at(y0.checked_add(&row)?, x0.checked_add(&th_x)?)?;
    let (written, write_bounds) = at(y0.checked_add(&th_x)?, x0.checked_add(&row)?)?;
    let write_index = perm.iter().map(|&d| written[d].clone()).collect();
    Ok((
        launch,
        map(read_index, read_bounds),
        map(write_index, write_bounds),
        sizes,
    ))
}
