// xla-indexing-simplify rewrites the maps of xla_indexing.apply_indexing within their domain
// and those of affine.apply over all integers; an op whose results become its operands goes.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' | FileCheck %s
// The pass is op-agnostic: scheduled on functions it does the same.
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(func.func(xla-indexing-simplify))' | FileCheck %s

// CHECK: #[[$DIV6:.*]] = affine_map<(d0) -> (d0 floordiv 6)>

// The first result is the operand d0; the op keeps the other, with its domain.
// CHECK-LABEL: func.func @bounded
// CHECK-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index)
// CHECK-NEXT: %[[R:.*]] = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 9], d1 in [0, 3]">(%[[D0]], %[[D1]]) : index
// CHECK-NEXT: return %[[D0]], %[[R]]
func.func @bounded(%d0: index, %d1: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d0 * 4 + d1) floordiv 4, (d0 * 4 + d1) mod 4 + d0 * 2), domain: d0 in [0, 9], d1 in [0, 3]">(%d0, %d1) : index, index
  return %0#0, %0#1 : index, index
}

// The seed's examples: every result becomes an operand.
// CHECK-LABEL: func.func @forwarded
// CHECK-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index, %[[D2:.*]]: index)
// CHECK-NOT: xla_indexing.apply_indexing
// CHECK: return %[[D0]], %[[D1]], %[[D2]], %[[D0]], %[[D1]]
func.func @forwarded(%d0: index, %d1: index, %d2: index) -> (index, index, index, index, index) {
  %0:3 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 100, ((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">(%d0, %d1, %d2) : index, index, index
  %1:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]">(%d0, %d1) : index, index
  return %0#0, %0#1, %0#2, %1#0, %1#1 : index, index, index, index, index
}

// Nothing is cheaper: the op stays as written (d0 is even, so it never reaches 15, but a
// tighter domain computes nothing less).
// CHECK-LABEL: func.func @constrained
// CHECK-NEXT: xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (s0 + d0 floordiv 8), domain: d0 in [0, 15], s0 in [0, 3], d0 mod 2 in [0, 0]">
func.func @constrained(%d0: index, %s0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 floordiv 8 + s0), domain: d0 in [0, 15], s0 in [0, 3], d0 mod 2 in [0, 0]">(%d0, %s0) : index
  return %0 : index
}

// Nothing to do: the op stays as it is.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 4), domain: d0 in [0, 9]">
func.func @unchanged(%d0: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 4), domain: d0 in [0, 9]">(%d0) : index
  return %0 : index
}

// CHECK-LABEL: func.func @affine
// CHECK-SAME: (%[[A:.*]]: index)
// CHECK-NEXT: %[[Q:.*]] = affine.apply #[[$DIV6]](%[[A]])
// CHECK-NEXT: return %[[A]], %[[Q]]
func.func @affine(%a: index) -> (index, index) {
  %0 = affine.apply affine_map<(d0) -> ((d0 floordiv 4) * 4 + d0 mod 4)>(%a)
  %1 = affine.apply affine_map<(d0) -> ((d0 floordiv 2) floordiv 3)>(%a)
  return %0, %1 : index, index
}
