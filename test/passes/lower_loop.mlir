// xla-indexing-lower-apply lowers xla_indexing.loop to one scf.for per range variable (bounds
// from the domain, the first variable outermost, loop-carried values as iter_args), computes
// the map's results with apply_indexing (lowered to arith by the same pass), and guards the body
// with scf.if only where a constraint, or a dim whose range is not known to be inside its bounds,
// can fail. Known-empty loops give their inits. The values these loops compute are checked by
// executing them in lower_loop_exec.mlir.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(func.func(xla-indexing-lower-apply))' | FileCheck %s

// CHECK-NOT: xla_indexing.

// Two range vars, no constraint, a dim whose range (an scf.for's) lies in its bounds: two
// scf.for, no scf.if; the carried value goes through both loops.
// CHECK-LABEL: func.func @range_vars
// CHECK-SAME: (%[[INIT:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[OUTER:.*]] = scf.for %[[D:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[H:.*]] = %[[INIT]]) -> (index) {
// CHECK: %[[L:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[A:.*]] = %[[H]]) -> (index) {
// CHECK: %[[M:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[B:.*]] = %[[A]]) -> (index) {
// CHECK-NOT: scf.if
// CHECK: %[[NEXT:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK-NEXT: scf.yield %[[NEXT]] : index
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[M]] : index
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[L]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[OUTER]]
func.func @range_vars(%init: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %d = %c0 to %c4 step %c1 iter_args(%h = %init) -> (index) {
    %l = xla_indexing.loop (%d)[%i, %j] -> (%x) in #xla_indexing.map<"(d0)[s0, s1] -> (d0 * 32 + s0 * 4 + s1), domain: d0 in [0, 3], s0 in [0, 7], s1 in [0, 3]"> iter_args(%acc = %h) -> (index) {
      %next = arith.addi %acc, %x : index
      xla_indexing.yield %next : index
    }
    scf.yield %l : index
  }
  return %r : index
}

// A constraint: its expression (one apply_indexing of a map without constraints, lowered) is
// compared with the side of its interval that can fail; the else-branch passes the carried
// values on.
// CHECK-LABEL: func.func @constraint
// CHECK-SAME: (%[[INIT:.*]]: f32, %[[T:.*]]: tensor<8x4xf32>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK: %[[OK:.*]] = arith.cmpi sle, %{{.*}}, %[[C8]] : index
// CHECK-NEXT: %[[Y:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[I]], %[[J]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[B]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[SUM]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[B]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[Y]] : f32
func.func @constraint(%init: f32, %t: tensor<8x4xf32>) -> f32 {
  %r = xla_indexing.loop ()[%i, %j] -> (%r0, %r1) in #xla_indexing.map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 7], s1 in [0, 3], s0 + s1 in [0, 8]"> iter_args(%acc = %init) -> (f32) {
    %x = tensor.extract %t[%r0, %r1] : tensor<8x4xf32>
    %sum = arith.addf %acc, %x : f32
    xla_indexing.yield %sum : f32
  }
  return %r : f32
}

// A point interval is one eq comparison (of s0 mod 4, which is s0 less 4 times its quotient).
// CHECK-LABEL: func.func @point_constraint
// CHECK: scf.for
// CHECK: arith.divui
// CHECK: arith.subi
// CHECK: %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[OK]] -> (index) {
func.func @point_constraint(%init: index) -> index {
  %r = xla_indexing.loop ()[%i] -> (%x) in #xla_indexing.map<"()[s0] -> (s0), domain: s0 in [0, 15], s0 mod 4 in [1, 1]"> iter_args(%acc = %init) -> (index) {
    %next = arith.addi %acc, %x : index
    xla_indexing.yield %next : index
  }
  return %r : index
}

// A constraint that the simplifier turns into tighter bounds needs no check: s0 * 2 <= 6 is
// s0 <= 3, so the loop runs from -3 to 4 (exclusive).
// CHECK-LABEL: func.func @negative_bounds
// CHECK-DAG: %[[CM3:.*]] = arith.constant -3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %{{.*}} = %[[CM3]] to %[[C4]] step %{{.*}} iter_args
// CHECK-NOT: scf.if
// CHECK: return
func.func @negative_bounds(%init: index) -> index {
  %r = xla_indexing.loop ()[%i] -> (%x) in #xla_indexing.map<"()[s0] -> (s0 * 5), domain: s0 in [-3, 7], s0 * 2 in [-100, 6]"> iter_args(%acc = %init) -> (index) {
    %next = arith.addi %acc, %x : index
    xla_indexing.yield %next : index
  }
  return %r : index
}

