//! `#xla_indexing.launch<block = [..], grid = [..], map = "...">` attributes to and from a
//! [`KernelLaunch`]: a kernel's block and grid sizes and its thread-id indexing map, held as the
//! attribute holds them (the GPU planner's launch types are not this crate's: the passes convert).
//!
//! ```mlir
//! gpu.func @fusion(...) kernel attributes {xla_indexing.launch = #xla_indexing.launch<
//!     block = [128, 1, 1], grid = [8, 1, 1],
//!     map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (...), domain: ...">}
//! ```
//!
//! The dialect checks the form (three positive sizes each, a map with six dimensions, parsed and
//! canonicalized by the core's grammar); `xla-indexing-launch-grid` checks the hardware limits
//! and that the map's dimension bounds agree with the sizes.

use melior::{
    Context, StringRef,
    ir::{Attribute, attribute::AttributeLike},
};
use xla_indexing_core::{IndexingMap, ParseError};

use crate::{attribute::AttributeError, ffi};

/// The name under which kernels carry their launch.
pub const LAUNCH_ATTRIBUTE: &str = "xla_indexing.launch";

/// A kernel's launch: threads per block and blocks per grid (x first), and the thread-id map
/// from `(th_x, th_y, th_z, bl_x, bl_y, bl_z)[range vars]` to what a thread computes.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelLaunch {
    /// Threads per block along x, y and z (the attribute's `block`).
    pub block: [u64; 3],
    /// Blocks per grid along x, y and z (the attribute's `grid`).
    pub grid: [u64; 3],
    /// The thread-id map.
    pub map: IndexingMap,
}

/// Returns the `#xla_indexing.launch` attribute of `launch` in `context`. Sizes that are zero or
/// do not fit `i64`, and maps without six dimensions, are rejected (the dialect's verifier
/// reports why to the context's diagnostic handlers).
pub fn launch_attribute<'c>(
    context: &'c Context,
    launch: &KernelLaunch,
) -> Result<Attribute<'c>, AttributeError> {
    let text = launch.map.to_string();
    let rejected = || {
        AttributeError::LaunchRejected(format!(
            "block {:?}, grid {:?}, map {text}",
            launch.block, launch.grid
        ))
    };
    let sizes = |v: [u64; 3]| -> Option<[i64; 3]> {
        let [x, y, z] = v.map(|n| i64::try_from(n).ok());
        Some([x?, y?, z?])
    };
    let (Some(block), Some(grid)) = (sizes(launch.block), sizes(launch.grid)) else {
        return Err(rejected());
    };
    let string = StringRef::new(&text);
    // SAFETY: `context` is a live context in which the dialect is registered or loadable; the
    // size arrays hold three elements each and `string` borrows `text`, all outliving the call
    // (the attribute copies them).
    let raw = unsafe {
        ffi::mlirXlaIndexingLaunchAttrGet(
            context.to_raw(),
            block.as_ptr(),
            grid.as_ptr(),
            string.to_raw(),
        )
    };
    // SAFETY: `raw` is null or an attribute of `context`.
    unsafe { Attribute::from_option_raw(raw) }.ok_or_else(rejected)
}

/// Whether `attribute` is an `#xla_indexing.launch`.
pub fn is_launch_attribute(attribute: Attribute) -> bool {
    // SAFETY: `attribute` is a valid attribute.
    unsafe { ffi::mlirAttributeIsAXlaIndexingLaunch(attribute.to_raw()) }
}

/// Returns the launch held by an `#xla_indexing.launch` attribute.
pub fn attribute_launch(attribute: Attribute) -> Result<KernelLaunch, AttributeError> {
    if !is_launch_attribute(attribute) {
        return Err(AttributeError::NotALaunch(attribute.to_string()));
    }
    let raw = attribute.to_raw();
    let sizes = |get: unsafe extern "C" fn(ffi::MlirAttribute, isize) -> i64| {
        // SAFETY: `raw` is an `#xla_indexing.launch`, whose verifier guarantees three positive
        // sizes each.
        [0, 1, 2].map(|axis| u64::try_from(unsafe { get(raw, axis) }).unwrap_or(0))
    };
    let block = sizes(ffi::mlirXlaIndexingLaunchAttrGetBlock);
    let grid = sizes(ffi::mlirXlaIndexingLaunchAttrGetGrid);
    // SAFETY: `raw` is an `#xla_indexing.launch`.
    // The text is owned by the attribute's context.
    let text = unsafe { ffi::string_of(ffi::mlirXlaIndexingLaunchAttrGetMap(raw)) }
        .ok_or_else(|| AttributeError::NotALaunch("its map text is not UTF-8".into()))?;
    let map = IndexingMap::parse(text).map_err(|e: ParseError| AttributeError::Parse {
        column: e.column,
        message: e.message.clone(),
    })?;
    Ok(KernelLaunch { block, grid, map })
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, rc::Rc};

    use super::*;
    use crate::session::full_context as context;

    /// The launch the GPU planner gives a loop kernel writing an `f32[8,128]` on an H100.
    fn loop_kernel_launch() -> KernelLaunch {
        let map = IndexingMap::parse(
            "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x, th_x), domain: \
             th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], \
             bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]",
        )
        .unwrap();
        KernelLaunch {
            block: [128, 1, 1],
            grid: [8, 1, 1],
            map,
        }
    }

    #[test]
    fn launch_attribute_round_trips() {
        let context = context();
        let launch = loop_kernel_launch();
        let attribute = launch_attribute(&context, &launch).unwrap();
        assert!(is_launch_attribute(attribute));
        assert_eq!(attribute_launch(attribute).unwrap(), launch);
        let text = attribute.to_string();
        assert!(
            text.starts_with("#xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = \"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> ("),
            "{text}"
        );
        let parsed = Attribute::parse(&context, &text).unwrap();
        assert_eq!(parsed, attribute);
    }

    /// The error diagnostics of `context` while `f` runs.
    fn errors_of<T>(context: &Context, f: impl FnOnce() -> T) -> (T, Vec<String>) {
        let errors = Rc::new(RefCell::new(Vec::new()));
        let sink = errors.clone();
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(diagnostic.to_string());
            true
        });
        let result = f();
        context.detach_diagnostic_handler(id);
        let errors = errors.borrow().clone();
        (result, errors)
    }

    #[test]
    fn launch_attribute_rejects_zero_sizes_and_other_arities() {
        let context = context();
        let mut launch = loop_kernel_launch();
        launch.grid[1] = 0;
        let (result, errors) = errors_of(&context, || launch_attribute(&context, &launch));
        assert!(matches!(result, Err(AttributeError::LaunchRejected(_))));
        assert_eq!(errors, ["launch grid size along y must be positive, got 0"]);

        let mut launch = loop_kernel_launch();
        launch.map = IndexingMap::parse("(d0) -> (d0), domain: d0 in [0, 127]").unwrap();
        let (result, errors) = errors_of(&context, || launch_attribute(&context, &launch));
        assert!(matches!(result, Err(AttributeError::LaunchRejected(_))));
        assert_eq!(
            errors,
            ["launch map must have 6 dims (th_x, th_y, th_z, bl_x, bl_y, bl_z), got 1"]
        );
    }

    #[test]
    fn attribute_launch_refuses_other_attributes() {
        let context = context();
        let unit = Attribute::unit(&context);
        assert!(!is_launch_attribute(unit));
        assert!(matches!(
            attribute_launch(unit),
            Err(AttributeError::NotALaunch(_))
        ));
    }
}
