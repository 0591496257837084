//! TVM's InferBound on a schedule written as the seed writes it (see [`parser`]), exact where
//! TVM over-approximates (see [`bound`]).
//!
//! ```
//! let text = "A = placeholder((4, 4))\n\
//!             B = compute((4, 4), lambda bi, bj: A[bi, bj] + 2)\n\
//!             C = compute((4, 4), lambda ci, cj: B[ci, cj] * 3)\n\
//!             s = create_schedule(C)\n\
//!             f = s[C].fuse(C.op.axis[0], C.op.axis[1])\n\
//!             xo, xi = s[C].split(f, 4)\n\
//!             s[B].compute_at(s[C], xo)\n";
//! let report = xla_indexing_loops::sched::infer_bounds(&xla_indexing_loops::sched::parse(text).unwrap()).unwrap();
//! let b = &report.to_json()["stages"]["B"];
//! assert_eq!(b["realize"].to_string(), r#"[{"min":"ci.cj.fused.outer","extent":"1"},{"min":"0","extent":"4"}]"#);
//! ```

pub mod ast;
pub mod bound;
pub mod graph;
pub mod lower;
pub mod mlir;
pub mod parser;
pub mod report;

pub use graph::Schedule;
pub use report::BoundsReport;

use crate::error::LoopsError;

/// Parses and interprets a schedule file.
pub fn parse(text: &str) -> Result<Schedule, LoopsError> {
    graph::interpret(&parser::parse_lines(text)?)
}

/// Infers the bounds of every stage.
pub fn infer_bounds(schedule: &Schedule) -> Result<BoundsReport, LoopsError> {
    Ok(BoundsReport {
        bounds: bound::infer(schedule)?,
        schedule: schedule.clone(),
    })
}
