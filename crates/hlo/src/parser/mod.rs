//! The HLO text parser.
//!
//! Accepts modules as XLA prints them, before and after optimisation: the optional `HloModule`
//! header with attributes; the FileNames, FunctionNames, FileLocations and StackFrames sections;
//! computations with or without a signature, `ENTRY` and `ROOT`; names with or without `%`;
//! operands with or without their shapes; layouts with tiling and memory-space suffixes; tuple
//! shapes; `parameter(N)`; `constant(...)` of any literal; typed attributes; `/* */` and `//`
//! comments. Instructions may span several lines.

pub mod cursor;
pub mod module;
pub mod values;
