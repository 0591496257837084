//! HLO modules as MLIR text: the entry computation becomes a `func.func`, each `fusion` an
//! `xla_indexing.fusion` op whose body holds its fused computation, and every instruction a
//! StableHLO-like op in generic form (`"stablehlo.add"(...)`) with its attributes as the op
//! table (`op_table.rs`) converts them, the table [`crate::stablehlo`] reads them back with, so
//! that `xla-indexing-annotate` (with `--allow-unregistered-dialect`) gives the same maps as the
//! HLO analysis.
//!
//! Layouts are not imported (StableHLO has none): `copy`, which only changes the layout, forwards
//! its operand, and a `bitcast` between default layouts is a `reshape`. `reduce` and
//! `reduce-window` carry their `to_apply` computation as a region; `call` becomes `func.call` of
//! a `func.func` made from its computation. An op without a StableHLO counterpart here is written
//! generically as `"stablehlo.<opcode>"` without attributes or regions, with a warning. Each
//! op's location is its instruction's line and column in the HLO file, so that diagnostics and
//! remarks about it (the annotate pass's, say) point into the HLO text.

use std::{
    collections::{HashMap, HashSet},
    fmt::Write as _,
};
use xla_indexing_hlo::Opcode;

use xla_indexing_hlo::{
    Computation, HloError, Instruction, Module,
    attrs::AttrValue,
    check_module,
    shape::{ArrayShape, Shape},
};

use crate::op_table::{self, Family, TO_APPLY, ToMlir};
pub use crate::op_table::{mlir_element, mlir_type};
use xla_indexing_core::names::SsaNames;

/// Something the import could not carry over exactly, at the instruction's line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportWarning {
    /// What was not carried over, and why.
    pub message: String,
    /// 1-based line of the instruction in the HLO text.
    pub line: usize,
    /// 1-based column of the instruction.
    pub column: usize,
}

/// The MLIR text of a module and what it could not carry over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The MLIR module, as text.
    pub text: String,
    /// What it could not carry over.
    pub warnings: Vec<ImportWarning>,
}

/// Writes `module`, read from the file `source_name`, as MLIR text (see the module's
/// documentation). Each op's location is its instruction's place in that file. A module the
/// indexing analysis refuses (an op whose shapes or attributes do not fit, sizes that overflow,
/// a call that does not match its computation or calls itself) is refused with its error
/// ([`check_module`]), which names the instruction and its line.
///
/// Nested regions (fusions in fusions, reducers) are written with a stack of their own, not by
/// recursion. MLIR's parser recurses into every region, and `mlir-opt` overflows its stack near
/// 4000 nested regions: a fusion or reduction whose region would be nested more than 2000 deep
/// is written generically, with a warning. Past 32 levels the indentation stops growing, so that
/// the text of a deep nest stays linear in its size.
pub fn import_module(module: &Module, source_name: &str) -> Result<Imported, HloError> {
    import_module_with_progress(module, source_name, &mut |_, _| {})
}

/// [`import_module`], calling `progress(done, total)` after each `fusion` it writes (`total`
/// counts the module's fusion instructions; a fused computation used twice is written twice).
pub fn import_module_with_progress(
    module: &Module,
    source_name: &str,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Imported, HloError> {
    check_module(module)?;
    let fusions = module
        .computations
        .iter()
        .flat_map(|c| &c.instructions)
        .filter(|i| i.opcode == Opcode::Fusion)
        .count();
    let mut importer = Importer {
        module,
        source_name,
        warnings: Vec::new(),
        reached: vec![&module.computations[module.entry]],
        emitted: HashSet::from([module.computations[module.entry].name.as_str()]),
        open: HashSet::new(),
        fusions: (0, fusions),
        progress,
    };
    let mut text = String::new();
    if module.name.is_empty() {
        text.push_str("module {\n");
    } else {
        let _ = writeln!(text, "module @{} {{", symbol(&module.name));
    }
    // The entry first, then the functions of `call`s in the order they are reached.
    let mut next = 0;
    while let Some(&computation) = importer.reached.get(next) {
        text.push_str(&importer.function(computation));
        next += 1;
    }
    text.push_str("}\n");
    Ok(Imported {
        text,
        warnings: importer.warnings,
    })
}

/// The deepest nesting of regions written: half of what `mlir-opt` reads (see
/// [`import_module`]).
const MAX_NESTING: usize = 2000;

/// The indentation past which nested regions are not indented further (32 levels).
const MAX_INDENT: usize = 64;

struct Importer<'m> {
    module: &'m Module,
    source_name: &'m str,
    warnings: Vec<ImportWarning>,
    /// The computations to write as functions (the entry, then those `call`s name), in the
    /// order they were reached.
    reached: Vec<&'m Computation>,
    /// The names of the computations in `reached`.
    emitted: HashSet<&'m str>,
    /// The computations being written as a body or region now (one per level of nesting),
    /// which an op inside them cannot hold as a region of its own.
    open: HashSet<&'m str>,
    /// The fusions written so far and the module's number of fusion instructions.
    fusions: (usize, usize),
    progress: &'m mut dyn FnMut(usize, usize),
}

