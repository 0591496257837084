//! The `xla_indexing` dialect: registration and loading.

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
};
use mlir_sys::{MlirAttribute, MlirContext, MlirDialectHandle, MlirStringRef};

/// The dialect's C API (`dialect/include/XlaIndexing/XlaIndexingCAPI.h`).
pub(crate) mod ffi {
    use super::*;

    unsafe extern "C" {
        pub fn mlirGetDialectHandle__xla_indexing__() -> MlirDialectHandle;
        pub fn mlirXlaIndexingMapAttrGet(
            context: MlirContext,
            text: MlirStringRef,
        ) -> MlirAttribute;
        pub fn mlirAttributeIsAXlaIndexingMap(attribute: MlirAttribute) -> bool;
        pub fn mlirXlaIndexingMapAttrGetText(attribute: MlirAttribute) -> MlirStringRef;
    }
}

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
