// The passes that plan or check GPU kernels take option `chip` (sm_70 to sm_100, default sm_90),
// the chips of one table. lower-fusion plans a launch for the chip's wave of resident threads:
// 65,536 elements fill a T4's (sm_75: 40 x 1024) and are unrolled by 4 there, not on an H100's
// (sm_90: 132 x 2048).

// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion)' | FileCheck %s --check-prefix=SM90
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion{chip=sm_90})' | FileCheck %s --check-prefix=SM90
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion{chip=sm_75})' | FileCheck %s --check-prefix=SM75
// The other passes read it too, and every chip of the table is a value.
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion{chip=sm_100}, xla-indexing-launch-grid{chip=sm_100}, xla-indexing-coalescing{chip=sm_100})' | FileCheck %s --check-prefix=SM100
// RUN: not mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-launch-grid{chip=sm_42})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: mlir-opt %plugins --help | FileCheck %s --check-prefix=HELP

// SM90: gpu.func @exp{{.*}}xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [512, 1, 1],
// SM75: gpu.func @exp{{.*}}xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [128, 1, 1],
// SM100: gpu.func @exp{{.*}}known_block_size = array<i32: 128, 1, 1>
// UNKNOWN: Cannot find option named 'sm_42'!
// HELP: --xla-indexing-launch-grid
// HELP-NEXT: --chip=<value>
// HELP-NEXT: =sm_70
// HELP: =sm_100
func.func @f(%x: tensor<65536xf32>) -> tensor<65536xf32> {
  %e = xla_indexing.fusion (%x) {name = "exp"} : (tensor<65536xf32>) -> tensor<65536xf32> {
  ^bb0(%p: tensor<65536xf32>):
    %r = "stablehlo.exponential"(%p) : (tensor<65536xf32>) -> tensor<65536xf32>
    xla_indexing.yield %r : tensor<65536xf32>
  }
  return %e : tensor<65536xf32>
}
