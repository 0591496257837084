#!/usr/bin/env python3
"""Compares xla-indexing-simplify with upstream MLIR's strongest index-arithmetic routes on
upstream MLIR's own test inputs. Two routes of ours:

- OURS: the pass, then `canonicalize, cse`. Affine ops stay affine (an affine.load's map, a
  loop's bounds), so their divisions are lowered later as `lower-affine` writes them.
- OURS-LOWERED: the pass where STRONGEST has its passes: before `lower-affine` and after it,
  where upstream runs its integer range passes.

and two of upstream's, each its strongest of a kind:

- STRONGEST-AFFINE: keeps affine ops (`affine-simplify-structures, canonicalize, cse`, then
  `int-range-optimizations, arith-unsigned-when-equivalent, canonicalize, cse` twice).
- STRONGEST: the same with `lower-affine, canonicalize, cse` before the range passes.

OURS is compared with both, OURS-LOWERED with STRONGEST.

Usage: python3 bench/upstream/compare.py LLVM_PROJECT [--plugin PATH] [--lower-only]

LLVM_PROJECT is a checkout of llvm-project (its `mlir/test` is read; the files are not part of
this repository). Each test file is split on `// -----`; every piece goes through every route,
then each output is lowered the same way (`lower-affine, canonicalize, cse`; `lower-affine`
alone with --lower-only), and each function's counts are compared: divisions and remainders
(DIV), decisions, i.e. compares, selects, min/max and ifs (DEC), and ops (ALL). The report lists,
per comparison, the functions where ours leaves more, and those where it leaves fewer."""
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = sys.argv[1:]
if not ARGS or ARGS[0].startswith("-"):
    sys.exit(__doc__)
ROOT = os.path.abspath(ARGS[0])
PLUGIN = (ARGS[ARGS.index("--plugin") + 1] if "--plugin" in ARGS
          else os.path.join(REPO, "target/release/libxla_indexing_plugin.so"))

FILES = [
    "mlir/test/Dialect/Affine/canonicalize.mlir",
    # Nearest equivalent of the requested simplify-affine-structures.mlir,
    # which does not exist upstream.
    "mlir/test/Dialect/Affine/simplify-structures.mlir",
    "mlir/test/Conversion/AffineToStandard/lower-affine.mlir",
    "mlir/test/Dialect/Arith/canonicalize.mlir",
    "mlir/test/Dialect/Arith/int-range-interface.mlir",
    "mlir/test/Dialect/Arith/int-range-opts.mlir",
    "mlir/test/Dialect/Index/int-range-inference.mlir",
    "mlir/test/Dialect/GPU/int-range-interface.mlir",
]

PLUGIN_ARGS = [f"--load-pass-plugin={PLUGIN}", f"--load-dialect-plugin={PLUGIN}"]
OURS = "builtin.module(func.func(xla-indexing-simplify), canonicalize, cse)"
OURS_LOWERED = ("builtin.module(func.func(xla-indexing-simplify), canonicalize, cse, "
                "lower-affine, canonicalize, cse, func.func(xla-indexing-simplify), "
                "canonicalize, cse)")
RANGE_PASSES = ("int-range-optimizations, arith-unsigned-when-equivalent, canonicalize, cse, "
                "int-range-optimizations, arith-unsigned-when-equivalent, canonicalize, cse")
STRONGEST = ("builtin.module(func.func(affine-simplify-structures), canonicalize, cse, "
             f"lower-affine, canonicalize, cse, {RANGE_PASSES})")
STRONGEST_AFFINE = ("builtin.module(func.func(affine-simplify-structures), canonicalize, cse, "
                    f"{RANGE_PASSES})")
ROUTES = {"OURS": OURS, "OURS-LOWERED": OURS_LOWERED, "STRONGEST": STRONGEST,
          "STRONGEST-AFFINE": STRONGEST_AFFINE}
COMPARISONS = [("OURS", "STRONGEST-AFFINE"), ("OURS", "STRONGEST"),
               ("OURS-LOWERED", "STRONGEST")]
LOWERING = ("builtin.module(lower-affine)" if "--lower-only" in ARGS
            else "builtin.module(lower-affine, canonicalize, cse)")

DIV_OPS = ["arith.divui", "arith.divsi", "arith.remui", "arith.remsi",
           "arith.floordivsi", "arith.ceildivsi", "arith.ceildivui",
           "index.divs", "index.divu", "index.rems", "index.remu",
           "index.floordivs", "index.ceildivs", "index.ceildivu"]
DEC_OPS = ["arith.cmpi", "arith.select", "arith.minsi", "arith.maxsi",
           "arith.minui", "arith.maxui", "index.cmp", "index.mins",
           "index.maxs", "index.minu", "index.maxu", "affine.if", "scf.if"]


