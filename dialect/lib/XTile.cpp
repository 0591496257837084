//===- XTile.cpp - XLA's `xtile` dialect ----------------------------------===//
//
// The entry function, tile extract/insert and the memref layout of XLA's
// tiled emitter, in XLA's textual form.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaEmitters.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xtile;

#include "XlaIndexing/XTileDialect.cpp.inc"

void XTileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "XlaIndexing/XTileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "XlaIndexing/XTileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> minorToMajor) {
  SmallVector<bool> seen(minorToMajor.size(), false);
  for (int64_t dim : minorToMajor) {
    if (dim < 0 || dim >= static_cast<int64_t>(minorToMajor.size()) || seen[dim])
      return emitError() << "xtile layout must be a permutation of 0 to "
                         << static_cast<int64_t>(minorToMajor.size()) - 1 << ", got ["
                         << minorToMajor << "]";
    seen[dim] = true;
  }
  return success();
}

AffineMap LayoutAttr::getAffineMap() const {
  SmallVector<unsigned> majorToMinor;
  for (int64_t dim : llvm::reverse(getMinorToMajor()))
    majorToMinor.push_back(static_cast<unsigned>(dim));
  return AffineMap::getPermutationMap(majorToMinor, getContext());
}

LogicalResult LayoutAttr::verifyLayout(ArrayRef<int64_t> shape,
                                       function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getMinorToMajor().size())
    return emitError() << "xtile layout of rank " << getMinorToMajor().size()
                       << " on a memref of rank " << shape.size();
  return success();
}

//===----------------------------------------------------------------------===//
// EntryFuncOp
//===----------------------------------------------------------------------===//

ParseResult EntryFuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> arguments, ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(arguments, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void EntryFuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult EntryFuncOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("returns nothing, but its type has ") << type.getNumResults() << " results";
  ArrayRef<Type> inputs = type.getInputs();
  if (inputs.empty() || !inputs.back().isIndex())
    return emitOpError("expected its last argument to be the tile id, an index");
  int64_t opaque = getNumOpaqueArgs();
  int64_t buffers = static_cast<int64_t>(inputs.size()) - 1 - opaque;
  if (opaque < 0 || buffers < 0)
    return emitOpError("has ") << opaque << " opaque arguments, but only "
                               << inputs.size() - 1 << " arguments before the tile id";
  for (int64_t i = 0; i < buffers; ++i)
    if (!llvm::isa<MemRefType>(inputs[i]))
      return emitOpError("argument #") << i << " must be a memref (a buffer), got " << inputs[i];
  if (getBody().empty())
    return emitOpError("must have a body");
  return success();
}

//===----------------------------------------------------------------------===//
// ExtractTileOp and InsertTileOp
//===----------------------------------------------------------------------===//

namespace {

/// Checks a tile of `buffer` at `offsets` with `shape` and `strides` against
/// `tile`, the tensor read or written: one offset, size and stride per buffer
/// dimension, positive sizes and strides, the same element type, and the
/// tensor's shape equal to the tile's with some unit dimensions dropped.
LogicalResult verifyTile(Operation *op, MemRefType buffer, RankedTensorType tile,
                         ValueRange offsets, ArrayRef<int64_t> shape,
                         ArrayRef<int64_t> strides) {
  int64_t rank = buffer.getRank();
  if (static_cast<int64_t>(offsets.size()) != rank)
    return op->emitOpError("expected ") << rank << " offsets (one per buffer dimension), got "
                                        << offsets.size();
  if (static_cast<int64_t>(shape.size()) != rank)
    return op->emitOpError("expected a tile shape of ")
           << rank << " sizes (one per buffer dimension), got " << shape.size();
  if (static_cast<int64_t>(strides.size()) != rank)
    return op->emitOpError("expected ") << rank << " strides (one per buffer dimension), got "
                                        << strides.size();
  for (auto [i, size] : llvm::enumerate(shape))
    if (size < 1)
      return op->emitOpError("tile size #") << i << " must be positive, got " << size;
  for (auto [i, stride] : llvm::enumerate(strides))
    if (stride < 1)
      return op->emitOpError("stride #") << i << " must be positive, got " << stride;
  if (buffer.getElementType() != tile.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " differs from the buffer's, "
           << buffer.getElementType();
  ArrayRef<int64_t> kept = tile.getShape();
  size_t next = 0;
  bool matches = true;
  for (int64_t size : shape) {
    if (next < kept.size() && kept[next] == size)
      ++next;
    else if (size != 1)
      matches = false;
  }
  if (!matches || next != kept.size())
    return op->emitOpError("tensor type ")
           << tile << " does not match the tile shape [" << shape
           << "] (only unit dimensions may be dropped)";
  return success();
}

} // namespace

LogicalResult ExtractTileOp::verify() {
  return verifyTile(*this, getSource().getType(), getResult().getType(), getOffsets(),
                    getFullTileShape(), getStrides());
}

LogicalResult InsertTileOp::verify() {
  return verifyTile(*this, getDestination().getType(), getSource().getType(), getOffsets(),
                    getFullTileShape(), getStrides());
}

#define GET_ATTRDEF_CLASSES
#include "XlaIndexing/XTileAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "XlaIndexing/XTileOps.cpp.inc"
