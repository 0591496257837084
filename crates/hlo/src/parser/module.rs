//! The structure of a module: header, debug sections, computations and instructions, and the
//! resolution of operand and computation names.

use std::collections::HashMap;

use crate::attrs::{Attr, AttrValue, COMPUTATION_KEYS};
use crate::error::HloError;
use crate::module::{Computation, DebugInfo, Instruction, Module, Signature};
use crate::opcode::Opcode;
use crate::parser::cursor::{Cursor, Pos};
use crate::parser::values;
use crate::shape::Shape;

type R<T> = Result<T, HloError>;

/// An operand as written: its name, where, and the shape written before it, if any.
struct OperandRef<'a> {
    name: &'a str,
    offset: usize,
    shape: Option<Shape>,
}

/// An instruction before its operand names are resolved.
struct RawInstruction<'a> {
    instr: Instruction,
    operands: Vec<OperandRef<'a>>,
    name_offset: usize,
    /// Whether the text gives the shape; XLA's parser infers it otherwise (see [`infer_shape`]).
    shape_written: bool,
}

/// Parses a module. See the crate documentation for the accepted text.
pub fn parse(text: &str) -> R<Module> {
    let mut c = Cursor::new(text);
    c.skip_trivia()?;
    let mut module = Module {
        name: String::new(),
        attrs: Vec::new(),
        debug_info: DebugInfo::default(),
        computations: Vec::new(),
        entry: 0,
        names: HashMap::new(),
    };
    if c.at_word("HloModule") {
        c.eat_str("HloModule");
        c.skip_trivia()?;
        module.name = c.name()?.to_string();
        module.attrs = attributes(&mut c)?;
    }
    let mut computation_offsets = Vec::new();
    let mut raw_computations = Vec::new();
    loop {
        c.skip_trivia()?;
        if c.at_end() {
            break;
        }
        if debug_section(&mut c, &mut module.debug_info)? {
            continue;
        }
        computation_offsets.push(c.offset());
        raw_computations.push(computation(&mut c)?);
    }
    if raw_computations.is_empty() {
        return Err(c.error("expected a computation; the module has none"));
    }
    for (raw, offset) in raw_computations.into_iter().zip(computation_offsets) {
        if module.names.contains_key(&raw.0.name) {
            return Err(c.error_at(
                offset,
                format!("computation '{}' is defined twice", raw.0.name),
            ));
        }
        let computation = resolve(&c, raw)?;
        module
            .names
            .insert(computation.name.clone(), module.computations.len());
        module.computations.push(computation);
    }
    let entries: Vec<usize> = (0..module.computations.len())
        .filter(|&i| module.computations[i].is_entry)
        .collect();
    module.entry = match entries.as_slice() {
        [] => module.computations.len() - 1,
        [e] => *e,
        [_, second, ..] => {
            let p = module.computations[*second].pos;
            return Err(HloError::parse(
                p.line,
                p.column,
                "a second ENTRY computation",
            ));
        }
    };
    check_called_computations(&module)?;
    Ok(module)
}

/// `, key=value` pairs after a header or an instruction.
fn attributes(c: &mut Cursor<'_>) -> R<Vec<Attr>> {
    let mut attrs = Vec::new();
    loop {
        c.skip_trivia()?;
        if !c.eat(',') {
            return Ok(attrs);
        }
        c.skip_trivia()?;
        let key = c.name()?.to_string();
        c.skip_trivia()?;
        c.expect('=')?;
        c.skip_blanks();
        let pos = c.pos();
        let value = values::attr_value(c, &key)?;
        attrs.push(Attr { key, value, pos });
    }
}

/// A FileNames, FunctionNames, FileLocations or StackFrames section, if one starts here.
/// Returns whether one was read.
fn debug_section(c: &mut Cursor<'_>, info: &mut DebugInfo) -> R<bool> {
    let (word, list) = if c.at_word("FileNames") {
        ("FileNames", &mut info.file_names)
    } else if c.at_word("FunctionNames") {
        ("FunctionNames", &mut info.function_names)
    } else if c.at_word("FileLocations") {
        ("FileLocations", &mut info.file_locations)
    } else if c.at_word("StackFrames") {
        ("StackFrames", &mut info.stack_frames)
    } else {
        return Ok(false);
    };
    c.eat_str(word);
    loop {
        c.skip_trivia()?;
        if !c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            return Ok(true);
        }
        let id = c.int()?;
        c.skip_blanks();
        let value = match c.peek() {
            Some('"') => c.string()?.to_string(),
            Some('{') => c.balanced('{', '}')?.to_string(),
            _ => return Err(c.expected("a string or {...} entry")),
        };
        list.push((id, value));
    }
}

