//! The reduction emitter (`xla_indexing_gpu::reduction` plans it, with XLA's tilings): a
//! kernel in which the threads of a row's group, or of a column's lanes, reduce together.
//!
//! 1. Every thread folds the elements its read map gives it into its accumulators (one per
//!    input of each hero) in an `xla_indexing.loop` over the map, the heroes' inputs computed
//!    by the elemental emitter at each element. A row's thread folds its vector's lanes into
//!    one partial result; a column's thread keeps one per lane (`unroll_id`), each a column.
//! 2. The partial results meet: a row's group through a `gpu.shuffle xor` tree (and, when the
//!    group spans several warps, each warp's result through a shared slot per warp and a
//!    second tree); a column's through the shared tile of the plan's exchange (stored where it
//!    says, a barrier, loaded transposed) and a tree over the lanes that hold one column.
//! 3. Every thread of a row's group ends up with the group's result (the trees leave it in
//!    every lane; a column's in every lane of its run), which the elemental emitter is given
//!    as the hero's value, per lane for columns. Heroes of a later level
//!    (a softmax's sum of exponentials, which reads the row maximum through a broadcast) repeat
//!    steps 1 and 2 in another pass over the row; outputs of the input's shape that read heroes
//!    are stored in a last pass, at each element read; side outputs (which read none) in the
//!    first.
//! 4. The first thread of each group computes the epilogue at the element its write map gives
//!    it (per lane for columns) and stores the outputs of the heroes' shape.
//!
//! Shuffles and barriers are at the top of the kernel's body, run by every thread (threads with
//! no element keep the reducer's initial values), as the hardware needs. Values narrower than
//! 32 bits are shuffled as `i32`, 64-bit ones as two `i32` halves.
//!
//! The initial value is applied once per thread. That is exact when it is an identity of the
//! reducer (`xla_indexing_gpu::identity`: 0 for `add`, `-inf` for `maximum`, ...).
//! Otherwise (a parameter, a variadic reducer such as argmax) each partial result carries a
//! flag saying whether it has
//! met an element: a flagged thread starts from its first element instead of the initial value,
//! combining two partial results keeps the one that has met elements when only one has, and the
//! group's result is the reducer applied once to the initial value and the partial result (or
//! the initial value alone when no element was met), as HLO's semantics apply it.

use xla_indexing_core::{Expr, IndexingMap, Interval};
use xla_indexing_gpu::{
    KernelPlan, LaunchDimensions,
    reduction::{Exchange, OutputSource, ReductionKind, ReductionPlan, WARP, id_vars},
    thread_map::{BL_Y, UNROLL_SYMBOL, fix_range_var},
    vector::Vectorization,
};
use xla_indexing_hlo::Opcode;
use xla_indexing_hlo::{HloError, Instruction, Module};

use super::CodegenOptions;
use super::body::{Body, Scalar};
use super::buffer::ArrayBuffer;
use super::complex::{join, split};
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, first_lanes, open_loop};
use super::error::CodegenError;
use super::lanes::Lanes;
use super::scalar::{Typed, select};
use super::types::{Class, Element, PRED};

/// An output stored at each element read (a side or normalized output): its instruction, its
/// buffer and how the plan stores a thread's vector.
struct Stored<'a> {
    instr: usize,
    buffer: &'a ArrayBuffer,
    store: &'a Vectorization,
    /// The element stored while the read loop reads the heroes' input at the read map's.
    at: Index,
}

/// One hero: the reduce, its inputs and initial values, its reducer.
#[derive(Clone)]
struct Hero {
    instr: usize,
    inputs: Vec<usize>,
    inits: Vec<usize>,
    reducer: String,
    elements: Vec<Element>,
    /// Whether the initial values are identities of the reducer (no flags are needed).
    identity: bool,
    /// Where the hero reads inputs of another shape than the first hero's: the read map
    /// through the bitcast to them (`None`: the read map itself).
    reads: Option<Index>,
}

/// A hero's partial result: one value per input, and unless the initial value is an identity,
/// whether the values have met an element (`i1`).
#[derive(Clone)]
struct Partial {
    values: Vec<Typed>,
    met: Option<String>,
}

/// The partial results of every hero, in order.
type Accumulators = Vec<Partial>;

