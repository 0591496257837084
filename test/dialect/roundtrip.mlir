// The #xla_indexing.map attribute and xla_indexing.apply_indexing print what the Rust parser
// of xla-indexing-core makes of them, and parse back to the same thing, pretty or generic.

// RUN: mlir-opt %s %plugins | FileCheck %s
// RUN: mlir-opt %s %plugins | mlir-opt %plugins | FileCheck %s
// RUN: mlir-opt %s %plugins --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt %s %plugins --mlir-print-op-generic | mlir-opt %plugins | FileCheck %s

// CHECK-LABEL: func.func @runtime_vars
// CHECK-SAME: (%[[D0:.*]]: index, %[[D1:.*]]: index, %[[S0:.*]]: index, %[[RT0:.*]]: index)
// CHECK-NEXT: %{{.*}}:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1)[s0]{rt0} -> (s0 + d0 floordiv 8, d1 + rt0), domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]">(%[[D0]], %[[D1]], %[[S0]], %[[RT0]]) : index, index
// GENERIC-LABEL: sym_name = "runtime_vars"
// GENERIC: "xla_indexing.apply_indexing"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{indexing_map = #xla_indexing.map<"(d0, d1)[s0]{rt0} -> (s0 + d0 floordiv 8, d1 + rt0), domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]">}> : (index, index, index, index) -> (index, index)
func.func @runtime_vars(%d0: index, %d1: index, %s0: index, %rt0: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1)[s0]{rt0} -> (d0 floordiv 8 + s0, d1 + rt0), domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5], d0 mod 2 in [0, 0]">(%d0, %d1, %s0, %rt0) : index, index
  return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func.func @named_vars
// CHECK-NEXT: xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> (th_x + bl_x * 128), domain: th_x in [0, 127], bl_x in [0, 7]">(%{{.*}}, %{{.*}}) : index
// GENERIC-LABEL: sym_name = "named_vars"
// GENERIC: #xla_indexing.map<"(th_x, bl_x) -> (th_x + bl_x * 128), domain: th_x in [0, 127], bl_x in [0, 7]">
func.func @named_vars(%tx: index, %bx: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 7]">(%tx, %bx) : index
  return %0 : index
}

// Other spellings and adjacent string pieces are stored in the canonical form.
// CHECK-LABEL: func.func @spellings
// CHECK-NEXT: xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4, d0 mod 4), domain: d0 in [0, 15]">(%{{.*}}) : index, index
func.func @spellings(%d0: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 / 4, d0 % 4),"
                                                       " domain: d0 in [0, 15],">(%d0) : index, index
  return %0#0, %0#1 : index, index
}

// The attribute stands on its own too, and an op may have no results.
// CHECK-LABEL: func.func @no_results
// CHECK-SAME: attributes {empty = #xla_indexing.map<"KNOWN EMPTY">}
// CHECK-NEXT: xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (), domain: d0 in [0, 3]">(%{{.*}}){{$}}
func.func @no_results(%d0: index) attributes {empty = #xla_indexing.map<"KNOWN EMPTY">} {
  xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (), domain: d0 in [0, 3]">(%d0)
  return
}
