//! The attribute converters of the op table, in both directions: [`Attr::to_mlir`] writes an
//! HLO instruction's attributes as the properties of its StableHLO-like op, [`Attr::to_hlo`]
//! writes an op's attributes as HLO attribute text.
//!
//! Attributes of an op are looked up by their StableHLO names (an unregistered op's properties
//! can be read by name but not listed); `#stablehlo.dot<...>`, `#stablehlo.conv<...>` and
//! `#stablehlo.gather<...>` arrive as opaque attributes and are read from their text.

use std::fmt::{Display, Write as _};
use xla_indexing_hlo::Opcode;

use melior::ir::{Attribute, OperationRef, operation::OperationLike};
use xla_indexing_hlo::{Instruction, attrs::AttrValue, shape::Shape};

use super::{Attr, DimensionNumbers, Skip, Triples, literal, window};
use xla_indexing_mlir::ir::{integer_attribute, integers as ints};

/// An HLO instruction being imported, and what its attributes become.
pub(crate) struct ToMlir<'a> {
    /// The instruction.
    pub(crate) instr: &'a Instruction,
    /// The shapes of its operands.
    pub(crate) operand_shapes: &'a [&'a Shape],
    /// The properties of its op so far (`permutation = array<i64: 1, 0>`).
    pub(crate) properties: Vec<String>,
    /// What could not be carried over.
    pub(crate) warnings: Vec<String>,
}

