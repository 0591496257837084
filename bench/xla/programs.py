"""The JAX programs of `cargo xtask bench xla`.

Each program is jitted and run once on the CPU backend. `cargo xtask bench xla` runs this file
with XLA_FLAGS set to dump every jitted module, its kernels' MLIR before optimization and the IR
before every MLIR pass (`--xla_dump_to=DIR --xla_dump_emitter_re=.* --xla_dump_hlo_module_re=jit_.*`).
Inputs are NumPy arrays, so that no helper module (such as the `jit_broadcast_in_dim` that
`jnp.ones` compiles) enters the dump: every `jit_*` module is one program below, named after it.

Usage: python programs.py [--list] [NAME ...]
"""

import os
import sys

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

RNG = np.random.default_rng(0)


def f32(*shape):
    """A float32 array of `shape`, deterministic."""
    return RNG.standard_normal(shape).astype(np.float32)


def i32(high, *shape):
    """An int32 array of `shape` with values in [0, high)."""
    return RNG.integers(0, high, size=shape).astype(np.int32)


# name -> (function, inputs). The name becomes the jitted function's name, so the dump's
# module is `jit_<name>`.
PROGRAMS = {}


def program(*inputs):
    """Registers the decorated function with its inputs."""

    def register(fn):
        PROGRAMS[fn.__name__] = (fn, inputs)
        return fn

    return register


# Elementwise.
@program(f32(17, 61), f32(17, 61))
def add(x, y):
    return x + y


@program(f32(64, 33))
def exp_tanh(x):
    return jnp.exp(x) * jnp.tanh(x)


@program(f32(5, 6, 37))
def select_max(x):
    return jnp.where(x > 0, x, 0.1 * x) + jnp.maximum(x, 0.5)


@program(i32(100, 40, 35))
def int_arith(x):
    # No integer division on the data: the bench counts the divisions of index arithmetic.
    return jnp.maximum(x * 3 + 7, x >> 1) - (x & 3)


@program(f32(333))
def convert(x):
    return (x * 100).astype(jnp.int32).astype(jnp.float16)


# Broadcasts.
@program(f32(47), f32(15, 47))
def broadcast_row(b, x):
    return x + b[None, :]


@program(f32(15), f32(15, 47))
def broadcast_column(b, x):
    return x * b[:, None]


@program(f32(3, 1, 40))
def broadcast_3d(x):
    return jnp.broadcast_to(x, (2, 3, 6, 40)) + 1


@program(f32(60))
def outer(x):
    return x[:, None] * x[None, :]


# Reshapes.
@program(f32(12, 50))
def reshape_chain(x):
    return jnp.sin(x.reshape(4, 3, 50).reshape(6, 100).reshape(15, 40))


@program(f32(2, 3, 4, 50))
def reshape_flatten(x):
    return jnp.cos(x.reshape(-1)) + 1


@program(f32(600))
def reshape_expand(x):
    return jnp.exp(x.reshape(3, 4, 50))


@program(f32(6, 350))
def reshape_transpose(x):
    return (x.reshape(6, 5, 70).transpose(2, 0, 1) * 2).reshape(420, 5)


# Transposes.
@program(f32(48, 80))
def transpose_2d(x):
    return x.T + 1


@program(f32(3, 70))
def transpose_2d_small(x):
    return jnp.exp(x.T)


@program(f32(2, 3, 5, 2, 11))
def transpose_5d(x):
    return jnp.transpose(x, (4, 3, 2, 1, 0)) + 1


@program(f32(4, 6, 8, 10, 3))
def transpose_5d_large(x):
    return jnp.transpose(x, (1, 3, 0, 4, 2)) * 2


@program(f32(8, 16, 32))
def transpose_3d(x):
    return jnp.transpose(x, (2, 0, 1)) - 1


# Slices.
@program(f32(20, 300))
def slice_strided(x):
    return x[2:17:3, 1:290:4] * 2


