// Index arithmetic of a GPU kernel: `xla-indexing opt examples/mlir/simplify.mlir
// --pass-pipeline='builtin.module(xla-indexing-simplify)'` removes every division.
func.func @kernel(%n: index) -> (index, index) {
  %tid = gpu.thread_id x upper_bound 128
  %bid = gpu.block_id x upper_bound 16
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d1 * 128 + d0) floordiv 128, (d1 * 128 + d0) mod 128), domain: d0 in [0, 127], d1 in [0, 15]">(%tid, %bid) : index, index
  return %0#0, %0#1 : index, index
}

// Index arithmetic spread over ops, as hand-written kernels have it: a linear index taken apart
// again, a thread id split into warp and lane and put back together, and a pad's guarded read.
// Read as a whole, only the divisions the stored values need are left.
func.func @spread(%buf: memref<4096xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %tx = gpu.thread_id x upper_bound 128
  %bx = gpu.block_id x upper_bound 16
  %b128 = arith.muli %bx, %c128 : index
  %lin = arith.addi %b128, %tx : index
  %block = arith.divui %lin, %c128 : index
  %thread = arith.remui %lin, %c128 : index
  %warp = arith.divui %thread, %c32 : index
  %lane = arith.remui %thread, %c32 : index
  %w = arith.muli %warp, %c32 : index
  %back = arith.addi %w, %lane : index
  memref.store %block, %buf[%back] : memref<4096xindex>
  memref.store %warp, %buf[%lane] : memref<4096xindex>
  %d = arith.addi %tx, %c1 : index
  %t = arith.subi %d, %c1 : index
  %m = arith.remui %t, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  scf.if %even {
    %q = arith.divui %t, %c2 : index
    %q2 = arith.muli %q, %c2 : index
    %v = arith.addi %q2, %c1 : index
    memref.store %v, %buf[%lin] : memref<4096xindex>
  }
  return
}
