#!/usr/bin/env python3
"""The simplifier benchmark: ours against ISL, TVM and mlir-opt on one seeded corpus.

Reads the corpus (JSON lines of the `xla-indexing simplify --jsonl` protocol, written by
`cargo run --release -p xla-indexing-core --example simplify_corpus`), simplifies every expression
with each tool, reads every answer back into our expression syntax, checks that it equals the input
at every point of the domain (numpy enumeration of the domain, or z3 for boxes that are too large),
and prints per tool: the cases where it reaches the cheapest form any tool found (cost as
`Expr::cost`: floordiv/ceildiv/mod count, then operations, then the sum of |coefficients|), the
unsound answers, and the median and 95th percentile time per expression.

`cargo xtask bench simplify` installs the peers in a venv and runs this; see bench/simplify/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

# ---------------------------------------------------------------------------------------------
# Expressions: the normal form of core's `Expr`.
#
# A `Lin` is `Σ coefficient · atom + constant` with like atoms merged and zero coefficients
# dropped, terms in the order of core's `Ord` for atoms (so `show` prints what core prints); an atom
# is ("v", i), or (op, Lin, k) with op in floordiv/ceildiv/mod and k >= 2 (the normal form has
# positive divisors, see `make_div`). Peers' answers that leave the quasi-affine language (TVM's min/max/select) use the
# atoms ("min"|"max", Lin, Lin) and ("select", (Lin, cmp, Lin), Lin, Lin): they can be evaluated
# for the soundness check but have no cost in our syntax.
# ---------------------------------------------------------------------------------------------

DIVMOD = ("floordiv", "ceildiv", "mod")


@dataclass(frozen=True)
class Lin:
    terms: tuple  # ((atom, coef), ...) sorted by atom_key
    const: int = 0

    @staticmethod
    def of(terms: dict, const: int) -> "Lin":
        items = [(a, c) for a, c in terms.items() if c != 0]
        items.sort(key=lambda t: atom_key(t[0]))
        return Lin(tuple(items), const)

    @staticmethod
    def constant(c: int) -> "Lin":
        return Lin((), c)

    @staticmethod
    def atom(a) -> "Lin":
        return Lin(((a, 1),), 0)

    def is_const(self) -> bool:
        return not self.terms

    def __add__(self, o: "Lin") -> "Lin":
        d = dict(self.terms)
        for a, c in o.terms:
            d[a] = d.get(a, 0) + c
        return Lin.of(d, self.const + o.const)

    def scale(self, k: int) -> "Lin":
        if k == 0:
            return Lin.constant(0)
        return Lin(tuple((a, c * k) for a, c in self.terms), self.const * k)

    def __sub__(self, o: "Lin") -> "Lin":
        return self + o.scale(-1)


ATOM_ORDER = {"v": 0, "floordiv": 1, "ceildiv": 2, "mod": 3, "min": 4, "max": 5, "select": 6}


def atom_key(a) -> tuple:
    """The order of core's derived `Ord` on `Atom` (Var < FloorDiv < CeilDiv < Mod; an `Expr`
    compares its terms, then its constant)."""
    if a[0] == "v":
        return (0, a[1])
    if a[0] in DIVMOD:
        return (ATOM_ORDER[a[0]], lin_key(a[1]), a[2])
    return (ATOM_ORDER[a[0]], repr(a))


def lin_key(e: Lin) -> tuple:
    return (tuple((atom_key(a), c) for a, c in e.terms), e.const)


def content(e: Lin) -> int:
    """The gcd of every coefficient and the constant (0 for the zero expression)."""
    g = abs(e.const)
    for _, c in e.terms:
        g = math.gcd(g, c)
    return g


def split_multiples(e: Lin, k: int) -> tuple[Lin, Lin]:
    """`e = k * multiples + rest`, multiples being the terms whose coefficient k divides."""
    mult = Lin.of({a: c // k for a, c in e.terms if c % k == 0}, 0)
    rest = Lin.of({a: c for a, c in e.terms if c % k != 0}, e.const)
    return mult, rest


def exact_div(e: Lin, g: int) -> Lin:
    return Lin(tuple((a, c // g) for a, c in e.terms), e.const // g)


def make_div(op: str, x: Lin, k: int) -> Lin:
    """`x op k` in core's normal form: the rewrites that `Expr::floor_div`, `Expr::ceil_div` and
    `Expr::modulo` apply whatever the bounds (crates/core/src/expr.rs), so that an answer read
    back here costs what it costs when core parses it. Divisors of the result are at least 2."""
    if k == 0:
        raise ValueError("division by zero")
    if op == "floordiv":
        if k < 0:
            return make_div("floordiv", x.scale(-1), -k)
        if k == 1:
            return x
        if x.is_const():
            return Lin.constant(x.const // k)
        outside, rest = split_multiples(x, k)
        if rest.is_const():
            return outside + Lin.constant(rest.const // k)
        g = math.gcd(content(rest), k)
        rest, k = exact_div(rest, g), k // g
        if k == 1:
            inner = rest
        elif len(rest.terms) == 1 and rest.terms[0][1] == 1 and rest.const == 0 and rest.terms[0][0][0] == "floordiv":
            _, y, p = rest.terms[0][0]
            inner = make_div("floordiv", y, p * k)
        else:
            inner = Lin.atom(("floordiv", rest, k))
        return outside + inner
    if op == "ceildiv":
        if k < 0:
            return make_div("floordiv", x, -k).scale(-1)
        if k == 1:
            return x
        if x.is_const():
            return Lin.constant(-((-x.const) // k))
        outside, rest = split_multiples(x, k)
        if rest.is_const():
            return outside + Lin.constant(-((-rest.const) // k))
        g = math.gcd(content(rest), k)
        rest, k = exact_div(rest, g), k // g
        return outside + (rest if k == 1 else Lin.atom(("ceildiv", rest, k)))
    # mod, with the sign of k
    if k < 0:
        return make_div("mod", x.scale(-1), -k).scale(-1)
    if k == 1:
        return Lin.constant(0)
    if x.is_const():
        return Lin.constant(x.const % k)
    _, rest = split_multiples(x, k)
    if rest.is_const():
        return Lin.constant(rest.const % k)
    g = math.gcd(content(rest), k)
    rest, m = exact_div(rest, g), k // g
    if len(rest.terms) == 1 and rest.terms[0][1] == 1 and rest.const == 0 and rest.terms[0][0][0] == "mod" and rest.terms[0][0][2] % m == 0:
        inner = make_div("mod", rest.terms[0][0][1], m)
    elif m == 1:
        inner = Lin.constant(0)
    else:
        inner = Lin.atom(("mod", rest, m))
    return inner.scale(g)


@dataclass(frozen=True, order=True)
class Cost:
    div_mods: int
    ops: int
    coefficients: int

    def __str__(self) -> str:
        return f"({self.div_mods},{self.ops},{self.coefficients})"


def cost(e: Lin) -> Cost | None:
    """`Expr::cost`; None for answers outside the quasi-affine language."""
    acc = [0, 0, 0]

    def walk(x: Lin) -> bool:
        n = len(x.terms) + (1 if x.const != 0 else 0)
        acc[1] += max(n - 1, 0)
        for a, c in x.terms:
            if c != 1:
                acc[1] += 1
                acc[2] += abs(c)
            if a[0] in DIVMOD:
                acc[0] += 1
                acc[1] += 1
                if not walk(a[1]):
                    return False
            elif a[0] != "v":
                return False
        return True

    return Cost(*acc) if walk(e) else None


def show(e: Lin) -> str:
    """Our printer's text (crates/core/src/print.rs)."""
    if not e.terms:
        return str(e.const)
    out = []
    for i, (a, c) in enumerate(e.terms):
        neg, mag = c < 0, abs(c)
        out.append(("-" if neg else "") if i == 0 else (" - " if neg else " + "))
        if a[0] == "v":
            out.append(f"d{a[1]}")
        elif a[0] in DIVMOD:
            inner = show(a[1])
            if len(a[1].terms) != 1 or a[1].terms[0][1] != 1 or a[1].const != 0 or a[1].terms[0][0][0] != "v":
                inner = f"({inner})"
            text = f"{inner} {a[0]} {a[2]}"
            bare = mag == 1 and not (i == 0 and neg)
            out.append(text if bare else f"({text})")
        elif a[0] in ("min", "max"):
            out.append(f"{a[0]}({show(a[1])}, {show(a[2])})")
        else:
            (l, op, r), t, f = a[1], a[2], a[3]
            out.append(f"select({show(l)} {op} {show(r)}, {show(t)}, {show(f)})")
        if mag != 1:
            out.append(f" * {mag}")
    if e.const > 0:
        out.append(f" + {e.const}")
    elif e.const < 0:
        out.append(f" - {-e.const}")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# The parser of our syntax (and of mlir-opt's affine expressions, which share it):
