#!/usr/bin/env python3
"""Writes reduce_precision_jax.txt: XLA's `reduce-precision` (through `jax.lax.reduce_precision`
on the CPU) of f32 and f16 values, for several exponent and mantissa bit counts. The inputs are
special values, every power of two of the f32 range and its neighbours, values just either side
of the midpoints between values of the reduced formats (where rounding decides), the largest and
smallest normals of the reduced formats and their neighbours, source subnormals, and values
drawn at random over the binades. A line reads `TYPE E M INPUT_BITS OUTPUT_BITS` in hexadecimal.

Run with the jax virtual environment:
    target/jaxenv/bin/python crates/passes/tests/data/reduce_precision_generate.py
"""
import os

import jax
import jax.numpy as jnp
import numpy as np

FORMATS = {
    'f32': [(5, 10), (8, 7), (4, 3), (5, 2), (8, 23), (2, 1), (6, 0)],
    'f16': [(5, 10), (4, 3), (3, 5), (5, 1)],
}
DTYPE = {'f32': np.float32, 'f16': np.float16}
BITS = {'f32': np.uint32, 'f16': np.uint16}


def inputs(t, e_bits, m_bits):
    d = DTYPE[t]
    info = np.finfo(d)
    xs = [0.0, np.inf, np.nan, float(info.max), float(info.tiny), float(info.smallest_subnormal)]
    lo, hi = int(np.log2(float(info.smallest_subnormal))), int(np.log2(float(info.max)))
    for e in range(lo, hi + 1, 3):
        p = d(2.0 ** e)
        xs += [p, np.nextafter(p, d(0)), np.nextafter(p, d(np.inf))]
    bias = 2 ** (e_bits - 1) - 1
    # The binades at both ends of the reduced format's range, and a few in between.
    binades = set(range(-bias - 2, -bias + 3)) | set(range(bias - 2, bias + 2)) | {-3, 0, 1, 5}
    for e in sorted(binades):
        for k in range(0, 2 ** min(m_bits, 3) + 1):
            # Midpoints between neighbours of the reduced format, and their neighbours.
            with np.errstate(over='ignore'):
                mid = d((1 + (k + 0.5) / 2 ** m_bits) * 2.0 ** e)
            if np.isfinite(mid) and mid != 0:
                xs += [mid, np.nextafter(mid, d(0)), np.nextafter(mid, d(np.inf))]
    rng = np.random.default_rng(1)
    xs += list(rng.uniform(1, 2, 60) * 2.0 ** rng.integers(lo, hi, 60))
    values = sorted({float(d(x)) for x in xs if not np.isnan(x)}) + [np.nan]
    out = []
    for x in values:
        out += [x, -x]
    return np.array(out, dtype=d)


def main():
    lines = []
    for t, formats in FORMATS.items():
        for e_bits, m_bits in formats:
            xs = inputs(t, e_bits, m_bits)
            ys = np.asarray(jax.lax.reduce_precision(jnp.asarray(xs), exponent_bits=e_bits,
                                                     mantissa_bits=m_bits))
            if m_bits == 0:
                keep = ~np.isnan(xs)
                xs_t, ys_t = xs[keep], ys[keep]
            else:
                xs_t, ys_t = xs, ys
            for x, y in zip(xs_t.view(BITS[t]), ys_t.view(BITS[t])):
                lines.append(f'{t} {e_bits} {m_bits} {int(x):x} {int(y):x}')
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'reduce_precision_jax.txt')
    with open(path, 'w') as f:
        f.write('# Written by reduce_precision_generate.py: TYPE E M INPUT_BITS OUTPUT_BITS '
                '(jax.lax.reduce_precision on the CPU).\n')
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    jax.config.update('jax_platforms', 'cpu')
    main()
