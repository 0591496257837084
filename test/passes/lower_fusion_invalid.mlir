// xla-indexing-lower-fusion reports a fusion it cannot translate to HLO or lower to a kernel as
// an error at the fusion, naming the op (and where it is) and why, and fails; never a crash.

// RUN: not mlir-opt %s %plugins --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-fusion)' 2>&1 | FileCheck %s
// RUN: not mlir-opt %s %plugins --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(func.func(xla-indexing-lower-fusion))' 2>&1 | FileCheck %s --check-prefix=NESTED

// An op without an HLO form. Every failing fusion is reported, then the pass fails once.
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 5]]:8: error: xla-indexing-lower-fusion: 'stablehlo.sort' at "{{.*}}lower_fusion_invalid.mlir":[[# @LINE + 7]]:10: the indexing analysis does not know 'stablehlo.sort'
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 9]]:8: error: xla-indexing-lower-fusion: 'stablehlo.sort' at "{{.*}}lower_fusion_invalid.mlir":[[# @LINE + 11]]:10: the indexing analysis does not know 'stablehlo.sort'
// CHECK: error: xla-indexing-lower-fusion: 2 fusions could not be lowered (see the errors above)
// NESTED: error: xla-indexing-lower-fusion: runs on a builtin.module, not on 'func.func'
func.func @sort(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r = xla_indexing.fusion (%a) {name = "sorted"} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8xf32>):
    %s = "stablehlo.sort"(%p) : (tensor<8xf32>) -> tensor<8xf32>
    xla_indexing.yield %s : tensor<8xf32>
  }
  %t = xla_indexing.fusion (%a) {name = "sorted"} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8xf32>):
    %s = "stablehlo.sort"(%p) : (tensor<8xf32>) -> tensor<8xf32>
    xla_indexing.yield %s : tensor<8xf32>
  }
  return %r, %t : tensor<8xf32>, tensor<8xf32>
}

// -----

// An op of another dialect.
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 4]]:8: error: xla-indexing-lower-fusion: 'func.call' at "{{.*}}lower_fusion_invalid.mlir":[[# @LINE + 6]]:10: only StableHLO-like ops have an HLO form
// CHECK: error: xla-indexing-lower-fusion: a fusion could not be lowered (see the error above)
func.func private @twice(tensor<8xf32>) -> tensor<8xf32>
func.func @call(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = xla_indexing.fusion (%a) {name = "called"} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8xf32>):
    %c = func.call @twice(%p) : (tensor<8xf32>) -> tensor<8xf32>
    xla_indexing.yield %c : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// A type that is not a static tensor.
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 2]]:8: error: xla-indexing-lower-fusion: region argument 0 has a type that is not a static tensor: tensor<?xf32>
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = xla_indexing.fusion (%a) {name = "dynamic"} : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%p: tensor<?xf32>):
    %e = "stablehlo.exponential"(%p) : (tensor<?xf32>) -> tensor<?xf32>
    xla_indexing.yield %e : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// What the code generator does not lower is named by the op it came from: a cosine of
// integers. A constant of complex values has no HLO form here; a fusion kind must be one.
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 5]]:10: error: xla-indexing-lower-fusion: 'stablehlo.cosine' at "{{.*}}lower_fusion_invalid.mlir":[[# @LINE + 7]]:10: cannot be lowered: cosine of i32 values is not lowered
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 9]]:8: error: xla-indexing-lower-fusion: 'stablehlo.constant' at "{{.*}}lower_fusion_invalid.mlir":[[# @LINE + 11]]:10: holds a value of c64[2] that is not dense integers, floats or preds
// CHECK: lower_fusion_invalid.mlir:[[# @LINE + 13]]:8: error: xla-indexing-lower-fusion: 'oops' is not a fusion kind (kLoop, kInput, ...)
// CHECK: error: xla-indexing-lower-fusion: 3 fusions could not be lowered (see the errors above)
func.func @not_lowered(%a: tensor<8x4xf32>, %i: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %cos = xla_indexing.fusion (%i) {name = "cosine"} : (tensor<8x4xi32>) -> tensor<8x4xi32> {
  ^bb0(%p: tensor<8x4xi32>):
    %c = "stablehlo.cosine"(%p) : (tensor<8x4xi32>) -> tensor<8x4xi32>
    xla_indexing.yield %c : tensor<8x4xi32>
  }
  %c = xla_indexing.fusion () {name = "complex_constant"} : () -> tensor<2xcomplex<f32>> {
  ^bb0:
    %k = "stablehlo.constant"() <{value = dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
    xla_indexing.yield %k : tensor<2xcomplex<f32>>
  }
  %o = xla_indexing.fusion (%a) {name = "odd", kind = "oops"} : (tensor<8x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%p: tensor<8x4xf32>):
    xla_indexing.yield %p : tensor<8x4xf32>
  }
  return %cos : tensor<8x4xi32>
}

// -----

// The kernels' symbol is taken.
// CHECK: error: xla-indexing-lower-fusion: the symbol @xla_indexing_kernels is taken by a 'func.func', not a gpu.module
func.func private @xla_indexing_kernels()
func.func @taken(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla_indexing.fusion (%a) {name = "negate"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<4xf32>):
    %n = "stablehlo.negate"(%p) : (tensor<4xf32>) -> tensor<4xf32>
    xla_indexing.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
