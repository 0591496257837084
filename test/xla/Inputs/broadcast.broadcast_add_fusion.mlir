// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `a + a[0][None,:], a: f32[24,16]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @broadcast_add_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_add_fusion(%arg0: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 1 : index}) -> tensor<24x16xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg2, %arg3, %arg4) in (1, 1, 1) shared_outs(%arg5 = %arg1) -> (tensor<24x16xf32>) {
      %xla_loop = xla.loop (%arg2, %arg3, %arg4, %0, %1, %2)[%i, %j] -> (%ra, %rb) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (s0, s1), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 23], s1 in [0, 15]"> iter_args(%iter = %arg5) -> (tensor<24x16xf32>) {
        %pure_call = xla.pure_call @fused_computation_add_0(%arg0, %ra, %rb) : (tensor<24x16xf32>, index, index) -> f32
        %inserted = tensor.insert %pure_call into %iter[%ra, %rb] : tensor<24x16xf32>
        xla.yield %inserted : tensor<24x16xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg5[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> into tensor<24x16xf32>
      }
    }
    return %3 : tensor<24x16xf32>
  }
  func.func private @fused_computation_add_0(%arg0: tensor<24x16xf32>, %arg1: index {xla.range = [0 : index, 23 : index]}, %arg2: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 16), domain: d0 in [0, 15]">(%arg2)
    %pure_call = xla.pure_call @fused_computation_param_0(%arg0, %0, %arg2) : (tensor<24x16xf32>, index, index) -> f32
    %pure_call_0 = xla.pure_call @fused_computation_param_0(%arg0, %arg1, %arg2) : (tensor<24x16xf32>, index, index) -> f32
    %1 = arith.addf %pure_call_0, %pure_call : f32
    return %1 : f32
  }
  func.func private @fused_computation_param_0(%arg0: tensor<24x16xf32>, %arg1: index {xla.range = [0 : index, 23 : index]}, %arg2: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg0[%arg1, %arg2] : tensor<24x16xf32>
    return %extracted : f32
  }
}
