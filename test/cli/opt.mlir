// `xla-indexing opt` runs the passes in process: the same input through mlir-opt with the
// plugin and through `xla-indexing opt` gives the same module, checked by the same lines.
// Errors: exit 3 for input that does not parse, 2 for a bad pipeline, 1 for a failing pass,
// with located diagnostics.

// REQUIRES: xla-indexing-cli
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate, xla-indexing-simplify, canonicalize)' | FileCheck %s
// RUN: %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate, xla-indexing-simplify, canonicalize)' | FileCheck %s
// RUN: %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-simplify)' -o %t.mlir && FileCheck %s --check-prefix=FILE < %t.mlir
// RUN: %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-simplify)' --format json | FileCheck %s --check-prefix=JSON
// JSON: {"mlir":"module {\n  func.func @kernel(

// RUN: not %xla-indexing opt %s --pass-pipeline='builtin.module(xla-indexing-simplify)' 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: %expect-exit 3 %xla-indexing opt %s --pass-pipeline='builtin.module(xla-indexing-simplify)'
// PARSE: opt.mlir:[[@LINE+17]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// PARSE-NEXT: "stablehlo.transpose"

// RUN: not %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: %expect-exit 2 %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(no-such-pass)'
// PIPELINE: error: --pass-pipeline: invalid pass pipeline: {{.*}}'no-such-pass' does not refer to a registered pass

// RUN: not %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(one-shot-bufferize)' 2>&1 | FileCheck %s --check-prefix=FAILED
// RUN: %expect-exit 1 %xla-indexing opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(one-shot-bufferize)'
// FAILED: opt.mlir:[[@LINE+8]]:{{[0-9]+}}: error: op was not bufferized

// CHECK-LABEL: func.func @kernel
// CHECK: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> {xla_indexing.operand_maps = {{\[}}[#xla_indexing.map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]">]]}
// CHECK-NOT: apply_indexing
// CHECK: return %{{.*}}, %block_id_x, %thread_id_x
// FILE: return %{{.*}}, %block_id_x, %thread_id_x
func.func @kernel(%a: tensor<10x20xf32>) -> (tensor<20x10xf32>, index, index) {
  %t = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
  %tid = gpu.thread_id x upper_bound 128
  %bid = gpu.block_id x upper_bound 16
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d1 * 128 + d0) floordiv 128, (d1 * 128 + d0) mod 128), domain: d0 in [0, 127], d1 in [0, 15]">(%tid, %bid) : index, index
  return %t, %0#0, %0#1 : tensor<20x10xf32>, index, index
}
