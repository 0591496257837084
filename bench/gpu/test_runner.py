"""Tests of runner.py that need no GPU: the packing of kernel parameters, the inputs, the numpy
references, layouts, the peak table, the driver calls through a fake driver that runs exp_add
on the host (checks, timing, launch and load failures), and the `no GPU` exit where there is
none.

Run: `target/bench-gpu-venv/bin/python -m unittest discover -s bench/gpu -p test_runner.py`
(the xtask test `runner_python_tests` does).
"""

import argparse
import contextlib
import ctypes
import io
import json
import math
import os
import pathlib
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import runner  # noqa: E402


class Packing(unittest.TestCase):
    """pack_params lays out MLIR's memref descriptors as cuLaunchKernel reads them."""

    def test_descriptors_byte_layout(self):
        """A 2-D argument then a 0-D one with a negative offset: u64 pointers, i64 the rest."""
        args = [
            {"buffer": 0, "offset": 0, "dims": [2, 3], "strides": [3, 1]},
            {"buffer": 1, "offset": -1, "dims": [], "strides": []},
        ]
        pointers = {0: 0x1000, 1: 0xDEADBEEF00}
        values, params = runner.pack_params(pointers, args)
        expected = struct.pack("<QQqqqqq", 0x1000, 0x1000, 0, 2, 3, 3, 1)
        expected += struct.pack("<QQq", 0xDEADBEEF00, 0xDEADBEEF00, -1)
        self.assertEqual(values.tobytes(), expected)
        self.assertEqual(len(params), 10)
        self.assertEqual(params.dtype, np.uint64)
        for i, address in enumerate(params):
            self.assertEqual(int(address), values.ctypes.data + 8 * i)
        # What the driver reads through each pointer.
        read = [ctypes.c_int64.from_address(int(a)).value for a in params]
        self.assertEqual(read, [0x1000, 0x1000, 0, 2, 3, 3, 1, 0xDEADBEEF00, 0xDEADBEEF00, -1])

    def test_descriptor_fields(self):
        """(allocated, aligned, offset, sizes, strides) of a 3-D argument."""
        arg = {"buffer": 4, "offset": 2, "dims": [4, 5, 6], "strides": [30, 1, 5]}
        self.assertEqual(
            runner.descriptor(7, arg),
            [
                ("u64", 7),
                ("u64", 7),
                ("i64", 2),
                ("i64", 4),
                ("i64", 5),
                ("i64", 6),
                ("i64", 30),
                ("i64", 1),
                ("i64", 5),
            ],
        )


class Inputs(unittest.TestCase):
    """input_value follows crates/passes/tests/common/cpu.rs."""

    def test_hand_computed_values(self):
        """Parameter 0: (3n + 1) mod 17 - 8; parameter 1: (5n + 8) mod 21 - 10."""
        f32 = [float(runner.input_value(0, n, np.float32)) for n in (0, 1, 5)]
        self.assertEqual(f32, [-3.5, -2.0, 4.0])
        self.assertEqual(float(runner.input_value(1, 0, np.float32)), -1.0)
        self.assertEqual(int(runner.input_value(0, 0, np.int32)), -7)
        self.assertEqual([bool(runner.input_value(0, n, np.bool_)) for n in (0, 1)], [True, False])

    def test_input_array(self):
        """Row-major numbering and the manifest's element names."""
        x = runner.input_array(0, "f32", [2, 3])
        self.assertEqual(x.dtype, np.float32)
        self.assertEqual(x.tolist(), [[-3.5, -2.0, -0.5], [1.0, 2.5, 4.0]])


