//! What the loop-bound layer (`xla-indexing-loops`) keeps on any text: the `tc_parser` and
//! `sched_parser` fuzz targets and the test that replays their corpora call these functions; a
//! violation panics with a description of the input.

use std::collections::BTreeMap;

use xla_indexing_loops::{LoopsError, sched, tc};

use super::assert_inside;

/// Tensor Comprehensions text: parsing and range inference never panic, errors point inside the
/// text, and a report prints as text and JSON.
pub fn tc_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match tc::parse(text).and_then(|p| tc::infer(&p, &BTreeMap::new())) {
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
    match sched::parse(text).and_then(|s| sched::infer_bounds(&s)) {
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

/// An error's line and column, when it has them (line 0 when it has none), lie within `text`.
fn check_location(text: &str, e: &LoopsError) {
    if e.line != 0 {
        assert_inside(text, e.line, e.column, str::len, e);
    }
}
