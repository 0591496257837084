//! The reduction emitter's plan: which fusions it writes, how their reduced elements are spread
//! over threads, and the thread-id maps of its reads and writes.
//!
//! A fusion goes to the reduction emitter when its outputs are elementwise functions (an
//! *epilogue*) of `reduce`s that all reduce inputs of the same dimensions along the same
//! dimensions (the *heroes*; several make a multi-output reduction, a variadic `reduce` such as
//! argmax is one hero with several accumulators), or values of the heroes' input shape that do
//! not depend on them (*side outputs*, such as the exponentials a softmax's sum reduces, which
//! XLA's multi-output fusions also write). The input's layout decides the kind, as in
//! XLA:
//!
//! * **Row reduction**: the reduced dimensions are the minor-most ones, so each output element
//!   reduces one contiguous row (or, with reduced dimensions also before the kept ones, a row of
//!   contiguous runs). A group of threads shares a row: thread `lane` of the group reads
//!   vectors `lane, lane + group, ...`, so that a warp's reads are adjacent; the group's partial
//!   results meet through warp shuffles and, for groups of several warps, through shared
//!   memory (a slot per warp).
//! * **Column reduction**: the reduced dimensions lie between kept ones, `[batch, reduced,
//!   kept]` in layout order. Each thread reads `vector` adjacent columns, each with its own
//!   partial result; the partial results of a column meet in a shared tile read transposed and
//!   a shuffle tree.
//!
//! The family, the threads, the vector width and the shared tile are XLA's
//! ([`crate::reduction_tiling`]): row, multi-row (a row within a warp), column and small column
//! (the kept size divides a warp) reductions.
//!
//! A reduce may read another through a broadcast of its row value over the reduced dimensions
//! (a softmax subtracts its row maximum before summing exponentials, then divides by the sum):
//! the heroes then fall into levels ([`crate::roles`]), each a pass of the row's group over its
//! row, the earlier heroes' results known to every thread of the group; outputs of the input's
//! shape that read heroes (the softmax itself) are written in a last pass. So XLA's softmax and
//! layer norm are one kernel each when XLA fuses them into one (as its Triton softmax fusion
//! does) and as many as XLA's fusions otherwise.
//!
//! Anything else (a kept run between reduced ones that is not the only one, a reduction so
//! small that XLA estimates its loop emitter faster ([`crate::reduction_eligibility`]), a reduce
//! read through a non-elementwise op, an output that is not a function of the reductions, a
//! column reduction read per element) stays with the loop emitter, and the plan says why.

use xla_indexing_core::{ArithError, ComposeError, Expr, IndexingMap, Interval, Var};
use xla_indexing_hlo::Opcode;

use crate::device::Device;
use crate::epilogue::{reaches_hero, root_leaves};
use crate::error::PlanError;
use crate::identity::is_identity;
use crate::kernel::element_bits;
use crate::launch::{LaunchDimensions, LaunchError};
use crate::reduction_eligibility::check_faster_than_loop;
use crate::reduction_groups::reduction_groups;
use crate::reduction_tiling::tiling;
pub use crate::reduction_tiling::{Components, IoBits, ReductionKind, WARP};
use crate::roles::{HeroInput, Role, roles};
use crate::thread_map::{DIM_NAMES, SYMBOL_NAMES};
use xla_indexing_hlo::module::{Computation, Module};
use xla_indexing_hlo::shape::{ArrayShape, Shape};