// A dim of unknown range (a function argument) is checked against its bounds once, before the
// loops, and the check joins the constraint's.
// CHECK-LABEL: func.func @dim_of_unknown_range
// CHECK-SAME: (%[[D:.*]]: index, %[[INIT:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[D]], %[[C0]] : index
// CHECK-NEXT: %[[LE:.*]] = arith.cmpi sle, %[[D]], %[[C9]] : index
// CHECK-NEXT: %[[DOK:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT: scf.for
// CHECK: %[[COK:.*]] = arith.cmpi sle
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[DOK]], %[[COK]] : i1
// CHECK-NEXT: scf.if %[[OK]] -> (index) {
func.func @dim_of_unknown_range(%d: index, %init: index) -> index {
  %r = xla_indexing.loop (%d)[%i] -> (%x) in #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], d0 + s0 in [0, 10]"> iter_args(%acc = %init) -> (index) {
    %next = arith.addi %acc, %x : index
    xla_indexing.yield %next : index
  }
  return %r : index
}

// No range vars and a dim known to be in bounds: no scf.for, no scf.if; the body replaces the
// loop.
// CHECK-LABEL: func.func @no_range_vars
// CHECK-SAME: (%[[INIT:.*]]: index)
// CHECK-DAG: %[[C14:.*]] = arith.constant 14 : index
// CHECK-NOT: scf.
// CHECK: %[[NEXT:.*]] = arith.addi %[[INIT]], %[[C14]] : index
// CHECK-NEXT: return %[[NEXT]]
func.func @no_range_vars(%init: index) -> index {
  %c7 = arith.constant 7 : index
  %r = xla_indexing.loop (%c7) -> (%x) in #xla_indexing.map<"(d0) -> (d0 * 2), domain: d0 in [0, 9]"> iter_args(%acc = %init) -> (index) {
    %next = arith.addi %acc, %x : index
    xla_indexing.yield %next : index
  }
  return %r : index
}

// Known-empty domains (by the map itself, or for the dim's value): the results are the inits and
// the bodies go.
// CHECK-LABEL: func.func @known_empty
// CHECK-SAME: (%[[INIT:.*]]: f32)
// CHECK-NEXT: return %[[INIT]], %[[INIT]]
func.func @known_empty(%init: f32) -> (f32, f32) {
  %c3 = arith.constant 3 : index
  %r = xla_indexing.loop ()[%i] -> (%x) in #xla_indexing.map<"()[s0] -> (s0), domain: s0 in [0, 3], s0 mod 8 in [5, 6]"> iter_args(%acc = %init) -> (f32) {
    %next = arith.addf %acc, %acc : f32
    xla_indexing.yield %next : f32
  }
  %q = xla_indexing.loop (%c3)[%i] -> (%x) in #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [0, 3], d0 + s0 in [10, 20]"> iter_args(%acc = %init) -> (f32) {
    %next = arith.addf %acc, %acc : f32
    xla_indexing.yield %next : f32
  }
  return %r, %q : f32, f32
}

// Nested loops: the inner loop's dim is a result of the outer one, whose range matches the inner
// dim's bounds (no dim check); the inner loop's carried value starts from the outer one's.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[INIT:.*]]: index)
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (index) {
// CHECK-NOT: arith.cmpi
// CHECK: %[[IN:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (index) {
// CHECK: %[[OK:.*]] = arith.cmpi eq
// CHECK-NEXT: %[[Y:.*]] = scf.if %[[OK]] -> (index) {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[B]] : index
// CHECK: scf.yield %[[IN]] : index
// CHECK: return %[[R]]
func.func @nested(%init: index) -> index {
  %r = xla_indexing.loop ()[%i] -> (%o) in #xla_indexing.map<"()[s0] -> (s0 * 2), domain: s0 in [-2, 3]"> iter_args(%acc = %init) -> (index) {
    %in = xla_indexing.loop (%o)[%j] -> (%p) in #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [-4, 6], s0 in [0, 4], (d0 + s0) mod 3 in [0, 0]"> iter_args(%acc2 = %acc) -> (index) {
      %x = arith.addi %acc2, %p : index
      xla_indexing.yield %x : index
    }
    xla_indexing.yield %in : index
  }
  return %r : index
}

// A kernel as code generation writes it: thread and block ids with known bounds need no check,
// the constraint on the linear index does. It involves dims only, so it is computed once, before
// the loops. No carried values: the scf.if has no else-branch.
// CHECK-LABEL: func.func @kernel
// CHECK-DAG: %[[C999:.*]] = arith.constant 999 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[OK:.*]] = arith.cmpi sle, %{{.*}}, %[[C999]] : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[C2]] step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[C4]] step
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK: memref.store
// CHECK-NOT: else
// CHECK: return
func.func @kernel(%out: memref<1000x16xf32>, %v: f32) {
  %tx = gpu.thread_id x upper_bound 128
  %ty = gpu.thread_id y upper_bound 1
  %tz = gpu.thread_id z upper_bound 1
  %bx = gpu.block_id x upper_bound 8
  %by = gpu.block_id y upper_bound 1
  %bz = gpu.block_id z upper_bound 1
  xla_indexing.loop (%tx, %ty, %tz, %bx, %by, %bz)[%s0, %s1] -> (%o0, %o1) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (th_x + bl_x * 128, s0 * 4 + s1), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 1], s1 in [0, 3], th_x + bl_x * 128 in [0, 999]"> {
    memref.store %v, %out[%o0, %o1] : memref<1000x16xf32>
    xla_indexing.yield
  }
  return
}
