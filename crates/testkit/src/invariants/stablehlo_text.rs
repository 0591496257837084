//! What `to_generic` (`xla-indexing-stablehlo-text`) keeps on any text, checked by the
//! `stablehlo_text` fuzz target and by the tests that replay its corpus or mutate the JAX
//! corpus.

use xla_indexing_stablehlo_text::to_generic;

use super::assert_inside;

/// Converts `data` (when it is UTF-8) and panics unless: text comes back with as many lines as
/// it had, or an error points at a line and column inside the text and says something.
pub fn pretty_text_is_handled(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match to_generic(text) {
        Ok(out) => assert_eq!(
            out.matches('\n').count(),
            text.matches('\n').count(),
            "the conversion moved lines:\n{text}\n---\n{out}"
        ),
        Err(e) => {
            assert_inside(text, e.line, e.column, |line| line.chars().count(), &e);
            assert!(!e.message.is_empty(), "an error without a message at {e}");
        }
    }
}
