//! The ops that apply or iterate an indexing map exist in two dialects: ours
//! (`xla_indexing.apply_indexing`, `xla_indexing.loop`, `xla_indexing.yield`, whose map is
//! `indexing_map`, an `#xla_indexing.map`) and XLA's (`xla.apply_indexing`, `xla.loop`,
//! `xla.yield`, whose map is `indexing_map_attr`, an `#xla.indexing_map`). They mean the same, so
//! every pass recognizes them, reads their maps and builds new ones through these helpers.

use melior::{
    Context,
    ir::{Attribute, OperationRef, operation::OperationLike},
};
use xla_indexing_core::IndexingMap;

use crate::{
    attribute::{AttributeError, attribute_map, map_attribute, xla_map_attribute},
    ffi,
    ir::op_name,
};

/// `xla_indexing.apply_indexing`.
pub const APPLY_INDEXING: &str = "xla_indexing.apply_indexing";
/// XLA's `xla.apply_indexing`.
pub const XLA_APPLY_INDEXING: &str = "xla.apply_indexing";
/// `xla_indexing.loop`.
pub const LOOP: &str = "xla_indexing.loop";
/// XLA's `xla.loop`.
pub const XLA_LOOP: &str = "xla.loop";
/// `xla_indexing.yield`.
pub const YIELD: &str = "xla_indexing.yield";
/// XLA's `xla.yield`.
pub const XLA_YIELD: &str = "xla.yield";

/// The two apply ops, ours first.
pub const APPLY_INDEXING_OPS: [&str; 2] = [APPLY_INDEXING, XLA_APPLY_INDEXING];

/// Whether `name` is an apply op of either dialect.
pub fn is_apply_indexing(name: &str) -> bool {
    APPLY_INDEXING_OPS.contains(&name)
}

/// Whether `name` is a loop op of either dialect.
pub fn is_loop(name: &str) -> bool {
    name == LOOP || name == XLA_LOOP
}

/// Whether `name` is the terminator of a loop op of either dialect.
pub fn is_yield(name: &str) -> bool {
    name == YIELD || name == XLA_YIELD
}

/// The name of the map attribute of op `name`: `indexing_map_attr` for XLA's ops,
/// `indexing_map` for ours.
pub fn map_attribute_name(name: &str) -> &'static str {
    if name.starts_with("xla.") {
        "indexing_map_attr"
    } else {
        "indexing_map"
    }
}

/// The map of an apply or loop op of either dialect; `None` for another op or an unreadable map.
pub fn op_map(op: &OperationRef) -> Option<IndexingMap> {
    let name = op_name(op);
    if !is_apply_indexing(&name) && !is_loop(&name) {
        return None;
    }
    attribute_map(op.attribute(map_attribute_name(&name)).ok()?).ok()
}

/// The map attribute that an op of the dialect of op `name` holds for `map`: an
/// `#xla.indexing_map` for XLA's ops, an `#xla_indexing.map` for ours.
pub fn map_attribute_for<'c>(
    context: &'c Context,
    name: &str,
    map: &IndexingMap,
) -> Result<Attribute<'c>, AttributeError> {
    if name.starts_with("xla.") {
        xla_map_attribute(context, map)
    } else {
        map_attribute(context, map)
    }
}

/// Inlines every `xla.pure_call` nested in `op` (and those the inlined bodies bring), as XLA's
/// pipeline does, and erases the private functions left without uses. Returns whether every call
/// was inlined; a call that cannot be is reported as an error diagnostic at the call.
pub fn inline_pure_calls(op: &OperationRef) -> bool {
    // SAFETY: `op` is a live operation; the function only rewrites what is nested in it.
    let result = unsafe { ffi::mlirXlaEmittersInlinePureCalls(op.to_raw()) };
    result.value != 0
}
