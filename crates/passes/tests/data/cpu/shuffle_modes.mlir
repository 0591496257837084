// Shuffles in segments of 16 lanes, in blocks of 16x4 threads (two warps): down by 3, up by 5,
// idx 7 and xor 9; each writes the value read and whether it is valid, in a row of its own.
// The flags go through a flat view made before the shuffles (a memref, which the CPU program
// makes again where it is used), and the operand of the last shuffle is one result of a loop
// with two (a value the CPU program carries under a name of its own).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shuffle_modes(%in: memref<128xf32>, %values: memref<4x128xf32>, %valid: memref<4x128xi1>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [16, 4, 1], grid = [2, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x * 64 + th_y * 16 + th_x), domain: th_x in [0, 15], th_y in [0, 3], th_z in [0, 0], bl_x in [0, 1], bl_y in [0, 0], bl_z in [0, 0]">} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %width = arith.constant 16 : i32
      %three = arith.constant 3 : i32
      %five = arith.constant 5 : i32
      %seven = arith.constant 7 : i32
      %nine = arith.constant 9 : i32
      %b = arith.muli %bx, %c64 : index
      %t = arith.muli %ty, %c16 : index
      %bt = arith.addi %b, %t : index
      %i = arith.addi %bt, %tx : index
      %v = memref.load %in[%i] : memref<128xf32>
      %one = arith.constant 1.0 : f32
      %pair:2 = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %v, %same = %v) -> (f32, f32) {
        %next = arith.addf %a, %one : f32
        scf.yield %next, %same : f32, f32
      }
      %flags = memref.reinterpret_cast %valid to offset: [0], sizes: [512], strides: [1] : memref<4x128xi1> to memref<512xi1>
      %down, %down_ok = gpu.shuffle down %v, %three, %width : f32
      %up, %up_ok = gpu.shuffle up %v, %five, %width : f32
      %idx, %idx_ok = gpu.shuffle idx %v, %seven, %width : f32
      %xor, %xor_ok = gpu.shuffle xor %pair#1, %nine, %width : f32
      memref.store %down, %values[%c0, %i] : memref<4x128xf32>
      memref.store %down_ok, %flags[%i] : memref<512xi1>
      memref.store %up, %values[%c1, %i] : memref<4x128xf32>
      %i1 = arith.addi %i, %c128 : index
      memref.store %up_ok, %flags[%i1] : memref<512xi1>
      memref.store %idx, %values[%c2, %i] : memref<4x128xf32>
      memref.store %idx_ok, %valid[%c2, %i] : memref<4x128xi1>
      memref.store %xor, %values[%c3, %i] : memref<4x128xf32>
      memref.store %xor_ok, %valid[%c3, %i] : memref<4x128xi1>
      gpu.return
    }
  }
}
