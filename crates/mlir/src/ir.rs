//! The IR layer: reading and querying MLIR IR through the C API, in one place.
//!
//! Passes and translations see IR through these helpers: the names, constants and attributes
//! of ops, the uses of values, dominance and side effects (the last two through
//! `dialect/lib/XlaIndexingRewrite.cpp`, as MLIR's C API has no such queries), MLIR's integer
//! range analysis (`dialect/lib/SolvedRanges.cpp`), and MLIR's greedy pattern driver with a
//! listener for erased values ([`crate::rewrite::apply_patterns_greedily`]).

use std::ffi::c_void;

use crate::ffi;

use melior::{
    Context, StringRef,
    ir::{
        AffineExpr, AffineMap, Attribute, BlockLike, BlockRef, Location, OperationRef, RegionLike,
        Type, TypeLike, Value, ValueLike, attribute::AttributeLike, operation::OperationLike,
    },
};
use mlir_sys::{
    MlirAffineExpr, MlirAttribute, MlirValue, mlirAffineMapAttrGet, mlirAffineMapAttrGetValue,
    mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeGetType,
    mlirAttributeIsAAffineMap, mlirAttributeIsAArray, mlirAttributeIsADenseBoolArray,
    mlirAttributeIsADenseElements, mlirAttributeIsADenseI32Array, mlirAttributeIsADenseI64Array,
    mlirAttributeIsADenseIntElements, mlirAttributeIsADictionary, mlirAttributeIsAFloat,
    mlirAttributeIsAInteger, mlirAttributeIsAIntegerSet, mlirBlockGetParentOperation,
    mlirComplexTypeGetElementType, mlirDenseArrayGetNumElements, mlirDenseBoolArrayGetElement,
    mlirDenseElementsAttrGetInt64Value, mlirDenseElementsAttrGetSplatValue,
    mlirDenseElementsAttrIsSplat, mlirDenseI32ArrayGetElement, mlirDenseI64ArrayGetElement,
    mlirDictionaryAttrGetElementByName, mlirElementsAttrGetNumElements, mlirElementsAttrGetValue,
    mlirFloatAttrGetValueDouble, mlirIntegerAttrGetValueInt, mlirIntegerAttrGetValueUInt,
    mlirIntegerSetAttrGet, mlirIntegerSetAttrGetValue, mlirIntegerSetGet,
    mlirIntegerSetGetConstraint, mlirIntegerSetGetNumConstraints, mlirIntegerSetGetNumDims,
    mlirIntegerSetGetNumSymbols, mlirIntegerSetIsConstraintEq, mlirIntegerTypeGetWidth,
    mlirIntegerTypeIsSigned, mlirIntegerTypeIsUnsigned, mlirMemRefTypeGetMemorySpace,
    mlirMemRefTypeGetStridesAndOffset, mlirOpOperandGetNextUse, mlirOpOperandGetOwner,
    mlirOpOperandIsNull, mlirOpResultGetOwner, mlirOperationGetBlock,
    mlirOperationGetParentOperation, mlirOperationRemoveAttributeByName,
    mlirOperationSetAttributeByName, mlirRankedTensorTypeGetEncoding, mlirShapedTypeGetDimSize,
    mlirShapedTypeGetElementType, mlirShapedTypeGetRank, mlirShapedTypeIsDynamicDim,
    mlirShapedTypeIsDynamicStrideOrOffset, mlirTupleTypeGetNumTypes, mlirTupleTypeGetType,
    mlirTypeIsAComplex, mlirTypeIsAInteger, mlirTypeIsAMemRef, mlirTypeIsARankedTensor,
    mlirTypeIsATuple, mlirTypeIsAVector, mlirValueGetFirstUse,
};

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

/// The ops of `block`, in order.
pub fn operations<'c, 'a>(block: &impl BlockLike<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut all = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        all.push(op);
    }
    all
}

