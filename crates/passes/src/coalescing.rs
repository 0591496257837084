//! `xla-indexing-coalescing`: reports, as a remark at every `memref.load` of a `gpu.func` that
//! carries an `xla_indexing.launch`, whether the warp's reads are coalesced, by the analysis of
//! `xla-indexing coalescing FILE.hlo` ([`xla_indexing_gpu::analyze_buffer_access`]):
//!
//! ```text
//! remark: xla-indexing-coalescing: coalesced, 1 transactions, ideal 1
//! remark: xla-indexing-coalescing: NOT coalesced, 8 transactions, ideal 1; why: dimension 0
//!   moves non-linearly with the lane (not minor: stride 128 elements in layout {1,0}): ...
//! remark: xla-indexing-coalescing: not analysed: index 1 is not an indexing map of thread ids:
//!   it is computed by 'memref.load'
//! ```
//!
//! Transactions are the 128-byte segments the first warp of the first block touches, summed
//! over the steps of its loops, against the fewest that could carry the same bytes.
//!
//! The map analysed goes from `(th_x, th_y, th_z, bl_x, bl_y, bl_z)` (bounded by the launch's
//! block and grid) and the range variables of the enclosing `xla_indexing.loop`s to the load's
//! indices. An index may be an `arith.constant`, a range variable or map result of an enclosing
//! loop, a result of `xla_indexing.apply_indexing`, or `arith.addi`, `subi` or `muli` (by a
//! constant) of such values, over `gpu.thread_id` and `gpu.block_id`; the maps' constraints, and
//! their bounds where the operands might leave them, restrict the points, and so do those of
//! every enclosing loop (its body runs only there). The range variables are numbered as in the
//! loop kernel's thread map: those of the kernel loop (the outermost loop over the six ids in
//! order), whose second is the unrolled element that the warp reads in the same step, then
//! those of the other loops, outermost first; a kernel loop with fewer than two, or none, is
//! padded with single-valued variables.
//!
//! The memref gives the buffer: its element type in XLA's names (`i32` and `si32` are `s32`,
//! `ui8` is `u8`, `i1` is `pred`, `index` is `s64`, `complex<f32>` is `c64`), its static shape,
//! and the strides and offset of its layout (a dynamic offset is taken as 0, an aligned start).
//! An identity layout is row-major, minor-to-major `{rank-1, ..., 0}`; strides that some dense
//! layout has (`strided<[1, 128]>` of `memref<128x8xf32>` is `{0,1}`) are named as that layout,
//! as the HLO report names them, and other strides as strides. Dynamic sizes or strides, and
//! memory other than global, are not analysed, with a remark that says why.
//! Conditions around a load (an `scf.if` that guards it) are not taken into account: the whole
//! warp is assumed to read.

use std::collections::HashMap;

use melior::ir::{
    OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
    block::BlockArgument,
    operation::{OperationLike, WalkOrder},
};
use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_gpu::{
    AccessCoalescing, Buffer, Device, analyze_buffer_access, thread_map::DIM_NAMES,
};

use super::error::LowerErrorKind;
use super::launch_grid::read_launch;
use super::{ChipOptions, PassFailure, chip_option};
use xla_indexing_mlir::handles::collect_ops;
use xla_indexing_mlir::index_op::{GpuQuery, IndexOp};
use xla_indexing_mlir::indexing_ops::{is_loop, op_map};
use xla_indexing_mlir::ir::{
    Signedness, block_parent_op, complex_element, defining_op, integer_attribute, integer_type,
    memref_memory_space, memref_strides, op_name, parent_op, shape_of,
};
use xla_indexing_mlir::pass_entry;
use xla_indexing_mlir::pass_host::{PassOption, PassSpec};
use xla_indexing_mlir::{KernelLaunch, LAUNCH_ATTRIBUTE, ir::emit_remark};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-coalescing";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-coalescing",
    c"XlaIndexingCoalescing",
    c"Report as remarks whether the memref.loads of GPU kernels with an xla_indexing.launch are coalesced (128-byte transactions of one warp against the ideal, and why not)",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 1] = [chip_option(
    c"The chip whose warp size and memory transactions the verdicts are for (sm_70 to sm_100)",
)];

