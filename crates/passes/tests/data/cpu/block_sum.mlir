// The sum of each block's 256 elements: a warp reduction with five xor shuffles, the warps'
// partial sums through shared memory and a barrier, the first warp reduces them again.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%in: memref<512xf32>, %out: memref<2xf32>) workgroup(%partial : memref<8xf32, #gpu.address_space<workgroup>>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [256, 1, 1], grid = [2, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x), domain: th_x in [0, 255], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 1], bl_y in [0, 0], bl_z in [0, 0]">} {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0.0 : f32
      %w = arith.constant 32 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %base = arith.muli %bx, %c256 : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %in[%i] : memref<512xf32>
      %s16, %ok16 = gpu.shuffle xor %v, %o16, %w : f32
      %a16 = arith.addf %v, %s16 : f32
      %s8, %ok8 = gpu.shuffle xor %a16, %o8, %w : f32
      %a8 = arith.addf %a16, %s8 : f32
      %s4, %ok4 = gpu.shuffle xor %a8, %o4, %w : f32
      %a4 = arith.addf %a8, %s4 : f32
      %s2, %ok2 = gpu.shuffle xor %a4, %o2, %w : f32
      %a2 = arith.addf %a4, %s2 : f32
      %s1, %ok1 = gpu.shuffle xor %a2, %o1, %w : f32
      %warp_sum = arith.addf %a2, %s1 : f32
      %lane = arith.remui %tx, %c32 : index
      %warp = arith.divui %tx, %c32 : index
      %first_lane = arith.cmpi eq, %lane, %c0 : index
      scf.if %first_lane {
        memref.store %warp_sum, %partial[%warp] : memref<8xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %has_partial = arith.cmpi ult, %lane, %c8 : index
      %p = scf.if %has_partial -> (f32) {
        %x = memref.load %partial[%lane] : memref<8xf32, #gpu.address_space<workgroup>>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %t4, %okt4 = gpu.shuffle xor %p, %o4, %w : f32
      %b4 = arith.addf %p, %t4 : f32
      %t2, %okt2 = gpu.shuffle xor %b4, %o2, %w : f32
      %b2 = arith.addf %b4, %t2 : f32
      %t1, %okt1 = gpu.shuffle xor %b2, %o1, %w : f32
      %sum = arith.addf %b2, %t1 : f32
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bx] : memref<2xf32>
      }
      gpu.return
    }
  }
}
