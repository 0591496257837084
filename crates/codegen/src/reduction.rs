//! The reduction emitter (`xla_indexing_hlo::gpu::reduction` plans it): a kernel in which the
//! threads of a row's group, or of a column tile, reduce together.
//!
//! 1. Every thread folds the elements its read map gives it into its accumulators (one per
//!    input of each hero) in an `xla_indexing.loop` over the map, the heroes' inputs computed
//!    by the elemental emitter at each element.
//! 2. The partial results meet: a row's group through a `gpu.shuffle xor` tree (and, when the
//!    group spans several warps, each warp's result through shared memory and a second tree);
//!    a column tile through a shared `32 × 33` tile read transposed, so that warp `y` holds the
//!    32 partial results of column `y`, and a shuffle tree.
//! 3. The first thread of each group computes the epilogue at the element its write map gives
//!    it, with the heroes' values given to the elemental emitter, and stores every output.
//!
//! Shuffles and barriers are at the top of the kernel's body, run by every thread (threads with
//! no element keep the reducer's initial values), as the hardware needs. Values narrower than
//! 32 bits are shuffled as `i32`, 64-bit ones as two `i32` halves.

use xla_indexing_core::{Expr, IndexingMap};
use xla_indexing_hlo::{
    HloError, Module,
    gpu::{
        KernelPlan, LaunchDimensions,
        reduction::{COLUMN_TILE, OutputSource, ReductionKind, ReductionPlan, WARP, id_vars},
    },
};

use super::CodegenOptions;
use super::body::{Body, Scalar};
use super::elemental::{Emitter, Frame, Index};
use super::kernel::{Signature, close_loop, function_header, open_loop, signature, thread_ids};
use super::scalar::Typed;
use super::types::{Class, Element};

/// One hero: the reduce, its inputs and initial values, its reducer.
struct Hero {
    instr: usize,
    inputs: Vec<usize>,
    inits: Vec<usize>,
    reducer: String,
    elements: Vec<Element>,
}

/// The accumulators of every hero, in order: per hero one value per input.
type Accumulators = Vec<Vec<Typed>>;

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
        .map(|&h| hero(module, c, h))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| kernel.error(format!("cannot be lowered: {e}")))?;
    let Signature { params, outputs } = signature(module, plan)?;
    let shared = shared_buffers(reduction, &heroes);
    let mut text = function_header(
        symbol,
        &params,
        &outputs,
        &shared,
        &plan.launch,
        &reduction.launch_map,
    );
    let mut body = Body::at_depth(3);
    let ids = thread_ids(&mut body);
    let frame = Frame {
        dims: ids,
        syms: Vec::new(),
    };
    let mut e = Emitter::new(module, body, frame, params, options.simplify);
    let write = Index {
        map: reduction.write_map.clone(),
        rts: Vec::new(),
    };
    let inits = initial_values(&mut e, c, &heroes, &write)?;
    let partial = read_loop(&mut e, module, c, &heroes, &inits, &reduction.read_map)?;
    let reduced = combine(
        &mut e, module, c, reduction, &heroes, &inits, partial, &shared,
    )?;
    write_outputs(
        &mut e, module, c, reduction, &heroes, &reduced, &outputs, &write,
    )?;
    e.body.line("gpu.return");
    text.push_str(&e.body.into_text());
    text.push_str("    }\n");
    Ok(text)
}

/// The hero `h` of computation `c`.
fn hero(module: &Module, c: usize, h: usize) -> Result<Hero, String> {
    let comp = &module.computations[c];
    let instr = &comp.instructions[h];
    let n = instr.operands.len() / 2;
    let [reducer] = instr.called("to_apply") else {
        return Err(format!("{} has no to_apply", instr.name));
    };
    let elements = instr
        .shape
        .leaves()
        .iter()
        .map(|s| Element::of(&s.element))
        .collect::<Result<Vec<_>, _>>()?;
    if elements.len() != n || n == 0 {
        return Err(format!(
            "{} has {} results for {n} inputs",
            instr.name,
            elements.len()
        ));
    }
    Ok(Hero {
        instr: h,
        inputs: instr.operands[..n].to_vec(),
        inits: instr.operands[n..].to_vec(),
        reducer: reducer.clone(),
        elements,
    })
}

