// Execution check of linear addressing (xla-indexing-lower-apply): a strided subview with an
// offset is read through apply_indexing, with and without linear addressing (the first run must
// linearize it), and the program prints how many elements disagree with the buffer read at the
// multi-index they stand for.

// REQUIRES: mlir-runner
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply)' > %t.linear.mlir
// RUN: FileCheck %s --check-prefix=LINEAR < %t.linear.mlir
// RUN: mlir-opt %t.linear.mlir --pass-pipeline='builtin.module(expand-strided-metadata, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | %run | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-lower-apply{linearize=false}, expand-strided-metadata, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | %run | FileCheck %s

// LINEAR: memref.reinterpret_cast %{{.*}} to offset: [14], sizes: [45], strides: [1] : memref<4x5xi64, strided<[12, 2], offset: 14>> to memref<45xi64, strided<[1], offset: 14>>
// CHECK: 0{{$}}

func.func private @printI64(i64)
func.func private @printNewline()

// A 6x12 buffer holds 100 * row + column; its subview [1:5, 2:12:2] (strides [12, 2], offset
// 14) is read at (t floordiv 5, t mod 5) for t in [0, 19]; each element must equal the base at
// (1 + t floordiv 5, 2 + 2 * (t mod 5)).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %c20 = arith.constant 20 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %base = memref.alloc() : memref<6x12xi64>
  scf.for %r = %c0 to %c6 step %c1 {
    scf.for %c = %c0 to %c12 step %c1 {
      %h = arith.muli %r, %c100 : index
      %v = arith.addi %h, %c : index
      %vi = arith.index_cast %v : index to i64
      memref.store %vi, %base[%r, %c] : memref<6x12xi64>
    }
  }
  %sub = memref.subview %base[1, 2] [4, 5] [1, 2] : memref<6x12xi64> to memref<4x5xi64, strided<[12, 2], offset: 14>>
  %bad = scf.for %t = %c0 to %c20 step %c1 iter_args(%acc = %zero) -> i64 {
    %i:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 5, d0 mod 5), domain: d0 in [0, 19]">(%t) : index, index
    %got = memref.load %sub[%i#0, %i#1] : memref<4x5xi64, strided<[12, 2], offset: 14>>
    %row = arith.divui %t, %c5 : index
    %col = arith.remui %t, %c5 : index
    %r1 = arith.addi %row, %c1 : index
    %c2x = arith.muli %col, %c2 : index
    %cc = arith.addi %c2x, %c2 : index
    %want = memref.load %base[%r1, %cc] : memref<6x12xi64>
    %ne = arith.cmpi ne, %got, %want : i64
    %inc = arith.select %ne, %one, %zero : i64
    %next = arith.addi %acc, %inc : i64
    scf.yield %next : i64
  }
  func.call @printI64(%bad) : (i64) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %base : memref<6x12xi64>
  return
}