class References(unittest.TestCase):
    """The numpy references on tiny inputs, against hand-computed values."""

    def ref(self, name, *inputs):
        """The single output of reference `name`."""
        (out,) = runner.reference(name, [np.array(x, dtype=np.float32) for x in inputs])
        return np.asarray(out)

    def test_exp_add(self):
        """exp(0) + 1 = 2, exp(ln 2) + 2 = 4."""
        np.testing.assert_allclose(
            self.ref("exp_add", [[0.0, math.log(2)]], [[1.0, 2.0]]), [[2.0, 4.0]]
        )

    def test_sums(self):
        """Rows [1, 2], [3, 4]: row sums 3, 7; column sums 4, 6."""
        x = [[1.0, 2.0], [3.0, 4.0]]
        self.assertEqual(self.ref("row_sum", x).tolist(), [3.0, 7.0])
        self.assertEqual(self.ref("column_sum", x).tolist(), [4.0, 6.0])

    def test_softmax(self):
        """Row [0, ln 3]: 1/4, 3/4; row [5, 5]: 1/2, 1/2."""
        np.testing.assert_allclose(
            self.ref("softmax", [[0.0, math.log(3)], [5.0, 5.0]]),
            [[0.25, 0.75], [0.5, 0.5]],
            rtol=1e-6,
        )

    def test_transposes(self):
        """x[i, j] moves to [j, i]; x[b, i, j] to [b, j, i]."""
        self.assertEqual(
            self.ref("transpose", [[1, 2, 3], [4, 5, 6]]).tolist(), [[1, 4], [2, 5], [3, 6]]
        )
        x = [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
        self.assertEqual(
            self.ref("batched_transpose", x).tolist(),
            [[[1, 4], [2, 5], [3, 6]], [[7, 10], [8, 11], [9, 12]]],
        )

    def test_every_reference_has_a_tolerance(self):
        """REFERENCES and TOLERANCES name the same programs."""
        self.assertEqual(set(runner.REFERENCES), set(runner.TOLERANCES))

    def test_mismatch(self):
        """A wrong element is found and located; equal arrays pass."""
        want = np.array([1.0, 2.0, 3.0])
        self.assertIsNone(runner.mismatch("row_sum", np.float32(want), want))
        why = runner.mismatch("row_sum", np.array([1.0, 2.5, 3.0], dtype=np.float32), want)
        self.assertIn("1 of 3 elements differ", why)
        self.assertIn("first at (1,)", why)

    def test_unknown_reference(self):
        """An unknown name is a RunnerError naming the known ones."""
        with self.assertRaisesRegex(runner.RunnerError, "no numpy reference named 'nope'"):
            runner.reference("nope", [])


class Layouts(unittest.TestCase):
    """Buffers hold logical arrays at the manifest's strides."""

    def test_column_major_round_trip(self):
        """[[1, 2, 3], [4, 5, 6]] at strides [1, 2] is stored 1 4 2 5 3 6."""
        x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
        flat = runner.to_device_layout(x, [1, 2], 24)
        self.assertEqual(flat.tolist(), [1, 4, 2, 5, 3, 6])
        self.assertEqual(runner.from_device_layout(flat, [2, 3], [1, 2]).tolist(), x.tolist())


class Peaks(unittest.TestCase):
    """The peak bandwidth is picked by device name."""

    def test_names(self):
        """H100 SXM and H200 are known; an A100 and a PCIe H100 are not."""
        self.assertEqual(runner.peak("NVIDIA H100 80GB HBM3"), 3.35e12)
        self.assertEqual(runner.peak("NVIDIA H200"), 4.8e12)
        self.assertIsNone(runner.peak("NVIDIA A100-SXM4-80GB"))
        self.assertIsNone(runner.peak("NVIDIA H100 PCIe"))


class FakeDriver:
    """Enough of cuda.bindings.driver to run a program on the host: buffers are host memory,
    and a launch of `exp_add` decodes its memref descriptors from kernelParams and computes
    exp(x) + y through them. `fail` names a call that fails instead."""

    class CUresult:
        """The two results the fake returns."""

        CUDA_SUCCESS = 0
        CUDA_ERROR_LAUNCH_FAILED = 719

    class CUjit_option:
        """The JIT options the runner passes."""

        CU_JIT_ERROR_LOG_BUFFER = 5
        CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6

    def __init__(self, fail=None):
        """A fake device; `fail` is the name of a call that fails."""
        self.fail = fail
        self.memory = {}
        self.launches = []

    def result(self, name, *values):
        """`(err, *values)` of call `name`."""
        if name == self.fail:
            return (self.CUresult.CUDA_ERROR_LAUNCH_FAILED,) + tuple(None for _ in values)
        return (self.CUresult.CUDA_SUCCESS,) + values

    def cuInit(self, flags):
        """Initializes the fake driver."""
        return self.result("cuInit")

    def cuGetErrorName(self, err):
        """The name of any error."""
        return (0, b"CUDA_ERROR_LAUNCH_FAILED")

    def cuDeviceGetCount(self):
        """One device."""
        return self.result("cuDeviceGetCount", 1)

    def cuDeviceGet(self, n):
        """Device `n`."""
        return self.result("cuDeviceGet", n)

    def cuDeviceGetName(self, size, device):
        """An H100's name."""
        return self.result("cuDeviceGetName", b"NVIDIA H100 80GB HBM3\0\0")

    def cuDevicePrimaryCtxRetain(self, device):
        """A context."""
        return self.result("cuDevicePrimaryCtxRetain", "context")

    def cuCtxSetCurrent(self, context):
        """Makes the context current."""
        return self.result("cuCtxSetCurrent")

    def cuModuleLoadDataEx(self, image, count, options, values):
        """A module; when it fails, writes an error log into the log buffer."""
        if self.fail == "cuModuleLoadDataEx":
            values[0][: len(b"ptxas fatal: bad PTX")] = b"ptxas fatal: bad PTX"
        return self.result("cuModuleLoadDataEx", "module")

    def cuModuleGetFunction(self, module, name):
        """The kernel, as its name."""
        return self.result("cuModuleGetFunction", name.decode())

    def cuMemAlloc(self, nbytes):
        """Host memory standing for a device buffer."""
        buffer = np.zeros(nbytes, dtype=np.uint8)
        self.memory[buffer.ctypes.data] = buffer
        return self.result("cuMemAlloc", buffer.ctypes.data)

    def cuMemFree(self, pointer):
        """Frees a buffer."""
        del self.memory[pointer]
        return self.result("cuMemFree")

    def cuMemcpyHtoD(self, dst, src, nbytes):
        """Copies host to 'device'."""
        ctypes.memmove(dst, src, nbytes)
        return self.result("cuMemcpyHtoD")

    def cuMemcpyDtoH(self, dst, src, nbytes):
        """Copies 'device' to host."""
        ctypes.memmove(dst, src, nbytes)
        return self.result("cuMemcpyDtoH")

    def cuMemcpyDtoD(self, dst, src, nbytes):
        """Copies between buffers."""
        ctypes.memmove(dst, src, nbytes)
        return self.result("cuMemcpyDtoD")

    def memref(self, params, start, rank):
        """The f32 array of the memref descriptor at kernelParams[start:]."""
        fields = [
            ctypes.c_int64.from_address(int(params[start + i])).value for i in range(3 + 2 * rank)
        ]
        allocated, aligned, offset = fields[:3]
        assert allocated == aligned and aligned in self.memory, fields
        sizes, strides = fields[3 : 3 + rank], fields[3 + rank :]
        base = self.memory[aligned].view(np.float32)[offset:]
        return np.lib.stride_tricks.as_strided(base, sizes, [4 * s for s in strides])

    def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        """Runs exp_add on the buffers its kernelParams describe."""
        self.launches.append((function, (gx, gy, gz), (bx, by, bz)))
        if self.fail == "cuLaunchKernel":
            return self.result("cuLaunchKernel")
        assert function == "exp_add" and extra == 0 and shared == 0
        pointers = (ctypes.c_uint64 * 21).from_address(params)
        x, y, out = (self.memref(pointers, 7 * k, 2) for k in range(3))
        out[...] = np.exp(x) + y
        return self.result("cuLaunchKernel")

    def cuCtxSynchronize(self):
        """Nothing to wait for."""
        return self.result("cuCtxSynchronize")

    def cuEventCreate(self, flags):
        """An event."""
        return self.result("cuEventCreate", object())

    def cuEventRecord(self, event, stream):
        """Records an event."""
        return self.result("cuEventRecord")

    def cuEventSynchronize(self, event):
        """Waits for an event."""
        return self.result("cuEventSynchronize")

    def cuEventElapsedTime(self, start, end):
        """Half a millisecond."""
        return self.result("cuEventElapsedTime", 0.5)


def exp_add_manifest(dims, strides):
    """A manifest of exp(x) + y on f32 `dims` with every buffer at `strides`."""
    nbytes = 4 * int(np.prod(dims))
    buffers = [
        {
            "id": i,
            "name": n,
            "role": r,
            "element": "f32",
            "dims": dims,
            "strides": strides,
            "bytes": nbytes,
        }
        for i, (n, r) in enumerate(
            [("%p0", "parameter"), ("%p1", "parameter"), ("%out0", "output")]
        )
    ]
    args = [
        {"buffer": i, "element": "f32", "dims": dims, "strides": strides, "offset": 0}
        for i in range(3)
    ]
    kernel = {
        "symbol": "exp_add",
        "fusion": "exp_add",
        "grid": [2, 1, 1],
        "block": [128, 1, 1],
        "args": args,
        "bytes_read": 2 * nbytes,
        "bytes_written": nbytes,
    }
    return {
        "program": "exp_add",
        "variant": "small",
        "reference": "exp_add",
        "ptx": "exp_add.ptx",
        "buffers": buffers,
        "parameters": [0, 1],
        "outputs": [2],
        "kernels": [kernel],
        "copies": [],
    }


class FakeGpu(unittest.TestCase):
    """The runner's driver calls, through a fake driver that runs exp_add on the host."""

    def setUp(self):
        """A folder with a PTX file (the fake does not read it)."""
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)
        (self.dir / "exp_add.ptx").write_text("// fake\n")

    def tearDown(self):
        """Removes the folder."""
        self.tmp.cleanup()

    def test_check_passes_through_the_descriptors(self):
        """Row-major and column-major buffers: the outputs match, every buffer is freed."""
        for strides in ([3, 1], [1, 2]):
            driver = FakeDriver()
            gpu = runner.Gpu(driver)
            self.assertEqual(gpu.name, "NVIDIA H100 80GB HBM3")
            self.assertEqual(runner.check(gpu, self.dir, exp_add_manifest([2, 3], strides)), [])
            self.assertEqual(driver.launches, [("exp_add", (2, 1, 1), (128, 1, 1))])
            self.assertEqual(driver.memory, {})

    def test_check_finds_a_wrong_output(self):
        """A reference that disagrees with the kernel is reported."""
        manifest = exp_add_manifest([2, 3], [3, 1])
        manifest["kernels"][0]["args"][0]["buffer"] = 1  # exp(y) + y
        failures = runner.check(runner.Gpu(FakeDriver()), self.dir, manifest)
        self.assertEqual(len(failures), 1)
        self.assertIn("exp_add (small): output 0:", failures[0])

    def test_timing(self):
        """Per-kernel and total medians come from the events."""
        gpu = runner.Gpu(FakeDriver())
        kernels, total = runner.time_program(gpu, self.dir, exp_add_manifest([2, 3], [3, 1]), 1, 3)
        self.assertEqual((kernels, total), ([0.5], 0.5))

    def test_launch_failure_names_the_kernel(self):
        """A failed launch is a RunnerError naming the kernel and the driver's error."""
        gpu = runner.Gpu(FakeDriver(fail="cuLaunchKernel"))
        with self.assertRaisesRegex(
            runner.RunnerError,
            r"cuLaunchKernel\(exp_add, 21 parameters\) failed: CUDA_ERROR_LAUNCH_FAILED",
        ):
            runner.check(gpu, self.dir, exp_add_manifest([2, 3], [3, 1]))

    def test_load_failure_prints_the_jit_log(self):
        """A PTX the driver rejects is a RunnerError with the JIT's error log."""
        gpu = runner.Gpu(FakeDriver(fail="cuModuleLoadDataEx"))
        with self.assertRaisesRegex(
            runner.RunnerError, r"(?s)cannot load .*exp_add.ptx.*JIT log:\nptxas fatal: bad PTX"
        ):
            runner.check(gpu, self.dir, exp_add_manifest([2, 3], [3, 1]))

    def test_manifest_from_xtask(self):
        """The manifest xtask writes for exp_add.small (path in XTASK_EXP_ADD_MANIFEST, set by
        the xtask test `runner_python_tests`) runs and checks through the fake."""
        path = os.environ.get("XTASK_EXP_ADD_MANIFEST")
        if not path:
            self.skipTest("XTASK_EXP_ADD_MANIFEST is not set")
        manifest = json.loads(pathlib.Path(path).read_text())
        (self.dir / manifest["ptx"]).write_text("// fake\n")
        driver = FakeDriver()
        self.assertEqual(runner.check(runner.Gpu(driver), self.dir, manifest), [])
        self.assertEqual(len(driver.launches), 1)

    def test_run_all_prints_checks_and_the_table(self):
        """run_all checks the small variant and prints a row per kernel and one for the program
        of the large one (here the same small program), with the peak share of an H100."""
        small = exp_add_manifest([4, 256], [256, 1])
        large = dict(small, variant="large")
        (self.dir / "exp_add.small.json").write_text(json.dumps(small))
        (self.dir / "exp_add.json").write_text(json.dumps(large))
        args = argparse.Namespace(dir=self.dir, repeat=2, warmup=1, no_jax=True, check_only=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = runner.run_all(runner.Gpu(FakeDriver()), args)
        self.assertEqual(status, 0)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "device: NVIDIA H100 80GB HBM3; peak 3.35 TB/s")
        self.assertIn("check exp_add: ok", lines)
        # 3 buffers of 4 KiB in 0.5 ms: 0.0246 GB/s, 0.0% of 3.35 TB/s.
        rows = [line.split() for line in lines if line.startswith("exp_add ")]
        self.assertEqual(
            rows,
            [
                ["exp_add", "exp_add", "0.500", "0.0", "0.0%"],
                ["exp_add", "(all)", "0.500", "0.0", "0.0%"],
            ],
        )

    def test_no_device(self):
        """cuInit failing is NoGpu."""
        with self.assertRaisesRegex(runner.NoGpu, "cuInit failed"):
            runner.Gpu(FakeDriver(fail="cuInit"))


def gpu_present():
    """Whether the CUDA driver loads and sees a device here."""
    try:
        from cuda.bindings import driver

        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return False
        err, count = driver.cuDeviceGetCount()
        return err == driver.CUresult.CUDA_SUCCESS and count > 0
    except Exception:
        return False


class NoGpuExit(unittest.TestCase):
    """Without a GPU the runner says so in one line and exits with NO_GPU."""

    def test_no_gpu(self):
        """runner.py DIR exits 3 with `no GPU: WHY` on stdout."""
        if gpu_present():
            self.skipTest("a GPU is here")
        with tempfile.TemporaryDirectory() as directory:
            done = subprocess.run(
                [sys.executable, str(pathlib.Path(runner.__file__)), directory],
                capture_output=True,
                text=True,
                timeout=60,
            )
        self.assertEqual(done.returncode, runner.NO_GPU, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(len(lines), 1, done.stdout)
        self.assertTrue(lines[0].startswith("no GPU: "), lines[0])


if __name__ == "__main__":
    unittest.main()
