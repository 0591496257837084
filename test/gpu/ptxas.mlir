// A kernel whose indexing xla-indexing-simplify removes lowers to PTX for sm_90 that ptxas
// accepts (ptxas from PyPI's nvidia-cuda-nvcc-cu12; no GPU needed).

// REQUIRES: ptxas
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify, nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu.module(lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), gpu-module-to-binary{format=isa})' \
// RUN:   | %python %S/Inputs/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTX: .target sm_90
// PTX: .visible .entry transpose(
// PTXAS: Compiling entry function 'transpose' for 'sm_90'
// PTXAS: Used {{[0-9]+}} registers
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<8x128xf32>, %out: memref<128x8xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %ij:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> ((bl_x * 128 + th_x) floordiv 128, (bl_x * 128 + th_x) mod 128), domain: th_x in [0, 127], bl_x in [0, 7]">(%tx, %bx) : index, index
      %v = memref.load %in[%ij#0, %ij#1] : memref<8x128xf32>
      memref.store %v, %out[%ij#1, %ij#0] : memref<128x8xf32>
      gpu.return
    }
  }
}
