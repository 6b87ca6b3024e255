//! SARIF output, validated twice: against the official SARIF 2.1.0 JSON schema
//! (tests/data/sarif-schema-2.1.0.json), and by Microsoft's SARIF validator
//! with GitHub's rules (an ignored test: it needs the npm package that .ci/run
//! installs; run it with `cargo test -- --include-ignored`).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn cmd() -> Command {
    Command::cargo_bin("mcp-conform").expect("binary is built")
}

/// Failing and passing fixtures, from the repository root (as CI runs it).
const CASES: &[&str] = &[
    "fixtures/python/reply_to_everything",
    "fixtures/python/correct_stdio",
    "fixtures/go",
    "fixtures/typescript",
    "fixtures",
];

fn sarif(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = cmd().current_dir(dir).args(args).args(["--format", "sarif"]).output().expect("runs");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("SARIF is JSON")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A tree with a suppressed finding and a non-ASCII line, written here.
fn suppressed_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = r#"import json
import sys


def handle(msg):
    method = msg.get("method")
    if method == "initialize":
        return {"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18"}}
    # mcp-conform: ignore[ab-001839/ping-support] the gateway answers ping
    note = "é𝄞"; return {"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32601, "message": note}}


for line in sys.stdin:
    reply = handle(json.loads(line))
    sys.stdout.write(json.dumps(reply) + "\n")
"#;
    std::fs::write(dir.path().join("server.py"), server).expect("write");
    dir
}

fn schema_errors(log: &serde_json::Value) -> Vec<String> {
    let text =
        std::fs::read_to_string(root().join("tests/data/sarif-schema-2.1.0.json")).expect("schema file");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    let validator = jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles");
    validator.iter_errors(log).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

#[test]
fn sarif_matches_the_official_schema() {
    for case in CASES {
        let log = sarif(&root(), &[case]);
        let errors = schema_errors(&log);
        assert!(errors.is_empty(), "{case}: {errors:#?}");
        assert_eq!(log["version"], "2.1.0");
    }
    let dir = suppressed_tree();
    let log = sarif(dir.path(), &["."]);
    let errors = schema_errors(&log);
    assert!(errors.is_empty(), "suppressed: {errors:#?}");
}

#[test]
fn the_schema_check_catches_a_broken_log() {
    let mut log = sarif(&root(), &["fixtures/python/reply_to_everything"]);
    log["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    log["runs"][0]["columnKind"] = serde_json::json!("bytes");
    assert_eq!(schema_errors(&log).len(), 2, "{:#?}", schema_errors(&log));
}

#[test]
fn results_rules_and_locations_are_as_github_wants_them() {
    let log = sarif(&root(), &["fixtures/python/reply_to_everything"]);
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "mcp-conform");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), 6);
    for rule in rules {
        for key in
            ["id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"]
        {
            assert!(!rule[key].is_null(), "rule lacks {key}: {rule:#}");
        }
        assert!(rule["help"]["markdown"].as_str().expect("markdown").contains("## How to fix"));
        assert_eq!(rule["properties"]["problem.severity"], "error");
    }
    assert_eq!(run["columnKind"], "utf16CodeUnits");
    assert!(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("uri").starts_with("file:///"));
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 4, "one per failing finding");
    for r in results {
        let index = r["ruleIndex"].as_u64().expect("index") as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "fixtures/python/reply_to_everything/server.py");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!(loc["region"]["startLine"], 25);
        assert_eq!(loc["region"]["startColumn"], 9);
        assert!(r["partialFingerprints"]["mcpConformFinding/v1"].as_str().expect("fingerprint").len() == 16);
    }
    // Passes and skips are kept in the run's properties.
    let verdicts = run["properties"]["verdicts"].as_array().expect("verdicts");
    assert_eq!(verdicts.len(), 6);
    assert!(verdicts.iter().any(|v| v["verdict"] == "pass"));
    assert!(verdicts.iter().any(|v| v["verdict"] == "skip"));
    // The same scan, the same fingerprints.
    let again = sarif(&root(), &["fixtures/python/reply_to_everything"]);
    assert_eq!(again["runs"][0]["results"], run["results"]);
}

