//! The entry point of the indexing analysis: what to analyse (every fused computation, one
//! computation's root, or one instruction), in which direction, and the report.

use crate::opcode::Opcode;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use crate::access::Access;
use crate::direction::Direction;
use crate::error::HloError;
use crate::fusion::{Composer, MapSet};
use crate::known::KnownValues;
use crate::module::{Computation, Module};
use crate::ops::{self, OpContext};
use crate::report::{ComputationReport, OperandReport, OutputReport, Report, Unsupported};
use crate::shape::ArrayShape;
use crate::trip_count::known_trip_count;
use crate::utilization::utilization;

/// What [`analyze_module`] analyses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Analyse this computation's root (with `instruction`: look the instruction up in it).
    pub computation: Option<String>,
    /// Analyse this instruction alone: its operands are the targets.
    pub instruction: Option<String>,
    /// Which way the maps go: output to input (the default) or input to output.
    pub direction: Direction,
    /// Count the elements each map set reaches.
    pub utilization: bool,
    /// Keep the runtime variables whose values the module fixes (by default they are folded
    /// into the maps: see [`crate::known`]).
    pub keep_known_runtime_vars: bool,
    /// Give maps between physical indices: each array's dimensions in the order its layout
    /// stores them, major to minor (XLA's `use_physical_layout`).
    pub physical: bool,
    /// How many threads analyse the computations: `None` for one per core. The report is the
    /// same whatever the number.
    pub threads: Option<NonZeroUsize>,
}

/// Analyses a module. By default every fused computation (named by a `fusion`'s `calls=`) is
/// analysed; a module without fusions has its entry computation analysed instead.
pub fn analyze_module(module: &Module, options: &Options) -> Result<Report, HloError> {
    analyze_module_with_progress(module, options, &mut |_, _| {})
}

