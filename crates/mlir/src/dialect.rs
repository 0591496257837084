//! The `xla_indexing` dialect: registration and loading.

use crate::ffi;
use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
};

/// Returns the handle of the `xla_indexing` dialect.
pub fn handle() -> DialectHandle {
    // SAFETY: the C API returns a valid, static dialect handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xla_indexing__()) }
}

/// Inserts the dialect into `registry`.
pub fn register(registry: &DialectRegistry) {
    handle().insert_dialect(registry);
}

/// Registers the dialect in `context` and loads it.
pub fn load(context: &Context) {
    let handle = handle();
    handle.register_dialect(context);
    handle.load_dialect(context);
}

/// Inserts the dialect into the `mlir::DialectRegistry` at `registry` (what `mlir-opt` hands a
/// dialect plugin).
///
/// # Safety
///
/// `registry` must point to a live `mlir::DialectRegistry`.
pub unsafe fn insert_into_registry(registry: *mut std::ffi::c_void) {
    // SAFETY: the caller passes a live `mlir::DialectRegistry *`, which is exactly what
    // `MlirDialectRegistry` wraps.
    unsafe {
        ffi::mlirDialectHandleInsertDialect(
            handle().to_raw(),
            ffi::MlirDialectRegistry { ptr: registry },
        )
    };
}
