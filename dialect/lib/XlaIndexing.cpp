//===- XlaIndexing.cpp - the xla_indexing dialect -------------------------===//
//
// The #xla_indexing.map attribute delegates its grammar to the Rust parser
// (XlaIndexing/XlaIndexingRust.h): parsing canonicalizes through it, the
// stored text is what it printed, and the verifier checks the stored text and
// counts against it. The map of #xla_indexing.launch goes the same way.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaIndexing.h"
#include "XlaIndexing/XlaIndexingRust.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <string>

using namespace mlir;
using namespace xla_indexing;

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
// The Rust parser
//===----------------------------------------------------------------------===//

namespace {

/// What the Rust parser made of a map text: the canonical text on success,
/// the error message otherwise.
struct RustParse {
  bool ok = false;
  std::string text;
  XlaIndexingMapInfo info = {};
};

extern "C" void assignString(const char *data, size_t length, void *userData) {
  static_cast<std::string *>(userData)->assign(data, length);
}

RustParse parseWithRust(StringRef text) {
  RustParse result;
  result.ok = xla_indexing_map_canonicalize(text.data(), text.size(), &result.info, assignString,
                                            &result.text);
  return result;
}

/// Writes the Rust parser's error message into `diag`.
void describeError(InFlightDiagnostic &diag, const RustParse &parsed) {
  diag << "invalid indexing map";
  if (parsed.info.errorColumn != 0)
    diag << " at column " << parsed.info.errorColumn;
  diag << ": " << parsed.text;
}

/// One string literal of the attribute: where its opening quote is in the
/// source, and where its decoded bytes start in the concatenated text.
struct Piece {
  SMLoc quote;
  size_t offset;
};

/// Returns the source location of byte `offset` of the concatenated text,
/// undoing the string escapes of MLIR's lexer (`\"`, `\\`, `\n`, `\t`, `\XX`).
SMLoc sourceLocation(ArrayRef<Piece> pieces, size_t offset) {
  const Piece *piece = &pieces.front();
  for (const Piece &p : pieces)
    if (p.offset <= offset)
      piece = &p;
  const char *raw = piece->quote.getPointer() + 1;
  for (size_t decoded = piece->offset; decoded < offset && *raw != '"' && *raw != '\0'; ++decoded) {
    if (*raw != '\\') {
      ++raw;
      continue;
    }
    bool shortEscape = raw[1] == '"' || raw[1] == '\\' || raw[1] == 'n' || raw[1] == 't';
    raw += shortEscape ? 2 : 3;
  }
  return SMLoc::getFromPointer(raw);
}

/// Parses one or more adjacent string literals as a map text and canonicalizes it with the Rust
/// parser. `start` receives the location of the first literal. A text the Rust parser rejects is
/// an error at its failing character.
ParseResult parseMapString(AsmParser &parser, SMLoc &start, RustParse &parsed) {
  SmallVector<Piece> pieces;
  std::string text;
  std::string piece;
  start = parser.getCurrentLocation();
  SMLoc quote = start;
  if (parser.parseString(&piece))
    return failure();
  do {
    pieces.push_back({quote, text.size()});
    text += piece;
    quote = parser.getCurrentLocation();
  } while (succeeded(parser.parseOptionalString(&piece)));

  parsed = parseWithRust(text);
  if (!parsed.ok) {
    SMLoc at = parsed.info.errorColumn == 0
                   ? start
                   : sourceLocation(pieces, std::min<size_t>(parsed.info.errorColumn - 1, text.size()));
    InFlightDiagnostic diag = parser.emitError(at);
    describeError(diag, parsed);
    return failure();
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// IndexingMapAttr
//===----------------------------------------------------------------------===//

IndexingMapAttr IndexingMapAttr::parseText(MLIRContext *context, StringRef text,
                                           function_ref<InFlightDiagnostic()> emitError) {
  RustParse parsed = parseWithRust(text);
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
  if (parser.parseLess() || failed(parseMapString(parser, start, parsed)) || parser.parseGreater())
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
  RustParse parsed = parseWithRust(text);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return diag;
  }
  if (parsed.text != text)
    return emitError() << "indexing map text is not canonical: expected \"" << parsed.text << "\"";
  const XlaIndexingMapInfo &info = parsed.info;
  if (info.numDims != numDims || info.numRangeVars != numRangeVars ||
      info.numRuntimeVars != numRuntimeVars || info.numResults != numResults)
    return emitError() << "indexing map counts (" << numDims << " dims, " << numRangeVars
                       << " range vars, " << numRuntimeVars << " runtime vars, " << numResults
                       << " results) do not match its text (" << info.numDims << ", "
                       << info.numRangeVars << ", " << info.numRuntimeVars << ", "
                       << info.numResults << ")";
  return success();
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
  RustParse parsed = parseWithRust(text);
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
      parser.parseEqual() || failed(parseMapString(parser, mapStart, parsed)))
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
  RustParse parsed = parseWithRust(map);
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

// (%d0, ...)[%s0, ...] -> (%r0, ...) in #map iter_args(%a = %init, ...) -> (types) {body} attrs
ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  Type index = builder.getIndexType();
  SmallVector<OpAsmParser::UnresolvedOperand> dims, inits;
  SmallVector<OpAsmParser::Argument> rangeVars, mapResults, iterArgs;
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::Paren) ||
      parser.parseArgumentList(rangeVars, OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseArrow() || parser.parseArgumentList(mapResults, OpAsmParser::Delimiter::Paren))
    return failure();
  IndexingMapAttr map;
  if (parser.parseKeyword("in") ||
      parser.parseCustomAttributeWithFallback(map, Type(), "indexing_map", result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("iter_args"))) {
    if (parser.parseAssignmentList(iterArgs, inits) || parser.parseArrowTypeList(result.types))
      return failure();
    if (result.types.size() != iterArgs.size())
      return parser.emitError(parser.getCurrentLocation())
             << "expected " << iterArgs.size() << " types (one per iter arg), got "
             << result.types.size();
  }
  SmallVector<OpAsmParser::Argument> arguments;
  for (OpAsmParser::Argument &argument : rangeVars) {
    argument.type = index;
    arguments.push_back(argument);
  }
  for (OpAsmParser::Argument &argument : mapResults) {
    argument.type = index;
    arguments.push_back(argument);
  }
  for (auto [argument, type] : llvm::zip(iterArgs, result.types)) {
    argument.type = type;
    arguments.push_back(argument);
  }
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(inits, result.types, parser.getCurrentLocation(), result.operands))
    return failure();
  result.addAttribute(LoopOp::getOperandSegmentSizeAttr(),
                      builder.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(dims.size()), static_cast<int32_t>(inits.size())}));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments) || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return success();
}

