// xla-indexing-annotate on real JAX output (generic form with debug info, opaque #stablehlo
// attributes): every op gets its maps; nothing is skipped.

// RUN: mlir-opt %S/Inputs/mixed_ops.stablehlo.generic.debuginfo.mlir %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate)' 2>&1 | FileCheck %s
// RUN: mlir-opt %S/Inputs/transpose_exp_add.stablehlo.generic.mlir %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate)' 2>&1 | FileCheck %s --check-prefix=TEA

// CHECK-NOT: skipped
// CHECK-DAG: "stablehlo.dot_general"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1)[s0] -> (d0, s0), domain: d0 in [0, 127], d1 in [0, 127], s0 in [0, 255]">], [#xla_indexing.map<"(d0, d1)[s0] -> (s0, d1), domain: d0 in [0, 127], d1 in [0, 127], s0 in [0, 255]">]]
// CHECK-DAG: "stablehlo.dynamic_slice"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1){rt0} -> (d0 + rt0, d1), domain: d0 in [0, 3], d1 in [0, 255], rt0 in [0, 124]">]
// CHECK-DAG: "stablehlo.convolution"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1, d2, d3)[s0, s1] -> (0, 0, d2 + s0 - 1, d3 + s1 - 1)
// CHECK-DAG: "stablehlo.pad"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0 - 1, d1), domain: d0 in [1, 4], d1 in [0, 255]">], [#xla_indexing.map<"(d0, d1) -> (), domain: d0 in [0, 5], d1 in [0, 255]">]]
// CHECK-DAG: "stablehlo.broadcast_in_dim"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0, 0), domain: d0 in [0, 127], d1 in [0, 255]">]]

// TEA: "stablehlo.transpose"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]">]]
// TEA: "stablehlo.exponential"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 19], d1 in [0, 9]">]]
// TEA: "stablehlo.reshape"{{.*}}xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0 * 10 + d1), domain: d0 in [0, 19], d1 in [0, 9]">]]
