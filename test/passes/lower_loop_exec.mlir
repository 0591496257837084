// Execution check of the lowering of xla_indexing.loop by xla-indexing-lower-apply: every test
// folds the points its loops visit, in order, into a hash and a count (see @fold), and the
// program prints "id, hash, count" per test. Inputs/lower_loop_exec.py computes the same lines
// by brute force over each domain (the maps written out by hand, not the pass's output); the
// outputs must be identical, with i32 arithmetic where it fits (the default) and without it.
//
// The tests: 1 constraints and two range vars, dims from an scf.for; 2 negative bounds; 3 a dim
// of unknown range, partly outside its bounds; 4 nested loops; 5 known-empty domains; 6 no range
// vars; 7 a kernel over thread and block ids; 8 values beyond 32 bits; 9 a map without results;
// 10 values up to 2^31 - 1 on i32; 11 a dim of unknown range with a constraint on the dim alone
// (checked before the loops) and one on range vars (checked inside).

// REQUIRES: mlir-runner
// RUN: %python %S/Inputs/lower_loop_exec.py > %t.expected
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.lowered.mlir
// RUN: mlir-opt %t.lowered.mlir %to_llvm | %run > %t.narrow
// RUN: diff %t.expected %t.narrow
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' > %t.wide.mlir
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.mlir
// RUN: mlir-opt %t.wide.mlir %to_llvm | %run > %t.wide
// RUN: diff %t.expected %t.wide

// LOWERED-NOT: xla_indexing.
// LOWERED: scf.for
// LOWERED: i32
// WIDE-NOT: xla_indexing.
// WIDE-NOT: i32

func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()

// h = (h * 31 + v) rem 1000000007, n = n + 1.
func.func @fold(%h: index, %n: index, %v: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %p = arith.constant 1000000007 : index
  %m = arith.muli %h, %c31 : index
  %s = arith.addi %m, %v : index
  %h2 = arith.remsi %s, %p : index
  %n2 = arith.addi %n, %c1 : index
  return %h2, %n2 : index, index
}

// v = r0 * 1000 + r1.
func.func @pair(%r0: index, %r1: index) -> index {
  %c1000 = arith.constant 1000 : index
  %x = arith.muli %r0, %c1000 : index
  %v = arith.addi %x, %r1 : index
  return %v : index
}

func.func @t1() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %d = %c0 to %c4 step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %l:2 = xla_indexing.loop (%d)[%i, %j] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0, s1] -> (d0 * 32 + s0 * 4 + s1, (s0 + s1) mod 3), domain: d0 in [0, 3], s0 in [0, 7], s1 in [0, 3], s0 + s1 in [0, 8]"> iter_args(%a = %h, %b = %n) -> (index, index) {
      %v = func.call @pair(%r0, %r1) : (index, index) -> index
      %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
      xla_indexing.yield %f#0, %f#1 : index, index
    }
    scf.yield %l#0, %l#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t2() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1000000 = arith.constant 1000000 : index
  %l:2 = xla_indexing.loop ()[%i, %j] -> (%r0, %r1) in #xla_indexing.map<"()[s0, s1] -> (s0 * 3 - s1, s0 floordiv 2), domain: s0 in [-5, 4], s1 in [-3, -1], (s0 - s1) mod 2 in [1, 1]"> iter_args(%a = %c0, %b = %c0) -> (index, index) {
    %p = func.call @pair(%r0, %r1) : (index, index) -> index
    %s = arith.muli %j, %c1000000 : index
    %v = arith.addi %p, %s : index
    %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