/// Deepest chain of definitions followed for one index.
const MAX_DEPTH: usize = 64;

/// The loop kernel's range variables that every analysed map starts with: the chunk and the
/// unrolled element.
const KERNEL_SYMBOLS: usize = 2;

fn run(operation: OperationRef, options: &ChipOptions) -> Result<(), PassFailure> {
    let device = &options.device;
    let loads = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        op_name(op) == "memref.load"
    });
    for handle in loads {
        // SAFETY: the walk collected live ops, and the pass changes no IR.
        let load = unsafe { handle.get() };
        let Some(kernel) = enclosing_kernel(&load) else {
            continue;
        };
        let message = match analyze_load(&load, &kernel, device) {
            Ok(c) => remark(&c),
            Err(why) => format!("not analysed: {why}"),
        };
        emit_remark(load.location(), &format!("{ARGUMENT}: {message}"));
    }
    Ok(())
}

/// The remark of an analysed load, in the words of `xla-indexing coalescing`.
fn remark(c: &AccessCoalescing) -> String {
    let mut out = c.summary();
    if let Some(partial) = c.partial_count() {
        out.push_str(&format!("; {partial}"));
    }
    if let Some(reason) = &c.reason {
        out.push_str(&format!("; why: {reason}"));
    }
    out
}

/// The nearest enclosing `gpu.func` of `op`, if it carries a launch.
fn enclosing_kernel<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut parent = parent_op(op);
    while let Some(p) = parent {
        if op_name(&p) == "gpu.func" {
            return p.has_attribute(LAUNCH_ATTRIBUTE).then_some(p);
        }
        parent = parent_op(&p);
    }
    None
}

