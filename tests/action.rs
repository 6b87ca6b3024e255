//! The GitHub Action's shell part (action/run.sh), run here as the runner would:
//! inputs as environment variables, outputs appended to $GITHUB_OUTPUT.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    status: Option<i32>,
    log: String,
    outputs: String,
    sarif: Option<serde_json::Value>,
}

fn action(paths: &str, args: &str, scratch: &Path) -> Run {
    let sarif = scratch.join("out.sarif");
    let outputs = scratch.join("github_output");
    let out = Command::new("bash")
        .arg(root().join("action/run.sh"))
        .current_dir(root())
        .env("INPUT_PATHS", paths)
        .env("INPUT_ARGS", args)
        .env("INPUT_SARIF_FILE", &sarif)
        .env("GITHUB_OUTPUT", &outputs)
        .env("MCP_CONFORM_BIN", env!("CARGO_BIN_EXE_mcp-conform"))
        .output()
        .expect("bash runs");
    Run {
        status: out.status.code(),
        log: String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
        sarif: std::fs::read(&sarif).ok().map(|b| serde_json::from_slice(&b).expect("SARIF is JSON")),
    }
}

#[test]
fn failing_checks_still_produce_sarif_and_report_exit_code_one() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let run = action("fixtures/python/reply_to_everything", "", scratch.path());
    assert_eq!(run.status, Some(0), "the step succeeds so the upload runs:\n{}", run.log);
    assert!(run.outputs.contains("exit-code=1"), "{}", run.outputs);
    assert!(run.outputs.contains(&format!("sarif-file={}", scratch.path().join("out.sarif").display())));
    let sarif = run.sarif.expect("SARIF written");
    assert_eq!(sarif["runs"][0]["results"].as_array().expect("results").len(), 4);
    assert!(run.log.contains("1 server, 4 failing checks"), "the log shows the findings:\n{}", run.log);
}

#[test]
fn passing_servers_and_extra_arguments() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let run = action(
        "fixtures/python/correct_stdio fixtures/go/ccvault_fixed",
        "--ignore ab-001835",
        scratch.path(),
    );
    assert_eq!(run.status, Some(0), "{}", run.log);
    assert!(run.outputs.contains("exit-code=0"), "{}", run.outputs);
    let sarif = run.sarif.expect("SARIF written");
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
    let verdicts = sarif["runs"][0]["properties"]["verdicts"].as_array().expect("verdicts");
    assert_eq!(verdicts.len(), 2 * 5, "two servers, five checks (one ignored)");
}

#[test]
fn a_usage_error_fails_the_step() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let run = action("no/such/folder", "", scratch.path());
    assert_eq!(run.status, Some(2), "{}", run.log);
    assert!(run.log.contains("::error title=mcp-conform::"), "{}", run.log);
    assert!(!run.outputs.contains("exit-code"), "{}", run.outputs);
}

#[test]
fn the_action_runs_the_script_and_uploads_with_a_category() {
    let yml = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    for needed in [
        "using: composite",
        "${{ github.action_path }}/action/run.sh",
        "github/codeql-action/upload-sarif@v3",
        "category: ${{ inputs.category }}",
        "sarif_file: ${{ steps.scan.outputs.sarif-file }}",
    ] {
        assert!(yml.contains(needed), "action.yml lacks `{needed}`");
    }
}
