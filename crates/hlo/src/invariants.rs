//! Invariants that hold for every input text. The `hlo_parser` fuzz target in `fuzz/` and the
//! test that replays its corpus call [`hlo_text_is_handled`]; a violation panics with a
//! description of the input.

use crate::{Direction, HloError, Options, analyze_module, parse_module};

/// HLO text: parsing and the analysis of a parsed module, in both directions, never panic; every
/// error that names a place names one inside the text; every map of a report verifies; reports
/// print as text and JSON.
pub fn hlo_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let module = match parse_module(text) {
        Ok(module) => module,
        Err(e) => return check_location(text, &e),
    };
    for direction in [Direction::OutputToInput, Direction::InputToOutput] {
        let options = Options {
            direction,
            utilization: true,
            ..Options::default()
        };
        match analyze_module(&module, &options) {
            Ok(report) => {
                for c in &report.computations {
                    for o in &c.outputs {
                        for op in &o.operands {
                            for a in &op.maps.accesses {
                                a.map.verify().unwrap_or_else(|e| {
                                    panic!("{text:?} gave the map {}, which fails: {e}", a.map)
                                });
                            }
                        }
                    }
                }
                report.to_text();
                report.to_json();
            }
            Err(e) => check_location(text, &e),
        }
    }
}

/// An error's line and column lie within `text` (one past the end of a line or of the text is
/// where an unexpected end points).
fn check_location(text: &str, e: &HloError) {
    let Some((line, column)) = e.location() else {
        return;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        (1..=lines.len()).contains(&line),
        "{text:?}: error {e} points at line {line} of {}",
        lines.len()
    );
    assert!(
        column >= 1 && column <= lines[line - 1].len() + 1,
        "{text:?}: error {e} points at column {column} of a {}-byte line",
        lines[line - 1].len()
    );
}
