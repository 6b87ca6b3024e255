//! Parsing with tree-sitter: one parser per thread and grammar, a time budget per file.

use crate::model::Language;
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The tree-sitter grammars: one per language, and TSX beside TypeScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grammar {
    Python,
    Rust,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Php,
}

impl Grammar {
    pub const ALL: [Grammar; 7] = [
        Grammar::Python,
        Grammar::Rust,
        Grammar::TypeScript,
        Grammar::Tsx,
        Grammar::JavaScript,
        Grammar::Go,
        Grammar::Php,
    ];

    /// The grammar for a file of this language with this name.
    pub fn of(language: Language, path: &std::path::Path) -> Grammar {
        match language {
            Language::Python => Grammar::Python,
            Language::Rust => Grammar::Rust,
            Language::TypeScript if path.extension().is_some_and(|e| e == "tsx") => Grammar::Tsx,
            Language::TypeScript => Grammar::TypeScript,
            // The JavaScript grammar accepts JSX too.
            Language::JavaScript => Grammar::JavaScript,
            Language::Go => Grammar::Go,
            // The PHP grammar that also accepts HTML around `<?php ... ?>`.
            Language::Php => Grammar::Php,
        }
    }

    pub fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
            Grammar::Php => tree_sitter_php::LANGUAGE_PHP.into(),
        }
    }
}

thread_local! {
    static PARSERS: RefCell<HashMap<Grammar, tree_sitter::Parser>> = RefCell::new(HashMap::new());
}

/// Parses a file; the error is a reason fit for the skipped-files list.
pub fn parse(grammar: Grammar, src: &[u8], budget: Duration) -> Result<tree_sitter::Tree, String> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = match parsers.entry(grammar) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&grammar.language())
                    .map_err(|e| format!("cannot load the {grammar:?} grammar: {e}"))?;
                v.insert(p)
            }
        };
        parser.reset();
        let start = Instant::now();
        let mut over_budget = |_: &tree_sitter::ParseState| start.elapsed() > budget;
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut over_budget);
        let len = src.len();
        let mut read = |offset: usize, _: tree_sitter::Point| -> &[u8] {
            if offset < len { &src[offset..] } else { &[] }
        };
        parser
            .parse_with_options(&mut read, None, Some(options))
            .ok_or_else(|| format!("parsing took longer than the {} ms budget", budget.as_millis()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_loads_with_the_core() {
        for grammar in Grammar::ALL {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&grammar.language())
                .unwrap_or_else(|e| panic!("{grammar:?} grammar does not load: {e}"));
        }
    }

    #[test]
    fn parse_tolerates_syntax_errors() {
        let tree = parse(Grammar::Python, b"def f(:\n  return {", Duration::from_secs(1)).expect("a tree");
        assert!(tree.root_node().has_error());
    }
}
