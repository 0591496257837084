// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `jax.nn.softmax(a, axis=-1), a: f32[24,16]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @broadcast_multiply_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_multiply_fusion(%arg0: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 0 : index}, %arg1: tensor<24xf32> {llvm.align = 64 : index, llvm.dereferenceable = 96 : index, xla.invariant, xla.slice_index = 1 : index}, %arg2: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 0 : index}) -> tensor<24x16xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg3, %arg4, %arg5) in (1, 1, 1) shared_outs(%arg6 = %arg2) -> (tensor<24x16xf32>) {
      %xla_loop = xla.loop (%arg3, %arg4, %arg5, %0, %1, %2)[%i, %j] -> (%ra, %rb) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (s0, s1), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 23], s1 in [0, 15]"> iter_args(%iter = %arg6) -> (tensor<24x16xf32>) {
        %pure_call = xla.pure_call @fused_computation_multiply_1(%arg0, %arg1, %ra, %rb) : (tensor<24x16xf32>, tensor<24xf32>, index, index) -> f32
        %inserted = tensor.insert %pure_call into %iter[%ra, %rb] : tensor<24x16xf32>
        xla.yield %inserted : tensor<24x16xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg6[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> into tensor<24x16xf32>
      }
    }
    return %3 : tensor<24x16xf32>
  }
  func.func private @fused_computation_multiply_1(%arg0: tensor<24x16xf32>, %arg1: tensor<24xf32>, %arg2: index {xla.range = [0 : index, 23 : index]}, %arg3: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %extracted = tensor.extract %arg0[%arg2, %arg3] : tensor<24x16xf32>
    %extracted_0 = tensor.extract %arg1[%arg2] : tensor<24xf32>
    %0 = arith.mulf %extracted, %extracted_0 : f32
    return %0 : f32
  }
}
