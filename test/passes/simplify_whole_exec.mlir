// Execution check of xla-indexing-simplify on whole expressions (the kernels of
// simplify_whole.mlir, with their ids as arguments that declare their ranges): @main calls each
// function at every point of its domain and prints every value, once as written and once
// simplified; the outputs must be identical, and the simplified functions divide only where
// their values need it.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' > %t.simplified.mlir
// RUN: FileCheck %s --check-prefix=SIMPLIFIED < %t.simplified.mlir
// apply_indexing is lowered as written (simplify=false) on both sides.
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{simplify=false})' | mlir-opt %to_llvm | %run > %t.before
// RUN: mlir-opt %t.simplified.mlir %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{simplify=false})' | mlir-opt %to_llvm | %run > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=VALUES < %t.after

// Constraints the others imply go: 2 * i >= 0 (by i >= 0) and 100 - i >= 0 (by 50 - i >= 0).
// SIMPLIFIED-DAG: affine_set<(d0) : (d0 >= 0, -d0 + 50 >= 0)>
// SIMPLIFIED-LABEL: func.func @shared_linear
// SIMPLIFIED-NOT: arith.{{div|rem}}
// SIMPLIFIED-LABEL: func.func @reshape_round_trip
// SIMPLIFIED-NOT: affine.apply
// SIMPLIFIED-LABEL: func.func @warp_lane
// SIMPLIFIED-COUNT-2: arith.{{div|rem}}ui
// SIMPLIFIED-NOT: arith.{{div|rem}}
// SIMPLIFIED-LABEL: func.func @warp_lane_global
// SIMPLIFIED-COUNT-2: arith.{{div|rem}}ui
// SIMPLIFIED-NOT: {{affine.apply|arith.div|arith.rem}}
// SIMPLIFIED-LABEL: func.func @tile
// SIMPLIFIED-COUNT-2: arith.divui
// SIMPLIFIED-NOT: arith.{{div|rem}}
// SIMPLIFIED-LABEL: func.func @apply_chain
// SIMPLIFIED-COUNT-1: xla_indexing.apply_indexing
// SIMPLIFIED-NOT: xla_indexing.apply_indexing
// SIMPLIFIED-LABEL: func.func @shared_quotient
// SIMPLIFIED-COUNT-1: arith.divui
// SIMPLIFIED-NOT: arith.{{div|rem}}
// SIMPLIFIED-LABEL: func.func @decided
// SIMPLIFIED-NOT: arith.{{cmpi|select|min|max}}
// SIMPLIFIED-LABEL: func.func @guarded_pad
// SIMPLIFIED-COUNT-1: arith.remui
// SIMPLIFIED-NOT: arith.{{div|rem}}
// An affine.if whose constraints hold at no point together goes, though each alone may hold;
// one whose constraints can hold together stays.
// SIMPLIFIED-LABEL: func.func @integer_sets
// SIMPLIFIED-COUNT-1: affine.if
// SIMPLIFIED-NOT: affine.if
// Ranges that ops declare through InferIntRangeInterface (a mask, a shift) decide what they
// bound.
// SIMPLIFIED-LABEL: func.func @declared_ranges
// SIMPLIFIED-NOT: arith.{{div|rem}}
// SIMPLIFIED-LABEL: func.func @implied_constraints
// SIMPLIFIED-COUNT-1: affine.if
// A set empty through a symbol without bounds: n >= i + 1 >= 1 and n <= 0.
// SIMPLIFIED-LABEL: func.func @empty_through_symbol
// SIMPLIFIED-NOT: affine.if
// i - j == 0 and i - j - 1 >= 0 meet as one expression, beside a symbol without bounds (the
// ranges too large to enumerate or to narrow one step at a time).
// SIMPLIFIED-LABEL: func.func @equal_and_apart
// SIMPLIFIED-NOT: affine.if
// A division by a symbol bound to a constant is a division by that constant, unsigned here.
// SIMPLIFIED-LABEL: func.func @divided_by_constant_symbol
// SIMPLIFIED: arith.divui
// SIMPLIFIED-NOT: affine.apply
// SIMPLIFIED-LABEL: func.func @main

