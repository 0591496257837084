//! The IR layer: reading and querying MLIR IR through the C API, in one place.
//!
//! Passes and translations see IR through these helpers: the names, constants and attributes
//! of ops, the uses of values, dominance and side effects (the last two through
//! `dialect/lib/XlaIndexingRewrite.cpp`, as MLIR's C API has no such queries), and MLIR's
//! greedy pattern driver with a listener for erased values ([`apply_patterns_greedily`]).

use std::ffi::c_void;

use melior::{
    Context, FrozenRewritePatternSet, StringRef,
    ir::{
        AffineExpr, AffineMap, Attribute, BlockLike, BlockRef, OperationRef, RegionLike, Type,
        TypeLike, Value, ValueLike, attribute::AttributeLike, operation::OperationLike,
    },
};
use mlir_sys::{
    MlirAffineExpr, MlirFrozenRewritePatternSet, MlirLogicalResult, MlirOperation, MlirValue,
    mlirAffineMapAttrGet, mlirAffineMapAttrGetValue, mlirArrayAttrGetElement,
    mlirArrayAttrGetNumElements, mlirAttributeIsAAffineMap, mlirAttributeIsAArray,
    mlirAttributeIsADenseI32Array, mlirAttributeIsADenseI64Array, mlirAttributeIsADictionary,
    mlirAttributeIsAInteger, mlirAttributeIsAIntegerSet, mlirBlockGetParentOperation,
    mlirDenseArrayGetNumElements, mlirDenseI32ArrayGetElement, mlirDenseI64ArrayGetElement,
    mlirDictionaryAttrGetElementByName, mlirFrozenRewritePatternSetDestroy,
    mlirIntegerAttrGetValueInt, mlirIntegerSetAttrGet, mlirIntegerSetAttrGetValue,
    mlirIntegerSetGet, mlirIntegerSetGetConstraint, mlirIntegerSetGetNumConstraints,
    mlirIntegerSetGetNumDims, mlirIntegerSetGetNumSymbols, mlirIntegerSetIsConstraintEq,
    mlirIntegerTypeGetWidth, mlirOpOperandGetNextUse, mlirOpOperandGetOwner, mlirOpOperandIsNull,
    mlirOpResultGetOwner, mlirOperationGetBlock, mlirOperationGetParentOperation,
    mlirOperationRemoveAttributeByName, mlirOperationSetAttributeByName, mlirTypeIsAIndex,
    mlirTypeIsAInteger, mlirValueGetFirstUse,
};

mod ffi {
    use super::*;

    /// `XlaIndexingChange` of `XlaIndexingCAPI.h`.
    #[repr(C)]
    #[allow(dead_code, reason = "values made by C++")]
    pub enum Change {
        ValueErased,
        ValueModified,
        BlockErased,
        OperationErased,
        RegionsModified,
    }

    unsafe extern "C" {
        pub fn mlirXlaIndexingApplyPatternsGreedily(
            op: MlirOperation,
            patterns: MlirFrozenRewritePatternSet,
            top_down: bool,
            fold: bool,
            simplify_regions: bool,
            max_rewrites: i64,
            on_change: unsafe extern "C" fn(Change, *mut c_void, *mut c_void),
            user_data: *mut c_void,
        ) -> MlirLogicalResult;
        pub fn mlirXlaIndexingValueIsUsableAt(value: MlirValue, user: MlirOperation) -> bool;
        pub fn mlirXlaIndexingOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
        pub fn mlirXlaIndexingValueIsValidAffineOperand(value: MlirValue) -> bool;
        pub fn mlirXlaIndexingEliminateCommonSubexpressions(op: MlirOperation);
    }
}

/// The identity of a value while it lives (its address; MLIR may reuse it once the value is
/// erased).
pub fn value_key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// The identity of an op while it lives.
pub fn op_key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The ops that use `value`, once per use, in use-list order.
pub fn users<'c: 'a, 'a>(
    value: Value<'c, 'a>,
) -> impl Iterator<Item = OperationRef<'c, 'a>> + use<'c, 'a> {
    // SAFETY: `value` is live; the use list is walked while the IR does not change.
    let mut next = unsafe { mlirValueGetFirstUse(value.to_raw()) };
    std::iter::from_fn(move || {
        // SAFETY: `next` is null or a live use of `value`.
        unsafe {
            if mlirOpOperandIsNull(next) {
                return None;
            }
            let owner = OperationRef::from_raw(mlirOpOperandGetOwner(next));
            next = mlirOpOperandGetNextUse(next);
            Some(owner)
        }
    })
}

/// Whether `value` has any use.
pub fn has_uses(value: Value) -> bool {
    users(value).next().is_some()
}

/// The single user of `value`, if it has exactly one use.
pub fn single_user<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut all = users(value);
    let first = all.next()?;
    all.next().is_none().then_some(first)
}

