//! Deep recursion on a thread of its own: the elemental emitter recurses per instruction on
//! the way from a root to a parameter, and MLIR's parser, verifier and printer recurse into every
//! nested region; both run on a thread whose stack holds far deeper input than the main thread's
//! 8 MiB.

use std::{io, panic, thread};

/// The stack of the thread [`on_large_stack`] runs on. The elemental emitter of
/// `xla-indexing-codegen` recurses per instruction on the way from a root to a parameter, up to
/// 20000 levels; a debug build takes 11.5 KiB a level on a chain of negates and 14 KiB on one of
/// slices and concatenates (225 and 274 MiB at the limit). Fusions of thousands of ops in a chain
/// are common. MLIR's own recursion over input nested `MAX_NESTING` (10000) brackets deep fits
/// too. The stack is address space, used only as deep as the recursion goes.
pub const STACK_BYTES: usize = 1 << 30;

/// Runs `f` on a thread with a [`STACK_BYTES`] stack and returns what it returns; a panic in
/// `f` goes on here.
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> io::Result<T> {
    thread::scope(|scope| {
        let thread = thread::Builder::new()
            .name("xla-indexing-large-stack".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)?;
        Ok(thread.join().unwrap_or_else(|p| panic::resume_unwind(p)))
    })
}
