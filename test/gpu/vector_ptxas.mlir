// Elementwise kernels on aligned buffers read and write a thread's unrolled group with vector
// accesses (ld.global.v4 / st.global.v4) where the plan proves the group's elements adjacent
// and the first aligned to 16 bytes; ptxas accepts the PTX for sm_80 and sm_90. The operand
// read with a stride stays scalar (a group's elements are 2 apart); an [8,128] output is smaller than
// one wave of resident threads, so XLA's loop emitter does not unroll it and there is no
// group to vectorize.

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/Inputs/vector_loads.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/Inputs/vector_loads.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/Inputs/vector_loads.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/Inputs/vector_loads.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: exp_add_fusion (calls exp_add): {{.*}} unroll 4
// PLAN: output 0 f32[4096,4096]{1,0} stores: vector of 4 (16 bytes aligned)
// PLAN: <- operand 0
// PLAN: reads: vector of 4 (16 bytes aligned)
// PLAN: <- operand 1
// PLAN: reads: vector of 4 (16 bytes aligned)
// PLAN-LABEL: strided_add_fusion
// PLAN: stores: vector of 4 (16 bytes aligned)
// PLAN: <- operand 0
// PLAN: reads: scalar: elements of a thread's group are not adjacent in the buffer
// PLAN: <- operand 1
// PLAN: reads: vector of 4 (16 bytes aligned)
// PLAN-LABEL: small_fusion (calls small_exp_add): {{.*}} unroll 1
// PLAN: stores: scalar: not unrolled

// MLIR-LABEL: gpu.func @exp_add_fusion
// MLIR-SAME: unroll_id in [0, 3]
// MLIR: xla_indexing.loop {{.*}} unroll_id in [0, 0]
// MLIR-COUNT-2: vector.load {{.*}} {alignment = 16 : i64} : memref<16777216xf32>, vector<4xf32>
// MLIR-NOT: memref.load
// MLIR: vector.store {{.*}} {alignment = 16 : i64} : memref<16777216xf32>, vector<4xf32>
// MLIR-LABEL: gpu.func @strided_add_fusion
// MLIR-COUNT-4: memref.load %arg0
// MLIR: vector.store
// MLIR-LABEL: gpu.func @small_fusion
// MLIR-NOT: vector.
// MLIR: memref.store

// PTX-LABEL: .entry exp_add_fusion(
// PTX-NOT: ld.global.{{[bf]}}32
// PTX-COUNT-2: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX: st.global.v4.b32
// PTX-LABEL: .entry strided_add_fusion(
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: ld.global.b32
// PTX: st.global.v4.b32
// PTX-LABEL: .entry small_fusion(
// PTX-NOT: .v4
// PTX: st.global.b32
