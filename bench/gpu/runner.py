#!/usr/bin/env python3
"""Runs the PTX kernels of `cargo xtask bench gpu --run` on a GPU through the CUDA driver API.

Usage: runner.py DIR [--repeat N] [--warmup N] [--no-jax] [--check-only]

DIR holds, per program, `NAME.ptx` and `NAME.json` (the manifest `crates/xtask/src/
bench_gpu_run/manifest.rs` writes) for a large variant and `NAME.small.*` for a small one. For
each program the runner loads the PTX (cuModuleLoadDataEx, with the JIT's error log on
failure), allocates every buffer of the manifest (cuMemAlloc), fills the parameters with
`input_value`, launches the kernels in the manifest's order (cuLaunchKernel, each memref
argument expanded to MLIR's descriptor: allocated pointer, aligned pointer, offset, sizes,
strides), then

* checks the outputs of the small variant against the numpy reference named by the manifest
  (REFERENCES, computed in float64, with the tolerances of TOLERANCES);
* times the large variant with CUDA events (warm-up launches, then N repetitions; the median)
  and prints per kernel and per program the time, the bandwidth (bytes each kernel reads and
  writes: its unique buffers, per the manifest) in GB/s and as a share of the card's peak
  (PEAKS, picked by device name; GB/s only for other cards);
* when jax with a GPU backend is importable, times the same reference through jax.jit on the
  GPU (the mean of back-to-back calls, so host dispatch overlaps) and prints its time and
  GB/s (counting the same bytes as our kernels together) beside.

It needs only numpy and cuda-python (cuda.bindings.driver): no CUDA toolkit. Exit status: 0
when every check passes, 1 on a failed check or error (a PTX load failure prints the JIT log),
2 on bad usage or a missing package, NO_GPU (3) with one line `no GPU: WHY` when the driver or
a device is missing.
"""

import argparse
import json
import pathlib
import statistics
import sys
import time

import numpy as np

NO_GPU = 3
"""Exit status when there is no GPU (no libcuda, cuInit fails, no device)."""

PEAKS = (("H200", 4.8e12), ("H100 PCIe", None), ("H100 NVL", None), ("H100", 3.35e12))
"""Peak DRAM bandwidth in bytes/s by a substring of the device name, first match wins: H100 is
the SXM card (HBM3, 3.35 TB/s); the PCIe and NVL cards, like any other, get GB/s only."""

