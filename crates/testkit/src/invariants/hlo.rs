//! What the HLO layer (`xla-indexing-hlo`) keeps on any text: the `hlo_parser` fuzz target and
//! the test that replays its corpus call [`hlo_text_is_handled`]; a violation panics with a
//! description of the input.

use xla_indexing_hlo::{Direction, HloError, Options, analyze_module, parse_module};

use super::assert_inside;

/// HLO text: parsing and the analysis of a parsed module, in both directions, never panic; every
/// error that names a place names one inside the text; every map of a report verifies; reports
/// print as text and JSON.
pub fn hlo_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let check_location = |e: &HloError| {
        if let Some((line, column)) = e.location() {
            assert_inside(text, line, column, str::len, e);
        }
    };
    let module = match parse_module(text) {
        Ok(module) => module,
        Err(e) => return check_location(&e),
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
            Err(e) => check_location(&e),
        }
    }
}
