//! XLA's own CPU kernels, read and run: the library of the `xla-check` binary, which
//! `cargo xtask bench xla` runs on the kernels XLA dumps for JAX programs.
//!
//! * [`dump`] finds the kernels of a dump and cuts XLA's stages from its pass logs;
//! * [`ir`] reads printed MLIR into functions, regions, blocks and ops;
//! * [`count`] counts divisions, remainders and index ops of MLIR and LLVM IR text;
//! * [`llvm_text`] rewrites XLA's LLVM IR into the syntax LLVM 22 reads;
//! * [`interp`] runs two versions of a kernel and compares what they write;
//! * [`shape`] holds the shapes of vectors and tiles and the shape ops on them;

pub mod count;
pub mod dump;
pub mod interp;
pub mod ir;
pub mod llvm_text;
pub mod shape;
