//===- XlaEmitters.cpp - XLA's `xla` dialect ------------------------------===//
//
// XLA's emitter ops in XLA's textual form. #xla.indexing_map parses and
// prints through the project's one Rust grammar (XlaIndexing/MapSupport.h),
// in XLA's spelling; xla.loop shares its form and verifier with
// xla_indexing.loop.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaEmitters.h"
#include "XlaIndexing/MapSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xla_emitters;
using namespace xla_indexing::support;

#include "XlaIndexing/XlaEmittersDialect.cpp.inc"
#include "XlaIndexing/XlaEmittersEnums.cpp.inc"

namespace {

/// Prints `#xla.indexing_map` attributes under the alias XLA's own printer
/// uses (`#indexing_map`, `#indexing_map1`, ...).
struct XlaOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (llvm::isa<IndexingMapAttr>(attr)) {
      os << "indexing_map";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

MapCounts countsOf(IndexingMapAttr map) {
  return {map.getNumDims(), map.getNumRangeVars(), map.getNumRuntimeVars(), map.getNumResults()};
}

} // namespace

void XlaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "XlaIndexing/XlaEmittersOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "XlaIndexing/XlaEmittersAttrs.cpp.inc"
      >();
  addInterfaces<XlaOpAsmInterface>();
}

ParseResult xla_emitters::parseDimension(OpAsmParser &parser, DimensionAttr &dimension) {
  SMLoc at = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<Dimension> value = symbolizeDimension(keyword);
  if (!value)
    return parser.emitError(at) << "expected x, y or z, got '" << keyword << "'";
  dimension = DimensionAttr::get(parser.getContext(), *value);
  return success();
}

void xla_emitters::printDimension(OpAsmPrinter &printer, Operation *, DimensionAttr dimension) {
  printer << stringifyDimension(dimension.getValue());
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult XlaDialect::verifyDiscardable(NamedAttribute attribute,
                                            function_ref<InFlightDiagnostic()> emitError) {
  StringRef name = attribute.getName().strref();
  Attribute value = attribute.getValue();
  if (name == "xla.range") {
    auto bounds = llvm::dyn_cast<ArrayAttr>(value);
    if (!bounds || bounds.size() != 2 || !llvm::isa<IntegerAttr>(bounds[0]) ||
        !llvm::isa<IntegerAttr>(bounds[1]))
      return emitError() << "'xla.range' must be a list of two integers [lo, hi], got " << value;
    int64_t lo = llvm::cast<IntegerAttr>(bounds[0]).getInt();
    int64_t hi = llvm::cast<IntegerAttr>(bounds[1]).getInt();
    if (lo > hi)
      return emitError() << "'xla.range' is empty: " << lo << " > " << hi;
    return success();
  }
  if (name == "xla.slice_index") {
    if (!llvm::isa<IntegerAttr>(value))
      return emitError() << "'xla.slice_index' must be an integer, got " << value;
    return success();
  }
  if (name == "xla.invariant" || name == "xla.entry" || name == "xla.is_reduction") {
    if (!llvm::isa<UnitAttr>(value))
      return emitError() << "'" << name << "' must be a unit attribute, got " << value;
    return success();
  }
  if (name == "xla.backend_kind" && !llvm::isa<BackendKindAttr>(value))
    return emitError() << "'xla.backend_kind' must be a #xla.backend_kind, got " << value;
  if (name == "xla.extra_backend_options" && !llvm::isa<ExtraBackendOptionsAttr>(value))
    return emitError() << "'xla.extra_backend_options' must be a "
                          "#xla<extra_backend_options[...]>, got "
                       << value;
  if (name == "xla.cpu_memory_region_name" && !llvm::isa<StringAttr>(value))
    return emitError() << "'xla.cpu_memory_region_name' must be a string, got " << value;
  return success();
}

LogicalResult XlaDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  return verifyDiscardable(attribute, [op] { return op->emitError(); });
}

LogicalResult XlaDialect::verifyRegionArgAttribute(Operation *op, unsigned region,
                                                   unsigned argument, NamedAttribute attribute) {
  return verifyDiscardable(attribute, [&] {
    return op->emitError() << "argument #" << argument << " of region #" << region << ": ";
  });
}

LogicalResult XlaDialect::verifyRegionResultAttribute(Operation *op, unsigned region,
                                                      unsigned result, NamedAttribute attribute) {
  return verifyDiscardable(attribute, [&] {
    return op->emitError() << "result #" << result << " of region #" << region << ": ";
  });
}

//===----------------------------------------------------------------------===//
// IndexingMapAttr
//===----------------------------------------------------------------------===//