/// The `gpu.func` of a kernel the reduction emitter writes (see the module comment).
pub fn reduction_function(
    module: &Module,
    plan: &KernelPlan,
    reduction: &ReductionPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    let kernel = &plan.kernel;
    let c = kernel.computation;
    let heroes = reduction
        .heroes
        .iter()
        .zip(&reduction.flagged)
        .zip(&reduction.input_maps)
        .map(|((&h, &flagged), reads)| {
            let reshaped = (*reads != reduction.read_map).then_some(reads);
            hero(module, c, h, (flagged, reshaped))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| kernel.lowering_error(e))?;
    let Begun {
        text,
        emitter: mut e,
        outputs,
        shared,
    } = begin_kernel(
        module,
        plan,
        symbol,
        (&reduction.shared, &reduction.launch_map),
        options,
    )?;
    // A column's thread writes one element per lane; the write map at lane 0 stands for all
    // where only the thread ids matter. Each reduction group runs in its row of blocks: its
    // maps are constrained to `bl_y` = its number.
    let lanes = reduction.kind.vector() as usize;
    let separate = reduction.exchange.is_some();
    let groups = reduction.output_groups.iter().max().map_or(1, |g| g + 1);
    let in_group = |map: IndexingMap, group: usize| -> IndexingMap {
        if groups == 1 {
            return map;
        }
        let mut map = map;
        map.add_constraint(Expr::dim(BL_Y as u32), Interval::point(group as i64));
        map.simplify();
        map
    };
    let lane_write = |lane: usize, group: usize| -> Result<Index, HloError> {
        let map = if separate {
            fix_range_var(&reduction.write_map, 0, lane as i64).map_err(overflow)?
        } else {
            reduction.write_map.clone()
        };
        Ok(Index::from(in_group(map, group)))
    };
    let write = lane_write(0, 0)?;
    let inits = initial_values(&mut e, c, &heroes, &write)?;
    // Each hero's shared buffers: its values', then its flag's.
    let mut slots = Vec::new();
    for h in &heroes {
        let first = slots.last().map_or(0, |r: &std::ops::Range<usize>| r.end);
        slots.push(first..first + partial_types(h).len());
    }
    for group in 0..groups {
        let read_map = in_group(reduction.read_map.clone(), group);
        let stored = |wanted: fn(&OutputSource) -> Option<usize>| -> Result<Vec<Stored>, HloError> {
            let mut out = Vec::new();
            for (k, (((source, g), buffer), plan_out)) in reduction
                .outputs
                .iter()
                .zip(&reduction.output_groups)
                .zip(&outputs)
                .zip(&plan.outputs)
                .enumerate()
            {
                let Some(instr) = wanted(source).filter(|_| *g == group) else {
                    continue;
                };
                let map = reduction.side_map(k, &read_map).map_err(|e| {
                    plan.kernel
                        .error(format!("cannot be lowered: output {k}'s index: {e}"))
                })?;
                out.push(Stored {
                    instr,
                    buffer,
                    store: &plan_out.store,
                    at: Index {
                        map,
                        rts: Vec::new(),
                    },
                });
            }
            Ok(out)
        };
        let side = stored(|s| match *s {
            OutputSource::Side(i) => Some(i),
            _ => None,
        })?;
        let normalized = stored(|s| match *s {
            OutputSource::Normalized(i) => Some(i),
            _ => None,
        })?;
        let read = Reads {
            map: &read_map,
            vectorize: options.vectorize,
            separate: separate && lanes > 1,
        };
        let members: Vec<usize> = (0..heroes.len())
            .filter(|&k| reduction.hero_groups[k] == group)
            .collect();
        let group_heroes: Vec<Hero> = members.iter().map(|&k| heroes[k].clone()).collect();
        // Per lane, per hero of the group, its results.
        let mut finals: Vec<Vec<Vec<Typed>>> = vec![Vec::new(); if separate { lanes } else { 1 }];
        let deepest = members
            .iter()
            .map(|&k| reduction.level[k])
            .max()
            .unwrap_or(0);
        for level in 1..=deepest {
            let in_pass: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&k| reduction.level[k] == level)
                .collect();
            let pass: Vec<Hero> = in_pass.iter().map(|&k| heroes[k].clone()).collect();
            let pass_inits: Vec<Partial> = in_pass.iter().map(|&k| inits[k].clone()).collect();
            let pass_shared: Vec<ArrayBuffer> = in_pass
                .iter()
                .flat_map(|&k| shared.get(slots[k].clone()).unwrap_or(&[]).iter().cloned())
                .collect();
            let stores = if level == 1 { side.as_slice() } else { &[] };
            let partial = read_loop(&mut e, module, c, (&pass, &pass_inits), &read, stores)?;
            let reduced = combine(
                &mut e,
                (module, c),
                reduction,
                (&pass, &pass_inits),
                partial,
                &pass_shared,
            )?;
            for (lane, accs) in reduced.iter().enumerate() {
                for ((h, init), acc) in pass.iter().zip(&pass_inits).zip(accs) {
                    let instr = &module.computations[c].instructions[h.instr];
                    let values = final_values(&mut e, instr, h, init, acc, &write)?;
                    if !separate {
                        give_hero(&mut e, module, c, h, &values);
                    }
                    finals[lane].push(values);
                }
            }
        }
        if deepest == 0 && !side.is_empty() {
            read_loop(&mut e, module, c, (&[], &[]), &read, &side)?;
        }
        if !normalized.is_empty() {
            read_loop(&mut e, module, c, (&[], &[]), &read, &normalized)?;
        }
        for (lane, lane_finals) in finals.iter().enumerate() {
            if separate {
                for (h, values) in group_heroes.iter().zip(lane_finals) {
                    give_hero(&mut e, module, c, h, values);
                }
            }
            let at = lane_write(lane, group)?;
            let finals = (group_heroes.as_slice(), lane_finals.as_slice());
            write_outputs(&mut e, c, reduction, finals, &outputs, group, &at)?;
        }
    }
    Ok(end_kernel(text, e))
}