/// An HLO value in MLIR: one SSA value, or the results of a multi-result op (a tuple-shaped
/// fusion or a `tuple`) taken apart.
#[derive(Clone, Debug)]
enum Value {
    One(String),
    Many(Vec<String>),
}

/// A computation being written as a region body.
struct Body<'a> {
    computation: &'a Computation,
    values: HashMap<usize, Value>,
    indent: String,
}

/// A body being written: its parameters' names, the lines so far, and the next instruction (a
/// position in post order).
struct Frame<'m> {
    body: Body<'m>,
    params: Vec<String>,
    text: String,
    position: usize,
}

/// What the finished [`Frame`] of a region becomes in the body around it.
enum Nest<'m> {
    /// The region of an op of the enclosing body, whose line is `head`, the region, `tail`;
    /// `result` is the op's value (its `results` results taken apart when there are several,
    /// as a variadic `reduce` has).
    Region {
        head: String,
        tail: String,
        result: String,
        results: usize,
    },
    /// The body of an `xla_indexing.fusion` for instruction `instr` of the enclosing body.
    Fusion {
        instr: &'m Instruction,
        operands: Vec<String>,
        operand_types: Vec<String>,
    },
}

/// What writing one instruction gives: its value, or the frame of a region to write first
/// and what it becomes.
enum Written<'m> {
    Value(Value),
    Nested(Frame<'m>, Nest<'m>),
}

impl<'m> Importer<'m> {
    /// Counts one fusion written.
    fn fusion_done(&mut self) {
        self.fusions.0 += 1;
        (self.progress)(self.fusions.0, self.fusions.1);
    }

    fn warn(&mut self, instr: &Instruction, message: String) {
        self.warnings.push(ImportWarning {
            message,
            line: instr.pos.line,
            column: instr.pos.column,
        });
    }

    /// `loc("FILE":LINE:COLUMN)`: where the instruction is in the HLO text, so that MLIR's
    /// diagnostics about the op point there.
    fn location(&self, instr: &Instruction) -> String {
        format!(
            "loc(\"{}\":{}:{})",
            escape(self.source_name),
            instr.pos.line,
            instr.pos.column
        )
    }

