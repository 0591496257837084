//! What `to_generic` keeps on any input, checked by the `stablehlo_text` fuzz target and by the
//! tests that replay its corpus or mutate the JAX corpus.

use crate::to_generic;

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
            let lines: Vec<&str> = text.split('\n').collect();
            assert!(
                (1..=lines.len()).contains(&e.line),
                "line {} of {}: {e}",
                e.line,
                lines.len()
            );
            let width = lines[e.line - 1].chars().count();
            assert!(
                (1..=width + 1).contains(&e.column),
                "column {} of {width}: {e}",
                e.column
            );
            assert!(!e.message.is_empty());
        }
    }
}
