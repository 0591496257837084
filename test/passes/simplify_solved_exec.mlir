// Execution check of the facts xla-indexing-simplify takes from MLIR's integer range analysis
// (its dataflow solver): the union of an scf.if's results and of a block's incoming
// arguments, an scf.while whose condition never holds, unsigned bounds of arithmetic that
// wraps in its signed range. @main calls each function over a grid of its arguments and prints
// every value, once as written and once simplified; the outputs must be identical. Booleans
// compute as 0 and -1 (a sign-extended true is -1, the signed max of true and false is false):
// the functions that read them so must keep their meaning too. Compares of integers converted
// to floats against float constants are decided by the integers' ranges where the conversion
// is exact.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' > %t.simplified.mlir
// RUN: FileCheck %s --check-prefix=SIMPLIFIED < %t.simplified.mlir
// RUN: mlir-opt %s --pass-pipeline='builtin.module(convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | %run > %t.before
// RUN: mlir-opt %t.simplified.mlir --pass-pipeline='builtin.module(convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | %run > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=VALUES < %t.after

// SIMPLIFIED-LABEL: func.func @if_results
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @branch_arguments
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @while_never
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @unsigned_product
// SIMPLIFIED-NOT: arith.cmpi
// SIMPLIFIED-LABEL: func.func @booleans
// SIMPLIFIED-COUNT-2: arith.cmpi
// Compares of integers converted exactly to floats, against constants, that the integers'
// ranges decide; the last one depends on the value and stays.
// SIMPLIFIED-LABEL: func.func @converted_compares
// SIMPLIFIED-COUNT-1: arith.cmpf
// SIMPLIFIED-NOT: arith.cmpf
// Compares of integers converted with rounding (the conversion keeps order, and an f16
// overflows to infinity): four decided, the two that depend on the value stay.
// SIMPLIFIED-LABEL: func.func @rounded_compares
// SIMPLIFIED-COUNT-2: arith.cmpf
// SIMPLIFIED-NOT: arith.cmpf
// SIMPLIFIED-LABEL: func.func @main

// 10 * 2 * 2 + 10 * 2 * 2 + 10 * 2 + 6 * 6 + 2 * 2 * 4 + 7 * 6 + 9 * 6 values.
// VALUES-COUNT-248: {{^-?[0-9]+$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: i64) {
  func.call @printI64(%v) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @print_bool(%b: i1) {
  %v = arith.extui %b : i1 to i64
  func.call @print(%v) : (i64) -> ()
  return
}

// The if gives x * 5 in [0, 25] or x + 3 in [3, 8]: below 30 and never above 25, whichever
// branch.
func.func @if_results(%a: index, %p: i1) -> (i1, index) {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c25 = arith.constant 25 : index
  %c30 = arith.constant 30 : index
  %x = arith.minui %a, %c5 : index
  %y = scf.if %p -> index {
    %s = arith.muli %x, %c5 : index
    scf.yield %s : index
  } else {
    %t = arith.addi %x, %c3 : index
    scf.yield %t : index
  }
  %below = arith.cmpi ult, %y, %c30 : index
  %above = arith.cmpi sgt, %y, %c25 : index
  %clamped = arith.select %above, %c25, %y : index
  return %below, %clamped : i1, index
}

// The join's argument is a remainder by 7 or 7 itself: at most 7, and never negative.
func.func @branch_arguments(%a: index, %p: i1) -> (i1, i1) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %r = arith.remui %a, %c7 : index
  cf.cond_br %p, ^remainder(%r : index), ^seven(%c7 : index)
^remainder(%e: index):
  cf.br ^join(%e : index)
^seven(%s: index):
  cf.br ^join(%s : index)
^join(%v: index):
  %below = arith.cmpi ult, %v, %c8 : index
  %negative = arith.cmpi slt, %v, %c0 : index
  return %below, %negative : i1, i1
}

// The loop starts at a quotient (never negative) and carries 3: its condition never holds.
func.func @while_never(%a: index) -> index {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %q = arith.divui %a, %c3 : index
  %r = scf.while (%i = %q) : (index) -> index {
    %negative = arith.cmpi slt, %i, %c0 : index
    scf.condition(%negative) %i : index
  } do {
  ^bb0(%i: index):
    scf.yield %c3 : index
  }
  return %r : index
}

