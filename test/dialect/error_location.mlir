// A map's parse error points at the failing character of the source, also inside the second
// of two adjacent string pieces.

// RUN: not mlir-opt %s %plugins 2>&1 | FileCheck %s

// CHECK: error_location.mlir:[[# @LINE + 2]]:25: error: invalid indexing map at column 37: the bounds of 'd0' are given twice
#a = #xla_indexing.map<"(d0) -> (d0), domain: d0 in [0, 3], "
                       "d0 in [0, 3]">
func.func private @f() attributes {a = #a}
