//! Support for the runners of XLA's own unit-test expectations (`tests/xla_map_cases.rs` here,
//! `crates/hlo/tests/xla_indexing_cases.rs`, which includes this module by path): the format of
//! the case files, a reference reader and evaluator of map text that shares no code with our
//! parser, and comparisons of maps by evaluation.
#![allow(dead_code)]

pub mod cases;
pub mod compare;
pub mod reference;