#   sum := signed ('+' signed | '-' signed)*      signed := '-' signed | term
#   term := factor (('*' | 'floordiv' | 'ceildiv' | 'mod') factor)*
#   factor := integer | name | '(' sum ')' | '-' factor
# A leading minus negates the whole term (`-x floordiv 2` is `-(x floordiv 2)`), as in core.
# ---------------------------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


class ParseError(Exception):
    pass


class Parser:
    def __init__(self, text: str, names: dict[str, Lin]):
        self.toks = []
        for m in TOKEN.finditer(text):
            if m.group(1):
                self.toks.append(("int", int(m.group(1))))
            elif m.group(2):
                self.toks.append(("id", m.group(2)))
            elif m.group(3) and not m.group(3).isspace():
                self.toks.append(("p", m.group(3)))
        self.toks.append(("eof", None))
        self.i = 0
        self.names = names

    def peek(self):
        return self.toks[self.i]

    def eat(self, kind, value=None) -> bool:
        t = self.toks[self.i]
        if t[0] == kind and (value is None or t[1] == value):
            self.i += 1
            return True
        return False

    def parse(self) -> Lin:
        e = self.sum()
        if self.peek()[0] != "eof":
            raise ParseError(f"unexpected {self.peek()[1]!r}")
        return e

    def sum(self) -> Lin:
        acc = self.signed()
        while True:
            if self.eat("p", "+"):
                acc = acc + self.signed()
            elif self.eat("p", "-"):
                acc = acc - self.signed()
            else:
                return acc

    def signed(self) -> Lin:
        if self.eat("p", "-"):
            return self.signed().scale(-1)
        return self.term()

    def term(self) -> Lin:
        acc = self.factor()
        while True:
            t = self.peek()
            if t == ("p", "*"):
                op = "*"
            elif t[0] == "id" and t[1] in DIVMOD:
                op = t[1]
            else:
                return acc
            self.i += 1
            rhs = self.factor()
            if op == "*":
                if rhs.is_const():
                    acc = acc.scale(rhs.const)
                elif acc.is_const():
                    acc = rhs.scale(acc.const)
                else:
                    raise ParseError("product of two variables")
            else:
                if not rhs.is_const():
                    raise ParseError(f"{op} by a variable")
                acc = make_div(op, acc, rhs.const)

    def factor(self) -> Lin:
        kind, value = self.peek()
        self.i += 1
        if kind == "int":
            return Lin.constant(value)
        if kind == "p" and value == "-":
            return self.factor().scale(-1)
        if kind == "p" and value == "(":
            e = self.sum()
            if not self.eat("p", ")"):
                raise ParseError("expected ')'")
            return e
        if kind == "id" and value in self.names:
            return self.names[value]
        raise ParseError(f"unexpected {value!r}")


