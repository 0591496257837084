//! `cargo xtask bench gpu`: the kernels of `bench/gpu/*.hlo` through this project's index
//! lowering and through upstream MLIR's alone (`IndexLowering::UPSTREAM`), on the same
//! generated kernels (for upstream, with the composed maps written as composed, unsimplified)
//! and the same NVPTX pipeline; counts integer divisions and remainders in
//! the LLVM IR (before LLVM's optimizer, which turns divisions by constants into `mul.hi`) and
//! in the PTX, and PTX instructions. Prints a table, writes `target/bench/gpu.json` and each
//! kernel's LLVM IR and PTX by both routes (`target/bench/gpu/KERNEL.{ours,upstream}.{ll,ptx}`), and exits
//! with 1 unless every kernel has fewer divisions and remainders than upstream and none of 64
//! bits (every benchmark's index values fit in 32 bits).

use std::{collections::BTreeMap, fs, path::Path, time::Instant};

use xla_indexing_hlo::{gpu::Device, gpu::plan_module, parse_module};
use xla_indexing_mlir::codegen::{
    CodegenOptions, kernels_text,
    pipeline::{CompileOptions, Emit, IndexLowering, compile_kernels},
};

/// Counts in one compiled kernel.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    ir_divrem: usize,
    ir_divrem_64: usize,
    ptx_divrem: usize,
    ptx_divrem_64: usize,
    ptx_mulhi: usize,
    ptx_instructions: usize,
    millis: f64,
}

fn ir_counts(ir: &str, c: &mut Counts) {
    for line in ir.lines() {
        let Some((_, rhs)) = line.split_once(" = ") else {
            continue;
        };
        let mut words = rhs.split_whitespace();
        let op = words.next().unwrap_or("");
        if !matches!(op, "udiv" | "sdiv" | "urem" | "srem") {
            continue;
        }
        let ty = words.find(|w| w.starts_with('i')).unwrap_or("");
        c.ir_divrem += 1;
        if ty == "i64" {
            c.ir_divrem_64 += 1;
        }
    }
}

fn ptx_counts(ptx: &str, c: &mut Counts) {
    for line in ptx.lines() {
        let t = line.trim_start();
        if !line.starts_with('\t')
            || t.is_empty()
            || t.starts_with(['.', '/', '$', '{', '}', ')', '('])
        {
            continue;
        }
        let mnemonic = t.split_whitespace().next().unwrap_or("");
        let mnemonic = mnemonic.trim_start_matches(['@', '!']);
        if mnemonic.is_empty() || mnemonic.starts_with('%') {
            continue;
        }
        c.ptx_instructions += 1;
        let parts: Vec<&str> = mnemonic.split('.').collect();
        let integer = |p: &&str| ["s16", "u16", "s32", "u32", "s64", "u64"].contains(p);
        if matches!(parts[0], "div" | "rem") && parts.iter().any(integer) {
            c.ptx_divrem += 1;
            if parts.iter().any(|p| *p == "s64" || *p == "u64") {
                c.ptx_divrem_64 += 1;
            }
        }
        if parts[0] == "mul" && parts.get(1) == Some(&"hi") {
            c.ptx_mulhi += 1;
        }
    }
}

