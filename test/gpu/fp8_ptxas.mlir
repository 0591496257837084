// 8-bit float types (f8e5m2, f8e4m3fn, f8e4m3, f8e3m4 and the fnuz ones) are bytes in memory
// and `i8` values in a kernel: conversions are integer arithmetic with ml_dtypes' rounding
// (the bits rounded to nearest even and rebiased; subnormals by `math.roundeven`, `cvt.rni`),
// every other op is computed on f32 values and rounded back. ptxas accepts the kernels for
// sm_80 and sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/fp8.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/fp8.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/fp8.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/fp8.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: f4 (calls row_sum)
// PLAN: emitter: row reduction
// PLAN-LABEL: f6 (calls transpose)
// PLAN: shared memory: f8e4m3fn[128,128] (16384 bytes)

// The seven types' outputs are bytes.
// MLIR-LABEL: gpu.func @f1(
// MLIR-SAME: memref<16x24xi8>
// MLIR: math.roundeven {{.*}} : f32
// MLIR: arith.trunci {{.*}} : i32 to i8
// A dot of f8e4m3fn: the product and the sum on f32 values, each rounded back.
// MLIR-LABEL: gpu.func @f5(
// MLIR: xla_indexing.loop
// MLIR: arith.mulf {{.*}} : f32
// MLIR: arith.trunci {{.*}} : i32 to i8
// MLIR: arith.addf {{.*}} : f32

// PTX-LABEL: .entry f1(
// PTX: cvt.rni.f32.f32
// PTX: st.global.b8