def dim_names(n: int) -> dict[str, Lin]:
    return {f"d{i}": Lin.atom(("v", i)) for i in range(n)}


def parse(text: str, n: int) -> Lin:
    return Parser(text, dim_names(n)).parse()


# ---------------------------------------------------------------------------------------------
# Evaluation and the soundness check.
# ---------------------------------------------------------------------------------------------


def evaluate(e: Lin, point: list) -> np.ndarray:
    """`e` at every point; `point[i]` is the array of values of d_i."""
    acc = np.full(point[0].shape if point else (), e.const, dtype=np.int64)
    for a, c in e.terms:
        if a[0] == "v":
            v = point[a[1]]
        elif a[0] == "floordiv":
            v = np.floor_divide(evaluate(a[1], point), a[2])
        elif a[0] == "ceildiv":
            v = -np.floor_divide(-evaluate(a[1], point), a[2])
        elif a[0] == "mod":
            v = np.mod(evaluate(a[1], point), a[2])
        elif a[0] == "min":
            v = np.minimum(evaluate(a[1], point), evaluate(a[2], point))
        elif a[0] == "max":
            v = np.maximum(evaluate(a[1], point), evaluate(a[2], point))
        else:
            (l, op, r), t, f = a[1], a[2], a[3]
            lv, rv = evaluate(l, point), evaluate(r, point)
            cond = {"<": lv < rv, "<=": lv <= rv, "==": lv == rv, "!=": lv != rv, ">": lv > rv, ">=": lv >= rv}[op]
            v = np.where(cond, evaluate(t, point), evaluate(f, point))
        acc = acc + c * v
    return acc


ENUMERATION_LIMIT = 1 << 25  # larger boxes are checked by z3
CHUNK = 1 << 20


@dataclass
class Case:
    id: str
    family: str
    bounds: list  # [(lo, hi)] per variable
    constraints: list  # [(Lin, lo, hi)]
    expr: Lin
    text: str
    request: dict

    @property
    def box(self) -> int:
        return math.prod(hi - lo + 1 for lo, hi in self.bounds)

    def chunks(self):
        """The domain in chunks of at most CHUNK points, each as one array of values per variable."""
        sizes = [hi - lo + 1 for lo, hi in self.bounds]
        for start in range(0, self.box, CHUNK):
            rest = np.arange(start, min(start + CHUNK, self.box), dtype=np.int64)
            point = [None] * len(sizes)
            for i in range(len(sizes) - 1, -1, -1):  # row-major: the last variable varies fastest
                rest, digit = np.divmod(rest, sizes[i])
                point[i] = digit + self.bounds[i][0]
            mask = np.ones(point[0].shape if point else (1,), dtype=bool)
            for e, lo, hi in self.constraints:
                v = evaluate(e, point)
                mask &= (v >= lo) & (v <= hi)
            yield [p[mask] for p in point]


def z3_expr(e: Lin, xs, z3):
    """`e` as a z3 integer term. z3's div and mod are Euclidean, which equals floor division for
    the positive divisors of the normal form."""
    acc = z3.IntVal(e.const)
    for a, c in e.terms:
        if a[0] == "v":
            v = xs[a[1]]
        elif a[0] in DIVMOD:
            x, k = z3_expr(a[1], xs, z3), a[2]
            v = {"floordiv": lambda: x / k, "ceildiv": lambda: -((-x) / k), "mod": lambda: x % k}[a[0]]()
        elif a[0] in ("min", "max"):
            l, r = z3_expr(a[1], xs, z3), z3_expr(a[2], xs, z3)
            v = z3.If(l <= r, l, r) if a[0] == "min" else z3.If(l >= r, l, r)
        else:
            (l, op, r), t, f = a[1], a[2], a[3]
            lv, rv = z3_expr(l, xs, z3), z3_expr(r, xs, z3)
            cond = {"<": lv < rv, "<=": lv <= rv, "==": lv == rv, "!=": lv != rv, ">": lv > rv, ">=": lv >= rv}[op]
            v = z3.If(cond, z3_expr(t, xs, z3), z3_expr(f, xs, z3))
        acc = acc + c * v
    return acc


