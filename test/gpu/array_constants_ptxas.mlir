// Array constants in fusions: up to 256 elements a vector constant (a lane read per element),
// past that, as XLA reads large constants from a global buffer, a `memref.global` constant of
// the gpu.module (one per distinct table, named after the kernel), which NVPTX writes as an
// initialized `.global` array. ptxas accepts the kernels for sm_90; the same module runs on
// the CPU against the evaluator (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/array_constants.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/array_constants.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// The table read twice is one global.
// MLIR: memref.global "private" constant @big_constant0 : memref<384xi32>
// MLIR-NOT: memref.global {{.*}}@big_constant1
// MLIR: gpu.func @big(
// MLIR: memref.get_global @big_constant0
// MLIR: memref.get_global @big_constant0
// MLIR: memref.global "private" constant @mask_constant0 : memref<300xi1>
// MLIR: arith.constant dense<{{.*}}> : vector<

// PTX: .global .align 4 .b8 big_constant0[1536] =
// PTX: .global .align 1 .b8 mask_constant0[300] =
