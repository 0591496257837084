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

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::Opcode;

use crate::device::Device;
use crate::epilogue::{reaches_hero, root_values};
use crate::error::PlanError;
use crate::kernel::element_bits;
use crate::launch::LaunchDimensions;
use crate::reduction::SharedBuffer;
use crate::reduction::{check_launch, launch_map};
use crate::transpose_tiling::{
    RunSizes, TileKind, TileRuns, Tiling, fusion_tiling, hero_kind, tile_maps,
};
use xla_indexing_hlo::module::{Computation, Instruction, Module};
use xla_indexing_hlo::ops::{OpKind, bitcast_map, instruction_kind, reshape_map};
use xla_indexing_hlo::shape::{ArrayShape, Shape};

/// The transpose emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct TransposePlan {
    /// The transposes the block moves through shared memory, each with its own tile; all
    /// are tiled alike (the same run sizes), so one launch moves them together.
    pub heroes: Vec<TransposeHero>,
    /// Per kernel output, what it stores and where.
    pub outputs: Vec<TransposeOutput>,
    /// XLA's tiling of the heroes: padded or packed, and the vector size.
    pub tiling: Tiling,
    /// Whether the `unroll_id` values of a thread's step are all read (and written) when the
    /// first is (a kept run's elements, or vectors that never straddle the end of `X` or `Y`):
    /// only then may the kernel handle them together, as one vector where the maps prove it.
    pub whole_groups: bool,
    /// The sizes of the sources' runs (every hero's alike).
    pub sizes: RunSizes,
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
    /// The index of the shared tile each read element is stored at (the read map's variables
    /// and constraints).
    pub store_map: IndexingMap,
    /// `(thread ids)[chunk_id, unroll_id] -> (hero index)`: the element of the hero a thread
    /// holds after the barrier at each row step, with the constraints under which it holds one.
    pub write_map: IndexingMap,
    /// The index of the shared tile each held element is loaded from (the write map's
    /// variables and constraints).
    pub load_map: IndexingMap,
    /// The shared tile of the hero's type (see [`Tiling::tile_dims`]), each element a run of
    /// `M` elements when the hero keeps its minor-most run.
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
) -> Result<Option<TransposePlan>, PlanError> {
    let comp = &module.computations[c];
    let moves = |k: usize| physical_order(comp, k).is_some_and(|o| o.len() > 1);
    if !(0..comp.instructions.len()).any(moves) {
        return Ok(None);
    }
    // The heroes: the transposes the emitter tiles. One it does not tile (a large kept
    // minor-most run, thin runs) is computed where it is read, as any other op.
    let mut tiled: Vec<Candidate> = Vec::new();
    let mut refused = None;
    for k in (0..comp.instructions.len()).filter(|&k| moves(k)) {
        match tiled_hero(comp, k) {
            Ok(hero) => tiled.push(hero),
            Err(why) => refused = refused.or(Some(why)),
        }
    }
    let is_hero = |k: usize| tiled.iter().any(|h| h.hero == k);
    let roots = root_values(comp, outputs)?;
    let mut paths = Vec::new();
    for &root in &roots {
        paths.push(epilogue_path(comp, root, &is_hero)?);
    }
    tiled.retain(|h| {
        roots
            .iter()
            .any(|&r| reaches_hero(comp, r, &|k| k == h.hero))
    });
    let Some(first) = tiled.first() else {
        return Err(refused.unwrap_or(PlanError::NoHero("transpose")));
    };
    let sizes = first.sizes;
    if let Some(other) = tiled.iter().find(|h| h.sizes != sizes) {
        return Err(PlanError::Unsupported(format!(
            "the transposes {} and {} are tiled differently ({sizes} and {})",
            comp.instructions[first.hero].name, comp.instructions[other.hero].name, other.sizes
        )));
    }
    let kinds: Vec<TileKind> = tiled.iter().map(|h| h.kind).collect();
    let bits: Vec<u64> = tiled.iter().map(|h| h.bits).collect();
    let tiling = fusion_tiling(&kinds, &bits, sizes, device);
    let mut heroes: Vec<TransposeHero> = Vec::new();
    let mut launch = None;
    for h in &tiled {
        let maps = tile_maps(&h.dims, &h.perm, &h.runs, sizes, tiling)
            .map_err(|e| PlanError::ThreadMaps(e.into()))?;
        let dims = tiling
            .tile_dims(sizes.kept)
            .map_err(|e| PlanError::ThreadMaps(e.into()))?;
        launch = Some(maps.launch);
        heroes.push(TransposeHero {
            hero: h.hero,
            source: h.source,
            read_map: maps.read,
            store_map: maps.store,
            write_map: maps.write,
            load_map: maps.load,
            tile: SharedBuffer {
                dims,
                element: h.element.clone(),
            },
        });
    }
    let launch = launch.ok_or(PlanError::NoHero("transpose"))?;
    check_launch(&launch, device)?;
    let launch_map = launch_map(&launch, &heroes[0].read_map)?;
    let outputs = roots
        .iter()
        .zip(paths)
        .map(|(&root, path)| plan_output(comp, root, path, &heroes))
        .collect::<Result<Vec<_>, _>>()?;
    let v = tiling.vector as i64;
    let whole_groups = sizes.kept > 1 || (sizes.x % v == 0 && sizes.y % v == 0);
    Ok(Some(TransposePlan {
        heroes,
        outputs,
        tiling,
        whole_groups,
        sizes,
        launch,
        launch_map,
    }))
}

