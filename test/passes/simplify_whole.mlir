// xla-indexing-simplify reads index arithmetic as a whole: each value is composed through its
// producers, whatever their number of uses, and rewritten to a root, a value already there, or
// a cheaper computation; comparisons, selects, min and max that the ranges decide fold, and
// inside an scf.if its condition holds. Every function below reaches the fewest divisions its
// stored values need. (simplify_whole_exec.mlir runs the same shapes before and after.)

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' | FileCheck %s


// A linear index computed once, used three times and taken apart again: the parts are the ids.
// CHECK-LABEL: func.func @shared_linear
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x upper_bound 16
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x upper_bound 20
// CHECK: %[[LIN:.*]] = arith.addi
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: memref.store %[[LIN]], %{{.*}}[%[[BX]]]
// CHECK-NEXT: memref.store %[[BX]], %{{.*}}[%[[TX]]]
// CHECK-NEXT: memref.store %[[TX]], %{{.*}}[%[[LIN]]]
func.func @shared_linear(%buf: memref<512xindex>) {
  %c20 = arith.constant 20 : index
  %i = gpu.block_id x upper_bound 16
  %j = gpu.thread_id x upper_bound 20
  %m = arith.muli %i, %c20 : index
  %lin = arith.addi %m, %j : index
  %q = arith.divui %lin, %c20 : index
  %r = arith.remui %lin, %c20 : index
  memref.store %lin, %buf[%q] : memref<512xindex>
  memref.store %q, %buf[%r] : memref<512xindex>
  memref.store %r, %buf[%lin] : memref<512xindex>
  return
}

// A reshape round trip as a chain of affine.apply: [10, 45] -> [450] -> [50, 9] -> [450] ->
// [10, 45] is the identity.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK: affine.for %[[I:.*]] = 0 to 10 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 45 {
// CHECK-NEXT: memref.store %[[I]], %{{.*}}[%[[J]]]
func.func @reshape_round_trip(%buf: memref<512xindex>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 45 {
      %lin = affine.apply affine_map<(d0, d1) -> (d0 * 45 + d1)>(%i, %j)
      %a = affine.apply affine_map<(d0) -> (d0 floordiv 9)>(%lin)
      %b = affine.apply affine_map<(d0) -> (d0 mod 9)>(%lin)
      %back = affine.apply affine_map<(d0, d1) -> (d0 * 9 + d1)>(%a, %b)
      %x = affine.apply affine_map<(d0) -> (d0 floordiv 45)>(%back)
      %y = affine.apply affine_map<(d0) -> (d0 mod 45)>(%back)
      memref.store %x, %buf[%y] : memref<512xindex>
    }
  }
  return
}

// A thread id split into warp and lane and put back together: warp * 32 + lane is the id.
// CHECK-LABEL: func.func @warp_lane
// CHECK: %[[TX:.*]] = gpu.thread_id x upper_bound 256
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK-NEXT: memref.store %[[WARP]], %{{.*}}[%[[LANE]]]
// CHECK-NEXT: memref.store %[[TX]], %{{.*}}[%[[TX]]]
func.func @warp_lane(%buf: memref<512xindex>) {
  %c32 = arith.constant 32 : index
  %tx = gpu.thread_id x upper_bound 256
  %warp = arith.divui %tx, %c32 : index
  %lane = arith.remui %tx, %c32 : index
  %w32 = arith.muli %warp, %c32 : index
  %t = arith.addi %w32, %lane : index
  memref.store %warp, %buf[%lane] : memref<512xindex>
  memref.store %t, %buf[%t] : memref<512xindex>
  return
}