/// Calls `f` on every op nested in `op`, outer ops first.
pub fn walk_nested<'c, 'a>(op: &OperationRef<'c, 'a>, f: &mut impl FnMut(&OperationRef<'c, 'a>)) {
    let mut stack = vec![*op];
    while let Some(current) = stack.pop() {
        let mut children = Vec::new();
        for region in current.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                children.extend(operations(&b));
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

/// The signed range `(lo, hi)` of result `result` of `op` that the op's
/// `InferIntRangeInterface` gives when its operands take the signed ranges `operands`
/// (`(lo, hi)` each, ignored for operands that are not integers); `None` when the op does not
/// implement the interface or infers nothing for that result.
pub fn inferred_result_range(
    op: &OperationRef,
    result: usize,
    operands: &[(i64, i64)],
) -> Option<(i64, i64)> {
    let lo: Vec<i64> = operands.iter().map(|r| r.0).collect();
    let hi: Vec<i64> = operands.iter().map(|r| r.1).collect();
    let (mut out_lo, mut out_hi) = (0, 0);
    // SAFETY: `op` is live; the arrays hold `operands.len()` elements each.
    let found = unsafe {
        ffi::mlirXlaIndexingInferResultRange(
            op.to_raw(),
            isize::try_from(result).ok()?,
            lo.as_ptr(),
            hi.as_ptr(),
            isize::try_from(operands.len()).ok()?,
            &mut out_lo,
            &mut out_hi,
        )
    };
    found.then_some((out_lo, out_hi))
}

/// Runs MLIR's integer range analysis (its dataflow solver, as `int-range-optimizations`
/// does) on `op`: every used result of an op nested in `op` that it proves to take one value
/// becomes that constant, then `on_range` gets the signed range `(lo, hi)` it finds for every
/// integer or index value of at most 64 bits still nested in `op` (an `i1`'s true is -1).
/// Returns how many results became constants; `None` when the solver fails (nothing changed).
pub fn solve_integer_ranges(
    op: &OperationRef,
    on_range: &mut dyn FnMut(Value, i64, i64),
) -> Option<usize> {
    type Callback<'f> = &'f mut dyn FnMut(Value, i64, i64);
    unsafe extern "C" fn report(value: MlirValue, lo: i64, hi: i64, user_data: *mut c_void) {
        // A panic must not unwind into C++.
        let _ = crate::guard::guarded(|| {
            // SAFETY: `user_data` is the callback passed below, live for the call; MLIR passes
            // a live value.
            let (on_range, value) =
                unsafe { (&mut *user_data.cast::<Callback>(), Value::from_raw(value)) };
            on_range(value, lo, hi);
        });
    }
    let mut callback: Callback = on_range;
    // SAFETY: `op` is live; `callback` outlives the call.
    let replaced = unsafe {
        ffi::mlirXlaIndexingSolveIntegerRanges(
            op.to_raw(),
            report,
            (&mut callback as *mut Callback).cast(),
        )
    };
    usize::try_from(replaced).ok()
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

/// The bit width of an integer or index type (index counts as 64 bits), or `None`.
pub fn int_width(ty: Type) -> Option<u32> {
    if ty.is_index() {
        Some(64)
    } else {
        integer_type(ty).map(|(width, _)| width)
    }
}

/// The bits of precision of a float type (its mantissa and the implicit one): every integer of
/// magnitude up to `2^p` converts to it exactly. `None` for other types and float types not
/// listed (`f16`, `bf16`, `f32`, `f64`).
pub fn float_precision(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; each query only reads its kind.
    unsafe {
        if mlir_sys::mlirTypeIsAF16(raw) {
            Some(11)
        } else if mlir_sys::mlirTypeIsABF16(raw) {
            Some(8)
        } else if mlir_sys::mlirTypeIsAF32(raw) {
            Some(24)
        } else if mlir_sys::mlirTypeIsAF64(raw) {
            Some(53)
        } else {
            None
        }
    }
}

/// The value of a float attribute, or `None`.
pub fn float_attribute(attribute: Attribute) -> Option<f64> {
    // SAFETY: `attribute` is live; its value is read only if it is a float attribute.
    unsafe {
        mlirAttributeIsAFloat(attribute.to_raw())
            .then(|| mlirFloatAttrGetValueDouble(attribute.to_raw()))
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

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `location` belongs to a live context and `message` is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
}

/// Emits a remark diagnostic at `location`.
pub fn emit_remark(location: Location, message: &str) {
    // SAFETY: `location` belongs to a live context and `message` outlives the call.
    unsafe {
        crate::ffi::mlirXlaIndexingEmitRemark(
            location.to_raw(),
            melior::StringRef::new(message).to_raw(),
        )
    };
}

/// Emits a warning diagnostic at `location`.
pub fn emit_warning(location: Location, message: &str) {
    // SAFETY: `location` belongs to a live context and `message` outlives the call.
    unsafe {
        crate::ffi::mlirXlaIndexingEmitWarning(
            location.to_raw(),
            melior::StringRef::new(message).to_raw(),
        )
    };
}

/// A ranked tensor or memref type's dimension sizes (`None` where dynamic) and element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape<'c> {
    /// Every dimension's size, `None` where it is dynamic.
    pub sizes: Vec<Option<i64>>,
    /// The element type.
    pub element: Type<'c>,
    /// Whether the type is a memref (else a ranked tensor).
    pub is_memref: bool,
}

impl Shape<'_> {
    /// The sizes, if every one is static.
    pub fn static_sizes(&self) -> Option<Vec<i64>> {
        self.sizes.iter().copied().collect()
    }
}

/// The shape of a ranked tensor or memref type, or `None` for any other type.
pub fn shape_of(ty: Type) -> Option<Shape> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; shape queries run only on ranked tensors and memrefs, dimension
    // queries within the rank.
    unsafe {
        let is_memref = mlirTypeIsAMemRef(raw);
        if !is_memref && !mlirTypeIsARankedTensor(raw) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(raw) as isize;
        let sizes = (0..rank)
            .map(|d| {
                (!mlirShapedTypeIsDynamicDim(raw, d)).then(|| mlirShapedTypeGetDimSize(raw, d))
            })
            .collect();
        Some(Shape {
            sizes,
            element: Type::from_raw(mlirShapedTypeGetElementType(raw)),
            is_memref,
        })
    }
}

/// The sizes and element type of a vector type, or `None` for any other type (scalable
/// dimensions are not told apart).
pub fn vector_shape(ty: Type) -> Option<(Vec<i64>, Type)> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; shape queries run only on vectors, dimension queries within the
    // rank.
    unsafe {
        if !mlirTypeIsAVector(raw) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(raw) as isize;
        let sizes = (0..rank)
            .map(|d| mlirShapedTypeGetDimSize(raw, d))
            .collect();
        Some((sizes, Type::from_raw(mlirShapedTypeGetElementType(raw))))
    }
}

