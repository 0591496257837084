"""Writes large_graph.hlo: an entry computation of 600 instructions, each reading a recent
value and one from anywhere before it (long edges, as in a transformer's step), every fifth a
fusion of three instructions; 964 nodes, 120 clusters and 1,681 edges in the fusion graph.
Deterministic (a fixed seed): `python3 large_graph_generate.py > large_graph.hlo`."""

import random

random.seed(1)
SHAPE = "f32[64,128]{1,0}"
lines = [
    "HloModule large_graph",
    "%fused (p0: f32[64,128], p1: f32[64,128]) -> f32[64,128] {",
    f"  %p0 = {SHAPE} parameter(0)",
    f"  %p1 = {SHAPE} parameter(1)",
    f"  %m = {SHAPE} multiply(%p0, %p1)",
    f"  ROOT %r = {SHAPE} add(%m, %p0)",
    "}",
    "ENTRY %main (a: f32[64,128], b: f32[64,128], c: f32[64,128]) -> f32[64,128] {",
]
values = []
for i, name in enumerate("abc"):
    lines.append(f"  %{name} = {SHAPE} parameter({i})")
    values.append(f"%{name}")
for k in range(600):
    x = random.choice(values[-20:])
    y = random.choice(values)
    if k % 5 == 0:
        lines.append(f"  %v{k} = {SHAPE} fusion({x}, {y}), kind=kLoop, calls=%fused")
    else:
        op = random.choice(["add", "multiply", "subtract", "maximum"])
        lines.append(f"  %v{k} = {SHAPE} {op}({x}, {y})")
    values.append(f"%v{k}")
lines.append(f"  ROOT %out = {SHAPE} copy({values[-1]})")
lines.append("}")
print("\n".join(lines))