    fn computation(&self, name: &str) -> Option<&'m Computation> {
        let module = self.module;
        module.computation(name).map(|i| &module.computations[i])
    }

    /// Why `computation` cannot be written as a region of an op here, if it cannot: it encloses
    /// the op, or the region would be nested too deep.
    fn not_nestable(&self, computation: &Computation) -> Option<String> {
        if self.open.contains(computation.name.as_str()) {
            return Some(format!("its computation {} encloses it", computation.name));
        }
        (self.open.len() >= MAX_NESTING).then(|| {
            format!(
                "its region would be nested more than {MAX_NESTING} regions deep (MLIR's parser recurses into each)"
            )
        })
    }

    /// The symbol of `computation`'s `func.func`, which is written once, after those reached
    /// before it.
    fn reach(&mut self, computation: &'m Computation) -> String {
        if self.emitted.insert(&computation.name) {
            self.reached.push(computation);
        }
        symbol(&computation.name)
    }

    /// `computation` as a `func.func`: its body, then the regions it reaches, innermost first,
    /// each written into the body around it once done.
    fn function(&mut self, computation: &'m Computation) -> String {
        let mut names = SsaNames::default();
        let mut frame = self.open_frame(computation, "    ".into(), &mut names);
        // The bodies around `frame`, each with what `frame`, or the region inside it, becomes.
        let mut enclosing: Vec<(Frame<'m>, Nest<'m>)> = Vec::new();
        loop {
            if let Some((nested, nest)) = self.write(&mut frame, &mut names) {
                enclosing.push((std::mem::replace(&mut frame, nested), nest));
                continue;
            }
            self.open.remove(frame.body.computation.name.as_str());
            let root = frame
                .body
                .values
                .get(&frame.body.computation.root)
                .cloned()
                .unwrap_or_else(|| Value::Many(Vec::new()));
            let (values, types) = self.results(&frame.body, &mut names, &mut frame.text, root);
            let Some((mut outer, nest)) = enclosing.pop() else {
                return function_text(computation, &frame, &values, &types);
            };
            let fusion = matches!(nest, Nest::Fusion { .. });
            close(&mut outer, frame, nest, &values, &types, &mut names);
            if fusion {
                self.fusion_done();
            }
            frame = outer;
        }
    }

    /// A frame at the start of `computation`'s body, its parameters named.
    fn open_frame(
        &mut self,
        computation: &'m Computation,
        indent: String,
        names: &mut SsaNames,
    ) -> Frame<'m> {
        self.open.insert(&computation.name);
        let mut body = Body {
            computation,
            values: HashMap::new(),
            indent,
        };
        let params = self.parameters(&mut body, names);
        Frame {
            body,
            params,
            text: String::new(),
            position: 0,
        }
    }

    /// SsaNames the parameters of `body`'s computation: `%name: type` in parameter order.
    fn parameters(&mut self, body: &mut Body<'m>, names: &mut SsaNames) -> Vec<String> {
        let computation = body.computation;
        let mut params = Vec::new();
        for n in 0..computation.num_parameters() {
            let Some(i) = computation.parameter(n) else {
                continue;
            };
            let instr = &computation.instructions[i];
            let name = names.fresh(&instr.name);
            params.push(format!("{name}: {}", mlir_type(&instr.shape)));
            body.values.insert(i, Value::One(name));
        }
        params
    }

    /// Writes `frame`'s instructions but the parameters, from where it stopped; returns the
    /// frame of a region to write first (a fusion's body, a reducer), or `None` once the last
    /// instruction is written.
    fn write(
        &mut self,
        frame: &mut Frame<'m>,
        names: &mut SsaNames,
    ) -> Option<(Frame<'m>, Nest<'m>)> {
        let computation = frame.body.computation;
        while let Some(&i) = computation.post_order.get(frame.position) {
            let instr = &computation.instructions[i];
            if instr.parameter_number.is_none() {
                match self.instruction(frame, names, instr) {
                    Written::Value(value) => {
                        frame.body.values.insert(i, value);
                    }
                    Written::Nested(nested, nest) => return Some((nested, nest)),
                }
            }
            frame.position += 1;
        }
        None
    }

    /// The values and types a region returns for `root`: the elements of a tuple, else the root.
    fn results(
        &mut self,
        body: &Body<'m>,
        names: &mut SsaNames,
        out: &mut String,
        root: Value,
    ) -> (Vec<String>, Vec<String>) {
        let computation = body.computation;
        let shape = &computation.instructions[computation.root].shape;
        match (root, shape) {
            // A nested tuple root returns its leaves.
            (Value::Many(values), Shape::Tuple(elements)) if values.len() != elements.len() => {
                let leaves = shape.leaves();
                let types = leaves
                    .into_iter()
                    .map(|leaf| mlir_type(&Shape::Array(leaf.clone())))
                    .collect();
                (values, types)
            }
            (Value::Many(values), Shape::Tuple(elements)) => {
                (values, elements.iter().map(mlir_type).collect())
            }
            (value, _) => {
                let value = self.single(body, names, out, &value, shape);
                (vec![value], vec![mlir_type(shape)])
            }
        }
    }

    /// One SSA value for `value`: a taken-apart tuple is put back together.
    fn single(
        &mut self,
        body: &Body<'m>,
        names: &mut SsaNames,
        out: &mut String,
        value: &Value,
        shape: &Shape,
    ) -> String {
        match value {
            Value::One(v) => v.clone(),
            Value::Many(elements) => {
                let name = names.fresh("tuple");
                let types = match shape {
                    Shape::Tuple(e) => e.iter().map(mlir_type).collect::<Vec<_>>(),
                    Shape::Array(_) => Vec::new(),
                };
                let _ = writeln!(
                    out,
                    "{}{name} = \"stablehlo.tuple\"({}) : ({}) -> {}",
                    body.indent,
                    elements.join(", "),
                    types.join(", "),
                    mlir_type(shape)
                );
                name
            }
        }
    }

    /// Writes one instruction of `frame`'s body: its value, or the frame of its region.
    fn instruction(
        &mut self,
        frame: &mut Frame<'m>,
        names: &mut SsaNames,
        instr: &'m Instruction,
    ) -> Written<'m> {
        let body = &frame.body;
        let computation = body.computation;
        // An element of a taken-apart tuple is that value (the tuple is not put back together).
        if instr.opcode == Opcode::GetTupleElement {
            let source = instr.operands.first().and_then(|o| body.values.get(o));
            let flat = |o: &usize| match &computation.instructions[*o].shape {
                Shape::Tuple(parts) => parts.iter().all(|p| matches!(p, Shape::Array(_))),
                Shape::Array(_) => false,
            };
            if let (Some(Value::Many(elements)), Some(index)) = (source, instr.int("index"))
                && instr.operands.first().is_some_and(flat)
                && let Some(element) = usize::try_from(index).ok().and_then(|i| elements.get(i))
            {
                return Written::Value(Value::One(element.clone()));
            }
        }
        // A root tuple of tuples (the results of variadic reductions) is its leaves, which the
        // function returns one by one.
        if instr.opcode == Opcode::Tuple
            && std::ptr::eq(instr, &computation.instructions[computation.root])
        {
            let leaves = instr
                .operands
                .iter()
                .flat_map(|o| match body.values.get(o) {
                    Some(Value::One(v)) => vec![v.clone()],
                    Some(Value::Many(vs)) => vs.clone(),
                    None => Vec::new(),
                })
                .collect();
            return Written::Value(Value::Many(leaves));
        }
        let operand_shapes: Vec<&Shape> = instr
            .operands
            .iter()
            .map(|&o| &computation.instructions[o].shape)
            .collect();
        let mut operands = Vec::with_capacity(instr.operands.len());
        for (&o, shape) in instr.operands.iter().zip(&operand_shapes) {
            let value = body
                .values
                .get(&o)
                .cloned()
                .unwrap_or_else(|| Value::Many(Vec::new()));
            operands.push(self.single(body, names, &mut frame.text, &value, shape));
        }
        match instr.opcode {
            // Layouts are not imported: a copy is its operand.
            Opcode::Copy if operands.len() == 1 => {
                return Written::Value(Value::One(operands[0].clone()));
            }
            Opcode::Tuple => return Written::Value(Value::Many(operands)),
            Opcode::Fusion => return self.fusion(frame, names, instr, operands, &operand_shapes),
            _ => {}
        }
        let result = names.fresh(&instr.name);
        let (name, properties, region) = self.translate(instr, &operand_shapes);
        let operand_types: Vec<String> = operand_shapes.iter().map(|s| mlir_type(s)).collect();
        let indent = &frame.body.indent;
        // An op with a region and a tuple shape (a variadic reduce) has one result per leaf.
        let (defined, result_type, results) = match (&instr.shape, &region) {
            (Shape::Tuple(leaves), Some(_)) if leaves.len() > 1 => {
                let types: Vec<String> = leaves.iter().map(mlir_type).collect();
                (
                    format!("{result}:{}", leaves.len()),
                    format!("({})", types.join(", ")),
                    leaves.len(),
                )
            }
            _ => (result.clone(), mlir_type(&instr.shape), 1),
        };
        let mut head = format!("{indent}{defined} = \"{name}\"({})", operands.join(", "));
        if !properties.is_empty() {
            let _ = write!(head, " <{{{}}}>", properties.join(", "));
        }
        let tail = format!(
            " : ({}) -> {result_type} {}\n",
            operand_types.join(", "),
            self.location(instr)
        );
        match region {
            Some(reducer) => {
                let head = format!("{head} ({{\n");
                let tail = format!("{indent}}}){tail}");
                let nest = Nest::Region {
                    head,
                    tail,
                    result,
                    results,
                };
                Written::Nested(self.open_frame(reducer, nested_indent(indent), names), nest)
            }
            None => {
                frame.text.push_str(&head);
                frame.text.push_str(&tail);
                Written::Value(Value::One(result))
            }
        }
    }

    /// The op name, its properties and the computation of its region (a reducer) for an
    /// instruction: its family's op in the [`op_table`], or an op only the import knows; an
    /// instruction without either is written generically, with a warning.
    fn translate(&mut self, instr: &'m Instruction, operand_shapes: &[&Shape]) -> Translated<'m> {
        let translated = match op_table::by_hlo(instr.opcode) {
            Some(family) => self.convert(family, instr, operand_shapes),
            None => self.import_only(instr, operand_shapes),
        };
        translated.unwrap_or_else(|| self.generic(instr, "no StableHLO form here"))
    }

    /// The op of `instr`'s family, or `None` where the instruction lacks an attribute or the
    /// computation its region would hold.
    fn convert(
        &mut self,
        family: &Family,
        instr: &'m Instruction,
        operand_shapes: &[&Shape],
    ) -> Option<Translated<'m>> {
        let mut to = ToMlir::new(instr, operand_shapes);
        let converted = family
            .attributes
            .iter()
            .all(|a| a.to_mlir(&mut to).is_some());
        for warning in to.warnings {
            self.warn(instr, warning);
        }
        if !converted {
            return None;
        }
        if instr.opcode == Opcode::CustomCall {
            self.warn_dropped_custom_call_attributes(instr);
        }
        let region = match family.region {
            None => None,
            Some(key) => {
                let reducer = instr
                    .called(key)
                    .first()
                    .and_then(|c| self.computation(c))?;
                if let Some(why) = self.not_nestable(reducer) {
                    return Some(self.generic(instr, &why));
                }
                Some(reducer)
            }
        };
        Some((
            format!("stablehlo.{}", family.stablehlo),
            to.properties,
            region,
        ))
    }

    /// Warns about the attributes of a custom call other than its target (`backend_config`,
    /// `api_version`, ...): the StableHLO-like op holds only its `call_target_name`. What only
    /// describes the instruction (`metadata`, `frontend_attributes`, `sharding`) goes quietly,
    /// as for every op.
    fn warn_dropped_custom_call_attributes(&mut self, instr: &Instruction) {
        const DESCRIPTIVE: [&str; 4] = [
            "custom_call_target",
            "metadata",
            "frontend_attributes",
            "sharding",
        ];
        let dropped: Vec<&str> = instr
            .attrs
            .iter()
            .map(|a| a.key.as_str())
            .filter(|k| !DESCRIPTIVE.contains(k))
            .collect();
        if !dropped.is_empty() {
            self.warn(
                instr,
                format!(
                    "'{}' (custom-call) is imported with its call_target_name only, without {}",
                    instr.name,
                    dropped.join(", ")
                ),
            );
        }
    }

    /// The op of an instruction that only the import knows: the `get-tuple-element` of a value
    /// that is no taken-apart tuple, a `bitcast` between default layouts (a reshape), a `call`.
    fn import_only(
        &mut self,
        instr: &'m Instruction,
        operand_shapes: &[&Shape],
    ) -> Option<Translated<'m>> {
        match instr.opcode {
            Opcode::GetTupleElement => instr.int("index").map(|i| {
                let properties = vec![format!("index = {i} : i32")];
                ("stablehlo.get_tuple_element".into(), properties, None)
            }),
            Opcode::Bitcast => {
                let default = |s: &Shape| s.as_array().is_some_and(ArrayShape::has_default_layout);
                (default(&instr.shape) && operand_shapes.first().is_some_and(|s| default(s)))
                    .then(|| ("stablehlo.reshape".into(), Vec::new(), None))
            }
            Opcode::Call => {
                let callee = instr
                    .called(TO_APPLY)
                    .first()
                    .and_then(|c| self.computation(c))?;
                let name = self.reach(callee);
                Some(("func.call".into(), vec![format!("callee = @{name}")], None))
            }
            _ => None,
        }
    }

    /// The op name of `instr` written generically, without properties or region, with a warning
    /// that says why.
    fn generic(&mut self, instr: &Instruction, why: &str) -> Translated<'m> {
        self.warn(
            instr,
            format!(
                "'{}' ({}) is written generically, without its attributes: {why}",
                instr.name, instr.opcode
            ),
        );
        generic(instr.opcode)
    }

    /// An `xla_indexing.fusion` op with the fused computation as its body: the frame of the
    /// body, or a generic op (with a warning) when there is no body to write.
    fn fusion(
        &mut self,
        frame: &mut Frame<'m>,
        names: &mut SsaNames,
        instr: &'m Instruction,
        operands: Vec<String>,
        operand_shapes: &[&Shape],
    ) -> Written<'m> {
        let operand_types: Vec<String> = operand_shapes.iter().map(|s| mlir_type(s)).collect();
        let fused = instr
            .called("calls")
            .first()
            .and_then(|c| self.computation(c));
        let why = match fused {
            // `check_module` refused a fusion without its computation.
            None => "it calls no computation".into(),
            Some(fused) => match self.not_nestable(fused) {
                Some(why) => why,
                // The fused computation is isolated from above, but MLIR's parser gives the
                // body of an op with a declarative assembly format no name scope of its own:
                // its names must not repeat the function's either.
                None => {
                    let nest = Nest::Fusion {
                        instr,
                        operands,
                        operand_types,
                    };
                    let indent = nested_indent(&frame.body.indent);
                    return Written::Nested(self.open_frame(fused, indent, names), nest);
                }
            },
        };
        self.warn(
            instr,
            format!("fusion '{}' is written generically: {why}", instr.name),
        );
        self.fusion_done();
        let result = names.fresh(&instr.name);
        let _ = writeln!(
            frame.text,
            "{}{result} = \"stablehlo.fusion\"({}) : ({}) -> {}",
            frame.body.indent,
            operands.join(", "),
            operand_types.join(", "),
            mlir_type(&instr.shape)
        );
        Written::Value(Value::One(result))
    }
}

