//===- MapSupport.cpp - what the dialects share about maps ----------------===//

#include "XlaIndexing/MapSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace xla_indexing::support {

namespace {

extern "C" void assignString(const char *data, size_t length, void *userData) {
  static_cast<std::string *>(userData)->assign(data, length);
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

} // namespace

RustParse parseWithRust(StringRef text, XlaIndexingSyntax syntax) {
  RustParse result;
  result.ok = xla_indexing_map_canonicalize(text.data(), text.size(), syntax, &result.info,
                                            assignString, &result.text);
  return result;
}

void describeError(InFlightDiagnostic &diag, const RustParse &parsed) {
  diag << "invalid indexing map";
  if (parsed.info.errorColumn != 0)
    diag << " at column " << parsed.info.errorColumn;
  diag << ": " << parsed.text;
}

ParseResult parseMapString(AsmParser &parser, XlaIndexingSyntax syntax, SMLoc &start,
                           RustParse &parsed) {
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

  parsed = parseWithRust(text, syntax);
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

LogicalResult verifyMapText(function_ref<InFlightDiagnostic()> emitError, StringRef text,
                            XlaIndexingSyntax syntax, XlaIndexingMapInfo counts,
                            bool constraintsStored) {
  RustParse parsed = parseWithRust(text, syntax);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return diag;
  }
  if (parsed.text != text)
    return emitError() << "indexing map text is not canonical: expected \"" << parsed.text << "\"";
  const XlaIndexingMapInfo &info = parsed.info;
  if (!constraintsStored)
    counts.numConstraints = info.numConstraints;
  if (info.numDims != counts.numDims || info.numRangeVars != counts.numRangeVars ||
      info.numRuntimeVars != counts.numRuntimeVars || info.numResults != counts.numResults ||
      info.numConstraints != counts.numConstraints)
    return emitError() << "indexing map counts (" << counts.numDims << " dims, "
                       << counts.numRangeVars << " range vars, " << counts.numRuntimeVars
                       << " runtime vars, " << counts.numResults << " results, "
                       << counts.numConstraints << " constraints) do not match its text ("
                       << info.numDims << ", " << info.numRangeVars << ", "
                       << info.numRuntimeVars << ", " << info.numResults << ", "
                       << info.numConstraints << ")";
  return success();
}

ParseResult parseLoop(OpAsmParser &parser, OperationState &result, StringRef segmentSizesName,
                      function_ref<ParseResult(MapCounts &)> parseMap) {
  Builder &builder = parser.getBuilder();
  Type index = builder.getIndexType();
  SmallVector<OpAsmParser::UnresolvedOperand> dims, inits;
  SmallVector<OpAsmParser::Argument> rangeVars, mapResults, iterArgs;
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::Paren) ||
      parser.parseArgumentList(rangeVars, OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseArrow() || parser.parseArgumentList(mapResults, OpAsmParser::Delimiter::Paren))
    return failure();
  MapCounts counts;
  if (parser.parseKeyword("in") || parseMap(counts))
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
  result.addAttribute(segmentSizesName,
                      builder.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(dims.size()), static_cast<int32_t>(inits.size())}));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments) || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return success();
}

void printLoop(OpAsmPrinter &printer, Operation *op, Attribute map, const MapCounts &counts,
               ValueRange dims, ValueRange inits, Region &body, ArrayRef<StringRef> elided) {
  printer << " (" << dims << ")";
  if (body.empty() ||
      body.getNumArguments() != counts.rangeVars + counts.results + inits.size()) {
    // Only an op that fails verification gets here: print what it has.
    printer << " in " << map;
    printer.printOptionalAttrDict(op->getAttrs(), elided);
    printer << " ";
    printer.printRegion(body);
    return;
  }
  Block::BlockArgListType arguments = body.getArguments();
  auto printArguments = [&](Block::BlockArgListType list) {
    llvm::interleaveComma(list, printer, [&](BlockArgument a) { printer.printOperand(a); });
  };
  if (counts.rangeVars != 0) {
    printer << "[";
    printArguments(arguments.take_front(counts.rangeVars));
    printer << "]";
  }
  printer << " -> (";
  printArguments(arguments.slice(counts.rangeVars, counts.results));
  printer << ") in ";
  printer.printAttribute(map);
  if (!inits.empty()) {
    printer << " iter_args(";
    auto iterArgs = arguments.take_back(inits.size());
    llvm::interleaveComma(llvm::zip(iterArgs, inits), printer, [&](auto pair) {
      printer << std::get<0>(pair) << " = " << std::get<1>(pair);
    });
    printer << ") -> (" << op->getResultTypes() << ")";
  }
  printer << " ";
  printer.printRegion(body, /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict(op->getAttrs(), elided);
}

LogicalResult verifyLoop(Operation *op, const MapCounts &counts, ValueRange dims,
                         ValueRange inits, Region &region) {
  if (dims.size() != counts.dims)
    return op->emitOpError("expected ") << counts.dims << " dim operands, got " << dims.size();
  if (counts.runtimeVars != 0)
    return op->emitOpError("does not support runtime variables, but its map has ")
           << counts.runtimeVars;
  if (op->getNumResults() != inits.size())
    return op->emitOpError("expected ")
           << inits.size() << " results (one per iter arg), got " << op->getNumResults();
  for (auto [i, types] : llvm::enumerate(llvm::zip(op->getResultTypes(), inits.getTypes())))
    if (std::get<0>(types) != std::get<1>(types))
      return op->emitOpError("result #") << i << " has type " << std::get<0>(types)
                                         << ", but its init has type " << std::get<1>(types);
  Block &body = region.front();
  unsigned expected = counts.rangeVars + counts.results + inits.size();
  if (body.getNumArguments() != expected)
    return op->emitOpError("expected ")
           << expected << " body arguments (" << counts.rangeVars << " range vars, "
           << counts.results << " map results, " << inits.size() << " iter args), got "
           << body.getNumArguments();
  for (auto [i, argument] : llvm::enumerate(body.getArguments())) {
    Type want = i < counts.rangeVars + counts.results
                    ? IndexType::get(op->getContext())
                    : inits[i - counts.rangeVars - counts.results].getType();
    if (argument.getType() != want)
      return op->emitOpError("body argument #")
             << i << " has type " << argument.getType() << ", expected " << want;
  }
  return success();
}

LogicalResult verifyYield(Operation *op, ValueRange values) {
  Operation *parent = op->getParentOp();
  if (values.size() != parent->getNumResults())
    return op->emitOpError("gives ") << values.size() << " values, but its parent has "
                                     << parent->getNumResults() << " results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(values.getTypes(), parent->getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError("value #") << i << " has type " << std::get<0>(pair)
                                        << ", but the parent's result #" << i << " has type "
                                        << std::get<1>(pair);
  return success();
}

} // namespace xla_indexing::support
