// Execution check of xla-indexing-simplify on arithmetic with and without `nsw`. An `addi`,
// `subi` or `muli` with `nsw` is poison where its signed result would wrap, so the pass reads it
// as the exact integer result whatever its operands' ranges (`(a + b) - a` is `b`); without the
// flag, arithmetic that may wrap is read only as what it is, and a sum that wraps past the top
// of `i32` is negative. With `nuw`, an `x -nuw y` is poison where `x < y` read unsigned: where
// the ops that compute `x` and `y` prove `x <= y` unsigned, the difference is 0 (upstream's
// `subSub0Ovf`), and a difference of non-negative values is not negative. @main calls each
// function over a grid of its arguments where nothing flagged wraps and prints every value, once
// as written and once simplified; the outputs must be identical.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' > %t.simplified.mlir
// RUN: FileCheck %s --check-prefix=SIMPLIFIED < %t.simplified.mlir
// RUN: mlir-opt %s %to_llvm | %run > %t.before
// RUN: mlir-opt %t.simplified.mlir %to_llvm | %run > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=VALUES < %t.after

// SIMPLIFIED-LABEL: func.func @flagged
// SIMPLIFIED-NOT: arith.addi
// SIMPLIFIED-NOT: arith.subi
// SIMPLIFIED-LABEL: func.func @unflagged
// SIMPLIFIED: arith.addi
// SIMPLIFIED: arith.subi
// SIMPLIFIED-LABEL: func.func @wraps
// SIMPLIFIED: %true = arith.constant true
// SIMPLIFIED-LABEL: func.func @flagged_i32
// SIMPLIFIED-NOT: arith.muli
// SIMPLIFIED-NOT: arith.addi
// SIMPLIFIED-LABEL: func.func @sub_of_sub
// SIMPLIFIED-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
// SIMPLIFIED-NEXT: return %[[ZERO]]
// SIMPLIFIED-LABEL: func.func @unsigned_order
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-NOT: arith.minui
// SIMPLIFIED: return
// SIMPLIFIED-LABEL: func.func @nuw_difference
// SIMPLIFIED-NOT: arith.divui
// SIMPLIFIED-NOT: arith.remui
// SIMPLIFIED: return
// SIMPLIFIED-LABEL: func.func @main

// 7 * 7 * 2 + 8 + 7 * 11 values, then 7 + 28 * 2 + 66 with `nuw`.
// VALUES-COUNT-312: {{^-?[0-9]+$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: i64) {
  func.call @printI64(%v) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @flagged(%a: index, %b: index) -> index {
  %s = arith.addi %a, %b overflow<nsw> : index
  %t = arith.subi %s, %a overflow<nsw> : index
  return %t : index
}

func.func @unflagged(%a: index, %b: index) -> index {
  %s = arith.addi %a, %b : index
  %t = arith.subi %s, %a : index
  return %t : index
}

func.func @wraps(%a: i32 {xla.range = [2147483640 : i32, 2147483647 : i32]}) -> i1 {
  %c10 = arith.constant 10 : i32
  %c0 = arith.constant 0 : i32
  %s = arith.addi %a, %c10 : i32
  %n = arith.cmpi slt, %s, %c0 : i32
  return %n : i1
}

func.func @flagged_i32(%a: i32, %b: i32 {xla.range = [0 : i32, 100 : i32]}) -> i32 {
  %c4 = arith.constant 4 : i32
  %m = arith.muli %a, %c4 overflow<nsw> : i32
  %s = arith.addi %m, %b overflow<nsw> : i32
  %t = arith.subi %s, %m overflow<nsw> : i32
  return %t : i32
}

func.func @sub_of_sub(%a: index, %b: index) -> index {
  %s = arith.subi %a, %b overflow<nuw> : index
  %z = arith.subi %s, %a overflow<nuw> : index
  return %z : index
}

func.func @unsigned_order(%a: index, %b: index) -> (i1, index) {
  %s = arith.subi %a, %b overflow<nuw> : index
  %p = arith.cmpi ule, %s, %a : index
  %m = arith.minui %a, %s : index
  return %p, %m : i1, index
}

func.func @nuw_difference(%a: index {xla.range = [0 : index, 100 : index]},
                          %b: index {xla.range = [0 : index, 100 : index]}) -> index {
  %c4 = arith.constant 4 : index
  %s = arith.subi %a, %b overflow<nuw> : index
  %q = arith.divui %s, %c4 : index
  %r = arith.remui %s, %c4 : index
  %m = arith.muli %q, %c4 : index
  %t = arith.addi %m, %r : index
  return %t : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c11 = arith.constant 11 : index
  %c_3 = arith.constant -3 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c7 step %c1 {
    %a = arith.addi %i, %c_3 : index
    scf.for %j = %c0 to %c7 step %c1 {
      %b = arith.muli %j, %c_3 : index
      %f = func.call @flagged(%a, %b) : (index, index) -> index
      %u = func.call @unflagged(%a, %b) : (index, index) -> index
      %fi = arith.index_cast %f : index to i64
      %ui = arith.index_cast %u : index to i64
      func.call @print(%fi) : (i64) -> ()
      func.call @print(%ui) : (i64) -> ()
    }
  }
  %top = arith.constant 2147483640 : i32
  scf.for %i = %c0 to %c8 step %c1 {
    %k = arith.index_cast %i : index to i32
    %a = arith.addi %top, %k : i32
    %n = func.call @wraps(%a) : (i32) -> i1
    %v = arith.extui %n : i1 to i64
    func.call @print(%v) : (i64) -> ()
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %ai = arith.addi %i, %c_3 : index
    %a = arith.index_cast %ai : index to i32
    scf.for %j = %c0 to %c11 step %c1 {
      %bj = arith.muli %j, %c10 : index
      %b = arith.index_cast %bj : index to i32
      %t = func.call @flagged_i32(%a, %b) : (i32, i32) -> i32
      %v = arith.extsi %t : i32 to i64
      func.call @print(%v) : (i64) -> ()
    }
  }
  // `nuw`: only where `a >= b` read unsigned (and `b = 0` for `@sub_of_sub`).
  scf.for %i = %c0 to %c7 step %c1 {
    %a = arith.addi %i, %c_3 : index
    %z = func.call @sub_of_sub(%a, %c0) : (index, index) -> index
    %zi = arith.index_cast %z : index to i64
    func.call @print(%zi) : (i64) -> ()
    scf.for %j = %c0 to %c7 step %c1 {
      %b = arith.addi %j, %c_3 : index
      %defined = arith.cmpi uge, %a, %b : index
      scf.if %defined {
        %p, %m = func.call @unsigned_order(%a, %b) : (index, index) -> (i1, index)
        %pi = arith.extui %p : i1 to i64
        %mi = arith.index_cast %m : index to i64
        func.call @print(%pi) : (i64) -> ()
        func.call @print(%mi) : (i64) -> ()
      }
    }
  }
  scf.for %i = %c0 to %c11 step %c1 {
    %a = arith.muli %i, %c10 : index
    scf.for %j = %c0 to %c11 step %c1 {
      %b = arith.muli %j, %c10 : index
      %defined = arith.cmpi uge, %a, %b : index
      scf.if %defined {
        %t = func.call @nuw_difference(%a, %b) : (index, index) -> index
        %ti = arith.index_cast %t : index to i64
        func.call @print(%ti) : (i64) -> ()
      }
    }
  }
  return
}
