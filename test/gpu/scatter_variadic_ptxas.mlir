// Variadic scatters go to the scatter emitter: one thread per update element, landing at one
// index of every output. A combiner that returns the updates is a store per output; unique
// indices a load of every output, the combiner of them all and a store of every result. The
// host copies each operand into its output before the launch. ptxas accepts the kernels for
// sm_80 and sm_90; the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/scatter_variadic.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_variadic.hlo --emit host | FileCheck %s --check-prefix=HOST
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_variadic.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_variadic.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: f1 (calls argmax_elements): block [8, 1, 1], grid [1, 1, 1], unroll 1
// PLAN: emitter: scatter (unique; distributed updates, 1 per thread; the outputs start as parameters 0 and 1)
// PLAN: write map: (th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id]{rt0} -> (rt0)
// PLAN-LABEL: f2 (calls windows)
// PLAN: emitter: scatter (unique; distributed updates, 1 per thread; the outputs start as parameters 0 and 1)
// PLAN: write map: {{.*}}{rt0} -> (rt0 + (th_x floordiv 4) mod 2, th_x mod 4)
// PLAN-LABEL: f3 (calls three_outputs)
// PLAN: emitter: scatter (store; distributed updates, 1 per thread; the outputs start as parameters 0, 1 and 2)
// PLAN-LABEL: f0 (calls store_rows)
// PLAN: emitter: scatter (store; distributed updates, 1 per thread; the outputs start as parameters 0 and 1)

// HOST: gpu.memcpy [[OUT0:%[a-z_0-9]+]], %arg5 : memref<12xf32>, memref<12xf32>
// HOST-NEXT: gpu.memcpy [[OUT1:%[a-z_0-9]+]], %arg6 : memref<12xi32>, memref<12xi32>
// HOST-NEXT: gpu.launch_func @kernels::@f1 {{.*}}, [[OUT0]] : memref<12xf32>, [[OUT1]] : memref<12xi32>)

// PTX-LABEL: .entry f1(
// PTX-NOT: atom.
// PTX: setp.gt.f32
// PTX: st.global.b32
// PTX: st.global.b32
// PTX-LABEL: .entry f2(
// PTX-NOT: atom.
// The negated update added is a subtraction.
// PTX: sub.rn.f16
// PTX: max.s32
// PTX: st.global.b16
// PTX: st.global.b32
// PTX-LABEL: .entry f3(
// PTX-NOT: atom.
// PTX: st.global.b32
// PTX: st.global.b32
// PTX: st.global.b16
// PTX-LABEL: .entry f0(
// PTX-NOT: atom.
// PTX: st.global.b32
// PTX: st.global.b32