/// The shared buffers the partial results meet in, `(SSA name, memref type)`, one per
/// accumulator: a slot per warp of the block when a row's group spans several warps, a
/// `32 × 33` tile (padded against bank conflicts) for a column reduction.
fn shared_buffers(reduction: &ReductionPlan, heroes: &[Hero]) -> Vec<(String, String)> {
    let shape = match reduction.kind {
        ReductionKind::Row { group, .. } if group > WARP => format!("{}", reduction.warps()),
        ReductionKind::Row { .. } => return Vec::new(),
        ReductionKind::Column { .. } => format!("{COLUMN_TILE}x{}", COLUMN_TILE + 1),
    };
    heroes
        .iter()
        .flat_map(|h| &h.elements)
        .enumerate()
        .map(|(k, e)| {
            (
                format!("%shared{k}"),
                format!("memref<{shape}x{}, #gpu.address_space<workgroup>>", e.mlir),
            )
        })
        .collect()
}

/// The heroes' initial values, computed once at the top.
fn initial_values(
    e: &mut Emitter,
    c: usize,
    heroes: &[Hero],
    at: &Index,
) -> Result<Accumulators, HloError> {
    let scalar = Index {
        map: at.map.with_results(Vec::new()),
        rts: Vec::new(),
    };
    heroes
        .iter()
        .map(|h| h.inits.iter().map(|&i| e.value(c, i, &scalar)).collect())
        .collect()
}

/// Step 1: the loop over the read map folding each thread's elements into its accumulators.
fn read_loop(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    heroes: &[Hero],
    inits: &Accumulators,
    read_map: &IndexingMap,
) -> Result<Accumulators, HloError> {
    let syms: Vec<String> = ["chunk", "unroll"]
        .iter()
        .map(|s| e.body.fresh(s))
        .collect();
    let results: Vec<String> = read_map
        .results()
        .iter()
        .map(|_| e.body.fresh("i"))
        .collect();
    let flat: Vec<&Typed> = inits.iter().flatten().collect();
    let carried: Vec<String> = flat.iter().map(|_| e.body.fresh("acc")).collect();
    let name = e.body.fresh("partial");
    let count = flat.len();
    let types: Vec<&str> = flat.iter().map(|t| t.element.mlir).collect();
    let iter_args: Vec<String> = carried
        .iter()
        .zip(&flat)
        .map(|(a, init)| format!("{a} = {}", init.value.name))
        .collect();
    let result = if count == 1 {
        name.clone()
    } else {
        format!("{name}:{count}")
    };
    e.body.open(format!(
        "{result} = xla_indexing.loop ({})[{}] -> ({}) in #xla_indexing.map<\"{read_map}\"> iter_args({}) -> ({}) {{",
        e.frame.dims.join(", "),
        syms.join(", "),
        results.join(", "),
        iter_args.join(", "),
        types.join(", ")
    ));
    e.frame.syms = syms;
    e.enter_scope();
    let at = Index {
        map: read_map.clone(),
        rts: Vec::new(),
    };
    let mut carried_values = carried.iter().zip(&flat).map(|(a, init)| Typed {
        value: Scalar::new(a.clone(), init.element.mlir),
        element: init.element,
    });
    let mut next = Vec::new();
    for h in heroes {
        let mut args: Vec<Typed> = carried_values.by_ref().take(h.inputs.len()).collect();
        for &input in &h.inputs {
            args.push(e.value(c, input, &at)?);
        }
        let instr = &module.computations[c].instructions[h.instr];
        next.extend(e.apply_all(instr, &h.reducer, args, &at)?);
    }
    e.leave_scope();
    e.frame.syms.clear();
    let names: Vec<&str> = next.iter().map(|t| t.value.name.as_str()).collect();
    e.body.line(format!(
        "xla_indexing.yield {} : {}",
        names.join(", "),
        types.join(", ")
    ));
    e.body.close("}", false);
    let mut k = 0;
    Ok(heroes
        .iter()
        .map(|h| {
            h.elements
                .iter()
                .map(|&element| {
                    let value = if count == 1 {
                        name.clone()
                    } else {
                        format!("{name}#{k}")
                    };
                    k += 1;
                    Typed {
                        value: Scalar::new(value, element.mlir),
                        element,
                    }
                })
                .collect()
        })
        .collect())
}

