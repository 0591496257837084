//! The result of an analysis and its JSON (docs/architecture.md, "`indexing --format json`")
//! and text forms.

use crate::opcode::Opcode;
use serde_json::{Value, json};

use crate::direction::Direction;
use crate::fusion::MapSet;
use crate::shape::ArrayShape;
use crate::utilization::Utilization;

/// Everything `xla-indexing indexing` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One report per analysed computation or instruction.
    pub computations: Vec<ComputationReport>,
    /// Instructions of the module whose op has no indexing.
    pub unsupported: Vec<Unsupported>,
}

/// An instruction the analysis cannot see through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The instruction's name.
    pub instruction: String,
    /// Its opcode.
    pub opcode: Opcode,
    /// The name of the computation that holds it.
    pub computation: String,
    /// 1-based line where the instruction starts.
    pub line: usize,
    /// 1-based column where the instruction starts.
    pub column: usize,
}

/// The maps of one fused computation, computation root or instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputationReport {
    /// The computation's name (as after `calls=`), or the instruction's with `--instruction`.
    pub name: String,
    /// Which way the maps go.
    pub direction: Direction,
    /// Out2in: the result leaves. In2out: the parameters (or operands).
    pub outputs: Vec<OutputReport>,
    /// What else holds of the instruction the maps are of (how many iterations a `while`
    /// runs).
    pub note: Option<String>,
}

/// One source of maps: a result leaf (out2in) or a parameter (in2out).
#[derive(Clone, Debug, PartialEq)]
pub struct OutputReport {
    /// Out2in: the result leaf. In2out: the parameter number (the operand's position with
    /// `--instruction`).
    pub output: usize,
    /// The leaf within a tuple-shaped parameter or operand (in2out), when it is one.
    pub leaf: Option<usize>,
    /// The shape of that leaf, parameter or operand.
    pub shape: ArrayShape,
    /// The maps to each target it reaches.
    pub operands: Vec<OperandReport>,
}

/// The maps from one output to one target: a parameter (out2in) or a result leaf (in2out).
#[derive(Clone, Debug, PartialEq)]
pub struct OperandReport {
    /// Out2in: the parameter number (the operand's position with `--instruction`). In2out: the
    /// result leaf.
    pub operand: usize,
    /// The leaf within a tuple-shaped parameter or operand, when it is one.
    pub leaf: Option<usize>,
    /// The target's shape.
    pub shape: ArrayShape,
    /// The maps from the output to the target.
    pub maps: MapSet,
    /// How much of the target the maps reach; `None` unless utilization was asked for, or when
    /// the target has more than 2^64 elements.
    pub utilization: Option<Utilization>,
}

impl Report {
    /// The JSON document of docs/architecture.md ("`indexing --format json`"). Operands that
    /// some path cannot reach through carry `"undefined"` with the reason; runtime variables
    /// name the map they belong to (`for_map`, an index into `maps`), and so do the participants
    /// of collectives (the position in the replica group of the device whose buffer a map
    /// reads).
    pub fn to_json(&self) -> Value {
        json!({
            "computations": self.computations.iter().map(ComputationReport::to_json).collect::<Vec<_>>(),
            "unsupported": self.unsupported.iter().map(|u| json!({
                "instruction": u.instruction,
                "opcode": u.opcode.as_str(),
                "computation": u.computation,
                "line": u.line,
                "column": u.column,
            })).collect::<Vec<_>>(),
        })
    }

    /// One block per computation, output and operand, maps in the canonical text form.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for c in &self.computations {
            c.write_text(&mut out);
        }
        out
    }
}

