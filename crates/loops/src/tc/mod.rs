//! Tensor Comprehensions range inference: [`parse`] a `.tc` file, [`infer()`] the range of every
//! index variable and the size of every output, symbolically in the size names or numerically
//! with given sizes.
//!
//! ```
//! use std::collections::BTreeMap;
//! let program = xla_indexing_loops::tc::parse("def reverted(float(I) B) -> A { A(i) = B(10 - i) }").unwrap();
//! let report = xla_indexing_loops::tc::infer(&program, &BTreeMap::new()).unwrap();
//! assert_eq!(report.to_json().to_string(), r#"{"ranges":{"i":["11 - I","10"]},"sizes":{"A":["I"]},"warnings":[]}"#);
//! ```

pub mod ast;
pub mod infer;
pub mod parser;
pub mod report;

pub use ast::Program;
pub use infer::infer;
pub use parser::parse;
pub use report::{DefReport, RangeReport, StmtReport, TensorSize};