/// The hero `h` of computation `c`; `flagged` when its partial results carry a flag, `reads`
/// the map of its inputs' elements.
fn hero(
    module: &Module,
    c: usize,
    h: usize,
    (flagged, reads): (bool, Option<&IndexingMap>),
) -> Result<Hero, CodegenError> {
    let comp = &module.computations[c];
    let instr = &comp.instructions[h];
    let n = instr.operands.len() / 2;
    let [reducer] = instr.called("to_apply") else {
        return Err(CodegenError::NoReducer(instr.name.clone()));
    };
    let elements = instr
        .shape
        .leaves()
        .iter()
        .map(|s| Element::of(&s.element))
        .collect::<Result<Vec<_>, _>>()?;
    if elements.len() != n || n == 0 {
        return Err(CodegenError::ReductionResults {
            name: instr.name.clone(),
            results: elements.len(),
            inputs: n,
        });
    }
    Ok(Hero {
        instr: h,
        inputs: instr.operands[..n].to_vec(),
        inits: instr.operands[n..].to_vec(),
        reducer: reducer.clone(),
        elements,
        identity: !flagged,
        reads: reads.map(Index::of),
    })
}

/// The element types of a partial result as shared memory holds it: its values, then its flag.
fn partial_types(h: &Hero) -> Vec<&'static str> {
    let flag = (!h.identity).then_some("i1");
    h.elements.iter().map(|e| e.mlir).chain(flag).collect()
}

/// The names of a partial result's values and flag, in the order of [`partial_types`].
fn partial_names(p: &Partial) -> Vec<String> {
    p.values
        .iter()
        .map(|v| v.value.name.clone())
        .chain(p.met.clone())
        .collect()
}

/// A partial result of `h` from the names of its values and flag (in [`partial_types`] order).
fn partial_of(h: &Hero, names: &[String]) -> Partial {
    let values = h
        .elements
        .iter()
        .zip(names)
        .map(|(&element, name)| Typed {
            value: Scalar::new(name.clone(), element.mlir),
            element,
        })
        .collect();
    Partial {
        values,
        met: (!h.identity).then(|| names[h.elements.len()].clone()),
    }
}

