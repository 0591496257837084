//===- XlaIndexingRewrite.cpp - what Rust passes need beyond MLIR's C API -===//
//
// The C API runs the greedy pattern driver but gives it no listener, so a
// Rust analysis that keys facts by value cannot learn that a value was
// erased (and its memory reused by a new one). It also has no queries for
// dominance, side effects, isolation, affine validity or the ranges ops
// declare through InferIntRangeInterface. These functions
// give the Rust side exactly that, and MLIR's common subexpression
// elimination for passes that run it as a step.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaIndexingCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Rewrite.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

/// Tells the Rust side what the driver changes: every value and block that goes
/// away (the results of an erased op, an erased block and its arguments; the
/// driver erases nested ops and blocks one by one, each with its own
/// notification), every erased op, the results of ops changed in place, and
/// ops with regions changed in place (what their blocks may assume changed).
class ChangeListener : public RewriterBase::Listener {
public:
  ChangeListener(XlaIndexingChangeCallback onChange, void *userData)
      : onChange(onChange), userData(userData) {}

  void notifyOperationErased(Operation *op) override {
    for (Value result : op->getResults())
      onChange(XlaIndexingValueErased, result.getAsOpaquePointer(), userData);
    onChange(XlaIndexingOperationErased, op, userData);
  }

  // Called when an op changed in place, which includes every user of a value whose uses were
  // replaced: what is known of its results may have changed.
  void notifyOperationModified(Operation *op) override {
    for (Value result : op->getResults())
      onChange(XlaIndexingValueModified, result.getAsOpaquePointer(), userData);
    if (op->getNumRegions() != 0)
      onChange(XlaIndexingRegionsModified, op, userData);
  }

  void notifyBlockErased(Block *block) override {
    for (BlockArgument argument : block->getArguments())
      onChange(XlaIndexingValueErased, Value(argument).getAsOpaquePointer(), userData);
    onChange(XlaIndexingBlockErased, block, userData);
  }

private:
  XlaIndexingChangeCallback onChange;
  void *userData;
};

} // namespace

MlirLogicalResult mlirXlaIndexingApplyPatternsGreedily(MlirOperation op,
                                                       MlirFrozenRewritePatternSet patterns,
                                                       bool topDown, bool fold,
                                                       bool simplifyRegions, int64_t maxRewrites,
                                                       XlaIndexingChangeCallback onChange,
                                                       void *userData) {
  ChangeListener listener(onChange, userData);
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(topDown)
      .enableFolding(fold)
      .setMaxNumRewrites(maxRewrites < 0 ? GreedyRewriteConfig::kNoLimit : maxRewrites)
      .setRegionSimplificationLevel(simplifyRegions ? GreedySimplifyRegionLevel::Normal
                                                    : GreedySimplifyRegionLevel::Disabled)
      .setListener(&listener);
  return wrap(applyPatternsGreedily(unwrap(op), *unwrap(patterns), config));
}

bool mlirXlaIndexingValueIsUsableAt(MlirValue value, MlirOperation user) {
  Value v = unwrap(value);
  Operation *op = unwrap(user);
  Region *home = v.getParentRegion();
  // No op between the user and the value's region may be isolated from above.
  Operation *ancestor = op;
  while (ancestor->getParentRegion() != home) {
    Operation *parent = ancestor->getParentOp();
    if (!parent || parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return false;
    ancestor = parent;
  }
  // The common case without a dominance tree: the user is in the value's block.
  if (ancestor->getBlock() == v.getParentBlock()) {
    Operation *definition = v.getDefiningOp();
    return !definition || (definition != ancestor && definition->isBeforeInBlock(ancestor));
  }
  return DominanceInfo().properlyDominates(v, op);
}

bool mlirXlaIndexingOperationIsMemoryEffectFree(MlirOperation op) {
  return isMemoryEffectFree(unwrap(op));
}

bool mlirXlaIndexingValueIsValidAffineOperand(MlirValue value) {
  Value v = unwrap(value);
  return v.getType().isIndex() && (affine::isValidDim(v) || affine::isValidSymbol(v));
}

void mlirXlaIndexingEliminateCommonSubexpressions(MlirOperation op) {
  Operation *operation = unwrap(op);
  IRRewriter rewriter(operation->getContext());
  DominanceInfo dominance(operation);
  eliminateCommonSubExpressions(rewriter, dominance, operation);
}

bool mlirXlaIndexingInferResultRange(MlirOperation op, intptr_t result, const int64_t *operandLo,
                                     const int64_t *operandHi, intptr_t numOperands,
                                     int64_t *lo, int64_t *hi) {
  Operation *o = unwrap(op);
  auto infer = dyn_cast<InferIntRangeInterface>(o);
  if (!infer || numOperands != static_cast<intptr_t>(o->getNumOperands()) || result < 0 ||
      result >= static_cast<intptr_t>(o->getNumResults()))
    return false;
  Value target = o->getResult(result);
  unsigned targetWidth = ConstantIntRanges::getStorageBitwidth(target.getType());
  if (targetWidth == 0 || targetWidth > 64)
    return false;
  SmallVector<IntegerValueRange> operands;
  for (auto [i, operand] : llvm::enumerate(o->getOperands())) {
    unsigned width = ConstantIntRanges::getStorageBitwidth(operand.getType());
    if (width == 0 || width > 64) {
      operands.push_back(IntegerValueRange());
      continue;
    }
    // The caller's range, within the type's signed range.
    APInt typeMin = APInt::getSignedMinValue(width), typeMax = APInt::getSignedMaxValue(width);
    int64_t from = std::max(operandLo[i], typeMin.getSExtValue());
    int64_t to = std::min(operandHi[i], typeMax.getSExtValue());
    if (from > to) {
      operands.push_back(IntegerValueRange::getMaxRange(operand));
      continue;
    }
    operands.push_back(IntegerValueRange(ConstantIntRanges::fromSigned(
        APInt(width, from, /*isSigned=*/true), APInt(width, to, /*isSigned=*/true))));
  }
  bool found = false;
  infer.inferResultRangesFromOptional(operands, [&](Value v, const IntegerValueRange &range) {
    if (v != target || range.isUninitialized())
      return;
    const ConstantIntRanges &r = range.getValue();
    *lo = r.smin().getSExtValue();
    *hi = r.smax().getSExtValue();
    found = true;
  });
  return found;
}
