// xla_indexing.loop, xla_indexing.fusion and xla_indexing.yield print and parse back to the same
// thing, pretty or generic. The fusion holds StableHLO-like ops in generic form.

// RUN: mlir-opt %s %plugins --allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect | mlir-opt %plugins --allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --mlir-print-op-generic | mlir-opt %plugins --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[I:.*]]: index, %[[T:.*]]: tensor<16x4xf32>, %[[ZERO:.*]]: f32)
// CHECK-NEXT: %[[SUM:.*]] = xla_indexing.loop (%[[I]])[%[[J:.*]]] -> (%[[R0:.*]], %[[R1:.*]]) in #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 15], s0 in [0, 3], s0 mod 2 in [0, 0]"> iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[X:.*]] = tensor.extract %[[T]][%[[R0]], %[[R1]]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: xla_indexing.yield %[[NEXT]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[SUM]]
// GENERIC-LABEL: sym_name = "loop"
// GENERIC: "xla_indexing.loop"(%{{.*}}, %{{.*}}) <{indexing_map = #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 15], s0 in [0, 3], s0 mod 2 in [0, 0]">, operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: f32):
// GENERIC: "xla_indexing.yield"(%{{.*}}) : (f32) -> ()
func.func @loop(%i: index, %t: tensor<16x4xf32>, %zero: f32) -> f32 {
  %sum = xla_indexing.loop (%i)[%j] -> (%r0, %r1)
      in #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 15], "
                           "s0 in [0, 3], s0 mod 2 in [0, 0]">
      iter_args(%acc = %zero) -> (f32) {
    %x = tensor.extract %t[%r0, %r1] : tensor<16x4xf32>
    %next = arith.addf %acc, %x : f32
    xla_indexing.yield %next : f32
  }
  return %sum : f32
}

// No range variables and no loop-carried values.
// CHECK-LABEL: func.func @plain
// CHECK-NEXT: xla_indexing.loop (%{{.*}}) -> (%{{.*}}) in #xla_indexing.map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 15]"> {
// CHECK-NEXT: "test.use"
// CHECK-NEXT: xla_indexing.yield{{$}}
func.func @plain(%i: index) {
  xla_indexing.loop (%i) -> (%r) in #xla_indexing.map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 15]"> {
    "test.use"(%r) : (index) -> ()
    xla_indexing.yield
  }
  return
}

// CHECK-LABEL: func.func @fusion
// CHECK-NEXT: %[[R:.*]] = xla_indexing.fusion(%{{.*}}) {kind = "kLoop", name = "fused_computation"} : (tensor<10x20xf32>) -> tensor<20x10xf32> {
// CHECK-NEXT: ^bb0(%[[P0:.*]]: tensor<10x20xf32>):
// CHECK-NEXT: %[[T:.*]] = "stablehlo.transpose"(%[[P0]]) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
// CHECK-NEXT: xla_indexing.yield %[[T]] : tensor<20x10xf32>
// GENERIC-LABEL: sym_name = "fusion"
// GENERIC: "xla_indexing.fusion"(%{{.*}}) <{kind = "kLoop", name = "fused_computation"}> ({
func.func @fusion(%a: tensor<10x20xf32>) -> tensor<20x10xf32> {
  %r = xla_indexing.fusion (%a) {name = "fused_computation", kind = "kLoop"} : (tensor<10x20xf32>) -> tensor<20x10xf32> {
  ^bb0(%p0: tensor<10x20xf32>):
    %t = "stablehlo.transpose"(%p0) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
    xla_indexing.yield %t : tensor<20x10xf32>
  }
  return %r : tensor<20x10xf32>
}