// 16 * 20 * 3 + 450 * 2 + 256 * 3 + 128 * 3 + 64 * 2 + 240 * 4 + 16 * 2 + 7 + 12 * 3 + 100 * 2
// + 256 * 4 * 4 + 80 + 10 * 3 + 10 * 3 + 100 values.
// VALUES-COUNT-8711: {{^-?[0-9]+$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: index) {
  %i = arith.index_cast %v : index to i64
  func.call @printI64(%i) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @shared_linear(%i: index {xla.range = [0 : index, 15 : index]}, %j: index {xla.range = [0 : index, 19 : index]}) -> (index, index, index) {
  %c20 = arith.constant 20 : index
  %m = arith.muli %i, %c20 : index
  %lin = arith.addi %m, %j : index
  %q = arith.divui %lin, %c20 : index
  %r = arith.remui %lin, %c20 : index
  return %lin, %q, %r : index, index, index
}

func.func @reshape_round_trip(%i: index {xla.range = [0 : index, 9 : index]}, %j: index {xla.range = [0 : index, 44 : index]}) -> (index, index) {
  %lin = affine.apply affine_map<(d0, d1) -> (d0 * 45 + d1)>(%i, %j)
  %a = affine.apply affine_map<(d0) -> (d0 floordiv 9)>(%lin)
  %b = affine.apply affine_map<(d0) -> (d0 mod 9)>(%lin)
  %back = affine.apply affine_map<(d0, d1) -> (d0 * 9 + d1)>(%a, %b)
  %x = affine.apply affine_map<(d0) -> (d0 floordiv 45)>(%back)
  %y = affine.apply affine_map<(d0) -> (d0 mod 45)>(%back)
  return %x, %y : index, index
}

func.func @warp_lane(%tx: index {xla.range = [0 : index, 255 : index]}) -> (index, index, index) {
  %c32 = arith.constant 32 : index
  %warp = arith.divui %tx, %c32 : index
  %lane = arith.remui %tx, %c32 : index
  %w32 = arith.muli %warp, %c32 : index
  %t = arith.addi %w32, %lane : index
  return %warp, %lane, %t : index, index, index
}

func.func @warp_lane_global(%tx: index {xla.range = [0 : index, 255 : index]}, %bx: index {xla.range = [0 : index, 3 : index]}) -> (index, index, index, index) {
  %bt = affine.apply affine_map<(d0) -> (d0 * 256)>(%bx)
  %gid = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%bt, %tx)
  %warp = affine.apply affine_map<(d0) -> (d0 floordiv 32)>(%gid)
  %lane = affine.apply affine_map<(d0) -> (d0 mod 32)>(%gid)
  %w = affine.apply affine_map<(d0) -> (d0 * 32)>(%warp)
  %back = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%w, %lane)
  %blk = affine.apply affine_map<(d0) -> (d0 floordiv 256)>(%back)
  %wib = affine.apply affine_map<(d0) -> (d0 mod 8)>(%warp)
  return %warp, %lane, %blk, %wib : index, index, index, index
}

func.func @tile(%i: index {xla.range = [0 : index, 127 : index]}) -> (index, index, index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = arith.divui %i, %c4 : index
  %r = arith.remui %i, %c4 : index
  %t4 = arith.muli %t, %c4 : index
  %u = arith.addi %t4, %r : index
  %v = arith.divui %t, %c2 : index
  return %t, %u, %v : index, index, index
}

func.func @apply_chain(%i: index {xla.range = [0 : index, 63 : index]}) -> (index, index) {
  %a = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 * 4 + 3), domain: d0 in [0, 63]">(%i) : index
  %b = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 255]">(%a) : index
  return %a, %b : index, index
}

