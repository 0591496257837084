//! Ops, blocks and values held by identity while the IR around them changes.
//!
//! melior's `OperationRef`, `BlockRef` and `Value` borrow what owns them, which is what a
//! reader wants and what a rewrite cannot have: a pass that collects the loops of a function and
//! then moves their bodies, or that builds ops in one block while it reads another, holds IR
//! across changes to its owner. A handle is that hold: a copyable identity with the changes a
//! pass makes (insert, move, erase, replace uses), and [`OpHandle::get`] and friends turn it back
//! into melior's views. Getting a view is `unsafe`, because only the pass knows that what the
//! handle names is still alive; every lifetime stretch of the project happens there.

use std::ffi::c_void;

use melior::{
    Context, ContextRef,
    ir::{
        BlockLike, BlockRef, Operation, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
};
use mlir_sys::{
    MlirBlock, MlirOperation, MlirValue, mlirBlockAppendOwnedOperation,
    mlirBlockInsertOwnedOperationBefore, mlirOperationDestroy, mlirOperationGetBlock,
    mlirOperationGetNextInBlock, mlirOperationGetParentOperation, mlirOperationMoveBefore,
    mlirOperationRemoveFromParent, mlirRegionTakeBody, mlirValueGetType,
    mlirValueReplaceAllUsesOfWith,
};

/// An operation held by identity (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct OpHandle(MlirOperation);

/// A block held by identity.
#[derive(Clone, Copy, Debug)]
pub struct BlockHandle(MlirBlock);

/// A value held by identity.
#[derive(Clone, Copy, Debug)]
pub struct ValueHandle(MlirValue);

/// Identity for a handle over a raw MLIR object: equal when they name the same object, and a
/// key for maps.
macro_rules! identity {
    ($handle:ident, $what:literal) => {
        impl PartialEq for $handle {
            fn eq(&self, other: &Self) -> bool {
                self.0.ptr == other.0.ptr
            }
        }

        impl Eq for $handle {}

        impl $handle {
            #[doc = concat!("The ", $what, "'s identity while it lives (its address; MLIR may reuse it once the ", $what, " is erased).")]
            pub fn key(self) -> usize {
                self.0.ptr as usize
            }
        }
    };
}

identity!(OpHandle, "op");
identity!(BlockHandle, "block");
identity!(ValueHandle, "value");

/// The identity of a value while it lives (its address; MLIR may reuse it once the value is
/// erased).
pub fn value_key(value: Value) -> usize {
    ValueHandle::of(value).key()
}

/// The identity of an op while it lives.
pub fn op_key(op: &OperationRef) -> usize {
    OpHandle::of(op).key()
}

impl OpHandle {
    /// The handle of `op`.
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> OpHandle {
        OpHandle(op.to_raw())
    }

    /// The op named by `key` ([`OpHandle::key`]).
    ///
    /// # Safety
    ///
    /// `key` must be the key of an op that is still alive when the handle is used.
    pub unsafe fn from_key(key: usize) -> OpHandle {
        OpHandle(MlirOperation {
            ptr: key as *mut c_void,
        })
    }

    /// A view of the op, borrowed for as long as the caller says.
    ///
    /// # Safety
    ///
    /// The op must be alive, and stay so (and not move to another owner the caller relies on)
    /// while the view is used.
    pub unsafe fn get<'c, 'a>(self) -> OperationRef<'c, 'a> {
        // SAFETY: the caller guarantees the op is alive.
        unsafe { OperationRef::from_raw(self.0) }
    }

    /// The block the op is in.
    ///
    /// # Safety
    ///
    /// The op must be alive and in a block.
    pub unsafe fn block(self) -> BlockHandle {
        // SAFETY: the caller guarantees a live op.
        BlockHandle(unsafe { mlirOperationGetBlock(self.0) })
    }

    /// The op after this one in its block.
    ///
    /// # Safety
    ///
    /// The op must be alive.
    pub unsafe fn next_in_block(self) -> Option<OpHandle> {
        // SAFETY: the caller guarantees a live op.
        let next = unsafe { mlirOperationGetNextInBlock(self.0) };
        (!next.ptr.is_null()).then_some(OpHandle(next))
    }

    /// The op that holds this one.
    ///
    /// # Safety
    ///
    /// The op must be alive.
    pub unsafe fn parent(self) -> Option<OpHandle> {
        // SAFETY: the caller guarantees a live op.
        let parent = unsafe { mlirOperationGetParentOperation(self.0) };
        (!parent.ptr.is_null()).then_some(OpHandle(parent))
    }

    /// Inserts the new op `op` right before this one, in this one's block.
    ///
    /// # Safety
    ///
    /// This op must be alive and in a block.
    pub unsafe fn insert_before(self, op: Operation) -> OpHandle {
        let op = op.into_raw();
        // SAFETY: `op` is new and owned by no one; the anchor's block takes it.
        unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(self.0), self.0, op) };
        OpHandle(op)
    }

    /// Moves the op right before `anchor` (in `anchor`'s block).
    ///
    /// # Safety
    ///
    /// Both ops must be alive and in blocks.
    pub unsafe fn move_before(self, anchor: OpHandle) {
        // SAFETY: the caller guarantees two live ops in blocks.
        unsafe { mlirOperationMoveBefore(self.0, anchor.0) };
    }

    /// Moves the op to the end of `block`.
    ///
    /// # Safety
    ///
    /// The op and the block must be alive, and the op in a block.
    pub unsafe fn move_to_end(self, block: BlockHandle) {
        // SAFETY: the caller guarantees a live op in a block and a live block; the op is taken
        // out of its block and owned by `block` from then on.
        unsafe {
            mlirOperationRemoveFromParent(self.0);
            mlirBlockAppendOwnedOperation(block.0, self.0);
        }
    }

    /// Erases the op and what it holds.
    ///
    /// # Safety
    ///
    /// The op must be alive, and none of its results may have uses left.
    pub unsafe fn erase(self) {
        // SAFETY: the caller guarantees a live op whose results are unused.
        unsafe { mlirOperationDestroy(self.0) };
    }

    /// The op's results.
    ///
    /// # Safety
    ///
    /// The op must be alive.
    pub unsafe fn results(self) -> Vec<ValueHandle> {
        // SAFETY: the caller guarantees a live op.
        let op = unsafe { self.get() };
        (0..op.result_count())
            .filter_map(|i| op.result(i).ok().map(|r| ValueHandle::of(r.into())))
            .collect()
    }

    /// The op's operands.
    ///
    /// # Safety
    ///
    /// The op must be alive.
    pub unsafe fn operands(self) -> Vec<ValueHandle> {
        // SAFETY: the caller guarantees a live op.
        let op = unsafe { self.get() };
        op.operands().map(ValueHandle::of).collect()
    }

    /// The first block of region `index`.
    ///
    /// # Safety
    ///
    /// The op must be alive.
    pub unsafe fn entry_block(self, index: usize) -> Option<BlockHandle> {
        // SAFETY: the caller guarantees a live op.
        let op = unsafe { self.get() };
        op.region(index)
            .ok()
            .and_then(|r| r.first_block())
            .map(|b| BlockHandle::of(&b))
    }

    /// Moves every block of region `index` of `from` into region `index` of this op (whose
    /// region must be empty), leaving `from`'s empty; `false` where either op has no such
    /// region.
    ///
    /// # Safety
    ///
    /// Both ops must be alive.
    pub unsafe fn take_body(self, index: usize, from: OpHandle) -> bool {
        // SAFETY: the caller guarantees live ops.
        let (to, from) = unsafe { (self.get(), from.get()) };
        match (to.region(index), from.region(index)) {
            (Ok(to), Ok(from)) => {
                // SAFETY: both regions belong to live ops.
                unsafe { mlirRegionTakeBody(to.to_raw(), from.to_raw()) };
                true
            }
            _ => false,
        }
    }
}

