"""Writes the StableHLO corpus of the stablehlo-text tests: for each JAX program NAME,
NAME.pretty.mlir (what `jax.jit(f).lower(...).as_text()` prints) and NAME.generic.mlir (that
same text parsed by JAX's MLIR, with the StableHLO dialect registered, and printed in generic
form). Run with JAX 0.12: /work/jaxenv/bin/python generate.py
"""
import os

import jax
import jax.numpy as jnp
from jax import export, lax
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir

f32 = jnp.float32
i32 = jnp.int32


def s(*shape, dtype=f32):
    return jax.ShapeDtypeStruct(shape, dtype)


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b


def attention(q, k, v):
    w = jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", q, k) / 8.0, axis=-1)
    return jnp.einsum("bqk,bkd->bqd", w, v)


def scan_sum(x):
    def body(c, row):
        c = c + row
        return c, c * 2.0
    return lax.scan(body, jnp.zeros(x.shape[1:], f32), x)


def branch(p, x):
    return lax.cond(p > 0, lambda y: y * 2.0, lambda y: jnp.sin(y), x)


def switch(i, x):
    return lax.switch(i, [jnp.cos, jnp.exp, lambda y: -y], x)


def custom(x):
    return jax.pure_callback(lambda a: a, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


@jax.custom_jvp
def softplus(x):
    return jnp.logaddexp(x, 0.0)


softplus.defjvp(lambda p, t: (softplus(p[0]), t[0] * jax.nn.sigmoid(p[0])))


my_tanh = lax.composite(lambda x: jnp.tanh(x), name="my.tanh")

my_scaled = lax.composite(lambda x, scale: x * scale, name="my.scaled")

# Ops JAX rarely prints, written in generic form here; JAX's MLIR prints them in pretty form.
HANDWRITTEN = """
func.func @f(%p: tensor<i1>, %x: tensor<2xf32>, %s: tensor<2xui64>, %m: tensor<2x3xf32>) -> () {
  %t = "stablehlo.tuple"(%x, %p) : (tensor<2xf32>, tensor<i1>) -> tuple<tensor<2xf32>, tensor<i1>>
  %e = "stablehlo.get_tuple_element"(%t) <{index = 1 : i32}> : (tuple<tensor<2xf32>, tensor<i1>>) -> tensor<i1>
  %r = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<2xf32>) -> ()
  }, {
    %n = "stablehlo.negate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "stablehlo.return"(%n) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  %a, %b = "stablehlo.rng_bit_generator"(%s) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
  %d = "stablehlo.dot"(%x, %m) <{precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %d2 = "stablehlo.dot"(%x, %m) : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  %dg = "stablehlo.dot_general"(%m, %m) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %outer = "stablehlo.dot_general"(%x, %x) <{dot_dimension_numbers = #stablehlo.dot<>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %c = "stablehlo.composite"(%x) <{name = "my.op", composite_attributes = {k = 1 : i32}, decomposition = @g, version = 2 : i32}> : (tensor<2xf32>) -> tensor<2xf32>
  %tk = "stablehlo.create_token"() : () -> !stablehlo.token
  %tk2 = "stablehlo.after_all"(%tk, %tk) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
  %cx = "stablehlo.constant"() <{value = dense<(1.0, 2.0)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
  %ob:2 = "stablehlo.optimization_barrier"(%x, %p) : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<i1>)
  %cmp = "stablehlo.compare"(%x, %x) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %ex = "stablehlo.exponential"(%x) <{result_accuracy = #stablehlo.result_accuracy<atol = 1.0e-5, rtol = 0.0, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}> {note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
  %bc = "stablehlo.broadcast"(%x) <{broadcast_sizes = array<i64: 3>}> : (tensor<2xf32>) -> tensor<3x2xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %rw = "stablehlo.reduce"(%m, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%l: tensor<f32>, %q: tensor<f32>):
    %z = "stablehlo.add"(%q, %l) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%z) : (tensor<f32>) -> ()
  }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %pt = "stablehlo.partition_id"() : () -> tensor<ui32>
  %conv = "stablehlo.convolution"(%m, %m) <{dimension_numbers = #stablehlo.conv<[b, f]x[o, i]->[b, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  "stablehlo.while"() ({
    %false = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    "stablehlo.return"(%false) : (tensor<i1>) -> ()
  }, {
    "stablehlo.return"() : () -> ()
  }) : () -> ()
  return
}
func.func private @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
"""

PROGRAMS = {
    "elementwise": (lambda x, y: [x + y, x - y, x * y, x / y, jnp.maximum(x, y),
                                  jnp.minimum(x, y), jnp.exp(x), jnp.log(x), jnp.tanh(x), -x,
                                  jnp.abs(x), jnp.sqrt(x), lax.rsqrt(x), x ** y, jnp.floor(x),
                                  jnp.ceil(x), jnp.sin(x), jnp.cos(x), jnp.sign(x),
                                  jnp.expm1(x), jnp.log1p(x), jax.nn.sigmoid(x), jnp.round(x),
                                  jnp.atan2(x, y), jnp.remainder(x, y), jnp.isfinite(x),
                                  jnp.cbrt(x), jnp.tan(x), lax.round(x)],
                    (s(4, 8), s(4, 8))),
    "integer_ops": (lambda a, b: [a & b, a | b, a ^ b, ~a, a << b, a >> b,
                                  lax.shift_right_logical(a, b), lax.population_count(a),
                                  lax.clz(a), a // b, a % b, jnp.where(a > b, a, b)],
                    (s(16, dtype=i32), s(16, dtype=i32))),
    "converts": (lambda x, n: [x.astype(i32), n.astype(f32), x.astype(jnp.bfloat16),
                               lax.bitcast_convert_type(x, i32), x > 0, (x > 0).astype(f32),
                               jnp.clip(x, -1.0, 1.0), lax.clamp(0.0, x, 6.0)],
                 (s(3, 5), s(3, 5, dtype=i32))),
    "broadcasts": (lambda x, v: [x + v, x * 2.0, jnp.broadcast_to(v[:, None, None], (8, 4, 6)),
                                 jnp.zeros((2, 3)), jnp.arange(12).reshape(3, 4),
                                 lax.broadcasted_iota(i32, (3, 4), 1)],
                   (s(8, 8), s(8))),
    "reshape_chain": (lambda x: x.reshape(2, 3, 4).transpose(2, 0, 1).reshape(4, 6).T.ravel(),
                      (s(24),)),
    "transpose": (lambda x: [x.transpose(0, 2, 1), jnp.swapaxes(x, 0, 2)], (s(2, 3, 4),)),
    "slices": (lambda x: [x[1:3, ::2], x[::-1, 2:], x[:, 3], x[2], lax.slice(x, (0, 1), (4, 7), (2, 3))],
               (s(6, 8),)),
    "pads": (lambda x: [jnp.pad(x, ((1, 2), (0, 3))), lax.pad(x, 0.0, ((1, 1, 1), (0, -1, 0))),
                        jnp.pad(x, 1, mode="edge")],
             (s(4, 5),)),
    "concatenates": (lambda x, y: [jnp.concatenate([x, y], 0), jnp.stack([x, y], 1),
                                   jnp.hstack([x, y, x])],
                     (s(3, 4), s(3, 4))),
    "reverses": (lambda x: [jnp.flip(x, 0), jnp.flip(x, (0, 1)), x[::-1]], (s(5, 6),)),
    "reductions": (lambda x: [x.sum(), x.sum(0), x.max(1), x.min(1), x.prod(0),
                              jnp.any(x > 0, 1), jnp.all(x > 0), x.mean(1)],
                   (s(6, 10),)),
    "argmax": (lambda x: [jnp.argmax(x, 1), jnp.argmin(x, 0)], (s(4, 9),)),
    "reduce_window": (lambda x: [lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID"),
                                 lax.reduce_window(x, -jnp.inf, lax.max, (3, 3), (2, 2), "SAME"),
                                 jnp.cumsum(x, 1), jnp.cumprod(x, 0), lax.cummax(x, 1)],
                      (s(8, 8),)),
    "max_pool_grad": (jax.grad(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (2, 2),
                                                           "VALID").sum()),
                      (s(4, 6),)),
    "gather": (lambda x, i: [x[i], x[:, i], jnp.take_along_axis(x[:5], i[:, None] % 6, 1), x[i, i]],
               (s(6, 7), s(5, dtype=i32))),
    "scatter": (lambda x, i, u: [x.at[i].add(u), x.at[i].set(u), x.at[i].max(u), x.at[i, 2].mul(3.0)],
                (s(6, 7), s(5, dtype=i32), s(5, 7))),
    "dynamic_slices": (lambda x, i, u: [lax.dynamic_slice(x, (i, 2), (3, 4)),
                                        lax.dynamic_update_slice(x, u, (i, i)),
                                        lax.dynamic_index_in_dim(x, i, 1)],
                       (s(8, 9), s(dtype=i32), s(2, 3))),
    "convolution": (lambda x, w: [lax.conv_general_dilated(x, w, (1, 1), "SAME"),
                                  lax.conv_general_dilated(x, w, (2, 1), ((1, 0), (2, 2)),
                                                           lhs_dilation=(1, 2), rhs_dilation=(2, 1),
                                                           dimension_numbers=("NCHW", "OIHW", "NHWC"))],
                    (s(2, 3, 9, 9), s(4, 3, 3, 3))),
    "softmax": (lambda x: jax.nn.softmax(x, axis=-1), (s(16, 32),)),
    "layer_norm": (layer_norm, (s(8, 32), s(32), s(32))),
    "attention": (attention, (s(2, 8, 16), s(2, 10, 16), s(2, 10, 16))),
    "matmuls": (lambda a, b, c: [a @ b, jnp.einsum("ij,j->i", a, c), jnp.dot(a, b, precision="highest"),
                                 jnp.einsum("bij,bjk->bik", a[None], b[None]), jnp.outer(c, c)],
                (s(4, 6), s(6, 5), s(6))),
    "sort": (lambda x, k: [jnp.sort(x, 1), jnp.argsort(x, 0), lax.sort((x, k), num_keys=1),
                           lax.top_k(x, 3)[0]],
             (s(5, 6), s(5, 6, dtype=i32))),
    "cumsum_scan": (scan_sum, (s(7, 3),)),
    "while_loop": (lambda n, x: lax.fori_loop(0, n, lambda i, c: c * 0.5 + i, x),
                   (s(dtype=i32), s(4))),
    "cond_switch": (lambda p, i, x: [branch(p, x), switch(i, x)],
                    (s(), s(dtype=i32), s(3))),
    "custom_call": (lambda x: [custom(x), jnp.linalg.cholesky(x @ x.T + 4.0 * jnp.eye(4))],
                    (s(4, 4),)),
    "activations": (lambda x: [softplus(x), jax.nn.gelu(x), jax.nn.relu(x), jax.nn.silu(x)],
                  (s(10),)),
    "random": (lambda k: jax.random.uniform(jax.random.key(0), (3, 4)) + k, (s(3, 4),)),
    "composite": (lambda x, s: [my_tanh(x), my_scaled(x, s)], (s(10), s())),
    "rng_bit_generator": (lambda x: jax.random.uniform(jax.random.key(1, impl="rbg"), (3,)) + x,
                          (s(3),)),
    "misc": (lambda x: [jnp.triu(x), jnp.diagonal(x), jnp.trace(x), jnp.fft.fft(x).real,
                        jnp.linalg.norm(x), jnp.nan_to_num(x), jnp.tile(x, (2, 1)),
                        jnp.repeat(x, 2, 0), jnp.roll(x, 2, 1), lax.reduce_precision(x, 5, 10),
                        lax.optimization_barrier(x), jnp.cos(x + 1j).imag],
             (s(4, 4),)),
}

# Programs also written with their debug information (loc aliases and trailers).
WITH_DEBUG_INFO = ["softmax", "scatter", "while_loop", "argmax", "sort"]


def write(name, pretty):
    here = os.path.dirname(os.path.abspath(__file__))
    # Debug information names this script by its path: keep only its name.
    pretty = pretty.replace(here + "/", "")
    with mlir.make_ir_context() as ctx:
        module = ir.Module.parse(pretty, ctx)
        generic = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    for form, text in (("pretty", pretty), ("generic", generic)):
        with open(os.path.join(here, f"{name}.{form}.mlir"), "w") as out:
            out.write(text)


def main():
    for name, (f, args) in PROGRAMS.items():
        lowered = jax.jit(f).lower(*args)
        write(name, lowered.as_text())
        if name in WITH_DEBUG_INFO:
            write(name + "_debuginfo", lowered.as_text(debug_info=True))
    # Shapes known only at run time (jax.export with a symbolic dimension): dynamic ops.
    (b,) = export.symbolic_shape("b")
    exported = export.export(jax.jit(lambda x: [jnp.sum(x * 2, 0), x.reshape(-1), jnp.arange(x.shape[0]),
                                                jnp.concatenate([x, x])]))(s(b, 3))
    write("symbolic_shapes", exported.mlir_module())
    # A sharded argument: Shardy's mesh and sharding attributes around the StableHLO.
    mesh = jax.sharding.Mesh(jax.devices()[:1], ("x",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    lowered = jax.jit(lambda x: jnp.sin(x) @ x.T, in_shardings=sharding).lower(s(8, 8))
    write("sharded", lowered.as_text())
    with mlir.make_ir_context() as ctx:
        write("handwritten", ir.Module.parse(HANDWRITTEN, ctx).operation.get_asm())


if __name__ == "__main__":
    main()
