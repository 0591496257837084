// With xla-indexing-launch-grid before and after convert-gpu-to-nvvm, kernels get PTX's
// .reqntid and no .maxntid (which convert-gpu-to-nvvm adds from known_block_size, and which
// ptxas rejects beside .reqntid), and ptxas accepts them. The second kernel comes from a
// gpu.launch with constant sizes, outlined by gpu-kernel-outlining (which sets known_block_size
// and known_grid_size).

// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: mlir-opt %t/fusion.mlir %plugins --pass-pipeline='builtin.module(xla-indexing-launch-grid, xla-indexing-lower-apply, nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu.module(lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), xla-indexing-launch-grid, gpu-module-to-binary{format=isa})' \
// RUN:   | %python %S/Inputs/extract_ptx.py > %t/fusion.ptx
// RUN: FileCheck %s --check-prefix=FUSION < %t/fusion.ptx
// RUN: %ptxas -arch=sm_90 -v %t/fusion.ptx -o %t/fusion.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-FUSION
// RUN: mlir-opt %t/outlined.mlir %plugins --pass-pipeline='builtin.module(gpu-kernel-outlining, xla-indexing-launch-grid, xla-indexing-lower-apply, nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu.module(lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), xla-indexing-launch-grid, gpu-module-to-binary{format=isa})' \
// RUN:   | %python %S/Inputs/extract_ptx.py > %t/outlined.ptx
// RUN: FileCheck %s --check-prefix=OUTLINED < %t/outlined.ptx
// RUN: %ptxas -arch=sm_90 -v %t/outlined.ptx -o %t/outlined.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS-OUTLINED
// Without the second run, ptxas refuses the PTX.
// RUN: mlir-opt %t/fusion.mlir %plugins --pass-pipeline='builtin.module(xla-indexing-launch-grid, xla-indexing-lower-apply, nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu.module(lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), gpu-module-to-binary{format=isa})' \
// RUN:   | %python %S/Inputs/extract_ptx.py > %t/both.ptx
// RUN: not %ptxas -arch=sm_90 %t/both.ptx -o %t/both.cubin 2>&1 | FileCheck %s --check-prefix=CONFLICT

// FUSION: .target sm_90
// FUSION-LABEL: .visible .entry fusion(
// FUSION-NOT: .maxntid
// FUSION: .reqntid 128, 1, 1
// FUSION-NOT: .maxntid
// FUSION: ret;
// PTXAS-FUSION: Compiling entry function 'fusion' for 'sm_90'

// OUTLINED-LABEL: .visible .entry host_kernel(
// OUTLINED-NOT: .maxntid
// OUTLINED: .reqntid 32, 4, 1
// OUTLINED-NOT: .maxntid
// OUTLINED: ret;
// PTXAS-OUTLINED: Compiling entry function 'host_kernel' for 'sm_90'

// CONFLICT: Conflicting directives: .maxntid and .reqntid cannot both be specified

//--- fusion.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fusion(%in: memref<8x128xf32>, %out: memref<128x8xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk in [0, 0], unroll in [0, 0]">} {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %ij:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> (bl_x, th_x), domain: th_x in [0, 127], bl_x in [0, 7]">(%tx, %bx) : index, index
      %v = memref.load %in[%ij#0, %ij#1] : memref<8x128xf32>
      memref.store %v, %out[%ij#1, %ij#0] : memref<128x8xf32>
      gpu.return
    }
  }
}

//--- outlined.mlir
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<768xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c4, %sz = %c1) {
      %i = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, th_y, bl_x, bl_y) -> (th_x + th_y * 96 + bl_x * 32 + bl_y * 384), domain: th_x in [0, 31], th_y in [0, 3], bl_x in [0, 2], bl_y in [0, 1]">(%tx, %ty, %bx, %by) : index
      %v = memref.load %buf[%i] : memref<768xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buf[%i] : memref<768xf32>
      gpu.terminator
    }
    return
  }
}
