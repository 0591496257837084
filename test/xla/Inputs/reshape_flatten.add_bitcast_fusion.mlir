module @add_bitcast_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @add_bitcast_fusion(%arg0: tensor<2x3x4x50xf32> {llvm.align = 64 : index, llvm.dereferenceable = 4800 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<1200xf32> {llvm.align = 64 : index, llvm.dereferenceable = 4800 : index, xla.slice_index = 1 : index}) -> tensor<1200xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg2, %arg3, %arg4) in (1, 1, 1) shared_outs(%arg5 = %arg1) -> (tensor<1200xf32>) {
      %xla_loop = xla.loop (%arg2, %arg3, %arg4, %0, %1, %2)[%i] -> (%ra) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] -> (s0), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 1199]"> iter_args(%iter = %arg5) -> (tensor<1200xf32>) {
        %pure_call = xla.pure_call @fused_computation_bitcast_1(%arg0, %ra) : (tensor<2x3x4x50xf32>, index) -> f32
        %inserted = tensor.insert %pure_call into %iter[%ra] : tensor<1200xf32>
        xla.yield %inserted : tensor<1200xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg5[0] [1200] [1] : tensor<1200xf32> into tensor<1200xf32>
      }
    }
    return %3 : tensor<1200xf32>
  }
  func.func private @fused_computation_bitcast_1(%arg0: tensor<2x3x4x50xf32>, %arg1: index {xla.range = [0 : index, 1199 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 600), domain: d0 in [0, 1199]">(%arg1)
    %1 = xla.apply_indexing #xla.indexing_map<"(d0) -> ((d0 / 200) mod 3), domain: d0 in [0, 1199]">(%arg1)
    %2 = xla.apply_indexing #xla.indexing_map<"(d0) -> ((d0 / 50) mod 4), domain: d0 in [0, 1199]">(%arg1)
    %3 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 50), domain: d0 in [0, 1199]">(%arg1)
    %extracted = tensor.extract %arg0[%0, %1, %2, %3] : tensor<2x3x4x50xf32>
    %4 = math.cos %extracted : f32
    %cst = arith.constant 1.000000e+00 : f32
    %5 = arith.addf %4, %cst : f32
    return %5 : f32
  }
}