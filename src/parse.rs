//! Parsing with tree-sitter: one parser per thread and language, a time budget per file.

use crate::model::Language;
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

pub fn grammar(language: Language) -> Option<tree_sitter::Language> {
    match language {
        Language::Python => Some(tree_sitter_python::LANGUAGE.into()),
        Language::Rust => Some(tree_sitter_rust::LANGUAGE.into()),
        _ => None,
    }
}

thread_local! {
    static PARSERS: RefCell<HashMap<Language, tree_sitter::Parser>> = RefCell::new(HashMap::new());
}

/// Parses a file; the error is a reason fit for the skipped-files list.
pub fn parse(language: Language, src: &[u8], budget: Duration) -> Result<tree_sitter::Tree, String> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = match parsers.entry(language) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let g = grammar(language).ok_or_else(|| format!("no grammar for {}", language.name()))?;
                let mut p = tree_sitter::Parser::new();
                p.set_language(&g)
                    .map_err(|e| format!("cannot load the {} grammar: {e}", language.name()))?;
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
        for language in [Language::Python, Language::Rust] {
            let g = grammar(language).expect("grammar");
            let mut p = tree_sitter::Parser::new();
            p.set_language(&g).unwrap_or_else(|e| panic!("{} grammar does not load: {e}", language.name()));
        }
    }

    #[test]
    fn parse_tolerates_syntax_errors() {
        let tree = parse(Language::Python, b"def f(:\n  return {", Duration::from_secs(1)).expect("a tree");
        assert!(tree.root_node().has_error());
    }
}
