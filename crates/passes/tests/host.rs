//! `compile --emit host`: in the host function of several modules, every kernel is launched
//! exactly once with the plan's grid and block, and in an order where each buffer a launch reads
//! was written before (an entry parameter, or the output of an earlier launch or copy, seen
//! through bitcast views); every out-parameter is written by the end. An entry instruction the
//! host does not handle is an error located at it.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use xla_indexing_codegen::{CodegenOptions, unique_symbol};
use xla_indexing_core::names::UniqueNames;
use xla_indexing_gpu::{Device, plan_module};
use xla_indexing_hlo::{HloError, Module, parse_module};
use xla_indexing_passes::compile::{CompileError, CompileOptions, Emit, compile};

/// Entry computations that are parameters, fusions, tuples, get-tuple-element and bitcasts, and
/// a root that returns a parameter and one buffer twice (both copied into out-parameters).
const COPIES: &str = r#"
HloModule copies

%fused_negate (p0: f32[4,8]) -> f32[4,8] {
  %p0 = f32[4,8]{1,0} parameter(0)
  ROOT %n = f32[4,8]{1,0} negate(%p0)
}

%fused_add (p0: f32[32], p1: f32[32]) -> f32[32] {
  %p0 = f32[32]{0} parameter(0)
  %p1 = f32[32]{0} parameter(1)
  ROOT %a = f32[32]{0} add(%p0, %p1)
}

ENTRY %main (x: f32[4,8], y: f32[32]) -> (f32[32], f32[32], f32[32], f32[8,4]) {
  %x = f32[4,8]{1,0} parameter(0)
  %y = f32[32]{0} parameter(1)
  %negated = f32[4,8]{1,0} fusion(%x), kind=kLoop, calls=%fused_negate
  %flat = f32[32]{0} bitcast(%negated)
  %sum = f32[32]{0} fusion(%flat, %y), kind=kLoop, calls=%fused_add
  %back = f32[8,4]{1,0} bitcast(%sum)
  ROOT %out = (f32[32]{0}, f32[32]{0}, f32[32]{0}, f32[8,4]{1,0}) tuple(%sum, %sum, %y, %back)
}
"#;

fn options() -> CompileOptions {
    CompileOptions {
        codegen: CodegenOptions::default(),
        chip: "sm_90".into(),
        emit: Emit::Host,
        libdevice: None,
    }
}

fn host(module: &Module) -> Result<String, CompileError> {
    compile(module, &options(), &mut |_, _| {})
}

/// The SSA names of `%a : t, %b : t` or `%a: t, %b: t` (types hold no `%`).
fn names(list: &str) -> Vec<String> {
    list.split('%')
        .skip(1)
        .map(|s| {
            let end = s.find([':', ' ', ',', ')']).unwrap_or(s.len());
            format!("%{}", &s[..end])
        })
        .collect()
}

/// The text between `open` and the last `)` of `line`.
fn inside<'l>(line: &'l str, open: &str) -> &'l str {
    let start = line.find(open).expect("the list opens") + open.len();
    &line[start..line.rfind(')').expect("the list closes")]
}