/// The encoding attribute of a ranked tensor type (StableHLO's `#stablehlo.bounds<?, 5>` of a
/// bounded dynamic tensor), or `None` where it has none or is no ranked tensor.
pub fn tensor_encoding(ty: Type) -> Option<Attribute> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; the encoding is read only from a ranked tensor, and a null one is
    // not wrapped.
    unsafe {
        if !mlirTypeIsARankedTensor(raw) {
            return None;
        }
        let encoding = mlirRankedTensorTypeGetEncoding(raw);
        (!encoding.ptr.is_null()).then(|| Attribute::from_raw(encoding))
    }
}

/// The element types of a tuple type, or `None` for any other type.
pub fn tuple_parts(ty: Type) -> Option<Vec<Type>> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; its parts are read only from a tuple, within its count.
    unsafe {
        if !mlirTypeIsATuple(raw) {
            return None;
        }
        let n = mlirTupleTypeGetNumTypes(raw);
        Some(
            (0..n)
                .map(|i| Type::from_raw(mlirTupleTypeGetType(raw, i)))
                .collect(),
        )
    }
}

/// The strides and offset of a memref type's layout (`None` where dynamic), or `None` when the
/// type is not a memref or its layout is not strided.
pub fn memref_strides(ty: Type) -> Option<(Vec<Option<i64>>, Option<i64>)> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; the layout is read only from a memref, into arrays of its rank.
    unsafe {
        if !mlirTypeIsAMemRef(raw) {
            return None;
        }
        let rank = usize::try_from(mlirShapedTypeGetRank(raw)).ok()?;
        let mut strides = vec![0i64; rank];
        let mut offset = 0i64;
        let found = mlirMemRefTypeGetStridesAndOffset(raw, strides.as_mut_ptr(), &mut offset);
        let known = |n: i64| (!mlirShapedTypeIsDynamicStrideOrOffset(n)).then_some(n);
        (found.value != 0).then(|| (strides.into_iter().map(known).collect(), known(offset)))
    }
}

/// The memory space of a memref type, `None` for the default space or another type.
pub fn memref_memory_space(ty: Type) -> Option<Attribute> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; the memory space is read only from a memref.
    unsafe {
        if !mlirTypeIsAMemRef(raw) {
            return None;
        }
        Attribute::from_option_raw(mlirMemRefTypeGetMemorySpace(raw))
    }
}

/// The element type of a complex type, or `None` for any other type.
pub fn complex_element(ty: Type) -> Option<Type> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; the element is read only from a complex type.
    unsafe { mlirTypeIsAComplex(raw).then(|| Type::from_raw(mlirComplexTypeGetElementType(raw))) }
}

/// What an integer type says of its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signedness {
    /// `iN`: the ops decide.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// The width and signedness of an integer type (not `index`), or `None`.
pub fn integer_type(ty: Type) -> Option<(u32, Signedness)> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; integer queries run only on an integer type.
    unsafe {
        mlirTypeIsAInteger(raw).then(|| {
            let sign = if mlirIntegerTypeIsUnsigned(raw) {
                Signedness::Unsigned
            } else if mlirIntegerTypeIsSigned(raw) {
                Signedness::Signed
            } else {
                Signedness::Signless
            };
            (mlirIntegerTypeGetWidth(raw), sign)
        })
    }
}