/// The heroes' initial values, computed once at the top, as partial results that have met no
/// element.
fn initial_values(
    e: &mut Emitter,
    c: usize,
    heroes: &[Hero],
    at: &Index,
) -> Result<Accumulators, HloError> {
    let scalar = Index::from(at.map.with_results(Vec::new()));
    heroes
        .iter()
        .map(|h| {
            let values = h
                .inits
                .iter()
                .map(|&i| e.value(c, i, &scalar))
                .collect::<Result<Vec<_>, _>>()?;
            let met = (!h.identity).then(|| e.body.constant("false", "i1").name);
            Ok(Partial { values, met })
        })
        .collect()
}

/// Hero `h`'s partial result `acc` combined with `other` (the reducer applied to both; with
/// flags, the one that has met elements when only one has).
fn merge(
    e: &mut Emitter,
    instr: &Instruction,
    h: &Hero,
    acc: &Partial,
    other: &Partial,
    at: &Index,
) -> Result<Partial, HloError> {
    let args = acc.values.iter().chain(&other.values).cloned().collect();
    let combined = e.apply_all(instr, &h.reducer, args, at)?;
    let (Some(mine), Some(theirs)) = (&acc.met, &other.met) else {
        return Ok(Partial {
            values: combined,
            met: None,
        });
    };
    let both = e
        .body
        .op("both", "i1", format!("arith.andi {mine}, {theirs} : i1"))
        .name;
    let values = combined
        .iter()
        .zip(acc.values.iter().zip(&other.values))
        .map(|(c, (a, o))| {
            let one = select(&mut e.body, mine, a, o);
            select(&mut e.body, &both, c, &one)
        })
        .collect();
    let met = e
        .body
        .op("met", "i1", format!("arith.ori {mine}, {theirs} : i1"))
        .name;
    Ok(Partial {
        values,
        met: Some(met),
    })
}

/// How a kernel reads its elements: the read map, whether vector accesses are on, and
/// whether each lane (`unroll_id`) keeps its own partial result (a column's lanes are columns).
struct Reads<'a> {
    map: &'a IndexingMap,
    vectorize: bool,
    separate: bool,
}

/// Step 1: the loop over the read map folding each thread's elements into its partial results,
/// per lane when `read.separate` (else one). With vector accesses on, or separate lanes, a read
/// map whose `unroll_id` takes several values is looped over with `unroll_id` 0 and the lanes
/// emitted one by one, sharing vector loads where the maps prove them (`vector.rs`); a row's
/// lanes fold into one partial result. Each output of `stores` is stored at every element read
/// (a thread's lanes with one vector store where the plan proves it).
fn read_loop(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    (heroes, inits): (&[Hero], &[Partial]),
    read: &Reads,
    stores: &[Stored],
) -> Result<Vec<Accumulators>, HloError> {
    let read_map = read.map;
    let width = read_map.range_vars()[UNROLL_SYMBOL].bounds.count() as usize;
    let lanes = (read.vectorize || read.separate) && width > 1;
    let loop_map = if lanes {
        first_lanes(read_map)
    } else {
        read_map.clone()
    };
    let copies = if read.separate { width } else { 1 };
    let types: Vec<&str> = heroes.iter().flat_map(partial_types).collect();
    let lane_types: Vec<&str> = (0..copies).flat_map(|_| types.iter().copied()).collect();
    let iter_args: Vec<(String, &str)> = (0..copies)
        .flat_map(|_| inits.iter().flat_map(partial_names))
        .zip(lane_types.iter().copied())
        .collect();
    let open = open_loop(e, &loop_map, &iter_args);
    let at = Index::of(read_map);
    let per_lane = |names: &[String]| -> Vec<Accumulators> {
        let n = types.len();
        (0..copies)
            .map(|k| partials_of(heroes, &names[k * n..(k + 1) * n]))
            .collect()
    };
    let mut partials = per_lane(&open.carried);
    if lanes {
        let names = (0..width).map(|k| e.body.index(k as i64).name).collect();
        let depth = (e.body.regions(), e.scope_depth());
        let mut l = Lanes::new(read_map.clone(), width as u64, names, depth);
        if !read.vectorize {
            l = l.scalar();
        }
        e.lanes = Some(l);
    }
    let mut stored: Vec<Vec<Typed>> = vec![Vec::new(); stores.len()];
    for lane in 0..(if lanes { width } else { 1 }) {
        e.set_lane(lane);
        let accs = &mut partials[if read.separate { lane } else { 0 }];
        for (h, acc) in heroes.iter().zip(accs.iter_mut()) {
            *acc = fold(e, module, c, h, acc, &at)?;
        }
        for (s, values) in stores.iter().zip(&mut stored) {
            values.push(e.value(c, s.instr, &s.at)?);
        }
    }
    for (s, values) in stores.iter().zip(&stored) {
        if lanes {
            e.store_lanes(s.buffer, &s.at.map, values, s.store)
                .map_err(|err| HloError::Usage(format!("output store: {err}")))?;
        } else {
            let index = e
                .materialize(&s.at)
                .map_err(|err| HloError::Usage(format!("output index: {err}")))?;
            for v in values {
                s.buffer.store(&mut e.body, &v.value.name, &index);
            }
        }
    }
    e.lanes = None;
    let next: Vec<String> = partials.iter().flatten().flat_map(partial_names).collect();
    close_loop(e, &next, &lane_types);
    Ok(per_lane(&open.results))
}