/// The op that contains `op`, if any.
pub fn parent_op<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `op` is live; the parent of a top-level op is null.
    unsafe { OperationRef::from_option_raw(mlirOperationGetParentOperation(op.to_raw())) }
}

/// The op that contains `block`, if any.
pub fn block_parent_op<'c, 'a>(block: BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `block` is live; the parent of a detached block is null.
    unsafe { OperationRef::from_option_raw(mlirBlockGetParentOperation(block.to_raw())) }
}

/// Sets attribute `name` of `op` to `value` (outside a rewrite: patterns tell their rewriter
/// with `passes::patterns::set_attribute`).
pub fn set_attribute(op: &OperationRef, name: &str, value: Attribute) {
    // SAFETY: `op` is live and `value` belongs to its context.
    unsafe {
        mlirOperationSetAttributeByName(op.to_raw(), StringRef::new(name).to_raw(), value.to_raw())
    };
}

/// Removes attribute `name` of `op`, if it has one.
pub fn remove_attribute(op: &OperationRef, name: &str) {
    // SAFETY: `op` is live; removing an attribute it lacks does nothing.
    unsafe { mlirOperationRemoveAttributeByName(op.to_raw(), StringRef::new(name).to_raw()) };
}

/// The block that contains `op`, if any.
pub fn parent_block<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    // SAFETY: `op` is live; a detached op has a null block.
    unsafe { BlockRef::from_option_raw(mlirOperationGetBlock(op.to_raw())) }
}

/// Calls `f` on every op nested in `op`, outer ops first.
pub fn walk_nested<'c, 'a>(op: &OperationRef<'c, 'a>, f: &mut impl FnMut(&OperationRef<'c, 'a>)) {
    let mut stack = vec![*op];
    while let Some(current) = stack.pop() {
        let mut children = Vec::new();
        for region in current.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut next = b.first_operation();
                while let Some(child) = next {
                    children.push(child);
                    next = child.next_in_block();
                }
                block = b.next_in_region();
            }
        }
        for child in &children {
            f(child);
        }
        stack.extend(children.into_iter().rev());
    }
}

/// The blocks of every region of `op`.
pub fn blocks_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let mut blocks = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            blocks.push(b);
            block = b.next_in_region();
        }
    }
    blocks
}

/// Whether `user` may use `value`: the value properly dominates it, with no op isolated from
/// above in between.
pub fn is_usable_at(value: Value, user: &OperationRef) -> bool {
    // SAFETY: both are live.
    unsafe { ffi::mlirXlaIndexingValueIsUsableAt(value.to_raw(), user.to_raw()) }
}

/// Runs MLIR's common subexpression elimination (what the `cse` pass does) on the regions of
/// `op`.
pub fn eliminate_common_subexpressions(op: &OperationRef) {
    // SAFETY: `op` is live; CSE only rewrites what is nested in it.
    unsafe { ffi::mlirXlaIndexingEliminateCommonSubexpressions(op.to_raw()) }
}

/// Whether `op` (and what it contains) has no memory effects: the greedy driver erases it
/// once its results are unused.
pub fn is_memory_effect_free(op: &OperationRef) -> bool {
    // SAFETY: `op` is live.
    unsafe { ffi::mlirXlaIndexingOperationIsMemoryEffectFree(op.to_raw()) }
}

/// Whether affine ops accept `value` as a dimension or symbol operand.
pub fn is_valid_affine_operand(value: Value) -> bool {
    // SAFETY: `value` is live.
    unsafe { ffi::mlirXlaIndexingValueIsValidAffineOperand(value.to_raw()) }
}

/// What the greedy driver changed, by identity ([`value_key`], [`op_key`], a block's address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// A value that goes (an erased op's result, an erased block's argument).
    ValueErased(usize),
    /// A value whose op changed in place (its operands or attributes).
    ValueModified(usize),
    /// A block that goes.
    BlockErased(usize),
    /// An op that goes.
    OpErased(usize),
    /// An op with regions changed in place: what its blocks may assume may have changed.
    RegionsModified(usize),
}

/// How the greedy driver runs.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    /// Visit ops top-down (definitions before uses) rather than bottom-up.
    pub top_down: bool,
    /// Let the driver fold ops (the ops' own `fold` hooks) besides applying the patterns.
    pub fold: bool,
    /// Let the driver also simplify regions (erase unreachable blocks, merge identical ones).
    pub simplify_regions: bool,
    /// Stop after this many rewrites (then the driver has not converged).
    pub max_rewrites: Option<usize>,
}

