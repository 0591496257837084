//! `xla-indexing-launch-grid`: checks the launch grids of GPU kernels against the hardware and
//! writes them where MLIR's GPU lowering and `ptxas` read them.
//!
//! * A `gpu.func` kernel carrying `xla_indexing.launch = #xla_indexing.launch<block = [..],
//!   grid = [..], map = "...">`: the sizes are checked against the limits of an sm_90 device
//!   (at most 1024 threads per block, 2^31 - 1 blocks along x, 65535 along y and z, every size at
//!   least 1), the bounds of the map's six dimensions must be the thread and block ids the sizes
//!   allow (`th_x in [0, block.x - 1]`, ..., `bl_z in [0, grid.z - 1]`), and
//!   `known_block_size`, `known_grid_size` and `nvvm.reqntid` (all `array<i32: x, y, z>`) are set
//!   from the sizes; `known_block_size`, `known_grid_size` or `nvvm.reqntid` already there must
//!   agree with them.
//! * A `gpu.func` kernel with `known_block_size` and `known_grid_size` but no launch (what
//!   `gpu-kernel-outlining` makes of a `gpu.launch` with constant sizes): the sizes are checked
//!   likewise, and `nvvm.reqntid` and an `xla_indexing.launch` whose map is the linear thread
//!   index of the grid are added, so that later passes have a thread map. Threads are numbered
//!   as the loop kernels of `xla_indexing_gpu::thread_map` number them: x fastest across
//!   all blocks, then y, then z (`th_x + bl_x * block.x + (th_y + bl_y * block.y) * block.x *
//!   grid.x + ...`), and the map has the loop kernel's two range variables `chunk_id` and
//!   `unroll_id`, single-valued. For block `[32, 4, 1]` and grid `[3, 2, 1]`:
//!   `(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x + th_y * 96 + bl_x * 32
//!   + bl_y * 384)`.
//! * A `gpu.launch` whose grid and block sizes are `arith.constant`s: checked likewise; it gets
//!   an `xla_indexing.launch` with the linear map (or the one it carries is checked against its
//!   sizes). `gpu-kernel-outlining` does not carry the attributes of a `gpu.launch` over to the
//!   kernel it makes, but sets `known_block_size` and `known_grid_size` from the constant sizes,
//!   which the second case above turns into a launch again.
//! * A `gpu.func` or `llvm.func` carrying `nvvm.reqntid`: `nvvm.maxntid` is removed.
//!
//! A launch that breaks a limit, or a map that disagrees with its sizes, is an error at its op
//! and fails the pass.
//!
//! What `convert-gpu-to-nvvm` (LLVM 22) does with these attributes, as found by experiment: a
//! `gpu.func`'s `known_block_size` and `known_grid_size` become `gpu.known_block_size` and
//! `gpu.known_grid_size` on the `llvm.func`, bound the `nvvm.read.ptx.sreg.tid.*` and
//! `ctaid.*` reads (`range <i32, 0, 128>`), and `known_block_size` also becomes
//! `nvvm.maxntid = array<i32: ...>`; `nvvm.reqntid` (and an `nvvm.maxntid` already there) is
//! carried over as it is, and so is `xla_indexing.launch` (translation to LLVM IR ignores it). The NVPTX backend prints `nvvm.reqntid` as `.reqntid` and
//! `nvvm.maxntid` as `.maxntid`, and `ptxas` rejects a kernel that has both ("Conflicting
//! directives: .maxntid and .reqntid cannot both be specified"). Hence this pass runs before the
//! conversion (to set `nvvm.reqntid`) and again after it (to drop the `nvvm.maxntid` the
//! conversion adds back):
//!
//! ```text
//! xla-indexing-launch-grid, nvvm-attach-target{chip=sm_90 features=+ptx80},
//! gpu.module(lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts),
//! xla-indexing-launch-grid, gpu-module-to-binary{format=isa}
//! ```

