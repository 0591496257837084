//! The entry point of the indexing analysis: what to analyse (every fused computation, one
//! computation's root, or one instruction), in which direction, and the report.

use crate::direction::Direction;
use crate::error::HloError;
use crate::fusion::{Composer, MapSet};
use crate::module::{Computation, Module};
use crate::ops::{self, OpContext};
use crate::report::{ComputationReport, OperandReport, OutputReport, Report, Unsupported};
use crate::shape::ArrayShape;
use crate::utilization::utilization;

/// What [`analyze_module`] analyses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Analyse this computation's root (with `instruction`: look the instruction up in it).
    pub computation: Option<String>,
    /// Analyse this instruction alone: its operands are the targets.
    pub instruction: Option<String>,
    pub direction: Direction,
    /// Count the elements each map set reaches.
    pub utilization: bool,
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
    let mut computations = Vec::new();
    let mut composer = Composer::new(module);
    if let Some(name) = &options.instruction {
        computations.push(instruction_report(module, &mut composer, name, options)?);
    } else {
        let targets = targets(module, options)?;
        for (done, c) in targets.iter().enumerate() {
            computations.push(computation_report(module, &mut composer, *c, options)?);
            progress(done + 1, targets.len());
        }
    }
    Ok(Report {
        computations,
        unsupported: unsupported(module),
    })
}

/// Every instruction of the module whose op has no indexing.
fn unsupported(module: &Module) -> Vec<Unsupported> {
    module
        .computations
        .iter()
        .flat_map(|c| {
            c.instructions
                .iter()
                .filter(|i| ops::instruction_kind(i).is_none())
                .map(|i| Unsupported {
                    instruction: i.name.clone(),
                    opcode: i.opcode.clone(),
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
        for i in c.instructions.iter().filter(|i| i.opcode == "fusion") {
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

/// `leaf` is set for a leaf of a tuple-shaped target.
fn report_operand(
    operand: usize,
    leaf: Option<usize>,
    shape: &ArrayShape,
    maps: MapSet,
    options: &Options,
) -> OperandReport {
    let utilization = options.utilization.then(|| {
        let complete: Vec<_> = maps.accesses.iter().map(|a| a.map.clone()).collect();
        utilization(&complete, &shape.dims).map(|mut u| {
            if maps.undefined.is_some() {
                u.read = None;
            }
            u
        })
    });
    OperandReport {
        operand,
        leaf,
        shape: shape.clone(),
        maps,
        utilization: utilization.flatten(),
    }
}

fn computation_report(
    module: &Module,
    composer: &mut Composer<'_>,
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
                    operands.push(report_operand(
                        p.parameter,
                        tuple.then_some(p.leaf),
                        leaves[p.leaf],
                        p.maps,
                        options,
                    ));
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
                        .map(|(k, maps)| report_operand(k, None, root_leaves[k], maps, options))
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
    })
}

/// The instruction of `parameter(n)` (present: it came from the walk).
fn parameter_instr(comp: &Computation, n: usize) -> usize {
    comp.parameter(n).unwrap_or(comp.root)
}

fn instruction_report(
    module: &Module,
    composer: &mut Composer<'_>,
    name: &str,
    options: &Options,
) -> Result<ComputationReport, HloError> {
    let mut found = module.find_instruction(name);
    if let Some(c) = &options.computation {
        let ci = module
            .computation(c)
            .ok_or_else(|| HloError::Usage(format!("no computation named '{c}'")))?;
        found.retain(|(fc, _)| *fc == ci);
    }
    let (c, i) = match found.as_slice() {
        [one] => *one,
        [] => return Err(HloError::Usage(format!("no instruction named '{name}'"))),
        _ => {
            return Err(HloError::Usage(format!(
                "'{name}' names instructions in several computations; choose one with --computation"
            )));
        }
    };
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
                    operands.push(report_operand(
                        j,
                        tuple.then_some(l),
                        op_leaves[l],
                        maps,
                        options,
                    ));
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
                        .map(|(k, maps)| report_operand(k, None, leaves[k], maps, options))
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
    Ok(ComputationReport {
        name: instr.name.clone(),
        direction: options.direction,
        outputs,
    })
}