DTYPES = {
    "pred": np.bool_,
    "s8": np.int8,
    "s16": np.int16,
    "s32": np.int32,
    "s64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}
"""numpy types of the XLA element types the runner handles."""


class RunnerError(Exception):
    """A failure the runner reports in one message (exit 1)."""


class NoGpu(Exception):
    """There is no GPU to run on; the message says why (exit NO_GPU)."""


# --- Inputs and references (no GPU needed) ---------------------------------------------------


def input_value(p, n, dtype):
    """Element(s) `n` (row-major linear numbers, an int or an int64 array) of parameter `p`.

    The formula of crates/passes/tests/common/cpu.rs: v = (n * (2p + 3) + 7p + 1) mod (17 + 4p)
    - (17 + 4p) // 2; floats hold v / 2, integers v, pred the parity of (v + (17 + 4p) // 2).
    """
    a, b, m = 2 * p + 3, 7 * p + 1, 17 + 4 * p
    h = (np.asarray(n, dtype=np.int64) * a + b) % m
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return h % 2 == 1
    v = h - m // 2
    if dtype.kind == "f":
        return (v * 0.5).astype(dtype)
    return v.astype(dtype)


def input_array(p, element, dims):
    """The logical (row-major) array of parameter `p` with XLA type `element` and `dims`."""
    count = int(np.prod(dims, dtype=np.int64))
    return input_value(p, np.arange(count, dtype=np.int64), DTYPES[element]).reshape(dims)


def _softmax(xp, x):
    """Softmax over the last dimension, in XLA's three steps."""
    shifted = xp.exp(x - x.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


REFERENCES = {
    "exp_add": lambda xp, x, y: [xp.exp(x) + y],
    "row_sum": lambda xp, x: [x.sum(axis=1)],
    "column_sum": lambda xp, x: [x.sum(axis=0)],
    "softmax": lambda xp, x: [_softmax(xp, x)],
    "transpose": lambda xp, x: [xp.transpose(x, (1, 0))],
    "batched_transpose": lambda xp, x: [xp.transpose(x, (0, 2, 1))],
}
"""Per reference name, the program as a function of an array module (numpy or jax.numpy) and
the parameters, giving the outputs in the manifest's order."""

TOLERANCES = {
    "exp_add": (1e-5, 1e-6),
    "row_sum": (1e-5, 1e-4),
    "column_sum": (1e-5, 1e-4),
    "softmax": (1e-4, 1e-7),
    "transpose": (0.0, 0.0),
    "batched_transpose": (0.0, 0.0),
}
"""Per reference name, (rtol, atol) of the check against the float64 reference."""


def reference(name, inputs):
    """The outputs of reference `name` on `inputs`, computed in float64 with numpy."""
    if name not in REFERENCES:
        raise RunnerError(
            f"no numpy reference named {name!r}; runner.py knows {sorted(REFERENCES)}"
        )
    wide = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in inputs]
    return REFERENCES[name](np, *wide)


def mismatch(name, got, want):
    """None when `got` matches `want` within reference `name`'s tolerance, else a description."""
    rtol, atol = TOLERANCES[name]
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    close = np.isclose(got.astype(np.float64), want, rtol=rtol, atol=atol)
    if close.all():
        return None
    bad = np.argwhere(~close)
    first = tuple(int(i) for i in bad[0])
    return (
        f"{len(bad)} of {got.size} elements differ (rtol {rtol}, atol {atol}); "
        f"first at {first}: {got[first]!r}, expected {want[first]!r}"
    )


# --- Kernel arguments (no GPU needed) --------------------------------------------------------


def descriptor(pointer, arg):
    """MLIR's memref descriptor of manifest argument `arg` in a buffer at device address
    `pointer`: (allocated ptr, aligned ptr, offset, sizes..., strides...), as (kind, value)
    pairs: kind "u64" for pointers, "i64" for the rest."""
    fields = [("u64", pointer), ("u64", pointer), ("i64", arg["offset"])]
    fields += [("i64", d) for d in arg["dims"]]
    fields += [("i64", s) for s in arg["strides"]]
    return fields


def pack_params(pointers, args):
    """cuLaunchKernel's kernelParams for `args` (manifest arguments) with buffers at the device
    addresses `pointers` (by buffer id): (values, params). `values` holds every parameter as 8
    bytes (u64 or i64, little-endian as the host); `params` is the array of pointers, one per
    parameter, each to its value in `values`. Both must live until the launch returns; pass
    `params.ctypes.data`."""
    fields = [f for arg in args for f in descriptor(pointers[arg["buffer"]], arg)]
    values = np.empty(len(fields), dtype=np.uint64)
    for i, (kind, value) in enumerate(fields):
        values[i] = np.uint64(value) if kind == "u64" else np.int64(value).view(np.uint64)
    params = values.ctypes.data + 8 * np.arange(len(fields), dtype=np.uint64)
    return values, params


def to_device_layout(array, strides, nbytes):
    """The bytes of a buffer of `nbytes` holding the logical array `array` at `strides`
    (elements)."""
    flat = np.zeros(nbytes // array.itemsize, dtype=array.dtype)
    if array.ndim:
        view = np.lib.stride_tricks.as_strided(
            flat, array.shape, [s * array.itemsize for s in strides]
        )
        view[...] = array
    else:
        flat[0] = array
    return flat


def from_device_layout(flat, dims, strides):
    """The logical array of dimensions `dims` at `strides` (elements) in the buffer `flat`."""
    if not dims:
        return flat[0].copy()
    return np.lib.stride_tricks.as_strided(flat, dims, [s * flat.itemsize for s in strides]).copy()


def peak(device_name):
    """The card's peak bandwidth in bytes/s by its name, None when unknown."""
    return next((bw for key, bw in PEAKS if key in device_name), None)


# --- The GPU ---------------------------------------------------------------------------------


class Gpu:
    """Device 0 through the driver API: its primary context, modules, buffers and launches."""

    def __init__(self, driver):
        """cuInit and device 0's primary context; NoGpu when the driver or a device is missing."""
        self.cu = driver
        try:
            (err,) = driver.cuInit(0)
        except Exception as e:  # cuda-python raises when it cannot load libcuda.
            raise NoGpu(f"cannot load the CUDA driver (libcuda): {e}") from e
        if err != driver.CUresult.CUDA_SUCCESS:
            raise NoGpu(f"cuInit failed: {self.error_name(err)}")
        count = self.call(driver.cuDeviceGetCount(), "cuDeviceGetCount")
        if count == 0:
            raise NoGpu("the CUDA driver sees no device")
        self.device = self.call(driver.cuDeviceGet(0), "cuDeviceGet")
        name = self.call(driver.cuDeviceGetName(256, self.device), "cuDeviceGetName")
        self.name = name.split(b"\0", 1)[0].decode()
        self.context = self.call(
            driver.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain"
        )
        self.call(driver.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    def error_name(self, err):
        """The driver's name of the error `err`."""
        found, name = self.cu.cuGetErrorName(err)
        return name.decode() if found == self.cu.CUresult.CUDA_SUCCESS else str(err)

    def call(self, result, what):
        """The value(s) of a driver call's result `(err, *values)`; RunnerError unless it
        succeeded."""
        err, *values = result
        if err != self.cu.CUresult.CUDA_SUCCESS:
            raise RunnerError(f"{what} failed: {self.error_name(err)}")
        if not values:
            return None
        return values[0] if len(values) == 1 else tuple(values)

    def load(self, path):
        """The module of the PTX file `path`; RunnerError with the JIT's error log if it fails."""
        image = np.frombuffer(path.read_bytes() + b"\0", dtype=np.uint8)
        size = 1 << 16
        log = bytearray(size)
        opt = self.cu.CUjit_option
        err, module = self.cu.cuModuleLoadDataEx(
            image.ctypes.data,
            2,
            [opt.CU_JIT_ERROR_LOG_BUFFER, opt.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES],
            [log, size],
        )
        if err != self.cu.CUresult.CUDA_SUCCESS:
            text = bytes(log).split(b"\0", 1)[0].decode(errors="replace").strip()
            raise RunnerError(
                f"cannot load {path}: {self.error_name(err)}\nJIT log:\n{text or '(empty)'}"
            )
        return module

    def function(self, module, symbol):
        """The kernel `symbol` of `module`."""
        return self.call(
            self.cu.cuModuleGetFunction(module, symbol.encode()),
            f"cuModuleGetFunction({symbol})",
        )

    def alloc(self, nbytes):
        """A device buffer of `nbytes` (at least 1), as its address."""
        return int(self.call(self.cu.cuMemAlloc(max(nbytes, 1)), f"cuMemAlloc({nbytes})"))

    def upload(self, pointer, array):
        """Copies the contiguous host array `array` to `pointer`."""
        self.call(self.cu.cuMemcpyHtoD(pointer, array.ctypes.data, array.nbytes), "cuMemcpyHtoD")

    def download(self, pointer, array):
        """Copies `array.nbytes` from `pointer` into the contiguous host array `array`."""
        self.call(self.cu.cuMemcpyDtoH(array.ctypes.data, pointer, array.nbytes), "cuMemcpyDtoH")

    def copy(self, dst, src, nbytes):
        """Copies `nbytes` on the device from `src` to `dst`."""
        self.call(self.cu.cuMemcpyDtoD(dst, src, nbytes), "cuMemcpyDtoD")

    def launch(self, function, kernel, pointers):
        """Launches manifest `kernel` (its grid, block and arguments) on the buffers at
        `pointers`; RunnerError naming the kernel if the launch fails."""
        # `values` must outlive the call: the driver copies the parameters from it at launch.
        values, params = pack_params(pointers, kernel["args"])
        result = self.cu.cuLaunchKernel(
            function, *kernel["grid"], *kernel["block"], 0, 0, params.ctypes.data, 0
        )
        self.call(result, f"cuLaunchKernel({kernel['symbol']}, {values.size} parameters)")

    def synchronize(self, what):
        """Waits for the device; RunnerError naming `what` if a kernel faulted."""
        self.call(self.cu.cuCtxSynchronize(), f"{what} (cuCtxSynchronize)")

    def event(self):
        """A new CUDA event."""
        return self.call(self.cu.cuEventCreate(0), "cuEventCreate")

    def record(self, event):
        """Records `event` on the default stream."""
        self.call(self.cu.cuEventRecord(event, 0), "cuEventRecord")

    def elapsed(self, start, end):
        """Milliseconds between two recorded events (after waiting for `end`)."""
        self.call(self.cu.cuEventSynchronize(end), "cuEventSynchronize")
        return self.call(self.cu.cuEventElapsedTime(start, end), "cuEventElapsedTime")

    def free(self, pointer):
        """Frees a device buffer."""
        self.call(self.cu.cuMemFree(pointer), "cuMemFree")


class Program:
    """One variant of a program on the GPU: its module, kernels and buffers (inputs filled)."""

    def __init__(self, gpu, directory, manifest):
        """Loads the PTX, allocates every buffer and uploads the parameters."""
        self.gpu = gpu
        self.manifest = manifest
        self.name = f"{manifest['program']} ({manifest['variant']})"
        module = gpu.load(directory / manifest["ptx"])
        self.functions = [gpu.function(module, k["symbol"]) for k in manifest["kernels"]]
        self.pointers = {}
        try:
            for b in manifest["buffers"]:
                self.pointers[b["id"]] = gpu.alloc(b["bytes"])
            self.inputs = []
            for p, id in enumerate(manifest["parameters"]):
                b = manifest["buffers"][id]
                if b["element"] not in DTYPES:
                    raise RunnerError(f"{self.name}: element type {b['element']} is not handled")
                logical = input_array(p, b["element"], b["dims"])
                self.inputs.append(logical)
                gpu.upload(self.pointers[id], to_device_layout(logical, b["strides"], b["bytes"]))
        except Exception:
            self.free()
            raise

    def run_kernel(self, k):
        """Fills kernel `k`'s outputs that start as a copy of an input (a scatter's operand),
        then launches it."""
        kernel = self.manifest["kernels"][k]
        for c in kernel.get("fills", []):
            nbytes = self.manifest["buffers"][c["out"]]["bytes"]
            self.gpu.copy(self.pointers[c["out"]], self.pointers[c["source"]], nbytes)
        self.gpu.launch(self.functions[k], kernel, self.pointers)

    def run(self):
        """Launches every kernel in order, then the copies into out-parameters."""
        for k in range(len(self.functions)):
            self.run_kernel(k)
        for c in self.manifest["copies"]:
            nbytes = self.manifest["buffers"][c["out"]]["bytes"]
            self.gpu.copy(self.pointers[c["out"]], self.pointers[c["source"]], nbytes)

    def outputs(self):
        """The outputs' logical arrays, read back from the device."""
        result = []
        for id in self.manifest["outputs"]:
            b = self.manifest["buffers"][id]
            flat = np.empty(
                b["bytes"] // np.dtype(DTYPES[b["element"]]).itemsize, DTYPES[b["element"]]
            )
            self.gpu.download(self.pointers[id], flat)
            result.append(from_device_layout(flat, b["dims"], b["strides"]))
        return result

    def free(self):
        """Frees the buffers."""
        for pointer in self.pointers.values():
            self.gpu.free(pointer)
        self.pointers = {}


def check(gpu, directory, manifest):
    """Runs the (small) `manifest` once and checks its outputs; a list of failures."""
    program = Program(gpu, directory, manifest)
    try:
        program.run()
        gpu.synchronize(f"running {program.name}")
        want = reference(manifest["reference"], program.inputs)
        failures = []
        for j, (got, expected) in enumerate(zip(program.outputs(), want)):
            why = mismatch(manifest["reference"], got, np.asarray(expected))
            if why:
                failures.append(f"{program.name}: output {j}: {why}")
        return failures
    finally:
        program.free()


def time_program(gpu, directory, manifest, warmup, repeat):
    """Per kernel of the (large) `manifest`, the median milliseconds over `repeat` runs after
    `warmup`, and the median of the whole program."""
    program = Program(gpu, directory, manifest)
    try:
        for _ in range(warmup):
            program.run()
        gpu.synchronize(f"warming up {program.name}")
        events = [gpu.event() for _ in range(len(program.functions) + 1)]
        per_kernel = [[] for _ in program.functions]
        total = []
        for _ in range(repeat):
            gpu.record(events[0])
            for k in range(len(program.functions)):
                program.run_kernel(k)
                gpu.record(events[k + 1])
            for k in range(len(program.functions)):
                per_kernel[k].append(gpu.elapsed(events[k], events[k + 1]))
            total.append(gpu.elapsed(events[0], events[-1]))
        gpu.synchronize(f"timing {program.name}")
        return [statistics.median(t) for t in per_kernel], statistics.median(total)
    finally:
        program.free()


def jax_timer():
    """A function timing a reference through jax.jit on the GPU, None when jax has no GPU."""
    try:
        import jax
        import jax.numpy as jnp

        if not jax.devices("gpu"):
            return None
    except Exception:
        return None

    def run(name, inputs, warmup, repeat):
        """Milliseconds per call of reference `name` on `inputs` through jax.jit on the GPU:
        the mean of `repeat` calls back to back (dispatch overlaps the device's work), after
        `warmup` (and the compilation)."""
        function = jax.jit(lambda *xs: REFERENCES[name](jnp, *xs))
        device = jax.devices("gpu")[0]
        args = [jax.device_put(x, device) for x in inputs]
        for _ in range(max(warmup, 1)):
            jax.block_until_ready(function(*args))
        start = time.perf_counter()
        result = None
        for _ in range(repeat):
            result = function(*args)
        jax.block_until_ready(result)
        return (time.perf_counter() - start) * 1e3 / repeat

    return run


def bandwidth(nbytes, ms, peak_bw):
    """`GB/s` and `% of peak` columns for `nbytes` moved in `ms`."""
    rate = nbytes / (ms * 1e-3)
    share = f"{100 * rate / peak_bw:5.1f}%" if peak_bw else "    -"
    return f"{rate / 1e9:8.1f}", share


def load_manifests(directory):
    """The manifests of `directory` by program name, each {variant: manifest}."""
    programs = {}
    for path in sorted(directory.glob("*.json")):
        manifest = json.loads(path.read_text())
        programs.setdefault(manifest["program"], {})[manifest["variant"]] = manifest
    if not programs:
        raise RunnerError(
            f"no manifests (*.json) in {directory}: run `cargo xtask bench gpu --run`"
        )
    return programs


def main(argv=None):
    """Checks and times every program of the directory; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dir", type=pathlib.Path, help="the PTX files and manifests")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    parser.add_argument("--no-jax", action="store_true", help="do not time jax")
    parser.add_argument("--check-only", action="store_true", help="check, do not time")
    args = parser.parse_args(argv)
    if not args.dir.is_dir():
        print(f"runner: error: {args.dir} is not a directory", file=sys.stderr)
        return 2
    try:
        from cuda.bindings import driver
    except ImportError as e:
        print(
            f"runner: error: cuda-python is not installed ({e}): pip install cuda-python",
            file=sys.stderr,
        )
        return 2
    try:
        gpu = Gpu(driver)
    except NoGpu as e:
        print(f"no GPU: {e}")
        return NO_GPU
    try:
        return run_all(gpu, args)
    except RunnerError as e:
        print(f"runner: error: {e}", file=sys.stderr)
        return 1


def run_all(gpu, args):
    """Checks the small variants, then times the large ones; the exit status."""
    programs = load_manifests(args.dir)
    peak_bw = peak(gpu.name)
    print(
        f"device: {gpu.name}; peak "
        + (f"{peak_bw / 1e12:.2f} TB/s" if peak_bw else "unknown: GB/s only")
    )
    failures = []
    for name, variants in programs.items():
        if "small" in variants:
            found = check(gpu, args.dir, variants["small"])
            print(f"check {name}: {'ok' if not found else 'FAILED'}")
            failures += found
    for failure in failures:
        print(f"  {failure}")
    if failures or args.check_only:
        return 1 if failures else 0
    timer = None if args.no_jax else jax_timer()
    jax_head = "  jax ms   jax GB/s" if timer else ""
    print(f"\n{'program':<18} {'kernel':<20} {'ms':>9} {'GB/s':>8} {'% peak':>7}{jax_head}")
    for name, variants in programs.items():
        if "large" not in variants:
            continue
        manifest = variants["large"]
        kernels, total = time_program(gpu, args.dir, manifest, args.warmup, args.repeat)
        moved = 0
        for kernel, ms in zip(manifest["kernels"], kernels):
            nbytes = kernel["bytes_read"] + kernel["bytes_written"]
            moved += nbytes
            print(
                f"{name:<18} {kernel['symbol']:<20} {ms:9.3f} {' '.join(bandwidth(nbytes, ms, peak_bw))}"
            )
        jax_cells = ""
        if timer:
            inputs = [
                input_array(p, manifest["buffers"][id]["element"], manifest["buffers"][id]["dims"])
                for p, id in enumerate(manifest["parameters"])
            ]
            try:
                jax_ms = timer(manifest["reference"], inputs, args.warmup, args.repeat)
                jax_cells = f" {jax_ms:8.3f} {bandwidth(moved, jax_ms, peak_bw)[0]}"
            except Exception as e:  # jax's failure is reported, ours still count.
                jax_cells = f"  jax failed: {type(e).__name__}: {e}"
        print(
            f"{name:<18} {'(all)':<20} {total:9.3f} {' '.join(bandwidth(moved, total, peak_bw))}{jax_cells}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
