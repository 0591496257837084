//===- XlaEmitters.td - XLA's `xla` dialect, as its dumps print it -*- tablegen -*-===//
//
// The ops and attributes of XLA's emitter dialect that XLA's CPU and GPU
// emitters write (`xla.apply_indexing`, `xla.loop`, `xla.pure_call`,
// `xla.workgroup_id`, ...), with XLA's textual forms, so that the dumps of
// `--xla_dump_emitter_re` parse, verify and print back unchanged. Maps go
// through the project's one grammar (XlaIndexing/XlaIndexingRust.h), like
// `#xla_indexing.map`, and print in XLA's spelling (`/` for floordiv).
//
//===----------------------------------------------------------------------===//

#ifndef XLA_EMITTERS_TD
#define XLA_EMITTERS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Xla_Dialect : Dialect {
  let name = "xla";
  let summary = "XLA's emitter ops and attributes, in XLA's textual form";
  let description = [{
    What XLA's emitters write before lowering: indexing maps applied to
    values, loops over a map's domain, calls of pure functions and workgroup
    ids, plus the discardable attributes XLA puts on functions, arguments and
    ops (`xla.range`, `xla.slice_index`, `xla.invariant`, `xla.entry`,
    `xla.is_reduction`, `xla.backend_kind`, ...). The dialect verifies the
    ones whose meaning it knows.
  }];
  let cppNamespace = "::xla_emitters";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Checks the discardable attribute `attribute` of the dialect wherever
    /// it is attached; `emitError` locates the error.
    static ::mlir::LogicalResult verifyDiscardable(
        ::mlir::NamedAttribute attribute,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Xla_IndexingMapAttr : AttrDef<Xla_Dialect, "IndexingMap"> {
  let mnemonic = "indexing_map";
  let summary = "an indexing map in XLA's text form";
  let description = [{
    XLA's `#xla.indexing_map<"...">`. The text is parsed by the project's
    one map grammar (the same Rust parser as `#xla_indexing.map`, which reads
    XLA's 2026 spelling where `/` is floordiv) and stored canonical, in XLA's
    spelling, with the counts verifiers need.

    Example:

    ```mlir
    #xla.indexing_map<"(d0, d1) -> ((d0 - 1) / 2), domain: d0 in [1, 47], d1 in [0, 15]">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"canonical map text, XLA's spelling">:$text,
    "unsigned":$numDims,
    "unsigned":$numRangeVars,
    "unsigned":$numRuntimeVars,
    "unsigned":$numResults,
    "unsigned":$numConstraints);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses `text` with the Rust parser and returns the attribute holding
    /// its canonical form, or a null attribute after reporting the error
    /// through `emitError`.
    static IndexingMapAttr parseText(
        ::mlir::MLIRContext *context, ::llvm::StringRef text,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);

    /// Number of operands an op applying this map takes.
    unsigned getNumInputs() const {
      return getNumDims() + getNumRangeVars() + getNumRuntimeVars();
    }
  }];
}

def Xla_BackendKind : I32EnumAttr<"BackendKind", "the backend a kernel is for", [
    I32EnumAttrCase<"cpu", 0>, I32EnumAttrCase<"gpu", 1>, I32EnumAttrCase<"tpu", 2>]> {
  let cppNamespace = "::xla_emitters";
  let genSpecializedAttr = 0;
}

def Xla_BackendKindAttr : EnumAttr<Xla_Dialect, Xla_BackendKind, "backend_kind"> {
  let summary = "the backend of a kernel: `#xla.backend_kind<cpu>`";
  let assemblyFormat = "`<` $value `>`";
}

def Xla_Dimension : I32EnumAttr<"Dimension", "a grid dimension", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let cppNamespace = "::xla_emitters";
  let genSpecializedAttr = 0;
}

def Xla_DimensionAttr : EnumAttr<Xla_Dialect, Xla_Dimension, "dim"> {
  let summary = "a grid dimension: x, y or z";
}

def Xla_ExtraBackendOptionsAttr : AttrDef<Xla_Dialect, "ExtraBackendOptions"> {
  let mnemonic = "extra_backend_options";
  let summary = "extra backend options of a module";
  let description = [{
    The option names XLA attaches to a kernel module, printed as XLA does:

    ```mlir
    #xla<extra_backend_options["xla_cpu_disable_loop_unrolling"]>
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$options);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Xla_Op<string mnemonic, list<Trait> traits = []> : Op<Xla_Dialect, mnemonic, traits>;

def Xla_ApplyIndexingOp : Xla_Op<"apply_indexing", [Pure]> {
  let summary = "evaluates an indexing map";
  let description = [{
    Applies `indexing_map_attr` to its operands: the dimension values in
    parentheses, the symbol values (range, then runtime variables) in square
    brackets. Returns one index per map result. As in XLA, the map may not
    have constraints.

    ```mlir
    %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 / 2), domain: d0 in [0, 9]">(%a)
    ```
  }];
  let arguments = (ins Variadic<Index>:$operands, Xla_IndexingMapAttr:$indexing_map_attr);
  let results = (outs Variadic<Index>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Xla_LoopOp : Xla_Op<"loop", [AttrSizedOperandSegments, RecursiveMemoryEffects, SingleBlock]> {
  let summary = "runs its body for every point of an indexing map's domain";
  let description = [{
    XLA's loop: iterates the map's range variables over their bounds for the
    given dimension values, runs the body for every point that satisfies the
    map's constraints, and carries `inits` through `xla.yield`. The body's
    arguments are the range variables, the map's results, then the carried
    values (the same form as `xla_indexing.loop`).

    ```mlir
    %r = xla.loop ()[%i] -> (%ra) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
        iter_args(%iter = %t) -> (tensor<8xf32>) {
      ...
      xla.yield %next : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$dims,
    Variadic<AnyType>:$inits,
    Xla_IndexingMapAttr:$indexing_map_attr);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def Xla_YieldOp : Xla_Op<"yield", [Pure, ReturnLike, Terminator, HasParent<"LoopOp">]> {
  let summary = "gives the next loop-carried values of an xla.loop";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = [{ attr-dict ($values^ `:` type($values))? }];
  let hasVerifier = 1;
}

def Xla_PureCallOp : Xla_Op<"pure_call", [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "calls a function without side effects";
  let description = [{
    Calls `callee`, a function of the enclosing symbol table, whose argument
    and result types must be the operand and result types.

    ```mlir
    %v = xla.pure_call @fused(%arg0, %i) : (tensor<24x16xf32>, index) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def Xla_WorkGroupIdOp : Xla_Op<"workgroup_id", [Pure]> {
  let summary = "the id of the running workgroup along x, y or z";
  let description = [{
    ```mlir
    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
    ```
  }];
  let arguments = (ins Xla_DimensionAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "custom<Dimension>($dimension) attr-dict";
}

#endif // XLA_EMITTERS_TD