// The same written as affine.apply over a global id: the warp (bx * 8 + tx floordiv 32) and
// the warp in the block ((warp) mod 8, which is tx floordiv 32) divide once between them, the
// division their block's ops share computed once from the ids; the block id is the block id.
// No affine op reads them and every dividend is non-negative, so they are `arith` ops that
// divide unsigned (`lower-affine` would correct each division for negative dividends).
// CHECK-LABEL: func.func @warp_lane_global
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x upper_bound 256
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x upper_bound 64
// CHECK: %[[W:.*]] = arith.divui %[[TX]], %{{.*}} : index
// CHECK-NEXT: %[[BX8:.*]] = arith.muli %[[BX]], %{{.*}} overflow<nsw, nuw> : index
// CHECK-NEXT: %[[WARP:.*]] = arith.addi %[[BX8]], %[[W]] overflow<nsw, nuw> : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TX]], %{{.*}} : index
// CHECK-NEXT: memref.store %[[WARP]], %{{.*}}[%[[TX]]]
// CHECK-NEXT: memref.store %[[LANE]], %{{.*}}[%[[TX]]]
// CHECK-NEXT: memref.store %[[BX]], %{{.*}}[%[[TX]]]
// CHECK-NEXT: memref.store %[[W]], %{{.*}}[%[[TX]]]
func.func @warp_lane_global(%buf: memref<512xindex>) {
  %tx = gpu.thread_id x upper_bound 256
  %bx = gpu.block_id x upper_bound 64
  %bt = affine.apply affine_map<(d0) -> (d0 * 256)>(%bx)
  %gid = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%bt, %tx)
  %warp = affine.apply affine_map<(d0) -> (d0 floordiv 32)>(%gid)
  %lane = affine.apply affine_map<(d0) -> (d0 mod 32)>(%gid)
  %w = affine.apply affine_map<(d0) -> (d0 * 32)>(%warp)
  %back = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%w, %lane)
  %blk = affine.apply affine_map<(d0) -> (d0 floordiv 256)>(%back)
  %wib = affine.apply affine_map<(d0) -> (d0 mod 8)>(%warp)
  memref.store %warp, %buf[%tx] : memref<512xindex>
  memref.store %lane, %buf[%tx] : memref<512xindex>
  memref.store %blk, %buf[%tx] : memref<512xindex>
  memref.store %wib, %buf[%tx] : memref<512xindex>
  return
}

// A tile index with several users: tile * 4 + i mod 4 is i; the tile's half still divides.
// CHECK-LABEL: func.func @tile
// CHECK: %[[I:.*]] = gpu.thread_id x upper_bound 128
// CHECK-NEXT: %[[T:.*]] = arith.divui %[[I]], %c4
// CHECK-NEXT: %[[H:.*]] = arith.divui %[[T]], %c2
// CHECK-NEXT: memref.store %[[T]], %{{.*}}[%[[I]]]
// CHECK-NEXT: memref.store %[[H]], %{{.*}}[%[[I]]]
func.func @tile(%buf: memref<512xindex>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %i = gpu.thread_id x upper_bound 128
  %t = arith.divui %i, %c4 : index
  %r = arith.remui %i, %c4 : index
  %t4 = arith.muli %t, %c4 : index
  %u = arith.addi %t4, %r : index
  %v = arith.divui %t, %c2 : index
  memref.store %t, %buf[%u] : memref<512xindex>
  memref.store %v, %buf[%u] : memref<512xindex>
  return
}

// An apply_indexing fed by another: (4 * i + 3) floordiv 4 is i.
// CHECK-LABEL: func.func @apply_chain
// CHECK: %[[I:.*]] = gpu.thread_id x upper_bound 64
// CHECK-NEXT: %[[A:.*]] = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 * 4 + 3), domain: d0 in [0, 63]">(%[[I]])
// CHECK-NEXT: memref.store %[[I]], %{{.*}}[%[[A]]]
func.func @apply_chain(%buf: memref<512xindex>) {
  %i = gpu.thread_id x upper_bound 64
  %a = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 * 4 + 3), domain: d0 in [0, 63]">(%i) : index
  %b = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 255]">(%a) : index
  memref.store %b, %buf[%a] : memref<512xindex>
  return
}

// A quotient that three users need: it is computed once and shared, the remainder is not
// needed, and a second division by 6 is the first one.
// CHECK-LABEL: func.func @shared_quotient
// CHECK: %[[X:.*]] = gpu.thread_id x upper_bound 240
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[X]], %c6
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return
func.func @shared_quotient(%buf: memref<512xindex>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %x = gpu.thread_id x upper_bound 240
  %q = arith.divui %x, %c6 : index
  %q6 = arith.muli %q, %c6 : index
  %r = arith.remui %x, %c6 : index
  %u1 = arith.addi %q6, %r : index
  %u2 = arith.addi %q, %c1 : index
  %u3 = arith.muli %q, %c2 : index
  %u4 = arith.divui %x, %c6 : index
  memref.store %u1, %buf[%u2] : memref<512xindex>
  memref.store %u3, %buf[%u4] : memref<512xindex>
  return
}