func.func @shared_quotient(%x: index {xla.range = [0 : index, 239 : index]}) -> (index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %q = arith.divui %x, %c6 : index
  %q6 = arith.muli %q, %c6 : index
  %r = arith.remui %x, %c6 : index
  %u1 = arith.addi %q6, %r : index
  %u2 = arith.addi %q, %c1 : index
  %u3 = arith.muli %q, %c2 : index
  %u4 = arith.divui %x, %c6 : index
  return %u1, %u2, %u3, %u4 : index, index, index, index
}

func.func @decided(%i: index {xla.range = [0 : index, 15 : index]}) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = arith.addi %i, %c1 : index
  %m = arith.minsi %a, %c16 : index
  %lt = arith.cmpi slt, %i, %a : index
  %s = arith.select %lt, %m, %c0 : index
  %mx = arith.maxsi %s, %c0 : index
  %mu = arith.minui %mx, %i : index
  return %mx, %mu : index, index
}

func.func @guarded_pad(%d: index {xla.range = [1 : index, 7 : index]}) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = arith.subi %d, %c1 : index
  %m = arith.remui %t, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  %v = scf.if %even -> (index) {
    %q = arith.divui %t, %c2 : index
    %q2 = arith.muli %q, %c2 : index
    %w = arith.addi %q2, %c1 : index
    scf.yield %w : index
  } else {
    scf.yield %c0 : index
  }
  return %v : index
}

func.func @integer_sets(%i: index {xla.range = [0 : index, 11 : index]}) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %odd_and_even = affine.if affine_set<(d0) : (d0 mod 2 - 1 == 0, d0 - 2 * (d0 floordiv 2) == 0)>(%i) -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %c0 : index
  }
  %above_and_below = affine.if affine_set<(d0) : (d0 - 6 >= 0, 5 - d0 >= 0)>(%i) -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %i : index
  }
  %odd_multiple_of_3 = affine.if affine_set<(d0) : (d0 mod 2 - 1 == 0, d0 mod 3 == 0)>(%i) -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %c0 : index
  }
  return %odd_and_even, %above_and_below, %odd_multiple_of_3 : index, index, index
}

func.func @declared_ranges(%x: index {xla.range = [0 : index, 99 : index]}) -> (index, index) {
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %masked = arith.andi %x, %c7 : index
  %r = arith.remui %masked, %c8 : index
  %shifted = arith.shrui %x, %c3 : index
  %q = arith.divui %shifted, %c16 : index
  return %r, %q : index, index
}

func.func @implied_constraints(%i: index {xla.range = [-20 : index, 59 : index]}) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %within = affine.if affine_set<(d0) : (d0 + d0 >= 0, d0 >= 0, 50 - d0 >= 0, 100 - d0 >= 0)>(%i) -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %c0 : index
  }
  return %within : index
}

func.func @empty_through_symbol(%i: index {xla.range = [0 : index, 9 : index]}, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %r = affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0, -s0 >= 0)>(%i)[%n] -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %n : index
  }
  return %r : index
}

func.func @equal_and_apart(%i: index {xla.range = [0 : index, 1000000 : index]}, %j: index {xla.range = [0 : index, 1000000 : index]}, %n: index) -> index {
  %c1 = arith.constant 1 : index
  %r = affine.if affine_set<(d0, d1)[s0] : (d0 - d1 == 0, s0 - d0 >= 0, d0 - d1 - 1 >= 0)>(%i, %j)[%n] -> index {
    affine.yield %c1 : index
  } else {
    affine.yield %n : index
  }
  return %r : index
}

