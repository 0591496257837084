// Execution check of xla-indexing-lower-apply: at every point of the domain, the lowered
// apply_indexing equals affine.apply of the same expression (which lower-affine expands with
// floor semantics). The program prints how many points disagree.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' > %t.lowered.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.lowered.mlir
// RUN: mlir-opt %t.lowered.mlir %to_llvm | %run | FileCheck %s

// LOWERED-NOT: xla_indexing.apply_indexing
// LOWERED-DAG: arith.remui
// LOWERED-DAG: arith.divui
// LOWERED-DAG: arith.floordivsi
// LOWERED-DAG: arith.ceildivui

// CHECK: 0{{$}}

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
  return
}
