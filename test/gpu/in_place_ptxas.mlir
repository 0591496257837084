// XLA's in-place dynamic-update-slice emitter: a fusion whose every output is a
// dynamic-update-slice of a parameter launches over the update only (one thread per update
// element, or per vector of them), clamps the offsets and stores each element; the host fills
// each output with its operand first, as XLA gives them one buffer. ptxas accepts the kernels
// for sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/in_place.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/in_place.hlo --emit host | FileCheck %s --check-prefix=HOST
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/in_place.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// PLAN-LABEL: f2 (calls two): block [20, 1, 1], grid [1, 1, 1], unroll 1
// PLAN: emitter: in-place dynamic-update-slice (the outputs start as parameters 0 and 1)
// PLAN-LABEL: f3 (calls large): block [128, 1, 1], grid [528, 1, 1], unroll 4
// PLAN: reads: vector of 4 (16 bytes aligned)
// PLAN-LABEL: f0 (calls simple): block [30, 1, 1], grid [1, 1, 1], unroll 1

// HOST: gpu.memcpy [[OUT:%[a-z_0-9]+]], %arg0 : memref<20x30xf32>, memref<20x30xf32>
// HOST: gpu.launch_func @kernels::@f0 {{.*}} args(%arg0 : memref<20x30xf32>, %arg1 : memref<5x6xf32>, %arg2 : memref<i32>, %arg3 : memref<i32>, [[OUT]] : memref<20x30xf32>)

// PTX-LABEL: .entry f3(
// PTX: ld.global.v4.b32
// PTX-LABEL: .entry f0(
// PTX: min.s32
// PTX: st.global.b32
