//! `libxla_indexing_plugin.so`: one shared object that gives `mlir-opt` the `xla_indexing`
//! dialect and the project's passes.
//!
//! ```text
//! mlir-opt --load-dialect-plugin=libxla_indexing_plugin.so \
//!          --load-pass-plugin=libxla_indexing_plugin.so ...
//! ```
//!
//! Both entry points live in one object on purpose: two plugins would each carry their own
//! copy of the dialect's TypeIDs, and patterns of one would silently match nothing of the other.
//! Everything links Debian's `libMLIR.so`, the copy `mlir-opt` itself uses. The passes are
//! registered by `xla_indexing_passes::register_passes` (a generic C++ pass of `dialect/`
//! whose body and options come from Rust).

#![warn(missing_docs)]

use std::{
    ffi::{c_char, c_void},
    panic::{AssertUnwindSafe, catch_unwind},
};

use xla_indexing_passes as passes;

/// `MLIR_PLUGIN_API_VERSION` of LLVM 22 (`mlir/Tools/Plugins/{Dialect,Pass}Plugin.h`).
const MLIR_PLUGIN_API_VERSION: u32 = 1;

/// Mirrors `mlir::DialectPluginLibraryInfo`; the callback receives a `mlir::DialectRegistry *`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    /// `MLIR_PLUGIN_API_VERSION`.
    pub api_version: u32,
    /// The plugin's name, NUL-terminated.
    pub plugin_name: *const c_char,
    /// Its version, NUL-terminated.
    pub plugin_version: *const c_char,
    /// Inserts the plugin's dialects into the registry it is given.
    pub register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// Mirrors `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    /// `MLIR_PLUGIN_API_VERSION`.
    pub api_version: u32,
    /// The plugin's name, NUL-terminated.
    pub plugin_name: *const c_char,
    /// Its version, NUL-terminated.
    pub plugin_version: *const c_char,
    /// Registers the plugin's passes in MLIR's global registry.
    pub register_pass_registry_callbacks: extern "C" fn(),
}

const PLUGIN_NAME: &std::ffi::CStr = c"xla-indexing";
const PLUGIN_VERSION: &std::ffi::CStr = c"0.1.0";

/// Runs a registration callback's body; a panic is reported and the registration skipped
/// (mlir-opt then reports what it lacks), never unwound into C++.
fn guarded(what: &str, body: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(body)).is_err() {
        eprintln!("xla-indexing plugin: registering {what} panicked");
    }
}

extern "C" fn register_dialects(registry: *mut c_void) {
    guarded("the xla_indexing, xla, xtile and xla_cpu dialects", || {
        // SAFETY: mlir-opt passes a live `mlir::DialectRegistry *`.
        unsafe { xla_indexing_mlir::dialect::insert_into_registry(registry) };
    });
}

/// Entry point of `mlir-opt --load-dialect-plugin`.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr(),
        plugin_version: PLUGIN_VERSION.as_ptr(),
        register_dialect_registry_callbacks: register_dialects,
    }
}

extern "C" fn register_passes() {
    guarded("the passes", passes::register_passes);
}

/// Entry point of `mlir-opt --load-pass-plugin`.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: PLUGIN_NAME.as_ptr(),
        plugin_version: PLUGIN_VERSION.as_ptr(),
        register_pass_registry_callbacks: register_passes,
    }
}
