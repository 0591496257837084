// Execution check of xla-indexing-simplify after `lower-affine`, where upstream's range passes
// would run: lower-affine writes every affine floordiv and mod with a correction for negative
// dividends (a compare and selects around a signed division), whatever the ranges. The pass
// removes the correction wherever the dividend is never negative (loop counters, declared
// ranges), in load indices, in loop bounds and in a division by a symbol expression, all of
// which stay affine before lowering. @main calls each function over a grid of its arguments and
// prints every value, once lowered as written and once lowered and simplified; the outputs must
// be identical.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(lower-affine, xla-indexing-simplify)' > %t.simplified.mlir
// RUN: FileCheck %s --check-prefix=SIMPLIFIED < %t.simplified.mlir
// RUN: mlir-opt %s %to_llvm | %run > %t.before
// RUN: mlir-opt %t.simplified.mlir %to_llvm | %run > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=VALUES < %t.after

// SIMPLIFIED-LABEL: func.func @tiled_loads
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-NOT: arith.select
// SIMPLIFIED-NOT: arith.divsi
// SIMPLIFIED-NOT: arith.remsi
// SIMPLIFIED-COUNT-6: arith.{{divui|remui}}
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @divided_bounds
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-NOT: arith.select
// SIMPLIFIED: arith.divui
// SIMPLIFIED: arith.remui
// SIMPLIFIED-NOT: arith.cmpi
// The divisor's sign is the symbol's (lower-affine assumes it positive); the dividend's is known.
// SIMPLIFIED-LABEL: func.func @divided_by_symbol_sum
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-NOT: arith.select
// SIMPLIFIED-COUNT-1: arith.divsi
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @main

// 97 + 13 + 6 values.
// VALUES-COUNT-116: {{^-?[0-9]+$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: index) {
  %i = arith.index_cast %v : index to i64
  func.call @printI64(%i) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// Loads whose maps divide, in a loop nest tiled by 32.
func.func @tiled_loads(%n: index {xla.range = [0 : index, 96 : index]}, %buf: memref<8x64xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %r = affine.for %i = 0 to %n step 32 iter_args(%acc = %c0) -> (index) {
    %s = affine.for %j = 0 to 32 iter_args(%a = %acc) -> (index) {
      %x = affine.load %buf[(%i + %j) floordiv 32, (%i + %j) mod 16] : memref<8x64xindex>
      %y = affine.load %buf[(%i + %j) floordiv 64, (%i + %j) mod 64] : memref<8x64xindex>
      %z = affine.load %buf[%j floordiv 8, %i mod 48] : memref<8x64xindex>
      %h0 = arith.muli %a, %c31 : index
      %h1 = arith.addi %h0, %x : index
      %h2 = arith.muli %h1, %c31 : index
      %h3 = arith.addi %h2, %y : index
      %h4 = arith.muli %h3, %c31 : index
      %h5 = arith.addi %h4, %z : index
      affine.yield %h5 : index
    }
    affine.yield %s : index
  }
  return %r : index
}

// Loop bounds that divide, the maximum and minimum of several expressions.
func.func @divided_bounds(%n: index {xla.range = [0 : index, 12 : index]}) -> index {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %r = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (index) {
    %s = affine.for %j = max affine_map<(d0) -> (d0 floordiv 2, 1)>(%i) to min affine_map<(d0) -> (d0 mod 5 + 6, 9)>(%i) iter_args(%a = %acc) -> (index) {
      %h0 = arith.muli %a, %c31 : index
      %h1 = arith.addi %h0, %j : index
      affine.yield %h1 : index
    }
    affine.yield %s : index
  }
  return %r : index
}

// A division by a symbol expression (semi-affine).
func.func @divided_by_symbol_sum(%m: index {xla.range = [0 : index, 5 : index]}) -> index {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %r = affine.for %i = 1 to 100 iter_args(%acc = %c0) -> (index) {
    %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv (s0 + 1))>(%i)[%m]
    %h0 = arith.muli %acc, %c31 : index
    %h1 = arith.addi %h0, %q : index
    affine.yield %h1 : index
  }
  return %r : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %c97 = arith.constant 97 : index
  %buf = memref.alloc() : memref<8x64xindex>
  scf.for %r = %c0 to %c8 step %c1 {
    scf.for %c = %c0 to %c64 step %c1 {
      %row = arith.muli %r, %c64 : index
      %v = arith.addi %row, %c : index
      memref.store %v, %buf[%r, %c] : memref<8x64xindex>
    }
  }
  scf.for %n = %c0 to %c97 step %c1 {
    %h = func.call @tiled_loads(%n, %buf) : (index, memref<8x64xindex>) -> index
    func.call @print(%h) : (index) -> ()
  }
  memref.dealloc %buf : memref<8x64xindex>
  scf.for %n = %c0 to %c13 step %c1 {
    %h = func.call @divided_bounds(%n) : (index) -> index
    func.call @print(%h) : (index) -> ()
  }
  scf.for %m = %c0 to %c6 step %c1 {
    %h = func.call @divided_by_symbol_sum(%m) : (index) -> index
    func.call @print(%h) : (index) -> ()
  }
  return
}
