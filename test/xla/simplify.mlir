// xla-indexing-simplify reads XLA's ops as ours: xla.apply_indexing is composed through and
// rewritten (into an xla.apply_indexing again), xla.range gives the bounds of arguments and op
// results, and xla.loop's map domain bounds its induction variables and map results.

// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' %s | FileCheck %s
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' %S/Inputs/reshape.copy_bitcast_fusion.mlir | FileCheck %s --check-prefix=RESHAPE

// The reshape chain of a real dump: four maps, one feeding another, become two over the
// callee's arguments.
// RESHAPE-DAG: #[[MOD:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1) -> (d1 mod 16), domain: d0 in [0, 2], d1 in [0, 127]">
// RESHAPE-DAG: #[[ROW:indexing_map[0-9]*]] = #xla.indexing_map<"(d0, d1) -> (d0 * 2 + (d1 / 16) * 6 - (d1 / 64) * 23), domain: d0 in [0, 2], d1 in [0, 127]">
// RESHAPE-LABEL: func.func private @fused_computation_bitcast_2
// RESHAPE: %[[C:.*]] = xla.apply_indexing #[[MOD]](%arg1, %arg2)
// RESHAPE-NEXT: %[[R:.*]] = xla.apply_indexing #[[ROW]](%arg1, %arg2)
// RESHAPE-NEXT: tensor.extract %arg0[%[[R]], %[[C]]] : tensor<24x16xf32>

// The loop's map gives %ra in [0, 129]: the map of the body is the identity there.
// CHECK-DAG: #[[STAYS:indexing_map[0-9]*]] = #xla.indexing_map<"(d0) -> (d0 * 13 + 3000), domain: d0 in [0, 99]">
// CHECK-LABEL: func.func @loop_domain
// CHECK: xla.loop ()[%{{.*}}] -> (%[[RA:.*]]) in
// CHECK-NEXT: tensor.insert %[[RA]] into %{{.*}}[%[[RA]]]
func.func @loop_domain(%t: tensor<130xindex>) -> tensor<130xindex> {
  %r = xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 129]"> iter_args(%iter = %t) -> (tensor<130xindex>) {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 256 + (d0 / 256) * 7), domain: d0 in [0, 1023]">(%ra)
    %inserted = tensor.insert %0 into %iter[%ra] : tensor<130xindex>
    xla.yield %inserted : tensor<130xindex>
  }
  return %r : tensor<130xindex>
}

// xla.range bounds an argument (%a / 64 is 0) and a workgroup id (its remainder by 8 is itself).
// CHECK-LABEL: func.func @range_attributes
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[W:.*]] = xla.workgroup_id x {xla.range = [0 : index, 7 : index]}
// CHECK-NEXT: return %[[C0]], %[[W]] : index, index
func.func @range_attributes(%a: index {xla.range = [0 : index, 63 : index]}) -> (index, index) {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 64), domain: d0 in [0, 1023]">(%a)
  %c8 = arith.constant 8 : index
  %1 = xla.workgroup_id x {xla.range = [0 : index, 7 : index]}
  %2 = arith.remui %1, %c8 : index
  return %0, %2 : index, index
}

// An xla.apply_indexing that simplification rewrites stays in XLA's dialect.
// CHECK-LABEL: func.func @stays_xla
// CHECK-NEXT: %[[R:.*]] = xla.apply_indexing #[[STAYS]](%{{.*}})
// CHECK-NEXT: return %[[R]]
func.func @stays_xla(%a: index {xla.range = [0 : index, 99 : index]}) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 * 4 + 3), domain: d0 in [0, 99]">(%a)
  %1 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 4), domain: d0 in [0, 399]">(%0)
  %2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 4), domain: d0 in [0, 399]">(%0)
  %3 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 13 + d1 * 1000), domain: d0 in [0, 99], d1 in [0, 3]">(%1, %2)
  return %3 : index
}
