//! Invariants that hold for every input text. The `tc_parser` and `sched_parser` fuzz targets in
//! `fuzz/` and the test that replays their corpora call these functions; a violation panics with
//! a description of the input.

use std::collections::BTreeMap;

use crate::error::LoopsError;

/// Tensor Comprehensions text: parsing and range inference never panic, errors point inside the
/// text, and a report prints as text and JSON.
pub fn tc_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match crate::tc::parse(text).and_then(|p| crate::tc::infer(&p, &BTreeMap::new())) {
        Ok(report) => {
            report.to_text();
            report.to_json();
        }
        Err(e) => check_location(text, &e),
    }
}

/// Schedule text: parsing and bound inference never panic, errors point inside the text, and a
/// report prints as JSON, and as text and MLIR or says why it cannot.
pub fn sched_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match crate::sched::parse(text).and_then(|s| crate::sched::infer_bounds(&s)) {
        Ok(report) => {
            report.to_json();
            for printed in [report.to_text(), report.to_mlir()] {
                if let Err(e) = printed {
                    check_location(text, &e);
                }
            }
        }
        Err(e) => check_location(text, &e),
    }
}

/// An error's line and column, when it has them, lie within `text` (one past the end of a line
/// or of the text is where an unexpected end points).
fn check_location(text: &str, e: &LoopsError) {
    if e.line == 0 {
        return;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        e.line <= lines.len(),
        "{text:?}: error {e} points at line {} of {}",
        e.line,
        lines.len()
    );
    let len = lines[e.line - 1].len();
    assert!(
        e.column >= 1 && e.column <= len + 1,
        "{text:?}: error {e} points at column {} of a {len}-byte line",
        e.column
    );
}
