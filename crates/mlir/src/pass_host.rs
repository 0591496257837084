//! The host of Rust passes: a pass is a [`PassSpec`] (names, options, body) that the generic
//! C++ pass of `dialect/lib/XlaIndexingPasses.cpp` wraps. That gives Rust passes what MLIR's C
//! API does not: options (`xla-indexing-lower-apply{index-bitwidth=32}`), a place in MLIR's
//! global registry (so `mlir-opt --pass-pipeline=...`, `mlir-opt --help` and
//! `melior::utility::parse_pass_pipeline` know them), and errors reported at an op.
//!
//! A pass's body is a plain Rust function; [`pass_entry!`](crate::pass_entry) makes the
//! `extern "C"` entry point the C++ side calls, which keeps panics and errors from unwinding
//! into C++.

use std::{
    ffi::{CStr, c_char, c_void},
    slice,
};

use melior::{
    Context, StringRef,
    ir::{Location, OperationRef, operation::OperationLike},
    pass::Pass,
};

pub use crate::ffi::{PassOption, PassSpec, RawPassBody};
use crate::{
    ffi::{self, MlirLocation, MlirOperation},
    guard::guarded,
    ir::emit_error,
};

/// The names of an option's choices as C strings (`chip=sm_80`), for [`PassOption::choice`].
pub struct Choices<const N: usize>(pub [*const c_char; N]);

// SAFETY: the pointers are to `'static` C string literals, never written.
unsafe impl<const N: usize> Sync for Choices<N> {}

// SAFETY: the pointers are to `'static` C string literals and arrays of them, never written.
unsafe impl Sync for PassOption {}

// SAFETY: every pointer is to `'static` data that is never written.
unsafe impl Sync for PassSpec {}

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

    /// An option `name` whose value is one of `choices` by name; the body sees the index of
    /// the name given (`default` when none is).
    pub const fn choice<const N: usize>(
        name: &'static CStr,
        description: &'static CStr,
        choices: &'static Choices<N>,
        default: usize,
    ) -> Self {
        PassOption {
            name: name.as_ptr(),
            description: description.as_ptr(),
            is_bool: false,
            default_value: default as i64,
            choices: choices.0.as_ptr(),
            num_choices: N,
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

impl PassSpec {
    /// A pass named `argument` in pipelines, whose body is the entry point `run` made by
    /// [`pass_entry!`](crate::pass_entry).
    pub const fn new(
        argument: &'static CStr,
        name: &'static CStr,
        description: &'static CStr,
        options: &'static [PassOption],
        run: RawPassBody,
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

/// A pass's options, decoded once per run from the values MLIR parsed (in the order of the
/// spec's [`PassOption`]s: bools as 0 or 1, choices as indices) into what the body uses.
pub trait PassOptions: Sized {
    /// The options of `values`, or why they are invalid.
    fn decode(values: &[i64]) -> Result<Self, PassFailure>;
}

/// A pass without options.
impl PassOptions for () {
    fn decode(_: &[i64]) -> Result<(), PassFailure> {
        Ok(())
    }
}

/// The body of a pass: the op it runs on and its decoded options. An `Err` becomes an error
/// diagnostic and a pass failure.
pub type PassBody<O> = fn(OperationRef, &O) -> Result<(), PassFailure>;

/// Why a pass failed: an error reported at a location, or at the op the pass runs on when
/// there is none.
#[derive(Debug)]
pub struct PassFailure {
    pub(crate) location: Option<MlirLocation>,
    /// What went wrong.
    pub message: String,
}

impl PassFailure {
    /// A failure reported at `location` (which must belong to the context the pass runs in).
    pub fn at(location: Location, message: impl Into<String>) -> PassFailure {
        PassFailure {
            location: Some(location.to_raw()),
            message: message.into(),
        }
    }

    /// The failure's own location (else it is reported at the pass's op), in `context`, the
    /// context of the IR it was found in.
    pub fn location<'c>(&self, context: &'c Context) -> Option<Location<'c>> {
        let _ = context;
        // SAFETY: the location was made in `context` (the caller's contract), which is live
        // for `'c`.
        self.location.map(|l| unsafe { Location::from_raw(l) })
    }
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

/// Runs a pass body for the C++ side, its options decoded first: a panic or an `Err` becomes an error diagnostic (at the
/// failure's location, else at the op) and `false` (a pass failure), never an unwind into C++.
///
/// # Safety
///
/// `op` must be a live operation and `values` must point to `count` option values.
#[doc(hidden)]
pub unsafe fn run_body<O: PassOptions>(
    argument: &str,
    body: PassBody<O>,
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
    let outcome = guarded(|| O::decode(values).and_then(|options| body(op, &options)))
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

/// The operation type of a [`RawPassBody`]'s first parameter (for [`pass_entry!`](crate::pass_entry)).
#[doc(hidden)]
pub type RawOperation = MlirOperation;

/// Defines `$entry`, the `extern "C"` entry point of the pass body `$body` (a [`PassBody`]) for
/// its [`PassSpec`]; errors are reported with the pass's argument `$argument`.
#[macro_export]
macro_rules! pass_entry {
    ($entry:ident, $argument:expr, $body:path) => {
        unsafe extern "C" fn $entry(
            op: $crate::pass_host::RawOperation,
            values: *const i64,
            count: usize,
        ) -> bool {
            // SAFETY: the C++ pass passes the op it runs on and its option values.
            unsafe { $crate::pass_host::run_body($argument, $body, op, values, count) }
        }
    };
}

/// Puts the pass into MLIR's global registry, so that pass pipelines can name it.
pub fn register_pass(spec: &'static PassSpec) {
    // SAFETY: `spec` is `'static`, as the registry requires.
    unsafe { ffi::mlirXlaIndexingRegisterPass(spec) };
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

/// Makes the pass of `spec` with `options` written as in a pipeline (`"emit-remarks=true"`).
pub fn create_pass(spec: &'static PassSpec, options: &str) -> Result<Pass, PassError> {
    let mut message = String::new();
    // SAFETY: `spec` is `'static`; `options` outlives the call; `collect_error` gets `message`.
    let raw = unsafe {
        ffi::mlirXlaIndexingCreatePass(
            spec,
            StringRef::new(options).to_raw(),
            collect_error,
            (&mut message as *mut String).cast(),
        )
    };
    if raw.ptr.is_null() {
        return Err(PassError::Options {
            pass: spec.argument().into(),
            message,
        });
    }
    // SAFETY: `raw` is a pass that the caller's pass manager will own.
    Ok(unsafe { Pass::from_raw(raw) })
}