/// The coalescing of one load in `kernel`, or why it cannot be analysed.
fn analyze_load(
    load: &OperationRef,
    kernel: &OperationRef,
    device: &Device,
) -> Result<AccessCoalescing, LowerErrorKind> {
    let attribute = kernel
        .attribute(LAUNCH_ATTRIBUTE)
        .map_err(|e| LowerErrorKind::Mlir(e.to_string()))?;
    let launch = read_launch(attribute)?;
    let memref = load
        .operand(0)
        .map_err(|_| LowerErrorKind::Invalid("the load has no memref".into()))?;
    let buffer = buffer_of(memref.r#type())?;
    let rank = buffer.dims.len();
    if load.operand_count() != rank + 1 {
        return Err(LowerErrorKind::Invalid(format!(
            "the load has {} indices for a rank-{rank} memref",
            load.operand_count().saturating_sub(1)
        )));
    }
    let map = access_map(load, kernel, &launch)?;
    let identity = IndexingMap::identity(&buffer.dims);
    Ok(analyze_buffer_access(&map, &identity, &buffer, device)?)
}

/// The map from thread and block ids and the loops' range variables to the indices of `load`.
fn access_map(
    load: &OperationRef,
    kernel: &OperationRef,
    launch: &KernelLaunch,
) -> Result<IndexingMap, LowerErrorKind> {
    let mut builder = MapBuilder::new(load, kernel);
    builder.enter_loops()?;
    let mut results = Vec::with_capacity(load.operand_count().saturating_sub(1));
    for i in 1..load.operand_count() {
        let index = load
            .operand(i)
            .map_err(|_| LowerErrorKind::Invalid(format!("index {} is missing", i - 1)))?;
        let expr = builder
            .expr_of(index)
            .map_err(|why| LowerErrorKind::Index {
                index: i - 1,
                why: Box::new(why),
            })?;
        results.push(expr);
    }
    Ok(builder.finish(results, launch))
}

/// Builds an access map by following index computations back to thread ids and loop variables.
struct MapBuilder<'c, 'a> {
    kernel: OperationRef<'c, 'a>,
    /// The enclosing `xla_indexing.loop`s, outermost first, with their maps.
    loops: Vec<(OperationRef<'c, 'a>, IndexingMap)>,
    /// Per loop (by position in `loops`), the symbol of each of its range variables.
    slots: Vec<Vec<u32>>,
    symbols: Vec<Var>,
    /// Constraints that hold wherever the load runs.
    constraints: Vec<(Expr, Interval)>,
    /// Bounds of map variables that hold wherever the load runs; kept where they are not implied.
    bounds: Vec<(Expr, Interval)>,
    memo: HashMap<usize, Result<Expr, LowerErrorKind>>,
    depth: usize,
}

impl<'c, 'a> MapBuilder<'c, 'a> {
    fn new(load: &OperationRef<'c, 'a>, kernel: &OperationRef<'c, 'a>) -> Self {
        let mut loops = Vec::new();
        let mut parent = parent_op(load);
        while let Some(p) = parent {
            if p == *kernel {
                break;
            }
            if is_loop(&op_name(&p)) {
                loops.push(p);
            }
            parent = parent_op(&p);
        }
        loops.reverse();
        MapBuilder {
            kernel: *kernel,
            loops: loops
                .into_iter()
                .map(|l| {
                    let map = op_map(&l);
                    (l, map)
                })
                .filter_map(|(l, m)| Some((l, m?)))
                .collect(),
            slots: Vec::new(),
            symbols: Vec::new(),
            constraints: Vec::new(),
            bounds: Vec::new(),
            memo: HashMap::new(),
            depth: 0,
        }
    }

    /// Numbers the loops' range variables (the kernel loop's first, padded to two) and adds the
    /// constraints under which their bodies run.
    fn enter_loops(&mut self) -> Result<(), LowerErrorKind> {
        let kernel_loop = self
            .loops
            .iter()
            .position(|(l, m)| m.dims().len() == 6 && self.is_kernel_loop(l));
        self.slots = vec![Vec::new(); self.loops.len()];
        let mut order: Vec<Option<usize>> = vec![kernel_loop, None];
        order.extend(
            (0..self.loops.len())
                .filter(|&i| Some(i) != kernel_loop)
                .map(Some),
        );
        for i in order {
            let Some(i) = i else {
                // The kernel loop's range variables, padded to the chunk and the unrolled element.
                while self.symbols.len() < KERNEL_SYMBOLS {
                    self.symbols.push(Var::new(Interval::point(0)));
                }
                continue;
            };
            for var in self.loops[i].1.range_vars() {
                self.slots[i].push(self.symbols.len() as u32);
                self.symbols.push(Var::new(var.bounds));
            }
        }
        for i in 0..self.loops.len() {
            let (op, map) = self.loops[i].clone();
            let dims = self
                .operand_exprs(&op, 0, map.dims().len())
                .map_err(|(dim, why)| LowerErrorKind::LoopDim {
                    dim,
                    why: Box::new(why),
                })?;
            let syms: Vec<Expr> = self.slots[i].iter().map(|&s| Expr::sym(s)).collect();
            self.restrict(&map, &dims, &syms, false)?;
        }
        Ok(())
    }

    /// Whether `op`'s first six operands are the thread and block ids x, y, z in order.
    fn is_kernel_loop(&self, op: &OperationRef) -> bool {
        (0..6).all(|k| {
            op.operand(k)
                .ok()
                .and_then(defining_op)
                .is_some_and(|d| gpu_id(&d) == Some(k))
        })
    }

    /// The expressions of operands `from..to` of `op`, or the position and reason of the first
    /// that has none.
    fn operand_exprs(
        &mut self,
        op: &OperationRef<'c, 'a>,
        from: usize,
        to: usize,
    ) -> Result<Vec<Expr>, (usize, LowerErrorKind)> {
        (from..to)
            .map(|k| {
                let value = op
                    .operand(k)
                    .map_err(|_| (k - from, LowerErrorKind::Invalid("it is missing".into())))?;
                self.expr_of(value).map_err(|why| (k - from, why))
            })
            .collect()
    }

    /// Records that `map`'s variables, given as `dims` and `syms` (range then runtime
    /// variables), stay in its domain: its constraints and its variables' bounds.
    fn restrict(
        &mut self,
        map: &IndexingMap,
        dims: &[Expr],
        syms: &[Expr],
        symbol_bounds: bool,
    ) -> Result<(), LowerErrorKind> {
        let subst = |e: &Expr| e.substitute(dims, syms);
        for (e, interval) in map.constraints() {
            self.constraints.push((subst(e)?, *interval));
        }
        for (var, expr) in map.dims().iter().zip(dims) {
            self.bounds.push((expr.clone(), var.bounds));
        }
        if symbol_bounds {
            let vars = map.range_vars().iter().chain(map.rt_vars());
            for (var, expr) in vars.zip(syms) {
                self.bounds.push((expr.clone(), var.bounds));
            }
        }
        Ok(())
    }

    /// The expression of `value` over the thread ids (dims) and the loops' range variables
    /// (symbols), or why it has none.
    fn expr_of(&mut self, value: Value<'c, 'a>) -> Result<Expr, LowerErrorKind> {
        let key = value.to_raw().ptr as usize;
        if let Some(known) = self.memo.get(&key) {
            return known.clone();
        }
        if self.depth >= MAX_DEPTH {
            return Err(LowerErrorKind::Unsupported(
                "its computation is too deep".into(),
            ));
        }
        self.depth += 1;
        // Asked first: melior's failing `try_from` prints the value (and the whole module).
        let argument = value
            .is_block_argument()
            .then(|| BlockArgument::try_from(value).ok())
            .flatten();
        let result = match (argument, defining_op(value)) {
            (Some(argument), _) => self.block_argument(argument),
            (None, Some(op)) => {
                let index = (0..op.result_count())
                    .find(|&i| op.result(i).is_ok_and(|r| Value::from(r) == value))
                    .unwrap_or(0);
                self.op_result(op, index)
            }
            (None, None) => Err(LowerErrorKind::Invalid(
                "it is neither an op result nor a block argument".into(),
            )),
        };
        self.depth -= 1;
        self.memo.insert(key, result.clone());
        result
    }

    fn block_argument(&mut self, argument: BlockArgument<'c, 'a>) -> Result<Expr, LowerErrorKind> {
        let unsupported = LowerErrorKind::Unsupported;
        let number = argument.argument_number();
        let Some(parent) = block_parent_op(argument.owner()) else {
            return Err(unsupported("it is an argument of a detached block".into()));
        };
        if parent == self.kernel {
            return Err(unsupported(format!(
                "it is argument {number} of the kernel"
            )));
        }
        let name = op_name(&parent);
        let Some(i) = self.loops.iter().position(|(l, _)| *l == parent) else {
            return Err(unsupported(format!("it is an argument of '{name}'")));
        };
        let is_entry = parent
            .regions()
            .any(|r| r.first_block().is_some_and(|b| b == argument.owner()));
        if !is_entry {
            return Err(unsupported(format!(
                "it is an argument of a block of '{name}'"
            )));
        }
        let map = self.loops[i].1.clone();
        let num_range = map.range_vars().len();
        if number < num_range {
            return Ok(Expr::sym(self.slots[i][number]));
        }
        let Some(result) = map.results().get(number - num_range) else {
            return Err(unsupported(
                "it is a loop-carried value of an xla_indexing.loop".into(),
            ));
        };
        let op = self.loops[i].0;
        let dims = self
            .operand_exprs(&op, 0, map.dims().len())
            .map_err(|(_, why)| why)?;
        let syms: Vec<Expr> = self.slots[i].iter().map(|&s| Expr::sym(s)).collect();
        Ok(result.substitute(&dims, &syms)?)
    }

    fn op_result(
        &mut self,
        op: OperationRef<'c, 'a>,
        index: usize,
    ) -> Result<Expr, LowerErrorKind> {
        let (invalid, unsupported) = (LowerErrorKind::Invalid, LowerErrorKind::Unsupported);
        let name = op_name(&op);
        let operand = |this: &mut Self, k: usize| -> Result<Expr, LowerErrorKind> {
            let value = op
                .operand(k)
                .map_err(|_| invalid(format!("'{name}' lacks operand {k}")))?;
            this.expr_of(value)
        };
        let kind = IndexOp::of(&op);
        if let Some(k) = kind.and_then(launch_dim) {
            return Ok(Expr::dim(k as u32));
        }
        match kind {
            Some(IndexOp::Constant) => op
                .attribute("value")
                .ok()
                .and_then(integer_attribute)
                .map(Expr::constant)
                .ok_or_else(|| unsupported("it is a constant that is not an integer".into())),
            Some(IndexOp::ApplyIndexing) => {
                let map = op_map(&op)
                    .ok_or_else(|| invalid(format!("its {name} has no readable map")))?;
                let num_dims = map.dims().len();
                let dims = self
                    .operand_exprs(&op, 0, num_dims)
                    .map_err(|(_, why)| why)?;
                let syms = self
                    .operand_exprs(&op, num_dims, op.operand_count())
                    .map_err(|(_, why)| why)?;
                self.restrict(&map, &dims, &syms, true)?;
                let result = map.results().get(index).ok_or_else(|| {
                    invalid("its xla_indexing.apply_indexing lacks the result".into())
                })?;
                Ok(result.substitute(&dims, &syms)?)
            }
            Some(kind @ (IndexOp::Add | IndexOp::Sub)) => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let sum = if kind == IndexOp::Add {
                    a.checked_add(&b)
                } else {
                    a.checked_sub(&b)
                };
                Ok(sum?)
            }
            Some(IndexOp::Mul) => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let product = match (a.as_constant(), b.as_constant()) {
                    (Some(k), _) => b.checked_scale(k),
                    (_, Some(k)) => a.checked_scale(k),
                    (None, None) => {
                        return Err(unsupported("it is a product of two variables".into()));
                    }
                };
                Ok(product?)
            }
            _ => Err(unsupported(format!("it is computed by '{name}'"))),
        }
    }

    /// The map of `results` over the launch's ids and the loops' range variables, restricted to
    /// where the load runs.
    fn finish(self, results: Vec<Expr>, launch: &KernelLaunch) -> IndexingMap {
        let sizes = launch.block.iter().chain(&launch.grid);
        let dims = sizes
            .zip(DIM_NAMES)
            .map(|(&n, name)| {
                Var::named(Interval::upto(i64::try_from(n).unwrap_or(i64::MAX)), name)
            })
            .collect();
        let mut map = IndexingMap::new(results, dims, self.symbols, Vec::new());
        for (e, interval) in self.constraints {
            map.add_constraint(e, interval);
        }
        for (e, interval) in self.bounds {
            let range = map.range_evaluator(false).range(&e);
            if !interval.contains_interval(range) {
                map.add_constraint(e, interval);
            }
        }
        map
    }
}

