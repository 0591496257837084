//! The project's MLIR passes, and the pipelines that run them in process. Their bodies are Rust; each is described by a [`PassSpec`] that the
//! generic C++ pass of `dialect/lib/XlaIndexingPasses.cpp` wraps, which gives them options (MLIR's
//! C API gives external passes none) and a place in MLIR's global registry, so that
//! `mlir-opt --pass-pipeline=...`, `mlir-opt --help` and [`parse_pass_pipeline`]
//! (melior::utility) all know them.
//!
//! * `xla-indexing-simplify` ([`simplify`]): bound-aware simplification of index arithmetic.
//! * `xla-indexing-lower-apply` ([`lower_apply`]): `xla_indexing.loop` to `scf`, `apply_indexing`
//!   to `arith` (on `i32` where the values fit) or `affine.apply`.
//! * `xla-indexing-annotate` ([`annotate`]): the operand maps of StableHLO-like ops.
//! * `xla-indexing-launch-grid` ([`launch_grid`]): launch grids of GPU kernels checked against the
//!   hardware and written as `known_block_size`, `known_grid_size` and `nvvm.reqntid`.
//! * `xla-indexing-coalescing` ([`coalescing`]): remarks on whether the loads of GPU kernels
//!   are coalesced, by the HLO analysis's warp transaction count.
//! * `xla-indexing-lower-fusion` ([`lower_fusion`]): the GPU kernel of every
//!   `xla_indexing.fusion` (code generation), in a `gpu.module @xla_indexing_kernels`.
//! * `xla-indexing-lower-xla` ([`lower_xla`]): XLA's emitter ops (`xla.loop`,
//!   `xla.apply_indexing`, `xla.pure_call`, `xla.workgroup_id`) to `scf`, `arith` and `gpu`, the
//!   index arithmetic simplified as a whole.
//!
//!
//! [`opt`] runs pipelines in process as `mlir-opt` with the plugin does; [`compile`] lowers the
//! kernels of `xla-indexing-codegen` to NVVM, LLVM IR and PTX.
//!
//! [`parse_pass_pipeline`]: melior::utility::parse_pass_pipeline

mod affine_ops;
pub mod annotate;
mod arith;
pub mod coalescing;
pub mod compile;
mod dividends;
pub mod launch_grid;
mod linearize;
pub mod lower_apply;
pub mod lower_fusion;
mod lower_loop;
pub mod lower_xla;
pub mod opt;
mod patterns;
pub mod ranges;
pub mod simplify;

use std::{
    ffi::{CStr, c_char, c_void},
    slice,
    sync::Once,
};

use melior::{
    StringRef,
    ir::{Location, OperationRef, operation::OperationLike},
    pass::Pass,
};
use mlir_sys::{MlirLocation, MlirOperation, MlirPass, MlirStringRef};

use xla_indexing_hlo::gpu::{CHIPS, Chip, DEFAULT_CHIP, Device};

use xla_indexing_mlir::guard::{emit_error, guarded};

/// The C side of a pass option (`XlaIndexingPassOption` of `XlaIndexingCAPI.h`).
#[repr(C)]
pub struct PassOption {
    name: *const c_char,
    description: *const c_char,
    is_bool: bool,
    default_value: i64,
    choices: *const *const c_char,
    num_choices: usize,
}

// SAFETY: the pointers are to `'static` C string literals and arrays of them, never written.
unsafe impl Sync for PassOption {}

/// The names of [`CHIPS`] as C strings, for the `chip` option.
pub struct ChipNames([*const c_char; CHIPS.len()]);

// SAFETY: the pointers are to `'static` C string literals, never written.
unsafe impl Sync for ChipNames {}

/// The names of [`CHIPS`], in the table's order.
pub static CHIP_NAMES: ChipNames = ChipNames({
    let mut names = [std::ptr::null(); CHIPS.len()];
    let mut i = 0;
    while i < CHIPS.len() {
        names[i] = CHIPS[i].name.as_ptr();
        i += 1;
    }
    names
});

impl PassOption {
    /// A boolean option `name` (kebab case).
    pub const fn flag(name: &'static CStr, description: &'static CStr, default: bool) -> Self {
        PassOption {
            name: name.as_ptr(),
            description: description.as_ptr(),
            is_bool: true,
            default_value: default as i64,
            choices: std::ptr::null(),
            num_choices: 0,
        }
    }

