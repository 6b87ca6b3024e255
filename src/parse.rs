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

/// Runs `f` with this thread's parser for the grammar, reset; the error is a reason.
fn with_parser<T>(
    grammar: Grammar,
    f: impl FnOnce(&mut tree_sitter::Parser) -> Result<T, String>,
) -> Result<T, String> {
    PARSERS.with(|cell| {
        let mut parsers =
            cell.try_borrow_mut().map_err(|_| "the parser is busy on this thread".to_string())?;
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
        f(parser)
    })
}

/// Parses a file; the error is a reason fit for the skipped-files list.
pub fn parse(grammar: Grammar, src: &[u8], budget: Duration) -> Result<tree_sitter::Tree, String> {
    with_parser(grammar, |parser| {
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

/// Parses one stretch of a file as its own piece of code (the expression written
/// among a macro's tokens), with the nodes placed at their offsets in the file.
/// `None` when the parser cannot be had or gives up.
pub fn parse_part(grammar: Grammar, src: &[u8], part: tree_sitter::Range) -> Option<tree_sitter::Tree> {
    with_parser(grammar, |parser| {
        parser.set_included_ranges(&[part]).map_err(|e| e.to_string())?;
        let tree = parser.parse(src, None);
        // Back to whole files for the next parse.
        let _ = parser.set_included_ranges(&[]);
        Ok(tree)
    })
    .ok()
    .flatten()
}

/// Children by field name, each name's id found once per grammar and thread:
/// tree-sitter's own lookup by name compares it with every field name the grammar
/// has, on every call.
pub trait Fields<'t> {
    /// The first child in the field (`child_by_field_name`).
    fn field(&self, name: &'static str) -> Option<tree_sitter::Node<'t>>;
    /// Every child in the field (`children_by_field_name`).
    fn fields<'c>(
        &self,
        name: &'static str,
        cursor: &'c mut tree_sitter::TreeCursor<'t>,
    ) -> impl Iterator<Item = tree_sitter::Node<'t>> + 'c;
}

/// Field ids by the name's address and length (a `&'static str` keeps its address).
type FieldIds = rustc_hash::FxHashMap<(usize, usize), Option<u16>>;

thread_local! {
    /// The grammar the ids are of, and its ids. Another grammar empties the table.
    static FIELD_IDS: RefCell<(Option<tree_sitter::Language>, FieldIds)> =
        RefCell::new((None, FieldIds::default()));
}

fn field_id(node: &tree_sitter::Node, name: &'static str) -> Option<u16> {
    FIELD_IDS.with(|cell| {
        let mut cell = cell.borrow_mut();
        let (grammar, ids) = &mut *cell;
        let language = node.language();
        if grammar.as_ref() != Some(&*language) {
            *grammar = Some((*language).clone());
            ids.clear();
        }
        *ids.entry((name.as_ptr() as usize, name.len()))
            .or_insert_with(|| language.field_id_for_name(name).map(|id| id.get()))
    })
}

impl<'t> Fields<'t> for tree_sitter::Node<'t> {
    fn field(&self, name: &'static str) -> Option<tree_sitter::Node<'t>> {
        field_id(self, name).and_then(|id| self.child_by_field_id(id))
    }

    fn fields<'c>(
        &self,
        name: &'static str,
        cursor: &'c mut tree_sitter::TreeCursor<'t>,
    ) -> impl Iterator<Item = tree_sitter::Node<'t>> + 'c {
        let id = field_id(self, name).and_then(std::num::NonZeroU16::new);
        let mut children = id.map(|id| self.children_by_field_id(id, cursor));
        std::iter::from_fn(move || children.as_mut()?.next())
    }
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
    fn a_part_parses_in_place_and_the_next_parse_sees_the_whole_file() {
        let src = b"fn f() { g!(a.b[\"c\"] + 1); }";
        let start = 12;
        let end = 24;
        assert_eq!(&src[start..end], b"a.b[\"c\"] + 1");
        let range = tree_sitter::Range {
            start_byte: start,
            end_byte: end,
            start_point: tree_sitter::Point { row: 0, column: start },
            end_point: tree_sitter::Point { row: 0, column: end },
        };
        let tree = parse_part(Grammar::Rust, src, range).expect("a tree");
        // A bare expression is not an item: it comes back inside an error node, whole.
        let root = tree.root_node();
        assert_eq!(root.start_byte(), start);
        let mut cursor = root.walk();
        let inner = root.named_children(&mut cursor).next().and_then(|e| e.named_child(0)).expect("a node");
        assert_eq!(inner.kind(), "binary_expression", "{}", root.to_sexp());
        assert_eq!((inner.start_byte(), inner.end_byte()), (start, end));
        let whole = parse(Grammar::Rust, src, Duration::from_secs(1)).expect("a tree");
        assert!(whole.root_node().to_sexp().starts_with("(source_file (function_item"));
    }

    #[test]
    fn fields_by_kept_id_match_tree_sitters_lookup_by_name_across_grammars() {
        const NAMES: [&str; 8] =
            ["name", "body", "function", "arguments", "left", "right", "value", "condition"];
        let sources: [(Grammar, &[u8]); 5] = [
            (Grammar::TypeScript, b"function f(a: number) { if (a > 1) { g(a, 2); } const x = a; }"),
            (Grammar::Tsx, b"function f(a) { if (a > 1) { return <div>{g(a)}</div>; } }"),
            (Grammar::Python, b"def f(a):\n    if a > 1:\n        g(a, 2)\n    x = a\n"),
            (Grammar::Go, b"package m\nfunc f(a int) { if a > 1 { g(a, 2) }; x := a; _ = x }\n"),
            (Grammar::TypeScript, b"class C { m(b) { while (b) { this.h(b); } } }"),
        ];
        let mut checked = 0;
        // Grammars alternate on this thread, so the kept ids are dropped and found again.
        for (grammar, src) in sources {
            let tree = parse(grammar, src, Duration::from_secs(1)).expect("a tree");
            let mut stack = vec![tree.root_node()];
            while let Some(node) = stack.pop() {
                for name in NAMES {
                    assert_eq!(node.field(name), node.child_by_field_name(name), "{grammar:?} {name}");
                    let (mut a, mut b) = (node.walk(), node.walk());
                    let ours: Vec<_> = node.fields(name, &mut a).collect();
                    let theirs: Vec<_> = node.children_by_field_name(name, &mut b).collect();
                    assert_eq!(ours, theirs, "{grammar:?} {name}");
                    checked += ours.len();
                }
                let mut cursor = node.walk();
                stack.extend(node.children(&mut cursor));
            }
        }
        assert!(checked > 20, "the snippets have fields to compare ({checked})");
    }

    #[test]
    fn parse_tolerates_syntax_errors() {
        let tree = parse(Grammar::Python, b"def f(:\n  return {", Duration::from_secs(1)).expect("a tree");
        assert!(tree.root_node().has_error());
    }
}