/// Writes `done`, a finished region, into the body `outer` it belongs to, where `outer`
/// stopped; `values` and `types` are what the region returns.
fn close<'m>(
    outer: &mut Frame<'m>,
    done: Frame<'m>,
    nest: Nest<'m>,
    values: &[String],
    types: &[String],
    names: &mut SsaNames,
) {
    let indent = &outer.body.indent;
    let inner = &done.body.indent;
    let entry = format!("{indent}^bb0({}):\n{}", done.params.join(", "), done.text);
    let value = match nest {
        Nest::Region {
            head,
            tail,
            result,
            results,
        } => {
            let _ = write!(
                outer.text,
                "{head}{entry}{inner}\"stablehlo.return\"({}) : ({}) -> ()\n{tail}",
                values.join(", "),
                types.join(", ")
            );
            if results > 1 {
                Value::Many((0..results).map(|k| format!("{result}#{k}")).collect())
            } else {
                Value::One(result)
            }
        }
        Nest::Fusion {
            instr,
            operands,
            operand_types,
        } => {
            let result = names.fresh(&instr.name);
            let mut kind = match instr.attr("kind") {
                Some(AttrValue::Raw(kind)) => format!(", kind = \"{kind}\""),
                _ => String::new(),
            };
            // The backend config (an autotuned unroll factor, say) goes with the fusion.
            if let Some(AttrValue::Json(config)) = instr.attr("backend_config") {
                kind.push_str(&format!(
                    ", backend_config = \"{}\"",
                    escape(&config.to_string())
                ));
            }
            let count = if types.len() == 1 {
                String::new()
            } else {
                format!(":{}", types.len())
            };
            let _ = writeln!(
                outer.text,
                "{indent}{result}{count} = xla_indexing.fusion ({}) {{name = \"{}\"{kind}}} : ({}) -> ({}) {{\n{entry}{inner}xla_indexing.yield {} : {}\n{indent}}}",
                operands.join(", "),
                done.body.computation.name,
                operand_types.join(", "),
                types.join(", "),
                values.join(", "),
                types.join(", "),
            );
            if types.len() == 1 {
                Value::One(result)
            } else {
                Value::Many((0..types.len()).map(|i| format!("{result}#{i}")).collect())
            }
        }
    };
    // `outer` stopped at the instruction whose region `done` is.
    let i = outer.body.computation.post_order[outer.position];
    outer.body.values.insert(i, value);
    outer.position += 1;
}