// %d is a function argument: its range is unknown here, so the lowering checks its bounds.
func.func @t3_one(%d: index, %h: index, %n: index) -> (index, index) {
  %l:2 = xla_indexing.loop (%d)[%i] -> (%r0) in #xla_indexing.map<"(d0)[s0] -> (d0 * 7 + s0 floordiv 2), domain: d0 in [0, 4], s0 in [-3, 5]"> iter_args(%a = %h, %b = %n) -> (index, index) {
    %f:2 = func.call @fold(%a, %b, %r0) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

func.func @t3() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm3 = arith.constant -3 : index
  %c8 = arith.constant 8 : index
  %r:2 = scf.for %d = %cm3 to %c8 step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %f:2 = func.call @t3_one(%d, %h, %n) : (index, index, index) -> (index, index)
    scf.yield %f#0, %f#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t4() -> (index, index) {
  %c0 = arith.constant 0 : index
  %l:2 = xla_indexing.loop ()[%i] -> (%o) in #xla_indexing.map<"()[s0] -> (s0 * 2), domain: s0 in [-2, 3]"> iter_args(%a = %c0, %b = %c0) -> (index, index) {
    %in:2 = xla_indexing.loop (%o)[%j] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0] -> (d0 + s0, d0 - s0), domain: d0 in [-4, 6], s0 in [0, 4], (d0 + s0) mod 3 in [0, 0]"> iter_args(%a2 = %a, %b2 = %b) -> (index, index) {
      %v = func.call @pair(%r0, %r1) : (index, index) -> index
      %f:2 = func.call @fold(%a2, %b2, %v) : (index, index, index) -> (index, index)
      xla_indexing.yield %f#0, %f#1 : index, index
    }
    xla_indexing.yield %in#0, %in#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

func.func @t5() -> (index, index) {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c777 = arith.constant 777 : index
  // Empty for d0 = 3 (d0 + s0 <= 6).
  %l:2 = xla_indexing.loop (%c3)[%i] -> (%r0) in #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [0, 3], d0 + s0 in [10, 20]"> iter_args(%a = %c777, %b = %c5) -> (index, index) {
    %f:2 = func.call @fold(%a, %b, %r0) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  // Empty for every dim: s0 mod 8 is s0, never 5 or 6.
  %e:2 = xla_indexing.loop ()[%i] -> () in #xla_indexing.map<"()[s0] -> (), domain: s0 in [0, 3], s0 mod 8 in [5, 6]"> iter_args(%a = %l#0, %b = %l#1) -> (index, index) {
    %f:2 = func.call @fold(%a, %b, %i) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %e#0, %e#1 : index, index
}

func.func @t6_one(%d: index, %h: index, %n: index) -> (index, index) {
  %l:2 = xla_indexing.loop (%d) -> (%r0) in #xla_indexing.map<"(d0) -> ((d0 * 5) mod 7), domain: d0 in [0, 5]"> iter_args(%a = %h, %b = %n) -> (index, index) {
    %f:2 = func.call @fold(%a, %b, %r0) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

func.func @t6() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm2 = arith.constant -2 : index
  %c9 = arith.constant 9 : index
  %r:2 = scf.for %d = %cm2 to %c9 step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %f:2 = func.call @t6_one(%d, %h, %n) : (index, index, index) -> (index, index)
    scf.yield %f#0, %f#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t7() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %r:2 = scf.for %tx = %c0 to %c128 step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %q:2 = scf.for %bx = %c0 to %c8 step %c1 iter_args(%h2 = %h, %n2 = %n) -> (index, index) {
      %l:2 = xla_indexing.loop (%tx, %c0, %c0, %bx, %c0, %c0)[%s0, %s1] -> (%r0, %r1) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> ((th_x + bl_x * 128) floordiv 10 + s0, (th_x + bl_x * 128) mod 10 + s1 * 10), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 1], s1 in [0, 2], th_x + bl_x * 128 in [0, 999]"> iter_args(%a = %h2, %b = %n2) -> (index, index) {
        %v = func.call @pair(%r0, %r1) : (index, index) -> index
        %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
        xla_indexing.yield %f#0, %f#1 : index, index
      }
      scf.yield %l#0, %l#1 : index, index
    }
    scf.yield %q#0, %q#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t8() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c20000 = arith.constant 20000 : index
  %c40001 = arith.constant 40001 : index
  %r:2 = scf.for %d = %c0 to %c40001 step %c20000 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %l:2 = xla_indexing.loop (%d)[%i] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0] -> (d0 * 65536 + s0, s0 mod 5), domain: d0 in [0, 40000], s0 in [0, 9], s0 mod 3 in [1, 1]"> iter_args(%a = %h, %b = %n) -> (index, index) {
      %v = func.call @pair(%r0, %r1) : (index, index) -> index
      %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
      xla_indexing.yield %f#0, %f#1 : index, index
    }
    scf.yield %l#0, %l#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t9() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %l:2 = xla_indexing.loop ()[%i, %j] -> () in #xla_indexing.map<"()[s0, s1] -> (), domain: s0 in [0, 4], s1 in [0, 4], s0 + s1 in [3, 5]"> iter_args(%a = %c0, %b = %c0) -> (index, index) {
    %x = arith.muli %i, %c10 : index
    %v = arith.addi %x, %j : index
    %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