/// Runs MLIR's greedy driver with `patterns` on the regions of `op`, calling `on_changed` with
/// every change it makes (see `mlirXlaIndexingApplyPatternsGreedily`). Returns
/// whether the driver converged.
pub fn apply_patterns_greedily(
    op: OperationRef,
    patterns: FrozenRewritePatternSet,
    greedy: Greedy,
    on_changed: &mut dyn FnMut(Changed),
) -> bool {
    type Callback<'f> = &'f mut dyn FnMut(Changed);
    unsafe extern "C" fn changed(kind: ffi::Change, object: *mut c_void, user_data: *mut c_void) {
        let key = object as usize;
        let change = match kind {
            ffi::Change::ValueErased => Changed::ValueErased(key),
            ffi::Change::ValueModified => Changed::ValueModified(key),
            ffi::Change::BlockErased => Changed::BlockErased(key),
            ffi::Change::OperationErased => Changed::OpErased(key),
            ffi::Change::RegionsModified => Changed::RegionsModified(key),
        };
        // A panic must not unwind into C++; the callback only records what it is given.
        let _ = crate::guard::guarded(|| {
            // SAFETY: `user_data` is the callback passed below, live for the driver's run.
            let on_changed = unsafe { &mut *user_data.cast::<Callback>() };
            on_changed(change);
        });
    }
    let frozen = patterns.into_raw();
    let mut callback: Callback = on_changed;
    // SAFETY: `op` is live and `frozen` a valid pattern set, destroyed here (melior's wrapper
    // would leak it); `callback` outlives the call.
    unsafe {
        let result = ffi::mlirXlaIndexingApplyPatternsGreedily(
            op.to_raw(),
            frozen,
            greedy.top_down,
            greedy.fold,
            greedy.simplify_regions,
            greedy
                .max_rewrites
                .map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX)),
            changed,
            (&mut callback as *mut Callback).cast(),
        );
        mlirFrozenRewritePatternSetDestroy(frozen);
        result.value != 0
    }
}

/// The bit width of an integer or index type (index counts as 64 bits), or `None`.
pub fn int_width(ty: Type) -> Option<u32> {
    // SAFETY: `ty` is a live type.
    unsafe {
        if mlirTypeIsAIndex(ty.to_raw()) {
            Some(64)
        } else if mlirTypeIsAInteger(ty.to_raw()) {
            Some(mlirIntegerTypeGetWidth(ty.to_raw()))
        } else {
            None
        }
    }
}

/// The value of an integer attribute (`arith.constant`'s `value`), or `None`.
pub fn integer_attribute(attribute: Attribute) -> Option<i64> {
    // SAFETY: `attribute` is live; its value is read only if it is an integer attribute.
    unsafe {
        mlirAttributeIsAInteger(attribute.to_raw())
            .then(|| mlirIntegerAttrGetValueInt(attribute.to_raw()))
    }
}

/// The affine map of an affine map attribute, or `None`.
pub fn affine_map_attribute(attribute: Attribute) -> Option<AffineMap> {
    // SAFETY: the value is read only if `attribute` is an affine map attribute.
    unsafe {
        mlirAttributeIsAAffineMap(attribute.to_raw())
            .then(|| AffineMap::from_raw(mlirAffineMapAttrGetValue(attribute.to_raw())))
    }
}

/// The elements of a dense i32 or i64 array attribute.
pub fn dense_array(attribute: Attribute) -> Option<Vec<i64>> {
    let raw = attribute.to_raw();
    // SAFETY: elements are read only for the kind of array the attribute is, within its length.
    unsafe {
        if mlirAttributeIsADenseI32Array(raw) {
            let n = usize::try_from(mlirDenseArrayGetNumElements(raw)).ok()?;
            Some(
                (0..n)
                    .map(|i| i64::from(mlirDenseI32ArrayGetElement(raw, i as isize)))
                    .collect(),
            )
        } else if mlirAttributeIsADenseI64Array(raw) {
            let n = usize::try_from(mlirDenseArrayGetNumElements(raw)).ok()?;
            Some(
                (0..n)
                    .map(|i| mlirDenseI64ArrayGetElement(raw, i as isize))
                    .collect(),
            )
        } else {
            None
        }
    }
}

/// The name of an op.
pub fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The op that defines `value`, if it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if !value.is_operation_result() {
        return None;
    }
    // SAFETY: `value` is an op result, whose owner is a live op.
    Some(unsafe { OperationRef::from_raw(mlirOpResultGetOwner(value.to_raw())) })
}

/// The constant integer value of `value`, if `arith.constant` defines it.
pub fn constant_value(value: Value) -> Option<i64> {
    let op = defining_op(value)?;
    if op_name(&op) != "arith.constant" {
        return None;
    }
    integer_attribute(op.attribute("value").ok()?)
}

/// The `gpu` dimension (0 for x, 1 for y, 2 for z) of an op's `dimension` attribute.
pub fn gpu_dimension(op: &OperationRef) -> Option<usize> {
    let text = op.attribute("dimension").ok()?.to_string();
    ["dim x", "dim y", "dim z"]
        .iter()
        .position(|d| text.contains(d))
}

