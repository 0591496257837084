//! The project's passes, each an external pass written in Rust.

mod simplify;

pub use simplify::create_simplify_pass;
