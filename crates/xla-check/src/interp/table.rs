//! The op table: the handler of each op the interpreter runs, by name, gathered from the
//! dialects' modules; and, for the dialects whose remaining ops compute one value from their
//! operands, the handler of those.

use std::{collections::HashMap, sync::LazyLock};

use super::{
    Effect, Env, Interp, Result, RunError, arith, cf, compute, func, llvm, scf, stablehlo, tensor,
    xla,
};
use crate::ir::Op;

/// Runs one op: the values of its results, or where control goes.
pub type Handler = fn(&mut Interp<'_>, &Op, &mut Env) -> Result<Effect>;

/// Every dialect's ops with handlers of their own.
const DIALECT_OPS: [&[(&str, Handler)]; 8] = [
    func::OPS,
    cf::OPS,
    scf::OPS,
    arith::OPS,
    llvm::OPS,
    tensor::OPS,
    xla::OPS,
    stablehlo::OPS,
];

/// The handler of the ops of a dialect that have none of their own.
const DIALECTS: &[(&str, Handler)] = &[
    ("arith", compute::op),
    ("math", compute::op),
    ("llvm", llvm::other),
    ("stablehlo", stablehlo::elementwise),
];

/// The table, built on first use.
static TABLE: LazyLock<Table> = LazyLock::new(Table::new);

/// Handlers by op name and by dialect.
struct Table {
    ops: HashMap<&'static str, Handler>,
    dialects: HashMap<&'static str, Handler>,
}

impl Table {
    fn new() -> Table {
        Table {
            ops: DIALECT_OPS
                .iter()
                .flat_map(|ops| ops.iter().copied())
                .collect(),
            dialects: DIALECTS.iter().copied().collect(),
        }
    }
}

/// The handler of the op `name`: its own, else its dialect's; an op of neither is
/// [`RunError::UnknownOp`].
pub fn handler(name: &str) -> Result<Handler> {
    let dialect = name.split_once('.').map_or("", |(dialect, _)| dialect);
    TABLE
        .ops
        .get(name)
        .or_else(|| TABLE.dialects.get(dialect))
        .copied()
        .ok_or_else(|| RunError::UnknownOp {
            name: name.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{interp::run, ir::parse};

    #[test]
    fn every_op_has_one_handler() {
        let names: Vec<&str> = DIALECT_OPS
            .iter()
            .flat_map(|ops| ops.iter().map(|(name, _)| *name))
            .collect();
        for name in &names {
            assert_eq!(
                names.iter().filter(|n| *n == name).count(),
                1,
                "{name} is in the table twice"
            );
            assert!(handler(name).is_ok());
        }
    }

    #[test]
    fn ops_without_their_own_handler_take_their_dialects() {
        assert!(handler("math.exp").is_ok());
        assert!(handler("llvm.fadd").is_ok());
        assert!(handler("stablehlo.exponential").is_ok());
        assert!(matches!(
            handler("scf.while"),
            Err(RunError::UnknownOp { name }) if name == "scf.while"
        ));
        assert!(handler("tensor.pad").is_err());
        assert!(handler("nodialect").is_err());
    }

    /// An op no handler runs stops the run with an error that names the op and where it is,
    /// and does not panic; so do ops of a computing dialect that could touch memory or
    /// control (a call, an op with several results).
    #[test]
    fn an_unknown_op_is_an_error_at_its_line() {
        for (op, name) in [
            (
                "%0 = scf.while (%i = %c0) : (index) -> index {\n    }",
                "scf.while",
            ),
            ("%0 = llvm.call @f(%c0) : (index) -> index", "llvm.call"),
            (
                "%0:2 = arith.addui_extended %c0, %c0 : index, i1",
                "arith.addui_extended",
            ),
        ] {
            let text = format!(
                "module {{\n  func.func @f(%arg0: !llvm.ptr) attributes {{xla.entry}} {{\n    %c0 = arith.constant 0 : index\n    {op}\n    return\n  }}\n}}"
            );
            let Err(error) = run(&parse(&text).unwrap(), &[], 0) else {
                panic!("{name} ran");
            };
            assert!(
                matches!(error.root(), RunError::UnknownOp { name: n } if n == name),
                "{error}"
            );
            let message = error.to_string();
            assert!(
                message.starts_with("in @f: line 4: `")
                    && message.ends_with(&format!("`: the op {name} is not interpreted")),
                "{message}"
            );
        }
    }
}
