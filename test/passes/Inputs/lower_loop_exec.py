"""Expected output of lower_loop_exec.mlir, by brute force over each loop's domain.

Every test folds the points of its xla_indexing.loop, in the loop's order (the first range
variable outermost), into a hash h = (h * 31 + v) rem 1000000007 (truncating remainder, as
arith.remsi) and a count n, where v is given per test (usually r0 * 1000 + r1 for the map's
results r0, r1). The maps are written out here by hand, independently of the pass: floordiv and
mod are Python's // and % (floor semantics, positive divisors). The output is one line per test:
"id, h, n".
"""

from itertools import product

P = 1000000007


def rem(a, m):
    """arith.remsi: the remainder of truncating division."""
    r = abs(a) % m
    return -r if a < 0 else r


def fold(h, n, v):
    return rem(h * 31 + v, P), n + 1


def rng(lo, hi):
    return range(lo, hi + 1)


def domain(bounds, constraint=lambda *p: True):
    """The points of a box in lexicographic order (first variable outermost) that satisfy
    the constraint."""
    return [p for p in product(*(rng(lo, hi) for lo, hi in bounds)) if constraint(*p)]


out = []

# t1: dims from an scf.for over [0, 3]; two range vars; a constraint.
h, n = 0, 0
for d0 in rng(0, 3):
    for s0, s1 in domain([(0, 7), (0, 3)], lambda s0, s1: 0 <= s0 + s1 <= 8):
        r0, r1 = d0 * 32 + s0 * 4 + s1, (s0 + s1) % 3
        h, n = fold(h, n, r0 * 1000 + r1)
out.append((1, h, n))

# t2: negative bounds, no dims; v also uses the range variable s1.
h, n = 0, 0
for s0, s1 in domain([(-5, 4), (-3, -1)], lambda s0, s1: (s0 - s1) % 2 == 1):
    r0, r1 = s0 * 3 - s1, s0 // 2
    h, n = fold(h, n, r0 * 1000 + r1 + s1 * 1000000)
out.append((2, h, n))

# t3: a dim the pass knows nothing about (a function argument), from -3 to 7; the domain only
# has d0 in [0, 4]: outside, the body must not run.
h, n = 0, 0
for d0 in rng(-3, 7):
    if not 0 <= d0 <= 4:
        continue
    for (s0,) in domain([(-3, 5)]):
        r0 = d0 * 7 + s0 // 2
        h, n = fold(h, n, r0)
out.append((3, h, n))

# t4: nested loops; the inner loop's dim is the outer loop's result; the hash threads through.
h, n = 0, 0
for (s0,) in domain([(-2, 3)]):
    d0 = s0 * 2
    if not -4 <= d0 <= 6:
        continue
    for (t0,) in domain([(0, 4)], lambda t0: (d0 + t0) % 3 == 0):
        r0, r1 = d0 + t0, d0 - t0
        h, n = fold(h, n, r0 * 1000 + r1)
out.append((4, h, n))

# t5: known-empty domains: the results are the inits.
out.append((5, 777, 5))

# t6: no range vars; the dim runs over [-2, 8] outside the loop, the domain has [0, 5].
h, n = 0, 0
for d0 in rng(-2, 8):
    if 0 <= d0 <= 5:
        h, n = fold(h, n, (d0 * 5) % 7)
out.append((6, h, n))

# t7: a kernel: thread and block ids as dims, 1000 valid elements, two range vars.
h, n = 0, 0
for tx in rng(0, 127):
    for bx in rng(0, 7):
        if not 0 <= tx + bx * 128 <= 999:
            continue
        for s0, s1 in domain([(0, 1), (0, 2)]):
            linear = tx + bx * 128
            r0, r1 = linear // 10 + s0, linear % 10 + s1 * 10
            h, n = fold(h, n, r0 * 1000 + r1)
out.append((7, h, n))

# t8: results beyond 32 bits; a point constraint on a mod.
h, n = 0, 0
for d0 in range(0, 40001, 20000):
    for (s0,) in domain([(0, 9)], lambda s0: s0 % 3 == 1):
        r0, r1 = d0 * 65536 + s0, s0 % 5
        h, n = fold(h, n, r0 * 1000 + r1)
out.append((8, h, n))

# t9: a map without results: v from the range variables.
h, n = 0, 0
for s0, s1 in domain([(0, 4), (0, 4)], lambda s0, s1: 3 <= s0 + s1 <= 5):
    h, n = fold(h, n, s0 * 10 + s1)
out.append((9, h, n))

# t10: results up to 2^31 - 1, computed on i32.
h, n = 0, 0
for d0 in rng(1073741820, 1073741823):
    for (s0,) in domain([(0, 1)]):
        r0, r1 = d0 * 2 + s0, (d0 * 2 + s0) // 7
        h, n = fold(h, n, r0 * 1000 + r1)
out.append((10, h, n))

# t11: a dim of unknown range over [-1, 8] (bounds [1, 6]), a constraint on it alone and one
# on the range variables.
h, n = 0, 0
for d0 in rng(-1, 8):
    if not (1 <= d0 <= 6 and d0 % 3 in (0, 1)):
        continue
    for s0, s1 in domain([(0, 3), (-2, 2)], lambda s0, s1: 2 <= d0 + s0 + s1 <= 7):
        r0, r1 = d0 + s0, s1 - d0
        h, n = fold(h, n, r0 * 1000 + r1)
out.append((11, h, n))

for line in out:
    print(", ".join(str(x) for x in line))
