// XLA's non-affine maps (SymbolicExpr): a product of two expressions and a division by an
// expression become arith ops, prefer-affine or not (affine maps cannot hold them): muli, divui
// where the dividend is never negative and the divisor positive, floordivsi otherwise, and a
// floor mod as the dividend less the quotient times the divisor. A divisor that may be 0 on the
// domain is an error at the op, not a crash.

// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' | FileCheck %s
// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(xla-indexing-lower-apply{prefer-affine=true})' | FileCheck %s --check-prefix=AFFINE

// CHECK-LABEL: func.func @product
// CHECK-SAME: (%[[D0:.*]]: index, %[[S0:.*]]: index)
// CHECK: %[[P:.*]] = arith.muli %[[D0]], %[[S0]] overflow<nsw, nuw> : index
// CHECK-NOT: xla_indexing.apply_indexing
// CHECK: return %[[P]]
// AFFINE-LABEL: func.func @product
// AFFINE: arith.muli
// AFFINE-NOT: affine.apply
// AFFINE: return
func.func @product(%d0: index, %s0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 * s0), domain: d0 in [0, 63], s0 in [1, 8]">(%d0, %s0) : index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @unsigned_division
// CHECK-SAME: (%[[D0:.*]]: index, %[[S0:.*]]: index)
// CHECK: %[[Q:.*]] = arith.divui %[[D0]], %[[S0]] : index
// CHECK: %[[R:.*]] = arith.remui %[[D0]], %[[S0]] : index
// CHECK: return %[[Q]], %[[R]]
func.func @unsigned_division(%d0: index, %s0: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 floordiv s0, d0 mod s0), domain: d0 in [0, 63], s0 in [1, 8]">(%d0, %s0) : index, index
  return %0#0, %0#1 : index, index
}

// -----

// A ceiling division of a non-negative dividend by a positive divisor: the dividend plus the
// divisor less one, divided unsigned (no ceildivui, whose expansion compares and selects).
// CHECK-LABEL: func.func @unsigned_ceiling_division
// CHECK-SAME: (%[[D0:.*]]: index, %[[S0:.*]]: index)
// CHECK-NOT: arith.ceildivui
// CHECK: %[[Q:.*]] = arith.divui %{{.*}}, %[[S0]] : index
// CHECK-NOT: arith.ceildivui
// CHECK: return %[[Q]]
func.func @unsigned_ceiling_division(%d0: index, %s0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 ceildiv s0), domain: d0 in [0, 63], s0 in [1, 8]">(%d0, %s0) : index
  return %0 : index
}

// -----

// A dividend that may be negative: floordivsi, and the floor mod from it.
// CHECK-LABEL: func.func @signed_mod
// CHECK-SAME: (%[[D0:.*]]: index, %[[S0:.*]]: index)
// CHECK: %[[Q:.*]] = arith.floordivsi %{{.*}}, %[[S0]] : index
// CHECK: %[[QS:.*]] = arith.muli %[[Q]], %[[S0]] overflow<nsw> : index
// CHECK: %[[M:.*]] = arith.subi %{{.*}}, %[[QS]] overflow<nsw> : index
// CHECK: return %[[M]]
func.func @signed_mod(%d0: index, %s0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> ((d0 - 9) mod s0), domain: d0 in [0, 63], s0 in [1, 8]">(%d0, %s0) : index
  return %0 : index
}

// -----

// The simplifier takes the product out first: (d0 * s0) floordiv s0 is d0 where s0 > 0.
// CHECK-LABEL: func.func @simplified
// CHECK-SAME: (%[[D0:.*]]: index, %[[S0:.*]]: index)
// CHECK-NOT: arith.
// CHECK: return %[[D0]]
func.func @simplified(%d0: index, %s0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> ((d0 * s0) floordiv s0), domain: d0 in [0, 63], s0 in [1, 8]">(%d0, %s0) : index
  return %0 : index
}

// -----

func.func @divisor_may_be_zero(%d0: index, %s0: index) -> index {
  // expected-error @+1 {{divides by an expression that may be 0}}
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 floordiv s0), domain: d0 in [0, 63], s0 in [0, 8]">(%d0, %s0) : index
  return %0 : index
}