impl<'a> ToMlir<'a> {
    /// An import of `instr`, whose operands have the shapes `operand_shapes`.
    pub(crate) fn new(instr: &'a Instruction, operand_shapes: &'a [&'a Shape]) -> ToMlir<'a> {
        ToMlir {
            instr,
            operand_shapes,
            properties: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Adds the property `key = value`.
    pub(crate) fn push(&mut self, key: &str, value: impl Display) {
        self.properties.push(format!("{key} = {value}"));
    }
}

/// A StableHLO-like op being translated into an HLO instruction, and what its attributes
/// become.
pub(crate) struct ToHlo<'a, 'c, 'o> {
    /// The op.
    pub(crate) op: &'a OperationRef<'c, 'o>,
    /// Its name (`stablehlo.add`).
    pub(crate) op_name: &'a str,
    /// The name of the instruction, from which instructions it needs first are named.
    pub(crate) name: &'a str,
    /// The HLO shapes of its operands.
    pub(crate) operands: &'a [String],
    /// The HLO shape of its result.
    pub(crate) result: &'a str,
    /// The HLO opcode of the instruction.
    pub(crate) opcode: Opcode,
    /// The HLO values of the instruction's operands (`%p0`).
    pub(crate) uses: Vec<String>,
    /// Instructions it needs first, as (name, `SHAPE OPCODE(...)...`), in order.
    pub(crate) prelude: Vec<(String, String)>,
    /// Its attributes as HLO text: `, key=value, ...`.
    pub(crate) attributes: String,
}

impl<'c> ToHlo<'_, 'c, '_> {
    /// The op's attribute `key`.
    pub(crate) fn attr(&self, key: &str) -> Option<Attribute<'c>> {
        self.op.attribute(key).ok()
    }

    /// The integers of the op's attribute `key`.
    pub(crate) fn ints(&self, key: &str) -> Option<Vec<i64>> {
        self.attr(key).and_then(ints)
    }

    /// The integers of the op's attribute `key`, which it must have.
    pub(super) fn required_ints(&self, key: &str) -> Result<Vec<i64>, Skip> {
        self.ints(key).ok_or_else(|| {
            Skip::Unsupported(format!("'{}' has no integer list '{key}'", self.op_name))
        })
    }

    /// The integer of the op's attribute `key`, or `default`; it must have one without.
    fn int(&self, key: &str, default: Option<i64>) -> Result<i64, Skip> {
        self.attr(key)
            .and_then(integer_attribute)
            .or(default)
            .ok_or_else(|| Skip::Unsupported(format!("'{}' has no '{key}'", self.op_name)))
    }

    /// The text of the op's attribute `key`, or empty.
    pub(crate) fn text(&self, key: &str) -> String {
        self.attr(key).map(|a| a.to_string()).unwrap_or_default()
    }

    /// Why the op cannot be translated: `what`.
    pub(crate) fn unsupported(&self, what: &str) -> Skip {
        Skip::Unsupported(format!("'{}': {what}", self.op_name))
    }

    /// Adds the HLO attribute `key=value`.
    pub(crate) fn push(&mut self, key: &str, value: impl Display) {
        let _ = write!(self.attributes, ", {key}={value}");
    }
}

impl Attr {
    /// Adds what this attribute of `to`'s instruction becomes to its properties; `None` when the
    /// instruction lacks the attribute (the op is then written generically).
    pub(crate) fn to_mlir(&self, to: &mut ToMlir) -> Option<()> {
        let instr = to.instr;
        match *self {
            Attr::Array(hlo, mlir) | Attr::Broadcast(hlo, mlir) => {
                to.push(mlir, array_text(instr.ints(hlo)?));
            }
            Attr::Int(hlo, mlir, default) => {
                to.push(mlir, format!("{} : i64", instr.int(hlo).or(default)?));
            }
            Attr::I32(hlo, mlir) => {
                let value = match instr.attr(hlo)? {
                    AttrValue::Int(v) => i32::try_from(*v).ok()?,
                    AttrValue::Raw(text) => text.parse().ok()?,
                    _ => return None,
                };
                to.push(mlir, format!("{value} : i32"));
            }
            Attr::One(hlo, mlir) => {
                to.push(mlir, format!("{} : i64", instr.ints(hlo)?.first()?));
            }
            Attr::Enum(hlo, mlir) => {
                if let Some(AttrValue::Raw(value)) = instr.attr(hlo) {
                    to.push(mlir, format!("#stablehlo<{mlir} {value}>"));
                }
            }
            Attr::Str(hlo, mlir) => match instr.attr(hlo)? {
                AttrValue::Raw(text) if text.starts_with('"') => to.push(mlir, text),
                _ => return None,
            },
            Attr::Literal(mlir) => literal::to_mlir(to, mlir),
            Attr::Triples(ref triples) => triples.to_mlir(to)?,
            Attr::DimensionNumbers(ref numbers) => numbers.to_mlir(to),
            Attr::Window(names) => names.to_mlir(to)?,
            Attr::ConvLabels => window::labels_to_mlir(to)?,
        }
        Some(())
    }

    /// Adds what this attribute of `to`'s op becomes to its instruction.
    pub(crate) fn to_hlo(&self, to: &mut ToHlo) -> Result<(), Skip> {
        match *self {
            Attr::Array(hlo, mlir) => {
                let values = to.required_ints(mlir)?;
                to.push(hlo, braces(&values));
            }
            Attr::Broadcast(hlo, mlir) => {
                let dims = to.required_ints(mlir)?;
                let dims = squeeze(to, &dims);
                to.push(hlo, braces(&dims));
            }
            Attr::Int(hlo, mlir, default) => {
                let value = to.int(mlir, default)?;
                to.push(hlo, value);
            }
            Attr::I32(hlo, mlir) => {
                let value = to.int(mlir, None)?;
                to.push(hlo, value);
            }
            Attr::One(hlo, mlir) => {
                let value = to.int(mlir, None)?;
                to.push(hlo, format!("{{{value}}}"));
            }
            Attr::Enum(hlo, mlir) => {
                let text = to.text(mlir);
                let value = text
                    .rsplit(' ')
                    .next()
                    .unwrap_or("EQ")
                    .trim_end_matches('>');
                to.push(hlo, value);
            }
            Attr::Str(hlo, mlir) => {
                let text = to.text(mlir);
                if !text.starts_with('"') {
                    return Err(to.unsupported(&format!("'{mlir}' is no string")));
                }
                to.push(hlo, text);
            }
            Attr::Literal(mlir) => literal::to_hlo(to, mlir)?,
            Attr::Triples(ref triples) => triples.to_hlo(to)?,
            Attr::DimensionNumbers(ref numbers) => numbers.to_hlo(to),
            Attr::Window(names) => names.to_hlo(to)?,
            Attr::ConvLabels => window::labels_to_hlo(to)?,
        }
        Ok(())
    }
}

impl Triples {
    /// A StableHLO array per place of the triples.
    fn to_mlir(&self, to: &mut ToMlir) -> Option<()> {
        let dims = (self.read)(to.instr.attr(self.hlo)?)?;
        for (place, key) in self.mlir.iter().enumerate() {
            let values: Vec<i64> = dims.iter().map(|d| d[place]).collect();
            to.push(key, array_text(&values));
        }
        Some(())
    }

    /// The HLO attribute of the three StableHLO arrays.
    fn to_hlo(&self, to: &mut ToHlo) -> Result<(), Skip> {
        let [first, second, third] = self.mlir;
        let (first, second, third) = (
            to.required_ints(first)?,
            to.required_ints(second)?,
            to.required_ints(third)?,
        );
        let dims: Vec<String> = first
            .iter()
            .zip(&second)
            .zip(&third)
            .map(|((&a, &b), &c)| (self.write)(&[a, b, c]))
            .collect();
        let [before, between, after] = self.around;
        to.push(self.hlo, format!("{before}{}{after}", dims.join(between)));
        Ok(())
    }
}

impl DimensionNumbers {
    /// `mlir = #stablehlo.KIND<field = [..], ..., field = n>`.
    fn to_mlir(&self, to: &mut ToMlir) {
        let instr = to.instr;
        let mut fields: Vec<String> = self
            .lists
            .iter()
            .map(|(hlo, mlir)| format!("{mlir} = {}", list_text(instr.ints(hlo).unwrap_or(&[]))))
            .collect();
        if let Some((hlo, mlir)) = self.int {
            fields.push(format!("{mlir} = {}", instr.int(hlo).unwrap_or(0)));
        }
        to.push(
            self.mlir,
            format!("#stablehlo.{}<{}>", self.kind, fields.join(", ")),
        );
    }

    /// An HLO attribute per field of the opaque attribute.
    fn to_hlo(&self, to: &mut ToHlo) {
        let text = to.text(self.mlir);
        for (hlo, mlir) in self.lists {
            to.push(hlo, braces(&opaque_list(&text, mlir)));
        }
        if let Some((hlo, mlir)) = self.int {
            to.push(hlo, opaque_int(&text, mlir).unwrap_or(0));
        }
    }
}

/// The broadcast dimensions `dims` that HLO keeps: StableHLO also broadcasts dimensions of size 1
/// to any size, which HLO first reshapes away (an instruction of the prelude).
fn squeeze(to: &mut ToHlo, dims: &[i64]) -> Vec<i64> {
    let (from, target) = (sizes(&to.operands[0]), sizes(to.result));
    let kept: Vec<usize> = (0..dims.len())
        .filter(|&i| {
            let size = usize::try_from(dims[i]).ok().and_then(|d| target.get(d));
            !(from.get(i) == Some(&1) && size.is_some_and(|&t| t != 1))
        })
        .collect();
    if kept.len() != dims.len() {
        let element = to.operands[0].split('[').next().unwrap_or("f32");
        let kept_sizes: Vec<i64> = kept.iter().map(|&i| from[i]).collect();
        let shape = format!("{element}[{}]", join_ints(&kept_sizes, ","));
        let squeezed = format!("{}.squeezed", to.name);
        let reshape = format!("{shape} reshape({})", to.uses[0]);
        to.prelude.push((squeezed.clone(), reshape));
        to.uses[0] = format!("%{squeezed}");
    }
    kept.iter().map(|&i| dims[i]).collect()
}

/// The integer list named `key` inside an opaque attribute's text: `key = [1, 2]`.
fn opaque_list(text: &str, key: &str) -> Vec<i64> {
    let Some(start) = find_key(text, key) else {
        return Vec::new();
    };
    let rest = &text[start..];
    let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

/// The integer named `key` inside an opaque attribute's text: `key = 1`.
fn opaque_int(text: &str, key: &str) -> Option<i64> {
    let rest = &text[find_key(text, key)?..];
    let value = rest.split_once('=')?.1.trim_start();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(value.len());
    value[..end].parse().ok()
}

/// Where `key` starts as a whole word followed by `=`.
fn find_key(text: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(key) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with('=') {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}

/// `{a,b,c}`: an HLO integer list.
pub(super) fn braces(values: &[i64]) -> String {
    format!("{{{}}}", join_ints(values, ","))
}

/// The integers joined by `separator`.
pub(super) fn join_ints(values: &[i64], separator: &str) -> String {
    let items: Vec<String> = values.iter().map(i64::to_string).collect();
    items.join(separator)
}

/// `array<i64: 1, 0>`: a StableHLO array.
pub(super) fn array_text(values: &[i64]) -> String {
    if values.is_empty() {
        return "array<i64>".into();
    }
    format!("array<i64: {}>", join_ints(values, ", "))
}

/// `[1, 0]`: a list in a StableHLO attribute.
fn list_text(values: &[i64]) -> String {
    format!("[{}]", join_ints(values, ", "))
}

/// The dimension sizes of an HLO array shape `f32[2,3]`.
pub(super) fn sizes(shape: &str) -> Vec<i64> {
    shape
        .split_once('[')
        .map(|(_, d)| {
            d.trim_end_matches(']')
                .split(',')
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_attributes_are_read_by_key() {
        let dot = "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
                   lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>";
        assert_eq!(opaque_list(dot, "lhs_contracting_dimensions"), vec![2]);
        assert_eq!(opaque_list(dot, "rhs_batching_dimensions"), vec![0]);
        assert_eq!(opaque_list(dot, "offset_dims"), Vec::<i64>::new());
        let gather = "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], \
                      start_index_map = [0], index_vector_dim = 1>";
        assert_eq!(opaque_int(gather, "index_vector_dim"), Some(1));
        assert_eq!(opaque_list(gather, "start_index_map"), vec![0]);
    }
}
