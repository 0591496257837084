// xla-indexing-coalescing on the kernels that `xla-indexing compile` makes says what
// `xla-indexing coalescing` says of the HLO module: the same counts and the same reason (the
// second operand's layout {0,1} becomes a memref with strides [1, 100], named as that layout
// again).

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing compile %S/../../examples/hlo/layouts_add.hlo --emit mlir \
// RUN:   | mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-launch-grid, xla-indexing-coalescing)' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing coalescing %S/../../examples/hlo/layouts_add.hlo | FileCheck %s --check-prefix=HLO

// MLIR: remark: xla-indexing-coalescing: coalesced, 1 transactions, ideal 1
// MLIR-NEXT: memref.load %arg0[%{{.*}}] : memref<100x200xf32>
// MLIR: remark: xla-indexing-coalescing: NOT coalesced, 32 transactions, ideal 1; why: lanes step 1 along dimension 1, which is not minor in layout {0,1} (stride 100 elements), so neighbouring lanes are 400 bytes apart: 32 transactions where 1 would do (32.0x)
// MLIR-NEXT: memref.load %arg1[%{{.*}}] : memref<100x200xf32, strided<[1, 100]>>

// HLO: operand 0 f32[100,200]{1,0} (map 0): coalesced, 1 transactions, ideal 1
// HLO: operand 1 f32[100,200]{0,1} (map 0): NOT coalesced, 32 transactions, ideal 1
// HLO: why: lanes step 1 along dimension 1, which is not minor in layout {0,1} (stride 100 elements), so neighbouring lanes are 400 bytes apart: 32 transactions where 1 would do (32.0x)
