// Malformed xla.* and xtile.* ops and attributes are located errors, never crashes of mlir-opt.

// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics

func.func @bad_map(%a: index) -> index {
  // expected-error @+1 {{invalid indexing map at column 15: unknown variable 'd1'}}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 * d1), domain: d0 in [0, 3]">(%a)
  return %0 : index
}

// -----

func.func @division_by_zero(%a: index) -> index {
  // expected-error @+1 {{invalid indexing map at column 13: division by zero}}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 0), domain: d0 in [0, 3]">(%a)
  return %0 : index
}

// -----

func.func @dims_in_brackets(%a: index, %b: index) -> index {
  // expected-error @+1 {{expected 2 dimension operands in (...), got 1}}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 + d1), domain: d0 in [0, 3], d1 in [0, 3]">(%a)[%b]
  return %0 : index
}

// -----

func.func @missing_symbol(%a: index) -> index {
  // expected-error @+1 {{expected 1 symbol operands in [...], got 0}}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 3]">(%a)
  return %0 : index
}

// -----

func.func @constraint(%a: index) -> index {
  // expected-error @+1 {{'xla.apply_indexing' op cannot have constraints in its map, but it has 1}}
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3], d0 mod 2 in [0, 0]">(%a)
  return %0 : index
}

// -----

func.func @generic_result_count(%a: index) -> (index, index) {
  // expected-error @+1 {{'xla.apply_indexing' op expected 1 results, got 2}}
  %0:2 = "xla.apply_indexing"(%a) <{indexing_map_attr = #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">}> : (index) -> (index, index)
  return %0#0, %0#1 : index, index
}

// -----

func.func @loop_dims(%a: index, %t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.loop' op expected 2 dim operands, got 1}}
  %r = xla.loop (%a)[%i] -> (%ra) in #xla.indexing_map<"(d0, d1)[s0] -> (s0), domain: d0 in [0, 3], d1 in [0, 3], s0 in [0, 3]"> iter_args(%iter = %t) -> (tensor<4xf32>) {
    xla.yield %iter : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @loop_result_type(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]"> iter_args(%iter = %t) -> (tensor<4xf32>) {
    %e = tensor.extract %iter[%ra] : tensor<4xf32>
    // expected-error @+1 {{'xla.yield' op value #0 has type 'f32', but the parent's result #0 has type 'tensor<4xf32>'}}
    xla.yield %e : f32
  }
  return %r : tensor<4xf32>
}

// -----

func.func @loop_iter_types(%t: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 types (one per iter arg), got 2}}
  %r:2 = xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]"> iter_args(%iter = %t) -> (tensor<4xf32>, f32) {
    xla.yield %iter : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside_loop() {
  // expected-error @+1 {{'xla.yield' op expects parent op 'xla.loop'}}
  xla.yield
}

// -----

func.func @unknown_callee(%a: index) -> f32 {
  // expected-error @+1 {{'xla.pure_call' op calls @missing, which is not a function in scope}}
  %0 = xla.pure_call @missing(%a) : (index) -> f32
  return %0 : f32
}

// -----

func.func private @callee(%a: index) -> f32

func.func @call_types(%a: index) -> i32 {
  // expected-error @+1 {{'xla.pure_call' op has type '(index) -> i32', but @callee has type '(index) -> f32'}}
  %0 = xla.pure_call @callee(%a) : (index) -> i32
  return %0 : i32
}

// -----

func.func @workgroup_w() -> index {
  // expected-error @+1 {{expected x, y or z, got 'w'}}
  %0 = xla.workgroup_id w
  return %0 : index
}

// -----

func.func @empty_range() -> index {
  // expected-error @+1 {{'xla.range' is empty: 1 > 0}}
  %0 = xla.workgroup_id x {xla.range = [1 : index, 0 : index]}
  return %0 : index
}

// -----

// expected-error @+1 {{argument #0 of region #0: 'xla.range' must be a list of two integers [lo, hi], got [0 : index]}}
func.func private @range_of_one(%a: index {xla.range = [0 : index]})

// -----

// expected-error @+1 {{'xla.invariant' must be a unit attribute, got true}}
func.func private @invariant_bool(%a: tensor<4xf32> {xla.invariant = true})

