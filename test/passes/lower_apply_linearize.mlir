// Linear addressing in xla-indexing-lower-apply: a memref.load or memref.store of a buffer with
// static sizes, strides and offset whose indices all come from one apply_indexing becomes an
// access to a 1-D memref.reinterpret_cast of the buffer (same offset, stride 1, the span of the
// addressed elements as size, same memory space) at the linear offset, which one apply_indexing
// computes and lowering simplifies as a whole. Other accesses stay as they are, and
// linearize=false leaves every access alone. lower_apply_linearize_exec.mlir runs a linearized
// read of a strided buffer with an offset.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{linearize=false})' | FileCheck %s --check-prefix=OFF

// OFF-NOT: memref.reinterpret_cast

// A row-major store at (t floordiv 45, t mod 45) is at t: no division is left.
// CHECK-LABEL: func.func @row_major
// CHECK-SAME: (%[[T:.*]]: index, %[[BUF:.*]]: memref<84x45xf32>, %[[V:.*]]: f32)
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [3780], strides: [1] : memref<84x45xf32> to memref<3780xf32>
// CHECK-NOT: arith.divui
// CHECK: memref.store %[[V]], %[[FLAT]][%[[T]]] : memref<3780xf32>
func.func @row_major(%t: index, %buf: memref<84x45xf32>, %v: f32) {
  %i:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 45, d0 mod 45), domain: d0 in [0, 3779]">(%t) : index, index
  memref.store %v, %buf[%i#0, %i#1] : memref<84x45xf32>
  return
}

// A transposed read of [96, 100, 130] at (t mod 9600 floordiv 100, t mod 100, t floordiv 9600):
// the offset keeps one division of the three the multi-index takes.
// CHECK-LABEL: func.func @transposed
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1248000], strides: [1]
// CHECK-COUNT-1: arith.divui
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<1248000xf32>
func.func @transposed(%t: index, %buf: memref<96x100x130xf32>) -> f32 {
  %i:3 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> ((d0 floordiv 100) mod 96, d0 mod 100, d0 floordiv 9600), domain: d0 in [0, 1247999]">(%t) : index, index, index
  %x = memref.load %buf[%i#0, %i#1, %i#2] : memref<96x100x130xf32>
  return %x : f32
}

// Strides, an offset and a memory space carry over to the view; the span ends at the last
// addressed element (3 * 128 + 9 + 1 = 394).
// CHECK-LABEL: func.func @strided
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [5], sizes: [394], strides: [1] : memref<4x10xf32, strided<[128, 1], offset: 5>, 1> to memref<394xf32, strided<[1], offset: 5>, 1>
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<394xf32, strided<[1], offset: 5>, 1>
func.func @strided(%t: index, %buf: memref<4x10xf32, strided<[128, 1], offset: 5>, 1>) -> f32 {
  %i:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 10, d0 mod 10), domain: d0 in [0, 39]">(%t) : index, index
  %x = memref.load %buf[%i#0, %i#1] : memref<4x10xf32, strided<[128, 1], offset: 5>, 1>
  return %x : f32
}

// Indices from two ops, a dynamic size, or a rank-1 buffer: the access stays.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.reinterpret_cast
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x10xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x10xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<40xf32>
func.func @left_alone(%t: index, %a: memref<4x10xf32>, %b: memref<?x10xf32>, %c: memref<40xf32>) -> (f32, f32, f32) {
  %i = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 10), domain: d0 in [0, 39]">(%t) : index
  %j = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 10), domain: d0 in [0, 39]">(%t) : index
  %x = memref.load %a[%i, %j] : memref<4x10xf32>
  %k:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 10, d0 mod 10), domain: d0 in [0, 39]">(%t) : index, index
  %y = memref.load %b[%k#0, %k#1] : memref<?x10xf32>
  %l = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 39]">(%t) : index
  %z = memref.load %c[%l] : memref<40xf32>
  return %x, %y, %z : f32, f32, f32
}
