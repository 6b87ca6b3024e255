//! The pre-commit hooks, run by the real `pre-commit` tool: installed from PyPI
//! into a scratch virtual environment, pointed at this repository's HEAD from a
//! scratch git repository, failing on a failing fixture and passing on a good one.
//!
//! Ignored by default (it downloads pre-commit and builds the hook's binary);
//! `cargo test -- --include-ignored` runs it, as .ci/run does.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

fn ok(cmd: &mut Command) -> String {
    let out = run(cmd);
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.current_dir(dir)
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid");
    c
}

/// Installs pre-commit into `venv` and returns its executable.
fn install_pre_commit(venv: &Path) -> PathBuf {
    ok(Command::new("python3").arg("-m").arg("venv").arg(venv));
    ok(Command::new(venv.join("bin/pip")).args(["install", "--quiet", "pre-commit>=4,<5"]));
    venv.join("bin/pre-commit")
}

#[test]
#[ignore = "downloads pre-commit from PyPI and builds the hook (run by .ci/run)"]
fn the_hooks_fail_a_failing_server_and_pass_a_good_one() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let pre_commit = install_pre_commit(&scratch.path().join("venv"));
    let head = ok(git(&root()).args(["rev-parse", "HEAD"])).trim().to_string();

    let repo = scratch.path().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    ok(git(&repo).args(["init", "--quiet"]));
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {head}\n    hooks:\n      - id: mcp-conform\n      - id: mcp-conform-repo\n",
        root().display()
    );
    std::fs::write(repo.join(".pre-commit-config.yaml"), config).expect("write config");
    let failing =
        std::fs::read(root().join("fixtures/python/reply_to_everything/server.py")).expect("fixture");
    let passing = std::fs::read(root().join("fixtures/python/correct_stdio/server.py")).expect("fixture");
    std::fs::write(repo.join("server.py"), &failing).expect("write");
    ok(git(&repo).args(["add", "."]));

    let hook = |repo: &Path| {
        let mut c = Command::new(&pre_commit);
        c.current_dir(repo)
            .args(["run", "--all-files", "--color", "never"])
            .env("PRE_COMMIT_HOME", scratch.path().join("cache"))
            // The hook's binary is built by `cargo install`: share a target folder
            // between runs, and skip release optimisations this test does not need.
            .env("CARGO_TARGET_DIR", root().join("target/pre-commit-build"))
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
        let out = run(&mut c);
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };

    let (code, text) = hook(&repo);
    assert_eq!(code, Some(1), "the failing server fails the hooks:\n{text}");
    assert!(text.contains("mcp-conform....") && text.contains("Failed"), "{text}");
    assert!(text.contains("ab-001838/notification-no-reply"), "{text}");
    assert!(text.contains("server.py:25:9"), "{text}");

    std::fs::write(repo.join("server.py"), &passing).expect("write");
    ok(git(&repo).args(["add", "."]));
    let (code, text) = hook(&repo);
    assert_eq!(code, Some(0), "the good server passes:\n{text}");
    assert_eq!(text.matches("Passed").count(), 2, "both hooks ran and passed:\n{text}");
}
