// xla-indexing-lower-apply rejects loops it cannot lower with an error at the loop, never a
// crash. The verifier rejects the first two, so they are parsed without it.

// RUN: not mlir-opt %s %plugins --mlir-very-unsafe-disable-verifier-on-parsing -split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-apply)' 2>&1 | FileCheck %s

// CHECK: lower_loop_invalid.mlir:[[# @LINE + 3]]:3: error: xla_indexing.loop does not support runtime variables, but its map has 1
// CHECK: error: xla-indexing-lower-apply: cannot lower an xla_indexing.loop
func.func @runtime_vars(%d: index, %r: index) {
  xla_indexing.loop (%d, %r) -> (%x) in #xla_indexing.map<"(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 1], rt0 in [0, 3]"> {
    xla_indexing.yield
  }
  return
}

// -----

// CHECK: lower_loop_invalid.mlir:[[# @LINE + 2]]:8: error: the body of xla_indexing.loop must end with an xla_indexing.yield of one value per init (1)
func.func @no_yield(%d: index, %init: index) -> index {
  %r = xla_indexing.loop (%d) -> (%x) in #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 1]"> iter_args(%acc = %init) -> (index) {
    %y = arith.addi %acc, %x : index
  }
  return %r : index
}

// -----

// CHECK: lower_loop_invalid.mlir:[[# @LINE + 2]]:3: error: the upper bound of range variable s0 is the largest index: the loop has no end
func.func @endless() {
  xla_indexing.loop ()[%i] -> () in #xla_indexing.map<"()[s0] -> (), domain: s0 in [0, 9223372036854775807]"> {
    xla_indexing.yield
  }
  return
}
