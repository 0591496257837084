"""Regenerates the JAX dumps in this folder (CPU backend, optimised HLO text), all of them or
the ones named on the command line.

    python3.12 -m venv target/jaxenv && target/jaxenv/bin/pip install jax==0.12.0.1 jaxlib==0.12.0.1
    target/jaxenv/bin/python crates/hlo/tests/data/generate.py [name ...]

The shapes are small, so that the tests can check every map against brute force.
"""
import os
import sys

import jax
import jax.numpy as jnp
from jax import lax

f32 = jnp.float32


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g + b


def attention(q, k, v):
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / 8.0
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)


def transformer_block(x, wq, wk, wv, wo, w1, w2):
    h = layer_norm(x, 1.0, 0.0)
    b, t, d = x.shape
    q = (h @ wq).reshape(b, t, 4, d // 4).transpose(0, 2, 1, 3)
    k = (h @ wk).reshape(b, t, 4, d // 4).transpose(0, 2, 1, 3)
    v = (h @ wv).reshape(b, t, 4, d // 4).transpose(0, 2, 1, 3)
    a = attention(q, k, v).transpose(0, 2, 1, 3).reshape(b, t, d)
    x = x + a @ wo
    return x + jax.nn.gelu(layer_norm(x, 1.0, 0.0) @ w1) @ w2


def convolutions(x, k1, k2):
    y = lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(y).transpose(0, 3, 1, 2)
    return lax.conv_general_dilated(y, k2, (2, 2), ((1, 1), (1, 1)), rhs_dilation=(2, 2),
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))


def depthwise(x, k):
    return lax.conv_general_dilated(x, k, (1, 1), "SAME", feature_group_count=8,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def pooling(x):
    mx = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    avg = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
    return mx[:, :8, :8, :] + avg


def gathers(table, idx, x, j):
    return table[idx].sum(0) + jnp.take_along_axis(x, j, axis=1).sum(1)[:1]


def dynamic_slices(x, i, u):
    s = lax.dynamic_slice(x, (i, 0), (4, 16))
    y = lax.dynamic_update_slice(x, u * 2.0, (i, 3))
    return s.sum() + y


def concatenations(a, b, c):
    return jnp.concatenate([a, jnp.flip(b, 0), c[::2]], axis=0) * 2.0


def scatter_add(x, idx, u):
    return x.at[idx].add(u)


def scatter_2d(x, i, j, v):
    return x.at[i, j].set(v * 2.0)


def take_along_axis(x, j):
    return jnp.take_along_axis(x, j, axis=1) + 1.0


def grouped_conv(x, k):
    return lax.conv_general_dilated(x, k, (1, 1), "SAME", feature_group_count=2,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def transposed_conv(x, k):
    return lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def conv_1d(x, k):
    return lax.conv_general_dilated(x, k, (2,), ((1, 1),), dimension_numbers=("NWC", "WIO", "NWC"))


def conv_3d(x, k):
    return lax.conv_general_dilated(x, k, (1, 1, 1), "SAME",
                                    dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))


def sort_rows(x):
    return jnp.sort(x, axis=-1) * 2.0


def argsort_rows(x):
    return jnp.argsort(x, axis=-1)


def top_k(x):
    values, indices = lax.top_k(x, 3)
    return values * 2.0, indices


def roll(x):
    return jnp.roll(x, 3, axis=1) + jnp.roll(x, -1, axis=0)


def reflect_pad(x):
    return jnp.pad(x, ((1, 2), (2, 1)), mode="reflect") * 3.0


def tile_repeat(x):
    return jnp.tile(jnp.cos(x), (2, 3)) + jnp.repeat(x, 2, axis=0).sum()


def scan_cumsum(x):
    def step(carry, row):
        carry = carry + row
        return carry, carry * 2.0
    return lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)[1]


def rotary(x):
    t, d = x.shape[1], x.shape[3]
    inv = 1.0 / (10000 ** (jnp.arange(0, d, 2, dtype=f32) / d))
    angles = jnp.arange(t, dtype=f32)[:, None] * inv[None, :]
    cos, sin = jnp.cos(angles)[None, :, None, :], jnp.sin(angles)[None, :, None, :]
    x1, x2 = x[..., ::2], x[..., 1::2]
    return jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).reshape(x.shape)


def rms_norm(x, g):
    return x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g


def bf16_matmul(a, b):
    return (a.astype(jnp.bfloat16) @ b.astype(jnp.bfloat16)).astype(f32) * 0.5


def int8_matmul(a, b, scale):
    acc = lax.dot(a, b, preferred_element_type=jnp.int32)
    return acc.astype(f32) * scale


def negative_pad(x):
    return lax.pad(jnp.cos(x), 0.0, ((-1, 2, 0), (1, -2, 1)))


CASES = {
    "softmax": (softmax, [jnp.zeros((8, 128), f32)]),
    "layer_norm": (layer_norm, [jnp.zeros((4, 16, 64), f32), jnp.zeros((64,), f32), jnp.zeros((64,), f32)]),
    "attention": (attention, [jnp.zeros((2, 4, 16, 8), f32)] * 3),
    "transformer_block": (transformer_block, [jnp.zeros((2, 16, 32), f32)] + [jnp.zeros((32, 32), f32)] * 4
                          + [jnp.zeros((32, 64), f32), jnp.zeros((64, 32), f32)]),
    "convolutions": (convolutions, [jnp.zeros((1, 16, 16, 3), f32), jnp.zeros((3, 3, 3, 8), f32),
                                    jnp.zeros((4, 8, 3, 3), f32)]),
    "depthwise_conv": (depthwise, [jnp.zeros((1, 16, 16, 8), f32), jnp.zeros((3, 3, 1, 8), f32)]),
    "pooling": (pooling, [jnp.zeros((1, 16, 16, 4), f32)]),
    "gathers": (gathers, [jnp.zeros((100, 32), f32), jnp.zeros((6,), jnp.int32), jnp.zeros((4, 10), f32),
                          jnp.zeros((4, 3), jnp.int32)]),
    "dynamic_slices": (dynamic_slices, [jnp.zeros((32, 16), f32), jnp.int32(0), jnp.zeros((4, 8), f32)]),
    "concatenations": (concatenations, [jnp.zeros((4, 8), f32), jnp.zeros((6, 8), f32), jnp.zeros((10, 8), f32)]),
    "scatter_add": (scatter_add, [jnp.zeros((16, 4), f32), jnp.zeros((5,), jnp.int32), jnp.zeros((5, 4), f32)]),
    "scatter_2d": (scatter_2d, [jnp.zeros((8, 8), f32), jnp.zeros((3,), jnp.int32), jnp.zeros((3,), jnp.int32),
                                jnp.zeros((3,), f32)]),
    "take_along_axis": (take_along_axis, [jnp.zeros((4, 10), f32), jnp.zeros((4, 3), jnp.int32)]),
    "grouped_conv": (grouped_conv, [jnp.zeros((1, 8, 8, 4), f32), jnp.zeros((3, 3, 2, 6), f32)]),
    "transposed_conv": (transposed_conv, [jnp.zeros((1, 4, 4, 3), f32), jnp.zeros((3, 3, 3, 2), f32)]),
    "conv_1d": (conv_1d, [jnp.zeros((2, 16, 3), f32), jnp.zeros((3, 3, 4), f32)]),
    "conv_3d": (conv_3d, [jnp.zeros((1, 4, 4, 4, 2), f32), jnp.zeros((3, 3, 3, 2, 2), f32)]),
    "sort": (sort_rows, [jnp.zeros((4, 8), f32)]),
    "argsort": (argsort_rows, [jnp.zeros((4, 8), f32)]),
    "top_k": (top_k, [jnp.zeros((4, 8), f32)]),
    "roll": (roll, [jnp.zeros((4, 8), f32)]),
    "reflect_pad": (reflect_pad, [jnp.zeros((5, 6), f32)]),
    "tile_repeat": (tile_repeat, [jnp.zeros((3, 4), f32)]),
    "scan": (scan_cumsum, [jnp.zeros((6, 4), f32)]),
    "rotary": (rotary, [jnp.zeros((1, 6, 2, 8), f32)]),
    "rms_norm": (rms_norm, [jnp.zeros((4, 16), f32), jnp.zeros((16,), f32)]),
    "bf16_matmul": (bf16_matmul, [jnp.zeros((4, 8), f32), jnp.zeros((8, 6), f32)]),
    "int8_matmul": (int8_matmul, [jnp.zeros((4, 8), jnp.int8), jnp.zeros((8, 6), jnp.int8), jnp.float32(0.5)]),
    "negative_pad": (negative_pad, [jnp.zeros((6, 5), f32)]),
}

here = os.path.dirname(os.path.abspath(__file__))
for name in sys.argv[1:] or CASES:
    fn, args = CASES[name]
    text = jax.jit(fn).lower(*args).compile().as_text()
    with open(os.path.join(here, f"{name}.hlo"), "w") as out:
        out.write(text)
    print(name, len(text))
