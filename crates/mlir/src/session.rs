//! A context as `mlir-opt` with the plugin has one, for parsing a file and running pass
//! pipelines on it: every upstream dialect and ours, every upstream pass (ours are registered
//! by `xla-indexing-passes`), the translations to LLVM IR. Diagnostics are collected with their
//! locations resolved to a file, line and column, for the command line to show.

use std::sync::{Arc, Mutex};

use melior::{
    Context, StringRef,
    diagnostic::{Diagnostic, DiagnosticHandlerId, DiagnosticSeverity},
    dialect::DialectRegistry,
    ir::{Location, Module},
    pass::PassManager,
    utility::{parse_pass_pipeline, register_all_dialects, register_all_passes},
};
use mlir_sys::{
    mlirIdentifierStr, mlirLocationCallSiteGetCallee, mlirLocationFileLineColRangeGetFilename,
    mlirLocationFileLineColRangeGetStartColumn, mlirLocationFileLineColRangeGetStartLine,
    mlirLocationFusedGetLocations, mlirLocationFusedGetNumLocations, mlirLocationIsACallSite,
    mlirLocationIsAFileLineColRange, mlirLocationIsAFused, mlirLocationIsAName,
    mlirLocationNameGetChildLoc,
};

use crate::dialect;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// An error: the input or a pass failed.
    Error,
    /// A warning.
    Warning,
    /// A note attached to another diagnostic.
    Note,
    /// A remark (what a pass found, such as a coalescing verdict).
    Remark,
}

impl Severity {
    /// The word MLIR prints (`error`, `warning`, `note`, `remark`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// One diagnostic MLIR reported, with the file position its location resolves to (when it
/// resolves to one; lines and columns are 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// How serious it is.
    pub severity: Severity,
    /// Its text.
    pub message: String,
    /// The file its location names.
    pub file: Option<String>,
    /// The 1-based line there.
    pub line: Option<usize>,
    /// The 1-based column there.
    pub column: Option<usize>,
}

/// Why a pipeline run failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptError {
    /// The input is not valid MLIR (syntax, unknown ops or types, verification).
    #[error("the input does not parse")]
    Parse(Vec<Message>),
    /// The pipeline text is not a valid pass pipeline.
    #[error("invalid pass pipeline: {0}")]
    Pipeline(String),
    /// A pass failed (or left IR that does not verify).
    #[error("the pass pipeline failed")]
    Pass(Vec<Message>),
}

/// What a successful run gives: the printed module and the diagnostics that were not errors
/// (remarks and warnings of the passes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptOutput {
    /// The module after the pipeline, printed.
    pub text: String,
    /// The remarks and warnings of the passes.
    pub messages: Vec<Message>,
}

/// Options of a [`Session`] (and of `xla_indexing_passes::opt::run_pipeline`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OptOptions {
    /// Accept ops of dialects that are not registered (StableHLO's generic form), as
    /// `mlir-opt --allow-unregistered-dialect` does.
    pub allow_unregistered_dialect: bool,
}

