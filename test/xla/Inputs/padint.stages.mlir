// Stages of XLA's pass log (*.mlir-passes.log) for the JAX 0.12 (CPU) program `jax.lax.pad(a, 0.0, [(1,2,1),(0,0,0)]) * 2.0, a: f32[64,128]`,
// dumped with XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*";
// one stage per split (mlir-opt --split-input-file).
// Stage 13 of the pass log: the IR before InlinerPass:
#indexing_map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 129], s1 in [0, 127]">
#indexing_map1 = #xla.indexing_map<"(d0) -> ((d0 + 1) mod 2), domain: d0 in [1, 127]">
#indexing_map2 = #xla.indexing_map<"(d0) -> ((d0 + 1) / 2 - 1), domain: d0 in [1, 127]">
module @broadcast_multiply_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_multiply_fusion(%arg0: tensor<64x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 32768 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<130x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 66560 : index, xla.slice_index = 1 : index}) -> tensor<130x128xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %xla_loop = xla.loop ()[%i, %j] -> (%ra, %rb) in #indexing_map iter_args(%iter = %arg1) -> (tensor<130x128xf32>) {
      %cst = arith.constant 2.000000e+00 : f32
      %cst_0 = arith.constant 0.000000e+00 : f32
      %c127 = arith.constant 127 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = xla.apply_indexing #indexing_map1(%ra)
      %1 = arith.cmpi eq, %0, %c0 : index
      %2 = arith.cmpi sge, %ra, %c1 : index
      %3 = arith.cmpi sle, %ra, %c127 : index
      %4 = arith.andi %2, %3 : i1
      %5 = arith.andi %1, %4 : i1
      %6 = scf.if %5 -> (f32) {
        %8 = xla.apply_indexing #indexing_map2(%ra) {xla.range = [0 : index, 63 : index]}
        %extracted = tensor.extract %arg0[%8, %rb] : tensor<64x128xf32>
        scf.yield %extracted : f32
      } else {
        scf.yield %cst_0 : f32
      }
      %7 = arith.mulf %6, %cst : f32
      %inserted = tensor.insert %7 into %iter[%ra, %rb] : tensor<130x128xf32>
      xla.yield %inserted : tensor<130x128xf32>
    }
    return %xla_loop : tensor<130x128xf32>
  }
}

// -----
// Stage 21 of the pass log: the IR before StablehloConvertToSignlessPass:
#indexing_map = #xla.indexing_map<"(d0) -> ((d0 + 1) mod 2), domain: d0 in [1, 127]">
#indexing_map1 = #xla.indexing_map<"(d0) -> ((d0 + 1) / 2 - 1), domain: d0 in [1, 127]">
module @broadcast_multiply_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_multiply_fusion(%arg0: tensor<64x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 32768 : index, xla.invariant, xla.slice_index = 0 : index}, %arg1: tensor<130x128xf32> {llvm.align = 64 : index, llvm.dereferenceable = 66560 : index, xla.slice_index = 1 : index}) -> tensor<130x128xf32> attributes {xla.backend_kind = #xla.backend_kind<cpu>, xla.entry} {
    %true = arith.constant true
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %c130 = arith.constant 130 : index
    %c128 = arith.constant 128 : index
    %0 = scf.for %arg2 = %c0 to %c130 step %c1 iter_args(%arg3 = %arg1) -> (tensor<130x128xf32>) {
      %1 = scf.for %arg4 = %c0 to %c128 step %c1 iter_args(%arg5 = %arg3) -> (tensor<130x128xf32>) {
        %2 = scf.if %true -> (tensor<130x128xf32>) {
          %3 = xla.apply_indexing #indexing_map(%arg2)
          %4 = arith.cmpi eq, %3, %c0 : index
          %5 = arith.cmpi sge, %arg2, %c1 : index
          %6 = arith.cmpi sle, %arg2, %c127 : index
          %7 = arith.andi %5, %6 : i1
          %8 = arith.andi %4, %7 : i1
          %9 = scf.if %8 -> (f32) {
            %11 = xla.apply_indexing #indexing_map1(%arg2) {xla.range = [0 : index, 63 : index]}
            %extracted = tensor.extract %arg0[%11, %arg4] : tensor<64x128xf32>
            scf.yield %extracted : f32
          } else {
            scf.yield %cst : f32
          }
          %10 = arith.mulf %9, %cst_0 : f32
          %inserted = tensor.insert %10 into %arg5[%arg2, %arg4] : tensor<130x128xf32>
          scf.yield %inserted : tensor<130x128xf32>
        } else {
          scf.yield %arg5 : tensor<130x128xf32>
        }
        scf.yield %2 : tensor<130x128xf32>
      }
      scf.yield %1 : tensor<130x128xf32>
    }
    return %0 : tensor<130x128xf32>
  }
}