use melior::{
    Context,
    ir::{
        Attribute, OperationRef,
        attribute::DenseI32ArrayAttribute,
        operation::{OperationLike, WalkOrder},
    },
};
use xla_indexing_core::Interval;
use xla_indexing_gpu::{Device, LaunchDimensions, thread_id_map, thread_map::DIM_NAMES};
use xla_indexing_hlo::layout::Layout;

use super::error::{LowerErrorKind, sizes};
use super::{ChipOptions, PassFailure, chip_option};
use xla_indexing_mlir::handles::{OpHandle, collect_ops, with_context};
use xla_indexing_mlir::ir::{
    constant_value, dense_array, op_name, remove_attribute, set_attribute,
};
use xla_indexing_mlir::pass_entry;
use xla_indexing_mlir::pass_host::{PassOption, PassSpec};
use xla_indexing_mlir::{
    KernelLaunch, LAUNCH_ATTRIBUTE, attribute_launch, ir::emit_error, launch_attribute,
};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-launch-grid";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-launch-grid",
    c"XlaIndexingLaunchGrid",
    c"Check kernel launch grids (xla_indexing.launch, known_block_size/known_grid_size, constant gpu.launch sizes) against the hardware limits and set known_block_size, known_grid_size and nvvm.reqntid; drop nvvm.maxntid where nvvm.reqntid is set",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 1] = [chip_option(
    c"The chip whose limits the launches are checked against (sm_70 to sm_100)",
)];

/// The block size attribute of `gpu.func`.
const KNOWN_BLOCK_SIZE: &str = "known_block_size";
/// The grid size attribute of `gpu.func`.
const KNOWN_GRID_SIZE: &str = "known_grid_size";
/// The exact block size of an NVVM kernel (`.reqntid`).
const REQNTID: &str = "nvvm.reqntid";
/// The largest block size of an NVVM kernel (`.maxntid`).
const MAXNTID: &str = "nvvm.maxntid";

fn run(operation: OperationRef, options: &ChipOptions) -> Result<(), PassFailure> {
    let device = &options.device;
    let ops = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        matches!(
            op_name(op).as_str(),
            "gpu.func" | "gpu.launch" | "llvm.func"
        )
    });
    // SAFETY: the context is used inside the closure only.
    unsafe { with_context(&operation, |context| check_all(context, &ops, device)) }
}

/// Checks and annotates the kernels and launches `ops`; the pass fails if any fails.
fn check_all(context: &Context, ops: &[OpHandle], device: &Device) -> Result<(), PassFailure> {
    let mut failures = 0usize;
    for handle in ops {
        // SAFETY: the walk collected live ops, and the pass changes attributes only.
        let op = unsafe { handle.get() };
        let outcome = match op_name(&op).as_str() {
            "gpu.func" if op.has_attribute("gpu.kernel") => kernel(context, &op, device),
            "gpu.launch" => launch_op(context, &op, device),
            _ => Ok(()),
        };
        if let Err(error) = outcome {
            emit_error(op.location(), &format!("{ARGUMENT}: {error}"));
            failures += 1;
        }
        if op.has_attribute(REQNTID) && op.has_attribute(MAXNTID) {
            remove_attribute(&op, MAXNTID);
        }
    }
    match failures {
        0 => Ok(()),
        1 => Err("a kernel launch failed its checks (see the error above)".into()),
        n => Err(format!("{n} kernel launches failed their checks (see the errors above)").into()),
    }
}