/// The heroes' partial results from the names of their values and flags, hero after hero (in
/// [`partial_types`] order).
fn partials_of(heroes: &[Hero], names: &[String]) -> Accumulators {
    let mut taken = 0;
    heroes
        .iter()
        .map(|h| {
            let n = partial_types(h).len();
            taken += n;
            partial_of(h, &names[taken - n..taken])
        })
        .collect()
}

/// Hero `h`'s partial result `acc` with the hero's inputs at `at` folded in (with flags, the
/// inputs alone when `acc` has met no element).
fn fold(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    h: &Hero,
    acc: &Partial,
    at: &Index,
) -> Result<Partial, HloError> {
    let at = h.reads.as_ref().unwrap_or(at);
    let elements = h
        .inputs
        .iter()
        .map(|&input| e.value(c, input, at))
        .collect::<Result<Vec<_>, _>>()?;
    let instr = &module.computations[c].instructions[h.instr];
    let args = acc.values.iter().chain(&elements).cloned().collect();
    let combined = e.apply_all(instr, &h.reducer, args, at)?;
    Ok(match &acc.met {
        None => Partial {
            values: combined,
            met: None,
        },
        Some(met) => Partial {
            values: combined
                .iter()
                .zip(&elements)
                .map(|(c, x)| select(&mut e.body, met, c, x))
                .collect(),
            met: Some(e.body.constant("true", "i1").name),
        },
    })
}