/// Checks the host function of `module` against its kernel plans.
fn check_launches(name: &str, module: &Module) {
    let text = host(module).unwrap_or_else(|e| panic!("{name}: {e}"));
    let plans = plan_module(module, &Device::default()).expect("plans");
    let mut used = UniqueNames::default();
    let kernels: HashMap<String, usize> = plans
        .iter()
        .enumerate()
        .map(|(k, p)| (unique_symbol(&p.kernel.name, &mut used), k))
        .collect();
    let entry = &module.computations[module.entry];
    let inputs: usize = (0..entry.num_parameters())
        .map(|n| {
            entry.instructions[entry.parameter(n).expect("parameter")]
                .shape
                .leaf_count()
        })
        .sum();

    let func = text
        .lines()
        .find(|l| l.trim_start().starts_with("func.func @"))
        .unwrap_or_else(|| panic!("{name}: no host function in\n{text}"));
    let args = names(inside(func, "("));
    assert_eq!(
        args.len(),
        inputs + entry.instructions[entry.root].shape.leaf_count(),
        "{name}: {func}"
    );
    let mut written: HashSet<String> = args[..inputs].iter().cloned().collect();
    let mut alias: HashMap<String, String> = HashMap::new();
    let mut constants: HashMap<String, u64> = HashMap::new();
    let mut launched = vec![0usize; plans.len()];
    let body = text.split(func).nth(1).expect("the function's body");
    for line in body.lines().map(str::trim) {
        let resolve = |v: &str, alias: &HashMap<String, String>| {
            let mut v = v.to_string();
            while let Some(a) = alias.get(&v) {
                v = a.clone();
            }
            v
        };
        if let Some((result, rest)) = line.split_once(" = ") {
            if let Some(n) = rest.strip_prefix("arith.constant ") {
                let n = n.trim_end_matches(" : index").parse().expect("an index");
                constants.insert(result.to_string(), n);
            } else if rest.starts_with("memref.reinterpret_cast ") {
                alias.insert(result.to_string(), names(rest)[0].clone());
            }
        } else if line.starts_with("gpu.memcpy ") {
            let v = names(line);
            let source = resolve(&v[1], &alias);
            assert!(
                written.contains(&source),
                "{name}: {line} copies an unwritten buffer"
            );
            written.insert(resolve(&v[0], &alias));
        } else if let Some(rest) = line.strip_prefix("gpu.launch_func") {
            let symbol = rest.trim().strip_prefix("@kernels::@").expect("a kernel");
            let symbol = &symbol[..symbol.find(' ').expect("the launch goes on")];
            let k = kernels[symbol];
            launched[k] += 1;
            let plan = &plans[k];
            let dims = |open: &str| -> Vec<u64> {
                names(
                    inside(&line[..line.find(" args(").expect("args")], open)
                        .split(')')
                        .next()
                        .unwrap(),
                )
                .iter()
                .map(|c| constants[c])
                .collect()
            };
            assert_eq!(dims("blocks in ("), plan.launch.blocks, "{name}: {line}");
            assert_eq!(dims("threads in ("), plan.launch.threads, "{name}: {line}");
            let operands = names(inside(line, " args("));
            let outputs = plan.kernel.outputs.len();
            let (reads, writes) = operands.split_at(operands.len() - outputs);
            for r in reads {
                assert!(
                    written.contains(&resolve(r, &alias)),
                    "{name}: {symbol} reads {r} before it is written"
                );
            }
            written.extend(writes.iter().map(|w| resolve(w, &alias)));
        }
    }
    assert!(
        launched.iter().all(|&n| n == 1),
        "{name}: launches per kernel {launched:?}\n{text}"
    );
    for out in &args[inputs..] {
        assert!(
            written.contains(out),
            "{name}: {out} is never written\n{text}"
        );
    }
}

fn read(path: &str) -> Module {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    parse_module(&std::fs::read_to_string(&file).expect("the module is there")).expect("parses")
}

#[test]
fn every_kernel_is_launched_once_after_what_it_reads() {
    for path in [
        "test/cli/Inputs/host_chain.hlo",
        "examples/hlo/row_column_sums.hlo",
        "examples/hlo/transpose_exp_add.hlo",
        "examples/hlo/layouts_add.hlo",
        "examples/hlo/unrolled_f16.hlo",
        // Dynamic arrays: their buffers are their bytes on both sides of the launch.
        "crates/passes/tests/data/codegen/pad_to_static.hlo",
    ] {
        check_launches(path, &read(path));
    }
    check_launches("copies", &parse_module(COPIES).expect("parses"));
}

#[test]
fn a_module_without_fusions_launches_its_entry_kernel() {
    let module = parse_module(
        "HloModule plain\n\nENTRY %main (a: f32[64], b: f32[64]) -> f32[64] {\n  \
         %a = f32[64]{0} parameter(0)\n  %b = f32[64]{0} parameter(1)\n  \
         ROOT %s = f32[64]{0} add(%a, %b)\n}\n",
    )
    .expect("parses");
    check_launches("plain", &module);
}

#[test]
fn an_entry_op_that_is_not_a_fusion_is_a_located_error() {
    let text = COPIES.replace(
        "  %back = f32[8,4]{1,0} bitcast(%sum)",
        "  %back = f32[8,4]{1,0} transpose(%negated), dimensions={1,0}",
    );
    let module = parse_module(&text).expect("parses");
    let (line, _) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("transpose("))
        .expect("the transpose");
    match host(&module) {
        Err(CompileError::Hlo(HloError::Analysis {
            instruction,
            line: at,
            column,
            message,
        })) => {
            assert_eq!((instruction.as_str(), at, column), ("back", line + 1, 3));
            assert!(message.contains("`transpose`"), "{message}");
        }
        other => panic!("expected a located error, got {other:?}"),
    }
}

#[test]
fn fusion_and_host_do_not_go_together() {
    let mut options = options();
    options.codegen.fusion = Some("sum".into());
    let module = parse_module(COPIES).expect("parses");
    assert!(matches!(
        compile(&module, &options, &mut |_, _| {}),
        Err(CompileError::Hlo(HloError::Usage(_)))
    ));
}