func.func @divided_by_constant_symbol(%i: index {xla.range = [0 : index, 99 : index]}, %buf: memref<100xindex>) -> index {
  %c7 = arith.constant 7 : index
  %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%c7]
  memref.store %q, %buf[%i] : memref<100xindex>
  %v = memref.load %buf[%i] : memref<100xindex>
  return %v : index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c45 = arith.constant 45 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c240 = arith.constant 240 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c20 step %c1 {
      %r:3 = func.call @shared_linear(%i, %j) : (index, index) -> (index, index, index)
      func.call @print(%r#0) : (index) -> ()
      func.call @print(%r#1) : (index) -> ()
      func.call @print(%r#2) : (index) -> ()
    }
  }
  scf.for %i = %c0 to %c10 step %c1 {
    scf.for %j = %c0 to %c45 step %c1 {
      %r:2 = func.call @reshape_round_trip(%i, %j) : (index, index) -> (index, index)
      func.call @print(%r#0) : (index) -> ()
      func.call @print(%r#1) : (index) -> ()
    }
  }
  scf.for %t = %c0 to %c256 step %c1 {
    %r:3 = func.call @warp_lane(%t) : (index) -> (index, index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
    func.call @print(%r#2) : (index) -> ()
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %r:3 = func.call @tile(%i) : (index) -> (index, index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
    func.call @print(%r#2) : (index) -> ()
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %r:2 = func.call @apply_chain(%i) : (index) -> (index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
  }
  scf.for %x = %c0 to %c240 step %c1 {
    %r:4 = func.call @shared_quotient(%x) : (index) -> (index, index, index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
    func.call @print(%r#2) : (index) -> ()
    func.call @print(%r#3) : (index) -> ()
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %r:2 = func.call @decided(%i) : (index) -> (index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
  }
  scf.for %d = %c1 to %c8 step %c1 {
    %r = func.call @guarded_pad(%d) : (index) -> index
    func.call @print(%r) : (index) -> ()
  }
  %c4 = arith.constant 4 : index
  scf.for %bx = %c0 to %c4 step %c1 {
    scf.for %tx = %c0 to %c256 step %c1 {
      %r:4 = func.call @warp_lane_global(%tx, %bx) : (index, index) -> (index, index, index, index)
      func.call @print(%r#0) : (index) -> ()
      func.call @print(%r#1) : (index) -> ()
      func.call @print(%r#2) : (index) -> ()
      func.call @print(%r#3) : (index) -> ()
    }
  }
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    %r:3 = func.call @integer_sets(%i) : (index) -> (index, index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
    func.call @print(%r#2) : (index) -> ()
  }
  %c_20 = arith.constant -20 : index
  %c60 = arith.constant 60 : index
  scf.for %i = %c_20 to %c60 step %c1 {
    %r = func.call @implied_constraints(%i) : (index) -> index
    func.call @print(%r) : (index) -> ()
  }
  %c_3 = arith.constant -3 : index
  %c_step3 = arith.constant 3 : index
  %c_top = arith.constant 5 : index
  scf.for %i = %c0 to %c10 step %c1 {
    scf.for %n = %c_3 to %c_top step %c_step3 {
      %r = func.call @empty_through_symbol(%i, %n) : (index, index) -> index
      func.call @print(%r) : (index) -> ()
    }
  }
  scf.for %i = %c0 to %c10 step %c1 {
    scf.for %n = %c_3 to %c_top step %c_step3 {
      %r = func.call @equal_and_apart(%i, %i, %n) : (index, index, index) -> index
      func.call @print(%r) : (index) -> ()
    }
  }
  %c100 = arith.constant 100 : index
  %scratch = memref.alloc() : memref<100xindex>
  scf.for %i = %c0 to %c100 step %c1 {
    %r = func.call @divided_by_constant_symbol(%i, %scratch) : (index, memref<100xindex>) -> index
    func.call @print(%r) : (index) -> ()
  }
  memref.dealloc %scratch : memref<100xindex>
  scf.for %x = %c0 to %c100 step %c1 {
    %r:2 = func.call @declared_ranges(%x) : (index) -> (index, index)
    func.call @print(%r#0) : (index) -> ()
    func.call @print(%r#1) : (index) -> ()
  }
  return
}
