// Scatters go to the scatter emitter: one thread per update element, the update dropped where
// its window does not fit at its start; an add of f32 is atom.global.add.f32, an integer
// combiner without a hardware atomic a compare-and-swap loop (atom.cas), a float maximum or
// minimum a compare-and-swap loop on the float's bits (atom.gpu.cas.b32, .b64), a set a plain
// store, unique indices a load and a store. The host copies the operand into the output before the
// launch. ptxas accepts the kernels for sm_80 and sm_90.

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/Inputs/scatters.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/Inputs/scatters.hlo --emit host | FileCheck %s --check-prefix=HOST
// RUN: %xla-indexing compile %S/Inputs/scatters.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/Inputs/scatters.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: f0 (calls add_rows): block [20, 1, 1], grid [1, 1, 1], unroll 1
// PLAN: emitter: scatter (atomic add; distributed updates, 1 per thread; the output starts as parameter 0)
// PLAN: write map: (th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id]{rt0} -> (rt0, th_x mod 4)
// PLAN: rt0: p1 at (th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x floordiv 4, 0)
// PLAN-LABEL: f1 (calls set_rows)
// PLAN: emitter: scatter (store; distributed updates, 1 per thread; the output starts as parameter 0)
// PLAN-LABEL: f2 (calls max_elements)
// PLAN: emitter: scatter (compare-and-swap; distributed updates, 1 per thread; the output starts as parameter 0)
// PLAN-LABEL: f3 (calls unique_mul)
// PLAN: emitter: scatter (unique; distributed updates, 1 per thread; the output starts as parameter 0)

// HOST: gpu.memcpy [[OUT:%[a-z_0-9]+]], %arg0 : memref<16x4xf32>, memref<16x4xf32>
// HOST-NEXT: gpu.launch_func @kernels::@f0 {{.*}} args(%arg0 : memref<16x4xf32>, %arg1 : memref<5x1xi32>, %arg2 : memref<5x1x4xf32>, [[OUT]] : memref<16x4xf32>)

// PTX-LABEL: .entry f6(
// PTX: atom.acq_rel.gpu.cas.b32
// PTX-LABEL: .entry f7(
// PTX: atom.acq_rel.gpu.cas.b64
// PTX-LABEL: .entry f0(
// PTX: atom.global.add.f32
// PTX-LABEL: .entry f1(
// PTX-NOT: atom.
// PTX: st.global.b32
// PTX-LABEL: .entry f2(
// PTX: atom.{{.*}}cas.b32
// PTX-LABEL: .entry f3(
// PTX-NOT: atom.
// PTX: ld.global
// PTX: st.global.b32
// PTX-LABEL: .entry f4(
// PTX: atom.global.add.f32
// PTX-LABEL: .entry f5(
// PTX: atom.{{.*}}cas.b32
