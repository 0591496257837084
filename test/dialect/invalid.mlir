// Maps the Rust parser rejects and ops whose operands or results do not fit their map are
// diagnostics, never crashes.

// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid indexing map at column 13: division by zero}}
#m = #xla_indexing.map<"(d0) -> (d0 floordiv 0), domain: d0 in [0, 3]">
func.func private @division_by_zero() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 10: unknown variable 'd1'}}
#m = #xla_indexing.map<"(d0) -> (d1), domain: d0 in [0, 3]">
func.func private @unknown_variable() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map: the map is KNOWN EMPTY (its domain has no point), and that text keeps none of its variables or results}}
#m = #xla_indexing.map<"(d0) -> (d0), domain: d0 in [5, 1]">
func.func private @empty_interval() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 13: the domain gives no bounds for 'd0'}}
#m = #xla_indexing.map<"(d0) -> (d0)">
func.func private @no_domain() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 1: expected '(', found end of input}}
#m = #xla_indexing.map<"">
func.func private @empty_text() attributes {m = #m}

// -----

func.func @too_few_operands(%d: index) -> index {
  // expected-error @+1 {{'xla_indexing.apply_indexing' op expected 2 operands (1 dims, 1 range vars, 0 runtime vars), got 1}}
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 1], s0 in [0, 2]">(%d) : index
  return %0 : index
}

// -----

func.func @too_many_results(%d: index) -> (index, index) {
  // expected-error @+1 {{'xla_indexing.apply_indexing' op expected 1 results, got 2}}
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 1]">(%d) : index, index
  return %0#0, %0#1 : index, index
}

// -----

func.func @loop_dims(%d: index) {
  // expected-error @+1 {{'xla_indexing.loop' op expected 2 dim operands, got 1}}
  xla_indexing.loop (%d) -> (%r) in #xla_indexing.map<"(d0, d1) -> (d0 + d1), domain: d0 in [0, 1], d1 in [0, 1]"> {
    xla_indexing.yield
  }
  return
}

// -----

func.func @loop_runtime_vars(%d: index) {
  // expected-error @+1 {{'xla_indexing.loop' op does not support runtime variables, but its map has 1}}
  xla_indexing.loop (%d) -> (%r) in #xla_indexing.map<"(d0){rt0} -> (d0 + rt0), domain: d0 in [0, 1], rt0 in [0, 3]"> {
    xla_indexing.yield
  }
  return
}

// -----

func.func @loop_arguments(%d: index) {
  // expected-error @+1 {{'xla_indexing.loop' op expected 3 body arguments (1 range vars, 2 map results, 0 iter args), got 2}}
  xla_indexing.loop (%d)[%s] -> (%r) in #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 1], s0 in [0, 1]"> {
    xla_indexing.yield
  }
  return
}

// -----

func.func @loop_yield(%d: index, %init: f32) -> f32 {
  %0 = xla_indexing.loop (%d) -> (%r) in #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 1]"> iter_args(%acc = %init) -> (f32) {
    // expected-error @+1 {{'xla_indexing.yield' op gives 0 values, but its parent has 1 results}}
    xla_indexing.yield
  }
  return %0 : f32
}

// -----

func.func @loop_yield_type(%d: index, %init: f32, %i: i32) -> f32 {
  %0 = xla_indexing.loop (%d) -> (%r) in #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 1]"> iter_args(%acc = %init) -> (f32) {
    // expected-error @+1 {{'xla_indexing.yield' op value #0 has type 'i32', but the parent's result #0 has type 'f32'}}
    xla_indexing.yield %i : i32
  }
  return %0 : f32
}

// -----

func.func @fusion_arguments(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla_indexing.fusion' op expected 1 body arguments (one per input), got 0}}
  %0 = xla_indexing.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant dense<0.0> : tensor<4xf32>
    xla_indexing.yield %c : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @fusion_argument_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla_indexing.fusion' op body argument #0 has type 'tensor<4xi32>', but input #0 has type 'tensor<4xf32>'}}
  %0 = xla_indexing.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<4xi32>):
    %c = arith.constant dense<0.0> : tensor<4xf32>
    xla_indexing.yield %c : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @fusion_isolated(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = xla_indexing.fusion () : () -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    xla_indexing.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{'xla_indexing.yield' op expects parent op to be one of 'xla_indexing.loop, xla_indexing.fusion'}}
  xla_indexing.yield
}
