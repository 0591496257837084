//! `import_module` on every bundled example: the text reads back in MLIR, nothing is left out,
//! and the annotate pass annotates every imported op (none is skipped as unknown or unreadable).

use std::{fs, path::Path};

use melior::{
    ir::{
        Module, OperationRef,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
    pass::PassManager,
};
use xla_indexing_hlo::parse_module;
use xla_indexing_mlir::{
    import::import_module,
    opt::{OptOptions, check_parses, full_context},
    passes::create_annotate_pass,
};

fn examples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hlo");
    let mut out: Vec<(String, String)> = fs::read_dir(&dir)
        .expect("examples/hlo")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .map(|p| {
            (
                p.display().to_string(),
                fs::read_to_string(&p).expect("read"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn examples_import_without_warnings_and_read_back() {
    let options = OptOptions {
        allow_unregistered_dialect: true,
    };
    for (name, text) in examples() {
        let module = parse_module(&text).expect("example parses");
        let imported = import_module(&module);
        assert!(
            imported.warnings.is_empty(),
            "{name}: {:?}",
            imported.warnings
        );
        check_parses(&imported.text, options)
            .unwrap_or_else(|e| panic!("{name}: {e:?}\n{}", imported.text));
    }
}

#[test]
fn every_imported_op_is_annotated() {
    for (name, text) in examples() {
        let imported = import_module(&parse_module(&text).expect("example parses"));
        let context = full_context();
        context.set_allow_unregistered_dialects(true);
        let mut module = Module::parse(&context, &imported.text).expect("imported text parses");
        let manager = PassManager::new(&context);
        manager.add_pass(create_annotate_pass(false));
        manager.run(&mut module).expect("annotate succeeds");
        let (mut missing, mut checked) = (Vec::new(), 0);
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            let op_name = op
                .name()
                .as_string_ref()
                .as_str()
                .unwrap_or_default()
                .to_string();
            // SAFETY: the parent of a live op is live (or null at the top).
            let parent = unsafe {
                OperationRef::from_option_raw(mlir_sys::mlirOperationGetParentOperation(
                    op.to_raw(),
                ))
            };
            let in_region_of_stablehlo = parent.is_some_and(|p| {
                p.name()
                    .as_string_ref()
                    .as_str()
                    .is_ok_and(|n| n.starts_with("stablehlo."))
            });
            if op_name.starts_with("stablehlo.") && !in_region_of_stablehlo {
                checked += 1;
                if op.attribute("xla_indexing.operand_maps").is_err() {
                    missing.push(op_name);
                }
            }
            WalkResult::Advance
        });
        assert!(checked > 0, "{name}: no StableHLO-like op");
        assert!(missing.is_empty(), "{name}: not annotated: {missing:?}");
    }
}
