//! One module per subcommand.

pub mod simplify;