func.func @t10() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant 1073741820 : index
  %hi = arith.constant 1073741824 : index
  %r:2 = scf.for %d = %lo to %hi step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %l:2 = xla_indexing.loop (%d)[%i] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0] -> (d0 * 2 + s0, (d0 * 2 + s0) floordiv 7), domain: d0 in [1073741820, 1073741823], s0 in [0, 1]"> iter_args(%a = %h, %b = %n) -> (index, index) {
      %v = func.call @pair(%r0, %r1) : (index, index) -> index
      %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
      xla_indexing.yield %f#0, %f#1 : index, index
    }
    scf.yield %l#0, %l#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @t11_one(%d: index, %h: index, %n: index) -> (index, index) {
  %l:2 = xla_indexing.loop (%d)[%i, %j] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0, s1] -> (d0 + s0, s1 - d0), domain: d0 in [1, 6], s0 in [0, 3], s1 in [-2, 2], d0 mod 3 in [0, 1], d0 + s0 + s1 in [2, 7]"> iter_args(%a = %h, %b = %n) -> (index, index) {
    %v = func.call @pair(%r0, %r1) : (index, index) -> index
    %f:2 = func.call @fold(%a, %b, %v) : (index, index, index) -> (index, index)
    xla_indexing.yield %f#0, %f#1 : index, index
  }
  return %l#0, %l#1 : index, index
}

func.func @t11() -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : index
  %c9 = arith.constant 9 : index
  %r:2 = scf.for %d = %cm1 to %c9 step %c1 iter_args(%h = %c0, %n = %c0) -> (index, index) {
    %f:2 = func.call @t11_one(%d, %h, %n) : (index, index, index) -> (index, index)
    scf.yield %f#0, %f#1 : index, index
  }
  return %r#0, %r#1 : index, index
}

func.func @print(%id: i64, %h: index, %n: index) {
  %hi = arith.index_cast %h : index to i64
  %ni = arith.index_cast %n : index to i64
  func.call @printI64(%id) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printI64(%hi) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printI64(%ni) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @main() {
  %i1 = arith.constant 1 : i64
  %i2 = arith.constant 2 : i64
  %i3 = arith.constant 3 : i64
  %i4 = arith.constant 4 : i64
  %i5 = arith.constant 5 : i64
  %i6 = arith.constant 6 : i64
  %i7 = arith.constant 7 : i64
  %i8 = arith.constant 8 : i64
  %i9 = arith.constant 9 : i64
  %i10 = arith.constant 10 : i64
  %r1:2 = func.call @t1() : () -> (index, index)
  func.call @print(%i1, %r1#0, %r1#1) : (i64, index, index) -> ()
  %r2:2 = func.call @t2() : () -> (index, index)
  func.call @print(%i2, %r2#0, %r2#1) : (i64, index, index) -> ()
  %r3:2 = func.call @t3() : () -> (index, index)
  func.call @print(%i3, %r3#0, %r3#1) : (i64, index, index) -> ()
  %r4:2 = func.call @t4() : () -> (index, index)
  func.call @print(%i4, %r4#0, %r4#1) : (i64, index, index) -> ()
  %r5:2 = func.call @t5() : () -> (index, index)
  func.call @print(%i5, %r5#0, %r5#1) : (i64, index, index) -> ()
  %r6:2 = func.call @t6() : () -> (index, index)
  func.call @print(%i6, %r6#0, %r6#1) : (i64, index, index) -> ()
  %r7:2 = func.call @t7() : () -> (index, index)
  func.call @print(%i7, %r7#0, %r7#1) : (i64, index, index) -> ()
  %r8:2 = func.call @t8() : () -> (index, index)
  func.call @print(%i8, %r8#0, %r8#1) : (i64, index, index) -> ()
  %r9:2 = func.call @t9() : () -> (index, index)
  func.call @print(%i9, %r9#0, %r9#1) : (i64, index, index) -> ()
  %r10:2 = func.call @t10() : () -> (index, index)
  func.call @print(%i10, %r10#0, %r10#1) : (i64, index, index) -> ()
  %i11 = arith.constant 11 : i64
  %r11:2 = func.call @t11() : () -> (index, index)
  func.call @print(%i11, %r11#0, %r11#1) : (i64, index, index) -> ()
  return
}
