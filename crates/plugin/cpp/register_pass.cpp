//===- register_pass.cpp - put a Rust pass into MLIR's pass registry ------===//
//
// MLIR 22's C API cannot add a pass to the global registry (mlir::registerPass),
// which is where `mlir-opt --pass-pipeline=...` looks passes up by name. This is
// the only C++ the plugin needs: `factory` returns a pass made in Rust by
// mlirCreateExternalPass, which carries its name, argument and description.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <memory>

extern "C" void xlaIndexingRegisterPass(MlirPass (*factory)(void)) {
  mlir::registerPass([factory]() -> std::unique_ptr<mlir::Pass> {
    return std::unique_ptr<mlir::Pass>(unwrap(factory()));
  });
}
