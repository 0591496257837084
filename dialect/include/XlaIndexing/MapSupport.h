//===- MapSupport.h - what the dialects share about maps -------*- C++ -*-===//
//
// The map attributes of the `xla_indexing` and `xla` dialects parse, print and
// verify their text through the one Rust grammar (XlaIndexingRust.h), and
// their loop ops share one textual form and one verifier. Those pieces live
// here, once.
//
//===----------------------------------------------------------------------===//

#ifndef XLA_INDEXING_MAP_SUPPORT_H
#define XLA_INDEXING_MAP_SUPPORT_H

#include "XlaIndexing/XlaIndexingRust.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"

#include <string>

namespace xla_indexing::support {

/// What the Rust parser made of a map text: the canonical text on success,
/// the error message otherwise.
struct RustParse {
  bool ok = false;
  std::string text;
  XlaIndexingMapInfo info = {};
};

/// Parses `text` with the Rust parser; the canonical text is spelled as
/// `syntax` says.
RustParse parseWithRust(llvm::StringRef text, XlaIndexingSyntax syntax);

/// Writes the Rust parser's error message into `diag`.
void describeError(mlir::InFlightDiagnostic &diag, const RustParse &parsed);

/// Parses one or more adjacent string literals as a map text and
/// canonicalizes it with the Rust parser. `start` receives the location of
/// the first literal. A text the Rust parser rejects is an error at its
/// failing character.
mlir::ParseResult parseMapString(mlir::AsmParser &parser, XlaIndexingSyntax syntax,
                                 llvm::SMLoc &start, RustParse &parsed);

/// Checks that `text` is the canonical text (in `syntax`) of a map with the
/// given counts (its constraints only where `constraintsStored`): the
/// verifier of both map attributes.
mlir::LogicalResult verifyMapText(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                                  llvm::StringRef text, XlaIndexingSyntax syntax,
                                  XlaIndexingMapInfo counts, bool constraintsStored);

/// The counts of a map attribute that ops need.
struct MapCounts {
  unsigned dims = 0;
  unsigned rangeVars = 0;
  unsigned runtimeVars = 0;
  unsigned results = 0;
};

/// Parses the part of a loop op after its name:
/// `(%d0, ...)[%s0, ...] -> (%r0, ...) in #map iter_args(%a = %init, ...) -> (types) {body} attrs`.
/// `parseMap` parses the map attribute, adds it to `result` and returns its
/// counts.
mlir::ParseResult parseLoop(mlir::OpAsmParser &parser, mlir::OperationState &result,
                            llvm::StringRef segmentSizesName,
                            llvm::function_ref<mlir::ParseResult(MapCounts &)> parseMap);

/// Prints a loop op in the form `parseLoop` reads. `elided` names the
/// attributes the form shows otherwise (the map, the segment sizes).
void printLoop(mlir::OpAsmPrinter &printer, mlir::Operation *op, mlir::Attribute map,
               const MapCounts &counts, mlir::ValueRange dims, mlir::ValueRange inits,
               mlir::Region &body, llvm::ArrayRef<llvm::StringRef> elided);

/// Checks a loop op: operand, result and body argument counts and types
/// against its map and its inits.
mlir::LogicalResult verifyLoop(mlir::Operation *op, const MapCounts &counts,
                               mlir::ValueRange dims, mlir::ValueRange inits,
                               mlir::Region &body);

/// Checks a yield: its values match its parent's results.
mlir::LogicalResult verifyYield(mlir::Operation *op, mlir::ValueRange values);

} // namespace xla_indexing::support

#endif // XLA_INDEXING_MAP_SUPPORT_H