/// A transpose the emitter tiles, before the fusion's tiling is known.
struct Candidate {
    hero: usize,
    source: usize,
    /// The source's dimensions, and the source dimension each of the hero's takes.
    dims: Vec<i64>,
    perm: Vec<usize>,
    runs: TileRuns,
    sizes: RunSizes,
    kind: TileKind,
    element: String,
    bits: u64,
}

/// Transpose `k` as a hero, or why XLA's emitter does not tile it.
fn tiled_hero(comp: &Computation, k: usize) -> Result<Candidate, PlanError> {
    let name = &comp.instructions[k].name;
    let source = hero_source(comp, k).ok_or(PlanError::TransposeOfTuple)?;
    let runs = tiled_runs(comp, k, &source)?;
    let sizes = runs.sizes(&source.shape.dims);
    let element = array(comp, k)?.element.clone();
    let bits = element_bits(&element)
        .ok_or_else(|| PlanError::Unsupported(format!("{name} has elements of {element}")))?;
    let kind = hero_kind(sizes, bits, runs.last_two).map_err(|why| PlanError::Instruction {
        name: name.clone(),
        source: Box::new(why),
    })?;
    Ok(Candidate {
        hero: k,
        source: source.instr,
        dims: source.shape.dims.clone(),
        perm: source.perm,
        runs,
        sizes,
        kind,
        element,
        bits,
    })
}

/// The plan of output `root`: stored from the heroes at the element `path` (from `root` down
/// to a hero) leads to, or a side output stored at the elements the first hero's source is
/// read at, seen through a bitcast to the root's shape.
fn plan_output(
    comp: &Computation,
    root: usize,
    path: Vec<usize>,
    heroes: &[TransposeHero],
) -> Result<TransposeOutput, PlanError> {
    let name = &comp.instructions[root].name;
    let root_shape = comp.instructions[root]
        .shape
        .as_array()
        .ok_or_else(|| PlanError::Unsupported(format!("output {name} is a tuple")))?;
    let Some(&hero) = path.last() else {
        let first = &heroes[0];
        let source = comp.instructions[first.source]
            .shape
            .as_array()
            .ok_or(PlanError::TransposeOfTuple)?;
        let bitcast = bitcast_map(source, root_shape)?.ok_or_else(|| {
            PlanError::Unsupported(format!(
                "side output {name} ({root_shape}) is no bitcast of the transpose's operand ({source})"
            ))
        })?;
        let mut write_map = first.read_map.compose(&bitcast)?;
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
        .ok_or_else(|| PlanError::Unsupported("a hero without a tile".into()))?;
    let mut forward = IndexingMap::identity(&array_dims(comp, hero)?);
    for pair in path.windows(2).rev() {
        forward = forward.compose(&step_map(comp, pair[0], pair[1])?)?;
    }
    let mut write_map = first.write_map.compose(&forward)?;
    write_map.simplify();
    let mut free_reads = Vec::new();
    let walk = Walk {
        comp,
        heroes,
        path: &path,
    };
    walk.check(root, Some(0), &write_map, &mut free_reads)?;
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
) -> Result<Vec<usize>, PlanError> {
    if is_hero(root) {
        return Ok(vec![root]);
    }
    if !reaches_hero(comp, root, is_hero) {
        return Ok(Vec::new());
    }
    let instr = &comp.instructions[root];
    if !is_epilogue_op(comp, root) {
        return Err(read_through(instr));
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
    matches!(instr.opcode, Opcode::Bitcast | Opcode::Reshape)
        || (instruction_kind(instr) == Some(OpKind::Elementwise) && instr.opcode != Opcode::Map)
}

/// The map from an index of `operand` to the index of `user` (an epilogue op reading it) that
/// holds the element computed from it: the identity for elementwise ops, the bitcast or the
/// reshape otherwise.
fn step_map(comp: &Computation, user: usize, operand: usize) -> Result<IndexingMap, PlanError> {
    let (to, from) = (array(comp, user)?, array(comp, operand)?);
    let map = match comp.instructions[user].opcode {
        Opcode::Bitcast => bitcast_map(from, to)?,
        Opcode::Reshape => reshape_map(&from.dims, &to.dims)?,
        _ => Some(IndexingMap::identity(&to.dims)),
    };
    map.ok_or_else(|| PlanError::NoBitcast(comp.instructions[user].name.clone()))
}

/// The walk of an output's epilogue that checks it and collects what it reads besides the
/// heroes.
struct Walk<'a> {
    comp: &'a Computation,
    heroes: &'a [TransposeHero],
    /// The instructions from the output down to the hero its write map was derived through.
    path: &'a [usize],
}

impl Walk<'_> {
    /// Walks from `i`, whose element each thread stores is `map` (thread ids to index of `i`),
    /// `on_path` its place on [`Walk::path`] when it lies on it: every hero must be read at
    /// its write map's element (the value the thread holds from the tile; the hero the path
    /// leads to is, by the path's construction), and the instructions that read no hero are
    /// collected with their maps into `free`.
    fn check(
        &self,
        i: usize,
        on_path: Option<usize>,
        map: &IndexingMap,
        free: &mut Vec<(usize, IndexingMap)>,
    ) -> Result<(), PlanError> {
        let comp = self.comp;
        if let Some(h) = self.heroes.iter().find(|h| h.hero == i) {
            if on_path.is_none() && map.to_string() != h.write_map.to_string() {
                return Err(PlanError::Unsupported(format!(
                    "an output reads {} at other elements than a thread moves ({map} against {})",
                    comp.instructions[i].name, h.write_map
                )));
            }
            return Ok(());
        }
        if !self
            .heroes
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
            return Err(read_through(instr));
        }
        for &operand in &instr.operands {
            let back = match instr.opcode {
                Opcode::Bitcast | Opcode::Reshape => inverse_step(comp, i, operand)?,
                _ => IndexingMap::identity(&array_dims(comp, i)?),
            };
            let mut m = map.compose(&back)?;
            m.simplify();
            let next = on_path
                .map(|k| k + 1)
                .filter(|&k| self.path.get(k) == Some(&operand));
            self.check(operand, next, &m, free)?;
        }
        Ok(())
    }
}

