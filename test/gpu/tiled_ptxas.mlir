// Kernels through the best tiling of each fusion (`--tiling best`): a block per tile of the
// output, its threads over the tile's elements; ptxas accepts them for sm_80 and sm_90, and
// the same kernels run on the CPU against the evaluator
// (tiled_kernels_compute_xla_semantics in crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../examples/hlo/transpose_add.hlo --tiling best | FileCheck %s --check-prefix=LAUNCH
// RUN: not %xla-indexing launch %S/../../examples/hlo/transpose_add.hlo --tiling 4,16 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --tiling 4,0 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --tiling best --fusion transpose_fusion | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../examples/hlo/softmax.hlo --tiling best --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --tiling best --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// The [32, 16] output in tiles of [8, 16], the best of the cost model: four blocks of 128
// threads, block bl_x on rows 8 * bl_x to 8 * bl_x + 7.
// LAUNCH: transpose_fusion (calls fused_transpose): block [128, 1, 1], grid [4, 1, 1], unroll 1
// LAUNCH-NEXT: thread map: (th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 8 + th_x floordiv 16, th_x mod 16)
// LAUNCH-NEXT: emitter: tiled loop, tiles [8, 16] ([4, 1] of them), best by the cost model (cost {{.*}})
// LAUNCH: reduce_fusion (calls fused_reduce): block [32, 1, 1], grid [1, 1, 1], unroll 1
// LAUNCH: emitter: tiled loop, tiles [32] ([1] of them)

// Sizes that do not fit a kernel's output are an error at its fusion; sizes that are not
// positive are a usage error.
// RANK: transpose_add.hlo:30:3: error: reduce_fusion: tiling: 2 tile sizes for output f32[32]{0} of rank 1
// USAGE: error: invalid value '4,0' for '--tiling <best|SIZES>': `0` is not a positive tile size

// MLIR: gpu.func @transpose_fusion(
// MLIR-SAME: block = [128, 1, 1], grid = [4, 1, 1]
// MLIR: xla_indexing.loop