type RawComputation<'a> = (Computation, Vec<RawInstruction<'a>>);

/// `[ENTRY] %name [(params) -> shape] { instructions }`.
fn computation<'a>(c: &mut Cursor<'a>) -> R<RawComputation<'a>> {
    let pos = c.pos();
    let is_entry = c.at_word("ENTRY");
    if is_entry {
        c.eat_str("ENTRY");
        c.skip_trivia()?;
    }
    let name = c.name()?.to_string();
    c.skip_trivia()?;
    let signature = if c.peek() == Some('(') {
        Some(signature(c)?)
    } else {
        None
    };
    c.skip_trivia()?;
    c.expect('{')?;
    let mut instructions = Vec::new();
    loop {
        c.skip_trivia()?;
        if c.eat('}') {
            break;
        }
        if c.at_end() {
            return Err(c.error(format!("computation '{name}' is not closed with '}}'")));
        }
        instructions.push(instruction(c)?);
    }
    if instructions.is_empty() {
        return Err(HloError::parse(
            pos.line,
            pos.column,
            format!("computation '{name}' has no instructions"),
        ));
    }
    let computation = Computation {
        name,
        is_entry,
        signature,
        instructions: Vec::new(),
        root: 0,
        post_order: Vec::new(),
        pos,
    };
    Ok((computation, instructions))
}

/// `(p0: f32[10], p1: f32[]) -> f32[10]`.
fn signature(c: &mut Cursor<'_>) -> R<Signature> {
    c.expect('(')?;
    let mut params = Vec::new();
    c.skip_trivia()?;
    if !c.eat(')') {
        loop {
            c.skip_trivia()?;
            let name = c.name()?.to_string();
            c.skip_trivia()?;
            c.expect(':')?;
            c.skip_trivia()?;
            params.push((name, values::shape(c)?));
            c.skip_trivia()?;
            if c.eat(')') {
                break;
            }
            c.expect(',')?;
        }
    }
    c.skip_trivia()?;
    if !c.eat_str("->") {
        return Err(c.expected("'->'"));
    }
    c.skip_trivia()?;
    let result = values::shape(c)?;
    Ok(Signature { params, result })
}

/// `[ROOT] %name = shape opcode(operands), attributes`.
fn instruction<'a>(c: &mut Cursor<'a>) -> R<RawInstruction<'a>> {
    let pos = c.pos();
    let is_root = c.at_word("ROOT");
    if is_root {
        c.eat_str("ROOT");
        c.skip_trivia()?;
    }
    let name_offset = c.offset();
    let name = c.name()?.to_string();
    c.skip_trivia()?;
    c.expect('=')?;
    c.skip_trivia()?;
    let shape_written = values::at_shape(c);
    // An unwritten shape is inferred once the operands are known (`infer_shape`).
    let shape = if shape_written {
        values::shape(c)?
    } else {
        Shape::Tuple(Vec::new())
    };
    c.skip_trivia()?;
    let opcode_offset = c.offset();
    let written = c.name()?;
    let opcode = Opcode::parse(written)
        .ok_or_else(|| c.error_at(opcode_offset, format!("'{written}' is no HLO opcode")))?;
    c.skip_trivia()?;
    let (mut parameter_number, mut literal, mut operands) = (None, None, Vec::new());
    match opcode {
        Opcode::Parameter => {
            c.expect('(')?;
            c.skip_trivia()?;
            let at = c.offset();
            let n = c.int()?;
            parameter_number =
                Some(usize::try_from(n).map_err(|_| c.error_at(at, "negative parameter number"))?);
            c.skip_trivia()?;
            c.expect(')')?;
        }
        Opcode::Constant => {
            let text = c.balanced('(', ')')?;
            literal = Some(text[1..text.len() - 1].trim().to_string());
        }
        _ => operands = operand_list(c)?,
    }
    let attrs = attributes(c)?;
    Ok(RawInstruction {
        instr: Instruction {
            name,
            shape,
            opcode,
            operands: Vec::new(),
            parameter_number,
            literal,
            attrs,
            is_root,
            pos,
        },
        operands,
        name_offset,
        shape_written,
    })
}