// At most 16383 * 4 = 65532 unsigned: the product fits 16 bits unsigned, not signed.
func.func @unsigned_product(%a: i16, %b: i16) -> (i1, i16) {
  %mask = arith.constant 16383 : i16
  %c4 = arith.constant 4 : i16
  %top = arith.constant -4 : i16
  %x = arith.andi %a, %mask : i16
  %y = arith.minui %b, %c4 : i16
  %p = arith.muli %x, %y : i16
  %within = arith.cmpi ule, %p, %top : i16
  return %within, %p : i1, i16
}

// Neither compare is decided: a sign-extended boolean is 0 or -1, and the signed max of
// true (-1) and any boolean is that boolean.
func.func @booleans(%p: i1, %q: i1) -> (i1, i1, i1, i1) {
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
  %c5 = arith.constant 5 : i64
  %wide = arith.extsi %p : i1 to i64
  %nonzero = arith.cmpi ne, %wide, %c0 : i64
  %masked = arith.andi %wide, %c5 : i64
  %five = arith.cmpi eq, %masked, %c5 : i64
  %max = arith.maxsi %true, %q : i1
  %min = arith.minsi %p, %q : i1
  return %nonzero, %five, %max, %min : i1, i1, i1, i1
}

func.func @converted_compares(%a: i32, %b: i16, %c: i8) -> (i1, i1, i1, i1, i1, i1) {
  %zero = arith.constant 0.0 : f64
  %big = arith.constant 40000.0 : f32
  %half = arith.constant 0.5 : f32
  %huge = arith.constant 1.0e9 : f32
  %limit = arith.constant 256.0 : f16
  %three = arith.constant 3.0 : f32
  %ua = arith.uitofp %a : i32 to f64
  %sb = arith.sitofp %b : i16 to f32
  %uc = arith.uitofp %c : i8 to f16
  %negative = arith.cmpf olt, %ua, %zero : f64
  %above = arith.cmpf ogt, %sb, %big : f32
  %is_half = arith.cmpf oeq, %sb, %half : f32
  %not_huge = arith.cmpf une, %huge, %sb : f32
  %below_limit = arith.cmpf ult, %uc, %limit : f16
  %below_three = arith.cmpf olt, %sb, %three : f32
  return %negative, %above, %is_half, %not_huge, %below_limit, %below_three : i1, i1, i1, i1, i1, i1
}

func.func @rounded_compares(%a: i32) -> (i1, i1, i1, i1, i1, i1) {
  %zero = arith.constant 0.0 : f32
  %two_to_32 = arith.constant 4294967296.0 : f32
  %billion = arith.constant 1.0e9 : f32
  %half = arith.constant 0.5 : f16
  %inf = arith.constant 0x7C00 : f16
  %ninf = arith.constant 0xFC00 : f16
  %ua = arith.uitofp %a : i32 to f32
  %uh = arith.uitofp %a : i32 to f16
  %sh = arith.sitofp %a : i32 to f16
  %negative = arith.cmpf olt, %ua, %zero : f32
  %at_most = arith.cmpf ole, %ua, %two_to_32 : f32
  %below_billion = arith.cmpf olt, %ua, %billion : f32
  %is_half = arith.cmpf oeq, %uh, %half : f16
  %finite_or_inf = arith.cmpf ole, %uh, %inf : f16
  %above_ninf = arith.cmpf ogt, %sh, %ninf : f16
  return %negative, %at_most, %below_billion, %is_half, %finite_or_inf, %above_ninf : i1, i1, i1, i1, i1, i1
}