    /// Option `chip`: a chip of [`CHIPS`] by name (`chip=sm_80`), default [`DEFAULT_CHIP`]; its
    /// value is the chip's index in the table ([`chip_device`] reads it).
    pub const fn chip(names: &'static ChipNames, description: &'static CStr) -> Self {
        PassOption {
            name: c"chip".as_ptr(),
            description: description.as_ptr(),
            is_bool: false,
            default_value: chip_index(DEFAULT_CHIP) as i64,
            choices: names.0.as_ptr(),
            num_choices: CHIPS.len(),
        }
    }

    /// An integer option `name` (kebab case).
    pub const fn int(name: &'static CStr, description: &'static CStr, default: i64) -> Self {
        PassOption {
            name: name.as_ptr(),
            description: description.as_ptr(),
            is_bool: false,
            default_value: default,
            choices: std::ptr::null(),
            num_choices: 0,
        }
    }
}

/// The device of a `chip` option's value (an index into [`CHIPS`]).
pub fn chip_device(value: i64) -> Result<Device, PassFailure> {
    usize::try_from(value)
        .ok()
        .and_then(|i| CHIPS.get(i))
        .map(Chip::device)
        .ok_or_else(|| format!("chip option value {value} names no chip").into())
}

/// The index of chip `name` in [`CHIPS`] (at compile time; `name` must be there).
const fn chip_index(name: &str) -> usize {
    let mut i = 0;
    while i < CHIPS.len() {
        if equal_bytes(CHIPS[i].name.to_bytes(), name.as_bytes()) {
            return i;
        }
        i += 1;
    }
    panic!("the default chip is not in the table")
}

/// `a == b`, in a `const fn`.
const fn equal_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The body of a pass: the op it runs on and its option values in the spec's order (bools as 0
/// or 1). An `Err` becomes an error diagnostic and a pass failure.
pub type PassBody = fn(OperationRef, &[i64]) -> Result<(), PassFailure>;

/// Why a pass failed: an error reported at `location`, or at the op the pass runs on when
/// there is none.
#[derive(Debug)]
pub struct PassFailure {
    /// Where to report it (the op the pass runs on when `None`).
    pub location: Option<MlirLocation>,
    /// What went wrong.
    pub message: String,
}

impl From<&str> for PassFailure {
    fn from(message: &str) -> PassFailure {
        message.to_string().into()
    }
}

impl From<String> for PassFailure {
    fn from(message: String) -> PassFailure {
        PassFailure {
            location: None,
            message,
        }
    }
}

/// A pass as the C++ side sees it (`XlaIndexingPassSpec` of `XlaIndexingCAPI.h`).
#[repr(C)]
pub struct PassSpec {
    argument: *const c_char,
    name: *const c_char,
    description: *const c_char,
    options: *const PassOption,
    num_options: usize,
    run: unsafe extern "C" fn(MlirOperation, *const i64, usize) -> bool,
}

// SAFETY: every pointer is to `'static` data that is never written.
unsafe impl Sync for PassSpec {}

impl PassSpec {
    /// A pass named `argument` in pipelines, whose body is the `run` of `pass_spec!`.
    pub const fn new(
        argument: &'static CStr,
        name: &'static CStr,
        description: &'static CStr,
        options: &'static [PassOption],
        run: unsafe extern "C" fn(MlirOperation, *const i64, usize) -> bool,
    ) -> Self {
        PassSpec {
            argument: argument.as_ptr(),
            name: name.as_ptr(),
            description: description.as_ptr(),
            options: options.as_ptr(),
            num_options: options.len(),
            run,
        }
    }

    /// The name pipelines use.
    pub fn argument(&self) -> &'static str {
        // SAFETY: `argument` came from a `&'static CStr`.
        unsafe { CStr::from_ptr(self.argument) }
            .to_str()
            .unwrap_or_default()
    }
}

/// Runs a pass body for the C++ side: a panic or an `Err` becomes an error diagnostic at the op
/// and `false` (a pass failure), never an unwind into C++.
///
/// # Safety
///
/// `op` must be a live operation and `values` must point to `count` option values.
pub(crate) unsafe fn run_body(
    argument: &str,
    body: PassBody,
    op: MlirOperation,
    values: *const i64,
    count: usize,
) -> bool {
    // SAFETY: the caller passes a live op.
    let op = unsafe { OperationRef::from_raw(op) };
    let values: &[i64] = if count == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `count` values at `values`.
        unsafe { slice::from_raw_parts(values, count) }
    };
    let outcome = guarded(|| body(op, values))
        .unwrap_or_else(|panic| Err(format!("internal error: {panic}").into()));
    match outcome {
        Ok(()) => true,
        Err(PassFailure { location, message }) => {
            // SAFETY: locations are uniqued in the op's context, which outlives the pass run.
            let location =
                location.map_or_else(|| op.location(), |l| unsafe { Location::from_raw(l) });
            // A diagnostic handler that panics must not unwind into C++ either.
            let _ = guarded(|| emit_error(location, &format!("{argument}: {message}")));
            false
        }
    }
}

