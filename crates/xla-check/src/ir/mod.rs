//! A reader of printed MLIR, enough for [`crate::interp`]: functions, their regions and blocks,
//! and each op as its results, its name, its text and its regions. It relies on MLIR's printer
//! writing one op per line, a region's ops between a line ending in `{` and a line starting
//! with `}`, and block labels (`^bb1(%0: index):`) on lines of their own.

mod text;

use std::collections::HashMap;

use self::text::top_level;
pub use self::text::{bracket_lists, bracketed, matching, split_shaped, split_top, values};

/// Text the reader cannot make into a module, at a 1-based line.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// A `func.func` without `@name`.
    #[error("line {line}: a function without a name")]
    NoName { line: usize },
    /// A function without its argument list.
    #[error("line {line}: a function without arguments")]
    NoArguments { line: usize },
    /// A bracket that is not closed.
    #[error("line {line}: unbalanced")]
    Unbalanced { line: usize },
    /// An argument that is not `%name: type`.
    #[error("line {line}: `{text}` is not `%name: type`")]
    NotTyped { line: usize, text: String },
    /// A line that starts with a value but assigns nothing.
    #[error("line {line}: results without `=`: `{text}`")]
    NoAssignment { line: usize, text: String },
    /// The text ends inside a region.
    #[error("a region is not closed")]
    Unclosed,
}

/// A function with a body.
#[derive(Debug)]
pub struct Func {
    pub name: String,
    /// The arguments' names and types.
    pub args: Vec<(String, String)>,
    /// Each argument's `xla.slice_index`, where it has one: the buffer it is (arguments of
    /// the same slice alias).
    pub slices: Vec<Option<i64>>,
    /// Each argument's `xla.range`, where it has one.
    pub ranges: Vec<Option<(i64, i64)>>,
    /// Whether XLA marked it as the kernel's entry (`xla.entry`, or `num_opaque_args` on the
    /// tiled emitter's).
    pub entry: bool,
    pub body: Region,
}

/// A region: its blocks, the entry block first.
#[derive(Debug, Default)]
pub struct Region {
    pub blocks: Vec<Block>,
}

/// A block: its label (none for an entry block), its arguments' names and types, its ops.
#[derive(Debug, Default)]
pub struct Block {
    pub label: Option<String>,
    pub args: Vec<(String, String)>,
    pub ops: Vec<Op>,
}

/// An op: its results (`%x`, or `%x#0`, `%x#1` for `%x:2`), name, the text after `=` (the
/// whole line without results), its regions and its line in the input (1-based).
#[derive(Debug)]
pub struct Op {
    pub results: Vec<String>,
    pub name: String,
    pub text: String,
    pub regions: Vec<Region>,
    pub line: usize,
}

impl Op {
    /// The SSA values its text names, in order: its operands (and, for ops with regions, the
    /// values their headers bind).
    pub fn operands(&self) -> Vec<&str> {
        values(&self.text)
    }
}

/// A module's functions, the bit width of its `index` (from `dlti.dl_spec`, else 64) and its
/// attribute aliases (`#indexing_map = #xla.indexing_map<"...">`), by name.
#[derive(Debug)]
pub struct Module {
    pub funcs: Vec<Func>,
    pub index_width: u32,
    pub aliases: HashMap<String, String>,
}

impl Module {
    /// The function named `name` (without `@`).
    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }
}

/// Reads the printed module `text`.
pub fn parse(text: &str) -> Result<Module, ReadError> {
    let lines: Vec<&str> = text.lines().collect();
    let index_width = text
        .split("dlti.dl_spec<index = ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|w| w.parse().ok())
        .unwrap_or(64);
    let aliases = lines
        .iter()
        .filter_map(|line| {
            let (name, value) = line.split_once(" = ")?;
            (name.starts_with('#') && !name.contains(' '))
                .then(|| (name.to_owned(), value.to_owned()))
        })
        .collect();
    let mut funcs = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        i += 1;
        let Some(rest) = line
            .strip_prefix("func.func ")
            .or_else(|| line.strip_prefix("xtile.entry_func "))
        else {
            continue;
        };
        if !line.ends_with('{') {
            continue; // a declaration
        }
        let rest = rest.strip_prefix("private ").unwrap_or(rest);
        let name = rest
            .strip_prefix('@')
            .and_then(|r| r.split('(').next())
            .ok_or(ReadError::NoName { line: i })?;
        let open = rest.find('(').ok_or(ReadError::NoArguments { line: i })?;
        let close = matching(rest, open).ok_or(ReadError::Unbalanced { line: i })?;
        let arg_texts: Vec<&str> = split_top(&rest[open + 1..close])
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let args = arg_texts
            .iter()
            .map(|a| typed_value(a, i))
            .collect::<Result<Vec<_>, _>>()?;
        let slices = arg_texts
            .iter()
            .map(|a| {
                a.split("xla.slice_index = ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|n| n.parse().ok())
            })
            .collect();
        let ranges = arg_texts.iter().map(|a| range(a)).collect();
        // XLA's loop-family kernels mark their entry `xla.entry`; the tiled emitter's entry
        // (`xtile.entry_func`, and the `_impl` function it becomes) has `num_opaque_args`.
        let attributes = &rest[close..];
        let entry = attributes.contains("xla.entry") || attributes.contains("num_opaque_args");
        let (body, _) = read_region(&lines, &mut i)?;
        funcs.push(Func {
            name: name.to_owned(),
            args,
            slices,
            ranges,
            entry,
            body,
        });
    }
    Ok(Module {
        funcs,
        index_width,
        aliases,
    })
}

/// Reads a region from `lines[*i]` up to its closing line, which it consumes; returns the
/// region and the closing line.
fn read_region<'a>(lines: &[&'a str], i: &mut usize) -> Result<(Region, &'a str), ReadError> {
    let mut region = Region {
        blocks: vec![Block::default()],
    };
    while *i < lines.len() {
        let number = *i + 1;
        let line = lines[*i].trim();
        *i += 1;
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if line.starts_with('}') {
            return Ok((region, line));
        }
        if line.starts_with('^') {
            let label = line.split(['(', ':']).next().unwrap_or(line).to_owned();
            let args = match line.find('(') {
                Some(open) => {
                    let close =
                        matching(line, open).ok_or(ReadError::Unbalanced { line: number })?;
                    split_top(&line[open + 1..close])
                        .into_iter()
                        .map(|a| typed_value(a, number))
                        .collect::<Result<Vec<_>, _>>()?
                }
                None => Vec::new(),
            };
            let first_is_empty = region.blocks.len() == 1 && region.blocks[0].ops.is_empty();
            let block = Block {
                label: Some(label),
                args,
                ops: Vec::new(),
            };
            if first_is_empty && region.blocks[0].label.is_none() {
                region.blocks[0] = block;
            } else {
                region.blocks.push(block);
            }
            continue;
        }
        let (results, rest) = match line.strip_prefix('%') {
            Some(_) => {
                let (results, rest) =
                    line.split_once(" = ")
                        .ok_or_else(|| ReadError::NoAssignment {
                            line: number,
                            text: line.to_owned(),
                        })?;
                (expand_results(results), rest)
            }
            None => (Vec::new(), line),
        };
        let name = rest
            .split([' ', '('])
            .next()
            .unwrap_or(rest)
            .trim_matches('"')
            .to_owned();
        let mut regions = Vec::new();
        if rest.ends_with('{') {
            loop {
                let (inner, closing) = read_region(lines, i)?;
                regions.push(inner);
                if !closing.ends_with('{') {
                    break;
                }
            }
        }
        let block = region.blocks.last_mut().expect("a region has a block");
        block.ops.push(Op {
            results,
            name,
            text: rest.to_owned(),
            regions,
            line: number,
        });
    }
    Err(ReadError::Unclosed)
}