impl BlockHandle {
    /// The handle of `block`.
    pub fn of<'c: 'a, 'a>(block: &impl BlockLike<'c, 'a>) -> BlockHandle {
        BlockHandle(block.to_raw())
    }

    /// A view of the block.
    ///
    /// # Safety
    ///
    /// The block must be alive while the view is used.
    pub unsafe fn get<'c, 'a>(self) -> BlockRef<'c, 'a> {
        // SAFETY: the caller guarantees the block is alive.
        unsafe { BlockRef::from_raw(self.0) }
    }

    /// Appends the new op `op` to the block.
    ///
    /// # Safety
    ///
    /// The block must be alive.
    pub unsafe fn append(self, op: Operation) -> OpHandle {
        let op = op.into_raw();
        // SAFETY: `op` is new and owned by no one; the block takes it.
        unsafe { mlirBlockAppendOwnedOperation(self.0, op) };
        OpHandle(op)
    }

    /// The block's arguments.
    ///
    /// # Safety
    ///
    /// The block must be alive.
    pub unsafe fn arguments(self) -> Vec<ValueHandle> {
        // SAFETY: the caller guarantees a live block.
        let block = unsafe { self.get() };
        (0..block.argument_count())
            .filter_map(|i| block.argument(i).ok().map(|a| ValueHandle::of(a.into())))
            .collect()
    }

    /// The block's ops, in order.
    ///
    /// # Safety
    ///
    /// The block must be alive.
    pub unsafe fn operations(self) -> Vec<OpHandle> {
        // SAFETY: the caller guarantees a live block.
        let block = unsafe { self.get() };
        crate::ir::operations(&block)
            .iter()
            .map(OpHandle::of)
            .collect()
    }
}

