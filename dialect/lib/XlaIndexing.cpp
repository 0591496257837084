//===- XlaIndexing.cpp - the xla_indexing dialect -------------------------===//
//
// The #xla_indexing.map attribute delegates its grammar to the Rust parser
// (XlaIndexing/XlaIndexingRust.h): parsing canonicalizes through it, the
// stored text is what it printed, and the verifier checks the stored text and
// counts against it. The map of #xla_indexing.launch goes the same way.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaIndexing.h"
#include "XlaIndexing/MapSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <string>

using namespace mlir;
using namespace xla_indexing;
using namespace xla_indexing::support;

#include "XlaIndexing/XlaIndexingDialect.cpp.inc"

void XlaIndexingDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "XlaIndexing/XlaIndexingOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "XlaIndexing/XlaIndexingAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// IndexingMapAttr
//===----------------------------------------------------------------------===//

IndexingMapAttr IndexingMapAttr::parseText(MLIRContext *context, StringRef text,
                                           function_ref<InFlightDiagnostic()> emitError) {
  RustParse parsed = parseWithRust(text, XlaIndexingSyntaxMlir);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return {};
  }
  const XlaIndexingMapInfo &info = parsed.info;
  return getChecked(emitError, context, parsed.text, info.numDims, info.numRangeVars,
                    info.numRuntimeVars, info.numResults);
}

Attribute IndexingMapAttr::parse(AsmParser &parser, Type) {
  SMLoc start;
  RustParse parsed;
  if (parser.parseLess() || failed(parseMapString(parser, XlaIndexingSyntaxMlir, start, parsed)) || parser.parseGreater())
    return {};
  const XlaIndexingMapInfo &info = parsed.info;
  return parser.getChecked<IndexingMapAttr>(start, parser.getContext(), parsed.text, info.numDims,
                                            info.numRangeVars, info.numRuntimeVars,
                                            info.numResults);
}

void IndexingMapAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getText());
  printer << ">";
}

LogicalResult IndexingMapAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef text,
                                      unsigned numDims, unsigned numRangeVars,
                                      unsigned numRuntimeVars, unsigned numResults) {
  XlaIndexingMapInfo counts = {};
  counts.numDims = numDims;
  counts.numRangeVars = numRangeVars;
  counts.numRuntimeVars = numRuntimeVars;
  counts.numResults = numResults;
  return verifyMapText(emitError, text, XlaIndexingSyntaxMlir, counts, /*constraintsStored=*/false);
}

//===----------------------------------------------------------------------===//
// LaunchAttr
//===----------------------------------------------------------------------===//

namespace {

/// The dimensions of a launch's thread-id map: thread ids, then block ids.
constexpr unsigned kLaunchMapDims = 6;

/// Checks the block or grid sizes of a launch: three positive integers.
LogicalResult verifySizes(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                          ArrayRef<int64_t> sizes) {
  if (sizes.size() != 3)
    return emitError() << "launch " << name << " must have 3 sizes (x, y, z), got "
                       << sizes.size();
  for (auto [axis, size] : llvm::zip(StringRef("xyz"), sizes))
    if (size < 1)
      return emitError() << "launch " << name << " size along " << axis
                         << " must be positive, got " << size;
  return success();
}

/// The error for a launch map whose dimension count is not six.
InFlightDiagnostic &describeDims(InFlightDiagnostic &diag, unsigned numDims) {
  return diag << "launch map must have " << kLaunchMapDims
              << " dims (th_x, th_y, th_z, bl_x, bl_y, bl_z), got " << numDims;
}

/// Parses `name = [x, y, z]`: three positive integers, else an error at the list.
ParseResult parseSizes(AsmParser &parser, StringRef name, SmallVectorImpl<int64_t> &sizes) {
  if (parser.parseKeyword(name) || parser.parseEqual())
    return failure();
  SMLoc list = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] { return parser.parseInteger(sizes.emplace_back()); }))
    return failure();
  return verifySizes([&] { return parser.emitError(list); }, name, sizes);
}

} // namespace