/// The map from an index of `user` (a bitcast or reshape) to the index of its `operand` that
/// holds the same element.
fn inverse_step(comp: &Computation, user: usize, operand: usize) -> Result<IndexingMap, PlanError> {
    let (from, to) = (array(comp, user)?, array(comp, operand)?);
    let map = match comp.instructions[user].opcode {
        Opcode::Bitcast => bitcast_map(from, to)?,
        _ => reshape_map(&from.dims, &to.dims)?,
    };
    map.ok_or_else(|| PlanError::NoBitcast(comp.instructions[user].name.clone()))
}

/// The error of a transpose read through `instr`.
fn read_through(instr: &Instruction) -> PlanError {
    PlanError::ReadThrough {
        hero: "transpose",
        name: instr.name.clone(),
        opcode: instr.opcode,
    }
}

/// The array shape of instruction `i`.
fn array(comp: &Computation, i: usize) -> Result<&ArrayShape, PlanError> {
    comp.instructions[i]
        .shape
        .as_array()
        .ok_or_else(|| PlanError::Tuple(comp.instructions[i].name.clone()))
}

/// The dimensions of instruction `i`'s array.
fn array_dims(comp: &Computation, i: usize) -> Result<Vec<i64>, PlanError> {
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
    let perm = match instr.opcode {
        Opcode::Copy => (0..shape.dims.len()).collect(),
        Opcode::Transpose => instr
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

/// The runs of hero `hero` reading `source` (see [`TileRuns`]): `X` the source's minor-most
/// run, `Y` the run that becomes the result's minor-most, `A` the run just before `X` in the
/// source that lies just after it in the result (before `Y`), and `Z` every other run, in the
/// source's layout order (the batch a block's tile belongs to). Any permutation that moves the
/// minor-most run is tiled so, `[1, 0]`, `[0, 2, 1]`, `[2, 1, 0]` or `[1, 3, 0, 2]` in layout
/// order alike. One that keeps it in place (`[1, 0, 2]`) has `X` and `Y` the runs next to the
/// kept run `M`, and each element of the tile is a run of `M` (whether XLA tiles it is
/// `transpose_tiling::hero_kind`'s question).
fn tiled_runs(comp: &Computation, hero: usize, source: &Source<'_>) -> Result<TileRuns, PlanError> {
    let Shape::Array(result) = &comp.instructions[hero].shape else {
        return Err(PlanError::Unsupported("the transpose is a tuple".into()));
    };
    let name = &comp.instructions[hero].name;
    let mut order = runs_of(source, result).unwrap_or_default();
    if order.len() <= 1 {
        return Err(PlanError::Unsupported(format!(
            "{name} moves nothing in memory"
        )));
    }
    let mut runs = TileRuns::default();
    let last = order.len() - 1;
    if order[last].1 == last {
        runs.kept = order.pop().unwrap_or_default().0;
    }
    let last = order.len() - 1;
    let x_place = order[last].1;
    runs.last_two =
        runs.kept.is_empty() && last >= 1 && order[last - 1].1 == last && x_place + 1 == last;
    let has_a = runs.kept.is_empty()
        && last >= 1
        && order[last - 1].1 == x_place + 1
        && order[last - 1].1 + 1 == last;
    for (k, (run, at)) in order.into_iter().enumerate() {
        let slot = if k == last {
            &mut runs.x
        } else if at == last {
            &mut runs.y
        } else if has_a && k + 1 == last {
            &mut runs.a
        } else {
            &mut runs.batch
        };
        slot.extend(run);
    }
    Ok(runs)
}