def check(case: Case, answers: dict) -> dict:
    """Per tool, whether its answer equals the input at every point of the domain: 'sound',
    'UNSOUND' or 'unknown' (z3 gave up)."""
    verdicts = {t: "sound" for t, a in answers.items() if a == case.expr}
    todo = {t: a for t, a in answers.items() if t not in verdicts}
    if not todo:
        return verdicts
    if case.box <= ENUMERATION_LIMIT:
        for point in case.chunks():
            if point and point[0].size == 0:
                continue
            want = evaluate(case.expr, point)
            for t, a in list(todo.items()):
                if not np.array_equal(want, evaluate(a, point)):
                    verdicts[t] = "UNSOUND"
                    del todo[t]
        verdicts.update({t: "sound" for t in todo})
        return verdicts
    import z3

    xs = [z3.Int(f"d{i}") for i in range(len(case.bounds))]
    for t, a in todo.items():
        s = z3.Solver()
        s.set("timeout", 60000)
        for x, (lo, hi) in zip(xs, case.bounds):
            s.add(x >= lo, x <= hi)
        for e, lo, hi in case.constraints:
            v = z3_expr(e, xs, z3)
            s.add(v >= lo, v <= hi)
        s.add(z3_expr(case.expr, xs, z3) != z3_expr(a, xs, z3))
        r = s.check()
        verdicts[t] = "sound" if r == z3.unsat else "UNSOUND" if r == z3.sat else "unknown"
    return verdicts


# ---------------------------------------------------------------------------------------------
# The tools. Each returns, per case, (answer Lin or None, status, ns).
# ---------------------------------------------------------------------------------------------


@dataclass
class Result:
    answer: Lin | None  # None: no answer (error, or a form outside our syntax)
    note: str = ""  # why there is no answer, or a remark
    ns: float | None = None
    raw: Lin | None = None  # an answer outside our syntax, kept for the soundness check


def run_ours(binary: str, cases: list[Case], reps: int) -> dict[str, Result]:
    lines = "".join(json.dumps(c.request) + "\n" for c in cases)
    out = subprocess.run([binary, "simplify", "--jsonl"], input=lines * reps, capture_output=True, text=True, check=True)
    results: dict[str, Result] = {}
    by_id = {c.id: c for c in cases}
    drift: set[str] = set()
    for line in out.stdout.splitlines():
        r = json.loads(line)
        case = by_id[r["id"]]
        if "error" in r:
            results[case.id] = Result(None, "error: " + r["error"])
            continue
        prev = results.get(case.id)
        ns = r["ns"] if prev is None else min(prev.ns, r["ns"])
        answer = parse(r["expr"], len(case.bounds))
        if show(answer) != r["expr"]:
            drift.add(case.id)
        results[case.id] = Result(answer, "", ns)
    if drift:
        # Our answers are in core's normal form, which this file mirrors to compute costs.
        print(f"warning: {len(drift)} answers of ours print differently once read here (e.g. {sorted(drift)[0]}): "
              "core's normal form changed, update make_div/atom_key", file=sys.stderr)
    return results


def tvm_convert(node, names, tvm_tir) -> Lin:
    """A TVM PrimExpr (tvm.tirx) as a Lin."""
    T = tvm_tir
    conv = lambda n: tvm_convert(n, names, T)  # noqa: E731
    if isinstance(node, T.IntImm):
        return Lin.constant(int(node.value))
    if isinstance(node, T.Var):
        return names[node.name]
    if isinstance(node, T.Add):
        return conv(node.a) + conv(node.b)
    if isinstance(node, T.Sub):
        return conv(node.a) - conv(node.b)
    if isinstance(node, T.Mul):
        a, b = conv(node.a), conv(node.b)
        if b.is_const():
            return a.scale(b.const)
        if a.is_const():
            return b.scale(a.const)
        raise ParseError("product of two variables")
    if isinstance(node, (T.FloorDiv, T.FloorMod)):
        a, b = conv(node.a), conv(node.b)
        if not b.is_const():
            raise ParseError("division by a variable")
        return make_div("floordiv" if isinstance(node, T.FloorDiv) else "mod", a, b.const)
    if isinstance(node, (T.Min, T.Max)):
        return Lin.atom(("min" if isinstance(node, T.Min) else "max", conv(node.a), conv(node.b)))
    if isinstance(node, T.Cast):
        return conv(node.value)
    if isinstance(node, T.Select) or (isinstance(node, T.Call) and node.op.name == "tirx.if_then_else"):
        cond, t, f = (node.condition, node.true_value, node.false_value) if isinstance(node, T.Select) else node.args
        ops = {T.LT: "<", T.LE: "<=", T.EQ: "==", T.NE: "!=", T.GT: ">", T.GE: ">="}
        for cls, op in ops.items():
            if isinstance(cond, cls):
                return Lin.atom(("select", (conv(cond.a), op, conv(cond.b)), conv(t), conv(f)))
    raise ParseError(f"TVM node {type(node).__name__}: {node}")