IndexingMapAttr IndexingMapAttr::parseText(MLIRContext *context, StringRef text,
                                           function_ref<InFlightDiagnostic()> emitError) {
  RustParse parsed = parseWithRust(text, XlaIndexingSyntaxXla);
  if (!parsed.ok) {
    InFlightDiagnostic diag = emitError();
    describeError(diag, parsed);
    return {};
  }
  const XlaIndexingMapInfo &info = parsed.info;
  return getChecked(emitError, context, parsed.text, info.numDims, info.numRangeVars,
                    info.numRuntimeVars, info.numResults, info.numConstraints);
}

Attribute IndexingMapAttr::parse(AsmParser &parser, Type) {
  SMLoc start;
  RustParse parsed;
  if (parser.parseLess() || failed(parseMapString(parser, XlaIndexingSyntaxXla, start, parsed)) ||
      parser.parseGreater())
    return {};
  const XlaIndexingMapInfo &info = parsed.info;
  return parser.getChecked<IndexingMapAttr>(start, parser.getContext(), parsed.text, info.numDims,
                                            info.numRangeVars, info.numRuntimeVars,
                                            info.numResults, info.numConstraints);
}

void IndexingMapAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getText());
  printer << ">";
}

LogicalResult IndexingMapAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef text,
                                      unsigned numDims, unsigned numRangeVars,
                                      unsigned numRuntimeVars, unsigned numResults,
                                      unsigned numConstraints) {
  XlaIndexingMapInfo counts = {};
  counts.numDims = numDims;
  counts.numRangeVars = numRangeVars;
  counts.numRuntimeVars = numRuntimeVars;
  counts.numResults = numResults;
  counts.numConstraints = numConstraints;
  return verifyMapText(emitError, text, XlaIndexingSyntaxXla, counts, /*constraintsStored=*/true);
}

//===----------------------------------------------------------------------===//
// ExtraBackendOptionsAttr
//===----------------------------------------------------------------------===//

// ["option", ...], after the mnemonic.
Attribute ExtraBackendOptionsAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  SmallVector<Attribute> options;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        std::string option;
        if (parser.parseString(&option))
          return failure();
        options.push_back(parser.getBuilder().getStringAttr(option));
        return success();
      }))
    return {};
  return parser.getChecked<ExtraBackendOptionsAttr>(start, parser.getContext(),
                                                    parser.getBuilder().getArrayAttr(options));
}

void ExtraBackendOptionsAttr::print(AsmPrinter &printer) const {
  printer << "[";
  llvm::interleaveComma(getOptions(), printer, [&](Attribute option) {
    printer.printString(llvm::cast<StringAttr>(option).getValue());
  });
  printer << "]";
}

LogicalResult ExtraBackendOptionsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              ArrayAttr options) {
  for (Attribute option : options)
    if (!llvm::isa<StringAttr>(option))
      return emitError() << "extra backend options must be strings, got " << option;
  return success();
}

//===----------------------------------------------------------------------===//
// ApplyIndexingOp
//===----------------------------------------------------------------------===//

