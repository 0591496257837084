// xla-indexing-lower-fusion generates the GPU kernel of every xla_indexing.fusion with the HLO
// code generator: a gpu.func in gpu.module @xla_indexing_kernels (at the end of the module,
// which gets gpu.container_module), whose threads read every parameter through apply_indexing
// of the maps of its emitter (loop, reduction or transpose); the fusion stays, marked with its
// kernel.

// RUN: mlir-opt %s %plugins --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-fusion)' | FileCheck %s
// Running it again changes nothing: marked fusions are left alone.
// RUN: mlir-opt %s %plugins --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(xla-indexing-lower-fusion, xla-indexing-lower-fusion)' | FileCheck %s

// The fusion of examples/hlo/transpose_exp_add.hlo as `xla-indexing import` writes it, at
// 16 x 32 (XLA's own 10 x 20 is too thin for the transpose emitter).
// CHECK-LABEL: module @jit_f attributes {gpu.container_module}
// CHECK: func.func @main.1
// CHECK: xla_indexing.fusion(%{{.*}}, %{{.*}}) {kind = "kLoop", name = "fused_computation", xla_indexing.kernel = @xla_indexing_kernels::@fused_computation}
// CHECK: "stablehlo.exponential"
// CHECK: xla_indexing.yield
// CHECK: gpu.module @xla_indexing_kernels {
// The transpose emitter writes it: blocks of 128 threads read the exponentiated operand
// coalesced into a shared tile (row chunk_id * 4 + th_x floordiv 32, column th_x mod 32), a
// barrier, the tile read transposed and added to the reshaped operand.
// CHECK-NEXT: gpu.func @fused_computation(%[[Y:.*]]: memref<512xf32>, %[[X:.*]]: memref<16x32xf32>, %[[OUT:.*]]: memref<32x16xf32>) workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32), domain: {{.*}}">}
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: xla_indexing.loop ({{.*}})[%[[C:.*]], %{{.*}}] -> ({{.*}}) in
// CHECK-NEXT: %[[XI:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32), domain: {{.*}}">(%[[TX]], %[[C]])
// CHECK-NEXT: %[[XV:.*]] = memref.load %[[X]][%[[XI]]#0, %[[XI]]#1] : memref<16x32xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[XV]] : f32
// CHECK-NEXT: %[[SI:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32), domain: {{.*}}">(%[[TX]], %[[C]])
// CHECK-NEXT: memref.store %[[E]], %[[TILE]][%[[SI]]#0, %[[SI]]#1]
// CHECK: gpu.barrier
// CHECK-NEXT: xla_indexing.loop ({{.*}})[%[[C2:.*]], %{{.*}}] -> (%[[I:.*]], %[[J:.*]]) in
// CHECK-NEXT: %[[LI:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (th_x mod 32, chunk_id * 4 + th_x floordiv 32), domain: {{.*}}">(%[[TX]], %[[C2]])
// CHECK-NEXT: %[[T:.*]] = memref.load %[[TILE]][%[[LI]]#0, %[[LI]]#1]
// CHECK-NEXT: %[[YI:.*]] = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (th_x + chunk_id * 64 - (th_x floordiv 32) * 16), domain: {{.*}}">(%[[TX]], %[[C2]])
// CHECK-NEXT: %[[YV:.*]] = memref.load %[[Y]][%[[YI]]] : memref<512xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[T]], %[[YV]] : f32
// CHECK-NEXT: memref.store %[[S]], %[[OUT]][%[[I]], %[[J]]] : memref<32x16xf32>
// CHECK: gpu.return
// CHECK-NOT: gpu.func
module @jit_f {
  func.func @main.1(%x.1: tensor<16x32xf32>, %y.1: tensor<512xf32>) -> (tensor<32x16xf32>) {
    %bitcast_add_fusion = xla_indexing.fusion (%y.1, %x.1) {name = "fused_computation", kind = "kLoop"} : (tensor<512xf32>, tensor<16x32xf32>) -> (tensor<32x16xf32>) {
    ^bb0(%param_0.1: tensor<512xf32>, %param_1.4: tensor<16x32xf32>):
      %exp.2 = "stablehlo.exponential"(%param_1.4) : (tensor<16x32xf32>) -> tensor<16x32xf32>
      %transpose.4 = "stablehlo.transpose"(%exp.2) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
      %bitcast.1 = "stablehlo.reshape"(%param_0.1) : (tensor<512xf32>) -> tensor<32x16xf32>
      %add.0 = "stablehlo.add"(%transpose.4, %bitcast.1) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
      xla_indexing.yield %add.0 : tensor<32x16xf32>
    }
    return %bitcast_add_fusion : tensor<32x16xf32>
  }
}

