#!/usr/bin/env python3
"""Writes fp8_ml_dtypes.txt: ml_dtypes' decoding of every code of each f8 type and its rounding
of f32 values (every representable value, the midpoints and one unit either side of them,
overflow, underflow, infinities and NaN) and of f64 values one unit either side of the
midpoints (where rounding through f32 would make a tie).

Run with the jax virtual environment (it brings ml_dtypes):
    target/jaxenv/bin/python crates/codegen/tests/data/fp8_generate.py
"""
import os
import ml_dtypes
import numpy as np

TYPES = ['f8e5m2', 'f8e4m3fn', 'f8e4m3', 'f8e3m4', 'f8e4m3fnuz', 'f8e5m2fnuz', 'f8e4m3b11fnuz']


def dtype(name):
    return getattr(ml_dtypes, 'float8_' + name[2:])


def inputs(t, src, with_values):
    codes = np.arange(256, dtype=np.uint8).view(t)
    values = sorted({float(v) for v in codes.astype(np.float64) if np.isfinite(v) and v >= 0})
    xs = set(values) if with_values else set()
    for a, b in zip(values, values[1:]):
        m = (a + b) / 2
        near = [float(np.nextafter(src(m), src(0))), float(np.nextafter(src(m), src(np.inf)))]
        xs.update(near + ([m] if with_values else []))
    if with_values:
        top = values[-1]
        xs.update([top * 1.0625, top * 1.125, top * 2, 1e30, values[1] / 2, values[1] / 3, 1e-30])
    out = []
    for x in sorted({src(x) for x in xs}):
        out += [x, -x]
    if with_values:
        out += [src(np.inf), src(-np.inf), src(np.nan)]
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    lines = ['# ml_dtypes ' + ml_dtypes.__version__ + ': per type, the f32 bits of its 256 codes, '
             'then f32 and f64 values (bits) and the code each rounds to']
    for name in TYPES:
        t = dtype(name)
        decoded = np.arange(256, dtype=np.uint8).view(t).astype(np.float32).view(np.uint32)
        lines.append('type ' + name)
        lines.append('decode ' + ' '.join('%08x' % int(v) for v in decoded))
        # f64 values matter only next to the midpoints, where rounding through f32 would tie.
        for src, bits, width, with_values in [(np.float32, np.uint32, 8, True),
                                             (np.float64, np.uint64, 16, False)]:
            xs = np.array(inputs(t, src, with_values), dtype=src)
            codes = xs.astype(t).view(np.uint8)
            tag = src.__name__.replace('float', 'f')
            for x, c in zip(xs.view(bits), codes):
                lines.append('%s %0*x %d' % (tag, width, int(x), int(c)))
    with open(os.path.join(here, 'fp8_ml_dtypes.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
