"""Regenerates the JAX dumps in this folder (CPU backend, optimised HLO text).

    python3 -m venv /tmp/jaxenv && /tmp/jaxenv/bin/pip install jax
    /tmp/jaxenv/bin/python generate.py
"""
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
}

for name, (fn, args) in CASES.items():
    text = jax.jit(fn).lower(*args).compile().as_text()
    with open(f"{name}.hlo", "w") as out:
        out.write(text)
    print(name, len(text))
