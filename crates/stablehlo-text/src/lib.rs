//! StableHLO's pretty assembly, as `jax.jit(f).lower(...).as_text()` prints it, rewritten in
//! MLIR's generic op form, which the rest of xla-indexing reads (with
//! `--allow-unregistered-dialect`: we never register a `stablehlo` dialect).
//!
//! Only operations in pretty form named `stablehlo.*`, the `chlo.*` ones JAX emits (`top_k` and
//! the elementwise special functions) and Shardy's `sdy.mesh` (which JAX prints beside them) are
//! rewritten; everything else, `func.func`, `return`, `call`, `module`,
//! `#loc` aliases and `loc(...)` trailers, attributes of other dialects, and operations already
//! in generic form, is copied as written. Generic text comes back unchanged. Line numbers are
//! kept: each rewritten operation starts on the line where its pretty form started and is
//! followed by as many line breaks as it spanned, so MLIR's diagnostics on the result point at
//! the user's lines.
//!
//! ```
//! let pretty = "%0 = stablehlo.add %a, %b : tensor<4xf32>\n";
//! assert_eq!(
//!     xla_indexing_stablehlo_text::to_generic(pretty).unwrap(),
//!     "%0 = \"stablehlo.add\"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
//! );
//! ```
#![warn(missing_docs)]

mod convert;

pub use convert::MAX_REGION_DEPTH;
mod cursor;
mod generic;
mod ops;

/// Text that is not StableHLO's pretty form where it must be: where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SyntaxError {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
    /// What was expected, and what came instead.
    pub message: String,
}

/// `text` with every StableHLO operation in pretty form rewritten in generic form, the rest as
/// written.
pub fn to_generic(text: &str) -> Result<String, SyntaxError> {
    convert::Converter::new(text).convert_all()
}
