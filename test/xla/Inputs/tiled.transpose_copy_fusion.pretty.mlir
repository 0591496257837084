// XLA's pre-optimization emitter IR (tiled emitter, its StableHLO op in pretty form, as XLA
// dumps it) for the JAX 0.12 (CPU) program `jnp.transpose(a, (4,2,0,3,1)), a: f32[2,3,4,5,6]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @__compute_module_transpose_copy_fusion attributes {xla.cpu_memory_region_name = "xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion"} {
  xtile.entry_func @transpose_copy_fusion(%arg0: memref<2x3x4x5x6xf32>, %arg1: memref<6x4x2x5x3xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = xla.apply_indexing #xla.indexing_map<"(pid) -> (min(pid * -40 + 40, 40)), domain: pid in [0, 0]">(%arg2)
    scf.for %arg3 = %c0 to %0 step %c1 {
      %1 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40 mod 10) / 5), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 1 : index]}
      %c0_0 = arith.constant 0 : index
      %2 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40) / 10), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 3 : index]}
      %3 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> ((pid * 40 + tid) mod 40 mod 10 mod 5), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 4 : index]}
      %c0_1 = arith.constant 0 : index
      %4 = xtile.extract %arg0[%1, %c0_0, %2, %3, %c0_1] [1, 4, 1, 1, 8] [1, 1, 1, 1, 1] : memref<2x3x4x5x6xf32> -> tensor<1x4x1x1x8xf32>
      %5 = stablehlo.transpose %4, dims = [4, 2, 0, 3, 1] : (tensor<1x4x1x1x8xf32>) -> tensor<8x1x1x1x4xf32>
      %c0_2 = arith.constant 0 : index
      %6 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40) / 10), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 3 : index]}
      %7 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40 mod 10) / 5), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 1 : index]}
      %8 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> ((pid * 40 + tid) mod 40 mod 10 mod 5), domain: pid in [0, 0], tid in [0, 39]">(%arg2, %arg3) {xla.range = [0 : index, 4 : index]}
      %c0_3 = arith.constant 0 : index
      xtile.insert %5 into %arg1[%c0_2, %6, %7, %8, %c0_3] [8, 1, 1, 1, 4] [1, 1, 1, 1, 1] : tensor<8x1x1x1x4xf32> -> memref<6x4x2x5x3xf32>
    }
    xtile.return
  }
}
