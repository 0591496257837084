// xla-indexing-launch-grid checks kernel launch grids against the hardware limits of sm_90 and
// writes them as known_block_size, known_grid_size and nvvm.reqntid (removing nvvm.maxntid,
// which ptxas rejects beside .reqntid); kernels with known sizes but no launch, and gpu.launch
// ops with constant sizes, get an xla_indexing.launch whose map is the linear thread index.

// RUN: mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-launch-grid)' | FileCheck %s
// A second run changes nothing.
// RUN: mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-launch-grid, xla-indexing-launch-grid)' | FileCheck %s

// CHECK-LABEL: gpu.func @fusion
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 8, 1, 1>, nvvm.reqntid = array<i32: 128, 1, 1>, xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk in [0, 0], unroll in [0, 0]">}
// CHECK-NOT: nvvm.maxntid
// CHECK-LABEL: gpu.func @known
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 32, 4, 1>, known_grid_size = array<i32: 3, 2, 1>, nvvm.reqntid = array<i32: 32, 4, 1>, xla_indexing.launch = #xla_indexing.launch<block = [32, 4, 1], grid = [3, 2, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x + th_y * 96 + bl_x * 32 + bl_y * 384), domain: th_x in [0, 31], th_y in [0, 3], th_z in [0, 0], bl_x in [0, 2], bl_y in [0, 1], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">}
// CHECK-LABEL: gpu.func @not_a_kernel
// CHECK-SAME: attributes {known_block_size = array<i32: 32, 1, 1>} {
// CHECK-LABEL: gpu.func @only_block_size
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fusion(%arg0: memref<8x128xf32>) kernel attributes {nvvm.maxntid = array<i32: 128, 1, 1>, xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk in [0, 0], unroll in [0, 0]">} {
      gpu.return
    }
    // Threads are numbered as the thread maps of the loop emitter number them: x fastest
    // across all blocks, then y, then z.
    gpu.func @known(%arg0: memref<768xf32>) kernel attributes {known_block_size = array<i32: 32, 4, 1>, known_grid_size = array<i32: 3, 2, 1>} {
      gpu.return
    }
    gpu.func @not_a_kernel() attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    gpu.func @only_block_size() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: func.func @host
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NEXT: } {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x + bl_x * 128), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">}
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NEXT: {{^ *}}}{{$}}
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<1024xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    // Sizes that are not constants make no launch.
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}

// -----

// After convert-gpu-to-nvvm, which adds nvvm.maxntid from known_block_size, nvvm.maxntid goes
// where nvvm.reqntid is set.
// CHECK-LABEL: llvm.func @lowered
// CHECK-SAME: attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK-LABEL: llvm.func @no_reqntid
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @lowered() attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.reqntid = array<i32: 128, 1, 1>} {
      llvm.return
    }
    llvm.func @no_reqntid() attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
      llvm.return
    }
  }
}

