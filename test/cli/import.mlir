// `xla-indexing import` writes HLO as MLIR that mlir-opt with the plugin reads back (the
// fusion as xla_indexing.fusion of generic StableHLO-like ops) and xla-indexing-annotate
// annotates with the HLO analysis's maps. Ops without a StableHLO form are written
// generically with a located warning; `call` becomes func.call of a func.func.

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing import %S/../../examples/hlo/transpose_exp_add.hlo | mlir-opt %plugins --allow-unregistered-dialect | FileCheck %s --check-prefix=READ
// RUN: %xla-indexing import %S/../../examples/hlo/transpose_exp_add.hlo -o %t.mlir
// RUN: mlir-opt %t.mlir %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate)' | FileCheck %s --check-prefix=ANNOTATED
// RUN: %xla-indexing import %S/Inputs/conv_gather.hlo | mlir-opt %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate{emit-remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: %xla-indexing import %S/Inputs/sort_and_call.hlo 2>&1 > /dev/null | FileCheck %s --check-prefix=WARN
// RUN: %xla-indexing import %S/Inputs/sort_and_call.hlo 2> /dev/null | mlir-opt %plugins --allow-unregistered-dialect | FileCheck %s --check-prefix=GENERIC

// READ: module @jit_f {
// READ: func.func @main.1(%[[X:.*]]: tensor<10x20xf32>, %[[Y:.*]]: tensor<200xf32>) -> tensor<20x10xf32> {
// READ-NEXT: %[[F:.*]] = xla_indexing.fusion(%[[Y]], %[[X]]) {kind = "kLoop", name = "fused_computation"} : (tensor<200xf32>, tensor<10x20xf32>) -> tensor<20x10xf32> {
// READ-NEXT: ^bb0(%[[P0:.*]]: tensor<200xf32>, %[[P1:.*]]: tensor<10x20xf32>):
// READ-NEXT: %[[E:.*]] = "stablehlo.exponential"(%[[P1]]) : (tensor<10x20xf32>) -> tensor<10x20xf32>
// READ-NEXT: %[[T:.*]] = "stablehlo.transpose"(%[[E]]) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
// READ-NEXT: %[[R:.*]] = "stablehlo.reshape"(%[[P0]]) : (tensor<200xf32>) -> tensor<20x10xf32>
// READ-NEXT: %[[A:.*]] = "stablehlo.add"(%[[T]], %[[R]]) : (tensor<20x10xf32>, tensor<20x10xf32>) -> tensor<20x10xf32>
// READ-NEXT: xla_indexing.yield %[[A]] : tensor<20x10xf32>
// READ-NEXT: }
// READ-NEXT: return %[[F]] : tensor<20x10xf32>

// ANNOTATED: "stablehlo.exponential"(%{{.*}}) {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 9], d1 in [0, 19]">]]}
// ANNOTATED: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]">]]}
// ANNOTATED: "stablehlo.reshape"(%{{.*}}) {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0 * 10 + d1), domain: d0 in [0, 19], d1 in [0, 9]">]]}
// ANNOTATED: "stablehlo.add"(%{{.*}}, %{{.*}}) {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 19], d1 in [0, 9]">], [#xla_indexing.map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 19], d1 in [0, 9]">]]}

// Remarks point at the instructions in the HLO file.
// LOC: conv_gather.hlo:6:3: remark: operand 0: (d0, d1, d2, d3)[s0, s1, s2] -> (0, d1 + s1 - 1, d2 + s2 - 1, s0)
// LOC: conv_gather.hlo:9:3: remark: operand 0: (d0, d1){rt0} -> (rt0, d1), domain: d0 in [0, 3], d1 in [0, 4], rt0 in [0, 9]

// WARN: sort_and_call.hlo:16:3: warning: 'sorted' (sort) is written generically, without its attributes: no StableHLO form here

// GENERIC: func.func @main(%[[P:.*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
// GENERIC-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[P]]) : (tensor<8xf32>) -> tensor<8xf32>
// GENERIC-NEXT: %[[C:.*]] = call @twice(%[[S]]) : (tensor<8xf32>) -> tensor<8xf32>
// GENERIC-NEXT: return %[[S]], %[[C]]
// GENERIC: func.func @twice(
// GENERIC-NEXT: "stablehlo.add"
