//! Typed builders and accessors for the dialect's ops, generated from
//! `dialect/include/XlaIndexing/XlaIndexing.td` by `melior::dialect!`.

melior::dialect! {
    name: "xla_indexing",
    files: ["XlaIndexing/XlaIndexing.td"],
    include_directory_env_vars: ["XLA_INDEXING_DIALECT_INCLUDE_DIR"],
}
