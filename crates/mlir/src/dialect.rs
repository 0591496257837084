//! The dialects of the plugin: `xla_indexing`, and XLA's own `xla`, `xtile` and `xla_cpu` in XLA's
//! textual form (so that the dumps of XLA's emitters parse). Registration and loading.

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

/// Returns the handle of XLA's `xla` dialect (`xla.apply_indexing`, `xla.loop`, ...).
pub fn xla_handle() -> DialectHandle {
    // SAFETY: the C API returns a valid, static dialect handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xla__()) }
}

/// Returns the handle of XLA's `xtile` dialect (`xtile.entry_func`, `xtile.extract`, ...).
pub fn xtile_handle() -> DialectHandle {
    // SAFETY: the C API returns a valid, static dialect handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xtile__()) }
}

/// Returns the handle of XLA's `xla_cpu` dialect (the call frame of CPU kernels).
pub fn xla_cpu_handle() -> DialectHandle {
    // SAFETY: the C API returns a valid, static dialect handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__xla_cpu__()) }
}

/// The handles of every dialect of the plugin: `xla_indexing`, `xla`, `xtile`, `xla_cpu`.
pub fn handles() -> [DialectHandle; 4] {
    [handle(), xla_handle(), xtile_handle(), xla_cpu_handle()]
}

/// Inserts the plugin's dialects into `registry`.
pub fn register(registry: &DialectRegistry) {
    for handle in handles() {
        handle.insert_dialect(registry);
    }
}

/// Registers the plugin's dialects in `context` and loads them.
pub fn load(context: &Context) {
    for handle in handles() {
        handle.register_dialect(context);
        handle.load_dialect(context);
    }
}

/// Inserts the plugin's dialects into the `mlir::DialectRegistry` at `registry` (what `mlir-opt`
/// hands a dialect plugin).
///
/// # Safety
///
/// `registry` must point to a live `mlir::DialectRegistry`.
pub unsafe fn insert_into_registry(registry: *mut std::ffi::c_void) {
    for handle in handles() {
        // SAFETY: the caller passes a live `mlir::DialectRegistry *`, which is exactly what
        // `MlirDialectRegistry` wraps.
        unsafe {
            ffi::mlirDialectHandleInsertDialect(
                handle.to_raw(),
                ffi::MlirDialectRegistry { ptr: registry },
            )
        };
    }
}
