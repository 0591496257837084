//! Deep inputs through the import and the code generator: nests of thousands of fusions or
//! calls, and fused computations of thousands of ops in a chain, are written without recursion
//! on the thread's stack (a test thread has 2 MiB) and give the right text; past the depths
//! MLIR can read or the code generator's stack holds, a warning or an error names the
//! instruction and its line.

#[path = "../../hlo/tests/deep_inputs/mod.rs"]
mod deep_inputs;

use std::thread;

use deep_inputs::{chain, nest, nest_root_line};
use xla_indexing_codegen::{CodegenOptions, kernels_text};
use xla_indexing_gpu::Device;
use xla_indexing_hlo::{HloError, Module, parse_module};
use xla_indexing_passes::opt::{OptOptions, check_parses, run_pipeline};
use xla_indexing_translate::import::import_module;

/// How deep the nests go, and how long the chains are.
const DEPTH: usize = 5000;

fn parse(text: &str) -> Module {
    parse_module(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether MLIR reads `text` (with unregistered dialects). MLIR's parser recurses into every
/// region, so it runs on a thread with the stack `mlir-opt` has.
fn parses(text: &str) -> bool {
    thread::scope(|scope| {
        thread::Builder::new()
            .stack_size(8 << 20)
            .spawn_scoped(scope, || {
                let options = OptOptions {
                    allow_unregistered_dialect: true,
                };
                check_parses(text, options).is_ok()
            })
            .expect("a thread")
            .join()
            .expect("no panic")
    })
}

/// The kernels of the module `text`, with the maps simplified or as composed.
fn kernel(text: &str, simplify: bool) -> Result<String, HloError> {
    let options = CodegenOptions {
        device: Device::default(),
        fusion: None,
        simplify,
        vectorize: true,
        tiling: None,
    };
    kernels_text(&parse(text), &options)
}

/// The operands of the ops named `op` in `text`, with their results: `(result, operands)`.
fn ops<'t>(text: &'t str, op: &str) -> Vec<(&'t str, &'t str)> {
    text.lines()
        .filter_map(|line| {
            let (result, rest) = line.trim().split_once(" = ")?;
            Some((result, rest.strip_prefix(op)?.strip_prefix(' ')?))
        })
        .collect()
}

#[test]
fn import_of_a_call_nest_writes_every_function() {
    let imported =
        import_module(&parse(&nest("call", DEPTH)), "nest.hlo").expect("the module is consistent");
    assert_eq!(imported.warnings, []);
    let functions: Vec<&str> = imported
        .text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("func.func @"))
        .map(|l| &l[..l.find('(').unwrap_or(l.len())])
        .collect();
    let expected: Vec<String> = ["main".to_string()]
        .into_iter()
        .chain((0..DEPTH).map(|k| format!("c{k}")))
        .collect();
    assert_eq!(functions, expected);
    assert!(parses(&imported.text));
}

#[test]
fn import_of_a_fusion_nest_writes_2000_nested_regions() {
    // The entry's body holds `c0`'s fusion, which holds `c1`'s, ...: the body of `c1998`
    // is the 2000th region, and its fusion of `c1999` is written generically.
    let imported = import_module(&parse(&nest("fusion", DEPTH)), "nest.hlo")
        .expect("the module is consistent");
    let [warning] = imported.warnings.as_slice() else {
        panic!("{:?}", imported.warnings);
    };
    assert_eq!((warning.line, warning.column), (nest_root_line(1998), 3));
    assert_eq!(
        warning.message,
        "fusion 'r' is written generically: its region would be nested more than 2000 regions deep (MLIR's parser recurses into each)"
    );
    assert_eq!(imported.text.matches("xla_indexing.fusion (").count(), 1999);
    assert_eq!(imported.text.matches("\"stablehlo.fusion\"").count(), 1);
    // The indentation stops growing: the text stays linear in the depth.
    assert!(imported.text.len() < 1000 * 1999, "{}", imported.text.len());
    assert!(parses(&imported.text));
}

