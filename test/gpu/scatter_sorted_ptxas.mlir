// XLA's scatter over sorted indices: a warp takes a run of consecutive slices, carrying the
// previous start, whether it fits and one accumulator per element of the lane through the
// loop over them, and lands the accumulators (an atomic add, or a compare-and-swap loop) only
// where the start changes and after the run. ptxas accepts the kernels for sm_80 and sm_90;
// the same module runs on the CPU against the evaluator (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/scatter_sorted.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_sorted.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_sorted.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_sorted.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// A warp's indices, one per slice, are read four at a time where they are a parameter (XLA's
// own test), its slices padded to whole vectors of four as XLA pads them (also where they are
// computed, as in wide_rows: five slices per warp become eight).
// PLAN-LABEL: f4 (calls xla_sorted): block [128, 1, 1], grid [16, 1, 1], unroll 1
// PLAN: emitter: scatter (atomic add; sorted indices: 32 slices per warp, 1 warps per slice, 1 adjacent elements per lane, equal indices accumulated in registers, indices read 4 at a time;
// PLAN-LABEL: f1 (calls wide_rows): block [128, 1, 1], grid [94, 1, 1], unroll 2
// PLAN: emitter: scatter (atomic add; sorted indices: 8 slices per warp, 2 warps per slice, 2 adjacent elements per lane, equal indices accumulated in registers;
// PLAN-LABEL: f0 (calls runs_of_8): block [128, 1, 1], grid [94, 1, 1], unroll 1
// PLAN-NEXT: thread map: {{.*}}[chunk_id, unroll_id, index_id]

// The loop over the run carries the start, whether it fits and the accumulator; the
// accumulator lands inside the loop only under a condition, and once more after it.
// MLIR-LABEL: gpu.func @f4(
// MLIR: xla_indexing.loop {{.*}} -> (index, i1, f32, vector<4xi32>)
// MLIR: vector.load {{.*}} {alignment = 16 : i64} : memref<2008xi32>, vector<4xi32>
// MLIR: vector.from_elements
// MLIR: vector.extract
// MLIR-LABEL: gpu.func @f0(
// MLIR: xla_indexing.loop {{.*}} iter_args({{.*}}) -> (index, i1, i32)
// MLIR: scf.if
// MLIR: memref.atomic_rmw addi
// MLIR: xla_indexing.yield
// MLIR: scf.if
// MLIR: memref.atomic_rmw addi