void LoopOp::print(OpAsmPrinter &printer) {
  printer << " (" << getDims() << ")";
  IndexingMapAttr map = getIndexingMap();
  Region &body = getBody();
  if (body.empty() || body.getNumArguments() != map.getNumRangeVars() + map.getNumResults() +
                                                     getInits().size()) {
    // Only an op that fails verification gets here: print what it has.
    printer << " in " << map;
    printer.printOptionalAttrDict((*this)->getAttrs(), {"indexing_map", "operandSegmentSizes"});
    printer << " ";
    printer.printRegion(body);
    return;
  }
  Block::BlockArgListType arguments = body.getArguments();
  auto printArguments = [&](Block::BlockArgListType list) {
    llvm::interleaveComma(list, printer, [&](BlockArgument a) { printer.printOperand(a); });
  };
  if (map.getNumRangeVars() != 0) {
    printer << "[";
    printArguments(arguments.take_front(map.getNumRangeVars()));
    printer << "]";
  }
  printer << " -> (";
  printArguments(arguments.slice(map.getNumRangeVars(), map.getNumResults()));
  printer << ") in ";
  printer.printAttribute(map);
  if (!getInits().empty()) {
    printer << " iter_args(";
    auto iterArgs = arguments.take_back(getInits().size());
    llvm::interleaveComma(llvm::zip(iterArgs, getInits()), printer, [&](auto pair) {
      printer << std::get<0>(pair) << " = " << std::get<1>(pair);
    });
    printer << ") -> (" << getResultTypes() << ")";
  }
  printer << " ";
  printer.printRegion(body, /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict((*this)->getAttrs(), {"indexing_map", "operandSegmentSizes"});
}

LogicalResult LoopOp::verifyRegions() {
  IndexingMapAttr map = getIndexingMap();
  if (getDims().size() != map.getNumDims())
    return emitOpError("expected ") << map.getNumDims() << " dim operands, got "
                                    << getDims().size();
  if (map.getNumRuntimeVars() != 0)
    return emitOpError("does not support runtime variables, but its map has ")
           << map.getNumRuntimeVars();
  if (getResults().size() != getInits().size())
    return emitOpError("expected ") << getInits().size() << " results (one per iter arg), got "
                                    << getResults().size();
  for (auto [i, types] : llvm::enumerate(llvm::zip(getResultTypes(), getInits().getTypes())))
    if (std::get<0>(types) != std::get<1>(types))
      return emitOpError("result #") << i << " has type " << std::get<0>(types)
                                     << ", but its init has type " << std::get<1>(types);
  Block &body = getBody().front();
  unsigned expected = map.getNumRangeVars() + map.getNumResults() + getInits().size();
  if (body.getNumArguments() != expected)
    return emitOpError("expected ") << expected << " body arguments (" << map.getNumRangeVars()
                                    << " range vars, " << map.getNumResults() << " map results, "
                                    << getInits().size() << " iter args), got "
                                    << body.getNumArguments();
  for (auto [i, argument] : llvm::enumerate(body.getArguments())) {
    Type want = i < map.getNumRangeVars() + map.getNumResults()
                    ? IndexType::get(getContext())
                    : getInits()[i - map.getNumRangeVars() - map.getNumResults()].getType();
    if (argument.getType() != want)
      return emitOpError("body argument #") << i << " has type " << argument.getType()
                                            << ", expected " << want;
  }
  return success();
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

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (getValues().size() != parent->getNumResults())
    return emitOpError("gives ") << getValues().size() << " values, but its parent has "
                                 << parent->getNumResults() << " results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getValues().getTypes(), parent->getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("value #") << i << " has type " << std::get<0>(pair)
                                    << ", but the parent's result #" << i << " has type "
                                    << std::get<1>(pair);
  return success();
}

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaIndexingAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaIndexingOps.cpp.inc"
