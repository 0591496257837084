// Elements narrower than a byte (s4, u4) are packed two to a byte as XLA packs them: their
// buffers are bytes (`memref<18xi8>` for s4[5,7]), a load reads the element's byte and shifts
// its half down, and a store changes only its half of the byte with an atomic and and or on
// the word that holds it, since the thread storing the other half may run at the same time. A
// scatter combining s4 updates swaps the whole byte in a compare-and-swap loop; one combining
// f16 updates swaps 16 bits (within the 32-bit word). ptxas accepts the kernels for sm_80 and
// sm_90, and the same module runs on the CPU against the evaluator
// (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/packed.hlo --emit host | FileCheck %s --check-prefix=HOST
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/packed.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/packed.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// HOST: gpu.alloc () {xla_indexing.buffer = "f0#0", xla_indexing.bytes = 18 : i64} : memref<18xi8>
// HOST: gpu.alloc () {xla_indexing.buffer = "f0#2", xla_indexing.bytes = 140 : i64} : memref<5x7xi32>
// HOST: gpu.launch_func @kernels::@f0 {{.*}} args(%arg0 : memref<18xi8>, %arg1 : memref<18xi8>,

// PTX-LABEL: .entry f0(
// PTX: ld.global.b8
// PTX: atom.global.and.b32
// PTX: atom.global.or.b32
// PTX-LABEL: .entry f5(
// PTX: atom.{{.*}}cas.b32
// PTX-LABEL: .entry f4(
// PTX: ld.b8
// PTX: atom.{{.*}}cas.b32