/// A `gpu.func` kernel: its launch, or its known sizes, checked and written out.
fn kernel(context: &Context, op: &OperationRef, device: &Device) -> Result<(), LowerErrorKind> {
    let known_block = known_sizes(op, KNOWN_BLOCK_SIZE)?;
    let known_grid = known_sizes(op, KNOWN_GRID_SIZE)?;
    let launch = match op.attribute(LAUNCH_ATTRIBUTE) {
        Ok(attribute) => {
            let launch = read_launch(attribute)?;
            check(&launch, device)?;
            for (name, known, given, what) in [
                (KNOWN_BLOCK_SIZE, known_block, launch.block, "block"),
                (KNOWN_GRID_SIZE, known_grid, launch.grid, "grid"),
            ] {
                if let Some(known) = known.filter(|&k| k != given) {
                    return Err(LowerErrorKind::Invalid(format!(
                        "{name} {} disagrees with the launch's {what} {}",
                        sizes(known),
                        sizes(given)
                    )));
                }
            }
            launch
        }
        Err(_) => {
            let (Some(threads), Some(blocks)) = (known_block, known_grid) else {
                return Ok(());
            };
            let launch = linear_launch(LaunchDimensions { blocks, threads }, device)?;
            set_attribute(op, LAUNCH_ATTRIBUTE, write_launch(context, &launch)?);
            launch
        }
    };
    if let Some(reqntid) = op.attribute(REQNTID).ok().and_then(dense_array)
        && !same_sizes(&reqntid, launch.block)
    {
        return Err(LowerErrorKind::Invalid(format!(
            "{REQNTID} {reqntid:?} disagrees with the launch's block {}",
            sizes(launch.block)
        )));
    }
    let threads = i32_array(context, launch.block)?;
    set_attribute(op, KNOWN_BLOCK_SIZE, threads);
    set_attribute(op, KNOWN_GRID_SIZE, i32_array(context, launch.grid)?);
    set_attribute(op, REQNTID, threads);
    Ok(())
}

/// A `gpu.launch`: with constant sizes, the launch they make (or the one it carries) checked and
/// attached.
fn launch_op(context: &Context, op: &OperationRef, device: &Device) -> Result<(), LowerErrorKind> {
    let Some(dims) = constant_launch_sizes(op)? else {
        return Ok(());
    };
    match op.attribute(LAUNCH_ATTRIBUTE) {
        Ok(attribute) => {
            let launch = read_launch(attribute)?;
            check(&launch, device)?;
            if dimensions(&launch) != dims {
                return Err(LowerErrorKind::Invalid(format!(
                    "the launch's block {} and grid {} disagree with the op's block {} and grid {}",
                    sizes(launch.block),
                    sizes(launch.grid),
                    sizes(dims.threads),
                    sizes(dims.blocks)
                )));
            }
        }
        Err(_) => {
            let launch = linear_launch(dims, device)?;
            set_attribute(op, LAUNCH_ATTRIBUTE, write_launch(context, &launch)?);
        }
    }
    Ok(())
}

/// The launch in `attribute`, or why it is none.
pub(crate) fn read_launch(attribute: Attribute) -> Result<KernelLaunch, LowerErrorKind> {
    attribute_launch(attribute).map_err(LowerErrorKind::LaunchAttribute)
}

/// The attribute of `launch`, or why it cannot be made.
fn write_launch<'c>(
    context: &'c Context,
    launch: &KernelLaunch,
) -> Result<Attribute<'c>, LowerErrorKind> {
    Ok(launch_attribute(context, launch)?)
}

/// Checks the sizes of `launch` against `device`, and the bounds of its map's dimensions
/// against the sizes.
fn check(launch: &KernelLaunch, device: &Device) -> Result<(), LowerErrorKind> {
    check_limits(dimensions(launch), device)?;
    for (i, var) in launch.map.dims().iter().enumerate() {
        let (count, what) = if i < 3 {
            (launch.block[i], "threads per block")
        } else {
            (launch.grid[i - 3], "blocks")
        };
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        if var.bounds != Interval::upto(count) {
            let axis = ['x', 'y', 'z'][i % 3];
            let name = var.name.as_deref().unwrap_or(DIM_NAMES[i]);
            return Err(LowerErrorKind::Invalid(format!(
                "the launch map bounds {name} by [{}, {}], but there are {count} {what} along \
                 {axis}: expected [0, {}]",
                var.bounds.lo,
                var.bounds.hi,
                count - 1
            )));
        }
    }
    Ok(())
}

