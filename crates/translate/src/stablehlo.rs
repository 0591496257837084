//! StableHLO-like ops (the generic form that JAX prints, read with
//! `--allow-unregistered-dialect`) as HLO text, so that the HLO crate can analyse them and
//! generate code for them. [`translate`] makes of one op a module whose entry computation has a
//! parameter per operand and the op as its root (the annotate pass analyses it); [`HloWriter`]
//! makes of a region of such ops (the body of an `xla_indexing.fusion`) a computation with an
//! instruction per op (the lower-fusion pass generates its kernel). Both write an op's
//! instruction the same way, through the op table (`op_table.rs`).

use std::{collections::HashMap, fmt::Write as _};

use melior::ir::{
    BlockLike, Location, OperationRef, RegionLike, Type, ValueLike, operation::OperationLike,
};

use crate::op_table::{self, ToHlo};
pub use crate::op_table::{Skip, hlo_element, hlo_shape};
use xla_indexing_core::names::UniqueNames;
use xla_indexing_mlir::ir::op_name;

/// Whether `name` is a StableHLO op this module translates.
pub fn is_stablehlo(name: &str) -> bool {
    name.starts_with("stablehlo.")
}

/// Translates `op` (a StableHLO op with ranked, static tensor operands and results) into an HLO
/// module whose entry computation has parameter `i` for operand `i` and computes the op. The
/// region of a `reduce` or `reduce_window` is not translated: the op's indexing maps do not
/// depend on it, so the module calls a stand-in `add` reducer ([`HloWriter`] translates the
/// real one).
pub fn translate(op: &OperationRef) -> Result<String, Skip> {
    let uses: Vec<String> = (0..op.operand_count()).map(|i| format!("%p{i}")).collect();
    let instruction = instruction(op, "op", &uses, "%reducer")?;
    let mut text = String::from("HloModule annotate\n\n");
    if instruction.calls {
        text.push_str(
            "%reducer (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  \
             %b = f32[] parameter(1)\n  ROOT %r = f32[] add(%a, %b)\n}\n\n",
        );
    }
    let params: Vec<String> = instruction
        .operands
        .iter()
        .enumerate()
        .map(|(i, s)| format!("p{i}: {s}"))
        .collect();
    let _ = writeln!(
        text,
        "ENTRY %main ({}) -> {} {{",
        params.join(", "),
        instruction.result
    );
    for (i, s) in instruction.operands.iter().enumerate() {
        let _ = writeln!(text, "  %p{i} = {s} parameter({i})");
    }
    for (name, body) in &instruction.prelude {
        let _ = writeln!(text, "  %{name} = {body}");
    }
    let _ = writeln!(text, "  ROOT %op = {}\n}}", instruction.text);
    Ok(text)
}

/// One op as an HLO instruction, as [`instruction`] writes it.
struct HloInstruction {
    /// The HLO shapes of the op's operands.
    operands: Vec<String>,
    /// The HLO shape of its result (a tuple for several results).
    result: String,
    /// Instructions it needs first, as (name, `SHAPE OPCODE(...)...`), in order (a `reshape` that
    /// drops the broadcast dimensions of size 1, say).
    prelude: Vec<(String, String)>,
    /// `SHAPE OPCODE(OPERANDS), ATTRIBUTES`: the instruction after `%NAME = `.
    text: String,
    /// Whether it calls the `to_apply` computation (`reduce`, `reduce_window`).
    calls: bool,
}

