//! GPU planning of the kernels XLA's emitters write (loop, reduction, transpose, concatenate,
//! scatter), on the HLO module and fusion maps of `xla_indexing_hlo`: which emitter takes a
//! fusion, launch dimensions on a chip's [`Device`], thread-id indexing maps of reads and stores,
//! coalescing, propagation of output tiles to operand tiles, and the vector accesses of unrolled
//! threads. It writes neither IR (the code generator writes kernels from its plans) nor reports
//! (the CLI writes them from [`accesses`], [`kernel_tiles`] and the plans).
//!
//! [`plan::plan_module`] gives, per fusion, the launch and the thread-to-operand maps;
//! [`coalescing::analyze_access`] (or [`coalescing::analyze_buffer_access`] for any strided
//! buffer) and [`tiles::propagate`] work on maps alone, so passes that hold maps (rather than
//! HLO) can call them.

#![warn(missing_docs)]

pub mod accesses;
pub mod chips;
pub mod coalescing;
pub mod concatenate;
pub mod device;
mod epilogue;
pub mod error;
pub mod identity;
pub mod in_place;
pub mod input_slices;
pub mod kernel;
pub mod kernel_tiles;
pub mod launch;
pub mod pad_to_static;
pub mod plan;
pub mod reduction;
mod reduction_eligibility;
mod reduction_groups;
pub mod reduction_tiling;
pub mod roles;
pub mod scatter;
pub mod scatter_distribution;
pub mod symbolic_tile;
pub mod thread_map;
pub mod tile_constraints;
pub mod tiled;
pub mod tiles;
pub mod tiling_space;
pub mod transpose;
pub mod transpose_tiling;
pub mod unfused;
pub mod vector;

pub use chips::{CHIPS, Chip, DEFAULT_CHIP, UnknownChip, chip_names};
pub use coalescing::{AccessCoalescing, Buffer, analyze_access, analyze_buffer_access};
pub use device::Device;
pub use epilogue::root_leaves;
pub use error::PlanError;
pub use kernel::{Kernel, element_bits, kernels};
pub use launch::{LaunchDimensions, LaunchError, launch_dimensions, unroll_factor};
pub use plan::{EmitterPlan, KernelPlan, plan_kernel, plan_module};
pub use thread_map::{restrict_to_warp, thread_id_map};
pub use tiles::{OperandTile, OutputTile, output_tile, propagate};
pub use unfused::check_fused;
pub use vector::{Vectorization, lanes_run_together, vectorize};