def run_tvm(cases: list[Case], reps: int) -> dict[str, Result]:
    import tvm
    from tvm import sym
    from tvm import tirx as T

    results = {}
    for case in cases:
        n = len(case.bounds)
        xs = [T.Var(f"d{i}", "int64") for i in range(n)]

        def build(e: Lin):
            acc = None
            for a, c in e.terms:
                if a[0] == "v":
                    v = xs[a[1]]
                else:
                    x, k = build(a[1]), T.IntImm("int64", a[2])
                    v = {"floordiv": T.floordiv, "mod": T.floormod, "ceildiv": T.ceildiv}[a[0]](x, k)
                if c != 1:
                    v = v * T.IntImm("int64", c)
                acc = v if acc is None else acc + v
            if acc is None:
                return T.IntImm("int64", e.const)
            return acc + T.IntImm("int64", e.const) if e.const else acc

        expr = build(case.expr)
        cond = None
        for e, lo, hi in case.constraints:
            v = build(e)
            c = (v == T.IntImm("int64", lo)) if lo == hi else T.all(v >= T.IntImm("int64", lo), v <= T.IntImm("int64", hi))
            cond = c if cond is None else T.all(cond, c)
        best, out = None, None
        for _ in range(reps):
            ana = sym.Analyzer()
            for x, (lo, hi) in zip(xs, case.bounds):
                ana.bind(x, tvm.ir.Range.from_min_extent(T.IntImm("int64", lo), T.IntImm("int64", hi - lo + 1)))
            if cond is not None:
                with ana.constraint_scope(cond):
                    t0 = time.perf_counter_ns()
                    out = ana.simplify(expr)
                    t1 = time.perf_counter_ns()
            else:
                t0 = time.perf_counter_ns()
                out = ana.simplify(expr)
                t1 = time.perf_counter_ns()
            best = t1 - t0 if best is None else min(best, t1 - t0)
        try:
            lin = tvm_convert(out, dim_names(n), T)
        except ParseError as err:
            results[case.id] = Result(None, f"unreadable: {err}", best)
            continue
        if cost(lin) is None:
            results[case.id] = Result(None, "not quasi-affine: " + show(lin), best, raw=lin)
        else:
            results[case.id] = Result(lin, "", best)
    return results


def isl_text(e: Lin) -> str:
    """ISL's syntax for a Lin with positive divisors."""
    parts = [str(e.const)]
    for a, c in e.terms:
        if a[0] == "v":
            t = f"d{a[1]}"
        elif a[0] == "floordiv":
            t = f"floor(({isl_text(a[1])})/{a[2]})"
        elif a[0] == "ceildiv":
            t = f"ceil(({isl_text(a[1])})/{a[2]})"
        else:
            t = f"(({isl_text(a[1])}) mod {a[2]})"
        parts.append(f"{'+' if c > 0 else '-'} {abs(c)}*({t})")
    return " ".join(parts)


def isl_val(v) -> Fraction:
    return Fraction(v.to_str())


def isl_aff_to_lin(aff, isl, n: int) -> Lin:
    """An isl.Aff (one piece) as a Lin: divisions are floors of rational affine expressions;
    `m*g - m*k*floor(g/k)` is read back as `m * (g mod k)`, as ISL prints it."""
    ndiv = aff.dim(isl.dim_type.div)
    divs: list[tuple[Lin, Lin, int]] = []  # (floor(g / k) as Lin, g, k)

    def rational(a) -> tuple[dict, Fraction]:
        coeffs = {}
        for i in range(n):
            q = isl_val(a.get_coefficient_val(isl.dim_type.in_, i))
            if q:
                coeffs[("v", i)] = q
        for j in range(a.dim(isl.dim_type.div)):
            q = isl_val(a.get_coefficient_val(isl.dim_type.div, j))
            if q:
                coeffs[("div", j)] = q
        return coeffs, isl_val(a.get_constant_val())

    def integral(coeffs: dict, const: Fraction) -> tuple[Lin, int]:
        """(Σ D·q·x + D·c, D) with D the common denominator."""
        den = math.lcm(const.denominator, *(q.denominator for q in coeffs.values()))
        lin = Lin.constant(int(const * den))
        for key, q in coeffs.items():
            atom = Lin.atom(key) if key[0] == "v" else divs[key[1]][0]
            lin = lin + atom.scale(int(q * den))
        return lin, den

    for j in range(ndiv):
        g, k = integral(*rational(aff.get_div(j)))
        divs.append((make_div("floordiv", g, k) if k != 1 else g, g, k))
    coeffs, const = rational(aff)
    # Read `m*g - m*k*floor(g/k)` as `m * (g mod k)` where it makes the answer cheaper.
    lin, den = integral(coeffs, const)
    if den != 1:
        return make_div("floordiv", lin, den)  # exact on the domain
    for j, (fl, g, k) in enumerate(divs):
        c = coeffs.get(("div", j), 0)
        if c == 0 or k == 1 or c % k != 0:
            continue
        m = -int(c) // k
        candidate = lin - fl.scale(int(c)) - g.scale(m) + make_div("mod", g, k).scale(m)
        if cost(candidate) < cost(lin):
            lin = candidate
    return lin