/// `(f32[10] %a, b, ...)`.
fn operand_list<'a>(c: &mut Cursor<'a>) -> R<Vec<OperandRef<'a>>> {
    c.expect('(')?;
    let mut out = Vec::new();
    c.skip_trivia()?;
    if c.eat(')') {
        return Ok(out);
    }
    loop {
        c.skip_trivia()?;
        let shape = if values::at_shape(c) {
            let s = values::shape(c)?;
            c.skip_trivia()?;
            Some(s)
        } else {
            None
        };
        let offset = c.offset();
        let name = c.name()?;
        out.push(OperandRef {
            name,
            offset,
            shape,
        });
        c.skip_trivia()?;
        if c.eat(')') {
            return Ok(out);
        }
        c.expect(',')?;
    }
}

/// Resolves operand names, finds the root and orders the instructions.
fn resolve(c: &Cursor<'_>, (mut comp, raw): RawComputation<'_>) -> R<Computation> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, r) in raw.iter().enumerate() {
        if index.insert(r.instr.name.as_str(), i).is_some() {
            return Err(c.error_at(
                r.name_offset,
                format!(
                    "instruction '{}' is defined twice in '{}'",
                    r.instr.name, comp.name
                ),
            ));
        }
    }
    let mut params_seen = HashMap::new();
    let mut instructions = Vec::with_capacity(raw.len());
    for r in &raw {
        let mut instr = r.instr.clone();
        for op in &r.operands {
            let &i = index.get(op.name).ok_or_else(|| {
                c.error_at(
                    op.offset,
                    format!("unknown operand '{}' in '{}'", op.name, comp.name),
                )
            })?;
            instr.operands.push(i);
        }
        if let Some(n) = instr.parameter_number
            && params_seen.insert(n, ()).is_some()
        {
            return Err(c.error_at(
                r.name_offset,
                format!("parameter({n}) appears twice in '{}'", comp.name),
            ));
        }
        instructions.push(instr);
    }
    // As XLA's verifier requires: N parameters are numbered 0 to N - 1.
    if let Some((r, n)) = raw
        .iter()
        .filter_map(|r| Some((r, r.instr.parameter_number?)))
        .find(|&(_, n)| n >= params_seen.len())
    {
        return Err(c.error_at(
            r.name_offset,
            format!(
                "parameter({n}) in '{}', which has {} parameters: they are numbered from 0 without gaps",
                comp.name,
                params_seen.len()
            ),
        ));
    }
    let roots: Vec<usize> = (0..instructions.len())
        .filter(|&i| instructions[i].is_root)
        .collect();
    comp.root = match roots.as_slice() {
        [] => instructions.len() - 1,
        [r] => *r,
        [_, second, ..] => {
            return Err(c.error_at(raw[*second].name_offset, "a second ROOT instruction"));
        }
    };
    instructions[comp.root].is_root = true;
    comp.post_order = post_order(&instructions).map_err(|i| {
        c.error_at(
            raw[i].name_offset,
            format!("instruction '{}' depends on itself", raw[i].instr.name),
        )
    })?;
    for &i in &comp.post_order {
        if !raw[i].shape_written {
            instructions[i].shape =
                infer_shape(&instructions, i, |why| c.error_at(raw[i].name_offset, why))?;
        }
        if instructions[i].opcode == Opcode::Broadcast
            && instructions[i].attr("dimensions").is_none()
        {
            scalar_broadcast_dimensions(&mut instructions, i);
        }
    }
    for (r, instr) in raw.iter().zip(&instructions) {
        for (op, &i) in r.operands.iter().zip(&instr.operands) {
            if let Some(written) = &op.shape
                && !same_dims(written, &instructions[i].shape)
            {
                return Err(c.error_at(
                    op.offset,
                    format!(
                        "operand '{}' is written as {written} but defined as {}",
                        op.name, instructions[i].shape
                    ),
                ));
            }
        }
    }
    comp.instructions = instructions;
    Ok(comp)
}

