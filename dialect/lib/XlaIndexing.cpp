//===- XlaIndexing.cpp - the xla_indexing dialect -------------------------===//
//
// The #xla_indexing.map attribute delegates its grammar to the Rust parser
// (XlaIndexing/XlaIndexingRust.h): parsing canonicalizes through it, the
// stored text is what it printed, and the verifier checks the stored text and
// counts against it.
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
  if (parser.parseLess())
    return {};
  SmallVector<Piece> pieces;
  std::string text;
  std::string piece;
  SMLoc quote = parser.getCurrentLocation();
  if (parser.parseString(&piece))
    return {};
  do {
    pieces.push_back({quote, text.size()});
    text += piece;
    quote = parser.getCurrentLocation();
  } while (succeeded(parser.parseOptionalString(&piece)));
  if (parser.parseGreater())
    return {};

  RustParse parsed = parseWithRust(text);
  if (!parsed.ok) {
    SMLoc at = parsed.info.errorColumn == 0
                   ? pieces.front().quote
                   : sourceLocation(pieces, std::min<size_t>(parsed.info.errorColumn - 1, text.size()));
    InFlightDiagnostic diag = parser.emitError(at);
    describeError(diag, parsed);
    return {};
  }
  const XlaIndexingMapInfo &info = parsed.info;
  return parser.getChecked<IndexingMapAttr>(pieces.front().quote, parser.getContext(), parsed.text,
                                            info.numDims, info.numRangeVars, info.numRuntimeVars,
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

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XlaIndexingAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XlaIndexingOps.cpp.inc"