/// [`analyze_module`], calling `progress(done, total)` after each computation it analyses.
pub fn analyze_module_with_progress(
    module: &Module,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Report, HloError> {
    let known = KnownValues::new(module);
    let (computations, scope) = match &options.instruction {
        Some(name) => {
            let (c, i) = find_instruction(module, name, options)?;
            let report =
                instruction_report(module, &mut Composer::new(module), &known, (c, i), options)?;
            (vec![report], Scope::Instruction(c, i))
        }
        None => {
            let targets = targets(module, options)?;
            let reports = computation_reports(module, &known, &targets, options, progress)?;
            let scope = match options.computation {
                Some(_) => Scope::Computations(module.called_from(targets[0])),
                None => Scope::Module,
            };
            (reports, scope)
        }
    };
    Ok(Report {
        computations,
        unsupported: unsupported(module, &scope),
    })
}

/// What the warnings of a report are about: what was asked for.
enum Scope {
    /// Every instruction of the module (the default analysis).
    Module,
    /// The instructions of the computations marked `true` (`--computation`: it and those it calls).
    Computations(Vec<bool>),
    /// One instruction: `(computation, instruction)` (`--instruction`).
    Instruction(usize, usize),
}

/// Every instruction within `scope` whose op has no indexing (a `while` whose trip count the
/// module proves has maps from its results).
fn unsupported(module: &Module, scope: &Scope) -> Vec<Unsupported> {
    let in_scope = |c: usize, i: usize| match scope {
        Scope::Module => true,
        Scope::Computations(called) => called[c],
        Scope::Instruction(sc, si) => (c, i) == (*sc, *si),
    };
    module
        .computations
        .iter()
        .enumerate()
        .flat_map(|(ci, c)| {
            c.instructions
                .iter()
                .enumerate()
                .filter(move |&(ii, i)| {
                    in_scope(ci, ii)
                        && ops::instruction_kind(i).is_none()
                        && known_trip_count(module, c, i).is_none()
                })
                .map(|(_, i)| Unsupported {
                    instruction: i.name.clone(),
                    opcode: i.opcode,
                    computation: c.name.clone(),
                    line: i.pos.line,
                    column: i.pos.column,
                })
        })
        .collect()
}

/// The computations to analyse without `--instruction`.
fn targets(module: &Module, options: &Options) -> Result<Vec<usize>, HloError> {
    if let Some(name) = &options.computation {
        let c = module
            .computation(name)
            .ok_or_else(|| HloError::Usage(format!("no computation named '{name}'")))?;
        return Ok(vec![c]);
    }
    let mut is_fused = vec![false; module.computations.len()];
    for c in &module.computations {
        for i in c.instructions.iter().filter(|i| i.opcode == Opcode::Fusion) {
            for f in i
                .called("calls")
                .iter()
                .filter_map(|n| module.computation(n))
            {
                is_fused[f] = true;
            }
        }
    }
    let fused: Vec<usize> = (0..is_fused.len()).filter(|&f| is_fused[f]).collect();
    if fused.is_empty() {
        return Ok(vec![module.entry]);
    }
    Ok(fused)
}

/// The stack of an analysis thread: composition walks with a stack of their own, so this is
/// only headroom for the ops' own recursion, as large as a main thread's.
const THREAD_STACK: usize = 8 << 20;

/// The reports of `targets`, in their order: computed by `options.threads` threads, each taking
/// the next target not yet taken (with a composer of its own), and `progress` called as each
/// finishes. An error is the one of the first target in order that fails.
fn computation_reports(
    module: &Module,
    known: &KnownValues<'_>,
    targets: &[usize],
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<ComputationReport>, HloError> {
    let threads = options
        .threads
        .or_else(|| thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
        .min(targets.len());
    if threads <= 1 {
        let mut composer = Composer::new(module);
        let mut reports = Vec::with_capacity(targets.len());
        for (done, &c) in targets.iter().enumerate() {
            reports.push(computation_report(
                module,
                &mut composer,
                known,
                c,
                options,
            )?);
            progress(done + 1, targets.len());
        }
        return Ok(reports);
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<ComputationReport, HloError>>> =
        (0..targets.len()).map(|_| None).collect();
    thread::scope(|scope| -> Result<(), HloError> {
        let (send, receive) = mpsc::channel();
        for _ in 0..threads {
            let (send, next) = (send.clone(), &next);
            thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, move || {
                    let mut composer = Composer::new(module);
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&c) = targets.get(k) else { break };
                        let report = computation_report(module, &mut composer, known, c, options);
                        if send.send((k, report)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| HloError::Usage(format!("cannot start an analysis thread: {e}")))?;
        }
        drop(send);
        for (done, (k, report)) in receive.iter().enumerate() {
            results[k] = Some(report);
            progress(done + 1, targets.len());
        }
        Ok(())
    })?;
    results.into_iter().flatten().collect()
}

/// What a set of maps reaches: operand (or output) `operand`, leaf `leaf` of it when it is a
/// tuple, of array shape `shape`.
struct Target<'a> {
    operand: usize,
    leaf: Option<usize>,
    shape: &'a ArrayShape,
}

/// The report of the maps from an index of `domain` to `target`: runtime variables with known
/// values folded, utilization counted, and then, with `options.physical`, both ends taken to
/// physical indices.
fn report_operand(
    known: &KnownValues<'_>,
    options: &Options,
    domain: &ArrayShape,
    target: Target<'_>,
    maps: MapSet,
) -> OperandReport {
    let Target {
        operand,
        leaf,
        shape,
    } = target;
    let maps = if options.keep_known_runtime_vars {
        maps
    } else {
        fold_known(known, maps)
    };
    let utilization = options.utilization.then(|| {
        let complete: Vec<_> = maps.accesses.iter().map(|a| a.map.clone()).collect();
        utilization(&complete, &shape.dims).map(|mut u| {
            if maps.undefined.is_some() {
                u.read = None;
            }
            u
        })
    });
    let maps = if options.physical {
        physical(maps, domain, shape)
    } else {
        maps
    };
    OperandReport {
        operand,
        leaf,
        shape: shape.clone(),
        maps,
        utilization: utilization.flatten(),
    }
}

/// The maps with the runtime variables whose values are known folded in.
fn fold_known(known: &KnownValues<'_>, maps: MapSet) -> MapSet {
    if maps.accesses.iter().all(|a| a.runtime.is_empty()) {
        return maps;
    }
    let mut out = MapSet {
        accesses: Vec::new(),
        ..maps.clone()
    };
    for access in &maps.accesses {
        out.insert(known.fold(access));
    }
    out
}

/// Maps from logical indices of `domain` to logical indices of `target`, re-expressed from
/// physical to physical indices (dimensions in storage order, major to minor, as XLA's
/// `use_physical_layout` gives them).
fn physical(maps: MapSet, domain: &ArrayShape, target: &ArrayShape) -> MapSet {
    let from = Access::plain(domain.layout_or_default().physical_to_logical(&domain.dims));
    let to = Access::plain(target.layout_or_default().logical_to_physical(&target.dims));
    let mut out = MapSet {
        accesses: Vec::new(),
        ..maps.clone()
    };
    for access in &maps.accesses {
        match from.then(access).and_then(|a| a.then(&to)) {
            Ok(a) => out.insert(a),
            Err(e) => out.mark(format!("no physical map: {e}"), None),
        }
    }
    out
}

fn computation_report(
    module: &Module,
    composer: &mut Composer<'_>,
    known: &KnownValues<'_>,
    c: usize,
    options: &Options,
) -> Result<ComputationReport, HloError> {
    let comp = &module.computations[c];
    let root = &comp.instructions[comp.root];
    let root_leaves = root.shape.leaves();
    let mut outputs = Vec::new();
    match options.direction {
        Direction::OutputToInput => {
            for (k, shape) in root_leaves.iter().enumerate() {
                let mut operands = Vec::new();
                for p in composer.computation_output_to_input(c, k)? {
                    let param = &comp.instructions[parameter_instr(comp, p.parameter)];
                    let leaves = param.shape.leaves();
                    let tuple = param.shape.as_array().is_none();
                    let target = Target {
                        operand: p.parameter,
                        leaf: tuple.then_some(p.leaf),
                        shape: leaves[p.leaf],
                    };
                    operands.push(report_operand(known, options, shape, target, p.maps));
                }
                outputs.push(OutputReport {
                    output: k,
                    leaf: None,
                    shape: (*shape).clone(),
                    operands,
                });
            }
        }
        Direction::InputToOutput => {
            let mut params: Vec<(usize, usize)> = comp
                .instructions
                .iter()
                .enumerate()
                .filter_map(|(i, instr)| instr.parameter_number.map(|n| (n, i)))
                .collect();
            params.sort_unstable();
            for (n, i) in params {
                let param = &comp.instructions[i];
                let tuple = param.shape.as_array().is_none();
                for (l, shape) in param.shape.leaves().into_iter().enumerate() {
                    let operands = composer
                        .computation_input_to_output(c, n, l)?
                        .into_iter()
                        .map(|(k, maps)| {
                            let target = Target {
                                operand: k,
                                leaf: None,
                                shape: root_leaves[k],
                            };
                            report_operand(known, options, shape, target, maps)
                        })
                        .collect();
                    outputs.push(OutputReport {
                        output: n,
                        leaf: tuple.then_some(l),
                        shape: shape.clone(),
                        operands,
                    });
                }
            }
        }
    }
    Ok(ComputationReport {
        name: comp.name.clone(),
        direction: options.direction,
        outputs,
        note: None,
    })
}

/// The instruction of `parameter(n)` (present: it came from the walk).
fn parameter_instr(comp: &Computation, n: usize) -> usize {
    comp.parameter(n).unwrap_or(comp.root)
}

/// The `(computation, instruction)` named `name`, within `options.computation` when given.
fn find_instruction(
    module: &Module,
    name: &str,
    options: &Options,
) -> Result<(usize, usize), HloError> {
    let mut found = module.find_instruction(name);
    if let Some(c) = &options.computation {
        let ci = module
            .computation(c)
            .ok_or_else(|| HloError::Usage(format!("no computation named '{c}'")))?;
        found.retain(|(fc, _)| *fc == ci);
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(HloError::Usage(format!("no instruction named '{name}'"))),
        _ => Err(HloError::Usage(format!(
            "'{name}' names instructions in several computations; choose one with --computation"
        ))),
    }
}

/// The maps of instruction `i` of computation `c` (its operands are the targets).
fn instruction_report(
    module: &Module,
    composer: &mut Composer<'_>,
    known: &KnownValues<'_>,
    (c, i): (usize, usize),
    options: &Options,
) -> Result<ComputationReport, HloError> {
    let comp = &module.computations[c];
    let instr = &comp.instructions[i];
    let cx = OpContext::new(module, comp, instr);
    let mut outputs = Vec::new();
    let leaves = instr.shape.leaves();
    match options.direction {
        Direction::OutputToInput => {
            for (k, shape) in leaves.iter().enumerate() {
                let mut operands = Vec::new();
                for (j, l, maps) in composer.instruction_output_to_input(comp, i, k)? {
                    let op = cx.operand(j)?;
                    let op_leaves = op.shape.leaves();
                    let tuple = op.shape.as_array().is_none();
                    let target = Target {
                        operand: j,
                        leaf: tuple.then_some(l),
                        shape: op_leaves[l],
                    };
                    operands.push(report_operand(known, options, shape, target, maps));
                }
                operands.sort_by_key(|o| (o.operand, o.leaf));
                outputs.push(OutputReport {
                    output: k,
                    leaf: None,
                    shape: (*shape).clone(),
                    operands,
                });
            }
        }
        Direction::InputToOutput => {
            for j in 0..instr.operands.len() {
                let op = cx.operand(j)?;
                let tuple = op.shape.as_array().is_none();
                for (l, shape) in op.shape.leaves().into_iter().enumerate() {
                    let operands = composer
                        .instruction_input_to_output(comp, i, j, l)?
                        .into_iter()
                        .map(|(k, maps)| {
                            let target = Target {
                                operand: k,
                                leaf: None,
                                shape: leaves[k],
                            };
                            report_operand(known, options, shape, target, maps)
                        })
                        .collect();
                    outputs.push(OutputReport {
                        output: j,
                        leaf: tuple.then_some(l),
                        shape: shape.clone(),
                        operands,
                    });
                }
            }
        }
    }
    let note = known_trip_count(module, comp, instr).map(|trips| format!("runs {trips}"));
    Ok(ComputationReport {
        name: instr.name.clone(),
        direction: options.direction,
        outputs,
        note,
    })
}