// -----

// A reduction goes to the reduction emitter and keeps its reducer: a warp reduces each row
// (rows of 32), folding its elements into the maximum from the constant init (-inf), then
// five shuffle steps; the row's first thread stores.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: xla_indexing.fusion(%{{.*}}) {name = "row_max", xla_indexing.kernel = @xla_indexing_kernels::@row_max}
// CHECK: gpu.module @xla_indexing_kernels {
// CHECK-NEXT: gpu.func @row_max(%[[IN:.*]]: memref<8x32xf32>, %[[OUT:.*]]: memref<8xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [256, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x floordiv 32, th_x mod 32), domain: {{.*}}">}
// CHECK: %[[INIT:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[MAX:.*]] = xla_indexing.loop ({{.*}})[{{.*}}] -> ({{.*}}) in #xla_indexing.map<"{{.*}}"> iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT: %[[VI:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (th_x floordiv 32, th_x mod 32), domain: th_x in [0, 255]">(%{{.*}})
// CHECK-NEXT: %[[V:.*]] = memref.load %[[IN]][%[[VI]]#0, %[[VI]]#1] : memref<8x32xf32>
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: xla_indexing.yield %[[M]] : f32
// CHECK: gpu.shuffle xor %[[MAX]], %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: %[[ROW:.*]] = arith.maximumf
// CHECK-NEXT: xla_indexing.loop ({{.*}}) -> (%[[O:.*]]) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x floordiv 32), domain: {{.*}}, th_x mod 32 in [0, 0]">
// CHECK-NEXT: memref.store %[[ROW]], %[[OUT]][%[[O]]] : memref<8xf32>
func.func @row_max(%in: tensor<8x32xf32>) -> tensor<8xf32> {
  %r = xla_indexing.fusion (%in) {name = "row_max"} : (tensor<8x32xf32>) -> tensor<8xf32> {
  ^bb0(%p: tensor<8x32xf32>):
    %init = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %max = "stablehlo.reduce"(%p, %init) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    xla_indexing.yield %max : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Two results give a kernel with two outputs; a splat constant is its value broadcast, iota
// its index, and a broadcast_in_dim of a size-1 dimension reads element 0. Kernel names are
// unique in the gpu.module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: xla_indexing.fusion(%{{.*}}) {name = "two.outputs", xla_indexing.kernel = @xla_indexing_kernels::@two_outputs}
// CHECK: xla_indexing.fusion(%{{.*}}) {name = "two.outputs", xla_indexing.kernel = @xla_indexing_kernels::@two_outputs_1}
// CHECK: gpu.module @xla_indexing_kernels {
// CHECK-NEXT: gpu.func @two_outputs(%[[IN:.*]]: memref<1x16xi32>, %[[OUT0:.*]]: memref<4x16xi32>, %[[OUT1:.*]]: memref<4x16xi32>) kernel
// CHECK: xla_indexing.loop ({{.*}}){{.*}} -> (%[[I:.*]], %[[J:.*]]) in
// CHECK-NEXT: %[[VI:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (0, th_x mod 16), domain: th_x in [0, 63]">
// CHECK-NEXT: %[[V:.*]] = memref.load %[[IN]][%[[VI]]#0, %[[VI]]#1] : memref<1x16xi32>
// CHECK-NEXT: %[[ROW:.*]] = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (th_x floordiv 16), domain: th_x in [0, 63]">
// CHECK-NEXT: %[[ROW64:.*]] = arith.index_cast %[[ROW]] : index to i64
// CHECK-NEXT: %[[IOTA:.*]] = arith.trunci %[[ROW64]] : i64 to i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[V]], %[[IOTA]] : i32
// CHECK-NEXT: memref.store %[[SUM]], %[[OUT0]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[PRODUCT:.*]] = arith.muli %[[V]], %[[TWO]] : i32
// CHECK-NEXT: memref.store %[[PRODUCT]], %[[OUT1]][%[[I]], %[[J]]]
// CHECK: gpu.func @two_outputs_1(
func.func @two_outputs(%in: tensor<1x16xi32>) -> (tensor<4x16xi32>, tensor<4x16xi32>) {
  %r:2 = xla_indexing.fusion (%in) {name = "two.outputs"} : (tensor<1x16xi32>) -> (tensor<4x16xi32>, tensor<4x16xi32>) {
  ^bb0(%p: tensor<1x16xi32>):
    %b = "stablehlo.broadcast_in_dim"(%p) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<4x16xi32>
    %iota = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x16xi32>
    %two = "stablehlo.constant"() <{value = dense<2> : tensor<4x16xi32>}> : () -> tensor<4x16xi32>
    %sum = "stablehlo.add"(%b, %iota) : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
    %product = "stablehlo.multiply"(%b, %two) : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
    xla_indexing.yield %sum, %product : tensor<4x16xi32>, tensor<4x16xi32>
  }
  %s:2 = xla_indexing.fusion (%in) {name = "two.outputs"} : (tensor<1x16xi32>) -> (tensor<4x16xi32>, tensor<4x16xi32>) {
  ^bb0(%p: tensor<1x16xi32>):
    %b = "stablehlo.broadcast_in_dim"(%p) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<4x16xi32>
    xla_indexing.yield %b, %b : tensor<4x16xi32>, tensor<4x16xi32>
  }
  return %r#0, %s#1 : tensor<4x16xi32>, tensor<4x16xi32>
}

// -----

// A module without fusions is left as it is.
// CHECK-LABEL: func.func @no_fusion
// CHECK-NOT: gpu.module
// CHECK-NOT: gpu.container_module
func.func @no_fusion(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = "stablehlo.exponential"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// A gpu.module @xla_indexing_kernels already there gets the new kernels, named apart from its
// own.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xla_indexing_kernels {
// CHECK-NEXT: gpu.func @negate() kernel {
// CHECK: gpu.func @negate_1(%[[IN:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) kernel
// CHECK: arith.negf
// CHECK: xla_indexing.fusion(%{{.*}}) {name = "negate", xla_indexing.kernel = @xla_indexing_kernels::@negate_1}
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @xla_indexing_kernels {
    gpu.func @negate() kernel {
      gpu.return
    }
  }
  func.func @negate(%a: tensor<4xf32>) -> tensor<4xf32> {
    %r = xla_indexing.fusion (%a) {name = "negate"} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%p: tensor<4xf32>):
      %n = "stablehlo.negate"(%p) : (tensor<4xf32>) -> tensor<4xf32>
      xla_indexing.yield %n : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}

// -----

// Argmax, a reduce of two inputs, goes to the reduction emitter: both accumulators are carried
// through the loop and every shuffle step (rows of 4: two steps), with a flag saying whether
// they met an element (shuffled as an i32), since the initial values of a variadic reducer are
// not known identities: they are applied once to what the row's group met, and the row's first
// thread stores.
// CHECK-LABEL: func.func @argmax(
// CHECK: gpu.func @argmax(
// CHECK: %[[R:.*]]:3 = xla_indexing.loop {{.*}} iter_args({{.*}}) -> (f32, i32, i1) {
// CHECK: gpu.shuffle xor %[[R]]#0, {{.*}} : f32
// CHECK: gpu.shuffle xor %[[R]]#1, {{.*}} : i32
// CHECK: gpu.shuffle xor {{.*}} : i32
// CHECK-NEXT: arith.trunci {{.*}} : i32 to i1
// CHECK: arith.select
// CHECK: xla_indexing.loop
// CHECK-NEXT: memref.store {{.*}} : memref<8xf32>
// CHECK-NEXT: memref.store {{.*}} : memref<8xi32>
func.func @argmax(%a: tensor<8x4xf32>, %i: tensor<8x4xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = xla_indexing.fusion (%a, %i) {name = "argmax"} : (tensor<8x4xf32>, tensor<8x4xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%p: tensor<8x4xf32>, %q: tensor<8x4xi32>):
    %x = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %y = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %m:2 = "stablehlo.reduce"(%p, %q, %x, %y) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a0: tensor<f32>, %b0: tensor<i32>, %a1: tensor<f32>, %b1: tensor<i32>):
      %gt = "stablehlo.compare"(%a0, %a1) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = "stablehlo.select"(%gt, %a0, %a1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %k = "stablehlo.select"(%gt, %b0, %b1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%v, %k) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    xla_indexing.yield %m#0, %m#1 : tensor<8xf32>, tensor<8xi32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
