//! Configuration: `mcp-conform.toml`, or `[tool.mcp-conform]` in `pyproject.toml`,
//! found by searching upward from the scanned path.
//!
//! Every key is optional. Unknown keys and values of the wrong type are errors
//! that name the file, the line and the key: a typo must never silently turn a
//! check off.

use crate::settings::{Knowledge, absolute};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The keys, as written in the file (kebab-case).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// Checks to run (check ids or pattern ids); all when absent.
    pub select: Option<Vec<String>>,
    /// Checks never to run.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Gitignore-style globs, relative to the config file's folder: never scanned.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Glob → checks whose findings in matching files are suppressed.
    #[serde(default)]
    pub per_file_ignores: BTreeMap<String, Vec<String>>,
    /// Files larger than this many bytes are skipped.
    pub max_file_size: Option<u64>,
    /// Knowledge the scanner cannot see in the code it reads.
    #[serde(default)]
    pub reply_functions: Vec<String>,
    #[serde(default)]
    pub notification_tests: Vec<String>,
    #[serde(default)]
    pub sdk_imports: Vec<String>,
    /// Read generated and minified files too (skipped by default).
    #[serde(default)]
    pub include_generated: bool,
}

/// A configuration and where it came from.
#[derive(Debug, Default, Clone)]
pub struct Loaded {
    pub config: Config,
    /// The file, when one was found; globs are relative to its folder.
    pub file: Option<PathBuf>,
}

impl Loaded {
    pub fn knowledge(&self) -> Knowledge {
        Knowledge {
            reply_functions: self.config.reply_functions.clone(),
            notification_tests: self.config.notification_tests.clone(),
            sdk_imports: self.config.sdk_imports.clone(),
        }
    }

    /// The folder globs are relative to.
    pub fn base(&self) -> PathBuf {
        self.file.as_deref().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_else(|| ".".into())
    }
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyTool>,
}

#[derive(Deserialize)]
struct PyTool {
    #[serde(rename = "mcp-conform")]
    mcp_conform: Option<Config>,
}

/// Where a list of ids came from, for error messages.
fn unknown_id(ids: &[String], key: &str, file: &str) -> Result<(), String> {
    use crate::check::CHECKS;
    match ids.iter().find(|id| !CHECKS.iter().any(|c| c.is_named(id))) {
        Some(id) => {
            Err(format!("{file}: key `{key}`: unknown check or pattern `{id}` (see `mcp-conform checks`)"))
        }
        None => Ok(()),
    }
}

/// One gitignore-style glob, relative to `base`.
pub fn matcher(base: &Path, globs: &[&str], key: &str, file: &str) -> Result<Gitignore, String> {
    let mut b = GitignoreBuilder::new(base);
    for g in globs {
        b.add_line(None, g).map_err(|e| format!("{file}: key `{key}`: bad glob `{g}`: {e}"))?;
    }
    b.build().map_err(|e| format!("{file}: key `{key}`: {e}"))
}

impl Loaded {
    /// The file's name as messages show it.
    pub fn name(&self) -> String {
        self.file.as_deref().map(shown).unwrap_or_else(|| "configuration".into())
    }

    /// Checks that every id the configuration names is a check or pattern.
    pub fn check_ids(&self) -> Result<(), String> {
        let c = &self.config;
        let name = self.name();
        if let Some(select) = &c.select {
            unknown_id(select, "select", &name)?;
        }
        unknown_id(&c.ignore, "ignore", &name)?;
        for (glob, ids) in &c.per_file_ignores {
            unknown_id(ids, &format!("per-file-ignores.\"{glob}\""), &name)?;
        }
        Ok(())
    }
}

/// Reads the configuration named on the command line.
pub fn load_file(path: &Path) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read config `{}`: {}", path.display(), crate::settings::plain_io(&e)))?;
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let config = if is_pyproject {
        parse_pyproject(path, &text)?
            .ok_or_else(|| format!("{}: has no [tool.mcp-conform] table", path.display()))?
    } else {
        parse(path, &text)?
    };
    Ok(Loaded { config, file: Some(absolute(path)) })
}

