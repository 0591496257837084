// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `jax.lax.dynamic_update_slice(a, jnp.ones((4,4)), (i, i)), a: f32[24,16]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @"select_dynamic-update-slice_fusion_kernel_module" attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__dynamic_update_slice_kernel_emitter__hlo_opcode__fusion"} {
  func.func @"select_dynamic-update-slice_fusion"(%arg0: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 0 : index}, %arg1: tensor<i32> {llvm.align = 64 : index, llvm.dereferenceable = 4 : index, xla.invariant, xla.slice_index = 1 : index}, %arg2: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 0 : index}) -> tensor<24x16xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg3, %arg4, %arg5) in (1, 1, 1) shared_outs(%arg6 = %arg2) -> (tensor<24x16xf32>) {
      %xla_loop = xla.loop (%arg3, %arg4, %arg5, %0, %1, %2)[%i, %j] -> (%ra, %rb) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (s0, s1), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 3], s1 in [0, 3]"> iter_args(%iter = %arg6) -> (tensor<24x16xf32>) {
        %pure_call = xla.pure_call @fused_computation_select_n_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
        %pure_call_0 = xla.pure_call @fused_computation_select_n_0(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
        %c0 = arith.constant 0 : index
        %4 = arith.index_cast %pure_call : i32 to index
        %c20 = arith.constant 20 : index
        %5 = arith.minsi %4, %c20 : index
        %6 = arith.maxsi %5, %c0 : index
        %7 = arith.addi %ra, %6 : index
        %c0_1 = arith.constant 0 : index
        %8 = arith.index_cast %pure_call_0 : i32 to index
        %c12 = arith.constant 12 : index
        %9 = arith.minsi %8, %c12 : index
        %10 = arith.maxsi %9, %c0_1 : index
        %11 = arith.addi %rb, %10 : index
        %pure_call_2 = xla.pure_call @fused_computation_broadcast_0(%arg0, %arg1, %ra, %rb) : (tensor<24x16xf32>, tensor<i32>, index, index) -> f32
        %inserted = tensor.insert %pure_call_2 into %iter[%7, %11] : tensor<24x16xf32>
        xla.yield %inserted : tensor<24x16xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg6[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> into tensor<24x16xf32>
      }
    }
    return %3 : tensor<24x16xf32>
  }
  func.func private @fused_computation_select_n_0(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>) -> i32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %c16_i32 = arith.constant 16 : i32
    %pure_call = xla.pure_call @fused_computation_param_1_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
    %0 = arith.addi %pure_call, %c16_i32 : i32
    %pure_call_0 = xla.pure_call @fused_computation_lt_0(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i8
    %pure_call_1 = xla.pure_call @fused_computation_param_1_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
    %1 = arith.trunci %pure_call_0 : i8 to i1
    %2 = arith.select %1, %0, %pure_call_1 : i32
    return %2 : i32
  }
  func.func private @fused_computation_select_n_1(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>) -> i32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %c24_i32 = arith.constant 24 : i32
    %pure_call = xla.pure_call @fused_computation_param_1_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
    %0 = arith.addi %pure_call, %c24_i32 : i32
    %pure_call_0 = xla.pure_call @fused_computation_lt_0(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i8
    %pure_call_1 = xla.pure_call @fused_computation_param_1_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
    %1 = arith.trunci %pure_call_0 : i8 to i1
    %2 = arith.select %1, %0, %pure_call_1 : i32
    return %2 : i32
  }
  func.func private @fused_computation_lt_0(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>) -> i8 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %c0_i32 = arith.constant 0 : i32
    %pure_call = xla.pure_call @fused_computation_param_1_1(%arg0, %arg1) : (tensor<24x16xf32>, tensor<i32>) -> i32
    %0 = arith.cmpi slt, %pure_call, %c0_i32 : i32
    %1 = arith.extui %0 : i1 to i8
    return %1 : i8
  }
  func.func private @fused_computation_param_1_1(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>) -> i32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg1[] : tensor<i32>
    return %extracted : i32
  }
  func.func private @fused_computation_broadcast_0(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>, %arg2: index {xla.range = [0 : index, 3 : index]}, %arg3: index {xla.range = [0 : index, 3 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %cst = arith.constant 1.000000e+00 : f32
    return %cst : f32
  }
  func.func private @fused_computation_param_0(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>, %arg2: index {xla.range = [0 : index, 23 : index]}, %arg3: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg0[%arg2, %arg3] : tensor<24x16xf32>
    return %extracted : f32
  }
  func.func private @fused_computation__epilogue__dynamic_update_slice_0(%arg0: tensor<24x16xf32>, %arg1: tensor<i32>, %arg2: index {xla.range = [0 : index, 23 : index]}, %arg3: index {xla.range = [0 : index, 15 : index]}, %arg4: f32) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    return %arg4 : f32
  }
}