// #map(%d0, ...)[%s0, ...] attrs
ParseResult ApplyIndexingOp::parse(OpAsmParser &parser, OperationState &result) {
  Type index = parser.getBuilder().getIndexType();
  IndexingMapAttr map;
  if (parser.parseCustomAttributeWithFallback(map, Type(), "indexing_map_attr", result.attributes))
    return failure();
  SmallVector<OpAsmParser::UnresolvedOperand> dims, symbols;
  SMLoc dimsAt = parser.getCurrentLocation();
  if (parser.parseOperandList(dims, OpAsmParser::Delimiter::OptionalParen))
    return failure();
  SMLoc symbolsAt = parser.getCurrentLocation();
  if (parser.parseOperandList(symbols, OpAsmParser::Delimiter::OptionalSquare))
    return failure();
  if (dims.size() != map.getNumDims())
    return parser.emitError(dimsAt) << "expected " << map.getNumDims()
                                    << " dimension operands in (...), got " << dims.size();
  unsigned numSymbols = map.getNumRangeVars() + map.getNumRuntimeVars();
  if (symbols.size() != numSymbols)
    return parser.emitError(symbols.empty() ? dimsAt : symbolsAt)
           << "expected " << numSymbols << " symbol operands in [...], got " << symbols.size();
  if (parser.resolveOperands(dims, index, result.operands) ||
      parser.resolveOperands(symbols, index, result.operands) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addTypes(SmallVector<Type>(map.getNumResults(), index));
  return success();
}

void ApplyIndexingOp::print(OpAsmPrinter &printer) {
  IndexingMapAttr map = getIndexingMapAttr();
  printer << " ";
  printer.printAttribute(map);
  OperandRange operands = getOperands();
  unsigned numDims = std::min<unsigned>(map.getNumDims(), operands.size());
  if (numDims != 0)
    printer << "(" << operands.take_front(numDims) << ")";
  if (operands.size() > numDims)
    printer << "[" << operands.drop_front(numDims) << "]";
  printer.printOptionalAttrDict((*this)->getAttrs(), {"indexing_map_attr"});
}

LogicalResult ApplyIndexingOp::verify() {
  IndexingMapAttr map = getIndexingMapAttr();
  if (getOperands().size() != map.getNumInputs())
    return emitOpError("expected ")
           << map.getNumInputs() << " operands (" << map.getNumDims() << " dims, "
           << map.getNumRangeVars() + map.getNumRuntimeVars() << " symbols), got "
           << getOperands().size();
  if (getResults().size() != map.getNumResults())
    return emitOpError("expected ") << map.getNumResults() << " results, got "
                                    << getResults().size();
  if (map.getNumConstraints() != 0)
    return emitOpError("cannot have constraints in its map, but it has ")
           << map.getNumConstraints();
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp and YieldOp
//===----------------------------------------------------------------------===//

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseLoop(parser, result, LoopOp::getOperandSegmentSizeAttr(), [&](MapCounts &counts) {
    IndexingMapAttr map;
    if (parser.parseCustomAttributeWithFallback(map, Type(), "indexing_map_attr",
                                                result.attributes))
      return failure();
    counts = countsOf(map);
    return success();
  });
}

void LoopOp::print(OpAsmPrinter &printer) {
  printLoop(printer, *this, getIndexingMapAttr(), countsOf(getIndexingMapAttr()), getDims(),
            getInits(), getBody(), {"indexing_map_attr", "operandSegmentSizes"});
}

LogicalResult LoopOp::verifyRegions() {
  return verifyLoop(*this, countsOf(getIndexingMapAttr()), getDims(), getInits(), getBody());
}

LogicalResult YieldOp::verify() { return verifyYield(*this, getValues()); }

//===----------------------------------------------------------------------===//
// PureCallOp
//===----------------------------------------------------------------------===//

LogicalResult PureCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FlatSymbolRefAttr callee = getCalleeAttr();
  auto function = symbolTable.lookupNearestSymbolFrom<FunctionOpInterface>(*this, callee);
  if (!function)
    return emitOpError("calls ") << callee << ", which is not a function in scope";
  auto type = llvm::dyn_cast<FunctionType>(function.getFunctionType());
  if (!type)
    return emitOpError("calls ") << callee << ", whose type is not a function type";
  if (TypeRange(type.getInputs()) != TypeRange(getOperands().getTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("has type ")
           << FunctionType::get(getContext(), getOperands().getTypes(), getResultTypes())
           << ", but " << callee << " has type " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Inlining pure calls
//===----------------------------------------------------------------------===//

namespace {

/// Inlines one call: the callee's ops are cloned before it with the callee's
/// arguments mapped to the call's operands, and the call's results replaced
/// by what the callee returns.
LogicalResult inlineCall(PureCallOp call, FunctionOpInterface callee) {
  Region &body = callee.getFunctionBody();
  if (!llvm::hasSingleElement(body))
    return call.emitOpError("cannot be inlined: ")
           << call.getCalleeAttr() << " does not have a body of one block";
  Block &block = body.front();
  Operation *terminator = block.getTerminator();
  if (block.getNumArguments() != call.getNumOperands() ||
      terminator->getNumOperands() != call.getNumResults())
    return call.emitOpError("cannot be inlined: its operands and results do not match ")
           << call.getCalleeAttr();
  IRMapping mapping;
  mapping.map(block.getArguments(), call.getOperands());
  OpBuilder builder(call);
  for (Operation &op : block.without_terminator())
    builder.clone(op, mapping);
  for (auto [result, value] : llvm::zip(call.getResults(), terminator->getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));
  call.erase();
  return success();
}

} // namespace

LogicalResult xla_emitters::inlinePureCalls(Operation *root) {
  constexpr int kMaxRounds = 64;
  llvm::SetVector<Operation *> callees;
  for (int round = 0;; ++round) {
    SmallVector<PureCallOp> calls;
    root->walk([&](PureCallOp call) { calls.push_back(call); });
    if (calls.empty())
      break;
    if (round == kMaxRounds)
      return calls.front().emitOpError("cannot be inlined: calls nest deeper than ")
             << kMaxRounds << " levels";
    for (PureCallOp call : calls) {
      auto callee =
          SymbolTable::lookupNearestSymbolFrom<FunctionOpInterface>(call, call.getCalleeAttr());
      if (!callee || callee.isExternal())
        return call.emitOpError("cannot be inlined: ")
               << call.getCalleeAttr() << " is not a function with a body";
      callees.insert(callee);
      if (failed(inlineCall(call, callee)))
        return failure();
    }
  }
  for (Operation *callee : callees) {
    auto symbol = llvm::cast<SymbolOpInterface>(callee);
    Operation *table = SymbolTable::getNearestSymbolTable(callee);
    if (symbol.isPrivate() && table && SymbolTable::symbolKnownUseEmpty(callee, table))
      callee->erase();
  }
  return success();
}

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaEmittersAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaEmittersOps.cpp.inc"