// -----
// Stage 41 of the pass log: the IR before SimplifyAffinePass:
#indexing_map = #xla.indexing_map<"(d0) -> ((d0 + 1) mod 2), domain: d0 in [1, 127]">
#indexing_map1 = #xla.indexing_map<"(d0, d1) -> (((d1 + 1) / 2) * 128 + d0 - 128), domain: d0 in [0, 127], d1 in [1, 127]">
#indexing_map2 = #xla.indexing_map<"(d0, d1) -> (d0 * 128 + d1), domain: d0 in [0, 129], d1 in [0, 127]">
#loop_unroll = #llvm.loop_unroll<disable = true>
#loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
module @broadcast_multiply_fusion_kernel_module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>, xla.cpu_memory_region_name = "xla_cpu_emitter__loop_fusion_kernel_emitter__hlo_opcode__fusion"} {
  func.func @broadcast_multiply_fusion(%arg0: !llvm.ptr {llvm.nonnull, llvm.noundef}) -> !llvm.ptr attributes {llvm.frame_pointer = #llvm.framePointerKind<all>, llvm.passthrough = [["prefer-vector-width", "256"]], llvm.uwtable_kind = #llvm.uwtableKind<async>} {
    %0 = llvm.mlir.zero : !llvm.ptr
    %1 = llvm.getelementptr inbounds %arg0[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"XLA_CPU_KernelCallFrame", (ptr, ptr, i64, ptr)>
    %2 = llvm.load %1 invariant : !llvm.ptr -> !llvm.ptr
    %3 = llvm.getelementptr inbounds %2[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"XLA_CPU_KernelArg", (ptr, i64)>
    %4 = llvm.load %3 invariant dereferenceable<bytes = 32768> : !llvm.ptr -> !llvm.ptr
    %5 = llvm.getelementptr inbounds %2[1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"XLA_CPU_KernelArg", (ptr, i64)>
    %6 = llvm.load %5 invariant dereferenceable<bytes = 66560> : !llvm.ptr -> !llvm.ptr
    %7 = llvm.getelementptr inbounds %arg0[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"XLA_CPU_KernelCallFrame", (ptr, ptr, i64, ptr)>
    %8 = llvm.load %7 : !llvm.ptr -> !llvm.ptr
    %9 = llvm.getelementptr inbounds %8[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"kernel_dim3", (i64, i64, i64)>
    %10 = llvm.load %9 invariant : !llvm.ptr -> i64
    %11 = builtin.unrealized_conversion_cast %10 : i64 to index
    %12 = llvm.getelementptr inbounds %8[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"kernel_dim3", (i64, i64, i64)>
    %13 = llvm.load %12 invariant : !llvm.ptr -> i64
    %14 = builtin.unrealized_conversion_cast %13 : i64 to index
    %15 = llvm.getelementptr inbounds %8[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"kernel_dim3", (i64, i64, i64)>
    %16 = llvm.load %15 invariant : !llvm.ptr -> i64
    %17 = builtin.unrealized_conversion_cast %16 : i64 to index
    call @broadcast_multiply_fusion_wrapped(%4, %6, %11, %14, %17) : (!llvm.ptr, !llvm.ptr, index, index, index) -> ()
    return %0 : !llvm.ptr
  }
  func.func private @broadcast_multiply_fusion_wrapped(%arg0: !llvm.ptr {llvm.align = 64 : index, llvm.dereferenceable = 32768 : index, llvm.noalias, xla.invariant}, %arg1: !llvm.ptr {llvm.align = 64 : index, llvm.dereferenceable = 66560 : index, llvm.noalias}, %arg2: index, %arg3: index, %arg4: index) attributes {llvm.always_inline, llvm.linkage = #llvm.linkage<internal>, xla.backend_kind = #xla.backend_kind<cpu>, xla.cpu.is_wrapped, xla.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %c130 = arith.constant 130 : index
    %c128 = arith.constant 128 : index
    scf.for %arg5 = %c0 to %c130 step %c1 {
      %0 = xla.apply_indexing #indexing_map(%arg5)
      %1 = arith.cmpi eq, %0, %c0 : index
      %2 = arith.cmpi sge, %arg5, %c1 : index
      %3 = arith.cmpi sle, %arg5, %c127 : index
      %4 = arith.andi %2, %3 : i1
      %5 = arith.andi %1, %4 : i1
      scf.for %arg6 = %c0 to %c128 step %c1 {
        %6 = scf.if %5 -> (f32) {
          %11 = xla.apply_indexing #indexing_map1(%arg6, %arg5)
          %12 = arith.index_castui %11 : index to i64
          %13 = llvm.getelementptr inbounds %arg0[0, %12] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8192 x f32>
          %14 = llvm.load %13 invariant : !llvm.ptr -> f32
          scf.yield %14 : f32
        } else {
          scf.yield %cst : f32
        }
        %7 = arith.mulf %6, %cst_0 : f32
        %8 = xla.apply_indexing #indexing_map2(%arg5, %arg6)
        %9 = arith.index_castui %8 : index to i64
        %10 = llvm.getelementptr inbounds %arg1[0, %9] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<16640 x f32>
        llvm.store %7, %10 : f32, !llvm.ptr
      }
    } {loop_annotation = #loop_annotation}
    return
  }
}
