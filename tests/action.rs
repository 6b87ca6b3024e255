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
        "github/codeql-action/upload-sarif@v4",
        "category: ${{ inputs.category }}",
        "sarif_file: ${{ steps.scan.outputs.sarif-file }}",
        "${{ github.action_path }}/action/cache-key.sh",
        "uses: actions/cache@v6",
        "key: ${{ steps.cache-key.outputs.key }}",
        "path: ${{ runner.tool_cache }}/mcp-conform",
        "MCP_CONFORM_ROOT: ${{ runner.tool_cache }}/mcp-conform",
    ] {
        assert!(yml.contains(needed), "action.yml lacks `{needed}`");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(readme.contains("actions/checkout@v7"), "README's workflow uses the current checkout");
    assert!(!readme.contains("upload-sarif@v3") && readme.contains("upload-sarif@v4"));
}

fn cache_key(action_path: &Path) -> String {
    let out = Command::new("bash")
        .arg(root().join("action/cache-key.sh"))
        .env("ACTION_PATH", action_path)
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").trim().to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The cache key names the runner and the crate version, and changes exactly when
/// something the build reads changes.
#[test]
fn the_cache_key_follows_the_sources() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let copy = scratch.path().join("action");
    for part in ["src", "rules"] {
        copy_tree(&root().join(part), &copy.join(part));
    }
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::copy(root().join(file), copy.join(file)).expect("copy");
    }
    let key = cache_key(&root());
    assert!(key.starts_with(&format!("mcp-conform-Linux-X64-{}-", env!("CARGO_PKG_VERSION"))), "{key}");
    assert_eq!(cache_key(&copy), key, "the same sources give the same key");
    std::fs::write(copy.join("README.md"), "not read by the build").expect("write");
    assert_eq!(cache_key(&copy), key, "files the build does not read do not change it");
    let main = copy.join("src/main.rs");
    let mut text = std::fs::read_to_string(&main).expect("main.rs");
    text.push_str("\n// changed\n");
    std::fs::write(&main, text).expect("write");
    assert_ne!(cache_key(&copy), key, "a changed source gives a new key");
}

/// The branch a hosted runner takes on its first run: no binary given, none on
/// PATH, nothing cached: `cargo install --path` the action's checkout (offline,
/// from the registry cache the test build already filled). The second run finds
/// the installed binary where the cache step would restore it and builds nothing.
#[test]
#[ignore = "builds the scanner with cargo install (run by .ci/run)"]
fn without_a_binary_it_builds_once_and_then_uses_the_cached_build() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let install_root = scratch.path().join("tool-cache/mcp-conform");
    let cargo = PathBuf::from(std::env::var("CARGO").expect("cargo sets CARGO for tests"));
    let toolchain = cargo.parent().expect("cargo's folder").to_path_buf();
    let run = |label: &str| {
        let sarif = scratch.path().join(format!("{label}.sarif"));
        let outputs = scratch.path().join(format!("{label}.out"));
        let started = std::time::Instant::now();
        let out = Command::new("bash")
            .arg(root().join("action/run.sh"))
            .current_dir(root())
            .env_clear()
            .env("HOME", std::env::var("HOME").unwrap_or_default())
            .env("PATH", format!("{}:/usr/bin:/bin", toolchain.display()))
            .env("INPUT_PATHS", "fixtures/python/reply_to_everything")
            .env("INPUT_SARIF_FILE", &sarif)
            .env("GITHUB_OUTPUT", &outputs)
            .env("ACTION_PATH", root())
            .env("MCP_CONFORM_ROOT", &install_root)
            .env("CARGO_NET_OFFLINE", "true")
            // Shared with the pre-commit test; release optimisations are not what is tested.
            .env("CARGO_TARGET_DIR", root().join("target/pre-commit-build"))
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .output()
            .expect("bash runs");
        let log = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        eprintln!("{label} run: {:.1} s", started.elapsed().as_secs_f64());
        assert_eq!(out.status.code(), Some(0), "{label} run:\n{log}");
        let outputs = std::fs::read_to_string(&outputs).unwrap_or_default();
        assert!(outputs.contains("exit-code=1"), "{label} run judged the failing fixture: {outputs}");
        assert!(sarif.exists(), "{label} run wrote SARIF");
        log
    };
    let first = run("cold");
    assert!(first.contains("(no cached build)") && first.contains("Built in"), "{first}");
    assert!(install_root.join("bin/mcp-conform").is_file(), "installed where the cache step looks");
    let second = run("cached");
    assert!(second.contains("Using the cached build: mcp-conform"), "{second}");
    assert!(!second.contains("Building"), "the cached run builds nothing:\n{second}");
}