/// Compiles `text` with `lowering`, counts, and writes the LLVM IR and PTX as `out.ll` and
/// `out.ptx`.
fn measure(text: &str, lowering: IndexLowering, out: &Path) -> Result<Counts, String> {
    let options = CompileOptions {
        codegen: CodegenOptions {
            device: Device::default(),
            fusion: None,
            simplify: true,
        },
        chip: "sm_90".into(),
        emit: Emit::Ptx,
        libdevice: std::env::var_os("XLA_INDEXING_LIBDEVICE").map(Into::into),
    };
    let start = Instant::now();
    let path = out;
    let out = compile_kernels(text, &options, lowering).map_err(|e| e.to_string())?;
    let mut c = Counts {
        millis: start.elapsed().as_secs_f64() * 1e3,
        ..Counts::default()
    };
    let (llvm, ptx) = (out.llvm.unwrap_or_default(), out.ptx.unwrap_or_default());
    ir_counts(&llvm, &mut c);
    ptx_counts(&ptx, &mut c);
    let _ = fs::write(path.with_extension("ll"), llvm);
    let _ = fs::write(path.with_extension("ptx"), ptx);
    Ok(c)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<_> = fs::read_dir(root.join("bench/gpu"))
        .expect("bench/gpu exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .collect();
    files.sort();
    println!(
        "{:<28} {:>15} {:>15} {:>13} {:>13} {:>17} {:>15}",
        "kernel",
        "IR div/rem",
        "  (64-bit)",
        "PTX div/rem",
        "PTX mul.hi",
        "PTX instructions",
        "compile ms"
    );
    println!(
        "{:<28} {:>15} {:>15} {:>13} {:>13} {:>17} {:>15}",
        "",
        "ours/upstream",
        "ours/upstream",
        "ours/upstr.",
        "ours/upstr.",
        "ours/upstream",
        "ours/upstream"
    );
    let artifacts = root.join("target/bench/gpu");
    let _ = fs::create_dir_all(&artifacts);
    let mut failures = Vec::new();
    let mut json = BTreeMap::new();
    let (mut total_ours, mut total_up) = (Counts::default(), Counts::default());
    for file in files {
        let text = fs::read_to_string(&file).expect("readable benchmark");
        let module = parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let plans = plan_module(&module, &Device::default()).expect("plannable benchmark");
        for plan in plans {
            let options = CodegenOptions {
                device: Device::default(),
                fusion: Some(plan.kernel.name.clone()),
                simplify: true,
            };
            let kernel = |simplify| {
                let options = CodegenOptions {
                    simplify,
                    ..options.clone()
                };
                kernels_text(&module, &options).expect("the benchmark kernels lower")
            };
            let at = |route: &str| artifacts.join(format!("{}.{route}.x", plan.kernel.name));
            let ours = measure(&kernel(true), IndexLowering::OURS, &at("ours"));
            let up = measure(&kernel(false), IndexLowering::UPSTREAM, &at("upstream"));
            let (ours, up) = match (ours, up) {
                (Ok(o), Ok(u)) => (o, u),
                (o, u) => {
                    failures.push(format!(
                        "{}: ours {:?}, upstream {:?}",
                        plan.kernel.name,
                        o.err(),
                        u.err()
                    ));
                    continue;
                }
            };
            let name = plan.kernel.name.clone();
            println!(
                "{:<28} {:>15} {:>15} {:>13} {:>13} {:>17} {:>15}",
                name,
                format!("{}/{}", ours.ir_divrem, up.ir_divrem),
                format!("{}/{}", ours.ir_divrem_64, up.ir_divrem_64),
                format!("{}/{}", ours.ptx_divrem, up.ptx_divrem),
                format!("{}/{}", ours.ptx_mulhi, up.ptx_mulhi),
                format!(
                    "{}/{} ({:.2}x)",
                    ours.ptx_instructions,
                    up.ptx_instructions,
                    ours.ptx_instructions as f64 / up.ptx_instructions.max(1) as f64
                ),
                format!("{:.0}/{:.0}", ours.millis, up.millis),
            );
            if ours.ir_divrem >= up.ir_divrem {
                failures.push(format!(
                    "{name}: {} divisions and remainders, upstream {}",
                    ours.ir_divrem, up.ir_divrem
                ));
            }
            if ours.ir_divrem_64 > 0 || ours.ptx_divrem_64 > 0 {
                failures.push(format!("{name}: 64-bit divisions or remainders"));
            }
            for (total, c) in [(&mut total_ours, &ours), (&mut total_up, &up)] {
                total.ir_divrem += c.ir_divrem;
                total.ir_divrem_64 += c.ir_divrem_64;
                total.ptx_divrem += c.ptx_divrem;
                total.ptx_mulhi += c.ptx_mulhi;
                total.ptx_instructions += c.ptx_instructions;
                total.millis += c.millis;
            }
            json.insert(
                name,
                serde_json::json!({
                    "ours": counts_json(&ours),
                    "upstream": counts_json(&up),
                }),
            );
        }
    }
    println!(
        "{:<28} {:>15} {:>15} {:>13} {:>13} {:>17} {:>15}",
        "total",
        format!("{}/{}", total_ours.ir_divrem, total_up.ir_divrem),
        format!("{}/{}", total_ours.ir_divrem_64, total_up.ir_divrem_64),
        format!("{}/{}", total_ours.ptx_divrem, total_up.ptx_divrem),
        format!("{}/{}", total_ours.ptx_mulhi, total_up.ptx_mulhi),
        format!(
            "{}/{} ({:.2}x)",
            total_ours.ptx_instructions,
            total_up.ptx_instructions,
            total_ours.ptx_instructions as f64 / total_up.ptx_instructions.max(1) as f64
        ),
        format!("{:.0}/{:.0}", total_ours.millis, total_up.millis),
    );
    let out = root.join("target/bench");
    let _ = fs::create_dir_all(&out);
    let _ = fs::write(
        out.join("gpu.json"),
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    );
    if failures.is_empty() {
        println!(
            "acceptance: every kernel has fewer divisions and remainders than upstream, none of 64 bits"
        );
    } else {
        for f in &failures {
            println!("FAIL {f}");
        }
        std::process::exit(1);
    }
}

fn counts_json(c: &Counts) -> serde_json::Value {
    serde_json::json!({
        "ir_divrem": c.ir_divrem,
        "ir_divrem_64": c.ir_divrem_64,
        "ptx_divrem": c.ptx_divrem,
        "ptx_divrem_64": c.ptx_divrem_64,
        "ptx_mulhi": c.ptx_mulhi,
        "ptx_instructions": c.ptx_instructions,
        "compile_ms": c.millis,
    })
}