/// The dimension of `gpu.thread_id` (0..3) or `gpu.block_id` (3..6).
fn gpu_id(op: &OperationRef) -> Option<usize> {
    IndexOp::of(op).and_then(launch_dim)
}

/// The launch dimension (0..3 the thread ids, 3..6 the block ids) that `kind` reads, if it
/// reads one.
fn launch_dim(kind: IndexOp) -> Option<usize> {
    match kind {
        IndexOp::Gpu {
            query: GpuQuery::ThreadId,
            dim,
        } => Some(dim),
        IndexOp::Gpu {
            query: GpuQuery::BlockId,
            dim,
        } => Some(3 + dim),
        _ => None,
    }
}

/// The buffer a memref type describes, or why it cannot be analysed.
fn buffer_of(ty: Type) -> Result<Buffer, LowerErrorKind> {
    let unsupported = LowerErrorKind::Unsupported;
    let shape = shape_of(ty)
        .filter(|s| s.is_memref)
        .ok_or_else(|| unsupported(format!("{ty} is not a memref")))?;
    if let Some(space) = memref_memory_space(ty) {
        let global = space.to_string().contains("global")
            || integer_attribute(space).is_some_and(|n| n == 0 || n == 1);
        if !global {
            return Err(unsupported(format!(
                "it reads memory space {space}; coalescing concerns global memory"
            )));
        }
    }
    let element = element_name(shape.element)?;
    let dims = shape.sizes.iter().enumerate().map(|(d, size)| {
        size.ok_or_else(|| unsupported(format!("dimension {d} of {ty} is dynamic")))
    });
    let dims = dims.collect::<Result<Vec<i64>, _>>()?;
    let (strides, offset) = memref_strides(ty)
        .ok_or_else(|| unsupported(format!("the layout of {ty} has no strides")))?;
    let strides: Vec<i64> = strides
        .into_iter()
        .collect::<Option<_>>()
        .ok_or_else(|| unsupported(format!("{ty} has a dynamic stride")))?;
    Ok(Buffer::strided(
        &element,
        &dims,
        &strides,
        offset.unwrap_or(0),
    ))
}