/// Step 2: the partial results of a row's group or a column tile combined; the first thread
/// of each group holds the result.
#[allow(clippy::too_many_arguments)]
fn combine(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    reduction: &ReductionPlan,
    heroes: &[Hero],
    inits: &Accumulators,
    partial: Accumulators,
    shared: &[(String, String)],
) -> Result<Accumulators, HloError> {
    let at = Index {
        map: reduction.write_map.with_results(Vec::new()),
        rts: Vec::new(),
    };
    let tree = |e: &mut Emitter, values: Accumulators, width: u64| {
        shuffle_tree(e, module, c, heroes, values, width, &at)
    };
    match reduction.kind {
        ReductionKind::Row { group, .. } if group <= WARP => tree(e, partial, group),
        ReductionKind::Row { group, .. } => {
            let warped = tree(e, partial, WARP)?;
            // Lane 0 of each warp keeps its warp's result in the warp's slot.
            let th_x = Expr::dim(0);
            let warp = WARP as i64;
            let lane = id_value(e, &reduction.launch, th_x.modulo(warp).map_err(overflow)?)?;
            let slot = id_value(
                e,
                &reduction.launch,
                th_x.floor_div(warp).map_err(overflow)?,
            )?;
            let zero = e.body.index(0);
            let first = e.body.op(
                "lane0",
                "i1",
                format!("arith.cmpi eq, {lane}, {} : index", zero.name),
            );
            e.body.open(format!("scf.if {} {{", first.name));
            for (v, (buffer, ty)) in warped.iter().flatten().zip(shared) {
                e.body.line(format!(
                    "memref.store {}, {buffer}[{slot}] : {ty}",
                    v.value.name
                ));
            }
            e.body.close("}", false);
            e.body.line("gpu.barrier");
            // Each warp reads its group's slots, one per lane.
            let warps = group / WARP;
            let source = th_x
                .floor_div(group as i64)
                .and_then(|g| g.checked_scale(warps as i64))
                .and_then(|g| g.checked_add(&th_x.modulo(warp)?))
                .map_err(overflow)?;
            let source = id_value(e, &reduction.launch, source)?;
            let bound = e.body.index(warps as i64);
            let inside = e.body.op(
                "in",
                "i1",
                format!("arith.cmpi ult, {lane}, {} : index", bound.name),
            );
            let slots = load_if(e, &inside.name, &source_list(&source), inits, shared);
            tree(e, slots, warps)
        }
        ReductionKind::Column { .. } => {
            let ids = e.frame.dims.clone();
            for (v, (buffer, ty)) in partial.iter().flatten().zip(shared) {
                e.body.line(format!(
                    "memref.store {}, {buffer}[{}, {}] : {ty}",
                    v.value.name, ids[1], ids[0]
                ));
            }
            e.body.line("gpu.barrier");
            let mut k = 0;
            let transposed = inits
                .iter()
                .map(|h| {
                    h.iter()
                        .map(|init| {
                            let (buffer, ty) = &shared[k];
                            k += 1;
                            let v = e.body.op(
                                "column",
                                init.element.mlir,
                                format!("memref.load {buffer}[{}, {}] : {ty}", ids[0], ids[1]),
                            );
                            Typed {
                                value: v,
                                element: init.element,
                            }
                        })
                        .collect()
                })
                .collect();
            tree(e, transposed, WARP)
        }
    }
}

/// An overflow in the emitter's own index arithmetic.
fn overflow(err: xla_indexing_core::ArithError) -> HloError {
    HloError::Usage(format!("thread ids: {err}"))
}

