//! Keeping Rust panics out of MLIR: what runs inside an `extern "C"` callback is wrapped in
//! `catch_unwind`, and a panic becomes an error diagnostic or error value.

use std::{
    any::Any,
    ffi::CString,
    panic::{AssertUnwindSafe, catch_unwind},
};

use melior::ir::Location;

/// Runs `f`, turning a panic into `Err` with the panic's message.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(&*payload))
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `location` belongs to a live context and `message` is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
}

unsafe extern "C" {
    fn mlirXlaIndexingEmitRemark(
        location: mlir_sys::MlirLocation,
        message: mlir_sys::MlirStringRef,
    );
    fn mlirXlaIndexingEmitWarning(
        location: mlir_sys::MlirLocation,
        message: mlir_sys::MlirStringRef,
    );
}

/// Emits a remark diagnostic at `location`.
pub fn emit_remark(location: Location, message: &str) {
    // SAFETY: `location` belongs to a live context and `message` outlives the call.
    unsafe {
        mlirXlaIndexingEmitRemark(location.to_raw(), melior::StringRef::new(message).to_raw())
    };
}

/// Emits a warning diagnostic at `location`.
pub fn emit_warning(location: Location, message: &str) {
    // SAFETY: `location` belongs to a live context and `message` outlives the call.
    unsafe {
        mlirXlaIndexingEmitWarning(location.to_raw(), melior::StringRef::new(message).to_raw())
    };
}
