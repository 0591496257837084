// xla-indexing-simplify is op-agnostic: it works on a whole module, a gpu.module or a gpu.func.

// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(xla-indexing-simplify)' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(gpu.module(xla-indexing-simplify))' | FileCheck %s
// RUN: mlir-opt %s %plugins --pass-pipeline='builtin.module(gpu.module(gpu.func(xla-indexing-simplify)))' | FileCheck %s

// CHECK-LABEL: gpu.func @kernel
// CHECK-NEXT: %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[TX]]]
// CHECK-NEXT: memref.store %[[V]], %{{.*}}[%[[TX]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%buf: memref<128xf32>) kernel {
      %tx = gpu.thread_id x
      %i = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (th_x mod 128), domain: th_x in [0, 127]">(%tx) : index
      %v = memref.load %buf[%i] : memref<128xf32>
      memref.store %v, %buf[%i] : memref<128xf32>
      gpu.return
    }
  }
}
