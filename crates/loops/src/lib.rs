//! Loop-bound inference as data: Tensor Comprehensions range inference ([`tc`]) and TVM's
//! InferBound ([`sched`]), exact where the originals over-approximate.
//!
//! Both read a small language, report errors with a line and column ([`LoopsError`], whose
//! [`ErrorKind`] decides the exit code), and produce reports that print as text or as the JSON of
//! docs/architecture.md ("Output formats"). Bounds are symbolic ([`symbolic::Bound`]):
//! expressions over size names or enclosing loop variables, with `min` and `max`.

#![warn(missing_docs)]

pub mod error;
pub mod lex;
pub mod symbolic;
pub mod tc;

pub use error::{ErrorKind, LoopsError, Pos};
pub mod sched;
