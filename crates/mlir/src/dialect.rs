//! The dialects of the plugin: `xla_indexing`, and XLA's own `xla` and `xtile` in XLA's textual
//! form (so that the dumps of XLA's emitters parse). Registration and loading.

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
};
use mlir_sys::{MlirAttribute, MlirContext, MlirDialectHandle, MlirStringRef};

/// The dialects' C API (`dialect/include/XlaIndexing/XlaIndexingCAPI.h`).
pub(crate) mod ffi {
    use super::*;

    unsafe extern "C" {
        pub fn mlirGetDialectHandle__xla_indexing__() -> MlirDialectHandle;
        pub fn mlirGetDialectHandle__xla__() -> MlirDialectHandle;
        pub fn mlirGetDialectHandle__xtile__() -> MlirDialectHandle;
        pub fn mlirXlaIndexingMapAttrGet(
            context: MlirContext,
            text: MlirStringRef,
        ) -> MlirAttribute;
        pub fn mlirXlaEmittersMapAttrGet(
            context: MlirContext,
            text: MlirStringRef,
        ) -> MlirAttribute;
        pub fn mlirAttributeIsAXlaIndexingMap(attribute: MlirAttribute) -> bool;
        pub fn mlirAttributeIsAXlaEmittersIndexingMap(attribute: MlirAttribute) -> bool;
        pub fn mlirXlaIndexingMapAttrGetText(attribute: MlirAttribute) -> MlirStringRef;
    }
}

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

/// The handles of every dialect of the plugin: `xla_indexing`, `xla`, `xtile`.
pub fn handles() -> [DialectHandle; 3] {
    [handle(), xla_handle(), xtile_handle()]
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