func.func @print_rounded(%a: i32) {
  %r:6 = func.call @rounded_compares(%a) : (i32) -> (i1, i1, i1, i1, i1, i1)
  func.call @print_bool(%r#0) : (i1) -> ()
  func.call @print_bool(%r#1) : (i1) -> ()
  func.call @print_bool(%r#2) : (i1) -> ()
  func.call @print_bool(%r#3) : (i1) -> ()
  func.call @print_bool(%r#4) : (i1) -> ()
  func.call @print_bool(%r#5) : (i1) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %big = arith.constant 16380 : index
  scf.for %a = %c0 to %c10 step %c1 {
    scf.for %pi = %c0 to %c2 step %c1 {
      %p = arith.cmpi eq, %pi, %c1 : index
      %r:2 = func.call @if_results(%a, %p) : (index, i1) -> (i1, index)
      func.call @print_bool(%r#0) : (i1) -> ()
      %v = arith.index_cast %r#1 : index to i64
      func.call @print(%v) : (i64) -> ()
      %s:2 = func.call @branch_arguments(%a, %p) : (index, i1) -> (i1, i1)
      func.call @print_bool(%s#0) : (i1) -> ()
      func.call @print_bool(%s#1) : (i1) -> ()
    }
    %w = func.call @while_never(%a) : (index) -> index
    %wv = arith.index_cast %w : index to i64
    func.call @print(%wv) : (i64) -> ()
    %ai = arith.index_cast %a : index to i64
    func.call @print(%ai) : (i64) -> ()
  }
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %x = arith.addi %big, %i : index
      %xa = arith.index_cast %x : index to i16
      %yb = arith.index_cast %j : index to i16
      %u:2 = func.call @unsigned_product(%xa, %yb) : (i16, i16) -> (i1, i16)
      %ok = arith.extui %u#0 : i1 to i64
      %prod = arith.extui %u#1 : i16 to i64
      %both = arith.addi %ok, %prod : i64
      func.call @print(%both) : (i64) -> ()
    }
  }
  %c7 = arith.constant 7 : index
  scf.for %k = %c0 to %c7 step %c1 {
    %ki = arith.index_cast %k : index to i32
    %spread = arith.constant -613566757 : i32
    %a = arith.muli %ki, %spread : i32
    %b = arith.trunci %a : i32 to i16
    %c = arith.trunci %a : i32 to i8
    %r:6 = func.call @converted_compares(%a, %b, %c) : (i32, i16, i8) -> (i1, i1, i1, i1, i1, i1)
    func.call @print_bool(%r#0) : (i1) -> ()
    func.call @print_bool(%r#1) : (i1) -> ()
    func.call @print_bool(%r#2) : (i1) -> ()
    func.call @print_bool(%r#3) : (i1) -> ()
    func.call @print_bool(%r#4) : (i1) -> ()
    func.call @print_bool(%r#5) : (i1) -> ()
  }
  // Around f16's overflow (65519 rounds to 65504, 65520 overflows), far below and far above.
  %r0 = arith.constant 0 : i32
  func.call @print_rounded(%r0) : (i32) -> ()
  %r1 = arith.constant 65519 : i32
  func.call @print_rounded(%r1) : (i32) -> ()
  %r2 = arith.constant 65520 : i32
  func.call @print_rounded(%r2) : (i32) -> ()
  %r3 = arith.constant -65519 : i32
  func.call @print_rounded(%r3) : (i32) -> ()
  %r4 = arith.constant -65520 : i32
  func.call @print_rounded(%r4) : (i32) -> ()
  %r5 = arith.constant -70000 : i32
  func.call @print_rounded(%r5) : (i32) -> ()
  %r6 = arith.constant 16777217 : i32
  func.call @print_rounded(%r6) : (i32) -> ()
  %r7 = arith.constant -1 : i32
  func.call @print_rounded(%r7) : (i32) -> ()
  %r8 = arith.constant 2147483647 : i32
  func.call @print_rounded(%r8) : (i32) -> ()
  scf.for %pi = %c0 to %c2 step %c1 {
    scf.for %qi = %c0 to %c2 step %c1 {
      %p = arith.cmpi eq, %pi, %c1 : index
      %q = arith.cmpi eq, %qi, %c1 : index
      %b:4 = func.call @booleans(%p, %q) : (i1, i1) -> (i1, i1, i1, i1)
      func.call @print_bool(%b#0) : (i1) -> ()
      func.call @print_bool(%b#1) : (i1) -> ()
      func.call @print_bool(%b#2) : (i1) -> ()
      func.call @print_bool(%b#3) : (i1) -> ()
    }
  }
  return
}
