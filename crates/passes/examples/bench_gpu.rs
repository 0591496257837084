//! `cargo xtask bench gpu`: the kernels of `bench/gpu/*.hlo` through this project's index
//! lowering and through upstream MLIR's best alone (`IndexLowering::UPSTREAM`: affine maps
//! composed and simplified by `canonicalize` before `lower-affine`, the integer-range passes
//! after, buffers addressed linearly as ours), on the same generated kernels (for upstream,
//! with the composed maps written as composed, unsimplified) and the same NVPTX pipeline.
//!
//! The table leads with what the GPU executes, from the PTX: instructions, integer divisions
//! and remainders, `mul.hi` (what LLVM makes of a division by a constant), global loads and
//! stores and how many of them are vectors; then the integer divisions and remainders in the
//! LLVM IR before LLVM's optimizer. It writes `target/bench/gpu.json` and each kernel's LLVM IR
//! and PTX by both routes (`target/bench/gpu/KERNEL.{ours,upstream}.{ll,ptx}`), and exits with 1
//! unless no kernel has more divisions and remainders (in the LLVM IR, and in the PTX with
//! `mul.hi`) than upstream, none of 64 bits (every benchmark's index values fit in 32 bits),
//! and the totals of divisions and remainders and of PTX instructions are smaller than
//! upstream's. A kernel with more PTX instructions than upstream is noted.
//!
//! A second table compares, for every kernel that the plan vectorizes, our route with and
//! without vector accesses (`CodegenOptions::vectorize`) in the same run: PTX instructions and
//! the `ld.global` instructions with the bytes each reads (a `v4.b32` reads 16); the kernels
//! without them are written as `KERNEL.scalar.{ll,ptx}`.

use std::{collections::BTreeMap, fs, path::Path, time::Instant};

use xla_indexing_codegen::{CodegenOptions, kernels_text};
use xla_indexing_gpu::{Device, plan_module};
use xla_indexing_hlo::parse_module;
use xla_indexing_passes::compile::{CompileOptions, Emit, IndexLowering, compile_kernels};

/// Counts in one compiled kernel.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    ir_divrem: usize,
    ir_divrem_64: usize,
    ptx_divrem: usize,
    ptx_divrem_64: usize,
    ptx_mulhi: usize,
    ptx_instructions: usize,
    /// `ld.global` and `st.global`, scalar or vector.
    ptx_global: usize,
    /// The vector ones among them (`.v2`, `.v4`).
    ptx_global_vector: usize,
    /// `ld.global` alone, scalar or vector.
    ptx_loads: usize,
    /// The bytes those loads read, each counted once (`ld.global.v4.b32`: 16).
    ptx_load_bytes: usize,
    millis: f64,
}

impl Counts {
    fn add(&mut self, c: &Counts) {
        self.ir_divrem += c.ir_divrem;
        self.ir_divrem_64 += c.ir_divrem_64;
        self.ptx_divrem += c.ptx_divrem;
        self.ptx_divrem_64 += c.ptx_divrem_64;
        self.ptx_mulhi += c.ptx_mulhi;
        self.ptx_instructions += c.ptx_instructions;
        self.ptx_global += c.ptx_global;
        self.ptx_global_vector += c.ptx_global_vector;
        self.ptx_loads += c.ptx_loads;
        self.ptx_load_bytes += c.ptx_load_bytes;
        self.millis += c.millis;
    }
}

/// The table's header: each column is `ours/upstream`.
const COLUMNS: [&str; 7] = [
    "PTX instructions",
    "PTX div/rem",
    "PTX mul.hi",
    "global ld/st (vector)",
    "IR div/rem",
    "(64-bit)",
    "compile ms",
];

/// One row of the table.
fn row(name: &str, ours: &Counts, up: &Counts) {
    let pair = |a: usize, b: usize| format!("{a}/{b}");
    println!(
        "{:<28} {:>20} {:>12} {:>11} {:>22} {:>11} {:>9} {:>13}",
        name,
        format!(
            "{} ({:.2}x)",
            pair(ours.ptx_instructions, up.ptx_instructions),
            ours.ptx_instructions as f64 / up.ptx_instructions.max(1) as f64
        ),
        pair(ours.ptx_divrem, up.ptx_divrem),
        pair(ours.ptx_mulhi, up.ptx_mulhi),
        format!(
            "{} ({}/{})",
            pair(ours.ptx_global, up.ptx_global),
            ours.ptx_global_vector,
            up.ptx_global_vector
        ),
        pair(ours.ir_divrem, up.ir_divrem),
        pair(ours.ir_divrem_64, up.ir_divrem_64),
        format!("{:.0}/{:.0}", ours.millis, up.millis),
    );
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
        if matches!(parts[0], "ld" | "st") && parts.get(1) == Some(&"global") {
            c.ptx_global += 1;
            if parts.iter().any(|p| matches!(*p, "v2" | "v4" | "v8")) {
                c.ptx_global_vector += 1;
            }
            if parts[0] == "ld" {
                c.ptx_loads += 1;
                c.ptx_load_bytes += access_bytes(&parts);
            }
        }
    }
}

/// The bytes one `ld`/`st` reads or writes, from its mnemonic's parts (`["ld", "global", "v4",
/// "b32"]`: 16): the lanes of `.v2`/`.v4`/`.v8` times the width of the type suffix.
fn access_bytes(parts: &[&str]) -> usize {
    let lanes = parts
        .iter()
        .find_map(|p| p.strip_prefix('v').and_then(|n| n.parse::<usize>().ok()))
        .unwrap_or(1);
    let bits = parts
        .iter()
        .rev()
        .find_map(|p| {
            p.strip_prefix(['b', 'f', 's', 'u'])
                .and_then(|n| n.parse::<usize>().ok())
        })
        .unwrap_or(0);
    lanes * bits / 8
}