/// Defines the `extern "C"` entry point of a pass body for its [`PassSpec`].
macro_rules! pass_entry {
    ($entry:ident, $argument:expr, $body:path) => {
        unsafe extern "C" fn $entry(
            op: mlir_sys::MlirOperation,
            values: *const i64,
            count: usize,
        ) -> bool {
            // SAFETY: the C++ pass passes the op it runs on and its option values.
            unsafe { $crate::run_body($argument, $body, op, values, count) }
        }
    };
}
pub(crate) use pass_entry;

/// Every pass of the project.
pub const PASSES: &[&PassSpec] = &[
    &simplify::SPEC,
    &lower_apply::SPEC,
    &annotate::SPEC,
    &launch_grid::SPEC,
    &coalescing::SPEC,
    &lower_fusion::SPEC,
    &lower_xla::SPEC,
];

mod ffi {
    use super::*;

    unsafe extern "C" {
        pub fn mlirXlaIndexingRegisterPass(spec: *const PassSpec);
        pub fn mlirXlaIndexingCreatePass(
            spec: *const PassSpec,
            options: MlirStringRef,
            on_error: unsafe extern "C" fn(*const c_char, usize, *mut c_void),
            user_data: *mut c_void,
        ) -> MlirPass;
    }
}

/// Puts every pass into MLIR's global registry (once per process), so that pass pipelines can
/// name them.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for spec in PASSES {
            // SAFETY: specs are `'static`, as the registry requires.
            unsafe { ffi::mlirXlaIndexingRegisterPass(*spec) };
        }
    });
}

/// Why a pass could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PassError {
    /// No pass of ours has this argument.
    #[error("unknown pass `{0}`")]
    Unknown(String),
    /// The options do not parse for the pass.
    #[error("bad options for {pass}: {message}")]
    Options {
        /// The pass's argument.
        pass: String,
        /// MLIR's complaint.
        message: String,
    },
}

unsafe extern "C" fn collect_error(data: *const c_char, length: usize, user_data: *mut c_void) {
    let _ = guarded(|| {
        // SAFETY: `create_pass` passes a `String` as `user_data`, and MLIR `length` bytes.
        let (out, bytes) = unsafe {
            (
                &mut *user_data.cast::<String>(),
                slice::from_raw_parts(data.cast::<u8>(), length),
            )
        };
        *out = String::from_utf8_lossy(bytes).into_owned();
    });
}

/// Makes the pass `argument` with `options` written as in a pipeline (`"emit-remarks=true"`).
pub fn create_pass(argument: &str, options: &str) -> Result<Pass, PassError> {
    let spec = PASSES
        .iter()
        .find(|s| s.argument() == argument)
        .ok_or_else(|| PassError::Unknown(argument.into()))?;
    let mut message = String::new();
    // SAFETY: `spec` is `'static`; `options` outlives the call; `collect_error` gets `message`.
    let raw = unsafe {
        ffi::mlirXlaIndexingCreatePass(
            *spec,
            StringRef::new(options).to_raw(),
            collect_error,
            (&mut message as *mut String).cast(),
        )
    };
    if raw.ptr.is_null() {
        return Err(PassError::Options {
            pass: argument.into(),
            message,
        });
    }
    // SAFETY: `raw` is a pass that the caller's pass manager will own.
    Ok(unsafe { Pass::from_raw(raw) })
}

/// `xla-indexing-simplify` with its default options.
pub fn create_simplify_pass() -> Pass {
    create_pass(simplify::ARGUMENT, "").expect("default options are valid")
}

/// `xla-indexing-lower-apply` with its default options.
pub fn create_lower_apply_pass() -> Pass {
    create_pass(lower_apply::ARGUMENT, "").expect("default options are valid")
}

/// `xla-indexing-annotate`; `emit_remarks` also reports each map as a remark.
pub fn create_annotate_pass(emit_remarks: bool) -> Pass {
    create_pass(annotate::ARGUMENT, &format!("emit-remarks={emit_remarks}"))
        .expect("the option exists")
}