@program(f32(9, 110))
def slice_plain(x):
    return jnp.exp(x[1:8, 3:100])


@program(f32(400))
def slice_reverse_stride(x):
    return x[::-5] + 1


# Pads.
@program(f32(5, 70))
def pad_interior(x):
    return lax.pad(x, 0.0, ((1, 2, 1), (0, 0, 0)))


@program(f32(6, 50))
def pad_edges(x):
    return lax.pad(x, 1.0, ((2, 3, 0), (1, 1, 0))) * 3


@program(f32(4, 50))
def pad_interior_2d(x):
    return jnp.exp(lax.pad(x, 0.0, ((1, 1, 2), (2, 0, 1))))


@program(f32(100))
def pad_negative(x):
    return lax.pad(x, 0.0, ((-2, 3, 1),))


# Concatenates.
@program(f32(4, 30), f32(4, 50), f32(4, 20))
def concatenate_columns(x, y, z):
    return jnp.concatenate([x, y, z], axis=1)


@program(f32(3, 60), f32(5, 60))
def concatenate_rows(x, y):
    return jnp.concatenate([x, y], axis=0) * 2


@program(f32(70), f32(90))
def concatenate_fused(x, y):
    return jnp.exp(jnp.concatenate([x * 2, y + 1]))


# Reverses.
@program(f32(8, 90))
def reverse(x):
    return jnp.flip(x, axis=0) + 1


@program(f32(4, 5, 60))
def reverse_two(x):
    return jnp.flip(x, axis=(0, 2)) * 2


# Reductions.
@program(f32(32, 64))
def reduce_rows(x):
    return jnp.sum(x, axis=1)


@program(f32(32, 64))
def reduce_columns(x):
    return jnp.max(x, axis=0)


@program(f32(4, 6, 8))
def reduce_middle(x):
    return jnp.sum(x * x, axis=1)


@program(f32(100))
def reduce_all(x):
    return jnp.sum(jnp.exp(x))


@program(f32(16, 10))
def argmax(x):
    return jnp.argmax(x, axis=1)


# Reduce-windows.
@program(f32(1, 12, 12, 32))
def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


@program(f32(1, 10, 10, 32))
def avg_pool_same(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9


@program(f32(200))
def cumsum_window(x):
    return lax.reduce_window(x, 0.0, lax.add, (4,), (2,), "VALID")


# Gathers.
@program(f32(10, 60), i32(10, 4))
def gather_rows(x, idx):
    return x[idx]


@program(f32(8, 9), i32(8, 5), i32(9, 5))
def gather_points(x, i, j):
    return x[i, j]


@program(f32(12), i32(12, 3, 40))
def take(x, idx):
    return jnp.take(x, idx, axis=0)


# Scatters.
@program(f32(10, 60), i32(10, 4), f32(4, 60))
def scatter_add(x, idx, upd):
    return x.at[idx].add(upd)


@program(f32(20), i32(20, 7), f32(7))
def scatter_set(x, idx, upd):
    return x.at[idx].set(upd)


# Dynamic slices and updates.
@program(f32(10, 80), i32(5, 2))
def dynamic_slice(x, i):
    return lax.dynamic_slice(x, (i[0], i[1]), (4, 30)) * 2


@program(f32(10, 80), f32(3, 20), i32(6, 2))
def dynamic_update_slice(x, u, i):
    return lax.dynamic_update_slice(x, u, (i[0], i[1]))


@program(f32(10, 80), f32(3, 20), i32(6, 2))
def dynamic_update_slice_fused(x, u, i):
    return lax.dynamic_update_slice(x, u * 2, (i[0], i[1]))


# Convolutions.
@program(f32(1, 8, 8, 3), f32(3, 3, 3, 4))
def conv2d(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


@program(f32(2, 16, 4), f32(5, 4, 6))
def conv1d_strided(x, w):
    return lax.conv_general_dilated(x, w, (2,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))


@program(f32(1, 6, 6, 2), f32(3, 3, 1, 2))
def conv_depthwise(x, w):
    return lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=2
    )


# Normalizations and attention.
@program(f32(8, 32))
def softmax(x):
    return jax.nn.softmax(x, axis=-1)


@program(f32(8, 32), f32(32), f32(32))
def layer_norm(x, g, b):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5) * g + b