#[test]
fn suppressions_and_utf16_columns() {
    let dir = suppressed_tree();
    let log = sarif(dir.path(), &["."]);
    let results = log["runs"][0]["results"].as_array().expect("results");
    let ping = results.iter().find(|r| r["ruleId"] == "ab-001839/ping-support").expect("ping result");
    assert_eq!(ping["suppressions"][0]["kind"], "inSource");
    assert_eq!(ping["suppressions"][0]["justification"], "the gateway answers ping");
    let other =
        results.iter().find(|r| r["ruleId"] == "ab-001838/notification-no-reply").expect("nnr result");
    assert!(other["suppressions"].is_null());
    // The reply on line 10 starts after `note = "é𝄞"; return `: byte column 29, UTF-16 column 26.
    let out = cmd().current_dir(dir.path()).args([".", "--format", "json"]).output().expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let finding = &json["servers"][0]["checks"][0]["findings"][0];
    assert_eq!((finding["line"].as_u64(), finding["column"].as_u64()), (Some(10), Some(29)), "{finding:#}");
    let region = &other["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(10), Some(26)));
}

/// The validator's binary: `$SARIF_MULTITOOL`, else where .ci/run installs it.
fn multitool() -> PathBuf {
    if let Some(p) = std::env::var_os("SARIF_MULTITOOL") {
        return PathBuf::from(p);
    }
    root().join("target/sarif-tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool")
}

/// Notes the validator gives on every log that we decline, with the reason:
/// SARIF2002 prefers message ids and arguments to `message.text`, but GitHub
/// displays `message.text` and does not document looking messages up by id;
/// SARIF2003 wants version-control provenance (the scanner does not read git);
/// SARIF2006 fetches every URL (this machine has no network); SARIF2009 flags
/// `/` in rule ids, which are the catalog's `pattern/check` ids (GitHub's own
/// CodeQL rule ids are shaped the same way).
const ACCEPTED_NOTES: &[&str] = &["SARIF2002", "SARIF2003", "SARIF2006", "SARIF2009"];

#[test]
#[ignore = "needs @microsoft/sarif-multitool (installed by .ci/run)"]
fn sarif_passes_microsofts_validator_with_github_rules() {
    let tool = multitool();
    assert!(
        tool.exists(),
        "{} not found: install with `npm install --prefix target/sarif-tools @microsoft/sarif-multitool`",
        tool.display()
    );
    let out_dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let path = out_dir.path().join(format!("case{i}.sarif"));
        std::fs::write(&path, serde_json::to_vec_pretty(&sarif(&root(), &[case])).expect("json"))
            .expect("write");
        files.push(path);
    }
    let dir = suppressed_tree();
    let path = out_dir.path().join("suppressed.sarif");
    std::fs::write(&path, serde_json::to_vec_pretty(&sarif(dir.path(), &["."])).expect("json"))
        .expect("write");
    files.push(path);
    for file in &files {
        let out = std::process::Command::new(&tool)
            .args(["validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning;Note"])
            .arg(file)
            .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1")
            .output()
            .expect("the validator runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("Analysis completed successfully"), "{text}");
        // It exits 0 even when it finds problems: read what it says.
        let findings: Vec<&str> = text
            .lines()
            .filter(|l| [": error ", ": warning ", ": note "].iter().any(|k| l.contains(k)))
            .filter(|l| {
                !(l.contains(": note ") && ACCEPTED_NOTES.iter().any(|n| l.contains(&format!(" {n}:"))))
            })
            .collect();
        assert!(findings.is_empty(), "{}:\n{}", file.display(), findings.join("\n"));
    }
}

#[test]
fn related_places_are_related_locations() {
    let log = sarif(&root(), &["fixtures/python/prefix_guard"]);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "ab-001838/default-branch-guard");
    let related = &result["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 18);
    assert!(related["message"]["text"].as_str().expect("message").contains("prefix test"));
    let out = cmd().args(["fixtures/python/prefix_guard", "--quiet"]).output().expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.contains("this `notifications/` prefix test lets other id-less methods through"), "{text}");
}
