//! The catalog: one TOML file per pattern under `rules/`, embedded in the binary.

use serde::Deserialize;
use std::sync::OnceLock;

const SOURCES: &[(&str, &str)] = &[
    ("rules/ab-001835.toml", include_str!("../rules/ab-001835.toml")),
    ("rules/ab-001837.toml", include_str!("../rules/ab-001837.toml")),
    ("rules/ab-001838.toml", include_str!("../rules/ab-001838.toml")),
    ("rules/ab-001839.toml", include_str!("../rules/ab-001839.toml")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternEntry {
    pub id: String,
    pub slug: String,
    pub title: String,
    pub severity: String,
    pub url: String,
    pub checks: Vec<CheckEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckEntry {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub why: String,
    pub fail_example: String,
    pub pass_example: String,
    pub fix: String,
    pub references: Vec<String>,
}

/// Every pattern of the catalog, parsed once.
pub fn patterns() -> &'static [PatternEntry] {
    static CATALOG: OnceLock<Vec<PatternEntry>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(name, text)| {
                // The catalog is part of the build; a test parses every file, so this cannot fail at run time.
                toml::from_str(text).unwrap_or_else(|e| panic!("{name} is not a valid catalog entry: {e}"))
            })
            .collect()
    })
}

pub fn pattern(id: &str) -> Option<&'static PatternEntry> {
    patterns().iter().find(|p| p.id == id)
}

pub fn check(id: &str) -> Option<(&'static PatternEntry, &'static CheckEntry)> {
    patterns().iter().find_map(|p| p.checks.iter().find(|c| c.id == id).map(|c| (p, c)))
}

#[cfg(test)]
mod tests {
    use crate::check::CHECKS;

    #[test]
    fn every_check_has_an_entry_and_every_entry_a_check() {
        for c in CHECKS {
            let (pattern, _) = super::check(c.id).unwrap_or_else(|| panic!("{} has no catalog entry", c.id));
            assert_eq!(pattern.id, c.pattern());
        }
        for p in super::patterns() {
            assert!(!p.checks.is_empty(), "{} lists no checks", p.id);
            for entry in &p.checks {
                assert!(CHECKS.iter().any(|c| c.id == entry.id), "{} has no implementation", entry.id);
                assert!(entry.id.starts_with(&format!("{}/", p.id)));
            }
        }
    }
}
