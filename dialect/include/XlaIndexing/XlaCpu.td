//===- XlaCpu.td - XLA's `xla_cpu` dialect, as its dumps print it -*- tablegen -*-===//
//
// The call frame of XLA's CPU kernels, which the later stages of a tiled
// kernel's pass log hold (after XLA's ModuleCallbackPass): the kernel takes a
// `!xla_cpu.call_frame`, loads its buffers and workgroup ids from it, and
// returns an `!xla_cpu.error`.
//
//===----------------------------------------------------------------------===//

#ifndef XLA_CPU_TD
#define XLA_CPU_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "XlaIndexing/XlaEmitters.td"

def XlaCpu_Dialect : Dialect {
  let name = "xla_cpu";
  let summary = "the call frame of XLA's CPU kernels";
  let cppNamespace = "::xla_cpu";
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::xla_emitters::XlaDialect"];
}

class XlaCpu_Type<string name, string typeMnemonic> : TypeDef<XlaCpu_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def XlaCpu_CallFrameType : XlaCpu_Type<"CallFrame", "call_frame"> {
  let summary = "the call frame a CPU kernel receives (`!xla_cpu.call_frame`)";
}

def XlaCpu_ErrorType : XlaCpu_Type<"Error", "error"> {
  let summary = "the status a CPU kernel returns (`!xla_cpu.error`)";
}

class XlaCpu_Op<string mnemonic, list<Trait> traits = []> : Op<XlaCpu_Dialect, mnemonic, traits>;

def XlaCpu_LoadOp : XlaCpu_Op<"load", [Pure]> {
  let summary = "the buffer `index` of a call frame";
  let description = [{
    ```mlir
    %0 = xla_cpu.load %frame, 0 : memref<384xf32>
    ```
  }];
  let arguments = (ins XlaCpu_CallFrameType:$call_frame, I32Attr:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$call_frame `,` $index attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def XlaCpu_ExtractWorkgroupIdOp : XlaCpu_Op<"extract_workgroup_id", [Pure]> {
  let summary = "the workgroup id along x, y or z of a call frame";
  let description = [{
    ```mlir
    %0 = xla_cpu.extract_workgroup_id %frame, x
    ```
  }];
  let arguments = (ins XlaCpu_CallFrameType:$call_frame, Xla_DimensionAttr:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$call_frame `,` custom<Dimension>($dimension) attr-dict";
}

def XlaCpu_SuccessOp : XlaCpu_Op<"success", [Pure]> {
  let summary = "the status of a kernel that succeeded";
  let description = [{
    ```mlir
    %0 = xla_cpu.success : !xla_cpu.error
    ```
  }];
  let results = (outs XlaCpu_ErrorType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif // XLA_CPU_TD