/// One value of an elements attribute: a float, or an integer as its type reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A float attribute's value.
    Float(f64),
    /// An integer of a signed or signless type (sign-extended).
    Int(i64),
    /// An integer of an unsigned type.
    Unsigned(u64),
}

/// The one value of a splat dense elements attribute (`dense<1.5> : tensor<4xf32>`), or `None`
/// when it is not a splat of floats or integers.
pub fn splat_value(attribute: Attribute) -> Option<Scalar> {
    let raw = attribute.to_raw();
    // SAFETY: `attribute` is live; the splat is read only from a splat dense elements
    // attribute, and read as the kind of attribute it is.
    unsafe {
        if !mlirAttributeIsADenseElements(raw) || !mlirDenseElementsAttrIsSplat(raw) {
            return None;
        }
        scalar_of(mlirDenseElementsAttrGetSplatValue(raw))
    }
}

/// Every value of a dense elements attribute of `dims` (`dense<[[1, 2], [3, 4]]> :
/// tensor<2x2xi32>`, a splat's value repeated), in row-major order; `None` when it is not dense
/// elements of floats or integers, or not of `dims`.
pub fn dense_values(attribute: Attribute, dims: &[i64]) -> Option<Vec<Scalar>> {
    let raw = attribute.to_raw();
    let count = dims
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(u64::try_from(d).ok()?))?;
    // SAFETY: `attribute` is live and dense elements; each element is read at an index within
    // `dims`, checked to be the attribute's element count.
    unsafe {
        if !mlirAttributeIsADenseElements(raw)
            || u64::try_from(mlirElementsAttrGetNumElements(raw)).ok() != Some(count)
        {
            return None;
        }
        let mut index = vec![0u64; dims.len()];
        let mut values = Vec::new();
        for _ in 0..count {
            let element = mlirElementsAttrGetValue(raw, dims.len() as isize, index.as_mut_ptr());
            values.push(scalar_of(element)?);
            for (k, &d) in index.iter_mut().zip(dims).rev() {
                *k += 1;
                if (*k as i64) < d {
                    break;
                }
                *k = 0;
            }
        }
        Some(values)
    }
}

/// The value of a float or integer attribute.
///
/// # Safety
/// `attribute` must be live.
unsafe fn scalar_of(attribute: MlirAttribute) -> Option<Scalar> {
    // SAFETY: the caller keeps `attribute` live; it is read as the kind of attribute it is.
    unsafe {
        if mlirAttributeIsAFloat(attribute) {
            return Some(Scalar::Float(mlirFloatAttrGetValueDouble(attribute)));
        }
        if !mlirAttributeIsAInteger(attribute) {
            return None;
        }
        Some(
            if mlirIntegerTypeIsUnsigned(mlirAttributeGetType(attribute)) {
                Scalar::Unsigned(mlirIntegerAttrGetValueUInt(attribute))
            } else {
                Scalar::Int(mlirIntegerAttrGetValueInt(attribute))
            },
        )
    }
}

/// The integers of a dense array (`array<i64: 1, 0>`, `array<i32: ...>`, `array<i1: ...>`) or of
/// dense integer elements (`dense<1> : tensor<2x2xi64>`), flattened; `None` for other
/// attributes.
pub fn integers(attribute: Attribute) -> Option<Vec<i64>> {
    if let Some(v) = dense_array(attribute) {
        return Some(v);
    }
    let raw = attribute.to_raw();
    // SAFETY: elements are read only for the kind of attribute it is, within its length.
    unsafe {
        if mlirAttributeIsADenseBoolArray(raw) {
            let n = mlirDenseArrayGetNumElements(raw);
            return Some(
                (0..n)
                    .map(|i| i64::from(mlirDenseBoolArrayGetElement(raw, i)))
                    .collect(),
            );
        }
        if mlirAttributeIsADenseIntElements(raw) {
            let n = mlirElementsAttrGetNumElements(raw);
            return Some(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetInt64Value(raw, i as isize))
                    .collect(),
            );
        }
    }
    None
}

/// The object (PTX or binary, as text) of a `#gpu.object` attribute (`gpu.binary`'s
/// `objects`), or `None` for another attribute.
pub fn gpu_object(attribute: Attribute) -> Option<String> {
    // SAFETY: `attribute` is live; it is checked to be a GPU object before its object string,
    // owned by the context, is read.
    unsafe {
        if !mlir_sys::mlirAttributeIsAGPUObjectAttr(attribute.to_raw()) {
            return None;
        }
        let text = mlir_sys::mlirGPUObjectAttrGetObject(attribute.to_raw());
        let bytes = std::slice::from_raw_parts(text.data.cast::<u8>(), text.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}