impl ComputationReport {
    fn to_json(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "direction": self.direction.as_str(),
            "outputs": self.outputs.iter().map(OutputReport::to_json).collect::<Vec<_>>(),
        });
        if let Some(note) = &self.note {
            v["note"] = json!(note);
        }
        v
    }

    /// One block per output-operand pair, or one line saying why there is none (an instruction
    /// without operands, such as `partition-id`, reads nothing).
    fn write_text(&self, out: &mut String) {
        if let Some(note) = &self.note {
            out.push_str(&format!("{} ({}): {note}\n\n", self.name, self.direction));
        }
        if self.outputs.iter().all(|o| o.operands.is_empty()) {
            let why = match self.direction {
                Direction::OutputToInput => "it reads no operand",
                Direction::InputToOutput => "no operand reaches an output",
            };
            out.push_str(&format!(
                "{} ({}): no maps: {why}\n",
                self.name, self.direction
            ));
            return;
        }
        for o in &self.outputs {
            for op in &o.operands {
                let (from, to) = self.direction.ends();
                out.push_str(&format!(
                    "{} ({}): {from} {}{} {} -> {to} {}{} {}\n",
                    self.name,
                    self.direction,
                    o.output,
                    leaf_suffix(o.leaf),
                    o.shape,
                    op.operand,
                    leaf_suffix(op.leaf),
                    op.shape
                ));
                op.write_text(out);
                out.push('\n');
            }
        }
    }
}

/// `.leaf` after an operand or output number, when it names a tuple leaf.
pub(crate) fn leaf_suffix(leaf: Option<usize>) -> String {
    leaf.map(|l| format!(".{l}")).unwrap_or_default()
}

impl OutputReport {
    fn to_json(&self) -> Value {
        let mut v = json!({
            "output": self.output,
            "shape": self.shape.dims,
            "operands": self.operands.iter().map(OperandReport::to_json).collect::<Vec<_>>(),
        });
        if let Some(l) = self.leaf {
            v["leaf"] = json!(l);
        }
        v
    }
}

impl OperandReport {
    fn to_json(&self) -> Value {
        let mut v = json!({
            "operand": self.operand,
            "shape": self.shape.dims,
            "maps": self.maps.accesses.iter().map(|a| a.map.to_string()).collect::<Vec<_>>(),
        });
        if let Some(l) = self.leaf {
            v["leaf"] = json!(l);
        }
        let runtime: Vec<Value> = self
            .maps
            .accesses
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                a.runtime.iter().enumerate().map(move |(k, rt)| {
                    json!({
                        "var": format!("rt{k}"),
                        "instruction": rt.instruction,
                        "map": rt.map.to_string(),
                        "for_map": i,
                    })
                })
            })
            .collect();
        if !runtime.is_empty() {
            v["runtime_vars"] = Value::Array(runtime);
        }
        let participants: Vec<Value> = self
            .maps
            .accesses
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                a.participants.iter().map(move |p| {
                    json!({
                        "instruction": p.instruction,
                        "map": p.map.to_string(),
                        "for_map": i,
                    })
                })
            })
            .collect();
        if !participants.is_empty() {
            v["participants"] = Value::Array(participants);
        }
        if let Some(reason) = &self.maps.undefined {
            v["undefined"] = json!(reason);
        }
        if let Some(u) = &self.utilization {
            v["utilization"] = json!({ "read": u.read, "total": u.total });
        }
        v
    }

    fn write_text(&self, out: &mut String) {
        if self.maps.accesses.is_empty() && self.maps.undefined.is_none() {
            out.push_str("  (not read)\n");
        }
        for a in &self.maps.accesses {
            out.push_str(&format!("  {}\n", a.map));
            for (k, rt) in a.runtime.iter().enumerate() {
                out.push_str(&format!("    rt{k}: {} at {}\n", rt.instruction, rt.map));
            }
            for p in &a.participants {
                out.push_str(&format!(
                    "    participant of {}: {}\n",
                    p.instruction, p.map
                ));
            }
        }
        if let Some(reason) = &self.maps.undefined {
            out.push_str(&format!("  undefined: {reason}\n"));
        }
        if let Some(u) = &self.utilization {
            match (u.read, u.fraction()) {
                (Some(r), Some(f)) => out.push_str(&format!(
                    "  utilization: {r} of {} elements ({:.1}%)\n",
                    u.total,
                    f * 100.0
                )),
                _ => out.push_str(&format!("  utilization: unknown of {} elements\n", u.total)),
            }
        }
    }
}
