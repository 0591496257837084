// Maps the Rust parser rejects and ops whose operands or results do not fit their map are
// diagnostics, never crashes.

// RUN: mlir-opt %s %plugins --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid indexing map at column 13: a product of two variables is not quasi-affine}}
#m = #xla_indexing.map<"(d0) -> (d0 * d0), domain: d0 in [0, 3]">
func.func private @product() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 13: division by zero}}
#m = #xla_indexing.map<"(d0) -> (d0 floordiv 0), domain: d0 in [0, 3]">
func.func private @division_by_zero() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 17: mod by a variable is not supported}}
#m = #xla_indexing.map<"(d0, d1) -> (d0 mod d1), domain: d0 in [0, 3], d1 in [1, 2]">
func.func private @mod_by_variable() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 10: 'max' is not quasi-affine and is not supported}}
#m = #xla_indexing.map<"(d0) -> (max(d0, 1)), domain: d0 in [0, 3]">
func.func private @max() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 10: unknown variable 'd1'}}
#m = #xla_indexing.map<"(d0) -> (d1), domain: d0 in [0, 3]">
func.func private @unknown_variable() attributes {m = #m}

// -----

// expected-error @+1 {{invalid indexing map at column 30: empty interval [5, 1]: the lower bound exceeds the upper}}
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
