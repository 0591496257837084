// The forms of XLA's ops and attributes that the kernels of Inputs/ do not all show, printed back
// as they are read: #xtile.layout as a memref layout, a tile with unit dimensions dropped, an
// accumulating insert, opaque entry arguments, the other backend kinds, a pure call with
// several results, XLA's layout encoding of tensors (a builtin dense attribute, nothing to add).

// RUN: mlir-opt %plugins %s | FileCheck %s
// RUN: mlir-opt %plugins %s | mlir-opt %plugins | FileCheck %s
// RUN: mlir-opt %plugins %s --mlir-print-op-generic | mlir-opt %plugins | FileCheck %s

// CHECK-LABEL: xtile.entry_func @tiles
// CHECK-SAME: (%[[IN:.*]]: memref<64x512xf32, #xtile.layout<[1, 0]>>, %[[OUT:.*]]: memref<512xf32>, %[[SCALE:.*]]: f32, %[[TID:.*]]: index) attributes {num_opaque_args = 1 : i32}
// CHECK-NEXT: %[[T:.*]] = xtile.extract %[[IN]][%[[TID]], %[[TID]]] [1, 8] [1, 2] : memref<64x512xf32, #xtile.layout<[1, 0]>> -> tensor<8xf32>
// CHECK-NEXT: xtile.insert %[[T]] into %[[OUT]][%[[TID]]] [8] [1] : tensor<8xf32> -> memref<512xf32> {accumulate}
// CHECK-NEXT: xtile.return
xtile.entry_func @tiles(%in: memref<64x512xf32, #xtile.layout<[1, 0]>>, %out: memref<512xf32>, %scale: f32, %tid: index) attributes {num_opaque_args = 1 : i32} {
  %t = xtile.extract %in[%tid, %tid] [1, 8] [1, 2] : memref<64x512xf32, #xtile.layout<[1, 0]>> -> tensor<8xf32>
  xtile.insert %t into %out[%tid] [8] [1] : tensor<8xf32> -> memref<512xf32> {accumulate}
  xtile.return
}

// CHECK-LABEL: func.func @gpu_kernel
// CHECK-SAME: attributes {xla.backend_kind = #xla.backend_kind<gpu>, xla.entry}
// CHECK-NEXT: xla.workgroup_id z {xla.range = [0 : index, 15 : index]}
// CHECK-NEXT: %[[R:.*]]:2 = xla.pure_call @pair(%{{.*}}, %{{.*}}) : (tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>, index) -> (f32, f32)
// CHECK: func.func private @pair(%{{.*}}: tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>, %{{.*}}: index {xla.range = [0 : index, 5 : index]}) -> (f32, f32)
// CHECK-SAME: attributes {xla.backend_kind = #xla.backend_kind<tpu>}
func.func @gpu_kernel(%t: tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>, %i: index) -> (f32, f32) attributes {xla.backend_kind = #xla.backend_kind<gpu>, xla.entry} {
  %w = xla.workgroup_id z {xla.range = [0 : index, 15 : index]}
  %r:2 = xla.pure_call @pair(%t, %i) : (tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>, index) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}
func.func private @pair(%t: tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>, %i: index {xla.range = [0 : index, 5 : index]}) -> (f32, f32) attributes {xla.backend_kind = #xla.backend_kind<tpu>} {
  %0:2 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 3, d0 mod 3), domain: d0 in [0, 5]">(%i)
  %1 = tensor.extract %t[%0#0, %0#1] : tensor<2x3xf32, dense<[0, 1]> : tensor<2xi64>>
  return %1, %1 : f32, f32
}

// Lowered: the call with two results is inlined and @pair erased; one division serves both the
// quotient and the remainder; the tiles are left to XLA's tile passes.
// RUN: mlir-opt %plugins --pass-pipeline='builtin.module(xla-indexing-lower-xla)' %s | FileCheck %s --check-prefix=LOWER
// LOWER-LABEL: xtile.entry_func @tiles
// LOWER: xtile.extract
// LOWER-LABEL: func.func @gpu_kernel
// LOWER: %[[Q:.*]] = arith.divui %[[I:.*]], %c3_i32 : i32
// LOWER: %[[QQ:.*]] = arith.muli %[[Q]], %c3_i32 : i32
// LOWER-NEXT: arith.subi %[[I]], %[[QQ]] : i32
// LOWER-NOT: arith.divui
// LOWER-NOT: arith.remui
// LOWER: return %[[E:.*]], %[[E]] : f32, f32
// LOWER-NOT: @pair
