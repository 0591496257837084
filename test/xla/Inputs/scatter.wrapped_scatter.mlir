// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `a.at[i].add(1.0), a: f32[24,16], i: s32[4]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @wrapped_scatter attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__cpu_scatter_fusion__hlo_opcode__fusion", xla.extra_backend_options = #xla<extra_backend_options["xla_cpu_disable_loop_unrolling"]>} {
  func.func @wrapped_scatter(%arg0: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = -1 : index}, %arg1: tensor<4x1xi32> {llvm.align = 64 : index, llvm.dereferenceable = 16 : index, xla.slice_index = 0 : index}, %arg2: tensor<4x1x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 256 : index, xla.slice_index = 1 : index}, %arg3: tensor<24x16xf32> {llvm.align = 64 : index, llvm.dereferenceable = 1536 : index, xla.slice_index = 3 : index}) -> tensor<24x16xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %xla_loop = xla.loop (%0)[%i, %j, %k] -> (%ra, %rb, %rc) in #xla.indexing_map<"(thread_id)[index_id, vector_id, vector_element_id] -> (index_id, 0, vector_element_id), domain: thread_id in [0, 0], index_id in [0, 3], vector_id in [0, 0], vector_element_id in [0, 15]"> iter_args(%iter = %arg0) -> (tensor<24x16xf32>) {
      %c0 = arith.constant 0 : index
      %true = arith.constant true
      %c0_0 = arith.constant 0 : index
      %pure_call = xla.pure_call @wrapped_scatter_computation_param_1_4(%arg0, %arg1, %arg2, %ra, %c0_0) : (tensor<24x16xf32>, tensor<4x1xi32>, tensor<4x1x16xf32>, index, index) -> i32
      %1 = arith.index_cast %pure_call : i32 to index
      %c23 = arith.constant 23 : index
      %2 = arith.cmpi ule, %1, %c23 : index
      %3 = arith.andi %true, %2 : i1
      %4 = scf.if %3 -> (tensor<24x16xf32>) {
        %pure_call_1 = xla.pure_call @wrapped_scatter_computation_param_2_3(%arg0, %arg1, %arg2, %ra, %rb, %rc) : (tensor<24x16xf32>, tensor<4x1xi32>, tensor<4x1x16xf32>, index, index, index) -> f32
        %5 = arith.addi %rb, %1 : index
        %6 = arith.addi %rc, %c0 : index
        %extracted = tensor.extract %iter[%5, %6] : tensor<24x16xf32>
        %7 = arith.addf %extracted, %pure_call_1 : f32
        %inserted = tensor.insert %7 into %iter[%5, %6] : tensor<24x16xf32>
        scf.yield %inserted : tensor<24x16xf32>
      } else {
        scf.yield %iter : tensor<24x16xf32>
      }
      xla.yield %4 : tensor<24x16xf32>
    }
    return %xla_loop : tensor<24x16xf32>
  }
  func.func private @wrapped_scatter_computation_param_2_3(%arg0: tensor<24x16xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1x16xf32>, %arg3: index {xla.range = [0 : index, 3 : index]}, %arg4: index {xla.range = [0 : index, 0 : index]}, %arg5: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg2[%arg3, %arg4, %arg5] : tensor<4x1x16xf32>
    return %extracted : f32
  }
  func.func private @wrapped_scatter_computation_param_1_4(%arg0: tensor<24x16xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1x16xf32>, %arg3: index {xla.range = [0 : index, 3 : index]}, %arg4: index {xla.range = [0 : index, 0 : index]}) -> i32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg1[%arg3, %arg4] : tensor<4x1xi32>
    return %extracted : i32
  }
  func.func private @wrapped_scatter_computation_param_0_4(%arg0: tensor<24x16xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1x16xf32>, %arg3: index {xla.range = [0 : index, 23 : index]}, %arg4: index {xla.range = [0 : index, 15 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    %extracted = tensor.extract %arg0[%arg3, %arg4] : tensor<24x16xf32>
    return %extracted : f32
  }
  func.func private @region_0_1_add_2(%arg0: f32, %arg1: f32) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %0 = arith.addf %arg0, %arg1 : f32
    return %0 : f32
  }
  func.func private @wrapped_scatter_computation__epilogue__scatter_add_0(%arg0: tensor<24x16xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x1x16xf32>, %arg3: index {xla.range = [0 : index, 23 : index]}, %arg4: index {xla.range = [0 : index, 15 : index]}, %arg5: f32) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>, no_compute = true} {
    return %arg5 : f32
  }
}