impl ValueHandle {
    /// The handle of `value`.
    pub fn of(value: Value) -> ValueHandle {
        ValueHandle(value.to_raw())
    }

    /// The value named by `key` ([`ValueHandle::key`]).
    ///
    /// # Safety
    ///
    /// `key` must be the key of a value that is still alive when the handle is used.
    pub unsafe fn from_key(key: usize) -> ValueHandle {
        ValueHandle(MlirValue {
            ptr: key as *const c_void,
        })
    }

    /// A view of the value.
    ///
    /// # Safety
    ///
    /// The value must be alive while the view is used.
    pub unsafe fn get<'c, 'a>(self) -> Value<'c, 'a> {
        // SAFETY: the caller guarantees the value is alive.
        unsafe { Value::from_raw(self.0) }
    }

    /// The value's type (types live as long as their context).
    ///
    /// # Safety
    ///
    /// The value must be alive.
    pub unsafe fn ty<'c>(self) -> Type<'c> {
        // SAFETY: the caller guarantees a live value; its type is owned by the context.
        unsafe { Type::from_raw(mlirValueGetType(self.0)) }
    }

    /// Replaces every use of the value by `with`.
    ///
    /// # Safety
    ///
    /// Both values must be alive and of the same type.
    pub unsafe fn replace_all_uses_with(self, with: ValueHandle) {
        // SAFETY: the caller guarantees two live values of one type.
        unsafe { mlirValueReplaceAllUsesOfWith(self.0, with.0) };
    }
}

/// `value` as a value of context lifetime `'c` and borrow lifetime `'b`: for values that a
/// rewrite made or kept, whose owner the borrow checker cannot see is still alive (the op they
/// belong to is borrowed from a rewriter or a builder that has since gone out of scope).
///
/// # Safety
///
/// The value must be alive while the result is used, and its context must live for `'c`.
pub unsafe fn stretch_value<'x, 'c, 'b>(value: impl ValueLike<'x>) -> Value<'c, 'b> {
    // SAFETY: the caller guarantees the value is alive.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// `ty` as a type of context lifetime `'c`: types are owned by their context, so a type reached
/// through a borrowed context reference lives as long as the context does.
///
/// # Safety
///
/// The type must belong to a context that lives for `'c`.
pub unsafe fn stretch_type<'c>(ty: Type<'_>) -> Type<'c> {
    // SAFETY: the caller guarantees the context lives for `'c`.
    unsafe { Type::from_raw(ty.to_raw()) }
}

/// Calls `f` with the context `op` lives in, as a `&Context` for the builders that need one.
///
/// # Safety
///
/// `f` must not keep the reference itself beyond its call: it points at a handle local to this
/// function. What `f` makes with it (types, attributes, ops) belongs to the context and may
/// outlive the call.
pub unsafe fn with_context<'c, T>(
    op: &OperationRef<'c, '_>,
    f: impl FnOnce(&'c Context) -> T,
) -> T {
    let context: ContextRef<'c> = op.context();
    // SAFETY: the context outlives every op of it, so it is alive while `f` runs, and the
    // caller keeps the reference inside `f`.
    f(unsafe { context.to_ref() })
}

/// Every op of `root` (itself and what it holds) for which `wanted` holds, in `order`, as
/// handles: for passes that change the IR while they go through them.
pub fn collect_ops(
    root: &OperationRef,
    order: WalkOrder,
    mut wanted: impl FnMut(&OperationRef) -> bool,
) -> Vec<OpHandle> {
    let mut found = Vec::new();
    root.walk(order, |op| {
        if wanted(&op) {
            found.push(OpHandle::of(&op));
        }
        WalkResult::Advance
    });
    found
}
