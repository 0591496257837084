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
    /// Symbolic tiles only: one entry per map of each intermediate instruction's result the
    /// output reads (neither the root nor a parameter), in the order the walk from the root
    /// reaches them.
    pub intermediates: Vec<TiledIntermediate<T>>,
}

/// One map by which an intermediate instruction's result is read, and the tile it gives.
pub struct TiledIntermediate<T = OperandTile> {
    /// The instruction's name.
    pub instruction: String,
    /// The leaf of its result.
    pub leaf: usize,
    /// The leaf's shape.
    pub shape: ArrayShape,
    /// The tile one output tile reads of it, or why it cannot be expressed.
    pub tile: Result<T, TileError>,
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

impl<T> TiledOperand<T> {
    /// The operand as `parameter`, or `parameter.leaf` for a leaf of a tuple.
    pub fn label(&self) -> String {
        match self.leaf {
            0 => self.parameter.to_string(),
            leaf => format!("{}.{leaf}", self.parameter),
        }
    }
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
    walk(module, progress, &mut |composer, kernel, k| {
        tile_output(
            module,
            composer,
            kernel,
            k,
            &|shape| output_tile(&shape.dims, sizes),
            &|tile, access| propagate(tile, &access.map),
        )
    })
}

/// The symbolic tile of every operand and intermediate of every kernel's outputs, calling
/// `progress(done, total)` after each kernel.
pub fn symbolic_tiles_of_module(
    module: &Module,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<SymbolicKernelTiles>, HloError> {
    walk(module, progress, &mut |composer, kernel, k| {
        symbolic_output(module, composer, kernel, k)
    })
}

/// Tiles output `k` of a kernel, walking the fusion's maps with the composer given.
type TileOutput<'a, O, T> =
    dyn FnMut(&mut Composer<'_>, &Kernel, usize) -> Result<KernelTiles<O, T>, HloError> + 'a;

/// Every output of every kernel through `tile`, calling `progress(done, total)` after each
/// kernel.
fn walk<O, T>(
    module: &Module,
    progress: &mut dyn FnMut(usize, usize),
    tile: &mut TileOutput<'_, O, T>,
) -> Result<Vec<KernelTiles<O, T>>, HloError> {
    let mut out = Vec::new();
    let mut composer = Composer::new(module);
    let kernels = kernels(module);
    for (done, kernel) in kernels.iter().enumerate() {
        for k in 0..kernel.outputs.len() {
            out.push(tile(&mut composer, kernel, k)?);
        }
        progress(done + 1, kernels.len());
    }
    Ok(out)
}

/// The symbolic tiles of the operands and intermediates of `kernel`'s output `k`.
pub fn symbolic_tiles_of_output(
    module: &Module,
    kernel: &Kernel,
    k: usize,
) -> Result<SymbolicKernelTiles, HloError> {
    symbolic_output(module, &mut Composer::new(module), kernel, k)
}

fn symbolic_output(
    module: &Module,
    composer: &mut Composer<'_>,
    kernel: &Kernel,
    k: usize,
) -> Result<SymbolicKernelTiles, HloError> {
    let dims = &kernel.outputs[k].dims;
    let mut tiles = tile_output(
        module,
        composer,
        kernel,
        k,
        &|shape| Ok(shape.dims.clone()),
        &|dims, access| symbolic_tile_of_access(dims, access),
    )?;
    let comp = &module.computations[kernel.computation];
    for m in composer.computation_output_to_instructions(kernel.computation, k)? {
        let instr = &comp.instructions[m.instruction];
        if m.instruction == comp.root || instr.parameter_number.is_some() {
            continue;
        }
        let Some(shape) = instr.shape.leaves().get(m.leaf).map(|s| (*s).clone()) else {
            continue;
        };
        for a in &m.maps.accesses {
            tiles.intermediates.push(TiledIntermediate {
                instruction: instr.name.clone(),
                leaf: m.leaf,
                shape: shape.clone(),
                tile: symbolic_tile_of_access(dims, a),
            });
        }
        if let Some(u) = &m.maps.undefined {
            tiles.intermediates.push(TiledIntermediate {
                instruction: instr.name.clone(),
                leaf: m.leaf,
                shape,
                tile: Err(TileError(format!("maps undefined: {u}"))),
            });
        }
    }
    Ok(tiles)
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
        intermediates: Vec::new(),
    })
}
