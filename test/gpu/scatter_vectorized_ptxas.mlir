// The scatter emitter reads a thread's update elements as one vector where a window holds
// them (XLA's scatter over distributed updates: the loop emitter's unroll factor, as far as it
// divides a window), then lands each element on its own: an atomic add per element, or a
// compare-and-swap loop per element. ptxas accepts the kernels for sm_90; the same module runs
// on the CPU against the evaluator (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/../../crates/passes/tests/data/codegen/scatter_vectorized.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/scatter_vectorized.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin

// PLAN-LABEL: f0 (calls add_rows): block [128, 1, 1], grid [528, 1, 1], unroll 4
// PLAN: reads: vector of 4 (16 bytes aligned)
// PLAN-LABEL: f1 (calls max_rows): block [128, 1, 1], grid [528, 1, 1], unroll 4
// PLAN: reads: vector of 4 (16 bytes aligned)

// PTX-LABEL: .entry f0(
// PTX: ld.global.v4.b32
// PTX-COUNT-4: atom.global.add.u32
// PTX-LABEL: .entry f1(
// PTX: ld.global.v4.b32
// PTX: atom.{{.*}}cas.b32