/// Step 2: the partial results of a row's group, or of a column's lanes, combined (per lane);
/// every thread of a row's group, and the first lane of a column's, holds the result.
fn combine(
    e: &mut Emitter,
    (module, c): (&Module, usize),
    reduction: &ReductionPlan,
    (heroes, inits): (&[Hero], &[Partial]),
    partial: Vec<Accumulators>,
    shared: &[ArrayBuffer],
) -> Result<Vec<Accumulators>, HloError> {
    let thread = match reduction.exchange {
        Some(_) => fix_range_var(&reduction.write_map, 0, 0).map_err(overflow)?,
        None => reduction.write_map.clone(),
    };
    let at = Index::from(thread.with_results(Vec::new()));
    let tree = |e: &mut Emitter, values: Accumulators, width: u64| {
        shuffle_tree(e, module, c, heroes, values, width, &at)
    };
    if let Some(x) = &reduction.exchange {
        return exchange(e, heroes, x, partial, shared, tree);
    }
    let ReductionKind::Row { group, .. } = reduction.kind else {
        return Err(HloError::Usage(
            "a column reduction without an exchange".into(),
        ));
    };
    let [partial] = <[Accumulators; 1]>::try_from(partial)
        .map_err(|_| HloError::Usage("a row's thread has one partial result".into()))?;
    if group <= WARP {
        return Ok(vec![tree(e, partial, group)?]);
    }
    let warped = tree(e, partial, WARP)?;
    // Lane 0 of each warp keeps its warp's result in its row's slot of the warp.
    let (th_x, warp, g) = (Expr::dim(0), WARP as i64, group as i64);
    let launch = &reduction.launch;
    let lane = id_value(e, launch, th_x.modulo(warp).map_err(overflow)?)?;
    let row = id_value(e, launch, th_x.floor_div(g).map_err(overflow)?)?;
    let slot = th_x
        .modulo(g)
        .and_then(|l| l.floor_div(warp))
        .map_err(overflow)?;
    let slot = id_value(e, launch, slot)?;
    let zero = e.body.index(0);
    let first = e.body.op(
        "lane0",
        "i1",
        format!("arith.cmpi eq, {lane}, {} : index", zero.name),
    );
    e.body.open(format!("scf.if {} {{", first.name));
    store_partials(e, &warped, shared, &[row.clone(), slot]);
    e.body.close("}", false);
    e.body.line("gpu.barrier");
    // Lane `l` of every warp of the row reads slot `l mod span` (`span` the warps rounded up
    // to a power of two; slots past the warps give the initial values, which have met no
    // element), so that each aligned run of `span` lanes holds them all and the tree leaves the
    // group's result in every lane: later passes over the row and the epilogue read it in any
    // thread.
    let warps = group / WARP;
    let span = warps.next_power_of_two();
    let source = id_value(e, launch, th_x.modulo(span as i64).map_err(overflow)?)?;
    if span == warps {
        let slots = load_partials(e, heroes, &[row, source], shared);
        return Ok(vec![tree(e, slots, span)?]);
    }
    let last = e.body.index(warps as i64 - 1);
    let clamped = e.body.op(
        "slot",
        "index",
        format!("arith.minui {source}, {} : index", last.name),
    );
    let count = e.body.index(warps as i64);
    let valid = e.body.op(
        "valid",
        "i1",
        format!("arith.cmpi ult, {source}, {} : index", count.name),
    );
    let loaded = load_partials(e, heroes, &[row, clamped.name], shared);
    let slots = loaded
        .iter()
        .zip(inits)
        .map(|(l, init)| Partial {
            values: l
                .values
                .iter()
                .zip(&init.values)
                .map(|(v, i)| select(&mut e.body, &valid.name, v, i))
                .collect(),
            met: l.met.as_ref().map(|m| {
                e.body
                    .op("met", "i1", format!("arith.andi {m}, {} : i1", valid.name))
                    .name
            }),
        })
        .collect();
    Ok(vec![tree(e, slots, span)?])
}

/// A column's partial results through the shared tile: every lane's stored where the exchange
/// says, a barrier, every lane's loaded where it says and combined across its `lanes`
/// adjacent lanes by `tree`.
fn exchange(
    e: &mut Emitter,
    heroes: &[Hero],
    x: &Exchange,
    partial: Vec<Accumulators>,
    shared: &[ArrayBuffer],
    tree: impl Fn(&mut Emitter, Accumulators, u64) -> Result<Accumulators, HloError>,
) -> Result<Vec<Accumulators>, HloError> {
    let tile_index =
        |e: &mut Emitter, map: &IndexingMap, lane: usize| -> Result<Vec<String>, HloError> {
            let map = fix_range_var(map, 0, lane as i64).map_err(overflow)?;
            let names = e
                .materialize(&Index {
                    map,
                    rts: Vec::new(),
                })
                .map_err(|err| HloError::Usage(format!("shared tile index: {err}")))?;
            Ok(names)
        };
    for (lane, accs) in partial.iter().enumerate() {
        let at = tile_index(e, &x.store, lane)?;
        store_partials(e, accs, shared, &at);
    }
    e.body.line("gpu.barrier");
    (0..partial.len())
        .map(|lane| {
            let at = tile_index(e, &x.load, lane)?;
            let loaded = load_partials(e, heroes, &at, shared);
            tree(e, loaded, x.lanes)
        })
        .collect()
}

/// Stores every value and flag of `partials` in its shared buffer at index `at`.
fn store_partials(e: &mut Emitter, partials: &Accumulators, shared: &[ArrayBuffer], at: &[String]) {
    for (name, buffer) in partials.iter().flat_map(partial_names).zip(shared) {
        buffer.store(&mut e.body, &name, at);
    }
}

/// An overflow in the emitter's own index arithmetic.
fn overflow(err: xla_indexing_core::ArithError) -> HloError {
    HloError::Usage(format!("thread ids: {err}"))
}