/// `[name]`, the index list of a one-dimensional shared buffer.
fn source_list(name: &str) -> Vec<String> {
    vec![name.to_string()]
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

/// Per accumulator, the shared slot at `at` where `condition` holds, else its initial value.
fn load_if(
    e: &mut Emitter,
    condition: &str,
    at: &[String],
    inits: &Accumulators,
    shared: &[(String, String)],
) -> Accumulators {
    let mut k = 0;
    inits
        .iter()
        .map(|h| {
            h.iter()
                .map(|init| {
                    let (buffer, ty) = &shared[k];
                    k += 1;
                    let t = init.element.mlir;
                    let name = e.body.fresh("slot");
                    e.body
                        .open(format!("{name} = scf.if {condition} -> ({t}) {{"));
                    let v = e.body.op(
                        "v",
                        t,
                        format!("memref.load {buffer}[{}] : {ty}", at.join(", ")),
                    );
                    e.body.line(format!("scf.yield {} : {t}", v.name));
                    e.body.close("} else {", true);
                    e.body.line(format!("scf.yield {} : {t}", init.value.name));
                    e.body.close("}", false);
                    Typed {
                        value: Scalar::new(name, t),
                        element: init.element,
                    }
                })
                .collect()
        })
        .collect()
}

/// The accumulators combined across `width` neighbouring lanes (a power of two, at most a
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
            let mut args = acc.clone();
            for v in acc {
                args.push(shuffle_xor(&mut e.body, v, offset));
            }
            let instr = &module.computations[c].instructions[h.instr];
            next.push(e.apply_all(instr, &h.reducer, args, at)?);
        }
        values = next;
        offset /= 2;
    }
    Ok(values)
}

/// The value of `v` at lane `lane xor offset` of the warp (`gpu.shuffle xor`): 32-bit values
/// as they are, narrower ones widened to `i32`, 64-bit ones in two `i32` halves.
fn shuffle_xor(body: &mut Body, v: &Typed, offset: u64) -> Typed {
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
    let e = v.element;
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

/// Step 3: the outputs stored by the first thread of each group, at its write map's element.
#[allow(clippy::too_many_arguments)]
fn write_outputs(
    e: &mut Emitter,
    module: &Module,
    c: usize,
    reduction: &ReductionPlan,
    heroes: &[Hero],
    reduced: &Accumulators,
    outputs: &[(String, String)],
    write: &Index,
) -> Result<(), HloError> {
    for (h, values) in heroes.iter().zip(reduced) {
        if let [single] = values.as_slice() {
            e.give(c, h.instr, single.clone());
        }
    }
    for (i, v) in gte_of_heroes(module, c, heroes, reduced) {
        e.give(c, i, v);
    }
    let index = open_loop(e, &write.map);
    for (source, (name, ty)) in reduction.outputs.iter().zip(outputs) {
        let value = match *source {
            OutputSource::Epilogue(i) => e.value(c, i, write)?,
            OutputSource::Leaf { hero, leaf } => heroes
                .iter()
                .zip(reduced)
                .find(|(h, _)| h.instr == hero)
                .and_then(|(_, v)| v.get(leaf).cloned())
                .ok_or_else(|| {
                    HloError::Usage(format!("output leaf {leaf} of a hero is missing"))
                })?,
        };
        e.body.line(format!(
            "memref.store {}, {name}[{}] : {ty}",
            value.value.name,
            index.join(", ")
        ));
    }
    close_loop(e);
    Ok(())
}

/// The `get-tuple-element`s of variadic heroes in computation `c`, with their values.
fn gte_of_heroes(
    module: &Module,
    c: usize,
    heroes: &[Hero],
    reduced: &Accumulators,
) -> Vec<(usize, Typed)> {
    let comp = &module.computations[c];
    comp.instructions
        .iter()
        .enumerate()
        .filter(|(_, i)| i.opcode == "get-tuple-element")
        .filter_map(|(k, i)| {
            let (_, values) = heroes
                .iter()
                .zip(reduced)
                .find(|(h, _)| i.operands.first() == Some(&h.instr))?;
            let leaf = usize::try_from(i.int("index")?).ok()?;
            Some((k, values.get(leaf)?.clone()))
        })
        .collect()
}
