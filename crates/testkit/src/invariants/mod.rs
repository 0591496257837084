//! Invariants that hold for every input, one module per layer (each behind the layer's
//! feature). The fuzz targets in `fuzz/` and the tests that replay their corpora
//! ([`crate::corpus`]) call them; a violation panics, or is returned, with a description of the
//! input.
//!
//! * [`maps`] (feature `core`): map text round-trips; simplification is sound and idempotent.
//! * [`hlo`] (feature `hlo`): HLO text is parsed and analysed without panics, errors point
//!   inside it, and every map of a report verifies.
//! * [`loops`] (feature `loops`): Tensor Comprehensions and schedule text likewise.
//! * [`stablehlo_text`] (feature `stablehlo-text`): StableHLO's pretty form keeps its lines.
//! * [`passes`] (feature `passes`): the index passes keep every value where it is defined.

#[cfg(feature = "hlo")]
pub mod hlo;
#[cfg(feature = "loops")]
pub mod loops;
#[cfg(feature = "core")]
pub mod maps;
#[cfg(feature = "passes")]
pub mod passes;
#[cfg(feature = "stablehlo-text")]
pub mod stablehlo_text;

/// Panics unless `line` and `column` (both from 1), where `error` points, lie within `text`:
/// one past the end of a line, or of the text, is where an unexpected end points. `width` is
/// the number of columns of a line, as the layer counts them (bytes or characters).
#[cfg(any(feature = "hlo", feature = "loops", feature = "stablehlo-text"))]
fn assert_inside(
    text: &str,
    line: usize,
    column: usize,
    width: impl Fn(&str) -> usize,
    error: &dyn std::fmt::Display,
) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        (1..=lines.len()).contains(&line),
        "{text:?}: error {error} points at line {line} of {}",
        lines.len()
    );
    let width = width(lines[line - 1]);
    assert!(
        (1..=width + 1).contains(&column),
        "{text:?}: error {error} points at column {column} of a line of {width}"
    );
}
