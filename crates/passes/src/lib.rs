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
//! * `xla-indexing-lower-xtile` ([`lower_xtile`]): XLA's tiled emitter kernels (`xtile` ops and
//!   StableHLO ops on tile tensors) to `func`, `vector`, `arith` and `math`, so that upstream
//!   passes take them to LLVM.
//!
//! [`opt`] runs pipelines in process as `mlir-opt` with the plugin does; [`compile`] lowers the
//! kernels of `xla-indexing-codegen` to NVVM, LLVM IR and PTX.
//!
//! [`parse_pass_pipeline`]: melior::utility::parse_pass_pipeline

#![warn(missing_docs)]

mod affine_ops;
pub mod annotate;
mod arith;
pub mod coalescing;
pub mod compile;
mod dividends;
pub mod error;
mod flatten;
pub mod launch_grid;
mod linearize;
pub mod lower_apply;
pub mod lower_fusion;
mod lower_loop;
pub mod lower_xla;
pub mod lower_xtile;
pub mod opt;
pub mod ranges;
pub mod simplify;

use std::sync::Once;

pub use error::{LowerError, LowerErrorKind, OpLocation};
use melior::pass::Pass;
use xla_indexing_gpu::{CHIPS, DEFAULT_CHIP, Device};
use xla_indexing_mlir::pass_host::{self, Choices, PassOption, PassOptions, PassSpec};
pub use xla_indexing_mlir::pass_host::{PassError, PassFailure};

/// The names of [`CHIPS`], in the table's order (the choices of every pass's `chip` option).
pub static CHIP_NAMES: Choices<{ CHIPS.len() }> = Choices({
    let mut names = [std::ptr::null(); CHIPS.len()];
    let mut i = 0;
    while i < CHIPS.len() {
        names[i] = CHIPS[i].name.as_ptr();
        i += 1;
    }
    names
});

/// Option `chip`: a chip of [`CHIPS`] by name (`chip=sm_80`), default [`DEFAULT_CHIP`]; its
/// value is the chip's index in the table ([`ChipOptions`] reads it).
const fn chip_option(description: &'static std::ffi::CStr) -> PassOption {
    PassOption::choice(c"chip", description, &CHIP_NAMES, chip_index(DEFAULT_CHIP))
}

/// The options of a pass whose one option is `chip`: the chip's device.
#[derive(Clone, Debug)]
pub struct ChipOptions {
    /// The device of the chip named.
    pub device: Device,
}

impl PassOptions for ChipOptions {
    fn decode(values: &[i64]) -> Result<ChipOptions, PassFailure> {
        let value = values.first().copied().unwrap_or(-1);
        let device = usize::try_from(value)
            .ok()
            .and_then(|i| CHIPS.get(i))
            .map(Device::of)
            .ok_or_else(|| format!("chip option value {value} names no chip"))?;
        Ok(ChipOptions { device })
    }
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

/// Every pass of the project.
pub const PASSES: &[&PassSpec] = &[
    &simplify::SPEC,
    &lower_apply::SPEC,
    &annotate::SPEC,
    &launch_grid::SPEC,
    &coalescing::SPEC,
    &lower_fusion::SPEC,
    &lower_xla::SPEC,
    &lower_xtile::SPEC,
];

/// Puts every pass into MLIR's global registry (once per process), so that pass pipelines can
/// name them.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        PASSES
            .iter()
            .for_each(|spec| pass_host::register_pass(spec))
    });
}

/// Makes the pass `argument` with `options` written as in a pipeline (`"emit-remarks=true"`).
pub fn create_pass(argument: &str, options: &str) -> Result<Pass, PassError> {
    let spec = PASSES
        .iter()
        .find(|s| s.argument() == argument)
        .ok_or_else(|| PassError::Unknown(argument.into()))?;
    pass_host::create_pass(spec, options)
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
