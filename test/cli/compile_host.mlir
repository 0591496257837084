// `xla-indexing compile --emit host`: the kernels of a module of three fusions and a host
// function that launches each once, in the entry's order, with the grid and block that
// `xla-indexing launch` reports, on its parameters, one gpu.alloc per intermediate fusion
// result and the root's leaves as out-parameters; the bitcast is a view of the buffer it
// reads. The output verifies, and upstream's host lowering (gpu-async-region, gpu-to-llvm) turns
// it into GPU runtime calls. An entry instruction that is not a fusion is a located error.

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing launch %S/Inputs/host_chain.hlo > %t.launch
// RUN: %xla-indexing compile %S/Inputs/host_chain.hlo --emit host -q > %t.host
// RUN: cat %t.launch %t.host | FileCheck %s
// RUN: mlir-opt %plugins %t.host | FileCheck %s --check-prefix=HOST
// RUN: mlir-opt %plugins %t.host --pass-pipeline='builtin.module(xla-indexing-lower-apply, func.func(gpu-async-region), gpu.module(convert-scf-to-cf, lower-affine, convert-gpu-to-nvvm, reconcile-unrealized-casts), gpu-to-llvm, reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LOWERED
// RUN: %expect-exit 1 %xla-indexing compile %S/../../examples/hlo/softmax.hlo --emit host
// RUN: not %xla-indexing compile %S/../../examples/hlo/softmax.hlo --emit host 2>&1 | FileCheck %s --check-prefix=ENTRYOP
// RUN: %expect-exit 2 %xla-indexing compile %S/Inputs/host_chain.hlo --emit host --fusion negate_fusion

// What `launch` reports for each kernel:
// CHECK: negate_fusion (calls fused_negate): block [[[B0:[0-9]+]], 1, 1], grid [[[G0:[0-9]+]], 1, 1]
// CHECK: add_multiply (calls fused_add_multiply): block [[[B1:[0-9]+]], 1, 1], grid [[[G1:[0-9]+]], 1, 1]
// CHECK: subtract_fusion (calls fused_subtract): block [[[B2:[0-9]+]], 1, 1], grid [[[G2:[0-9]+]], 1, 1]
// The kernels, then the host function: the parameters x and y, then the root's two leaves.
// CHECK: gpu.module @kernels {
// CHECK: gpu.func @negate_fusion(%{{.*}}: memref<16x32xf32>, %{{.*}}: memref<16x32xf32>) kernel
// CHECK: gpu.func @add_multiply(%{{.*}}: memref<512xf32>, %{{.*}}: memref<512xf32>, %{{.*}}: memref<512xf32>, %{{.*}}: memref<512xf32>) kernel
// CHECK: gpu.func @subtract_fusion(%{{.*}}: memref<512xf32>, %{{.*}}: memref<512xf32>, %{{.*}}: memref<8x512xf32>) kernel
// CHECK: func.func @main(%[[X:.*]]: memref<16x32xf32>, %[[Y:.*]]: memref<512xf32>, %[[OUT0:.*]]: memref<8x512xf32>, %[[OUT1:.*]]: memref<16x32xf32>) {
// The root's second leaf is negate_fusion's result: it is written in place, and the bitcast
// reads it through a view.
// CHECK: gpu.launch_func  @kernels::@negate_fusion blocks in (%c[[G0]], %c1, %c1) threads in (%c[[B0]], %c1, %c1)  args(%[[X]] : memref<16x32xf32>, %[[OUT1]] : memref<16x32xf32>)
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[OUT1]] to offset: [0], sizes: [512], strides: [1] : memref<16x32xf32> to memref<512xf32>
// CHECK: %[[SUM:.*]] = gpu.alloc  () {xla_indexing.buffer = "add_multiply#0", xla_indexing.bytes = 2048 : i64} : memref<512xf32>
// CHECK: %[[PRODUCT:.*]] = gpu.alloc  () {xla_indexing.buffer = "add_multiply#1", xla_indexing.bytes = 2048 : i64} : memref<512xf32>
// CHECK: gpu.launch_func  @kernels::@add_multiply blocks in (%c[[G1]], %c1, %c1) threads in (%c[[B1]], %c1, %c1)  args(%[[FLAT]] : memref<512xf32>, %[[Y]] : memref<512xf32>, %[[SUM]] : memref<512xf32>, %[[PRODUCT]] : memref<512xf32>)
// The operands in the fusion's order (product, then sum), the result into the first out-parameter:
// CHECK: gpu.launch_func  @kernels::@subtract_fusion blocks in (%c[[G2]], %c1, %c1) threads in (%c[[B2]], %c1, %c1)  args(%[[PRODUCT]] : memref<512xf32>, %[[SUM]] : memref<512xf32>, %[[OUT0]] : memref<8x512xf32>)
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.dealloc  %[[SUM]]
// CHECK: gpu.dealloc  %[[PRODUCT]]
// CHECK: return

// HOST: func.func @main(
// HOST-COUNT-3: gpu.launch_func

// The two buffers allocated and freed through the GPU runtime, the three launches on LLVM values:
// LOWERED: llvm.func @main(
// LOWERED-NOT: gpu.alloc
// LOWERED: gpu.launch_func {{.*}}@kernels::@negate_fusion {{.*}} : i64 args(%{{.*}} : !llvm.ptr,
// LOWERED-COUNT-2: llvm.call @mgpuMemAlloc
// LOWERED: gpu.launch_func {{.*}}@kernels::@add_multiply {{.*}} : i64 args(%{{.*}} : !llvm.ptr,
// LOWERED: gpu.launch_func {{.*}}@kernels::@subtract_fusion {{.*}} : i64 args(%{{.*}} : !llvm.ptr,
// LOWERED-COUNT-2: llvm.call @mgpuMemFree
// LOWERED-NOT: gpu.dealloc

// ENTRYOP: softmax.hlo:87:3: error: constant.4: --emit host cannot launch `constant` in the entry computation
