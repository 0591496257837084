// XLA's scatter over distributed indices: many long update slices take a warp each, its lanes
// reading adjacent elements of the slice (two s32 at a time where the slice allows, one
// `ld.global.v2`), every element landed on its own. ptxas accepts the kernels for sm_90; the
// same module runs on the CPU against the evaluator (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/scatter_warps.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_warps.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// PLAN-LABEL: f1 (calls store_rows): block [128, 1, 1], grid [175, 1, 1], unroll 1
// PLAN-NEXT: thread map: {{.*}} -> (bl_x * 4 + th_x floordiv 32, th_x mod 32)
// PLAN-NEXT: emitter: scatter (store; distributed indices: a warp per update slice, 1 adjacent elements per lane;
// PLAN-LABEL: f0 (calls add_windows): block [128, 1, 1], grid [150, 1, 1], unroll 2
// PLAN: emitter: scatter (atomic add; distributed indices: a warp per update slice, 2 adjacent elements per lane;

// PTX-LABEL: .entry f0(
// PTX: ld.global.v2.b32
// PTX: atom.global.add.u32