def op_regex(names):
    alt = "|".join(re.escape(n) for n in names)
    # An op name in op position: right after `=` (op with results) or at the
    # start of the line (op without results); optionally in generic form.
    return re.compile(r'(?:=\s*|^\s*)"?(' + alt + r')"?(?![\w.])')


DIV_RE = op_regex(DIV_OPS)
DEC_RE = op_regex(DEC_OPS)
ALL_RE = re.compile(r'=\s*"?[a-z_]+\.[a-z_.]+')
FUNC_RE = re.compile(r'^\s*func\.func\s+(?:(?:private|public|nested)\s+)?@([\w.$-]+|"[^"]*")')
SEP_RE = re.compile(r'^// -----')


def split_pieces(text):
    pieces, cur = [], []
    for line in text.splitlines(keepends=True):
        if SEP_RE.match(line):
            pieces.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    pieces.append("".join(cur))
    return pieces


def run(args, inp_path, timeout=120):
    cmd = [MLIR_OPT, "--allow-unregistered-dialect"] + args + [inp_path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, cmd
    except subprocess.TimeoutExpired:
        return 124, "", f"timeout after {timeout}s", cmd


def first_error_line(stderr):
    for line in stderr.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [l for l in stderr.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no stderr)"


def functions(text):
    """List of (name, body_lines) for each func.func with a body, in order."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FUNC_RE.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        depth = lines[i].count("{") - lines[i].count("}")
        if depth <= 0:  # declaration without body
            i += 1
            continue
        body = []
        j = i + 1
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0:
                break
            body.append(lines[j])
            j += 1
        out.append((name, body))
        i = j + 1
    return out


def counts(body):
    div = sum(len(DIV_RE.findall(l)) for l in body)
    dec = sum(len(DEC_RE.findall(l)) for l in body)
    alln = sum(1 for l in body if ALL_RE.search(l))
    return (div, dec, alln)


def keyed(funcs):
    seen = defaultdict(int)
    out = {}
    order = []
    for name, body in funcs:
        k = (name, seen[name])
        seen[name] += 1
        out[k] = body
        order.append(k)
    return out, order


def trim(body, n=40):
    if len(body) <= n:
        return body
    return body[:n] + [f"    ... ({len(body) - n} more lines)"]


STAT_KEYS = ("skipped", "funcs", "div", "dec", "all", "worse", "better", "ours_divdec", "str_divdec")


def lower(tmpdir, tag, out, rel, pi, lower_notes):
    """The route's output lowered by LOWERING (the unlowered output where lowering fails)."""
    p = os.path.join(tmpdir, f"{tag}.mlir")
    with open(p, "w") as f:
        f.write(out)
    rcl, outl, errl, _ = run([f"--pass-pipeline={LOWERING}"], p)
    if rcl != 0:
        lower_notes.append((rel, pi, tag, first_error_line(errl)))
        return out
    return outl


def compare(st, worse, better, rel, pi, ours, strongest):
    """Counts every function of ours against the same function of the peer's into st."""
    fo, oo = keyed(functions(ours))
    fs, _ = keyed(functions(strongest))
    for k in oo:
        if k not in fs:
            continue
        co, cs = counts(fo[k]), counts(fs[k])
        st["funcs"] += 1
        st["div"] += co[0] > cs[0]
        st["dec"] += co[1] > cs[1]
        st["all"] += co[2] > cs[2]
        st["ours_divdec"] += co[0] + co[1]
        st["str_divdec"] += cs[0] + cs[1]
        if co > cs:
            st["worse"] += 1
            worse.append((rel, pi, k, co, cs, fo[k], fs[k]))
        elif co < cs:
            st["better"] += 1
            better.append((rel, pi, k, co, cs, fo[k], fs[k]))


def main():
    work = os.path.join(REPO, "target", "bench")
    os.makedirs(work, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix="upstream_", dir=work)
    tables = {pair: [] for pair in COMPARISONS}
    worse = {pair: [] for pair in COMPARISONS}
    better = {pair: [] for pair in COMPARISONS}
    findings = []
    skipped = []
    lower_notes = []
    pieces_of = {}

    for rel in FILES:
        path = os.path.join(ROOT, rel)
        text = open(path).read()
        pieces = split_pieces(text)
        pieces_of[rel] = len(pieces)
        unparsed = 0
        stats = {pair: dict.fromkeys(STAT_KEYS, 0) for pair in COMPARISONS}
        for pi, piece in enumerate(pieces):
            inp = os.path.join(tmpdir, "piece.mlir")
            with open(inp, "w") as f:
                f.write(piece)
            rc, _, err, _ = run([], inp)
            if rc != 0:
                unparsed += 1
                skipped.append((rel, pi, "input does not parse", first_error_line(err)))
                continue
            results = {name: run(PLUGIN_ARGS + [f"--pass-pipeline={route}"], inp)
                       for name, route in ROUTES.items()}
            failed = [name for name, r in results.items() if r[0] != 0]
            if failed:
                err = results[failed[0]][2]
                skipped.append((rel, pi, f"route failed ({', '.join(failed)})",
                                first_error_line(err)))
            lowered = {name: lower(tmpdir, name, results[name][1], rel, pi, lower_notes)
                       for name in ROUTES if name not in failed}
            for pair in COMPARISONS:
                ours, peer = pair
                if ours in failed or peer in failed:
                    stats[pair]["skipped"] += 1
                    if peer not in failed:
                        rc_, _, err_, cmd_ = results[ours]
                        findings.append((rel, pi, cmd_, rc_, err_))
                    continue
                compare(stats[pair], worse[pair], better[pair], rel, pi, lowered[ours],
                        lowered[peer])
        for pair in COMPARISONS:
            stats[pair]["skipped"] += unparsed
            tables[pair].append((rel, stats[pair]))

    for name, route in ROUTES.items():
        print(f"{name:<16} = {route}")
    print(f"{'LOWERING':<16} = {LOWERING}")
    print("Counts are per func.func in the lowered output: DIV (divisions, remainders), DEC (compares, selects, min, max, ifs), ALL (ops).")
    hdr = ("file", "pieces", "skip", "funcs", ">DIV", ">DEC", ">ALL", "worse", "better",
           "DIV+DEC ours", "DIV+DEC peer")
    fmt = "{:<58} {:>6} {:>4} {:>5} {:>4} {:>4} {:>4} {:>5} {:>6} {:>12} {:>17}"
    for pair in COMPARISONS:
        print()
        print(f"== {pair[0]} against {pair[1]}")
        print(fmt.format(*hdr))
        grand = dict.fromkeys(STAT_KEYS, 0)
        for rel, st in tables[pair]:
            print(fmt.format(rel, pieces_of[rel], *(st[k] for k in STAT_KEYS)))
            for k in STAT_KEYS:
                grand[k] += st[k]
        print(fmt.format("TOTAL", sum(pieces_of.values()),
                         *(grand[k] for k in STAT_KEYS)))
    print("(>DIV/>DEC/>ALL: functions where ours has more of that count than the peer; "
          "worse/better: lexicographic (DIV, DEC, ALL) comparison)")
    print()

    print(f"== FINDINGS (a route of ours fails where its peer does not): {len(findings)}")
    for rel, pi, cmd, rc, err in findings:
        print(f"--- {rel} piece {pi} rc={rc}")
        print("command:", " ".join(cmd))
        print("stderr:")
        print(err.rstrip())
    print()

    print(f"== Pieces that do not parse or where a route failed: {len(skipped)}")
    reasons = defaultdict(int)
    for rel, pi, why, line in skipped:
        reasons[(why, re.sub(r"^.*?error: ", "", re.sub(r"/\S+:\d+:\d+: ", "", line)))] += 1
    print("-- by reason:")
    for (why, line), n in sorted(reasons.items(), key=lambda x: -x[1]):
        print(f"  {n:3d}  {why}: {line}")
    print("-- all:")
    for rel, pi, why, line in skipped:
        print(f"  {rel} piece {pi}: {why}: {line}")
    print()

    print(f"== LOWERING FAILURES (counted on the unlowered output): {len(lower_notes)}")
    for rel, pi, tag, line in lower_notes:
        print(f"  {rel} piece {pi} [{tag}]: {line}")
    print()

    for pair in COMPARISONS:
        title = f"{pair[0]} against {pair[1]}"
        print_functions(f"{title}: ours WORSE", worse[pair], pair[1])
        print()
        print_functions(f"{title}: ours BETTER (for reference)", better[pair], pair[1])
        print()


def print_functions(title, functions, peer):
    """Each function's counts on both routes, and both lowered bodies."""
    print(f"== {title}: {len(functions)}")
    for rel, pi, k, co, cs, bo, bs in functions:
        name = k[0] + (f"#{k[1]}" if k[1] else "")
        print(f"--- {rel} piece {pi} @{name}: ours (DIV,DEC,ALL)={co}  {peer}={cs}")
        print("  [ours, lowered]")
        for l in trim(bo):
            print("  " + l)
        print(f"  [{peer}, lowered]")
        for l in trim(bs):
            print("  " + l)


if __name__ == "__main__":
    main()
