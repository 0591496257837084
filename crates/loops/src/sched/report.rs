//! The result of bound inference: JSON as docs/architecture.md ("`bounds --format json`")
//! describes it, text with every IterVar's range, every stage's realized region and the loop
//! nest, and MLIR.
//!
//! JSON: `{"stages": {"B": {"itervars": {"bi": {"min": .., "extent": ..}, ..}, "attach_path":
//! [..], "realize": [{"min": .., "extent": ..}, ..], "exact": null}}}`, compute stages only,
//! attach paths outermost first. `exact` is `null` when the realized box is exactly what the
//! consumers read, else the indexing map from the attach path to the needed elements (a list of
//! maps when the stage is read in several ways).

use std::fmt::Write;

use serde_json::{Map, Value, json};
use xla_indexing_core::print::Names;

use crate::sched::bound::Bounds;
use crate::sched::graph::Schedule;
use crate::symbolic::expr_to_string;

/// The printed bounds of one compute stage.
struct StageRow {
    name: String,
    /// `(itervar, min, extent)`.
    itervars: Vec<(String, String, String)>,
    path: Vec<String>,
    /// `(min, extent)` per axis.
    realize: Vec<(String, String)>,
    exact: Vec<String>,
}

/// A schedule with its inferred bounds.
#[derive(Clone, Debug)]
pub struct BoundsReport {
    /// The schedule analysed.
    pub schedule: Schedule,
    /// The inferred bounds of its stages.
    pub bounds: Bounds,
}

impl BoundsReport {
    /// One row per compute stage, as printed strings.
    fn rows(&self) -> Vec<StageRow> {
        let iv_names = self.schedule.iv_names();
        let names = Names {
            dims: &iv_names,
            syms: &[],
        };
        let mut rows = Vec::new();
        for (s, stage) in self.schedule.stages.iter().enumerate() {
            let Some(b) = &self.bounds.stages[s] else {
                continue;
            };
            let itervars = b
                .ranges
                .iter()
                .map(|(iv, (lo, ext))| {
                    (
                        iv_names[*iv].clone(),
                        expr_to_string(lo, &names),
                        ext.display(&names).to_string(),
                    )
                })
                .collect();
            let path = b.attach_path.iter().map(|v| iv_names[*v].clone()).collect();
            let realize = b
                .realize(&self.schedule, s)
                .map(|(lo, ext)| (expr_to_string(lo, &names), ext.display(&names).to_string()))
                .collect();
            let exact = b.exact.iter().map(ToString::to_string).collect();
            rows.push(StageRow {
                name: stage.name.clone(),
                itervars,
                path,
                realize,
                exact,
            });
        }
        rows
    }

    /// `bounds --format json`, as docs/architecture.md describes it.
    pub fn to_json(&self) -> Value {
        let mut stages = Map::new();
        for StageRow {
            name,
            itervars,
            path,
            realize,
            exact,
        } in self.rows()
        {
            let ivs: Map<String, Value> = itervars
                .into_iter()
                .map(|(n, lo, ext)| (n, json!({ "min": lo, "extent": ext })))
                .collect();
            let realize: Vec<Value> = realize
                .into_iter()
                .map(|(lo, ext)| json!({ "min": lo, "extent": ext }))
                .collect();
            let exact = match exact.as_slice() {
                [] => Value::Null,
                [one] => json!(one),
                many => json!(many),
            };
            stages.insert(
                name,
                json!({ "itervars": ivs, "attach_path": path, "realize": realize, "exact": exact }),
            );
        }
        json!({ "stages": stages })
    }

    /// The lowered loop nest as an MLIR function of `affine.for` loops (see [`crate::sched::mlir`]).
    pub fn to_mlir(&self) -> Result<String, crate::error::LoopsError> {
        crate::sched::mlir::loop_nest_mlir(&self.schedule, &self.bounds)
    }

    /// Itervar ranges and realized regions per stage, then the loop nest (see
    /// [`crate::sched::lower::loop_nest`] for when it fails).
    pub fn to_text(&self) -> Result<String, crate::error::LoopsError> {
        let mut out = String::new();
        for StageRow {
            name,
            itervars,
            path,
            realize,
            exact,
        } in self.rows()
        {
            let _ = writeln!(out, "stage {name}");
            for (n, lo, ext) in itervars {
                let _ = writeln!(out, "  {n}: min {lo}, extent {ext}");
            }
            if !path.is_empty() {
                let _ = writeln!(out, "  attach path: {}", path.join(", "));
            }
            let region: Vec<String> = realize
                .iter()
                .map(|(lo, ext)| format!("[{lo}, {ext}]"))
                .collect();
            let _ = writeln!(out, "  realize {name}({})", region.join(", "));
            for m in exact {
                let _ = writeln!(out, "  exact: {m}");
            }
        }
        out.push('\n');
        out.push_str(&crate::sched::lower::loop_nest(
            &self.schedule,
            &self.bounds,
        )?);
        Ok(out)
    }
}