/// A context with every upstream dialect and extension and the plugin's dialects (`xla_indexing`,
/// XLA's `xla` and `xtile`), as `mlir-opt` with the plugin has; every upstream pass is registered
/// too (ours are registered by `xla_indexing_passes::register_passes`, globally), and the
/// translations to LLVM IR.
pub fn full_context() -> Context {
    register_all_passes();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialect::register(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    // SAFETY: the context is live; this registers the LLVM IR translations that
    // `gpu-module-to-binary` and `--mlir-to-llvmir` need, as mlir-opt does.
    unsafe { mlir_sys::mlirRegisterAllLLVMTranslations(context.to_raw()) };
    context
}

/// A [`full_context`] that collects its diagnostics, for parsing a file `name` and running
/// pipelines on it one after another.
pub struct Session {
    context: Context,
    name: String,
    messages: Arc<Mutex<Vec<Message>>>,
    handler: Option<DiagnosticHandlerId>,
}

impl Session {
    /// A [`full_context`] collecting
    /// diagnostics; `name` stands for the input in positions without a file.
    pub fn new(name: &str, options: OptOptions) -> Session {
        let context = full_context();
        context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
        let messages: Arc<Mutex<Vec<Message>>> = Arc::default();
        let sink = messages.clone();
        let handler = context.attach_diagnostic_handler(move |diagnostic| {
            collect(&diagnostic, &sink);
            true
        });
        Session {
            context,
            name: name.into(),
            messages,
            handler: Some(handler),
        }
    }

    /// The session's MLIR context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The diagnostics so far (taken), positions without a file given the session's name (the
    /// parser names its buffer `-`).
    pub fn take_messages(&self) -> Vec<Message> {
        let mut all = self.take_raw_messages();
        for message in &mut all {
            if matches!(message.file.as_deref(), None | Some("" | "-")) && message.line.is_some() {
                message.file = Some(self.name.clone());
            }
        }
        all
    }

    /// The diagnostics so far (taken), positions as MLIR reported them.
    fn take_raw_messages(&self) -> Vec<Message> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Parses (and verifies) `source`; text with a NUL byte (which would end MLIR's buffer
    /// early) or nested deeper than [`MAX_NESTING`] is refused before MLIR reads it.
    pub fn parse(&self, source: &str) -> Result<Module<'_>, OptError> {
        if let Some((offset, message)) = refused(source) {
            let line = source[..offset].matches('\n').count() + 1;
            let column = offset - source[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
            return Err(OptError::Parse(vec![Message {
                severity: Severity::Error,
                message,
                file: Some(self.name.clone()),
                line: Some(line),
                column: Some(column),
            }]));
        }
        Module::parse(&self.context, source).ok_or_else(|| OptError::Parse(self.take_messages()))
    }

    /// Runs `pipeline` on `module`.
    pub fn run(&self, module: &mut Module, pipeline: &str) -> Result<(), OptError> {
        let manager = PassManager::new(&self.context);
        parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(|e| {
            let text = e.to_string();
            OptError::Pipeline(
                text.strip_prefix("failed to parse pass pipeline:")
                    .unwrap_or(&text)
                    .trim()
                    .to_string(),
            )
        })?;
        manager
            .run(module)
            .map_err(|_| OptError::Pass(self.take_messages()))
    }
}

impl Session {
    /// `module` translated to LLVM IR (`mlir-translate --mlir-to-llvmir`); it must hold only
    /// ops whose translations are registered (the LLVM and NVVM dialects, say).
    pub fn llvm_ir(&self, module: &Module) -> Result<String, OptError> {
        // SAFETY: `module` is live and its context registers the translations; the returned
        // string is malloc'ed by LLVM, read once and freed.
        unsafe {
            let raw = mlir_sys::mlirTranslateModuleToLLVMIRToString(module.as_operation().to_raw());
            if raw.is_null() {
                return Err(OptError::Pass(self.take_messages()));
            }
            let text = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
            free(raw.cast());
            Ok(text)
        }
    }
}

unsafe extern "C" {
    fn free(pointer: *mut std::ffi::c_void);
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(handler) = self.handler.take() {
            self.context.detach_diagnostic_handler(handler);
        }
    }
}

/// The deepest nesting of brackets (`{`, `(`, `[`, `<`) MLIR is given to parse. Its parser
/// recurses into every level (a region, a parenthesized expression, a type's parameters) and
/// its printer indents every nested region further, so that the printed text grows with the
/// square of the depth: 8000 nested regions take 0.5 GB and print 190 MB (debug build, 4 s).
/// `xla_indexing_passes::opt::run_pipeline` runs on a thread whose stack holds this depth many
/// times over ([`xla_indexing_core::stack::on_large_stack`]).
pub const MAX_NESTING: usize = 10_000;

/// The byte offset and reason of what makes `source` unfit for MLIR's parser: a NUL byte, or
/// brackets nested deeper than [`MAX_NESTING`] (outside string literals and `//` comments; a
/// `>` of `->` closes nothing).
fn refused(source: &str) -> Option<(usize, String)> {
    if let Some(offset) = source.find('\0') {
        return Some((offset, "unexpected NUL byte".into()));
    }
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                i += 1;
                while let Some(&inside) = bytes.get(i)
                    && inside != b'"'
                {
                    i += if inside == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = source[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'{' | b'(' | b'[' | b'<' => {
                depth += 1;
                if MAX_NESTING < depth {
                    return Some((
                        i,
                        format!(
                            "nested more than {MAX_NESTING} brackets deep (MLIR's parser recurses into each)"
                        ),
                    ));
                }
            }
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'>' if i == 0 || bytes[i - 1] != b'-' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Adds a diagnostic and its notes to `sink`.
fn collect(diagnostic: &Diagnostic, sink: &Mutex<Vec<Message>>) {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    let (file, line, column) = position(diagnostic.location());
    let mut found = vec![Message {
        severity,
        message: diagnostic.to_string(),
        file,
        line,
        column,
    }];
    for i in 0..diagnostic.note_count() {
        if let Ok(note) = diagnostic.note(i) {
            let (file, line, column) = position(note.location());
            found.push(Message {
                severity: Severity::Note,
                message: note.to_string(),
                file,
                line,
                column,
            });
        }
    }
    if let Ok(mut all) = sink.lock() {
        all.extend(found);
    }
}

/// The file, line and column a location points at: a file location itself, the child of a
/// name, the callee of a call site, the first file location of a fused location.
fn position(location: Location) -> (Option<String>, Option<usize>, Option<usize>) {
    let mut raw = location.to_raw();
    // SAFETY: every location queried is `location` or one reached from it, all owned by its
    // live context; each accessor is called on the kind of location it expects.
    unsafe {
        loop {
            if mlirLocationIsAFileLineColRange(raw) {
                let file = StringRef::from_raw(mlirIdentifierStr(
                    mlirLocationFileLineColRangeGetFilename(raw),
                ))
                .as_str()
                .ok()
                .map(str::to_string);
                let line = usize::try_from(mlirLocationFileLineColRangeGetStartLine(raw)).ok();
                let column = usize::try_from(mlirLocationFileLineColRangeGetStartColumn(raw)).ok();
                return (file, line, column);
            } else if mlirLocationIsAName(raw) {
                raw = mlirLocationNameGetChildLoc(raw);
            } else if mlirLocationIsACallSite(raw) {
                raw = mlirLocationCallSiteGetCallee(raw);
            } else if mlirLocationIsAFused(raw) {
                let count = mlirLocationFusedGetNumLocations(raw) as usize;
                if count == 0 {
                    return (None, None, None);
                }
                let mut parts = vec![raw; count];
                mlirLocationFusedGetLocations(raw, parts.as_mut_ptr());
                match parts
                    .into_iter()
                    .map(|p| position(Location::from_raw(p)))
                    .find(|p| p.1.is_some())
                {
                    Some(found) => return found,
                    None => return (None, None, None),
                }
            } else {
                return (None, None, None);
            }
        }
    }
}

/// Checks that `text` parses (and verifies) in a [`full_context`]; the errors otherwise.
pub fn check_parses(text: &str, options: OptOptions) -> Result<(), Vec<Message>> {
    let session = Session::new("", options);
    let parsed = !text.contains('\0') && Module::parse(session.context(), text).is_some();
    if parsed {
        Ok(())
    } else {
        Err(session.take_raw_messages())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_text_is_nul_or_nested_too_deep() {
        assert_eq!(refused("a\0"), Some((1, "unexpected NUL byte".into())));
        let deep = format!("x = {}", "(".repeat(MAX_NESTING + 1));
        let (offset, message) = refused(&deep).expect("too deep");
        assert_eq!(offset, 4 + MAX_NESTING);
        assert!(message.contains("nested more than 10000"), "{message}");
        // Closed brackets, strings, comments and arrows leave the depth one below the limit.
        let open = "{".repeat(MAX_NESTING - 1);
        for inside in ["()[]<>", "\"((((\\\"((\"", "// {{{{\n", "(d0) -> (d0)"] {
            assert_eq!(refused(&format!("{open}{inside}(")), None, "{inside}");
            assert!(refused(&format!("{open}{inside}((")).is_some(), "{inside}");
        }
    }
}
