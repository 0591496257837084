// xla-indexing-lower-xtile on the tiled kernels of the real dumps in Inputs/, after
// xla-indexing-lower-xla: the entry function is a func.func, each tile a vector read and
// written whole (past the memref's end masked), StableHLO's ops on tiles vector ops; upstream's
// passes then take the kernel to LLVM IR. crates/passes/tests/lower_xtile.rs runs such kernels
// and compares every element; `cargo xtask bench xla` counts the divisions left after opt -O3.

// RUN: mlir-opt %plugins --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-lower-xla, xla-indexing-lower-xtile)' %S/Inputs/tiled.transpose_copy_fusion.mlir | FileCheck %s --check-prefix=TRANSPOSE
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla, xla-indexing-lower-xtile)' %S/Inputs/tiled.wrapped_exponential.mlir | FileCheck %s --check-prefix=EXP
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla, xla-indexing-lower-xtile, convert-vector-to-scf{full-unroll=true}, lower-affine, convert-scf-to-cf, expand-strided-metadata, convert-math-to-llvm, convert-math-to-libm, convert-vector-to-llvm, convert-to-llvm, reconcile-unrealized-casts)' %S/Inputs/tiled.wrapped_exponential.mlir | mlir-translate --allow-unregistered-dialect --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// TRANSPOSE-NOT: xtile.
// TRANSPOSE-NOT: stablehlo.
// TRANSPOSE-LABEL: func.func @transpose_copy_fusion(
// TRANSPOSE-SAME: %{{.*}}: memref<2x3x4x5x6xf32>, %{{.*}}: memref<6x4x2x5x3xf32>, %{{.*}}: index)
// TRANSPOSE: scf.for
// TRANSPOSE: vector.transfer_read {{.*}} : memref<2x3x4x5x6xf32>, vector<1x4x1x1x8xf32>
// TRANSPOSE-NEXT: vector.transpose %{{.*}}, [4, 2, 0, 3, 1] : vector<1x4x1x1x8xf32> to vector<8x1x1x1x4xf32>
// TRANSPOSE-NEXT: vector.transfer_write {{.*}} : vector<8x1x1x1x4xf32>, memref<6x4x2x5x3xf32>
// TRANSPOSE: return

// EXP-LABEL: func.func @wrapped_exponential(
// EXP: vector.transfer_read {{.*}} : memref<64x128xf32>, vector<1x8xf32>
// EXP-NEXT: math.exp %{{.*}} : vector<1x8xf32>
// EXP-NEXT: vector.transfer_write

// LLVM: define void @wrapped_exponential(
// LLVM: udiv i32 %{{.*}}, 16
// LLVM-NOT: {{udiv|urem|sdiv|srem}}
// LLVM: ret void
