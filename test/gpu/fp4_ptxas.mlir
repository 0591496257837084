// f4e2m1fn within fusions and in memory, packed two to a byte as s4: ptxas accepts the
// kernels for sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/fp4.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/fp4.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// The 9 x 7 codes are 32 bytes; a store changes its half of the byte atomically.
// MLIR-LABEL: gpu.func @f1(
// MLIR-SAME: memref<32xi8>
// MLIR: memref.atomic_rmw andi
// MLIR: memref.atomic_rmw ori