def run_isl(cases: list[Case], reps: int) -> dict[str, Result]:
    import islpy as isl

    results = {}
    for case in cases:
        n = len(case.bounds)
        space = "[" + ", ".join(f"d{i}" for i in range(n)) + "]"
        conds = [f"{lo} <= d{i} <= {hi}" for i, (lo, hi) in enumerate(case.bounds)]
        conds += [f"{lo} <= {isl_text(e)} <= {hi}" for e, lo, hi in case.constraints]
        dom = isl.Set(f"{{ {space} : {' and '.join(conds) or 'true'} }}")
        pa = isl.PwAff(f"{{ {space} -> [({isl_text(case.expr)})] }}")
        best, out = None, None
        for _ in range(reps):
            t0 = time.perf_counter_ns()
            out = pa.intersect_domain(dom).gist(dom).coalesce()
            t1 = time.perf_counter_ns()
            best = t1 - t0 if best is None else min(best, t1 - t0)
        pieces = out.get_pieces()
        affs = {str(a) for _, a in pieces}
        if len(affs) != 1:
            results[case.id] = Result(None, f"piecewise ({len(pieces)} pieces)", best)
            continue
        results[case.id] = Result(isl_aff_to_lin(pieces[0][1], isl, n), "", best)
    return results


def mlir_text(e: Lin) -> str:
    """MLIR's affine syntax for a Lin with positive divisors (d_i are the loop variables)."""
    parts = [str(e.const)]
    for a, c in e.terms:
        if a[0] == "v":
            t = f"d{a[1]}"
        else:
            t = f"(({mlir_text(a[1])}) {a[0]} {a[2]})"
        parts.append(f"{t} * {c}" if c >= 0 else f"{t} * ({c})")
    return " + ".join(parts)


def mlir_module(cases: list[Case]) -> str:
    out = ["func.func private @use(index)"]
    for idx, case in enumerate(cases):
        n = len(case.bounds)
        dims = ", ".join(f"d{i}" for i in range(n))
        args = ", ".join(f"%i{i}" for i in range(n))
        out.append(f"func.func @c{idx}() {{")
        for i, (lo, hi) in enumerate(case.bounds):
            out.append(f"{'  ' * (i + 1)}affine.for %i{i} = {lo} to {hi + 1} {{")
        depth = n + 1
        if case.constraints:
            cons = []
            for e, lo, hi in case.constraints:
                t = mlir_text(e)
                cons += [f"{t} - {lo} == 0"] if lo == hi else [f"{t} - {lo} >= 0", f"{hi} - ({t}) >= 0"]
            out.append(f"{'  ' * depth}affine.if affine_set<({dims}) : ({', '.join(cons)})>({args}) {{")
            depth += 1
        out.append(f"{'  ' * depth}%r = affine.apply affine_map<({dims}) -> ({mlir_text(case.expr)})>({args})")
        out.append(f"{'  ' * depth}func.call @use(%r) : (index) -> ()")
        for d in range(depth - 1, 0, -1):
            out.append(f"{'  ' * d}}}")
        out.append("  return\n}")
    return "\n".join(out) + "\n"


MAP_ALIAS = re.compile(r"^(#map\d*) = affine_map<(.*)>$")
AFFINE_MAP = re.compile(r"^\(([^)]*)\)(?:\[([^\]]*)\])? -> \((.*)\)$")


def mlir_read(text: str, cases: list[Case]) -> dict[str, Result]:
    aliases = {m.group(1): m.group(2) for m in map(MAP_ALIAS.match, text.splitlines()) if m}
    funcs = re.split(r"^\s*func\.func ", text, flags=re.M)
    results = {}
    for chunk in funcs:
        m = re.match(r"@c(\d+)\(", chunk)
        if not m:
            continue
        case = cases[int(m.group(1))]
        n = len(case.bounds)
        values: dict[str, Lin] = {}
        next_var = 0
        answer, note = None, ""
        for line in chunk.splitlines():
            line = line.strip()
            if fm := re.match(r"affine\.for (%[\w$.-]+) = (-?\d+) to (-?\d+)", line):
                # A loop canonicalize removed is skipped; the others keep their bounds and order.
                b = (int(fm.group(2)), int(fm.group(3)) - 1)
                while next_var < n and case.bounds[next_var] != b:
                    next_var += 1
                if next_var == n:
                    note = "loops changed"
                    break
                values[fm.group(1)] = Lin.atom(("v", next_var))
                next_var += 1
            elif cm := re.match(r"(%[\w$.-]+) = arith\.constant (-?\d+) : index", line):
                values[cm.group(1)] = Lin.constant(int(cm.group(2)))
            elif am := re.match(r"(%[\w$.-]+) = affine\.apply (#map\d*|affine_map<.*>)\(([^)]*)\)(?:\[([^\]]*)\])?", line):
                mtext = aliases.get(am.group(2)) or am.group(2)[len("affine_map<"):-1]
                mm = AFFINE_MAP.match(mtext)
                operands = [s.strip() for s in (am.group(3) or "").split(",") if s.strip()]
                operands += [s.strip() for s in (am.group(4) or "").split(",") if s.strip()]
                formal = [s.strip() for s in mm.group(1).split(",") if s.strip()]
                formal += [s.strip() for s in (mm.group(2) or "").split(",") if s.strip()]
                try:
                    values[am.group(1)] = Parser(mm.group(3), {f: values[o] for f, o in zip(formal, operands)}).parse()
                except (ParseError, KeyError) as err:
                    note = f"unreadable: {err}"
                    break
            elif um := re.match(r"(?:func\.)?call @use\((%[\w$.-]+)\)", line):
                answer = values.get(um.group(1))
                if answer is None:
                    note = f"unresolved operand {um.group(1)}"
        if answer is None and not note:
            note = "no answer"
        results[case.id] = Result(answer, note)
    return results


