//! `cargo xtask demo`: setup, a release build, then the demo steps on `examples/`.

use std::{env, path::Path, process::Command};

use anyhow::{Result, bail};

use crate::{run, setup};

/// One demo step: a title and a bash command run from the workspace root, with
/// `target/release` (for `xla-indexing`) and the LLVM 22 tools on `PATH`.
struct Step {
    title: &'static str,
    command: &'static str,
}

/// The demo, in order. Each area of the project adds its steps here.
const STEPS: &[Step] = &[
    Step {
        title: "Simplify the seed's indexing maps (examples/simplify.maps)",
        command: r#"while IFS= read -r map; do
  [ -n "$map" ] || continue
  simplified=$(xla-indexing simplify "$map")
  printf '  %s\n  => %s\n\n' "$map" "$simplified"
done < examples/simplify.maps"#,
    },
    Step {
        title: "Index arithmetic of kernels simplified as a whole, in process as mlir-opt with the plugin runs it",
        command: "xla-indexing opt examples/mlir/simplify.mlir --pass-pipeline='builtin.module(func.func(xla-indexing-simplify))'",
    },
    Step {
        title: "Indexing maps and utilization of every fusion of a JAX dump",
        command: "xla-indexing indexing examples/hlo/transpose_exp_add.hlo --utilization",
    },
    Step {
        title: "Maps of every fusion of a JAX softmax, as JSON",
        command: "xla-indexing indexing examples/hlo/softmax.hlo --format json",
    },
    Step {
        title: "Tensor Comprehensions range inference (the seed's B(10 - i), symbolic and with I=128)",
        command: "xla-indexing ranges examples/tc/reverted.tc && \\\n  xla-indexing ranges examples/tc/reverted.tc --size I=128",
    },
    Step {
        title: "TVM bound inference, exact where TVM is not (fuse, split by 4, compute_at)",
        command: "xla-indexing bounds examples/sched/fuse_split.sched",
    },
    Step {
        title: "XLA's own CPU kernel of a pad with interior padding (its emitter dump), lowered with its index arithmetic as a whole: one division where XLA's pipeline leaves two",
        command: "xla-indexing opt test/xla/Inputs/padint.broadcast_multiply_fusion.mlir --pass-pipeline='builtin.module(xla-indexing-lower-xla)'",
    },
    Step {
        title: "GPU kernels by XLA's emitters: a row sum (warp shuffles) and a column sum (a shared tile), every read and store coalesced",
        command: "xla-indexing launch examples/hlo/row_column_sums.hlo | grep -E '^[a-z_]+ \\(calls|emitter:|shared memory:' && \\\n  xla-indexing coalescing examples/hlo/row_column_sums.hlo | grep -v 'warp offsets'",
    },
    Step {
        title: "Symbolic tiles of a reshape fusion (exact when a tile of ts0 rows divides a row of 6 or is whole rows), and the best tiling of a transpose by the cost model",
        command: "xla-indexing tiles examples/hlo/reshape_tiles.hlo --symbolic && \\\n  xla-indexing tiles examples/hlo/transpose_add.hlo --best --top 3",
    },
];

/// Runs the demo.
pub fn demo(root: &Path) -> Result<()> {
    setup::setup(root)?;
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run::checked(
        Command::new(cargo)
            .args(["build", "--release", "--workspace"])
            .current_dir(root),
    )?;
    let path = format!(
        "{}:/usr/lib/llvm-22/bin:{}",
        crate::target_dir(root).join("release").display(),
        env::var("PATH").unwrap_or_default()
    );
    for (i, step) in STEPS.iter().enumerate() {
        println!("== {}. {}\n$ {}\n", i + 1, step.title, step.command);
        let status = Command::new("bash")
            .args(["-euo", "pipefail", "-c", step.command])
            .env("PATH", &path)
            .current_dir(root)
            .status()?;
        if !status.success() {
            bail!("demo step {} ({}) failed ({status})", i + 1, step.title);
        }
    }
    Ok(())
}