/// `op` as the HLO instruction named `name` whose operands are the HLO values `uses` (one per
/// operand of `op`: `%p0`) and which calls `to_apply` (`%reducer`) if it calls a computation.
fn instruction(
    op: &OperationRef,
    name: &str,
    uses: &[String],
    to_apply: &str,
) -> Result<HloInstruction, Skip> {
    let op_name = op
        .name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let short = op_name.strip_prefix("stablehlo.").unwrap_or(&op_name);
    let shape_of = |ty: Type| {
        hlo_shape(ty).ok_or_else(|| {
            Skip::Unsupported(format!(
                "'{op_name}' has a type that is not a static tensor: {ty}"
            ))
        })
    };
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let value = op
            .operand(i)
            .map_err(|e| Skip::Unsupported(e.to_string()))?;
        operands.push(shape_of(value.r#type())?);
    }
    let mut results = Vec::new();
    for i in 0..op.result_count() {
        let value = op.result(i).map_err(|e| Skip::Unsupported(e.to_string()))?;
        results.push(shape_of(value.r#type())?);
    }
    let result = match results.as_slice() {
        [one] => one.clone(),
        many => format!("({})", many.join(", ")),
    };
    if uses.len() != operands.len() {
        return Err(Skip::Unsupported(format!(
            "'{op_name}' has {} operands, but {} HLO values were given",
            operands.len(),
            uses.len()
        )));
    }
    let family = op_table::by_stablehlo(short).ok_or_else(|| Skip::UnknownOp(op_name.clone()))?;
    let mut to = ToHlo {
        op,
        op_name: &op_name,
        name,
        operands: &operands,
        result: &result,
        opcode: family.hlo,
        uses: uses.to_vec(),
        prelude: Vec::new(),
        attributes: String::new(),
    };
    for attribute in family.attributes {
        attribute.to_hlo(&mut to)?;
    }
    if let Some(key) = family.region {
        to.push(key, to_apply);
    }
    let text = format!(
        "{result} {}({}){}",
        to.opcode,
        to.uses.join(", "),
        to.attributes
    );
    let prelude = to.prelude;
    Ok(HloInstruction {
        operands,
        result,
        prelude,
        text,
        calls: family.region.is_some(),
    })
}

/// Why a region has no HLO form: the op, where it is (`"f.hlo":12:3`, or empty when unknown),
/// and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{op}'{}: {reason}", at(location))]
pub struct RegionError {
    /// The op's name.
    pub op: String,
    /// Where it is.
    pub location: String,
    /// Why it has no HLO form.
    pub reason: String,
}

/// ` at LOCATION`, or nothing for an unknown location.
fn at(location: &str) -> String {
    if location.is_empty() {
        String::new()
    } else {
        format!(" at {location}")
    }
}

impl RegionError {
    fn new(op: &OperationRef, reason: impl Into<String>) -> RegionError {
        RegionError {
            op: op_name(op),
            location: location_text(op.location()),
            reason: reason.into(),
        }
    }

    /// Why `op` has no HLO form, without the op's name where the reason starts with it.
    fn skipped(op: &OperationRef, skip: Skip) -> RegionError {
        let mut error = RegionError::new(op, skip.to_string());
        if let Some(rest) = error.reason.strip_prefix(&format!("'{}' ", error.op)) {
            error.reason = rest.to_owned();
        }
        error
    }
}

/// The text of a location without `loc(...)`, or empty for an unknown one.
pub fn location_text(location: Location) -> String {
    let text = location.to_string();
    let inner = text
        .strip_prefix("loc(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(&text);
    if inner == "unknown" {
        String::new()
    } else {
        inner.to_owned()
    }
}

/// Writes regions of StableHLO-like ops as the computations of an HLO module, for code
/// generation: a computation has a parameter per block argument and an instruction per op
/// (the instruction [`translate`] makes of it, after the instructions it needs first; the
/// results of an op with several are taken out of its tuple by `get-tuple-element`), and the
/// operands of the terminator (`xla_indexing.yield`, `stablehlo.return`) are its root (a tuple
/// for several). The region of a `reduce` or `reduce_window` becomes the computation it calls,
/// written the same way: `"stablehlo.maximum"` on `tensor<f32>` and `"stablehlo.return"` become
/// `%maximum = f32[] maximum(%param_0, %param_1)` as its root.
///
/// Instructions and computations get names unique in the module, made from the op names
/// (`exponential`, `exponential.1`); [`HloWriter::origin`] says which op an instruction was
/// written for.
#[derive(Debug, Default)]
pub struct HloWriter {
    /// The computations written so far, callees before callers.
    computations: String,
    /// The names in use.
    names: UniqueNames,
    /// What each instruction was written for (`'stablehlo.add'`, `result 1 of
    /// 'stablehlo.reduce'`) and the op's location.
    origins: HashMap<String, (String, String)>,
}

impl HloWriter {
    /// A fresh name made from `base` (characters HLO names do not allow replaced by `_`), with a
    /// `.N` suffix when `base` is taken.
    pub fn fresh(&mut self, base: &str) -> String {
        let mut base: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() {
            base.push('_');
        }
        self.names.fresh(base, '.')
    }

    /// What the instruction `name` was written for (`'stablehlo.add'`, or `result 1 of
    /// 'stablehlo.reduce'` for the `get-tuple-element` of an op's result) and the op's location
    /// text (empty when unknown).
    pub fn origin(&self, name: &str) -> Option<(&str, &str)> {
        self.origins
            .get(name)
            .map(|(op, location)| (op.as_str(), location.as_str()))
    }

    /// Writes the body of `op`'s region `index` as a computation named after `base`; returns its
    /// name and the HLO shape of its root.
    pub fn region(
        &mut self,
        op: &OperationRef,
        index: usize,
        base: &str,
    ) -> Result<(String, String), RegionError> {
        let region = op
            .region(index)
            .map_err(|_| RegionError::new(op, format!("has no region {index}")))?;
        let block = region
            .first_block()
            .ok_or_else(|| RegionError::new(op, "its region is empty"))?;
        if block.next_in_region().is_some() {
            return Err(RegionError::new(op, "its region has several blocks"));
        }
        let name = self.fresh(base);
        let mut values: HashMap<usize, String> = HashMap::new();
        let mut lines: Vec<(String, String)> = Vec::new();
        let mut params = Vec::new();
        for i in 0..block.argument_count() {
            let argument = block
                .argument(i)
                .map_err(|e| RegionError::new(op, e.to_string()))?;
            let shape = hlo_shape(argument.r#type()).ok_or_else(|| {
                RegionError::new(
                    op,
                    format!(
                        "region argument {i} has a type that is not a static tensor: {}",
                        argument.r#type()
                    ),
                )
            })?;
            let param = self.fresh(&format!("param_{i}"));
            params.push(format!("{param}: {shape}"));
            lines.push((param.clone(), format!("{shape} parameter({i})")));
            values.insert(value_key(argument), format!("%{param}"));
        }
        let mut root = None;
        let mut next = block.first_operation();
        while let Some(current) = next {
            next = current.next_in_block();
            match op_name(&current).as_str() {
                "xla_indexing.yield" | "stablehlo.return" => {
                    root = Some(self.root(&current, &values, &mut lines)?);
                }
                _ => self.op(&current, &mut values, &mut lines)?,
            }
        }
        let (root, shape) =
            root.ok_or_else(|| RegionError::new(op, "its region has no terminator"))?;
        let _ = writeln!(
            self.computations,
            "%{name} ({}) -> {shape} {{",
            params.join(", ")
        );
        for (instruction, text) in &lines {
            let marker = if *instruction == root { "ROOT " } else { "" };
            let _ = writeln!(self.computations, "  {marker}%{instruction} = {text}");
        }
        self.computations.push_str("}\n\n");
        Ok((name, shape))
    }

    /// The computations written so far, callees before callers.
    pub fn computations(&self) -> &str {
        &self.computations
    }

    /// The instruction of `op` (and those it needs first), whose results are then named in
    /// `values`.
    fn op(
        &mut self,
        op: &OperationRef,
        values: &mut HashMap<usize, String>,
        lines: &mut Vec<(String, String)>,
    ) -> Result<(), RegionError> {
        let full = op_name(op);
        if !is_stablehlo(&full) {
            return Err(RegionError::new(
                op,
                "only StableHLO-like ops have an HLO form",
            ));
        }
        let short = full.trim_start_matches("stablehlo.");
        let mut uses = Vec::with_capacity(op.operand_count());
        for operand in op.operands() {
            let name = values
                .get(&value_key(operand))
                .ok_or_else(|| RegionError::new(op, "uses a value defined outside its region"))?;
            uses.push(name.clone());
        }
        let to_apply = if op_table::by_stablehlo(short).is_some_and(|f| f.region.is_some()) {
            let (callee, _) = self.region(op, 0, &format!("{short}_computation"))?;
            format!("%{callee}")
        } else {
            String::new()
        };
        let name = self.fresh(short);
        let instruction = instruction(op, &name, &uses, &to_apply)
            .map_err(|skip| RegionError::skipped(op, skip))?;
        let location = location_text(op.location());
        let origin = (format!("'{full}'"), location.clone());
        for (prelude, text) in instruction.prelude {
            self.names.take(prelude.clone());
            self.origins.insert(prelude.clone(), origin.clone());
            lines.push((prelude, text));
        }
        lines.push((name.clone(), instruction.text));
        self.origins.insert(name.clone(), origin.clone());
        match op.result_count() {
            0 => return Err(RegionError::new(op, "has no results")),
            1 => {
                let result = op
                    .result(0)
                    .map_err(|e| RegionError::new(op, e.to_string()))?;
                values.insert(value_key(result), format!("%{name}"));
            }
            n => {
                for j in 0..n {
                    let result = op
                        .result(j)
                        .map_err(|e| RegionError::new(op, e.to_string()))?;
                    // `instruction` checked that every result has a static tensor type.
                    let shape = hlo_shape(result.r#type()).unwrap_or_default();
                    let element = self.fresh(&format!("{name}.{j}"));
                    lines.push((
                        element.clone(),
                        format!("{shape} get-tuple-element(%{name}), index={j}"),
                    ));
                    self.origins.insert(
                        element.clone(),
                        (format!("result {j} of '{full}'"), location.clone()),
                    );
                    values.insert(value_key(result), format!("%{element}"));
                }
            }
        }
        Ok(())
    }

    /// The root of a region ended by `terminator`: the instruction of its one operand, or a
    /// tuple of its operands; with the root's HLO shape.
    fn root(
        &mut self,
        terminator: &OperationRef,
        values: &HashMap<usize, String>,
        lines: &mut Vec<(String, String)>,
    ) -> Result<(String, String), RegionError> {
        let mut uses = Vec::new();
        let mut shapes = Vec::new();
        for operand in terminator.operands() {
            let name = values.get(&value_key(operand)).ok_or_else(|| {
                RegionError::new(terminator, "uses a value defined outside its region")
            })?;
            uses.push(name.clone());
            shapes.push(hlo_shape(operand.r#type()).ok_or_else(|| {
                RegionError::new(
                    terminator,
                    format!(
                        "gives a value that is not a static tensor: {}",
                        operand.r#type()
                    ),
                )
            })?);
        }
        match (uses.as_slice(), shapes.as_slice()) {
            ([], _) => Err(RegionError::new(terminator, "gives no values")),
            ([one], [shape]) => Ok((one.trim_start_matches('%').to_owned(), shape.clone())),
            _ => {
                let name = self.fresh("tuple");
                let shape = format!("({})", shapes.join(", "));
                lines.push((name.clone(), format!("{shape} tuple({})", uses.join(", "))));
                Ok((name, shape))
            }
        }
    }
}

/// A key for an SSA value (its address in MLIR).
fn value_key<'c>(value: impl ValueLike<'c>) -> usize {
    value.to_raw().ptr as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_names_count_on_per_base() {
        let mut names = UniqueNames::default();
        assert_eq!(names.fresh("negate".into(), '.'), "negate");
        assert_eq!(names.fresh("negate".into(), '.'), "negate.1");
        names.take("negate.2".into());
        assert_eq!(names.fresh("negate".into(), '.'), "negate.3");
        // A name made from another base is not given again.
        assert_eq!(names.fresh("negate.3".into(), '.'), "negate.3.1");
        assert_eq!(names.fresh("add".into(), '_'), "add");
        assert_eq!(names.fresh("add".into(), '_'), "add_1");
        let mut writer = HloWriter::default();
        assert_eq!(writer.fresh("a b"), "a_b");
        assert_eq!(writer.fresh("a b"), "a_b.1");
        assert_eq!(writer.fresh(""), "_");
    }
}
