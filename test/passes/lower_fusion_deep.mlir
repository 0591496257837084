// xla-indexing-lower-fusion on a fusion of 3000 negates in a chain (Inputs/negate_chain.py;
// mlir-opt overflowed its stack from about 800): the code generator recurses once per op, on
// a thread of its own with the stack for it; the kernel negates the loaded element 3000 times
// and stores the last.

// RUN: %python %S/Inputs/negate_chain.py 3000 > %t.mlir
// RUN: mlir-opt %t.mlir %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-fusion)' | FileCheck %s

// CHECK: xla_indexing.fusion(%{{.*}}) {kind = "kLoop", name = "chain", xla_indexing.kernel = @xla_indexing_kernels::@chain}
// CHECK: gpu.module @xla_indexing_kernels {
// CHECK-NEXT: gpu.func @chain(%[[IN:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) kernel
// CHECK: xla_indexing.loop ({{.*}}){{.*}} -> (%[[I:.*]]) in
// CHECK: %[[V:.*]] = memref.load %[[IN]]
// CHECK-NEXT: arith.negf %[[V]] : f32
// CHECK-COUNT-2999: arith.negf
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]][%[[I]]] : memref<4xf32>
// CHECK-NOT: arith.negf
