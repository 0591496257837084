// xla-indexing-lower-fusion{tiled} writes each fusion through the best tiling of its output by
// the cost model (as `xla-indexing compile --tiling best`): a block per tile, its threads over
// the tile's elements; the fusion is marked with the tile sizes.

// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion{tiled})' | FileCheck %s
// Without the option the transpose emitter writes it, and there is no mark.
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion)' | FileCheck %s --check-prefix=XLA

// CHECK: xla_indexing.fusion(%{{.*}}, %{{.*}}) {kind = "kLoop", name = "fused_computation", xla_indexing.kernel = @xla_indexing_kernels::@fused_computation, xla_indexing.tiling = array<i64: 8, 16>}
// CHECK: gpu.func @fused_computation(%{{.*}}: memref<512xf32>, %{{.*}}: memref<16x32xf32>, %{{.*}}: memref<32x16xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [4, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 8 + th_x floordiv 16, th_x mod 16), domain: {{.*}}">}
// CHECK-NOT: workgroup
// CHECK: xla_indexing.loop

// XLA-NOT: xla_indexing.tiling
// XLA: workgroup
module @jit_f {
  func.func @main.1(%x.1: tensor<16x32xf32>, %y.1: tensor<512xf32>) -> (tensor<32x16xf32>) {
    %bitcast_add_fusion = xla_indexing.fusion (%y.1, %x.1) {name = "fused_computation", kind = "kLoop"} : (tensor<512xf32>, tensor<16x32xf32>) -> (tensor<32x16xf32>) {
    ^bb0(%param_0.1: tensor<512xf32>, %param_1.4: tensor<16x32xf32>):
      %exp.2 = "stablehlo.exponential"(%param_1.4) : (tensor<16x32xf32>) -> tensor<16x32xf32>
      %transpose.4 = "stablehlo.transpose"(%exp.2) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
      %bitcast.1 = "stablehlo.reshape"(%param_0.1) : (tensor<512xf32>) -> tensor<32x16xf32>
      %add.0 = "stablehlo.add"(%transpose.4, %bitcast.1) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
      xla_indexing.yield %add.0 : tensor<32x16xf32>
    }
    return %bitcast_add_fusion : tensor<32x16xf32>
  }
}