/// The launch dimensions of the planner for the sizes of `launch`.
fn dimensions(launch: &KernelLaunch) -> LaunchDimensions {
    LaunchDimensions {
        blocks: launch.grid,
        threads: launch.block,
    }
}

/// Checks launch sizes against the device's limits.
fn check_limits(dims: LaunchDimensions, device: &Device) -> Result<(), LowerErrorKind> {
    dims.check(device).map_err(|source| LowerErrorKind::Limits {
        dims,
        chip: device.name.clone(),
        source,
    })
}

/// The launch of `dims` whose map is the linear thread index of the grid.
fn linear_launch(dims: LaunchDimensions, device: &Device) -> Result<KernelLaunch, LowerErrorKind> {
    check_limits(dims, device)?;
    let total = dims
        .total_threads()
        .and_then(|t| i64::try_from(t).ok())
        .ok_or_else(|| {
            LowerErrorKind::Unsupported("the grid has more threads than an index can count".into())
        })?;
    let map = thread_id_map(&dims, 1, &[total], &Layout::default_for_rank(1))
        .map_err(LowerErrorKind::LinearMap)?;
    Ok(KernelLaunch {
        block: dims.threads,
        grid: dims.blocks,
        map,
    })
}

/// The sizes in the attribute `name` (`known_block_size` or `known_grid_size`) of a `gpu.func`.
fn known_sizes(op: &OperationRef, name: &str) -> Result<Option<[u64; 3]>, LowerErrorKind> {
    let Ok(attribute) = op.attribute(name) else {
        return Ok(None);
    };
    let values = dense_array(attribute).ok_or_else(|| {
        LowerErrorKind::Invalid(format!("{name} is not an array of integers: {attribute}"))
    })?;
    three_sizes(&values).map(Some).ok_or_else(|| {
        LowerErrorKind::Invalid(format!("{name} {values:?} is not three positive sizes"))
    })
}

/// The grid and block sizes of a `gpu.launch`, when they are all `arith.constant`s.
fn constant_launch_sizes(op: &OperationRef) -> Result<Option<LaunchDimensions>, LowerErrorKind> {
    let Some(segments) = op
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(dense_array)
    else {
        return Ok(None);
    };
    // Operands: async dependencies, then grid x, y, z and block x, y, z.
    let first = usize::try_from(segments.first().copied().unwrap_or(0)).unwrap_or(0);
    let values: Option<Vec<i64>> = (first..first + 6)
        .map(|i| op.operand(i).ok().and_then(constant_value))
        .collect();
    let Some(values) = values else {
        return Ok(None);
    };
    let (Some(blocks), Some(threads)) = (three_sizes(&values[..3]), three_sizes(&values[3..]))
    else {
        return Err(LowerErrorKind::Invalid(format!(
            "grid {:?} and block {:?}: every size must be at least 1",
            &values[..3],
            &values[3..]
        )));
    };
    Ok(Some(LaunchDimensions { blocks, threads }))
}

/// Three sizes of at least 1.
fn three_sizes(values: &[i64]) -> Option<[u64; 3]> {
    match values {
        &[x, y, z] if x >= 1 && y >= 1 && z >= 1 => Some([x as u64, y as u64, z as u64]),
        _ => None,
    }
}

/// Whether an attribute's values are the three sizes.
fn same_sizes(values: &[i64], sizes: [u64; 3]) -> bool {
    values.len() == 3
        && values
            .iter()
            .zip(sizes)
            .all(|(&v, s)| u64::try_from(v) == Ok(s))
}

/// `array<i32: x, y, z>` of checked sizes.
fn i32_array(context: &Context, values: [u64; 3]) -> Result<Attribute<'_>, LowerErrorKind> {
    let [x, y, z] = values.map(|v| i32::try_from(v).ok());
    let (Some(x), Some(y), Some(z)) = (x, y, z) else {
        return Err(LowerErrorKind::Unsupported(format!(
            "the sizes {} do not fit in i32",
            sizes(values)
        )));
    };
    Ok(DenseI32ArrayAttribute::new(context, &[x, y, z]).into())
}