/// The reduction emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct ReductionPlan {
    /// The heroes: `reduce` instructions of the fused computation, by level, then in text order.
    pub heroes: Vec<usize>,
    /// Per hero, its level: the pass over the rows that reduces it (1 when its input reads no
    /// hero, else one more than the deepest hero its input reads through a broadcast).
    pub level: Vec<usize>,
    /// Per kernel output, where its value comes from.
    pub outputs: Vec<OutputSource>,
    /// Per kernel output, for a side output of other dimensions than the heroes' input (a
    /// bitcast of it: the same elements in memory), the map from the input's index to its own;
    /// `None` for every other output.
    pub side_bitcasts: Vec<Option<IndexingMap>>,
    /// Per kernel output, its reduction group (`reduction_groups.rs`): the row of blocks
    /// (`bl_y`) that computes it.
    pub output_groups: Vec<usize>,
    /// Per hero, its reduction group.
    pub hero_groups: Vec<usize>,
    /// The row or column shape of the reduction.
    pub kind: ReductionKind,
    /// The launch.
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (hero input index)`: the element a thread reads at
    /// each step of its loop (`unroll_id` ranges over a row reduction's vector).
    pub read_map: IndexingMap,
    /// `(thread ids) -> (output index)`, with the constraints under which the thread writes.
    pub write_map: IndexingMap,
    /// Per hero, the read map in its inputs' indices: the read map itself, or for a hero whose
    /// inputs have another shape (of the same components), the read map through the bitcast to
    /// it.
    pub input_maps: Vec<IndexingMap>,
    /// Per hero, whether its partial results carry a flag saying whether they met an element
    /// (its initial values are not identities of its reducer, [`crate::identity`]).
    pub flagged: Vec<bool>,
    /// The shared memory the partial results meet in: per hero its values, then its flag.
    pub shared: Vec<SharedBuffer>,
    /// For columns, how the partial results of each lane (`unroll_id`) meet in the shared
    /// tile; `None` for rows (whose warps meet in a slot per warp).
    pub exchange: Option<Exchange>,
    /// The read map's index over every thread of the launch, without the constraints (which
    /// may narrow a dim to the threads that read): the launch attribute's map, whose dims must
    /// match the launch.
    pub launch_map: IndexingMap,
}

/// How a column reduction's partial results meet: thread `t`'s partial result of lane `s` is
/// stored at `store(t)[s]` of the shared tile; after a barrier, each thread loads `load(t)[s]`
/// and `lanes` adjacent lanes of a warp combine what they loaded with shuffles.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// `(thread ids)[unroll_id] -> (tile index)` of the stores.
    pub store: IndexingMap,
    /// `(thread ids)[unroll_id] -> (tile index)` of the loads.
    pub load: IndexingMap,
    /// Adjacent lanes that combine (a power of two, at most a warp).
    pub lanes: u64,
}

/// One buffer of a block's shared memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedBuffer {
    /// Its dimensions (a row reduction's slot per warp, a column tile of 32 × 33).
    pub dims: Vec<u64>,
    /// The XLA element type (`f32`, `pred`, ...).
    pub element: String,
}

impl SharedBuffer {
    /// Bytes of the buffer (a `pred` takes one, 4-bit elements are packed two to a byte).
    pub fn bytes(&self) -> u64 {
        let bits = element_bits(&self.element).unwrap_or(8);
        (self.dims.iter().product::<u64>() * bits).div_ceil(8)
    }
}

/// Where a kernel output's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputSource {
    /// An instruction computed from the heroes' results by elementwise ops (the epilogue).
    Epilogue(usize),
    /// An instruction of the heroes' input shape, or of a shape the input bitcasts to, that does
    /// not depend on them (a side output), stored by the thread that reads each element, at the
    /// read map's element (through [`ReductionPlan::side_bitcasts`]).
    Side(usize),
    /// An instruction of the heroes' input shape that reads heroes through broadcasts along the
    /// reduced dimensions (a softmax's quotient), stored in a last pass over the rows at the
    /// read map's element.
    Normalized(usize),
    /// Result `leaf` of hero `hero` (a variadic reduce that is the fusion's root).
    Leaf {
        /// The hero (the root).
        hero: usize,
        /// Its result leaf.
        leaf: usize,
    },
}

impl ReductionPlan {
    /// The element at which side or normalized output `k` is stored while `read` (the read
    /// map, or a reduction group's restriction of it) reads the heroes' input: that element,
    /// or for a side output of other dimensions, its image through the output's bitcast.
    pub fn side_map(&self, k: usize, read: &IndexingMap) -> Result<IndexingMap, ComposeError> {
        let Some(bitcast) = self.side_bitcasts.get(k).and_then(Option::as_ref) else {
            return Ok(read.clone());
        };
        let mut map = read.compose(bitcast)?;
        map.simplify();
        Ok(map)
    }

    /// Warps of a block.
    pub fn warps(&self) -> u64 {
        self.launch.threads.iter().product::<u64>() / WARP
    }
}

/// The reduction emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs, `Ok(None)` when the fusion has no reduce; `Err` says why the reduction emitter does
/// not take it (the loop emitter then does).
pub fn plan_reduction(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<ReductionPlan>, PlanError> {
    let comp = &module.computations[c];
    let reduces: Vec<usize> = (0..comp.instructions.len())
        .filter(|&i| comp.instructions[i].opcode == Opcode::Reduce)
        .collect();
    let Some(&first) = reduces.first() else {
        return Ok(None);
    };
    let (dims, layout, reduced) = hero_input(comp, first)?;
    let components = classify(&dims, &layout, &reduced)?;
    // Heroes whose inputs have other shapes but the same components (XLA reads them through
    // the bitcast of the first hero's input to theirs).
    let mut reshaped = Vec::new();
    for &h in &reduces[1..] {
        let (d, l, r) = hero_input(comp, h)?;
        if (&d, &l, &r) == (&dims, &layout, &reduced) {
            continue;
        }
        if classify(&d, &l, &r)? != components {
            return Err(PlanError::Unsupported(format!(
                "{} and {} reduce different inputs or dimensions",
                comp.instructions[first].name, comp.instructions[h].name
            )));
        }
        reshaped.push(h);
    }
    if dims.contains(&0) {
        return Err(PlanError::Unsupported(
            "the reduced input has no elements".into(),
        ));
    }
    check_faster_than_loop(components)?;
    let input = HeroInput {
        dims: dims.clone(),
        reduced: reduced.clone(),
    };
    let (roles, levels) = roles(comp, &input)?;
    let input_shape = hero_input_shape(comp, first)?;
    let (sources, side_bitcasts): (Vec<_>, Vec<_>) =
        output_sources(comp, outputs, &roles, &input_shape)?
            .into_iter()
            .unzip();
    let mut heroes: Vec<usize> = reduces
        .into_iter()
        .filter(|&h| reaches_hero(comp, comp.root, &|k| k == h))
        .collect();
    heroes.sort_by_key(|&h| (levels[h], h));
    let level: Vec<usize> = heroes.iter().map(|&h| levels[h]).collect();
    if heroes.is_empty() {
        return Err(PlanError::NoHero("reduction"));
    }
    let kind = tiling(components, &io_bits(comp, &heroes), device);
    let passes = level.last().copied().unwrap_or(1);
    let normalized = sources
        .iter()
        .any(|s| matches!(s, OutputSource::Normalized(_)));
    if !reshaped.is_empty() && (passes > 1 || normalized) {
        return Err(PlanError::Unsupported(format!(
            "{} reduces an input of another shape and a reduction is read per element",
            comp.instructions[reshaped[0]].name
        )));
    }
    if !matches!(kind, ReductionKind::Row { .. }) && (passes > 1 || normalized) {
        return Err(PlanError::Unsupported(
            "a column reduction's result is read per element (only rows are reduced in passes)"
                .into(),
        ));
    }
    let roots: Vec<(usize, bool)> = sources
        .iter()
        .map(|s| match *s {
            OutputSource::Epilogue(i) | OutputSource::Normalized(i) => (i, true),
            OutputSource::Side(i) => (i, false),
            OutputSource::Leaf { hero, .. } => (hero, true),
        })
        .collect();
    let output_groups = reduction_groups(comp, &roots);
    let hero_groups = heroes
        .iter()
        .map(|&h| {
            roots
                .iter()
                .zip(&output_groups)
                .find(|((root, _), _)| reaches_hero(comp, *root, &|k| k == h))
                .map_or(0, |(_, &g)| g)
        })
        .collect();
    let groups = output_groups.iter().max().map_or(1, |g| g + 1);
    let Maps {
        launch,
        read: read_map,
        write: write_map,
        exchange,
    } = maps(&kind, (&dims, &layout, &reduced), groups)
        .map_err(|e| PlanError::ThreadMaps(e.into()))?;
    let launch_map = launch_map(&launch, &read_map)?;
    let input_maps = heroes
        .iter()
        .map(|&h| {
            if !reshaped.contains(&h) {
                return Ok(read_map.clone());
            }
            let to = hero_input_shape(comp, h)?;
            let bitcast = xla_indexing_hlo::ops::bitcast_map(&input_shape, &to)
                .map_err(PlanError::ThreadMaps)?
                .ok_or_else(|| {
                    PlanError::Unsupported(format!(
                        "the input of {} is not a bitcast of the first hero's",
                        comp.instructions[h].name
                    ))
                })?;
            let mut map = read_map.compose(&bitcast).map_err(PlanError::ThreadMaps)?;
            map.simplify();
            Ok(map)
        })
        .collect::<Result<Vec<_>, PlanError>>()?;
    check_launch(&launch, device)?;
    let flagged = heroes
        .iter()
        .map(|&h| !initial_values_are_identities(module, comp, h))
        .collect::<Vec<_>>();
    let shared = shared_buffers(comp, &heroes, &flagged, (&kind, exchange.as_ref()));
    Ok(Some(ReductionPlan {
        flagged,
        shared,
        exchange,
        heroes,
        level,
        outputs: sources,
        side_bitcasts,
        output_groups,
        hero_groups,
        input_maps,
        kind,
        launch,
        read_map,
        write_map,
        launch_map,
    }))
}

/// Whether every initial value of hero `h` is an identity of its reducer.
fn initial_values_are_identities(module: &Module, comp: &Computation, h: usize) -> bool {
    let instr = &comp.instructions[h];
    let n = instr.operands.len() / 2;
    let [reducer] = instr.called("to_apply") else {
        return false;
    };
    let leaves = instr.shape.leaves();
    instr.operands[n..]
        .iter()
        .zip(&leaves)
        .all(|(&init, leaf)| is_identity(module, reducer, &comp.instructions[init], &leaf.element))
}

/// The bit widths of computation `comp`'s parameters and outputs, and whether a hero reads a
/// complex value: what XLA's vector choice reads.
fn io_bits(comp: &Computation, heroes: &[usize]) -> IoBits {
    let narrowest = |shapes: Vec<&Shape>| {
        shapes
            .into_iter()
            .flat_map(Shape::leaves)
            .filter_map(|leaf| element_bits(&leaf.element))
            .min()
    };
    let parameters = comp
        .instructions
        .iter()
        .filter(|i| i.opcode == Opcode::Parameter)
        .map(|i| &i.shape)
        .collect();
    let complex = heroes.iter().any(|&h| {
        comp.instructions[h].operands.iter().any(|&o| {
            comp.instructions[o]
                .shape
                .leaves()
                .iter()
                .any(|l| l.element.starts_with('c'))
        })
    });
    IoBits {
        smallest_input: narrowest(parameters),
        smallest_output: narrowest(vec![&comp.instructions[comp.root].shape]).unwrap_or(32),
        complex,
    }
}

/// The shared buffers of the heroes' partial results (per hero its values, then its flag when
/// `flagged`): a row's slot per warp (`rows_per_block x warps`, padded by one against bank
/// conflicts when the warps fill all 32 banks), a column's tile as its exchange stores into
/// (padded likewise), none for rows within a warp.
fn shared_buffers(
    comp: &Computation,
    heroes: &[usize],
    flagged: &[bool],
    (kind, exchange): (&ReductionKind, Option<&Exchange>),
) -> Vec<SharedBuffer> {
    let mut dims = match (kind, exchange) {
        (ReductionKind::Row { group, .. }, _) if *group <= WARP => return Vec::new(),
        (
            ReductionKind::Row {
                group,
                rows_per_block,
                ..
            },
            _,
        ) => vec![*rows_per_block, group / WARP],
        (_, Some(exchange)) => tile_dims(exchange),
        (_, None) => return Vec::new(),
    };
    let padding = match *kind {
        ReductionKind::SmallColumn {
            threads,
            vector,
            kept,
            ..
        } if threads != WARP || vector != 1 => {
            Some(u64::try_from(kept).unwrap_or(1).div_ceil(threads * vector))
        }
        ReductionKind::SmallColumn { .. } => Some(0),
        _ => None,
    };
    if let Some(last) = dims.last_mut() {
        *last += padding.unwrap_or(u64::from(*last % WARP == 0));
    }
    let mut out = Vec::new();
    for (&h, &flag) in heroes.iter().zip(flagged) {
        let leaves = comp.instructions[h].shape.leaves();
        let elements = leaves.iter().map(|l| l.element.clone());
        for element in elements.chain(flag.then(|| "pred".to_string())) {
            out.push(SharedBuffer {
                dims: dims.clone(),
                element,
            });
        }
    }
    out
}

/// The extent of the tile an exchange stores into: one more than the largest index of each
/// dimension.
fn tile_dims(exchange: &Exchange) -> Vec<u64> {
    exchange
        .store
        .results()
        .iter()
        .map(|r| u64::try_from(exchange.store.expr_range(r).hi + 1).unwrap_or(1))
        .collect()
}

/// Per output, its source: the root's leaves (through nested tuples; a result of a variadic
/// reduce is that hero's leaf), each by its role (a value of the heroes' `input` shape, or of
/// one it bitcasts to, that depends on no hero is a side output, with the bitcast's map).
fn output_sources(
    comp: &Computation,
    outputs: usize,
    roles: &[Role],
    input: &ArrayShape,
) -> Result<Vec<(OutputSource, Option<IndexingMap>)>, PlanError> {
    root_leaves(comp, outputs)?
        .into_iter()
        .map(|(i, leaf)| match (leaf, &roles[i]) {
            (Some(leaf), _) if comp.instructions[i].opcode == Opcode::Reduce => {
                Ok((OutputSource::Leaf { hero: i, leaf }, None))
            }
            (Some(_), _) => Err(PlanError::Unsupported(format!(
                "an output is a result of {}, a tuple that is not a reduce",
                comp.instructions[i].name
            ))),
            (None, Role::Row(_)) => Ok((OutputSource::Epilogue(i), None)),
            (None, Role::Element(_)) => Ok((OutputSource::Normalized(i), None)),
            (None, Role::Free) => Ok((OutputSource::Side(i), side_bitcast(comp, i, input)?)),
        })
        .collect()
}

/// For side output `i` of the heroes' `input` dimensions, `None`; of other dimensions whose
/// elements lie where the input's do (a bitcast of it), the map from the input's index to its
/// own; anything else is an error naming it.
fn side_bitcast(
    comp: &Computation,
    i: usize,
    input: &ArrayShape,
) -> Result<Option<IndexingMap>, PlanError> {
    let instr = &comp.instructions[i];
    let not_side = || {
        PlanError::Unsupported(format!(
            "output {} does not depend on a reduction and is neither of the reduced input's \
             shape nor a bitcast of it",
            instr.name
        ))
    };
    let shape = instr.shape.as_array().ok_or_else(not_side)?;
    if shape.dims == input.dims {
        return Ok(None);
    }
    let mut map = xla_indexing_hlo::ops::bitcast_map(input, shape)
        .map_err(|source| PlanError::OutputBitcast {
            output: instr.name.clone(),
            source,
        })?
        .ok_or_else(not_side)?;
    map.simplify();
    Ok(Some(map))
}

/// The shape of hero `hero`'s (first) input; a tuple is an error naming the hero.
fn hero_input_shape(comp: &Computation, hero: usize) -> Result<ArrayShape, PlanError> {
    let instr = &comp.instructions[hero];
    comp.instructions[instr.operands[0]]
        .shape
        .as_array()
        .cloned()
        .ok_or_else(|| PlanError::TupleInput(instr.name.clone()))
}

/// A hero's input: its dimensions, its layout (major to minor) and the reduced dimensions.
type InputLayout = (Vec<i64>, Vec<usize>, Vec<usize>);

/// A hero's input dimensions, the input's layout (major to minor) and the reduced dimensions
/// (sorted).
fn hero_input(comp: &Computation, hero: usize) -> Result<InputLayout, PlanError> {
    let instr = &comp.instructions[hero];
    let input = &comp.instructions[instr.operands[0]];
    let Shape::Array(shape) = &input.shape else {
        return Err(PlanError::TupleInput(instr.name.clone()));
    };
    let mut reduced: Vec<usize> = instr
        .ints("dimensions")
        .unwrap_or(&[])
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(usize::MAX))
        .collect();
    reduced.sort_unstable();
    if reduced.iter().any(|&d| d >= shape.dims.len()) {
        return Err(PlanError::Unsupported(format!(
            "{} reduces a dimension its input lacks",
            instr.name
        )));
    }
    Ok((
        shape.dims.clone(),
        shape.layout_or_default().major_to_minor(),
        reduced,
    ))
}

/// The row or column components, from the reduced dimensions' places in the layout
/// (dimensions of size 1 go with either side).
fn classify(
    dims: &[i64],
    major_to_minor: &[usize],
    reduced: &[usize],
) -> Result<Components, PlanError> {
    // Runs of (reduced?, product of sizes), major to minor.
    let mut runs: Vec<(bool, i64)> = Vec::new();
    for &d in major_to_minor.iter().filter(|&&d| dims[d] != 1) {
        let r = reduced.contains(&d);
        match runs.last_mut() {
            Some((last, n)) if *last == r => *n *= dims[d],
            _ => runs.push((r, dims[d])),
        }
    }
    // A row of `segments` runs of `segment` adjacent elements (the reduced dimensions before
    // the kept ones give the runs); vectors stay within a run.
    let row = |rows: i64, segments: i64, segment: i64| Components::Row {
        rows,
        segments,
        segment,
    };
    let column = |batch: i64, reduced: i64, kept: i64| Components::Column {
        batch,
        reduced,
        kept,
    };
    Ok(match runs.as_slice() {
        [] | [(false, _)] => row(runs.first().map_or(1, |r| r.1), 1, 1),
        [(true, r)] => row(1, 1, *r),
        [(false, k), (true, r)] => row(*k, 1, *r),
        [(true, major), (false, k), (true, r)] => row(*k, *major, *r),
        [(true, r), (false, k)] => column(1, *r, *k),
        [(false, b), (true, r), (false, k)] => column(*b, *r, *k),
        _ => {
            return Err(PlanError::Unsupported(
                "the reduced dimensions are not one run of the layout next to the kept ones".into(),
            ));
        }
    })
}

/// `read_map`'s index over every thread of `launch`, without its constraints (which may narrow
/// a dim to the threads that read): a launch attribute's map, whose dims must match the launch.
pub(crate) fn launch_map(
    launch: &LaunchDimensions,
    read_map: &IndexingMap,
) -> Result<IndexingMap, PlanError> {
    let ids = id_vars(launch).map_err(|e| PlanError::ThreadMaps(e.into()))?;
    Ok(IndexingMap::new(
        read_map.results().to_vec(),
        ids,
        read_map.range_vars().to_vec(),
        Vec::new(),
    ))
}

/// The six thread-id dims of a launch, each over all the ids the launch has.
pub fn id_vars(launch: &LaunchDimensions) -> Result<Vec<Var>, ArithError> {
    (0..6)
        .map(|i| {
            let n = if i < 3 {
                launch.threads[i]
            } else {
                launch.blocks[i - 3]
            };
            let n = i64::try_from(n).map_err(|_| ArithError::Overflow)?;
            Ok(Var::named(Interval::upto(n), DIM_NAMES[i]))
        })
        .collect()
}

/// `value`'s digits over `sizes` (major first), as expressions.
fn delinearize(value: &Expr, sizes: &[i64]) -> Result<Vec<Expr>, ArithError> {
    let mut out = vec![Expr::zero(); sizes.len()];
    let mut divisor = 1i64;
    for (k, &size) in sizes.iter().enumerate().rev() {
        out[k] = value.floor_div(divisor)?.modulo(size.max(1))?;
        divisor = divisor
            .checked_mul(size.max(1))
            .ok_or(ArithError::Overflow)?;
    }
    Ok(out)
}

/// The logical index (of rank `dims.len()`) whose layout-ordered runs of dimensions `parts`
/// (each a value and its logical dimensions, major first) take the digits of their values.
pub(crate) fn logical_index(
    dims: &[i64],
    parts: &[(Expr, Vec<usize>)],
) -> Result<Vec<Expr>, ArithError> {
    let mut index = vec![Expr::zero(); dims.len()];
    for (value, which) in parts {
        let sizes: Vec<i64> = which.iter().map(|&d| dims[d]).collect();
        for (&d, e) in which.iter().zip(delinearize(value, &sizes)?) {
            index[d] = e;
        }
    }
    Ok(index)
}

/// What a kind's launch gives the maps: the loop's chunks, the runs of the read and written
/// index with their values (the written one may read the lane, symbol 0), the constraints of
/// reading and writing, and a column's exchange.
struct Spread {
    launch: LaunchDimensions,
    /// Elements a thread reads per step (`unroll_id`'s values).
    vector: u64,
    chunks: i64,
    read: Vec<(Expr, Vec<usize>)>,
    write: Vec<(Expr, Vec<usize>)>,
    /// Lanes of the write map (`None`: it has no symbol, a row's thread writes one element).
    write_lanes: Option<u64>,
    read_constraints: Vec<(Expr, Interval)>,
    write_constraints: Vec<(Expr, Interval)>,
    /// A column's exchange: the tile indices of the stores and of the loads, and the lanes
    /// that combine.
    exchange: Option<(Vec<Expr>, Vec<Expr>, u64)>,
}

/// `a / b` rounded up, for `a >= 0` and `b > 0`.
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}

pub(crate) fn int(v: u64) -> Result<i64, ArithError> {
    i64::try_from(v).map_err(|_| ArithError::Overflow)
}

pub(crate) fn uint(v: i64) -> Result<u64, ArithError> {
    u64::try_from(v).map_err(|_| ArithError::Overflow)
}

/// A row reduction: `group` threads per row, `rows_per_block` rows side by side in a 1-d
/// block; each thread reads `vector` adjacent elements per step.
fn spread_rows(
    kind: &ReductionKind,
    kept: Vec<usize>,
    reduced: Vec<usize>,
) -> Result<Spread, ArithError> {
    let ReductionKind::Row {
        rows,
        row_length,
        group,
        rows_per_block,
        vector,
    } = *kind
    else {
        return Err(ArithError::Overflow);
    };
    let (th_x, bl_x, chunk, unroll) = (Expr::dim(0), Expr::dim(3), Expr::sym(0), Expr::sym(1));
    let v = int(vector)?;
    let g = int(group)?;
    let per_block = int(rows_per_block)?;
    let launch = LaunchDimensions {
        blocks: [uint(ceil_div(rows.max(1), per_block))?, 1, 1],
        threads: [
            rows_per_block
                .checked_mul(group)
                .ok_or(ArithError::Overflow)?,
            1,
            1,
        ],
    };
    let row = bl_x
        .checked_scale(per_block)?
        .checked_add(&th_x.floor_div(g)?)?;
    let k = chunk
        .checked_scale(g)?
        .checked_add(&th_x.modulo(g)?)?
        .checked_scale(v)?
        .checked_add(&unroll)?;
    Ok(Spread {
        launch,
        vector,
        chunks: ceil_div(
            row_length.max(1),
            g.checked_mul(v).ok_or(ArithError::Overflow)?,
        ),
        read_constraints: vec![
            (row.clone(), Interval::upto(rows.max(1))),
            (k.clone(), Interval::upto(row_length.max(1))),
        ],
        write_constraints: vec![
            (row.clone(), Interval::upto(rows.max(1))),
            (th_x.modulo(g)?, Interval::point(0)),
        ],
        read: vec![(row.clone(), kept.clone()), (k, reduced)],
        write: vec![(row, kept)],
        write_lanes: None,
        exchange: None,
    })
}

/// A column reduction: blocks of 32 x 32 threads (one dimension), one per batch element and
/// run of `32 x vector` adjacent kept elements; lane `l` of warp `w` reads rows `w + 32 i` of
/// columns `l * vector + s`. The tile is stored at `[l, w * vector + s]` and loaded transposed,
/// so that warp `w` combines the 32 partial results of column `w * vector + s`.
fn spread_columns(
    (batch, reduced_size, kept_size, vector): (i64, i64, i64, u64),
    (major_kept, reduced, minor_kept): (Vec<usize>, Vec<usize>, Vec<usize>),
) -> Result<Spread, ArithError> {
    let (th, bl_x, chunk, unroll) = (Expr::dim(0), Expr::dim(3), Expr::sym(0), Expr::sym(1));
    let t = int(WARP)?;
    let v = int(vector)?;
    let (lane, warp) = (th.modulo(t)?, th.floor_div(t)?);
    let tiles = ceil_div(
        kept_size.max(1),
        t.checked_mul(v).ok_or(ArithError::Overflow)?,
    );
    let blocks = batch
        .max(1)
        .checked_mul(tiles)
        .ok_or(ArithError::Overflow)?;
    let launch = LaunchDimensions {
        blocks: [uint(blocks)?, 1, 1],
        threads: [WARP * WARP, 1, 1],
    };
    let b = bl_x.floor_div(tiles)?;
    let tile = bl_x.modulo(tiles)?.checked_scale(t)?;
    let n = tile
        .checked_add(&lane)?
        .checked_scale(v)?
        .checked_add(&unroll)?;
    let lane_sym = Expr::sym(0);
    let written = tile
        .checked_add(&warp)?
        .checked_scale(v)?
        .checked_add(&lane_sym)?;
    let k = chunk.checked_scale(t)?.checked_add(&warp)?;
    let store = vec![lane.clone(), warp.checked_scale(v)?.checked_add(&lane_sym)?];
    let load = vec![warp, lane.checked_scale(v)?.checked_add(&lane_sym)?];
    Ok(Spread {
        launch,
        vector,
        chunks: ceil_div(reduced_size.max(1), t),
        read_constraints: vec![
            (n.clone(), Interval::upto(kept_size.max(1))),
            (k.clone(), Interval::upto(reduced_size.max(1))),
        ],
        write_constraints: vec![
            (written.clone(), Interval::upto(kept_size.max(1))),
            (lane, Interval::point(0)),
        ],
        read: vec![
            (b.clone(), major_kept.clone()),
            (k, reduced),
            (n, minor_kept.clone()),
        ],
        write: vec![(b, major_kept), (written, minor_kept)],
        write_lanes: Some(vector),
        exchange: Some((store, load, WARP)),
    })
}

/// A small column reduction: one block of `threads` per batch element; thread `t` reads
/// elements `t * vector + s + i * vector * threads` of the `reduced x kept` elements (each lane
/// `s` one column's partial result), stores lane `s` at its place in the `shared_rows x kept`
/// tile, and `shared_rows` adjacent lanes combine the loads of one column.
fn spread_small_columns(
    kind: &ReductionKind,
    (major_kept, reduced, minor_kept): (Vec<usize>, Vec<usize>, Vec<usize>),
) -> Result<Spread, ArithError> {
    let ReductionKind::SmallColumn {
        batch,
        reduced: reduced_size,
        kept,
        vector,
        threads,
        shared_rows,
    } = *kind
    else {
        return Err(ArithError::Overflow);
    };
    let (th, bl_x, chunk, unroll) = (Expr::dim(0), Expr::dim(3), Expr::sym(0), Expr::sym(1));
    let (v, t, r) = (int(vector)?, int(threads)?, int(shared_rows)?);
    let step = v.checked_mul(t).ok_or(ArithError::Overflow)?;
    let linear = th
        .checked_scale(v)?
        .checked_add(&unroll)?
        .checked_add(&chunk.checked_scale(step)?)?;
    let k = linear.floor_div(kept)?;
    let n = linear.modulo(kept)?;
    let lane_sym = Expr::sym(0);
    let stored = th.checked_scale(v)?.checked_add(&lane_sym)?;
    let loaded = th.checked_add(&lane_sym.checked_scale(t)?)?;
    let written = loaded.floor_div(r)?;
    let b = bl_x;
    Ok(Spread {
        launch: LaunchDimensions {
            blocks: [uint(batch.max(1))?, 1, 1],
            threads: [threads, 1, 1],
        },
        vector,
        chunks: ceil_div(
            reduced_size
                .max(1)
                .checked_mul(kept)
                .ok_or(ArithError::Overflow)?,
            step,
        ),
        read_constraints: vec![(k.clone(), Interval::upto(reduced_size.max(1)))],
        write_constraints: vec![(th.modulo(r)?, Interval::point(0))],
        read: vec![
            (b.clone(), major_kept.clone()),
            (k, reduced),
            (n, minor_kept.clone()),
        ],
        write: vec![(b, major_kept), (written.clone(), minor_kept)],
        write_lanes: Some(vector),
        exchange: Some((
            vec![stored.floor_div(kept)?, stored.modulo(kept)?],
            vec![loaded.modulo(r)?, written],
            shared_rows,
        )),
    })
}

/// What [`maps`] gives: the launch, the read and write maps, a column's exchange.
struct Maps {
    launch: LaunchDimensions,
    read: IndexingMap,
    write: IndexingMap,
    exchange: Option<Exchange>,
}

/// The launch, the read map, the write map and the exchange of `kind` over the input's `dims`
/// (with their layout and the reduced ones), for `groups` reduction groups (rows of blocks).
fn maps(
    kind: &ReductionKind,
    (dims, major_to_minor, reduced): (&[i64], &[usize], &[usize]),
    groups: usize,
) -> Result<Maps, ArithError> {
    let is_reduced = |d: &usize| reduced.contains(d);
    let kept: Vec<usize> = major_to_minor
        .iter()
        .copied()
        .filter(|d| !is_reduced(d))
        .collect();
    let reduced_dims: Vec<usize> = major_to_minor.iter().copied().filter(is_reduced).collect();
    // Kept dimensions before the first reduced one (of size > 1) are a column's batch.
    let first_reduced = major_to_minor
        .iter()
        .position(|d| is_reduced(d) && dims[*d] != 1)
        .unwrap_or(0);
    let (major, minor): (Vec<usize>, Vec<usize>) = kept
        .iter()
        .partition(|d| major_to_minor.iter().position(|x| x == *d) < Some(first_reduced));
    let mut spread = match *kind {
        ReductionKind::Row { .. } => spread_rows(kind, kept, reduced_dims)?,
        ReductionKind::Column {
            batch,
            reduced: size,
            kept: kept_size,
            vector,
        } => spread_columns(
            (batch, size, kept_size, vector),
            (major, reduced_dims, minor),
        )?,
        ReductionKind::SmallColumn { .. } => {
            spread_small_columns(kind, (major, reduced_dims, minor))?
        }
    };
    spread.launch.blocks[1] = groups as u64;
    let ids = id_vars(&spread.launch)?;
    let symbols = vec![
        Var::named(Interval::upto(spread.chunks), SYMBOL_NAMES[0]),
        Var::named(Interval::upto(int(spread.vector)?), SYMBOL_NAMES[1]),
    ];
    let mut read = IndexingMap::new(
        logical_index(dims, &spread.read)?,
        ids.clone(),
        symbols,
        Vec::new(),
    );
    for (e, iv) in spread.read_constraints {
        read.add_constraint(e, iv);
    }
    read.simplify();
    let lanes = spread
        .write_lanes
        .map(|n| Ok::<_, ArithError>(vec![Var::named(Interval::upto(int(n)?), SYMBOL_NAMES[1])]))
        .transpose()?
        .unwrap_or_default();
    let over_lanes = |results: Vec<Expr>| {
        let mut map = IndexingMap::new(results, ids.clone(), lanes.clone(), Vec::new());
        map.simplify();
        map
    };
    let written = logical_index(dims, &spread.write)?;
    let mut write = over_lanes(
        (0..dims.len())
            .filter(|d| !is_reduced(d))
            .map(|d| written[d].clone())
            .collect(),
    );
    for (e, iv) in spread.write_constraints {
        write.add_constraint(e, iv);
    }
    write.simplify();
    let exchange = spread.exchange.map(|(store, load, lanes)| Exchange {
        store: over_lanes(store),
        load: over_lanes(load),
        lanes,
    });
    Ok(Maps {
        launch: spread.launch,
        read,
        write,
        exchange,
    })
}

/// The launch within the device's limits.
pub(crate) fn check_launch(launch: &LaunchDimensions, device: &Device) -> Result<(), LaunchError> {
    let threads: u64 = launch.threads.iter().product();
    if threads > device.threads_per_block_limit {
        return Err(LaunchError::ThreadsPerBlock {
            threads,
            limit: device.threads_per_block_limit,
        });
    }
    for (axis, (&n, &limit)) in launch
        .blocks
        .iter()
        .zip(&device.block_dim_limit)
        .enumerate()
    {
        if n > limit {
            return Err(LaunchError::Blocks {
                axis: ['x', 'y', 'z'][axis],
                count: n,
                limit,
            });
        }
    }
    Ok(())
}
