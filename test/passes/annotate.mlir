// xla-indexing-annotate attaches xla_indexing.operand_maps to StableHLO-like ops (generic form,
// unregistered), also inside xla_indexing.fusion; emit-remarks reports each map; an op the
// analysis does not know is skipped with a remark.

// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate{emit-remarks=true})' --split-input-file --verify-diagnostics
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate)' --split-input-file 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @transpose_exp_add
// CHECK: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]">]]}
// CHECK: "stablehlo.reshape"(%{{.*}}) {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d0 * 10 + d1), domain: d0 in [0, 19], d1 in [0, 9]">]]}
func.func @transpose_exp_add(%a: tensor<10x20xf32>, %b: tensor<200xf32>) -> tensor<20x10xf32> {
  // expected-remark @+1 {{operand 0: (d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]}}
  %0 = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
  // expected-remark @+1 {{operand 0: (d0, d1) -> (d0 * 10 + d1), domain: d0 in [0, 19], d1 in [0, 9]}}
  %1 = "stablehlo.reshape"(%b) : (tensor<200xf32>) -> tensor<20x10xf32>
  // expected-remark @+2 {{operand 0: (d0, d1) -> (d0, d1), domain: d0 in [0, 19], d1 in [0, 9]}}
  // expected-remark @+1 {{operand 1: (d0, d1) -> (d0, d1), domain: d0 in [0, 19], d1 in [0, 9]}}
  %2 = "stablehlo.add"(%0, %1) : (tensor<20x10xf32>, tensor<20x10xf32>) -> tensor<20x10xf32>
  return %2 : tensor<20x10xf32>
}

// -----

// Inside a fusion; the reduce's scalar body is not annotated; constants read nothing.
// CHECK-LABEL: func.func @fused_reduce
// CHECK: "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> {xla_indexing.operand_maps = []}
// CHECK: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: }) {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 7], s0 in [0, 15]">], [#xla_indexing.map<"(d0) -> (), domain: d0 in [0, 7]">]]}
func.func @fused_reduce(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %r = xla_indexing.fusion (%x) {name = "fused_reduce", kind = "kInput"} : (tensor<8x16xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8x16xf32>):
    %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    // expected-remark @+2 {{operand 0: (d0)[s0] -> (d0, s0), domain: d0 in [0, 7], s0 in [0, 15]}}
    // expected-remark @+1 {{operand 1: (d0) -> (), domain: d0 in [0, 7]}}
    %sum = "stablehlo.reduce"(%p, %zero) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    xla_indexing.yield %sum : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Degenerate broadcast (size 1 to 16), dot_general with batch dimensions, slice with stride.
// CHECK-LABEL: func.func @more_ops
func.func @more_ops(%a: tensor<4x1xf32>, %l: tensor<2x3x5xf32>, %r: tensor<2x5x7xf32>, %s: tensor<9xf32>) {
  // expected-remark @+1 {{operand 0: (d0, d1) -> (d0, 0), domain: d0 in [0, 3], d1 in [0, 15]}}
  %0 = "stablehlo.broadcast_in_dim"(%a) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x16xf32>
  // expected-remark @+2 {{operand 0: (d0, d1, d2)[s0] -> (d0, d1, s0), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 6], s0 in [0, 4]}}
  // expected-remark @+1 {{operand 1: (d0, d1, d2)[s0] -> (d0, s0, d2), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 6], s0 in [0, 4]}}
  %1 = "stablehlo.dot_general"(%l, %r) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
  // expected-remark @+1 {{operand 0: (d0) -> (d0 * 3 + 1), domain: d0 in [0, 2]}}
  %2 = "stablehlo.slice"(%s) <{start_indices = array<i64: 1>, limit_indices = array<i64: 9>, strides = array<i64: 3>}> : (tensor<9xf32>) -> tensor<3xf32>
  return
}

// -----

// Ops the analysis does not know, and types it cannot read, are skipped with a remark.
func.func @skipped(%a: tensor<4xf32>, %d: tensor<?xf32>) {
  // expected-remark @+1 {{xla-indexing-annotate: skipped 'stablehlo.sort': the indexing analysis does not know 'stablehlo.sort'}}
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{xla-indexing-annotate: skipped 'stablehlo.abs': 'stablehlo.abs' has a type that is not a static tensor: tensor<?xf32>}}
  %1 = "stablehlo.abs"(%d) : (tensor<?xf32>) -> tensor<?xf32>
  return
}
