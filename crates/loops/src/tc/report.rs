//! The result of TC range inference, as text and as the JSON of docs/architecture.md
//! ("`ranges --format json`").
//!
//! JSON: `{"ranges": {"i": ["11 - I", "10"]}, "sizes": {"A": ["I"]}, "warnings": []}` for one
//! definition (bounds inclusive, strings always), `{"defs": {"name": {...}}}` for several. Index
//! variables belong to their statement: when a definition has several statements, range keys
//! name the statement too, `i@2` for `i` in the second.

use std::fmt::Write;

use serde_json::{Map, Value, json};

/// Range inference of a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeReport {
    /// One report per definition, in file order.
    pub defs: Vec<DefReport>,
}

/// One definition: per statement the ranges, the sizes of its outputs, its warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefReport {
    /// The definition's name.
    pub name: String,
    /// One report per statement, in order.
    pub stmts: Vec<StmtReport>,
    /// The inferred size of each output, in order.
    pub sizes: Vec<TensorSize>,
    /// Warnings about the definition, such as preconditions the inference could not check.
    pub warnings: Vec<String>,
}

/// One statement: its text, `(variable, lo, hi)` per index variable (inclusive), and the
/// indexing map of every read, `(access, map)` (only when every range is a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StmtReport {
    /// The statement as printed back (`A(i) = B(10 - i)`).
    pub text: String,
    /// `(variable, lo, hi)` per index variable, bounds printed (inclusive).
    pub ranges: Vec<(String, String, String)>,
    /// `(access, map)` per read: the access as written and its indexing map as printed.
    pub maps: Vec<(String, String)>,
}

/// The size of each dimension of an output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSize {
    /// The output's name.
    pub tensor: String,
    /// The size of each dimension, printed (`I`, `N - 2`).
    pub dims: Vec<String>,
}

impl DefReport {
    /// The JSON object of one definition.
    pub fn to_json(&self) -> Value {
        let mut ranges = Map::new();
        let qualify = self.stmts.len() > 1;
        for (k, s) in self.stmts.iter().enumerate() {
            for (var, lo, hi) in &s.ranges {
                let key = if qualify {
                    format!("{var}@{}", k + 1)
                } else {
                    var.clone()
                };
                ranges.insert(key, json!([lo, hi]));
            }
        }
        let sizes: Map<String, Value> = self
            .sizes
            .iter()
            .map(|t| (t.tensor.clone(), json!(t.dims)))
            .collect();
        json!({ "ranges": ranges, "sizes": sizes, "warnings": self.warnings })
    }

    fn write_text(&self, out: &mut String) {
        let _ = writeln!(out, "def {}", self.name);
        for s in &self.stmts {
            let _ = writeln!(out, "  {}", s.text);
            for (var, lo, hi) in &s.ranges {
                let _ = writeln!(out, "    {var} in [{lo}, {hi}]");
            }
            for (access, map) in &s.maps {
                let _ = writeln!(out, "    {access}: {map}");
            }
        }
        for t in &self.sizes {
            let _ = writeln!(out, "  size {}[{}]", t.tensor, t.dims.join(", "));
        }
        for w in &self.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
    }
}

impl RangeReport {
    /// `ranges --format json`, as docs/architecture.md describes it.
    pub fn to_json(&self) -> Value {
        match self.defs.as_slice() {
            [one] => one.to_json(),
            defs => {
                let all: Map<String, Value> =
                    defs.iter().map(|d| (d.name.clone(), d.to_json())).collect();
                json!({ "defs": all })
            }
        }
    }

    /// Human-readable form: per definition and statement the ranges and access maps, then
    /// output sizes and warnings.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for d in &self.defs {
            d.write_text(&mut out);
        }
        out
    }

    /// Every warning, prefixed with its definition's name when the file has several.
    pub fn warnings(&self) -> Vec<String> {
        let several = self.defs.len() > 1;
        self.defs
            .iter()
            .flat_map(|d| {
                d.warnings.iter().map(move |w| {
                    if several {
                        format!("{}: {w}", d.name)
                    } else {
                        w.clone()
                    }
                })
            })
            .collect()
    }
}