/// An integer set (`affine.if`'s condition): its dimension and symbol counts and its
/// constraints `e == 0` (`true`) or `e >= 0` (`false`).
pub struct IntegerSet<'c> {
    /// Dimensions of the set.
    pub num_dims: usize,
    /// Symbols of the set.
    pub num_symbols: usize,
    /// Each constraint: the expression, and whether it is an equality.
    pub constraints: Vec<(AffineExpr<'c>, bool)>,
}

/// The integer set of an integer set attribute, or `None`.
pub fn integer_set_attribute<'c>(attribute: Attribute<'c>) -> Option<IntegerSet<'c>> {
    // SAFETY: `attribute` is live; the set is read only if it is an integer set attribute, and
    // constraint positions are below its count.
    unsafe {
        if !mlirAttributeIsAIntegerSet(attribute.to_raw()) {
            return None;
        }
        let set = mlirIntegerSetAttrGetValue(attribute.to_raw());
        let n = mlirIntegerSetGetNumConstraints(set);
        Some(IntegerSet {
            num_dims: usize::try_from(mlirIntegerSetGetNumDims(set)).ok()?,
            num_symbols: usize::try_from(mlirIntegerSetGetNumSymbols(set)).ok()?,
            constraints: (0..n)
                .map(|i| {
                    (
                        AffineExpr::from_raw(mlirIntegerSetGetConstraint(set, i)),
                        mlirIntegerSetIsConstraintEq(set, i),
                    )
                })
                .collect(),
        })
    }
}

/// The integer set attribute of `set` in `context`. A set without constraints is written as
/// `0 == 0` (always true, the form `affine.if`'s canonicalization recognizes).
pub fn integer_set_attribute_of<'c>(context: &'c Context, set: &IntegerSet<'c>) -> Attribute<'c> {
    let zero = AffineExpr::constant(context, 0);
    let (exprs, eq): (Vec<MlirAffineExpr>, Vec<bool>) = if set.constraints.is_empty() {
        (vec![zero.to_raw()], vec![true])
    } else {
        set.constraints
            .iter()
            .map(|(e, eq)| (e.to_raw(), *eq))
            .unzip()
    };
    // SAFETY: `exprs` and `eq` hold one entry per constraint, live for the call.
    unsafe {
        let raw = mlirIntegerSetGet(
            context.to_raw(),
            set.num_dims as isize,
            set.num_symbols as isize,
            exprs.len() as isize,
            exprs.as_ptr(),
            eq.as_ptr(),
        );
        Attribute::from_raw(mlirIntegerSetAttrGet(raw))
    }
}

/// An affine map attribute of `map`.
pub fn affine_map_attribute_of<'c>(map: AffineMap<'c>) -> Attribute<'c> {
    // SAFETY: `map` is a live affine map.
    unsafe { Attribute::from_raw(mlirAffineMapAttrGet(map.to_raw())) }
}

/// The name of XLA's range attribute: `{xla.range = [lo : index, hi : index]}` on a function
/// argument or an op bounds its value (inclusive).
pub const RANGE_ATTRIBUTE: &str = "xla.range";

/// The bounds of a range attribute (`[lo : index, hi : index]`), or `None`.
pub fn range_attribute(attribute: Attribute) -> Option<(i64, i64)> {
    // SAFETY: `attribute` is live; elements are read only from an array, within its length.
    unsafe {
        let raw = attribute.to_raw();
        if !mlirAttributeIsAArray(raw) || mlirArrayAttrGetNumElements(raw) != 2 {
            return None;
        }
        let bound = |i| integer_attribute(Attribute::from_raw(mlirArrayAttrGetElement(raw, i)));
        Some((bound(0)?, bound(1)?))
    }
}

/// The attribute `name` of argument `number` of a function op (its `arg_attrs`), if any.
pub fn argument_attribute<'c>(
    function: &OperationRef<'c, '_>,
    number: usize,
    name: &str,
) -> Option<Attribute<'c>> {
    let all = function.attribute("arg_attrs").ok()?;
    // SAFETY: `all` is live; the dictionary is read only if it is an array element in range.
    unsafe {
        let raw = all.to_raw();
        if !mlirAttributeIsAArray(raw)
            || isize::try_from(number).ok()? >= mlirArrayAttrGetNumElements(raw)
        {
            return None;
        }
        let dictionary = mlirArrayAttrGetElement(raw, number as isize);
        if !mlirAttributeIsADictionary(dictionary) {
            return None;
        }
        let found = mlirDictionaryAttrGetElementByName(dictionary, StringRef::new(name).to_raw());
        Attribute::from_option_raw(found)
    }
}
