// XLA's pre-optimization emitter IR for the JAX 0.12 (CPU) program `jax.lax.pad(a, 0.0, [(1,2,1),(0,0,0)]) * 2.0, a: f32[64,128]`, dumped with
// XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*".
module @broadcast_multiply_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_multiply_fusion(%arg0: tensor<64x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 32768 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<130x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 66560 : index, xla.slice_index = 1 : index}) -> tensor<130x128xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    %1 = xla.workgroup_id y {xla.range = [0 : index, 0 : index]}
    %2 = xla.workgroup_id z {xla.range = [0 : index, 0 : index]}
    %3 = scf.forall (%arg2, %arg3, %arg4) in (1, 1, 1) shared_outs(%arg5 = %arg1) -> (tensor<130x128xf32>) {
      %xla_loop = xla.loop (%arg2, %arg3, %arg4, %0, %1, %2)[%i, %j] -> (%ra, %rb) in #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (s0, s1), domain: th_x in [0, 0], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 129], s1 in [0, 127]"> iter_args(%iter = %arg5) -> (tensor<130x128xf32>) {
        %pure_call = xla.pure_call @fused_computation_mul_0(%arg0, %ra, %rb) : (tensor<64x128xf32>, index, index) -> f32
        %inserted = tensor.insert %pure_call into %iter[%ra, %rb] : tensor<130x128xf32>
        xla.yield %inserted : tensor<130x128xf32>
      }
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %xla_loop into %arg5[0, 0] [130, 128] [1, 1] : tensor<130x128xf32> into tensor<130x128xf32>
      }
    }
    return %3 : tensor<130x128xf32>
  }
  func.func private @fused_computation_mul_0(%arg0: tensor<64x128xf32>, %arg1: index {xla.range = [0 : index, 129 : index]}, %arg2: index {xla.range = [0 : index, 127 : index]}) -> f32 attributes {llvm.linkage = #llvm.linkage<internal>} {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> ((d0 - 1) mod 2), domain: d0 in [1, 127], d1 in [0, 127]">(%arg1, %arg2)
    %true = arith.constant true
    %c0 = arith.constant 0 : index
    %1 = arith.cmpi eq, %0, %c0 : index
    %2 = arith.andi %true, %1 : i1
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %3 = arith.cmpi sge, %arg1, %c1 : index
    %4 = arith.cmpi sle, %arg1, %c127 : index
    %5 = arith.andi %3, %4 : i1
    %6 = arith.andi %2, %5 : i1
    %c0_0 = arith.constant 0 : index
    %c127_1 = arith.constant 127 : index
    %7 = arith.cmpi sge, %arg2, %c0_0 : index
    %8 = arith.cmpi sle, %arg2, %c127_1 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.andi %6, %9 : i1
    %11 = scf.if %10 -> (f32) {
      %13 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> ((d0 - 1) / 2), domain: d0 in [1, 127], d1 in [0, 127]">(%arg1, %arg2) {xla.range = [0 : index, 63 : index]}
      %extracted = tensor.extract %arg0[%13, %arg2] : tensor<64x128xf32>
      scf.yield %extracted : f32
    } else {
      %cst_2 = arith.constant 0.000000e+00 : f32
      scf.yield %cst_2 : f32
    }
    %cst = arith.constant 2.000000e+00 : f32
    %12 = arith.mulf %11, %cst : f32
    return %12 : f32
  }
}
