// Stages of XLA's pass log (*.mlir-passes.log) for the JAX 0.12 (CPU) program `jnp.concatenate([jnp.exp(a), b*2.0, a[:, :5]+1.0], axis=1) (its tiled exp kernel), a: f32[64,128], b: f32[64,32]`,
// dumped with XLA_FLAGS="--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*";
// one stage per split (mlir-opt --split-input-file).
// Stage 9 of the pass log: the IR before VectorizeXTilePass:
#indexing_map = #xla.indexing_map<"(tid) -> (tid / 16), domain: tid in [0, 1023]">
#indexing_map1 = #xla.indexing_map<"(tid) -> ((tid mod 16) * 8), domain: tid in [0, 1023]">
module @__compute_module_wrapped_exponential attributes {xla.cpu_memory_region_name = "xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion"} {
  xtile.entry_func @wrapped_exponential(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    scf.for %arg3 = %c0 to %c1024 step %c1 {
      %0 = xla.apply_indexing #indexing_map(%arg3) {xla.range = [0 : index, 63 : index]}
      %1 = xla.apply_indexing #indexing_map1(%arg3) {xla.range = [0 : index, 120 : index]}
      %2 = xtile.extract %arg0[%0, %1] [1, 8] [1, 1] : memref<64x128xf32> -> tensor<1x8xf32>
      %3 = math.exp %2 : tensor<1x8xf32>
      xtile.insert %3 into %arg1[%0, %1] [1, 8] [1, 1] : tensor<1x8xf32> -> memref<64x128xf32>
    }
    xtile.return
  }
}

// -----
// Stage 10 of the pass log: the IR before LowerXTileEntryPass:
#indexing_map = #xla.indexing_map<"(tid) -> (tid / 16), domain: tid in [0, 1023]">
#indexing_map1 = #xla.indexing_map<"(tid) -> ((tid mod 16) * 8), domain: tid in [0, 1023]">
#indexing_map2 = #xla.indexing_map<"(d0, d1) -> (-d0 + 64 - 1, -d1 + 128 - 8), domain: d0 in [0, 63], d1 in [0, 120]">
module @__compute_module_wrapped_exponential attributes {xla.cpu_memory_region_name = "xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion"} {
  xtile.entry_func @wrapped_exponential(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    scf.for %arg3 = %c0 to %c1024 step %c1 {
      %0 = xla.apply_indexing #indexing_map(%arg3) {xla.range = [0 : index, 63 : index]}
      %1 = xla.apply_indexing #indexing_map1(%arg3) {xla.range = [0 : index, 120 : index]}
      %cst = arith.constant 0.000000e+00 : f32
      %2:2 = xla.apply_indexing #indexing_map2(%0, %1)
      %c0_0 = arith.constant 0 : index
      %3 = arith.cmpi sge, %2#0, %c0_0 : index
      %4 = arith.cmpi sge, %2#1, %c0_0 : index
      %5 = arith.andi %3, %4 : i1
      %6 = scf.if %5 -> (vector<1x8xf32>) {
        %12 = vector.transfer_read %arg0[%0, %1], %cst {in_bounds = [true, true]} : memref<64x128xf32>, vector<1x8xf32>
        scf.yield %12 : vector<1x8xf32>
      } else {
        %c0_2 = arith.constant 0 : index
        %c1_3 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %12 = arith.subi %c64, %0 : index
        %13 = arith.minsi %c1_3, %12 : index
        %14 = arith.maxsi %c0_2, %13 : index
        %c8 = arith.constant 8 : index
        %c128 = arith.constant 128 : index
        %15 = arith.subi %c128, %1 : index
        %16 = arith.minsi %c8, %15 : index
        %17 = arith.maxsi %c0_2, %16 : index
        %18 = vector.create_mask %14, %17 : vector<1x8xi1>
        %19 = vector.transfer_read %arg0[%0, %1], %cst, %18 : memref<64x128xf32>, vector<1x8xf32>
        scf.yield %19 : vector<1x8xf32>
      }
      %7 = math.exp %6 : vector<1x8xf32>
      %8:2 = xla.apply_indexing #indexing_map2(%0, %1)
      %c0_1 = arith.constant 0 : index
      %9 = arith.cmpi sge, %8#0, %c0_1 : index
      %10 = arith.cmpi sge, %8#1, %c0_1 : index
      %11 = arith.andi %9, %10 : i1
      scf.if %11 {
        vector.transfer_write %7, %arg1[%0, %1] {in_bounds = [true, true]} : vector<1x8xf32>, memref<64x128xf32>
      } else {
        %c0_2 = arith.constant 0 : index
        %c1_3 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %12 = arith.subi %c64, %0 : index
        %13 = arith.minsi %c1_3, %12 : index
        %14 = arith.maxsi %c0_2, %13 : index
        %c8 = arith.constant 8 : index
        %c128 = arith.constant 128 : index
        %15 = arith.subi %c128, %1 : index
        %16 = arith.minsi %c8, %15 : index
        %17 = arith.maxsi %c0_2, %16 : index
        %18 = vector.create_mask %14, %17 : vector<1x8xi1>
        vector.transfer_write %7, %arg1[%0, %1], %18 : vector<1x8xf32>, memref<64x128xf32>
      }
    }
    xtile.return
  }
}

// -----
// Stage 20 of the pass log: the IR before VectorToScalarPass:
#indexing_map = #xla.indexing_map<"(tid) -> (tid / 16), domain: tid in [0, 1023]">
#indexing_map1 = #xla.indexing_map<"(tid) -> ((tid mod 16) * 8), domain: tid in [0, 1023]">
module @__compute_module_wrapped_exponential attributes {xla.cpu_memory_region_name = "xla_cpu_emitter__tiled_emitter__hlo_opcode__fusion"} {
  func.func @wrapped_exponential(%arg0: !xla_cpu.call_frame) -> !xla_cpu.error attributes {llvm.passthrough = [["prefer-vector-width", "256"]]} {
    %0 = xla_cpu.load %arg0, 0 : memref<64x128xf32>
    %1 = xla_cpu.load %arg0, 1 : memref<64x128xf32>
    %2 = xla_cpu.extract_workgroup_id %arg0, x
    call @wrapped_exponential_impl(%0, %1, %2) : (memref<64x128xf32>, memref<64x128xf32>, index) -> ()
    %3 = xla_cpu.success : !xla_cpu.error
    return %3 : !xla_cpu.error
  }
  func.func @wrapped_exponential_impl(%arg0: memref<64x128xf32>, %arg1: memref<64x128xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {llvm.always_inline, llvm.linkage = #llvm.linkage<internal>, num_opaque_args = 0 : i32} {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    scf.for %arg3 = %c0 to %c1024 step %c1 {
      %0 = xla.apply_indexing #indexing_map(%arg3) {xla.range = [0 : index, 63 : index]}
      %1 = xla.apply_indexing #indexing_map1(%arg3) {xla.range = [0 : index, 120 : index]}
      %2 = vector.transfer_read %arg0[%0, %1], %cst {in_bounds = [true, true]} : memref<64x128xf32>, vector<1x8xf32>
      %3 = math.exp %2 : vector<1x8xf32>
      vector.transfer_write %3, %arg1[%0, %1] {in_bounds = [true, true]} : vector<1x8xf32>, memref<64x128xf32>
    }
    return
  }
}