/// The XLA name of an element type (`f32`, `bf16`, `s32`, `u8`, `pred`, `c64`, ...).
fn element_name(ty: Type) -> Result<String, LowerErrorKind> {
    if ty.is_index() {
        return Ok("s64".into());
    }
    if let Some((width, sign)) = integer_type(ty) {
        return Ok(match (width, sign) {
            (1, Signedness::Signless | Signedness::Signed) => "pred".into(),
            (w, Signedness::Unsigned) => format!("u{w}"),
            (w, _) => format!("s{w}"),
        });
    }
    if let Some(part) = complex_element(ty) {
        return match element_name(part)?.as_str() {
            "f32" => Ok("c64".into()),
            "f64" => Ok("c128".into()),
            _ => Err(LowerErrorKind::ElementType(ty.to_string())),
        };
    }
    let text = ty.to_string();
    let float = text.starts_with('f') || text == "bf16";
    if float && text.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(LowerErrorKind::ElementType(ty.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opt::full_context;

    #[test]
    fn element_names_are_xla_names() {
        let context = full_context();
        let name = |text: &str| element_name(Type::parse(&context, text).unwrap());
        for (mlir, xla) in [
            ("f32", "f32"),
            ("bf16", "bf16"),
            ("f16", "f16"),
            ("f64", "f64"),
            ("f8E4M3FN", "f8e4m3fn"),
            ("i1", "pred"),
            ("i8", "s8"),
            ("si32", "s32"),
            ("ui16", "u16"),
            ("index", "s64"),
            ("complex<f32>", "c64"),
            ("complex<f64>", "c128"),
        ] {
            assert_eq!(name(mlir).as_deref(), Ok(xla), "{mlir}");
        }
        assert!(name("vector<4xf32>").is_err());
        assert!(name("complex<i32>").is_err());
    }

    #[test]
    fn buffers_of_memrefs_give_layouts_or_strides() {
        let context = full_context();
        let buffer = |text: &str| buffer_of(Type::parse(&context, text).unwrap());
        let row_major = buffer("memref<8x128xf32>").unwrap();
        assert_eq!(
            (row_major.strides.as_slice(), row_major.minor),
            (&[128, 1][..], Some(1))
        );
        assert_eq!(row_major.description, "layout {1,0}");
        let padded = buffer("memref<8x128xbf16, strided<[256, 1], offset: 64>>").unwrap();
        assert_eq!(
            (
                padded.strides.as_slice(),
                padded.offset,
                padded.element.as_str()
            ),
            (&[256, 1][..], 64, "bf16")
        );
        let dynamic_offset = buffer("memref<8x128xf32, strided<[256, 1], offset: ?>>").unwrap();
        assert_eq!(dynamic_offset.offset, 0);
        assert_eq!(
            buffer("memref<8x?xf32>").unwrap_err().to_string(),
            "dimension 1 of memref<8x?xf32> is dynamic"
        );
        assert_eq!(
            buffer("memref<8x128xf32, strided<[?, 1]>>")
                .unwrap_err()
                .to_string(),
            "memref<8x128xf32, strided<[?, 1]>> has a dynamic stride"
        );
        assert!(buffer("memref<8xf32, 1>").is_ok());
        assert!(buffer("memref<8xf32, 3>").is_err());
        assert!(buffer("tensor<8xf32>").is_err());
    }
}
