//! XLA HLO for xla-indexing: the HLO text parser, shapes and layouts, indexing maps of every op
//! and of fused computations, and operand utilization.

#![warn(missing_docs)]

pub mod access;
pub mod analysis;
pub mod attrs;
pub mod check;
pub mod direction;
pub mod error;
pub mod fusion;
pub mod known;
pub mod layout;
pub mod map_union;
pub mod module;
pub mod opcode;
pub mod ops;
pub mod parser;
pub mod report;
pub mod shape;
pub mod trip_count;
pub mod utilization;
pub mod warnings;
pub mod while_loop;

pub use analysis::{Options, analyze_module, analyze_module_with_progress};
pub use check::check_module;
pub use direction::Direction;
pub use error::HloError;
pub use module::{Computation, Instruction, Module};
pub use opcode::Opcode;
pub use report::Report;

/// Parses HLO text into a [`Module`]. Errors carry a 1-based line and column (exit code 3), or
/// name the instruction whose written operand shape disagrees with its definition.
pub fn parse_module(text: &str) -> Result<Module, HloError> {
    parser::module::parse(text)
}