/// The value of `expr` over the six thread ids (`th_x mod 32`) as an `index`, for every thread
/// of `launch`.
fn id_value(e: &mut Emitter, launch: &LaunchDimensions, expr: Expr) -> Result<String, HloError> {
    let ids = id_vars(launch).map_err(|err| HloError::Usage(format!("thread ids: {err}")))?;
    let map = IndexingMap::new(vec![expr], ids, Vec::new(), Vec::new());
    let names = e
        .materialize(&Index {
            map,
            rts: Vec::new(),
        })
        .map_err(|err| HloError::Usage(format!("thread ids: {err}")))?;
    names
        .into_iter()
        .next()
        .ok_or_else(|| HloError::Usage("thread ids: no value".into()))
}

/// Per hero, its partial result in the shared slots at `at`.
fn load_partials(
    e: &mut Emitter,
    heroes: &[Hero],
    at: &[String],
    shared: &[ArrayBuffer],
) -> Accumulators {
    let names: Vec<String> = shared
        .iter()
        .take(heroes.iter().map(|h| partial_types(h).len()).sum())
        .map(|buffer| buffer.load(&mut e.body, at).name)
        .collect();
    partials_of(heroes, &names)
}

/// The partial results combined across `width` neighbouring lanes (a power of two, at most a
/// warp) by `log2(width)` shuffle steps; afterwards every lane of the `width` holds the result.
fn shuffle_tree(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    heroes: &[Hero],
    mut values: Accumulators,
    width: u64,
    at: &Index,
) -> Result<Accumulators, HloError> {
    let mut offset = width / 2;
    while offset >= 1 {
        let mut next = Vec::new();
        for (h, acc) in heroes.iter().zip(&values) {
            let other = Partial {
                values: acc
                    .values
                    .iter()
                    .map(|v| shuffle_xor(&mut e.body, v, offset))
                    .collect(),
                met: acc.met.as_ref().map(|m| {
                    let flag = Typed {
                        value: Scalar::new(m.clone(), "i1"),
                        element: PRED,
                    };
                    shuffle_xor(&mut e.body, &flag, offset).value.name
                }),
            };
            let instr = &module.computations[c].instructions[h.instr];
            next.push(merge(e, instr, h, acc, &other, at)?);
        }
        values = next;
        offset /= 2;
    }
    Ok(values)
}

/// The value of `v` at lane `lane xor offset` of the warp (`gpu.shuffle xor`): 32-bit values
/// as they are, narrower ones widened to `i32`, 64-bit ones in two `i32` halves, complex ones
/// part by part.
fn shuffle_xor(body: &mut Body, v: &Typed, offset: u64) -> Typed {
    let e = v.element;
    if e.is_complex() {
        let part = e.part();
        let [re, im] = <[Scalar; 2]>::from(split(body, &v.value.name, part)).map(|value| {
            shuffle_xor(
                body,
                &Typed {
                    value,
                    element: part,
                },
                offset,
            )
        });
        let value = join(body, &re.value.name, &im.value.name, part);
        return Typed { value, element: e };
    }
    let off = body.constant(&offset.to_string(), "i32");
    let width = body.constant(&WARP.to_string(), "i32");
    let shuffle = |body: &mut Body, x: &str, ty: &str| -> String {
        let name = body.fresh("shuffled");
        let valid = body.fresh("valid");
        body.line(format!(
            "{name}, {valid} = gpu.shuffle xor {x}, {}, {} : {ty}",
            off.name, width.name
        ));
        name
    };
    let bits = e.bits;
    if bits == 32 {
        let value = Scalar::new(shuffle(body, &v.value.name, e.mlir), e.mlir);
        return Typed { value, element: e };
    }
    let int = format!("i{bits}");
    let as_int = if e.class == Class::Float {
        body.op(
            "bits",
            &int,
            format!("arith.bitcast {} : {} to {int}", v.value.name, e.mlir),
        )
        .name
    } else {
        v.value.name.clone()
    };
    let result = match bits {
        64 => {
            let lo = body.op("lo", "i32", format!("arith.trunci {as_int} : i64 to i32"));
            let c32 = body.constant("32", "i64");
            let high = body.op(
                "hi",
                "i64",
                format!("arith.shrui {as_int}, {} : i64", c32.name),
            );
            let hi = body.op(
                "hi",
                "i32",
                format!("arith.trunci {} : i64 to i32", high.name),
            );
            let lo = shuffle(body, &lo.name, "i32");
            let hi = shuffle(body, &hi.name, "i32");
            let lo = body.op("lo", "i64", format!("arith.extui {lo} : i32 to i64"));
            let hi = body.op("hi", "i64", format!("arith.extui {hi} : i32 to i64"));
            let hi = body.op(
                "hi",
                "i64",
                format!("arith.shli {}, {} : i64", hi.name, c32.name),
            );
            body.op(
                "joined",
                "i64",
                format!("arith.ori {}, {} : i64", hi.name, lo.name),
            )
            .name
        }
        _ => {
            let wide = body.op(
                "wide",
                "i32",
                format!("arith.extui {as_int} : {int} to i32"),
            );
            let s = shuffle(body, &wide.name, "i32");
            body.op("narrow", &int, format!("arith.trunci {s} : i32 to {int}"))
                .name
        }
    };
    let value = if e.class == Class::Float {
        body.op(
            "v",
            e.mlir,
            format!("arith.bitcast {result} : {int} to {}", e.mlir),
        )
    } else {
        Scalar::new(result, e.mlir)
    };
    Typed { value, element: e }
}

