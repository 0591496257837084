// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `jnp.sum(a*a, axis=1), a: f32[24,16]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @multiply_reduce_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @multiply_reduce_fusion(%arg0: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<24xf32> {llvm.align = 64 : index, llvm.dereferenceable = 96 : index, xla.slice_index = 1 : index}) -> tensor<24xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg2, %arg3, %arg4) in (1, 1, 1) shared_outs(%arg5 = %arg1) -> (tensor<24xf32>) {
      %xla_loop = xla.loop (%arg2, %arg3, %arg4, %0, %1, %2)[%i] -> (%ra) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] -> (s0), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 23]"> iter_args(%iter = %arg5) -> (tensor<24xf32>) {
        %pure_call = xla.pure_call @fused_computation_reduce_sum_0(%arg0, %ra) : (tensor<24x16xf32>, index) -> f32
        %inserted = tensor.insert %pure_call into %iter[%ra] : tensor<24xf32>
        xla.yield %inserted : tensor<24xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg5[0] [24] [1] : tensor<24xf32> into tensor<24xf32>
      }
    }
    return %3 : tensor<24xf32>
  }
  func.func private @fused_computation_reduce_sum_0(%arg0: tensor<24x16xf32>, %arg1: index {xla.range = [0 : index, 23 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %cst = arith.constant 0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %0 = scf.for %arg2 = %c0 to %c16 step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %true = arith.constant true
      %c0_0 = arith.constant 0 : index
      %c23 = arith.constant 23 : index
      %1 = arith.cmpi sge, %arg1, %c0_0 : index
      %2 = arith.cmpi sle, %arg1, %c23 : index
      %3 = arith.andi %1, %2 : i1
      %4 = arith.andi %true, %3 : i1
      %5 = scf.if %4 -> (f32) {
        %extracted = tensor.extract %arg0[%arg1, %arg2] : tensor<24x16xf32>
        %6 = arith.mulf %extracted, %extracted : f32
        %7 = func.call @region_0_1_reduce_sum_5(%arg3, %6) {xla.is_reduction} : (f32, f32) -> f32
        scf.yield %7 : f32
      } else {
        scf.yield %arg3 : f32
      }
      scf.yield %5 : f32
    }
    return %0 : f32
  }
  func.func private @region_0_1_reduce_sum_5(%arg0: f32, %arg1: f32) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %0 = arith.addf %arg0, %arg1 : f32
    return %0 : f32
  }
}