// -----

// expected-error @+1 {{'xla.backend_kind' must be a #xla.backend_kind, got "cpu"}}
func.func private @backend_string() attributes {xla.backend_kind = "cpu"}

// -----

// expected-error @+2 {{expected ::xla_emitters::BackendKind to be one of: cpu, gpu, tpu}}
// expected-error @+1 {{failed to parse Xla_BackendKindAttr parameter 'value' which is to be a `::xla_emitters::BackendKind`}}
func.func private @backend_npu() attributes {xla.backend_kind = #xla.backend_kind<npu>}

// -----

// expected-error @+1 {{'xla.extra_backend_options' must be a #xla<extra_backend_options[...]>, got ["a"]}}
module attributes {xla.extra_backend_options = ["a"]} {}

// -----

// expected-error @+1 {{'xtile.entry_func' op expected its last argument to be the tile id, an index}}
xtile.entry_func @no_tile_id(%a: memref<4xf32>) {
  xtile.return
}

// -----

// expected-error @+1 {{'xtile.entry_func' op argument #0 must be a memref (a buffer), got 'tensor<4xf32>'}}
xtile.entry_func @tensor_buffer(%a: tensor<4xf32>, %tid: index) {
  xtile.return
}

// -----

// expected-error @+1 {{'xtile.entry_func' op has 2 opaque arguments, but only 1 arguments before the tile id}}
xtile.entry_func @opaque(%a: memref<4xf32>, %tid: index) attributes {num_opaque_args = 2 : i32} {
  xtile.return
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'xtile.return' op expects parent op 'xtile.entry_func'}}
  xtile.return
}

// -----

xtile.entry_func @extract_offsets(%a: memref<4x8xf32>, %tid: index) {
  // expected-error @+1 {{'xtile.extract' op expected 2 offsets (one per buffer dimension), got 1}}
  %t = xtile.extract %a[%tid] [1, 8] [1, 1] : memref<4x8xf32> -> tensor<1x8xf32>
  xtile.return
}

// -----

xtile.entry_func @extract_shape(%a: memref<4x8xf32>, %tid: index) {
  // expected-error @+1 {{'xtile.extract' op tensor type 'tensor<2x8xf32>' does not match the tile shape [1, 8] (only unit dimensions may be dropped)}}
  %t = xtile.extract %a[%tid, %tid] [1, 8] [1, 1] : memref<4x8xf32> -> tensor<2x8xf32>
  xtile.return
}

// -----

xtile.entry_func @extract_stride(%a: memref<4x8xf32>, %tid: index) {
  // expected-error @+1 {{'xtile.extract' op stride #1 must be positive, got 0}}
  %t = xtile.extract %a[%tid, %tid] [1, 8] [1, 0] : memref<4x8xf32> -> tensor<8xf32>
  xtile.return
}

// -----

xtile.entry_func @insert_element_type(%a: memref<64xf32>, %tid: index) {
  %t = arith.constant dense<0> : tensor<8xi32>
  // expected-error @+1 {{'xtile.insert' op tile element type 'i32' differs from the buffer's, 'f32'}}
  xtile.insert %t into %a[%tid] [8] [1] : tensor<8xi32> -> memref<64xf32>
  xtile.return
}

// -----

// expected-error @+1 {{xtile layout must be a permutation of 0 to 1, got [0, 0]}}
func.func private @layout_not_permutation(%a: memref<4x8xf32, #xtile.layout<[0, 0]>>)

// -----

// expected-error @+1 {{xtile layout of rank 2 on a memref of rank 1}}
func.func private @layout_rank(%a: memref<4xf32, #xtile.layout<[1, 0]>>)

// -----

func.func @negative_buffer(%frame: !xla_cpu.call_frame) -> memref<4xf32> {
  // expected-error @+1 {{'xla_cpu.load' op buffer index must be non-negative, got -1}}
  %0 = xla_cpu.load %frame, -1 : memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

func.func @workgroup_of_frame(%frame: !xla_cpu.call_frame) -> index {
  // expected-error @+1 {{expected x, y or z, got 'q'}}
  %0 = xla_cpu.extract_workgroup_id %frame, q
  return %0 : index
}
