// xla-indexing-simplify uses what bounds index values: loops (affine.for, scf.for, scf.forall),
// GPU ids (upper_bound, known_block_size, gpu.launch sizes) and map domains; it rewrites the maps
// of affine ops and trees of arith ops, and never reads a truncating or unsigned op as a floor
// operation unless its dividend is provably non-negative.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' | FileCheck %s

// CHECK: #[[$SET:.*]] = affine_set<(d0) : (d0 - 2 >= 0)>

// CHECK-LABEL: func.func @scf_for
// CHECK-SAME: (%[[N:.*]]: index, %[[BUF:.*]]: memref<64xindex>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// (i * 4) divui 4 + i remsi 16 is 2 * i for i in [0, 15]: both terms are i.
// CHECK-NEXT: %[[TWICE:.*]] = arith.addi %[[I]], %[[I]] : index
// CHECK-NEXT: memref.store %[[TWICE]], %[[BUF]][%[[I]]]
// An unbounded dividend may be negative: remsi stays.
// CHECK-NEXT: %[[R:.*]] = arith.remsi %[[N]], %c16 : index
// CHECK-NEXT: memref.store %[[R]]
func.func @scf_for(%n: index, %buf: memref<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %m = arith.muli %i, %c4 : index
    %d = arith.divui %m, %c4 : index
    %q = arith.remsi %i, %c16 : index
    %s = arith.addi %d, %q : index
    memref.store %s, %buf[%i] : memref<64xindex>
    %neg = arith.remsi %n, %c16 : index
    memref.store %neg, %buf[%i] : memref<64xindex>
  }
  return
}

// CHECK-LABEL: func.func @affine_maps
// CHECK: affine.for %[[J:.*]] = 0 to 8 {
// CHECK-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[J]]]
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[1]
// CHECK-NEXT: affine.if #[[$SET]](%[[J]]) {
// CHECK-NEXT: memref.store %c0, %{{.*}}[%[[J]]]
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[J]])
// CHECK-NEXT: memref.store
func.func @affine_maps(%buf: memref<64xindex>) {
  affine.for %j = 0 to 8 {
    %v = affine.load %buf[%j mod 8 + (%j floordiv 8) * 4] : memref<64xindex>
    affine.store %v, %buf[(%j + 8) floordiv 8] : memref<64xindex>
    affine.if affine_set<(d0) : (d0 mod 8 - 2 >= 0)>(%j) {
      %w = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%j)
      memref.store %w, %buf[%j] : memref<64xindex>
    }
    affine.for %k = 0 to affine_map<(d0) -> (d0 mod 8 + 1)>(%j) {
      memref.store %k, %buf[%k] : memref<64xindex>
    }
  }
  return
}
// The bound map of the inner loop lost its mod.
// CHECK-NOT: mod 8

// CHECK-LABEL: func.func @forall
// CHECK: scf.forall (%[[T:.*]]) in (32) {
// CHECK-NEXT: memref.store %[[T]], %{{.*}}[%[[T]]]
func.func @forall(%buf: memref<64xindex>) {
  %c16 = arith.constant 16 : index
  scf.forall (%t) in (32) {
    %x = arith.divsi %t, %c16 : index
    %y = arith.remui %t, %c16 : index
    %z = arith.muli %x, %c16 : index
    %w = arith.addi %z, %y : index
    memref.store %w, %buf[%w] : memref<64xindex>
  }
  return
}

// Integer types other than index, with bounds from a loop over i32.
// CHECK-LABEL: func.func @i32
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: memref.store %[[I]]
func.func @i32(%buf: memref<64xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %i0 = arith.constant 0 : index
  scf.for %i = %c0 to %c10 step %c1 : i32 {
    %r = arith.remsi %i, %c100 : i32
    memref.store %r, %buf[%i0] : memref<64xi32>
  }
  return
}

// CHECK-LABEL: gpu.func @known_block_size
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[TX]], %c8 : index
// CHECK-NEXT: memref.store %[[R]], %{{.*}}[%[[R]]]
// CHECK-LABEL: gpu.func @upper_bound
// CHECK: %[[BX:.*]] = gpu.block_id x upper_bound 4
// CHECK-NEXT: memref.store %[[BX]]
gpu.module @kernels {
  gpu.func @known_block_size(%buf: memref<64xindex>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    %tx = gpu.thread_id x
    %a = arith.floordivsi %tx, %c64 : index
    %b = arith.remsi %tx, %c8 : index
    %s = arith.addi %a, %b : index
    memref.store %s, %buf[%s] : memref<64xindex>
    gpu.return
  }
  gpu.func @upper_bound(%buf: memref<64xindex>) kernel {
    %c4 = arith.constant 4 : index
    %bx = gpu.block_id x upper_bound 4
    %r = arith.remui %bx, %c4 : index
    memref.store %r, %buf[%r] : memref<64xindex>
    gpu.return
  }
}

// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in
// CHECK-NEXT: %[[L:.*]] = arith.muli %[[BX]], %c128 : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[L]], %[[TX]] : index
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[S]]]
func.func @launch(%buf: memref<1024xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %l = arith.muli %bx, %c128 : index
    %g = arith.addi %l, %tx : index
    %q = arith.divui %g, %c128 : index
    %r = arith.remui %g, %c128 : index
    %q2 = arith.muli %q, %c128 : index
    %s = arith.addi %q2, %r : index
    memref.store %x, %buf[%s] : memref<1024xf32>
    gpu.terminator
  }
  return
}

// apply_indexing narrowed by its operands: %i is in [0, 7], so d0 mod 16 is d0.
// CHECK-LABEL: func.func @narrowed_by_operands
// CHECK: affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[I]]]
func.func @narrowed_by_operands(%buf: memref<64xf32>, %x: f32) {
  affine.for %i = 0 to 8 {
    %r = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 16), domain: d0 in [0, 63]">(%i) : index
    memref.store %x, %buf[%r] : memref<64xf32>
  }
  return
}
