// XLA's input-slices emitter: a fusion whose outputs are all slices with unit strides of
// operands of one shape launches over that shape (a thread per element, two per byte of s4),
// computes each sliced operand once per element and stores it into every slice whose window
// holds it, under a check of the dimensions the window cuts only. ptxas accepts the kernels for
// sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/input_slices.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/input_slices.hlo --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/input_slices.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// PLAN-LABEL: f1 (calls windows): block [128, 1, 1], grid [16, 1, 1], unroll 1
// PLAN-NEXT: thread map: {{.*}} -> ((th_x + bl_x * 128) floordiv 50, (th_x - bl_x * 22) mod 50)
// PLAN-NEXT: emitter: input slices
// PLAN-NEXT: output 0 write map: {{.*}}th_x + bl_x * 128 in [0, 999]
// PLAN-NEXT: output 1 write map: {{.*}} -> ((th_x + bl_x * 128) floordiv 50 - 20, (th_x - bl_x * 22) mod 50 - 10)
// PLAN-LABEL: f3 (calls empty)
// PLAN: output 0 write map: KNOWN EMPTY
// PLAN-LABEL: f4 (calls packed): block [32, 1, 1], grid [1, 1, 1], unroll 2
// PLAN: emitter: input slices

// The exponential is computed once for the three windows; the first slice cuts rows only.
// MLIR-LABEL: gpu.func @f1(
// MLIR: math.exp
// MLIR: scf.if
// MLIR-NOT: math.exp
// MLIR-LABEL: gpu.func @f2(

// PTX-LABEL: .entry f1(
// PTX-COUNT-3: st.global.b32
// PTX-LABEL: .entry f2(
