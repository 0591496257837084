//===- XlaIndexingPasses.cpp - passes whose bodies are written in Rust ----===//
//
// MLIR's C API can make passes (mlirCreateExternalPass) but gives them no
// options and cannot put them into the global registry, where
// `mlir-opt --pass-pipeline=...` and mlirParsePassPipeline look passes up.
// RustPass is one generic C++ pass described by an XlaIndexingPassSpec: its
// name, argument, description and options come from the spec (so
// `mlir-opt --help` lists them, in kebab case), and its body is the spec's
// Rust callback, which receives the option values.
//
//===----------------------------------------------------------------------===//

#include "XlaIndexing/XlaIndexing.h"
#include "XlaIndexing/XlaIndexingCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <memory>
#include <vector>

using namespace mlir;

namespace {

/// The value of an option that takes one of a list of names: the index of the name given.
enum class Choice : int64_t {};

class RustPass : public Pass {
public:
  explicit RustPass(const XlaIndexingPassSpec *spec)
      : Pass(TypeID::getFromOpaquePointer(spec)), spec(spec) {
    for (size_t i = 0; i < spec->numOptions; ++i) {
      const XlaIndexingPassOption &option = spec->options[i];
      if (option.isBool) {
        boolOptions.push_back(std::make_unique<Option<bool>>(
            *this, option.name, llvm::cl::desc(option.description),
            llvm::cl::init(option.defaultValue != 0)));
      } else if (option.numChoices > 0) {
        auto choice = std::make_unique<Option<Choice>>(
            *this, option.name, llvm::cl::desc(option.description),
            llvm::cl::init(Choice(option.defaultValue)));
        for (size_t k = 0; k < option.numChoices; ++k)
          choice->getParser().addLiteralOption(option.choices[k], Choice(k), option.choices[k]);
        choiceOptions.push_back(std::move(choice));
      } else {
        intOptions.push_back(std::make_unique<Option<int64_t>>(
            *this, option.name, llvm::cl::desc(option.description),
            llvm::cl::init(option.defaultValue)));
      }
    }
  }

  RustPass(const RustPass &other) : RustPass(other.spec) {}

  StringRef getName() const override { return spec->name; }
  StringRef getArgument() const override { return spec->argument; }
  StringRef getDescription() const override { return spec->description; }

  void getDependentDialects(DialectRegistry &registry) const override {
    // Ops the passes create: lower-apply makes arith, affine.apply and (for xla_indexing.loop)
    // scf.for and scf.if; lower-fusion parses kernels (gpu.module, gpu.func, memref, math,
    // arith) into the module it runs on; lower-xtile makes func.func, vector, arith and math.
    registry.insert<affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
                    gpu::GPUDialect, math::MathDialect, memref::MemRefDialect,
                    scf::SCFDialect, vector::VectorDialect,
                    xla_indexing::XlaIndexingDialect>();
  }

protected:
  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  std::unique_ptr<Pass> clonePass() const override { return std::make_unique<RustPass>(*this); }

  void runOnOperation() override {
    // Option values in the spec's order.
    std::vector<int64_t> values;
    size_t nextBool = 0, nextChoice = 0, nextInt = 0;
    for (size_t i = 0; i < spec->numOptions; ++i) {
      const XlaIndexingPassOption &option = spec->options[i];
      if (option.isBool)
        values.push_back(int64_t(bool(*boolOptions[nextBool++])));
      else if (option.numChoices > 0)
        values.push_back(int64_t(Choice(*choiceOptions[nextChoice++])));
      else
        values.push_back(int64_t(*intOptions[nextInt++]));
    }
    if (!spec->run(wrap(getOperation()), values.data(), values.size()))
      signalPassFailure();
  }

private:
  const XlaIndexingPassSpec *spec;
  std::vector<std::unique_ptr<Option<bool>>> boolOptions;
  std::vector<std::unique_ptr<Option<Choice>>> choiceOptions;
  std::vector<std::unique_ptr<Option<int64_t>>> intOptions;
};

} // namespace

void mlirXlaIndexingRegisterPass(const XlaIndexingPassSpec *spec) {
  registerPass([spec]() -> std::unique_ptr<Pass> { return std::make_unique<RustPass>(spec); });
}

MlirPass mlirXlaIndexingCreatePass(const XlaIndexingPassSpec *spec, MlirStringRef options,
                                   XlaIndexingStringCallback onError, void *userData) {
  auto pass = std::make_unique<RustPass>(spec);
  if (failed(pass->initializeOptions(unwrap(options), [&](const Twine &message) {
        std::string text = message.str();
        onError(text.data(), text.size(), userData);
        return failure();
      })))
    return MlirPass{nullptr};
  return wrap(static_cast<Pass *>(pass.release()));
}
