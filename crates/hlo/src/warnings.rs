//! The warnings of a [`Report`]: what the analysis skipped and which maps it left incomplete,
//! summarised so that a module of thousands of instructions gives a few lines.

use crate::opcode::Opcode;
use crate::parser::cursor::Pos;
use crate::report::{ComputationReport, Report, Unsupported, leaf_suffix};

/// A warning about the module: what the analysis skipped or could not map, at the instruction
/// it is about when there is one (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The warning's text.
    pub message: String,
    /// Where the instruction the warning is about starts, when there is one.
    pub at: Option<Pos>,
}

impl Report {
    /// The skipped instructions (one warning at the instruction when there is one, else one line
    /// counting them by opcode), then one warning per computation and reason of incomplete maps
    /// (however many output-operand pairs share it), but for those of a skipped instruction
    /// asked for alone.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut w: Vec<Warning> = skipped(&self.unsupported).into_iter().collect();
        for c in &self.computations {
            // The maps of a skipped instruction asked for alone: its own warning says why.
            if !self.unsupported.iter().any(|u| u.instruction == c.name) {
                w.extend(incomplete(c));
            }
        }
        w
    }
}

/// The warning about the instructions without maps, if any.
fn skipped(unsupported: &[Unsupported]) -> Option<Warning> {
    match unsupported {
        [] => None,
        [u] => Some(Warning {
            message: format!(
                "{} ({} in {}) has no indexing; skipped",
                u.instruction, u.opcode, u.computation
            ),
            at: Some(Pos {
                line: u.line,
                column: u.column,
            }),
        }),
        many => {
            let mut counts: Vec<(Opcode, usize)> = Vec::new();
            for u in many {
                match counts.iter_mut().find(|(op, _)| *op == u.opcode) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((u.opcode, 1)),
                }
            }
            counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let listed: Vec<String> = counts.iter().map(|(op, n)| format!("{op} {n}")).collect();
            Some(Warning {
                message: format!(
                    "{} instructions without maps: {}; skipped (--format json lists them)",
                    many.len(),
                    listed.join(", ")
                ),
                at: None,
            })
        }
    }
}

/// One warning per reason (and place) that leaves maps of `c` incomplete, naming the first
/// output-operand pair it applies to and how many more share it.
fn incomplete(c: &ComputationReport) -> Vec<Warning> {
    let (from, to) = c.direction.ends();
    let mut groups: Vec<Incomplete<'_>> = Vec::new();
    for o in &c.outputs {
        for op in &o.operands {
            let Some(reason) = &op.maps.undefined else {
                continue;
            };
            let at = op.maps.undefined_at;
            match groups.iter_mut().find(|g| g.reason == reason && g.at == at) {
                Some(g) => g.pairs += 1,
                None => groups.push(Incomplete {
                    reason,
                    at,
                    first: format!(
                        "{from} {}{} to {to} {}{}",
                        o.output,
                        leaf_suffix(o.leaf),
                        op.operand,
                        leaf_suffix(op.leaf)
                    ),
                    pairs: 1,
                }),
            }
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let pairs = match g.pairs {
                1 => g.first,
                n => format!("{} and {} more pairs", g.first, n - 1),
            };
            Warning {
                message: format!("{}: {pairs}: maps incomplete: {}", c.name, g.reason),
                at: g.at,
            }
        })
        .collect()
}

/// The output-operand pairs of one computation whose maps one reason leaves incomplete.
struct Incomplete<'a> {
    reason: &'a str,
    at: Option<Pos>,
    /// The first pair, as `output 0 to operand 1.2`.
    first: String,
    pairs: usize,
}