/// The shape of instruction `i` written without one, as XLA's parser infers it from the
/// operands (already known: `i` comes after them in post order): a `tuple` of its operands'
/// shapes, or the element a `get-tuple-element` takes. Any other op must be written with its
/// shape.
fn infer_shape(
    instructions: &[Instruction],
    i: usize,
    error: impl Fn(String) -> HloError,
) -> Result<Shape, HloError> {
    let instr = &instructions[i];
    let operand = |k: usize| &instructions[instr.operands[k]];
    match instr.opcode {
        Opcode::Tuple => Ok(Shape::Tuple(
            (0..instr.operands.len())
                .map(|k| operand(k).shape.clone())
                .collect(),
        )),
        Opcode::GetTupleElement if instr.operands.len() == 1 => {
            let index = instr.int("index").ok_or_else(|| {
                error(format!("get-tuple-element '{}' needs index=N", instr.name))
            })?;
            match &operand(0).shape {
                Shape::Tuple(leaves) => usize::try_from(index)
                    .ok()
                    .and_then(|k| leaves.get(k))
                    .cloned()
                    .ok_or_else(|| {
                        error(format!(
                            "index={index} of '{}' is outside its operand's {} elements",
                            instr.name,
                            leaves.len()
                        ))
                    }),
                shape => Err(error(format!(
                    "get-tuple-element '{}' reads {shape}, which is not a tuple",
                    instr.name
                ))),
            }
        }
        op => Err(error(format!(
            "expected the shape of '{}': it is inferred only for tuple and get-tuple-element, not {op}",
            instr.name
        ))),
    }
}

/// Gives a `broadcast` of a scalar written without `dimensions=` the empty list, which XLA's
/// parser takes as its default there (every result dimension repeats the scalar). A broadcast
/// of anything else keeps missing it, and its map reports that.
fn scalar_broadcast_dimensions(instructions: &mut [Instruction], i: usize) {
    let scalar = instructions[i]
        .operands
        .first()
        .is_some_and(|&o| matches!(&instructions[o].shape, Shape::Array(a) if a.dims.is_empty()));
    if scalar {
        let pos = instructions[i].pos;
        instructions[i].attrs.push(Attr {
            key: "dimensions".into(),
            value: AttrValue::Ints(Vec::new()),
            pos,
        });
    }
}

/// Whether two shapes have the same structure and dimension sizes (layouts may differ).
fn same_dims(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Array(x), Shape::Array(y)) => x.dims == y.dims,
        (Shape::Tuple(x), Shape::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_dims(p, q))
        }
        _ => false,
    }
}

/// Every instruction after its operands; `Err(i)` names an instruction on a cycle.
fn post_order(instructions: &[Instruction]) -> Result<Vec<usize>, usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut mark = vec![Mark::New; instructions.len()];
    let mut order = Vec::with_capacity(instructions.len());
    for start in 0..instructions.len() {
        if mark[start] != Mark::New {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        mark[start] = Mark::Open;
        while let Some((i, next)) = stack.pop() {
            if let Some(&op) = instructions[i].operands.get(next) {
                stack.push((i, next + 1));
                match mark[op] {
                    Mark::New => {
                        mark[op] = Mark::Open;
                        stack.push((op, 0));
                    }
                    Mark::Open => return Err(op),
                    Mark::Done => {}
                }
            } else {
                mark[i] = Mark::Done;
                order.push(i);
            }
        }
    }
    Ok(order)
}

/// Every computation named by an attribute must exist.
fn check_called_computations(module: &Module) -> R<()> {
    for comp in &module.computations {
        for instr in &comp.instructions {
            for attr in instr
                .attrs
                .iter()
                .filter(|a| COMPUTATION_KEYS.contains(&a.key.as_str()))
            {
                let AttrValue::Computations(names) = &attr.value else {
                    continue;
                };
                if let Some(missing) = names.iter().find(|n| module.computation(n).is_none()) {
                    let Pos { line, column } = attr.pos;
                    return Err(HloError::parse(
                        line,
                        column,
                        format!("unknown computation '{missing}'"),
                    ));
                }
            }
        }
    }
    Ok(())
}
