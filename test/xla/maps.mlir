// #xla.indexing_map goes through the project's one map grammar: XLA's 2026 spelling (`/` for
// floordiv) and MLIR's both parse, and the map prints canonical in XLA's spelling, under the
// alias XLA's printer uses. xla.apply_indexing prints its dimension operands in (...) and its
// symbol operands in [...], each only when the map has some.

// RUN: mlir-opt %s %plugins | FileCheck %s
// RUN: mlir-opt %s %plugins | mlir-opt %plugins | FileCheck %s

// CHECK: #indexing_map = #xla.indexing_map<"(d0) -> (d0 / 4, d0 mod 4), domain: d0 in [0, 15]">
// CHECK: #indexing_map1 = #xla.indexing_map<"()[s0, s1] -> (s0 * 8 + s1), domain: s0 in [0, 3], s1 in [0, 7]">
// CHECK: #indexing_map2 = #xla.indexing_map<"(d0)[s0] -> (s0 + (d0 / -3) * 3), domain: d0 in [0, 8], s0 in [0, 2]">

// CHECK-LABEL: func.func @spellings
// CHECK-SAME: (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NEXT: %[[R:.*]]:2 = xla.apply_indexing #indexing_map(%[[A]])
// CHECK-NEXT: %[[Q:.*]]:2 = xla.apply_indexing #indexing_map(%[[A]])
// CHECK-NEXT: %[[S:.*]] = xla.apply_indexing #indexing_map1[%[[A]], %[[B]]] {xla.range = [0 : index, 31 : index]}
// CHECK-NEXT: %[[N:.*]] = xla.apply_indexing #indexing_map2(%[[A]])[%[[B]]]
func.func @spellings(%a: index, %b: index) -> (index, index, index, index, index, index) {
  %0:2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 4, d0 mod 4), domain: d0 in [0, 15]">(%a)
  %1:2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 4, d0 % 4), domain: d0 in [0, 15]">(%a)
  %2 = xla.apply_indexing #xla.indexing_map<"()[s0, s1] -> (s0 * 8 + s1), domain: s0 in [0, 3], s1 in [0, 7]">[%a, %b] {xla.range = [0 : index, 31 : index]}
  %3 = xla.apply_indexing #xla.indexing_map<"(d0)[s0] -> ((-d0) floordiv 3 * 3 + s0), domain: d0 in [0, 8], s0 in [0, 2]">(%a)[%b]
  return %0#0, %0#1, %1#0, %1#1, %2, %3 : index, index, index, index, index, index
}