@program(f32(2, 8, 16), f32(2, 8, 16), f32(2, 8, 16))
def attention(q, k, v):
    s = jnp.einsum("bqd,bkd->bqk", q, k) / 4.0
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, axis=-1), v)


@program(f32(16, 24), f32(24, 8))
def matmul(x, w):
    return x @ w


@program(f32(4, 8, 16))
def rms_norm(x):
    return x / jnp.sqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)


# Sort.
@program(f32(6, 10))
def sort(x):
    return jnp.sort(x, axis=1)


@program(f32(12))
def argsort(x):
    return jnp.argsort(x)


# Scans.
@program(f32(10, 4))
def cumsum(x):
    return jnp.cumsum(x, axis=0)


@program(f32(6, 3))
def scan_rnn(x):
    def step(h, xt):
        h = jnp.tanh(h * 0.5 + xt)
        return h, h

    return lax.scan(step, jnp.zeros(3, jnp.float32), x)[1]


# Iota and friends.
@program(f32(7, 90))
def iota_mask(x):
    i = lax.broadcasted_iota(jnp.int32, (7, 90), 0)
    j = lax.broadcasted_iota(jnp.int32, (7, 90), 1)
    return jnp.where(i >= j, x, 0.0)


@program(f32(50, 50))
def diagonal(x):
    return jnp.diagonal(x) * 2


@program(f32(3, 4, 50))
def mixed_slice_pad_concat(x):
    a = x[:, 1:3, :]
    b = lax.pad(x[:, :2, ::2], 0.0, ((0, 0, 0), (0, 0, 0), (1, 1, 1)))
    return jnp.concatenate([a, b], axis=2)


# Kernels of XLA's tiled emitter: on the CPU it takes transposes that move the minor
# dimension and single elementwise ops (`wrapped_*`).
@program(f32(2, 3, 5, 2, 3))
def transpose_5d_tiled(x):
    return jnp.transpose(x, (4, 3, 2, 1, 0))


@program(f32(2, 3, 5, 2, 3))
def transpose_5d_exp(x):
    return jnp.exp(jnp.transpose(x, (4, 3, 2, 1, 0)))


@program(f32(3, 4, 2, 5, 3))
def transpose_5d_mixed(x):
    return -jnp.transpose(x, (2, 0, 4, 1, 3))


@program(f32(3, 5, 7))
def transpose_3d_tanh(x):
    return jnp.tanh(jnp.transpose(x, (2, 1, 0)))


@program(f32(2, 6, 3, 40))
def transpose_4d(x):
    return jnp.transpose(x, (0, 3, 1, 2))


@program(f32(9, 130))
def multiply(x):
    return x * x


@program(f32(5, 110))
def sqrt(x):
    return jnp.sqrt(jnp.abs(x))


@program(i32(1000, 6, 150))
def int_add(x):
    return x + x


def main(argv):
    names = [a for a in argv if not a.startswith("--")]
    if "--list" in argv:
        print("\n".join(PROGRAMS))
        return 0
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown:
        print(f"unknown programs: {', '.join(unknown)}", file=sys.stderr)
        return 2
    assert jax.default_backend() == "cpu", jax.default_backend()
    for name in names or PROGRAMS:
        fn, inputs = PROGRAMS[name]
        jax.block_until_ready(jax.jit(fn)(*inputs))
    print(f"ran {len(names or PROGRAMS)} programs on jax {jax.__version__}")
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    # Every program has run: skip the interpreter's teardown. One run of this file aborted with
    # "pure virtual method called", the mark of a C++ object used while it is destroyed, as
    # jaxlib's are at teardown.
    os._exit(status)
