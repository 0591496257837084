# lit configuration of the xla-indexing suites (one folder per area).
#
# `cargo test` runs it through crates/plugin/tests/lit.rs. By hand:
#   /usr/lib/llvm-22/bin/lit -v test --param xla_indexing_plugin=$PWD/target/debug/libxla_indexing_plugin.so
#
# Parameters (or environment variables):
#   xla_indexing_plugin (XLA_INDEXING_PLUGIN)  the plugin .so; required
#   llvm_bin (LLVM_BIN)                        LLVM 22 tools, default /usr/lib/llvm-22/bin
#   ptxas (PTXAS)                              ptxas, enables the `ptxas` feature; when given it must exist
#   xla_indexing_cli (XLA_INDEXING_CLI)        the `xla-indexing` binary, enables the `xla-indexing-cli`
#                                              feature and `%xla-indexing`; when given it must exist
#   require_tools (REQUIRE_TOOLS)              1: a tool that a test REQUIRES must be there (set by
#                                              `cargo xtask test` and CI), else tests are unsupported

import os
import sys

import lit.formats

config.name = "xla-indexing"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, "target", "lit")


def param(name, default=""):
    return lit_config.params.get(name, os.environ.get(name.upper(), default))


plugin = param("xla_indexing_plugin")
if not plugin:
    lit_config.fatal("pass --param xla_indexing_plugin=<path of libxla_indexing_plugin.so>")
plugin = os.path.abspath(plugin)
if not os.path.isfile(plugin):
    lit_config.fatal(f"plugin not found: {plugin} (build it with `cargo build -p xla-indexing-plugin`)")

llvm_bin = param("llvm_bin", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])

# Every RUN line uses the dialect, so a plugin that did not load (which mlir-opt only warns
# about) makes it fail.
config.substitutions.append(
    ("%plugins", f"--load-dialect-plugin={plugin} --load-pass-plugin={plugin}")
)
config.substitutions.append(("%python", sys.executable))
# `%expect-exit N CMD ARGS...` succeeds when CMD exits with N (lit's shell has no `$?`).
config.substitutions.append(
    (
        "%expect-exit",
        f'{sys.executable} -c "import subprocess, sys; '
        "code = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        'sys.exit(0 if code == int(sys.argv[1]) else 1)"',
    )
)

# Under `cargo xtask test` and CI every tool a test REQUIRES must be there: a missing one is an
# error here, not a test reported unsupported.
require_tools = param("require_tools") == "1"


def missing(tool, why):
    if require_tools:
        lit_config.fatal(f"{tool} is required (require_tools=1) but {why}")
    lit_config.note(f"the tests that require {tool} are unsupported: {why}")


# Execution checks: mlir-runner with the C runner utilities (printI64, printNewline).
runner_utils = os.path.join(os.path.dirname(llvm_bin), "lib", "libmlir_c_runner_utils.so")
if os.path.isfile(os.path.join(llvm_bin, "mlir-runner")) and os.path.isfile(runner_utils):
    config.available_features.add("mlir-runner")
    config.substitutions.append(
        (
            "%run",
            f"mlir-runner -e main -entry-point-result=void -shared-libs={runner_utils}",
        )
    )
    config.substitutions.append(
        (
            "%to_llvm",
            "--pass-pipeline='builtin.module(lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)'",
        )
    )
else:
    missing("mlir-runner", f"{llvm_bin}/mlir-runner or {runner_utils} is absent")

ptxas = param("ptxas")
if ptxas:
    ptxas = os.path.abspath(ptxas)
    if not os.path.isfile(ptxas):
        lit_config.fatal(f"ptxas not found: {ptxas}")
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    missing("ptxas", "no --param=ptxas=PATH was given (cargo xtask setup installs it)")

cli = param("xla_indexing_cli")
if cli:
    cli = os.path.abspath(cli)
    if not os.path.isfile(cli):
        lit_config.fatal(f"xla-indexing not found: {cli} (build it with `cargo build -p xla-indexing-cli`)")
    config.available_features.add("xla-indexing-cli")
    config.substitutions.append(("%xla-indexing", cli))
else:
    missing("xla-indexing-cli", "no --param=xla_indexing_cli=PATH was given")