/// Step 3: the outputs of the heroes' shape stored by the first thread of each group, at its
/// write map's element (the heroes' results `finals` are given to the elemental emitter).
fn write_outputs(
    e: &mut Emitter,
    c: usize,
    reduction: &ReductionPlan,
    (heroes, finals): (&[Hero], &[Vec<Typed>]),
    outputs: &[ArrayBuffer],
    group: usize,
    write: &Index,
) -> Result<(), HloError> {
    let index = open_loop(e, &write.map, &[]).index;
    let of_group = reduction
        .outputs
        .iter()
        .zip(outputs)
        .zip(&reduction.output_groups)
        .filter(|(_, g)| **g == group);
    for ((source, buffer), _) in of_group {
        let value = match *source {
            OutputSource::Side(_) | OutputSource::Normalized(_) => continue,
            OutputSource::Epilogue(i) => e.value(c, i, write)?,
            OutputSource::Leaf { hero, leaf } => heroes
                .iter()
                .zip(finals)
                .find(|(h, _)| h.instr == hero)
                .and_then(|(_, v)| v.get(leaf).cloned())
                .ok_or_else(|| {
                    HloError::Usage(format!("output leaf {leaf} of a hero is missing"))
                })?,
        };
        buffer.store(&mut e.body, &value.value.name, &index);
    }
    close_loop(e, &[], &[]);
    Ok(())
}

/// Gives hero `h`'s results `values` to the elemental emitter: as the hero's value, or as the
/// values of the `get-tuple-element`s that take a variadic hero apart.
fn give_hero(e: &mut Emitter, module: &Module, c: usize, h: &Hero, values: &[Typed]) {
    if let [single] = values {
        e.give(c, h.instr, single.clone());
    }
    let comp = &module.computations[c];
    for (k, i) in comp.instructions.iter().enumerate() {
        if i.opcode == Opcode::GetTupleElement
            && i.operands.first() == Some(&h.instr)
            && let Some(v) = i
                .int("index")
                .and_then(|leaf| usize::try_from(leaf).ok())
                .and_then(|leaf| values.get(leaf))
        {
            e.give(c, k, v.clone());
        }
    }
}

/// A hero's result from its group's partial result: the partial values when the initial values
/// are identities, else the reducer applied once to the initial values and the partial values
/// (the initial values alone when no element was met).
fn final_values(
    e: &mut Emitter,
    instr: &Instruction,
    h: &Hero,
    init: &Partial,
    acc: &Partial,
    at: &Index,
) -> Result<Vec<Typed>, HloError> {
    let Some(met) = &acc.met else {
        return Ok(acc.values.clone());
    };
    let args = init.values.iter().chain(&acc.values).cloned().collect();
    let combined = e.apply_all(instr, &h.reducer, args, at)?;
    Ok(combined
        .iter()
        .zip(&init.values)
        .map(|(c, i)| select(&mut e.body, met, c, i))
        .collect())
}
