// Every example and benchmark module compiles to PTX for sm_90 that ptxas accepts: .reqntid
// without .maxntid, and no 64-bit integer division or remainder (all their index values fit in
// 32 bits).

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing compile %S/../../examples/hlo/softmax.hlo --emit ptx -o %t/softmax.ptx
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t/softmax.ptx
// RUN: %ptxas -arch=sm_90 %t/softmax.ptx -o %t/softmax.cubin
// RUN: %xla-indexing compile %S/../../examples/hlo/unrolled_f16.hlo --emit ptx -o %t/f16.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/f16.ptx
// RUN: %ptxas -arch=sm_90 %t/f16.ptx -o %t/f16.cubin
// RUN: %xla-indexing compile %S/../../bench/gpu/slices_pads.hlo --emit ptx -o %t/slices.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/slices.ptx
// RUN: %ptxas -arch=sm_90 %t/slices.ptx -o %t/slices.cubin
// RUN: %xla-indexing compile %S/../../bench/gpu/reductions.hlo --emit ptx -o %t/reductions.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/reductions.ptx
// RUN: %ptxas -arch=sm_90 -v %t/reductions.ptx -o %t/reductions.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %xla-indexing compile %S/../../bench/gpu/reshapes.hlo --emit ptx -o %t/reshapes.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/reshapes.ptx
// RUN: %ptxas -arch=sm_90 %t/reshapes.ptx -o %t/reshapes.cubin

// SOFTMAX: .target sm_90
// SOFTMAX-NOT: .maxntid
// SOFTMAX: .visible .entry subtract_exponential_fusion(
// SOFTMAX-NOT: .maxntid
// SOFTMAX: .reqntid 128, 1, 1
// SOFTMAX-NOT: {{(div|rem)\.[su]64}}
// SOFTMAX-NOT: __nv_expf

// PTX: .target sm_90
// PTX-NOT: .maxntid
// PTX: .reqntid
// PTX-NOT: .maxntid
// PTX-NOT: {{(div|rem)\.[su]64}}

// PTXAS-DAG: Compiling entry function 'row_sum' for 'sm_90'
// PTXAS-DAG: Compiling entry function 'column_sum' for 'sm_90'
