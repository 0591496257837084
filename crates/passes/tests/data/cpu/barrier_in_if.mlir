// A barrier inside an scf.if, which the CPU program cannot split at.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @barrier_in_if(%in: memref<32xf32>, %out: memref<32xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [32, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 31], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0]">} {
      %tx = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %v = memref.load %in[%tx] : memref<32xf32>
      %low = arith.cmpi ult, %tx, %c16 : index
      scf.if %low {
        gpu.barrier
      }
      memref.store %v, %out[%tx] : memref<32xf32>
      gpu.return
    }
  }
}
