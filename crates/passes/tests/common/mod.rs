//! Helpers of the execution tests of generated kernels.

pub mod cpu;
pub mod hlo_complex;
pub mod hlo_eval;
pub mod runner;