#[test]
fn import_of_a_shallower_fusion_nest_is_whole() {
    let imported =
        import_module(&parse(&nest("fusion", 1500)), "nest.hlo").expect("the module is consistent");
    assert_eq!(imported.warnings, []);
    assert_eq!(imported.text.matches("xla_indexing.fusion (").count(), 1500);
    assert_eq!(imported.text.matches("\"stablehlo.negate\"").count(), 1);
    assert!(parses(&imported.text));
}

#[test]
fn kernel_of_a_long_chain_negates_the_load_each_time() {
    let long = kernel(&chain(DEPTH), true).expect("the chain lowers");
    let short = kernel(&chain(1), true).expect("the chain lowers");
    // The parameter is read at the same index: the chain's composed map is the identity.
    let index = |text: &str| -> Vec<String> {
        let lines = text
            .lines()
            .filter(|l| l.contains("xla_indexing.apply_indexing"));
        lines.map(str::to_string).collect()
    };
    assert_eq!(index(&long), index(&short));
    let [(loaded, _)] = ops(&long, "memref.load")[..] else {
        panic!("{long}");
    };
    // Each negate reads the one before it, the first reads the load, the store the last.
    let negates = ops(&long, "arith.negf");
    assert_eq!(negates.len(), DEPTH);
    let mut last = loaded;
    for (result, operands) in negates {
        assert_eq!(operands, format!("{last} : f32"));
        last = result;
    }
    let stores: Vec<&str> = long
        .lines()
        .filter_map(|l| l.trim().strip_prefix("memref.store "))
        .collect();
    assert_eq!(stores.len(), 1);
    assert!(stores[0].starts_with(&format!("{last}, ")), "{}", stores[0]);
}

#[test]
fn kernel_deeper_than_the_stack_holds_is_an_error_at_the_deepest_instruction() {
    assert_eq!(
        kernel(&chain(20_001), true),
        Err(HloError::Analysis {
            instruction: "n0".into(),
            line: 5,
            column: 3,
            message: "cannot be lowered: its value nests more than 20000 instructions deep".into(),
        })
    );
}

#[test]
fn kernel_nesting_more_regions_than_mlir_reads_is_an_error() {
    // Each pad reads its operand under a condition: an `scf.if` inside the previous one's.
    let mut text = String::from("HloModule pads\n\n%fused (p: f32[1]) -> f32[2002] {\n");
    text.push_str("  %p = f32[1]{0} parameter(0)\n  %z = f32[] constant(0)\n");
    let mut last = "p".to_string();
    for k in 0..2001 {
        let root = if k == 2000 { "ROOT " } else { "" };
        text.push_str(&format!(
            "  {root}%pad{k} = f32[{}]{{0}} pad(%{last}, %z), padding=0_1\n",
            k + 2
        ));
        last = format!("pad{k}");
    }
    text.push_str("}\n\nENTRY %main (x: f32[1]) -> f32[2002] {\n  %x = f32[1]{0} parameter(0)\n");
    text.push_str("  ROOT %f = f32[2002]{0} fusion(%x), kind=kLoop, calls=%fused\n}\n");
    // The thread loop is the first region, and each pad from the root opens the next: `pad1`
    // would open the 2001st. The maps are left as composed (quicker, and the same regions).
    assert_eq!(
        kernel(&text, false),
        Err(HloError::Analysis {
            instruction: "pad1".into(),
            line: 7,
            column: 3,
            message: "cannot be lowered: its regions would be nested more than 2000 deep (MLIR's parser recurses into each)".into(),
        })
    );
}

#[test]
fn lower_fusion_pass_lowers_a_long_chain() {
    // In process, as mlir-opt runs it: the pass writes the kernel on a thread of its own (the
    // test's stack held some 180 levels of the emitter). 2000 ops: the pass's HLO form of the
    // fusion names its instructions in quadratic time.
    let length = 2000;
    let imported =
        import_module(&parse(&chain(length)), "chain.hlo").expect("the module is consistent");
    let options = OptOptions {
        allow_unregistered_dialect: true,
    };
    let pipeline = "builtin.module(xla-indexing-lower-fusion)";
    let lowered = run_pipeline(&imported.text, "chain.mlir", pipeline, options)
        .unwrap_or_else(|e| panic!("{e}: {e:?}"));
    assert_eq!(lowered.text.matches("gpu.func @fused").count(), 1);
    assert_eq!(lowered.text.matches("arith.negf").count(), length);
}