def run_mlir(mlir_opt: str, cases: list[Case], reps: int) -> tuple[dict[str, Result], float]:
    """Runs mlir-opt once over a module with one function per case. mlir-opt does not time single
    expressions: the time per expression is (whole run - run on an empty module) / cases."""
    passes = ["--affine-simplify-structures", "--canonicalize"]
    with tempfile.TemporaryDirectory() as tmp:
        full, empty = os.path.join(tmp, "corpus.mlir"), os.path.join(tmp, "empty.mlir")
        with open(full, "w") as f:
            f.write(mlir_module(cases))
        with open(empty, "w") as f:
            f.write("func.func private @use(index)\n")
        times = {}
        for name, path in (("full", full), ("empty", empty)):
            for _ in range(reps):
                t0 = time.perf_counter_ns()
                out = subprocess.run([mlir_opt, *passes, path], capture_output=True, text=True)
                t1 = time.perf_counter_ns()
                if out.returncode != 0:
                    raise RuntimeError(f"mlir-opt failed on {name}: {out.stderr[:2000]}")
                times[name] = min(times.get(name, t1 - t0), t1 - t0)
                if name == "full":
                    text = out.stdout
    per_expr = max(times["full"] - times["empty"], 0) / len(cases)
    results = mlir_read(text, cases)
    for r in results.values():
        r.ns = per_expr
    return results, per_expr


# ---------------------------------------------------------------------------------------------
# The report.
# ---------------------------------------------------------------------------------------------


def load(path: str) -> list[Case]:
    cases = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            names = list(r["vars"])
            assert names == [f"d{i}" for i in range(len(names))], r["id"]
            n = len(names)
            cons = [(parse(t, n), lo, hi) for t, (lo, hi) in r.get("constraints", {}).items()]
            req = {k: r[k] for k in ("id", "vars", "constraints", "expr")}
            cases.append(Case(r["id"], r.get("family", ""), [tuple(r["vars"][v]) for v in names], cons, parse(r["expr"], n), r["expr"], req))
    return cases


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(p / 100 * len(xs)) - 1))]


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    return f"{ns / 1000:.1f} us" if ns < 1e6 else f"{ns / 1e6:.2f} ms"


