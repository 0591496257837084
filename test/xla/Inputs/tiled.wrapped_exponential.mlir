// XLA's pre-optimization emitter IR (tiled emitter) for the JAX 0.12 (CPU) program `jnp.concatenate([jnp.exp(a), b*2.0, a[:, :5]+1.0], axis=1), a: f32[64,128], b: f32[64,32]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @__compute_module_wrapped_exponential attributes {xla.cpu_memory_region_name = "xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion"} {
  xtile.entry_func @wrapped_exponential(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = xla.apply_indexing #xla.indexing_map<"(pid) -> (min(pid * -1024 + 1024, 1024)), domain: pid in [0, 0]">(%arg2)
    scf.for %arg3 = %c0 to %0 step %c1 {
      %1 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> ((pid * 1024 + tid) / 16), domain: pid in [0, 0], tid in [0, 1023]">(%arg2, %arg3) {xla.range = [0 : index, 63 : index]}
      %2 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 1024 + tid) mod 16) * 8), domain: pid in [0, 0], tid in [0, 1023]">(%arg2, %arg3) {xla.range = [0 : index, 120 : index]}
      %3 = xtile.extract %arg0[%1, %2] [1, 8] [1, 1] : memref<64x128xf32> -> tensor<1x8xf32>
      %4 = math.exp %3 : tensor<1x8xf32>
      %5 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> ((pid * 1024 + tid) / 16), domain: pid in [0, 0], tid in [0, 1023]">(%arg2, %arg3) {xla.range = [0 : index, 63 : index]}
      %6 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 1024 + tid) mod 16) * 8), domain: pid in [0, 0], tid in [0, 1023]">(%arg2, %arg3) {xla.range = [0 : index, 120 : index]}
      xtile.insert %4 into %arg1[%5, %6] [1, 8] [1, 1] : tensor<1x8xf32> -> memref<64x128xf32>
    }
    xtile.return
  }
}