/// Searches `start` and its parents for `mcp-conform.toml`, then for a
/// `pyproject.toml` with a `[tool.mcp-conform]` table; the nearest folder wins.
pub fn discover(start: &Path) -> Result<Loaded, String> {
    let start = absolute(start);
    let first = if start.is_dir() { Some(start.as_path()) } else { start.parent() };
    for dir in first.into_iter().flat_map(Path::ancestors) {
        let own = dir.join("mcp-conform.toml");
        if own.is_file() {
            return load_file(&own);
        }
        let py = dir.join("pyproject.toml");
        if py.is_file() {
            let text = std::fs::read_to_string(&py)
                .map_err(|e| format!("cannot read `{}`: {}", py.display(), crate::settings::plain_io(&e)))?;
            if let Some(config) = parse_pyproject(&py, &text)? {
                return Ok(Loaded { config, file: Some(py) });
            }
        }
    }
    Ok(Loaded::default())
}

fn parse(path: &Path, text: &str) -> Result<Config, String> {
    toml::from_str(text).map_err(|e| describe(path, text, &e, ""))
}

fn parse_pyproject(path: &Path, text: &str) -> Result<Option<Config>, String> {
    let doc: Pyproject = toml::from_str(text).map_err(|e| describe(path, text, &e, "[tool.mcp-conform] "))?;
    Ok(doc.tool.and_then(|t| t.mcp_conform))
}

/// `file:line:column: message`, naming the key the error is about.
fn describe(path: &Path, text: &str, e: &toml::de::Error, table: &str) -> String {
    let message =
        e.message().trim_end_matches('\n').replace('\n', "; ").replace("unknown field", "unknown key");
    let path = shown(path);
    let Some(span) = e.span() else {
        return format!("{path}: {table}{message}");
    };
    let (line, column) = line_column(text, span.start);
    let key = key_at(text, span.start);
    let about = match key {
        Some(k) if message.starts_with("invalid") => format!("key `{k}`: "),
        _ => String::new(),
    };
    format!("{path}:{line}:{column}: {table}{about}{message}")
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, column)
}

/// The key of the `key = value` line an error points into.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = &text[start..];
    let line = line.split('\n').next().unwrap_or("");
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.starts_with('[')).then(|| key.to_string())
}

/// A path as messages show it: relative to the working directory when inside it.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let abs = absolute(path);
    abs.strip_prefix(&cwd).unwrap_or(&abs).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(Path::new("mcp-conform.toml"), text).unwrap_err()
    }

    #[test]
    fn reads_every_key() {
        let c = parse(
            Path::new("x.toml"),
            "select = [\"ab-001838\"]\nignore = [\"ab-001839/ping-support\"]\nexclude = [\"gen/\"]\n\
             max-file-size = 10\nreply-functions = [\"emit\"]\nnotification-tests = [\"is_note\"]\n\
             sdk-imports = [\"acme_mcp\"]\n[per-file-ignores]\n\"legacy/*.py\" = [\"ab-001837\"]\n",
        )
        .unwrap();
        assert_eq!(c.select.as_deref(), Some(&["ab-001838".to_string()][..]));
        assert_eq!(c.max_file_size, Some(10));
        assert_eq!(c.per_file_ignores["legacy/*.py"], vec!["ab-001837"]);
        assert_eq!(c.sdk_imports, vec!["acme_mcp"]);
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let e = err("select = []\nignored = [\"x\"]\n");
        assert!(e.starts_with("mcp-conform.toml:2:1: "), "{e}");
        assert!(e.contains("`ignored`"), "{e}");
    }

    #[test]
    fn wrong_type_names_the_key() {
        let e = err("\nmax-file-size = \"big\"\n");
        assert!(e.starts_with("mcp-conform.toml:2:"), "{e}");
        assert!(e.contains("max-file-size"), "{e}");
    }

    #[test]
    fn malformed_toml_names_the_line() {
        let e = err("select = [\"a\"\nignore = []\n");
        assert!(e.starts_with("mcp-conform.toml:"), "{e}");
    }

    #[test]
    fn pyproject_table_is_read_and_other_tools_ignored() {
        let text =
            "[project]\nname = \"x\"\n[tool.ruff]\nline-length = 1\n[tool.mcp-conform]\nignore = [\"a\"]\n";
        let c = parse_pyproject(Path::new("pyproject.toml"), text).unwrap().unwrap();
        assert_eq!(c.ignore, vec!["a"]);
        let e = parse_pyproject(Path::new("pyproject.toml"), "[tool.mcp-conform]\nselct = []\n").unwrap_err();
        assert!(e.starts_with("pyproject.toml:2:1: [tool.mcp-conform] "), "{e}");
        assert!(parse_pyproject(Path::new("pyproject.toml"), "[tool.ruff]\n").unwrap().is_none());
    }
}
