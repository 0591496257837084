// Execution check of xla-indexing-lower-apply: at every point of the domain, the lowered
// apply_indexing equals affine.apply of the same expression (which lower-affine expands with
// floor semantics). The program prints how many points disagree: first over a small domain,
// then at points near 2^31 of maps whose values just fit in i32 (computed on i32 by default)
// or just do not (on index). Both index-bitwidth settings are run.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.lowered.mlir
// RUN: mlir-opt %t.lowered.mlir %to_llvm | %run | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{index-bitwidth=64})' > %t.wide.mlir
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.mlir
// RUN: mlir-opt %t.wide.mlir %to_llvm | %run | FileCheck %s

// Remainders are dividends less the modulus times the quotient (no remui); a ceiling division
// of a non-negative dividend is an unsigned division of it plus the divisor less one (no
// ceildivui, whose expansion compares and selects).
// LOWERED-NOT: xla_indexing.apply_indexing
// LOWERED-NOT: arith.remui
// LOWERED-NOT: arith.ceildivui
// LOWERED-DAG: arith.subi {{.*}} overflow<nsw, nuw> : i32
// LOWERED-DAG: arith.divui {{.*}} : i32
// LOWERED-DAG: arith.floordivsi {{.*}} : i32
// LOWERED-DAG: arith.divui {{.*}} : index
// WIDE-NOT: xla_indexing.apply_indexing
// WIDE-NOT: i32

// CHECK: 0{{$}}
// CHECK-NEXT: 0{{$}}
// CHECK-NEXT: 0{{$}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> i64 {
    %row = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> i64 {
      %r:3 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d0 - 5) mod 4 + (d0 * 4 + d1) floordiv 3, (d0 - 9) floordiv 4 + d1 * 7, (d0 * 3 + d1) ceildiv 5), domain: d0 in [0, 15], d1 in [0, 3]">(%i, %j) : index, index, index
      %e0 = affine.apply affine_map<(d0, d1) -> ((d0 - 5) mod 4 + (d0 * 4 + d1) floordiv 3)>(%i, %j)
      %e1 = affine.apply affine_map<(d0, d1) -> ((d0 - 9) floordiv 4 + d1 * 7)>(%i, %j)
      %e2 = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1) ceildiv 5)>(%i, %j)
      %n0 = arith.cmpi ne, %r#0, %e0 : index
      %n1 = arith.cmpi ne, %r#1, %e1 : index
      %n2 = arith.cmpi ne, %r#2, %e2 : index
      %n01 = arith.ori %n0, %n1 : i1
      %n = arith.ori %n01, %n2 : i1
      %inc = arith.select %n, %one, %zero : i64
      %next = arith.addi %acc2, %inc : i64
      scf.yield %next : i64
    }
    scf.yield %row : i64
  }
  func.call @printI64(%bad) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %edges = func.call @edges() : () -> i64
  func.call @printI64(%edges) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %by_symbol = func.call @divided_by_symbol() : () -> i64
  func.call @printI64(%by_symbol) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// Divisions by a symbol (XLA's divisions by an expression) at every point of d0 in [0, 63],
// s0 in [1, 8]; the number of disagreements with affine.apply's semi-affine maps.
func.func @divided_by_symbol() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i64 {
    %row = scf.for %s = %c1 to %c9 step %c1 iter_args(%acc2 = %acc) -> i64 {
      %r:3 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 ceildiv s0, d0 floordiv s0, d0 mod s0), domain: d0 in [0, 63], s0 in [1, 8]">(%i, %s) : index, index, index
      %e0 = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%i)[%s]
      %e1 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%s]
      %e2 = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%s]
      %n0 = arith.cmpi ne, %r#0, %e0 : index
      %n1 = arith.cmpi ne, %r#1, %e1 : index
      %n2 = arith.cmpi ne, %r#2, %e2 : index
      %n01 = arith.ori %n0, %n1 : i1
      %n = arith.ori %n01, %n2 : i1
      %inc = arith.select %n, %one, %zero : i64
      %next = arith.addi %acc2, %inc : i64
      scf.yield %next : i64
    }
    scf.yield %row : i64
  }
  return %bad : i64
}

// Points d0 = 2^31 - 32 + i and d1 = 2^30 - 16 + j (i < 32, j < 16) of maps whose largest value
// is 2^31 - 1 (i32) and of one whose values reach 2^32 + 2^31 (index); the number of
// disagreements with affine.apply.
func.func @edges() -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %base0 = arith.constant 2147483616 : index
  %base1 = arith.constant 1073741808 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> i64 {
    %d0 = arith.addi %base0, %i : index
    %row = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc2 = %acc) -> i64 {
      %d1 = arith.addi %base1, %j : index
      %r:3 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> (d0 floordiv 1000 + d0 mod 7, (d1 * 2 + 1) floordiv 3, (d0 - 2147483647) floordiv 5), domain: d0 in [0, 2147483647], d1 in [0, 1073741823]">(%d0, %d1) : index, index, index
      %w = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d0 + d1 * 4) floordiv 3), domain: d0 in [0, 2147483647], d1 in [0, 1073741823]">(%d0, %d1) : index
      %e0 = affine.apply affine_map<(d0) -> (d0 floordiv 1000 + d0 mod 7)>(%d0)
      %e1 = affine.apply affine_map<(d1) -> ((d1 * 2 + 1) floordiv 3)>(%d1)
      %e2 = affine.apply affine_map<(d0) -> ((d0 - 2147483647) floordiv 5)>(%d0)
      %ew = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 4) floordiv 3)>(%d0, %d1)
      %n0 = arith.cmpi ne, %r#0, %e0 : index
      %n1 = arith.cmpi ne, %r#1, %e1 : index
      %n2 = arith.cmpi ne, %r#2, %e2 : index
      %nw = arith.cmpi ne, %w, %ew : index
      %n01 = arith.ori %n0, %n1 : i1
      %n012 = arith.ori %n01, %n2 : i1
      %n = arith.ori %n012, %nw : i1
      %inc = arith.select %n, %one, %zero : i64
      %next = arith.addi %acc2, %inc : i64
      scf.yield %next : i64
    }
    scf.yield %row : i64
  }
  return %bad : i64
}