LaunchAttr LaunchAttr::parseText(MLIRContext *context, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> grid, StringRef text,
                                 function_ref<InFlightDiagnostic()> emitError) {
  RustParse parsed = parseWithRust(text, XlaIndexingSyntaxMlir);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return {};
  }
  return getChecked(emitError, context, block, grid, parsed.text);
}

// <block = [x, y, z], grid = [x, y, z], map = "...">
Attribute LaunchAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  SmallVector<int64_t, 3> block, grid;
  SMLoc mapStart;
  RustParse parsed;
  if (parser.parseLess() || parseSizes(parser, "block", block) || parser.parseComma() ||
      parseSizes(parser, "grid", grid) || parser.parseComma() || parser.parseKeyword("map") ||
      parser.parseEqual() || failed(parseMapString(parser, XlaIndexingSyntaxMlir, mapStart, parsed)))
    return {};
  if (parsed.info.numDims != kLaunchMapDims) {
    InFlightDiagnostic diag = parser.emitError(mapStart);
    describeDims(diag, parsed.info.numDims);
    return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LaunchAttr>(start, parser.getContext(), block, grid, parsed.text);
}

void LaunchAttr::print(AsmPrinter &printer) const {
  printer << "<block = [";
  llvm::interleaveComma(getBlock(), printer);
  printer << "], grid = [";
  llvm::interleaveComma(getGrid(), printer);
  printer << "], map = ";
  printer.printString(getMap());
  printer << ">";
}

LogicalResult LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> block, ArrayRef<int64_t> grid, StringRef map) {
  if (failed(verifySizes(emitError, "block", block)) ||
      failed(verifySizes(emitError, "grid", grid)))
    return failure();
  RustParse parsed = parseWithRust(map, XlaIndexingSyntaxMlir);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return diag;
  }
  if (parsed.text != map)
    return emitError() << "launch map text is not canonical: expected \"" << parsed.text << "\"";
  if (parsed.info.numDims != kLaunchMapDims) {
    InFlightDiagnostic diag = emitError();
    describeDims(diag, parsed.info.numDims);
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ApplyIndexingOp
//===----------------------------------------------------------------------===//

LogicalResult ApplyIndexingOp::verify() {
  IndexingMapAttr map = getIndexingMap();
  if (getOperands().size() != map.getNumInputs())
    return emitOpError("expected ")
           << map.getNumInputs() << " operands (" << map.getNumDims() << " dims, "
           << map.getNumRangeVars() << " range vars, " << map.getNumRuntimeVars()
           << " runtime vars), got " << getOperands().size();
  if (getResults().size() != map.getNumResults())
    return emitOpError("expected ")
           << map.getNumResults() << " results, got " << getResults().size();
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

namespace {

MapCounts countsOf(IndexingMapAttr map) {
  return {map.getNumDims(), map.getNumRangeVars(), map.getNumRuntimeVars(), map.getNumResults()};
}

} // namespace

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseLoop(parser, result, LoopOp::getOperandSegmentSizeAttr(), [&](MapCounts &counts) {
    IndexingMapAttr map;
    if (parser.parseCustomAttributeWithFallback(map, Type(), "indexing_map", result.attributes))
      return failure();
    counts = countsOf(map);
    return success();
  });
}

void LoopOp::print(OpAsmPrinter &printer) {
  printLoop(printer, *this, getIndexingMap(), countsOf(getIndexingMap()), getDims(), getInits(),
            getBody(), {"indexing_map", "operandSegmentSizes"});
}

LogicalResult LoopOp::verifyRegions() {
  return verifyLoop(*this, countsOf(getIndexingMap()), getDims(), getInits(), getBody());
}

//===----------------------------------------------------------------------===//
// FusionOp and YieldOp
//===----------------------------------------------------------------------===//

LogicalResult FusionOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expected ") << getInputs().size()
                                    << " body arguments (one per input), got "
                                    << body.getNumArguments();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(body.getArgumentTypes(), getInputs().getTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("body argument #") << i << " has type " << std::get<0>(pair)
                                            << ", but input #" << i << " has type "
                                            << std::get<1>(pair);
  return success();
}

LogicalResult YieldOp::verify() { return verifyYield(*this, getValues()); }

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaIndexingAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaIndexingOps.cpp.inc"
