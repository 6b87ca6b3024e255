//! Settings as plain data, below every stage: what the analysis is told beyond
//! the source, and the small path and error helpers the stages share. The
//! configuration fills these; `scan` hands them down.

use std::path::{Path, PathBuf};

/// What the analysis is told beyond the source: names of functions outside the
/// scanned code that send a message, that test whether a message is a
/// notification, and modules that are MCP SDKs.
#[derive(Debug, Default, Clone)]
pub struct Knowledge {
    pub reply_functions: Vec<String>,
    pub notification_tests: Vec<String>,
    pub sdk_imports: Vec<String>,
}

impl Knowledge {
    /// `callee` (as written, or its last segment) is a configured notification test.
    pub fn is_notification_test(&self, callee: &str) -> bool {
        let name = callee.rsplit(['.', ':', '>']).next().unwrap_or(callee);
        self.notification_tests.iter().any(|n| n == callee || n == name)
    }
}

/// The path made absolute against the working directory (not resolving links),
/// so that globs and scanned paths compare alike.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// An I/O error as a short phrase for messages.
pub fn plain_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
