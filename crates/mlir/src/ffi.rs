//! The C API of `dialect/` (`dialect/include/XlaIndexing/XlaIndexingCAPI.h`), declared once.
//!
//! Everything the C++ side offers beyond MLIR's own C API is declared here and called from the
//! IR layer's safe helpers only: the dialects' handles and attributes ([`crate::dialect`],
//! [`crate::map_attribute`], [`crate::launch_attribute`]), remarks and warnings
//! ([`crate::ir::emit_remark`]), the queries MLIR's C API lacks and the greedy driver with a
//! listener ([`crate::ir`], [`crate::rewrite`]), and the host of Rust passes
//! ([`crate::pass_host`]).

use std::ffi::{c_char, c_void};

pub(crate) use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirDialectRegistry,
    MlirFrozenRewritePatternSet, MlirLocation, MlirLogicalResult, MlirOperation, MlirPass,
    MlirStringRef, MlirValue, mlirDialectHandleInsertDialect,
};

/// `XlaIndexingChange` of `XlaIndexingCAPI.h`: what the greedy driver's listener saw.
#[repr(C)]
#[allow(dead_code, reason = "values made by C++")]
pub(crate) enum Change {
    ValueErased,
    ValueModified,
    BlockErased,
    OperationErased,
    RegionsModified,
}

/// `XlaIndexingPassOption` of `XlaIndexingCAPI.h`.
#[repr(C)]
pub struct PassOption {
    pub(crate) name: *const c_char,
    pub(crate) description: *const c_char,
    pub(crate) is_bool: bool,
    pub(crate) default_value: i64,
    pub(crate) choices: *const *const c_char,
    pub(crate) num_choices: usize,
}

/// The body of a pass as the C++ side calls it: the op the pass runs on and its option values.
pub type RawPassBody = unsafe extern "C" fn(MlirOperation, *const i64, usize) -> bool;

/// `XlaIndexingPassSpec` of `XlaIndexingCAPI.h`.
#[repr(C)]
pub struct PassSpec {
    pub(crate) argument: *const c_char,
    pub(crate) name: *const c_char,
    pub(crate) description: *const c_char,
    pub(crate) options: *const PassOption,
    pub(crate) num_options: usize,
    pub(crate) run: RawPassBody,
}

unsafe extern "C" {
    pub(crate) fn mlirGetDialectHandle__xla_indexing__() -> MlirDialectHandle;
    pub(crate) fn mlirGetDialectHandle__xla__() -> MlirDialectHandle;
    pub(crate) fn mlirGetDialectHandle__xtile__() -> MlirDialectHandle;
    pub(crate) fn mlirGetDialectHandle__xla_cpu__() -> MlirDialectHandle;

    pub(crate) fn mlirXlaIndexingMapAttrGet(
        context: MlirContext,
        text: MlirStringRef,
    ) -> MlirAttribute;
    pub(crate) fn mlirAttributeIsAXlaIndexingMap(attribute: MlirAttribute) -> bool;
    pub(crate) fn mlirXlaIndexingMapAttrGetText(attribute: MlirAttribute) -> MlirStringRef;
    pub(crate) fn mlirXlaEmittersMapAttrGet(
        context: MlirContext,
        text: MlirStringRef,
    ) -> MlirAttribute;
    pub(crate) fn mlirAttributeIsAXlaEmittersIndexingMap(attribute: MlirAttribute) -> bool;
    pub(crate) fn mlirXlaEmittersInlinePureCalls(op: MlirOperation) -> MlirLogicalResult;

    pub(crate) fn mlirXlaIndexingLaunchAttrGet(
        context: MlirContext,
        block: *const i64,
        grid: *const i64,
        map: MlirStringRef,
    ) -> MlirAttribute;
    pub(crate) fn mlirAttributeIsAXlaIndexingLaunch(attribute: MlirAttribute) -> bool;
    pub(crate) fn mlirXlaIndexingLaunchAttrGetBlock(attribute: MlirAttribute, axis: isize) -> i64;
    pub(crate) fn mlirXlaIndexingLaunchAttrGetGrid(attribute: MlirAttribute, axis: isize) -> i64;
    pub(crate) fn mlirXlaIndexingLaunchAttrGetMap(attribute: MlirAttribute) -> MlirStringRef;

    pub(crate) fn mlirXlaIndexingEmitRemark(location: MlirLocation, message: MlirStringRef);
    pub(crate) fn mlirXlaIndexingEmitWarning(location: MlirLocation, message: MlirStringRef);

    pub(crate) fn mlirXlaIndexingApplyPatternsGreedily(
        op: MlirOperation,
        patterns: MlirFrozenRewritePatternSet,
        top_down: bool,
        fold: bool,
        simplify_regions: bool,
        max_rewrites: i64,
        on_change: unsafe extern "C" fn(Change, *mut c_void, *mut c_void),
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    pub(crate) fn mlirXlaIndexingValueIsUsableAt(value: MlirValue, user: MlirOperation) -> bool;
    pub(crate) fn mlirXlaIndexingOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub(crate) fn mlirXlaIndexingValueIsValidAffineOperand(value: MlirValue) -> bool;
    pub(crate) fn mlirXlaIndexingEliminateCommonSubexpressions(op: MlirOperation);
    pub(crate) fn mlirXlaIndexingInferResultRange(
        op: MlirOperation,
        result: isize,
        operand_lo: *const i64,
        operand_hi: *const i64,
        num_operands: isize,
        lo: *mut i64,
        hi: *mut i64,
    ) -> bool;

    pub(crate) fn mlirXlaIndexingSolveIntegerRanges(
        op: MlirOperation,
        on_range: unsafe extern "C" fn(MlirValue, i64, i64, *mut c_void),
        user_data: *mut c_void,
    ) -> isize;

    pub(crate) fn mlirXlaIndexingRegisterPass(spec: *const PassSpec);
    pub(crate) fn mlirXlaIndexingCreatePass(
        spec: *const PassSpec,
        options: MlirStringRef,
        on_error: unsafe extern "C" fn(*const c_char, usize, *mut c_void),
        user_data: *mut c_void,
    ) -> MlirPass;
}

/// The bytes of a string MLIR owns, as text (`None` when they are not UTF-8).
///
/// # Safety
///
/// `text` must point to `text.length` readable bytes that outlive `'a`.
pub(crate) unsafe fn string_of<'a>(text: MlirStringRef) -> Option<&'a str> {
    let bytes: &[u8] = if text.length == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `text.length` bytes at `text.data`.
        unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) }
    };
    std::str::from_utf8(bytes).ok()
}
