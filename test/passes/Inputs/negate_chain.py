"""Writes an xla_indexing.fusion named "chain" whose body negates its operand N times (the first
argument), as `xla-indexing import` writes such a fusion."""

import sys

n = int(sys.argv[1])
t = "tensor<4xf32>"
print(f"func.func @main(%a: {t}) -> {t} {{")
print(f'  %r = xla_indexing.fusion (%a) {{name = "chain", kind = "kLoop"}} : ({t}) -> {t} {{')
print(f"  ^bb0(%e0: {t}):")
for k in range(1, n + 1):
    print(f'    %e{k} = "stablehlo.negate"(%e{k - 1}) : ({t}) -> {t}')
print(f"    xla_indexing.yield %e{n} : {t}")
print("  }")
print(f"  return %r : {t}")
print("}")
