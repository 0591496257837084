//! `xla-indexing-annotate`: attaches to every StableHLO-like op (the generic form JAX prints,
//! also inside `xla_indexing.fusion`) the output-to-input indexing maps of its operands,
//!
//! ```mlir
//! xla_indexing.operand_maps = [[#xla_indexing.map<"...">, ...], ...]
//! ```
//!
//! one list per operand (the maps by which it is read, from every result), the very maps the HLO
//! analysis of `xla-indexing-hlo` gives the same op (see [`xla_indexing_translate::stablehlo`]). With
//! `emit-remarks` each map is also a remark at the op, `operand N: MAP`, for `expected-remark`
//! tests. An op the analysis does not know, or cannot analyse, is skipped with a remark saying
//! why. Ops inside the regions of StableHLO ops (the scalar bodies of `reduce`) are not
//! annotated.

use melior::{
    Context,
    ir::{
        Attribute, OperationRef,
        attribute::ArrayAttribute,
        operation::{OperationLike, WalkOrder},
    },
};
use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::{Options, analyze_module, parse_module};
use xla_indexing_mlir::handles::{collect_ops, with_context};
use xla_indexing_mlir::ir::{op_name, parent_op, set_attribute};

use super::PassFailure;
use super::error::LowerErrorKind;
use xla_indexing_mlir::pass_entry;
use xla_indexing_mlir::pass_host::{PassOption, PassOptions, PassSpec};
use xla_indexing_mlir::{ir::emit_remark, map_attribute};
use xla_indexing_translate::stablehlo::{is_stablehlo, translate};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-annotate";

/// The attribute the pass attaches.
pub const ATTRIBUTE: &str = "xla_indexing.operand_maps";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-annotate",
    c"XlaIndexingAnnotate",
    c"Attach the output-to-input indexing maps of their operands to StableHLO-like ops (xla_indexing.operand_maps)",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 1] = [PassOption::flag(
    c"emit-remarks",
    c"Also report every operand map as a remark at its op",
    false,
)];

/// The pass's options (in the order of [`OPTIONS`]).
struct AnnotateOptions {
    emit_remarks: bool,
}

impl PassOptions for AnnotateOptions {
    fn decode(values: &[i64]) -> Result<AnnotateOptions, PassFailure> {
        Ok(AnnotateOptions {
            emit_remarks: values.first().is_some_and(|&v| v != 0),
        })
    }
}

fn run(operation: OperationRef, options: &AnnotateOptions) -> Result<(), PassFailure> {
    let emit_remarks = options.emit_remarks;
    let ops = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        is_stablehlo(&op_name(op)) && !inside_stablehlo(op)
    });
    // SAFETY: the context is used inside the closure only; the pass changes attributes only,
    // so every op collected stays alive.
    unsafe {
        with_context(&operation, |context| {
            for op in ops {
                annotate(context, &op.get(), emit_remarks);
            }
        })
    };
    Ok(())
}

/// Whether `op` is nested in a StableHLO op (a `reduce` body, say).
fn inside_stablehlo(op: &OperationRef) -> bool {
    let mut parent = parent_op(op);
    while let Some(p) = parent {
        if is_stablehlo(&op_name(&p)) {
            return true;
        }
        parent = parent_op(&p);
    }
    false
}

/// The maps of every operand of `op`, by the HLO analysis, or why there are none.
pub fn operand_maps(op: &OperationRef) -> Result<Vec<Vec<IndexingMap>>, LowerErrorKind> {
    if op.operand_count() == 0 {
        return Ok(Vec::new());
    }
    let text = translate(op)?;
    let module = parse_module(&text).map_err(LowerErrorKind::OpHlo)?;
    // The module has no fusion, so its entry computation, the op, is analysed: operands are
    // its parameters.
    let report = analyze_module(&module, &Options::default()).map_err(LowerErrorKind::Hlo)?;
    let mut maps: Vec<Vec<IndexingMap>> = vec![Vec::new(); op.operand_count()];
    for computation in &report.computations {
        for output in &computation.outputs {
            for operand in &output.operands {
                if let Some(reason) = &operand.maps.undefined {
                    return Err(LowerErrorKind::Undefined(reason.clone()));
                }
                let slot = maps.get_mut(operand.operand).ok_or_else(|| {
                    LowerErrorKind::Invalid(format!(
                        "the analysis names operand {}",
                        operand.operand
                    ))
                })?;
                for access in &operand.maps.accesses {
                    if !slot.contains(&access.map) {
                        slot.push(access.map.clone());
                    }
                }
            }
        }
    }
    Ok(maps)
}

fn annotate(context: &Context, op: &OperationRef, emit_remarks: bool) {
    let name = op_name(op);
    let maps = match operand_maps(op) {
        Ok(maps) => maps,
        Err(reason) => {
            emit_remark(
                op.location(),
                &format!("{ARGUMENT}: skipped '{name}': {reason}"),
            );
            return;
        }
    };
    let mut lists: Vec<Attribute> = Vec::with_capacity(maps.len());
    for (i, operand) in maps.iter().enumerate() {
        let mut attributes = Vec::with_capacity(operand.len());
        for map in operand {
            match map_attribute(context, map) {
                Ok(a) => attributes.push(a),
                Err(e) => {
                    emit_remark(op.location(), &format!("{ARGUMENT}: skipped '{name}': {e}"));
                    return;
                }
            }
            if emit_remarks {
                emit_remark(op.location(), &format!("operand {i}: {map}"));
            }
        }
        lists.push(ArrayAttribute::new(context, &attributes).into());
    }
    let value: Attribute = ArrayAttribute::new(context, &lists).into();
    set_attribute(op, ATTRIBUTE, value);
}