/// A row of the vector-access table: our route without and with vector accesses.
fn vector_row(name: &str, scalar: &Counts, vector: &Counts) {
    let loads = |c: &Counts| {
        format!(
            "{} ({:.1} B each)",
            c.ptx_loads,
            c.ptx_load_bytes as f64 / c.ptx_loads.max(1) as f64
        )
    };
    println!(
        "{:<28} {:>22} {:>20} {:>20} {:>18}",
        name,
        format!("{}/{}", scalar.ptx_instructions, vector.ptx_instructions),
        loads(scalar),
        loads(vector),
        format!("{}/{}", scalar.ptx_global_vector, vector.ptx_global_vector),
    );
}

/// Compiles `text` with `lowering`, counts, and writes the LLVM IR and PTX as `out.ll` and
/// `out.ptx`.
fn measure(text: &str, lowering: IndexLowering, out: &Path) -> Result<Counts, String> {
    let options = CompileOptions {
        codegen: CodegenOptions::default(),
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
        "{:<28} {:>20} {:>12} {:>11} {:>22} {:>11} {:>9} {:>13}",
        "kernel (ours/upstream)",
        COLUMNS[0],
        COLUMNS[1],
        COLUMNS[2],
        COLUMNS[3],
        COLUMNS[4],
        COLUMNS[5],
        COLUMNS[6]
    );
    let artifacts = root.join("target/bench/gpu");
    let _ = fs::create_dir_all(&artifacts);
    let (mut failures, mut notes) = (Vec::new(), Vec::new());
    let mut json = BTreeMap::new();
    let (mut total_ours, mut total_up) = (Counts::default(), Counts::default());
    let mut vectors = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("readable benchmark");
        let module = parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let plans = plan_module(&module, &Device::default()).expect("plannable benchmark");
        for plan in plans {
            let options = CodegenOptions {
                device: Device::default(),
                fusion: Some(plan.kernel.name.clone()),
                simplify: true,
                vectorize: true,
                tiling: None,
            };
            let kernel = |simplify, vectorize| {
                let options = CodegenOptions {
                    simplify,
                    vectorize,
                    ..options.clone()
                };
                kernels_text(&module, &options).expect("the benchmark kernels lower")
            };
            let at = |route: &str| artifacts.join(format!("{}.{route}.x", plan.kernel.name));
            let ours = measure(&kernel(true, true), IndexLowering::OURS, &at("ours"));
            let up = measure(
                &kernel(false, true),
                IndexLowering::UPSTREAM,
                &at("upstream"),
            );
            if plan.vectorized() {
                let scalar = measure(&kernel(true, false), IndexLowering::OURS, &at("scalar"));
                match (&ours, scalar) {
                    (Ok(o), Ok(s)) => vectors.push((plan.kernel.name.clone(), s, *o)),
                    (_, Err(e)) => failures.push(format!("{}: scalar {e}", plan.kernel.name)),
                    _ => {}
                }
            }
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
            row(&name, &ours, &up);
            if ours.ptx_instructions > up.ptx_instructions {
                notes.push(format!(
                    "{name}: {} PTX instructions, upstream {}",
                    ours.ptx_instructions, up.ptx_instructions
                ));
            }
            if ours.ir_divrem > up.ir_divrem
                || ours.ptx_divrem + ours.ptx_mulhi > up.ptx_divrem + up.ptx_mulhi
            {
                failures.push(format!(
                    "{name}: {} divisions and remainders in the IR and {} in the PTX (with mul.hi), upstream {} and {}",
                    ours.ir_divrem,
                    ours.ptx_divrem + ours.ptx_mulhi,
                    up.ir_divrem,
                    up.ptx_divrem + up.ptx_mulhi
                ));
            }
            if ours.ir_divrem_64 > 0 || ours.ptx_divrem_64 > 0 {
                failures.push(format!("{name}: 64-bit divisions or remainders"));
            }
            total_ours.add(&ours);
            total_up.add(&up);
            json.insert(
                name,
                serde_json::json!({
                    "ours": counts_json(&ours),
                    "upstream": counts_json(&up),
                }),
            );
        }
    }
    row("total", &total_ours, &total_up);
    if total_ours.ir_divrem >= total_up.ir_divrem
        || total_ours.ptx_instructions >= total_up.ptx_instructions
    {
        failures.push("in total, not fewer divisions and remainders and PTX instructions".into());
    }
    for note in &notes {
        println!("note {note}");
    }
    println!(
        "\n{:<28} {:>22} {:>20} {:>20} {:>18}",
        "vector accesses (ours)",
        "PTX instr. (sc./vec.)",
        "ld.global, scalar",
        "ld.global, vector",
        "v2/v4 (sc./vec.)"
    );
    let (mut total_scalar, mut total_vector) = (Counts::default(), Counts::default());
    for (name, scalar, vector) in &vectors {
        vector_row(name, scalar, vector);
        total_scalar.add(scalar);
        total_vector.add(vector);
        if let Some(entry) = json.get_mut(name) {
            entry["scalar"] = counts_json(scalar);
        }
    }
    vector_row("total", &total_scalar, &total_vector);
    let out = root.join("target/bench");
    let _ = fs::create_dir_all(&out);
    let _ = fs::write(
        out.join("gpu.json"),
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    );
    if failures.is_empty() {
        println!(
            "acceptance: no kernel has more divisions and remainders than upstream, none of 64 bits; fewer divisions and remainders and PTX instructions in total"
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
        "ptx_global": c.ptx_global,
        "ptx_global_vector": c.ptx_global_vector,
        "ptx_loads": c.ptx_loads,
        "ptx_load_bytes": c.ptx_load_bytes,
        "compile_ms": c.millis,
    })
}
