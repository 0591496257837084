//! A tile of every kernel's outputs propagated to the parameters each output reads (what
//! `xla-indexing tiles` reports): concrete tiles of given sizes, or symbolic tiles of the sizes
//! as symbols.

use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::error::HloError;
use xla_indexing_hlo::fusion::Composer;
use xla_indexing_hlo::module::Module;
use xla_indexing_hlo::shape::ArrayShape;

use crate::kernel::{Kernel, kernels};
use crate::symbolic_tile::{SymbolicTile, symbolic_tile_of_access};
use crate::tiles::{OperandTile, OutputTile, TileError, output_tile, propagate};

/// The tiles of one kernel's output, or why it cannot be tiled: `O` the output's tiling, `T`
/// each operand's tile.
pub struct KernelTiles<O = OutputTile, T = OperandTile> {
    /// The kernel.
    pub kernel: Kernel,
    /// The fused computation's name.
    pub computation: String,
    /// The tiled output's index among the kernel's outputs (0-based).
    pub output: usize,
    /// The output's tiling, or why it cannot be tiled.
    pub tile: Result<O, TileError>,
    /// One entry per map of each parameter leaf the output reads (empty when it cannot be tiled).
    pub operands: Vec<TiledOperand<T>>,
}

/// One map by which a parameter leaf is read, and the tile it gives.
pub struct TiledOperand<T = OperandTile> {
    /// The parameter number (`N` of `parameter(N)`).
    pub parameter: usize,
    /// The leaf of the parameter's shape (0 for an array).
    pub leaf: usize,
    /// The leaf's shape (absent when the computation lacks the parameter).
    pub shape: Option<ArrayShape>,
    /// The output-to-operand access (absent where the maps are undefined).
    pub access: Option<Access>,
    /// The operand tile that one output tile reads, or why it cannot be expressed.
    pub tile: Result<T, TileError>,
}

/// The symbolic tiles of a kernel's output (tiled by its own dimensions).
pub type SymbolicKernelTiles = KernelTiles<Vec<i64>, SymbolicTile>;

/// Propagates a tile of `sizes` from every kernel's outputs to their operands, calling
/// `progress(done, total)` after each kernel.
pub fn tiles_of_module(
    module: &Module,
    sizes: &[i64],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<KernelTiles>, HloError> {
    walk(
        module,
        &|shape| output_tile(&shape.dims, sizes),
        &|tile, access| propagate(tile, &access.map),
        progress,
    )
}

/// The symbolic tile of every operand of every kernel's outputs, calling `progress(done,
/// total)` after each kernel.
pub fn symbolic_tiles_of_module(
    module: &Module,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<SymbolicKernelTiles>, HloError> {
    walk(
        module,
        &|shape| Ok(shape.dims.clone()),
        &|dims, access| symbolic_tile_of_access(dims, access),
        progress,
    )
}

/// Tiles every kernel's outputs by `output` and each map of each parameter leaf they read by
/// `operand`.
fn walk<O, T>(
    module: &Module,
    output: &dyn Fn(&ArrayShape) -> Result<O, TileError>,
    operand: &dyn Fn(&O, &Access) -> Result<T, TileError>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<KernelTiles<O, T>>, HloError> {
    let mut out = Vec::new();
    let mut composer = Composer::new(module);
    let kernels = kernels(module);
    for (done, kernel) in kernels.iter().enumerate() {
        for k in 0..kernel.outputs.len() {
            out.push(tile_output(
                module,
                &mut composer,
                kernel,
                k,
                output,
                operand,
            )?);
        }
        progress(done + 1, kernels.len());
    }
    Ok(out)
}

/// The symbolic tiles of the operands of `kernel`'s output `k`.
pub fn symbolic_tiles_of_output(
    module: &Module,
    kernel: &Kernel,
    k: usize,
) -> Result<SymbolicKernelTiles, HloError> {
    tile_output(
        module,
        &mut Composer::new(module),
        kernel,
        k,
        &|shape| Ok(shape.dims.clone()),
        &|dims, access| symbolic_tile_of_access(dims, access),
    )
}

/// Tiles `kernel`'s output `k` by `output` and each map of each parameter leaf it reads by
/// `operand`.
fn tile_output<O, T>(
    module: &Module,
    composer: &mut Composer<'_>,
    kernel: &Kernel,
    k: usize,
    output: &dyn Fn(&ArrayShape) -> Result<O, TileError>,
    operand: &dyn Fn(&O, &Access) -> Result<T, TileError>,
) -> Result<KernelTiles<O, T>, HloError> {
    let comp = &module.computations[kernel.computation];
    let tile = output(&kernel.outputs[k]);
    let mut operands = Vec::new();
    if let Ok(t) = &tile {
        for p in composer.computation_output_to_input(kernel.computation, k)? {
            let pshape = comp.parameter(p.parameter).and_then(|i| {
                comp.instructions[i]
                    .shape
                    .leaves()
                    .get(p.leaf)
                    .map(|s| (*s).clone())
            });
            for a in p.maps.accesses {
                let result = operand(t, &a);
                operands.push(TiledOperand {
                    parameter: p.parameter,
                    leaf: p.leaf,
                    shape: pshape.clone(),
                    access: Some(a),
                    tile: result,
                });
            }
            if let Some(u) = p.maps.undefined {
                let why = TileError(format!("maps undefined: {u}"));
                operands.push(TiledOperand {
                    parameter: p.parameter,
                    leaf: p.leaf,
                    shape: pshape.clone(),
                    access: None,
                    tile: Err(why),
                });
            }
        }
    }
    Ok(KernelTiles {
        kernel: kernel.clone(),
        computation: comp.name.clone(),
        output: k,
        tile,
        operands,
    })
}