// min, cmpi, select, max and minui that the loop bounds decide; i < i + 1 needs the
// expressions, not just intervals.
// CHECK-LABEL: func.func @decided
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[I]], %c1
// CHECK-NEXT: memref.store %[[A]], %{{.*}}[%[[I]]]
// CHECK-NEXT: }
func.func @decided(%buf: memref<512xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %a = arith.addi %i, %c1 : index
    %m = arith.minsi %a, %c16 : index
    %lt = arith.cmpi slt, %i, %a : index
    %s = arith.select %lt, %m, %c0 : index
    %mx = arith.maxsi %s, %c0 : index
    %mu = arith.minui %mx, %i : index
    memref.store %mx, %buf[%mu] : memref<512xindex>
  }
  return
}

// XLA's pad emitter guards a read with (d - 1) mod 2 == 0; inside the guard,
// ((d - 1) floordiv 2) * 2 + 1 is d.
// CHECK-LABEL: func.func @guarded_pad
// CHECK: scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: arith.remui
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: memref.store %[[D]], %{{.*}}[%[[D]]]
// CHECK-NEXT: }
// CHECK-NOT: arith.divui
func.func @guarded_pad(%buf: memref<512xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %d = %c1 to %c8 step %c1 {
    %t = arith.subi %d, %c1 : index
    %m = arith.remui %t, %c2 : index
    %even = arith.cmpi eq, %m, %c0 : index
    scf.if %even {
      %q = arith.divui %t, %c2 : index
      %q2 = arith.muli %q, %c2 : index
      %v = arith.addi %q2, %c1 : index
      memref.store %v, %buf[%d] : memref<512xindex>
    }
  }
  return
}

// A decided scf.if and affine.if are replaced by the branch taken; an affine.if constraint
// that always holds goes, the other stays.
// CHECK-LABEL: func.func @decided_ifs
// CHECK-NOT: scf.if
// CHECK: affine.if #{{.*}}(%{{.*}})
// CHECK-NOT: affine.if
// CHECK: return
func.func @decided_ifs(%buf: memref<512xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %tx = gpu.thread_id x upper_bound 64
  %in = arith.cmpi ult, %tx, %c64 : index
  scf.if %in {
    memref.store %tx, %buf[%tx] : memref<512xindex>
  }
  affine.for %i = 0 to 8 {
    affine.if affine_set<(d0) : (d0 >= 0, d0 - 4 >= 0)>(%i) {
      memref.store %i, %buf[%i] : memref<512xindex>
    }
    affine.if affine_set<(d0) : (d0 - 8 >= 0)>(%i) {
      memref.store %c0, %buf[%i] : memref<512xindex>
    } else {
      memref.store %c1, %buf[%i] : memref<512xindex>
    }
  }
  return
}

// Induction variables of scf.parallel and scf.forall are roots with the loops' bounds.
// CHECK-LABEL: func.func @parallel_loops
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT: memref.store %[[I]], %{{.*}}[%[[J]]]
// CHECK: scf.forall (%[[K:.*]]) in (8) {
// CHECK-NEXT: memref.store %[[K]], %{{.*}}[%[[K]]]
func.func @parallel_loops(%buf: memref<512xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c32) step (%c1, %c1) {
    %lin = arith.muli %i, %c32 : index
    %sum = arith.addi %lin, %j : index
    %q = arith.divui %sum, %c32 : index
    %r = arith.remui %sum, %c32 : index
    memref.store %q, %buf[%r] : memref<512xindex>
    scf.reduce
  }
  scf.forall (%k) in (8) {
    %m = arith.remui %k, %c8 : index
    memref.store %m, %buf[%k] : memref<512xindex>
  }
  return
}

// Nothing is below 0 as unsigned, whatever its sign: ult 0 is false, uge 0 true.
// CHECK-LABEL: func.func @unsigned_zero
// CHECK-NOT: arith.cmpi
// CHECK: return %false, %true
func.func @unsigned_zero(%x: i32) -> (i1, i1) {
  %c0 = arith.constant 0 : i32
  %below = arith.cmpi ult, %x, %c0 : i32
  %above = arith.cmpi uge, %x, %c0 : i32
  return %below, %above : i1, i1
}
