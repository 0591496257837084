// Kernels that xla-indexing-lower-fusion generates from xla_indexing.fusion ops lower to PTX for
// sm_90 that ptxas accepts (ptxas from PyPI's nvidia-cuda-nvcc-cu12; no GPU needed): a fusion
// of a transpose, a reshape and an add (the transpose emitter: a tile through shared memory)
// and a reduction with its maximum reducer (the reduction emitter: 16 threads per row of 16,
// 16 rows per block, a shuffle tree). The fusions (the host side) stay in the module; only the
// gpu.module becomes a binary.

// REQUIRES: ptxas
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion, xla-indexing-simplify, xla-indexing-lower-apply, xla-indexing-launch-grid, gpu.module(convert-scf-to-cf, lower-affine, convert-gpu-to-nvvm, canonicalize, cse, reconcile-unrealized-casts), xla-indexing-launch-grid, nvvm-attach-target{chip=sm_90 features=+ptx80}, gpu-module-to-binary{format=isa})' -o %t.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: %python %S/Inputs/extract_ptx.py < %t.mlir > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// HOST: xla_indexing.fusion({{.*}}) {kind = "kLoop", name = "transpose_add", xla_indexing.kernel = @xla_indexing_kernels::@transpose_add}
// HOST: xla_indexing.fusion({{.*}}) {kind = "kInput", name = "row_max", xla_indexing.kernel = @xla_indexing_kernels::@row_max}
// HOST: gpu.binary @xla_indexing_kernels

// PTX: .target sm_90
// PTX-NOT: .maxntid
// PTX: .visible .entry transpose_add(
// PTX: .reqntid 128, 1, 1
// PTX: bar.sync 0
// PTX: .visible .entry row_max(
// PTX: .reqntid 256, 1, 1
// PTX: max.NaN.f32
// PTX: shfl.sync.bfly.b32

// PTXAS-DAG: Compiling entry function 'transpose_add' for 'sm_90'
// PTXAS-DAG: Compiling entry function 'row_max' for 'sm_90'
module {
  func.func @main(%x: tensor<16x32xf32>, %y: tensor<512xf32>) -> tensor<32xf32> {
    %t = xla_indexing.fusion (%x, %y) {name = "transpose_add", kind = "kLoop"} : (tensor<16x32xf32>, tensor<512xf32>) -> tensor<32x16xf32> {
    ^bb0(%p0: tensor<16x32xf32>, %p1: tensor<512xf32>):
      %transpose = "stablehlo.transpose"(%p0) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
      %bitcast = "stablehlo.reshape"(%p1) : (tensor<512xf32>) -> tensor<32x16xf32>
      %add = "stablehlo.add"(%transpose, %bitcast) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
      xla_indexing.yield %add : tensor<32x16xf32>
    }
    %m = xla_indexing.fusion (%t) {name = "row_max", kind = "kInput"} : (tensor<32x16xf32>) -> tensor<32xf32> {
    ^bb0(%q: tensor<32x16xf32>):
      %init = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
      %max = "stablehlo.reduce"(%q, %init) <{dimensions = array<i64: 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%r) : (tensor<f32>) -> ()
      }) : (tensor<32x16xf32>, tensor<f32>) -> tensor<32xf32>
      xla_indexing.yield %max : tensor<32xf32>
    }
    return %m : tensor<32xf32>
  }
}