/// The `func.func` of `computation`, whose finished body is `done`.
fn function_text(
    computation: &Computation,
    done: &Frame<'_>,
    values: &[String],
    types: &[String],
) -> String {
    let mut out = format!(
        "  func.func @{}({}) -> ({}) {{\n",
        symbol(&computation.name),
        done.params.join(", "),
        types.join(", ")
    );
    out.push_str(&done.text);
    if values.is_empty() {
        out.push_str("    return\n");
    } else {
        let _ = writeln!(
            out,
            "    return {} : {}",
            values.join(", "),
            types.join(", ")
        );
    }
    out.push_str("  }\n");
    out
}

/// The indentation of a region inside a body indented by `indent`.
fn nested_indent(indent: &str) -> String {
    if indent.len() < MAX_INDENT {
        format!("{indent}  ")
    } else {
        indent.to_owned()
    }
}

/// What an instruction becomes: its op's name, its properties and the computation of its
/// region.
type Translated<'m> = (String, Vec<String>, Option<&'m Computation>);

/// The op name, no properties and no region: an op written generically.
fn generic<'a>(opcode: Opcode) -> Translated<'a> {
    (
        format!("stablehlo.{}", opcode.as_str().replace('-', "_")),
        Vec::new(),
        None,
    )
}

/// A symbol name: bare when MLIR allows it, else quoted.
fn symbol(name: &str) -> String {
    let bare = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'));
    if bare {
        name.into()
    } else {
        format!("\"{}\"", escape(name))
    }
}

