// XLA's pad-to-static emitter: a fusion whose root is a PadToStatic custom call launches the
// loop emitter's grid over the static output, reads the sizes that follow the dynamic array's
// bound bytes once, stores them from the first thread of the first block, and reads each element
// within the sizes from its dense place (zero elsewhere). ptxas accepts the kernels for sm_80
// and sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/pad_to_static.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing coalescing %S/../../crates/passes/tests/data/codegen/pad_to_static.hlo | FileCheck %s --check-prefix=COALESCING
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/pad_to_static.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/pad_to_static.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/pad_to_static.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: f6 (calls large): block [128, 1, 1], grid [600, 1, 1], unroll 4
// PLAN-LABEL: f0 (calls xla_example): block [10, 1, 1], grid [1, 1, 1], unroll 1
// PLAN-NEXT: thread map: {{.*}} -> (th_x floordiv 5, th_x mod 5)
// PLAN-NEXT: emitter: pad to static (s32[2,<=5]{1,0} read densely, rtK its size K)
// PLAN-NEXT: read map: (d0, d1){rt0, rt1} -> (((d1 + d0 * rt1) floordiv 5) mod 2, (d1 + d0 * rt1) mod 5), {{.*}} d0 - rt0 in [{{.*}}, -1], d1 - rt1 in [{{.*}}, -1]
// PLAN: rt1: p0's dynamic size at
// PLAN: output 1 s32[] stores: scalar: the first thread of the first block stores the size
// PLAN: output 2 s32[] stores: scalar: the first thread of the first block stores the size

// COALESCING: f0 output 0 <- operand 0 s32[2,<=5]{1,0} (map 0): coalesced

// The input is the array's bytes: the data viewed as the bound shape, the sizes after it.
// MLIR-LABEL: gpu.func @f0(
// MLIR-SAME: memref<48xi8>, %{{.*}}: memref<2x5xi32>, %{{.*}}: memref<i32>, %{{.*}}: memref<i32>)
// MLIR: memref.view %{{.*}}[%{{.*}}][] : memref<48xi8> to memref<2x5xi32>
// MLIR: memref.view %{{.*}}[%c40][] : memref<48xi8> to memref<2xi32>
// MLIR: scf.if
// MLIR: memref.store
// MLIR: xla_indexing.loop
// MLIR: scf.if %{{.*}} -> (i32)
// MLIR: } else {
// MLIR: scf.yield %c0_i32 : i32

// PTX-LABEL: .entry f0(
// PTX: ld.global.b32 {{.*}}+40];
// PTX: ld.global.b32 {{.*}}+44];