/// The bounds of an `xla.range = [L : index, U : index]` in `text`.
fn range(text: &str) -> Option<(i64, i64)> {
    let rest = text.split("xla.range = [").nth(1)?;
    let mut bounds = rest
        .split(']')
        .next()?
        .split(',')
        .map(|b| b.trim().split(' ').next().and_then(|n| n.parse().ok()));
    Some((bounds.next()??, bounds.next()??))
}

/// `%a, %b:2` as `%a`, `%b#0`, `%b#1`.
fn expand_results(results: &str) -> Vec<String> {
    let mut names = Vec::new();
    for result in results.split(", ") {
        match result.split_once(':') {
            Some((name, count)) => {
                let count: usize = count.trim().parse().unwrap_or(1);
                names.extend((0..count).map(|k| format!("{name}#{k}")));
            }
            None => names.push(result.trim().to_owned()),
        }
    }
    names
}

/// `%name: type {attributes}` (on line `line`) as the name and the type.
fn typed_value(text: &str, line: usize) -> Result<(String, String), ReadError> {
    let (name, ty) = text
        .trim()
        .split_once(':')
        .ok_or_else(|| ReadError::NotTyped {
            line,
            text: text.to_owned(),
        })?;
    let ty = ty.trim();
    let ty = match top_level(ty, '{') {
        Some(at) => ty[..at].trim(),
        None => ty,
    };
    Ok((name.trim().to_owned(), ty.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_blocks_and_regions() {
        let text = "module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
  func.func private @f(%arg0: !llvm.ptr {llvm.align = 64 : index, xla.slice_index = 3 : index}, %arg1: index) attributes {xla.entry} {
    %c0 = arith.constant 0 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb1
    %1 = scf.if %t -> (f32) {
      scf.yield %a : f32
    } else {
      scf.yield %b : f32
    }
    %2:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %y, %z = %w) -> (index, index) {
      scf.yield %x, %z : index, index
    }
    return
  }
  func.func private @decl(index) -> index
}";
        let module = parse(&format!("#map = affine_map<(d0) -> (d0)>\n{text}")).unwrap();
        assert_eq!(module.aliases["#map"], "affine_map<(d0) -> (d0)>");
        assert_eq!(module.index_width, 32);
        assert_eq!(module.funcs.len(), 1);
        let f = &module.funcs[0];
        assert!(f.entry);
        assert_eq!(f.slices, vec![Some(3), None]);
        assert_eq!(f.ranges, vec![None, None]);
        assert_eq!(
            range("%arg2: index {xla.range = [0 : index, 5 : index]}"),
            Some((0, 5))
        );
        assert_eq!(
            f.args,
            vec![
                ("%arg0".to_owned(), "!llvm.ptr".to_owned()),
                ("%arg1".to_owned(), "index".to_owned())
            ]
        );
        assert_eq!(f.body.blocks.len(), 2);
        assert_eq!(f.body.blocks[1].label.as_deref(), Some("^bb1"));
        assert_eq!(f.body.blocks[1].args, vec![("%0".into(), "index".into())]);
        let ops = &f.body.blocks[1].ops;
        assert_eq!(ops[0].name, "scf.if");
        assert_eq!(ops[0].regions.len(), 2);
        assert_eq!(ops[1].results, vec!["%2#0", "%2#1"]);
        assert_eq!(ops[1].regions[0].blocks[0].ops[0].name, "scf.yield");
        assert_eq!(ops[2].name, "return");
    }
}
