//! Keeping Rust panics out of MLIR: what runs inside an `extern "C"` callback is wrapped in
//! `catch_unwind`, and a panic becomes an error value (which callers report as a diagnostic,
//! [`crate::ir::emit_error`]).

use std::{
    any::Any,
    panic::{AssertUnwindSafe, catch_unwind},
};

/// A panic caught at the border with MLIR: its message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Panic(pub String);

/// Runs `f`, turning a panic into `Err` with the panic's message.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| Panic(panic_message(&*payload)))
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}
