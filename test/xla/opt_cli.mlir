// `xla-indexing opt` reads XLA's dumps as mlir-opt with the plugin does (the dialects are in its
// context), prints them the same (up to the blank line mlir-opt ends with: each output is
// printed once more by mlir-opt), and runs xla-indexing-lower-xla in process with the same result.

// REQUIRES: xla-indexing-cli
// RUN: mlir-opt %plugins %S/Inputs/padint.broadcast_multiply_fusion.mlir -o %t.plugin.mlir
// RUN: %xla-indexing opt %S/Inputs/padint.broadcast_multiply_fusion.mlir --pass-pipeline='builtin.module()' -o %t.cli.mlir
// RUN: mlir-opt %plugins %t.cli.mlir -o %t.cli.again.mlir
// RUN: diff %t.plugin.mlir %t.cli.again.mlir
// RUN: mlir-opt %plugins %S/Inputs/tiled.wrapped_exponential.mlir -o %t.tiled.plugin.mlir
// RUN: %xla-indexing opt %S/Inputs/tiled.wrapped_exponential.mlir --pass-pipeline='builtin.module()' -o %t.tiled.cli.mlir
// RUN: mlir-opt %plugins %t.tiled.cli.mlir -o %t.tiled.cli.again.mlir
// RUN: diff %t.tiled.plugin.mlir %t.tiled.cli.again.mlir
// RUN: mlir-opt %plugins %S/Inputs/reshape.copy_bitcast_fusion.mlir --pass-pipeline='builtin.module(xla-indexing-lower-xla)' -o %t.lowered.plugin.mlir
// RUN: %xla-indexing opt %S/Inputs/reshape.copy_bitcast_fusion.mlir --pass-pipeline='builtin.module(xla-indexing-lower-xla)' -o %t.lowered.cli.mlir
// RUN: mlir-opt %plugins %t.lowered.cli.mlir -o %t.lowered.cli.again.mlir
// RUN: diff %t.lowered.plugin.mlir %t.lowered.cli.again.mlir
// RUN: FileCheck %s --input-file=%t.lowered.cli.mlir
// CHECK: scf.for
// CHECK-NOT: xla.apply_indexing
// CHECK: tensor.extract

// The tiled transpose as XLA dumps it, its StableHLO op in pretty form: `xla-indexing opt`
// reads that form too, and lowers the kernel with 2 divisions where XLA leaves 4.
// RUN: %xla-indexing opt %S/Inputs/tiled.transpose_copy_fusion.pretty.mlir --pass-pipeline='builtin.module(xla-indexing-lower-xla)' | FileCheck %s --check-prefix=PRETTY
// PRETTY: xtile.entry_func @transpose_copy_fusion
// PRETTY: arith.divui %{{.*}}, %c5_i32 : i32
// PRETTY-NEXT: arith.divui %{{.*}}, %c10_i32 : i32
// PRETTY-NOT: arith.divui
// PRETTY-NOT: arith.remui
// PRETTY: "stablehlo.transpose"
// PRETTY-NOT: xla.apply_indexing