/// `text` inside an MLIR string literal.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fusion_bodies_do_not_reuse_the_functions_names() {
        let module = xla_indexing_hlo::parse_module(
            r#"HloModule m

%f (p: f32[4]) -> f32[4] {
  %p = f32[4] parameter(0)
  ROOT %e = f32[4] exponential(%p)
}

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4] parameter(0)
  ROOT %e = f32[4] fusion(%p), kind=kLoop, calls=%f
}
"#,
        )
        .expect("the module parses");
        let text = import_module(&module, "m.hlo")
            .expect("the module is consistent")
            .text;
        assert!(
            text.contains("func.func @main(%p: tensor<4xf32>)"),
            "{text}"
        );
        assert!(text.contains("^bb0(%p_1: tensor<4xf32>):"), "{text}");
        assert!(
            text.contains("%e = \"stablehlo.exponential\"(%p_1)"),
            "{text}"
        );
        assert!(text.contains("%e_1 = xla_indexing.fusion (%p)"), "{text}");
    }

    #[test]
    fn a_custom_call_keeps_its_target_and_says_what_it_drops() {
        let module = |extra: &str| {
            xla_indexing_hlo::parse_module(&format!(
                "HloModule m\n\nENTRY %main (p: f32[4]) -> f32[4] {{\n  %p = f32[4] parameter(0)\n  ROOT %c = f32[4] custom-call(%p), custom_call_target=\"k\"{extra}\n}}\n"
            ))
            .expect("the module parses")
        };
        let plain =
            import_module(&module(", metadata={op_name=\"x\"}"), "m.hlo").expect("consistent");
        assert!(
            plain
                .text
                .contains("\"stablehlo.custom_call\"(%p) <{call_target_name = \"k\"}>"),
            "{}",
            plain.text
        );
        assert!(plain.warnings.is_empty(), "{:?}", plain.warnings);
        let configured = import_module(
            &module(", backend_config=\"{}\", api_version=API_VERSION_TYPED_FFI"),
            "m.hlo",
        )
        .expect("consistent");
        let messages: Vec<&str> = configured
            .warnings
            .iter()
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "'c' (custom-call) is imported with its call_target_name only, without backend_config, api_version"
            ]
        );
    }

    #[test]
    fn names_are_unique_and_valid() {
        let mut names = SsaNames::default();
        assert_eq!(names.fresh("add.1"), "%add.1");
        assert_eq!(names.fresh("add.1"), "%add.1_1");
        assert_eq!(names.fresh("1x"), "%v1x");
        assert_eq!(names.fresh("a b"), "%a_b");
        assert_eq!(symbol("main.1"), "main.1");
        assert_eq!(symbol("a-b"), "\"a-b\"");
    }
}
