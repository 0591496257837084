// Complex elements (c64, c128) are `complex<f32>` and `complex<f64>` values in memrefs of
// them: a load or store moves both parts, the arithmetic works on the parts (complex.re,
// complex.im, complex.create) with XLA's formulas, and a reduction shuffles each part as its
// own 32-bit values (two per f64 part). ptxas accepts the kernels for sm_80 and sm_90, and the
// same module runs on the CPU against the evaluator (crates/passes/tests/codegen_exec.rs).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/complex.hlo --emit host | FileCheck %s --check-prefix=HOST
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/complex.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/../../crates/passes/tests/data/codegen/complex.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// HOST: gpu.alloc () {xla_indexing.buffer = "f0#0", xla_indexing.bytes = 280 : i64} : memref<5x7xcomplex<f32>>
// HOST: gpu.launch_func @kernels::@f0 {{.*}} args(%arg0 : memref<5x7xf32>, %arg1 : memref<5x7xf32>, %arg2 : memref<5x7xcomplex<f32>>
// HOST: gpu.alloc () {xla_indexing.buffer = "f2#0", xla_indexing.bytes = 2112 : i64} : memref<4x33xcomplex<f64>>

// PTX-LABEL: .entry f4(
// PTX: ld.global.b32
// PTX: shfl.sync.bfly.b32
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry f8(
// PTX: ld.global.b64
// PTX: bar.sync
// PTX: ld.shared
