// Execution check of xla-indexing-simplify on arith: the program prints every value it computes
// over loops that include negative values, once as written and once simplified; the outputs
// must be identical. The truncating ops on possibly negative values must stay, the others go.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' > %t.simplified.mlir
// RUN: FileCheck %s --check-prefix=SIMPLIFIED < %t.simplified.mlir
// RUN: mlir-opt %s %plugins %to_llvm | %run > %t.before
// RUN: mlir-opt %t.simplified.mlir %plugins %to_llvm | %run > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=VALUES < %t.after

// SIMPLIFIED-LABEL: func.func @main
// SIMPLIFIED-COUNT-1: arith.divsi
// SIMPLIFIED-NOT: arith.divsi
// SIMPLIFIED-COUNT-1: arith.remsi
// SIMPLIFIED-NOT: arith.remsi
// SIMPLIFIED-NOT: arith.divui
// SIMPLIFIED-NOT: arith.floordivsi

// 41 * 5 values.
// VALUES-COUNT-205: {{^-?[0-9]+$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: index) {
  %i = arith.index_cast %v : index to i64
  func.call @printI64(%i) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() {
  %cm20 = arith.constant -20 : index
  %c21 = arith.constant 21 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c20 = arith.constant 20 : index
  scf.for %i = %cm20 to %c21 step %c1 {
    // May be negative: truncation is not floor, these stay.
    %a = arith.divsi %i, %c7 : index
    %b = arith.remsi %i, %c7 : index
    // i + 20 is in [0, 40]: ((i + 20) * 3) divsi 3 is i + 20; the remainder by 64 is the value.
    %p = arith.addi %i, %c20 : index
    %p3 = arith.muli %p, %c3 : index
    %d = arith.divsi %p3, %c3 : index
    %c64 = arith.constant 64 : index
    %e = arith.remsi %p, %c64 : index
    // (p floordiv 7) * 7 + p remui 7 is p; ceildiv of a multiple is exact.
    %q = arith.floordivsi %p, %c7 : index
    %q7 = arith.muli %q, %c7 : index
    %r = arith.remui %p, %c7 : index
    %f = arith.addi %q7, %r : index
    %p7 = arith.muli %p, %c7 : index
    %g = arith.ceildivsi %p7, %c7 : index
    %h0 = arith.divui %p, %c64 : index
    %h = arith.addi %h0, %i : index
    func.call @print(%a) : (index) -> ()
    func.call @print(%b) : (index) -> ()
    func.call @print(%d) : (index) -> ()
    func.call @print(%e) : (index) -> ()
    %fg = arith.addi %f, %g : index
    %all = arith.addi %fg, %h : index
    func.call @print(%all) : (index) -> ()
  }
  return
}
