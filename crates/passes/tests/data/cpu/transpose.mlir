// A [64, 96] -> [96, 64] transpose through a padded 32x33 shared tile: each block of 32x8
// threads reads a 32x32 tile (4 rows per thread), waits at the barrier and writes the
// transposed tile (4 rows per thread), reading the tile by columns.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<64x96xf32>, %out: memref<96x64xf32>) workgroup(%tile : memref<32x33xf32, #gpu.address_space<workgroup>>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [32, 8, 1], grid = [3, 2, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x * 32 + th_x, bl_y * 32 + th_y), domain: th_x in [0, 31], th_y in [0, 7], th_z in [0, 0], bl_x in [0, 2], bl_y in [0, 1], bl_z in [0, 0]">} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %rows = arith.muli %by, %c32 : index
      %cols = arith.muli %bx, %c32 : index
      %col = arith.addi %cols, %tx : index
      scf.for %j = %c0 to %c4 step %c1 {
        %r0 = arith.muli %j, %c8 : index
        %r = arith.addi %ty, %r0 : index
        %row = arith.addi %rows, %r : index
        %v = memref.load %in[%row, %col] : memref<64x96xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %out_col = arith.addi %rows, %tx : index
      scf.for %j = %c0 to %c4 step %c1 {
        %r0 = arith.muli %j, %c8 : index
        %r = arith.addi %ty, %r0 : index
        %out_row = arith.addi %cols, %r : index
        %v = memref.load %tile[%tx, %r] : memref<32x33xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%out_row, %out_col] : memref<96x64xf32>
      }
      gpu.return
    }
  }
}
