//! Deep inputs: a kernel whose fusions nest thousands of levels deep is planned with the
//! analysis's own stack, not the thread's (a test thread has 2 MiB), and reads its operand
//! through the right map.

#[path = "../../hlo/tests/deep_inputs/mod.rs"]
mod deep_inputs;

use deep_inputs::nest;
use xla_indexing_gpu::{Device, plan_module};
use xla_indexing_hlo::parse_module;

/// How deep the nest goes.
const DEPTH: usize = 5000;

/// The identity on the `f32[4]` every computation of the nest reads and writes.
const IDENTITY: &str = "(d0) -> (d0), domain: d0 in [0, 3]";

#[test]
fn fusion_nest_plans_its_kernel() {
    let module = parse_module(&nest("fusion", DEPTH)).unwrap_or_else(|e| panic!("{e}"));
    let plans = plan_module(&module, &Device::default()).expect("plan");
    let [plan] = plans.as_slice() else {
        panic!("{} kernels", plans.len());
    };
    let [output] = plan.outputs.as_slice() else {
        panic!("{} outputs", plan.outputs.len());
    };
    let [operand] = output.operands.as_slice() else {
        panic!("{} operands", output.operands.len());
    };
    let maps: Vec<String> = operand
        .output_maps
        .iter()
        .map(|a| a.map.to_string())
        .collect();
    assert_eq!(maps, [IDENTITY]);
}
