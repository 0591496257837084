// xla-indexing-lower-apply computes a result on i32 exactly when every value of its computation
// (variables, intermediate values, constants, the result) provably lies in [-2^31, 2^31 - 1]
// over the domain; unsigned divisions need a dividend that is never negative, so in
// [0, 2^31 - 1]. Variables and results that may be negative are cast with index_cast,
// the others with index_castui. Anything larger stays on index, as everything does with
// index-bitwidth=64.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' | FileCheck %s --check-prefix=WIDE

// WIDE-NOT: i32

// The largest value, d0 * 2 + 1 = 2^31 - 1, fits.
// CHECK-LABEL: func.func @largest_fits
// CHECK-SAME: (%[[D0:.*]]: index)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[X:.*]] = arith.index_castui %[[D0]] : index to i32
// CHECK: %[[M:.*]] = arith.muli %[[X]], %[[C2]] overflow<nsw, nuw> : i32
// CHECK: %[[A:.*]] = arith.addi %[[M]], %[[C1]] overflow<nsw, nuw> : i32
// CHECK: %[[R:.*]] = arith.index_castui %[[A]] : i32 to index
// CHECK: return %[[R]]
func.func @largest_fits(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 * 2 + 1), domain: d0 in [0, 1073741823]">(%d0) : index
  return %0 : index
}

// One more point and the result reaches 2^31: index.
// CHECK-LABEL: func.func @one_past
// CHECK-NOT: i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NOT: i32
// CHECK: return
func.func @one_past(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 * 2 + 1), domain: d0 in [0, 1073741824]">(%d0) : index
  return %0 : index
}

// A dividend up to 2^31 - 1: divui on i32. Up to 2^31: divui on index.
// CHECK-LABEL: func.func @division
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: return
func.func @division(%d0: index, %d1: index) -> (index, index) {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 3), domain: d0 in [0, 2147483647]">(%d0) : index
  %1 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 3), domain: d0 in [0, 2147483648]">(%d1) : index
  return %0, %1 : index, index
}

// A variable that may be negative comes in with index_cast; a floor division of a possibly
// negative value is floordivsi, and its result goes back with index_cast.
// CHECK-LABEL: func.func @negative
// CHECK-SAME: (%[[D0:.*]]: index)
// CHECK: %[[X:.*]] = arith.index_cast %[[D0]] : index to i32
// CHECK: %[[S:.*]] = arith.addi %[[X]], %{{.*}} : i32
// CHECK: %[[Q:.*]] = arith.floordivsi %[[S]], %{{.*}} : i32
// CHECK: %[[R:.*]] = arith.index_cast %[[Q]] : i32 to index
// CHECK: return %[[R]]
func.func @negative(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> ((d0 - 7) floordiv 4), domain: d0 in [-100, 100]">(%d0) : index
  return %0 : index
}

// The lowest value fits: d0 - 2^31 + 1 with d0 in [-1, 0] reaches -2^31.
// CHECK-LABEL: func.func @lowest_fits
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: arith.index_cast %{{.*}} : i32 to index
func.func @lowest_fits(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 - 2147483647), domain: d0 in [-1, 0]">(%d0) : index
  return %0 : index
}

// Results of one op are narrowed one by one: d0 floordiv 8 fits, d0 * 1048576 does not.
// CHECK-LABEL: func.func @per_result
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : index
// CHECK: return
func.func @per_result(%d0: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 8, d0 * 1048576), domain: d0 in [0, 4095]">(%d0) : index, index
  return %0#0, %0#1 : index, index
}

// A runtime variable without bounds keeps its result on index.
// CHECK-LABEL: func.func @unbounded
// CHECK-NOT: i32
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: return
func.func @unbounded(%d0: index, %rt: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0){rt0} -> (d0 + rt0 floordiv 2), domain: d0 in [0, 9], rt0 in [0, 1099511627776]">(%d0, %rt) : index
  return %0 : index
}

// A kernel's thread and block ids: both results on i32 (the remainder from the quotient); a
// result that is a variable needs no op.
// CHECK-LABEL: func.func @kernel
// CHECK-DAG: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-DAG: arith.subi %{{.*}}, %{{.*}} overflow<nsw, nuw> : i32
// CHECK-NOT: arith.remui
// CHECK: return
func.func @kernel(%tx: index, %bx: index) -> (index, index, index) {
  %0:3 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> ((bl_x * 128 + th_x) floordiv 10, (bl_x * 128 + th_x) mod 10, th_x), domain: th_x in [0, 127], bl_x in [0, 1023]">(%tx, %bx) : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}
