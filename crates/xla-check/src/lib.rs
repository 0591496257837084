//! XLA's own CPU kernels, read and run: the library of the `xla-check` binary, which
//! `cargo xtask bench xla` runs on the kernels XLA dumps for JAX programs.
//!
//! * [`dump`] finds the kernels of a dump and cuts XLA's stages from its pass logs;
//! * [`count`] counts divisions, remainders and index ops of MLIR and LLVM IR text;
//! * [`llvm_text`] rewrites XLA's LLVM IR into the syntax LLVM 22 reads;
//! * [`check`] runs two versions of a kernel and compares what they write, with the
//!   interpreter of `interp` (one module per dialect, its ops' handlers in a table) over the
//!   printed MLIR that `ir` reads, and the shapes of vectors and tiles of `shape`.

pub mod check;
pub mod count;
pub mod dump;
mod interp;
mod ir;
pub mod llvm_text;
mod shape;
