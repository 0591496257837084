//===- SolvedRanges.cpp - MLIR's integer range analysis for Rust passes ---===//
//
// The C API has no dataflow solver. `xla-indexing-simplify` reads ranges from
// the ops it models and asks InferIntRangeInterface op by op; what only a
// whole-function fixed point finds (the union of an `scf.if`'s or a branch's
// values, `scf.while` and block arguments, the unsigned ranges of wrapping
// arithmetic) comes from the solver that MLIR's own `int-range-optimizations`
// runs. This file runs it and hands the Rust side its facts.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaIndexingCAPI.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

/// The solver's range of `value`, if it is an integer or index (not a vector
/// of them) of at most 64 bits and the solver bounds it.
std::optional<ConstantIntRanges> solvedRange(DataFlowSolver &solver, Value value) {
  if (!value.getType().isIntOrIndex())
    return std::nullopt;
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  unsigned width = range.smin().getBitWidth();
  if (width == 0 || width > 64)
    return std::nullopt;
  return range;
}

/// Whether the solver can run on `root`. LLVM 22's integer range analysis
/// reads the bounds of every loop with induction variables without asking
/// whether the loop gives them; an `affine.for` whose bounds are not constants
/// (or a `tensor.generate`) gives none, and the analysis crashes
/// (llvm-project issue 180312, fixed after 22.1).
bool solvable(Operation *root) {
  return !root
              ->walk([](LoopLikeOpInterface loop) {
                bool boundsMissing = !loop.getLoopLowerBounds() || !loop.getLoopUpperBounds() ||
                                     !loop.getLoopSteps();
                return loop.getLoopInductionVars() && boundsMissing ? WalkResult::interrupt()
                                                                    : WalkResult::advance();
              })
              .wasInterrupted();
}

/// An op computing `value` of `type` before `user`: made by the dialect of the
/// op that computed it (`index.constant`, `arith.constant`, ...), else by
/// `arith` when that dialect is loaded; null when neither can.
Value materialize(OpBuilder &builder, Operation *user, Type type, const APInt &value) {
  Attribute attribute = type.isInteger(1)
                            ? Attribute(builder.getBoolAttr(!value.isZero()))
                            : Attribute(builder.getIntegerAttr(type, value));
  if (Operation *made = user->getDialect()
                            ? user->getDialect()->materializeConstant(builder, attribute, type,
                                                                      user->getLoc())
                            : nullptr)
    return made->getResult(0);
  if (!user->getContext()->getLoadedDialect<arith::ArithDialect>())
    return {};
  return arith::ConstantOp::create(builder, user->getLoc(), type,
                                   builder.getIntegerAttr(type, value));
}

} // namespace

intptr_t mlirXlaIndexingSolveIntegerRanges(MlirOperation op, XlaIndexingRangeCallback onRange,
                                          void *userData) {
  Operation *root = unwrap(op);
  if (!solvable(root))
    return -1;
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(root)))
    return -1;
  // Results that take one value become that constant; the ops are collected
  // first, since replacing while walking would visit the new constants.
  SmallVector<Operation *> ops;
  root->walk([&](Operation *o) {
    if (o != root && !o->hasTrait<OpTrait::ConstantLike>() && o->getNumResults() > 0)
      ops.push_back(o);
  });
  intptr_t replaced = 0;
  OpBuilder builder(root->getContext());
  for (Operation *o : ops) {
    bool changed = false;
    for (Value result : o->getResults()) {
      std::optional<ConstantIntRanges> range = solvedRange(solver, result);
      std::optional<APInt> value = range ? range->getConstantValue() : std::nullopt;
      if (!value || result.use_empty())
        continue;
      builder.setInsertionPoint(o);
      if (Value constant = materialize(builder, o, result.getType(), *value)) {
        result.replaceAllUsesWith(constant);
        ++replaced;
        changed = true;
      }
    }
    if (changed && o->use_empty() && isMemoryEffectFree(o) && o->getNumRegions() == 0)
      o->erase();
  }
  auto report = [&](Value value) {
    if (std::optional<ConstantIntRanges> range = solvedRange(solver, value))
      onRange(wrap(value), range->smin().getSExtValue(), range->smax().getSExtValue(),
              userData);
  };
  root->walk([&](Operation *o) {
    for (Value result : o->getResults())
      report(result);
    for (Region &region : o->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          report(argument);
  });
  return replaced;
}