def misses_markdown(misses: list[dict], total: int) -> str:
    """The misses as a Markdown list: domain, input, ours and the best peer answer with costs."""
    out = [f"{len(misses)} of {total} expressions; cost = (floordiv/ceildiv/mod, operations, sum of |coefficients|).\n"]
    for m in misses:
        out.append(f"- `{m['id']}` over `{m['domain']}`")
        out.append(f"  - input: `{m['input']}`")
        out.append(f"  - ours: `{m['ours']}` {m['ours_cost']}")
        out.append(f"  - best: `{m['best']}` {m['best_cost']} ({', '.join(m['by'])})")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--ours", required=True, help="the xla-indexing binary")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--misses-md", help="write the list of our misses here, as Markdown")
    ap.add_argument("--reps", type=int, default=3, help="timed repetitions; the minimum counts")
    ap.add_argument("--small-ops", type=int, default=12, help="a small expression has at most this many operations")
    args = ap.parse_args()

    cases = load(args.corpus)
    print(f"corpus: {len(cases)} expressions ({', '.join(f'{f} {sum(c.family == f for c in cases)}' for f in dict.fromkeys(c.family for c in cases))})", flush=True)
    tools: dict[str, dict[str, Result]] = {}
    mlir_note = ""
    for name, run in (
        ("ours", lambda: run_ours(args.ours, cases, args.reps)),
        ("tvm", lambda: run_tvm(cases, args.reps)),
        ("isl", lambda: run_isl(cases, args.reps)),
        ("mlir", lambda: run_mlir(args.mlir_opt, cases, args.reps)),
    ):
        t0 = time.time()
        out = run()
        if name == "mlir":
            out, per = out
            mlir_note = f"mlir-opt times whole runs only: {fmt_ns(per)} per expression on average over the batch"
        tools[name] = out
        print(f"ran {name} in {time.time() - t0:.1f} s", flush=True)

    # Soundness and cost of every answer.
    t0 = time.time()
    verdicts: dict[str, dict[str, str]] = {t: {} for t in tools}
    costs: dict[str, dict[str, Cost | None]] = {t: {} for t in tools}
    for case in cases:
        answers = {}
        for t, res in tools.items():
            r = res.get(case.id)
            target = (r.answer if r.answer is not None else r.raw) if r else None
            if target is not None:
                answers[t] = target
        v = check(case, answers)
        for t, res in tools.items():
            verdicts[t][case.id] = v.get(t, "none")
            r = res.get(case.id)
            ans = r.answer if r else None
            costs[t][case.id] = cost(ans) if ans is not None and verdicts[t][case.id] != "UNSOUND" else None
    print(f"checked every answer in {time.time() - t0:.1f} s", flush=True)

    best: dict[str, Cost] = {}
    for case in cases:
        cs = [costs[t][case.id] for t in tools if costs[t][case.id] is not None]
        best[case.id] = min(cs) if cs else cost(case.expr)
    input_cost = {c.id: cost(c.expr) for c in cases}
    small = {c.id for c in cases if input_cost[c.id].ops <= args.small_ops}

    summary = {"cases": len(cases), "small_cases": len(small), "small_ops": args.small_ops, "tools": {}, "misses": [], "unsound": []}
    ours_ns = {i: r.ns for i, r in tools["ours"].items() if r.ns is not None}
    header = f"{'tool':<6} {'reached best':>14} {'unsound':>8} {'unknown':>8} {'no answer':>10} {'median':>10} {'p95':>10} {'median small':>13} {'ours/peer (median, small)':>26}"
    print()
    print(header)
    print("-" * len(header))
    for t, res in tools.items():
        reached = sum(1 for c in cases if costs[t][c.id] is not None and costs[t][c.id] <= best[c.id])
        unsound = [c.id for c in cases if verdicts[t][c.id] == "UNSOUND"]
        unknown = sum(1 for c in cases if verdicts[t][c.id] == "unknown")
        none = sum(1 for c in cases if res.get(c.id) is None or res[c.id].answer is None)
        ns = [r.ns for r in res.values() if r.ns is not None]
        ns_small = [res[i].ns for i in small if i in res and res[i].ns is not None]
        med, p95 = (statistics.median(ns), percentile(ns, 95)) if ns else (None, None)
        med_small = statistics.median(ns_small) if ns_small else None
        ratio = ratio_small = None
        if t != "ours" and ns:
            ratio = statistics.median(ours_ns.values()) / med if med else None
            ratio_small = statistics.median([ours_ns[i] for i in small]) / med_small if med_small else None
        ratio_text = "-" if ratio is None else f"{ratio:.2f}x, {ratio_small:.2f}x"
        print(f"{t:<6} {reached:>5}/{len(cases):<4} {100 * reached / len(cases):3.0f}% {len(unsound):>8} {unknown:>8} {none:>10} {fmt_ns(med):>10} {fmt_ns(p95):>10} {fmt_ns(med_small):>13} {ratio_text:>26}")
        summary["tools"][t] = {
            "reached_best": reached,
            "unsound": len(unsound),
            "unknown": unknown,
            "no_answer": none,
            "median_ns": med,
            "p95_ns": p95,
            "median_small_ns": med_small,
            "ours_over_peer_median": ratio,
            "ours_over_peer_median_small": ratio_small,
        }
        for i in unsound:
            case = next(c for c in cases if c.id == i)
            summary["unsound"].append({"tool": t, "id": i, "input": case.text, "answer": show(res[i].answer if res[i].answer is not None else res[i].raw)})
    print()
    print("ours/peer: our median time over the peer's (all expressions, small ones); below 1 is faster.")
    print(f"small: input with at most {args.small_ops} operations ({len(small)} of {len(cases)}). {mlir_note}.")
    print("A miss is a case where a peer's sound answer costs less than ours; cost = (div/mod, ops, |coefficients|).")

    for u in summary["unsound"]:
        print(f"UNSOUND {u['tool']} {u['id']}: {u['input']}  ->  {u['answer']}")

    misses = [c for c in cases if costs["ours"][c.id] is None or costs["ours"][c.id] > best[c.id]]
    print(f"\nours misses the best form in {len(misses)} of {len(cases)} cases:")
    for c in misses:
        winners = [t for t in tools if t != "ours" and costs[t][c.id] is not None and costs[t][c.id] <= best[c.id]]
        w = winners[0]
        ours = tools["ours"].get(c.id)
        domain = ", ".join(f"d{i} in [{lo}, {hi}]" for i, (lo, hi) in enumerate(c.bounds))
        domain += "".join(f", {show(e)} in [{lo}, {hi}]" for e, lo, hi in c.constraints)
        entry = {
            "id": c.id,
            "domain": domain,
            "input": c.text,
            "ours": show(ours.answer) if ours and ours.answer is not None else None,
            "ours_cost": str(costs["ours"][c.id]),
            "best": show(tools[w][c.id].answer),
            "best_cost": str(best[c.id]),
            "by": winners,
        }
        summary["misses"].append(entry)
        print(f"- {c.id}: {domain}\n    input: {c.text}\n    ours:  {entry['ours']}  {entry['ours_cost']}\n    best:  {entry['best']}  {entry['best_cost']}  ({', '.join(winners)})")

    if args.misses_md:
        os.makedirs(os.path.dirname(os.path.abspath(args.misses_md)), exist_ok=True)
        with open(args.misses_md, "w") as f:
            f.write(misses_markdown(summary["misses"], len(cases)))
        print(f"wrote {args.misses_md}")

    per_case = []
    for c in cases:
        row = {"id": c.id, "input": c.text, "best_cost": str(best[c.id])}
        for t, res in tools.items():
            r = res.get(c.id)
            row[t] = {
                "answer": show(r.answer) if r and r.answer is not None else None,
                "note": r.note if r else "missing",
                "cost": str(costs[t][c.id]) if costs[t][c.id] else None,
                "verdict": verdicts[t][c.id],
                "ns": r.ns if r else None,
            }
        per_case.append(row)
    summary["per_case"] = per_case
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
        print(f"\nwrote {args.json}")
    return 1 if summary["unsound"] and any(u["tool"] == "ours" for u in summary["unsound"]) else 0


if __name__ == "__main__":
    sys.exit(main())
