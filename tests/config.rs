//! Configuration files and suppressions, as a user writes them: each test builds
//! a small tree in a temporary folder and runs the binary on it.

use assert_cmd::Command;
use std::path::Path;

fn cmd() -> Command {
    Command::cargo_bin("mcp-conform").expect("binary is built")
}

/// A server with the ccvault faults: the fallback replies to everything, no ping.
/// `{FALLBACK}` is replaced by the fallback's line (to add comments around it).
const SERVER: &str = r#"import json
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")


def handle(msg):
    method = msg.get("method")
    req_id = msg.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": req_id, "result": {"protocolVersion": "2025-06-18"}})
    elif method == "notifications/initialized":
        pass
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": req_id, "result": {"tools": []}})
    else:
{FALLBACK}

for line in sys.stdin:
    handle(json.loads(line))
"#;

const FALLBACK: &str = r#"        send({"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": "Method not found"}})"#;

fn server(fallback_lines: &str) -> String {
    SERVER.replace("{FALLBACK}", fallback_lines)
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn json(dir: &Path, args: &[&str]) -> (i32, serde_json::Value) {
    let out = cmd().current_dir(dir).args(args).args(["--format", "json"]).output().expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {text}\nstderr: {}", String::from_utf8_lossy(&out.stderr))
    });
    (out.status.code().expect("exit code"), value)
}

fn verdict<'a>(report: &'a serde_json::Value, check: &str) -> &'a serde_json::Value {
    report["servers"][0]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["id"] == check)
        .unwrap_or_else(|| panic!("{check} not in report"))
}

fn run_verdict(report: &serde_json::Value, check: &str) -> String {
    report["checks"].as_array().expect("checks").iter().find(|c| c["id"] == check).expect("check")["verdict"]
        .as_str()
        .expect("verdict")
        .to_string()
}

const ALL_FAILING: &[&str] =
    &["ab-001838/notification-no-reply", "ab-001838/default-branch-guard", "ab-001839/ping-support"];

#[test]
fn without_configuration_the_server_fails() {
    let dir = tree(&[("server.py", &server(FALLBACK))]);
    let (code, report) = json(dir.path(), &["."]);
    assert_eq!(code, 1);
    for id in ALL_FAILING {
        assert_eq!(verdict(&report, id)["verdict"], "fail", "{id}");
        assert_eq!(verdict(&report, id)["suppressed"], false, "{id}");
    }
}

#[test]
fn inline_suppression_on_the_line_above_keeps_the_failure_visible() {
    let lines = format!(
        "        # mcp-conform: ignore[ab-001838, ab-001839/ping-support] the proxy in front answers these\n{FALLBACK}"
    );
    let dir = tree(&[("server.py", &server(&lines))]);
    let (code, report) = json(dir.path(), &["."]);
    assert_eq!(code, 0, "every failure is suppressed: {report:#}");
    for id in ALL_FAILING {
        let c = verdict(&report, id);
        assert_eq!(c["verdict"], "fail", "{id} still reports its verdict");
        assert_eq!(c["suppressed"], true, "{id}");
        let f = &c["findings"][0];
        assert_eq!(f["suppressed"], true);
        assert_eq!(f["suppression"]["kind"], "inline");
        assert_eq!(f["suppression"]["reason"], "the proxy in front answers these");
        assert_eq!(f["suppression"]["line"], 19);
        assert_eq!(run_verdict(&report, id), "pass");
    }
    assert_eq!(report["warnings"], serde_json::json!([]));
}

#[test]
fn inline_suppression_on_the_same_line_covers_only_the_named_check() {
    let lines =
        format!("{FALLBACK}  # mcp-conform: ignore[ab-001839/ping-support] ping is answered upstream");
    let dir = tree(&[("server.py", &server(&lines))]);
    let (code, report) = json(dir.path(), &["."]);
    assert_eq!(code, 1);
    assert_eq!(verdict(&report, "ab-001839/ping-support")["suppressed"], true);
    assert_eq!(verdict(&report, "ab-001838/notification-no-reply")["suppressed"], false);
}

#[test]
fn suppression_problems_are_warnings() {
    let lines = format!(
        "        # mcp-conform: ignore[ab-001839/ping-support]\n{FALLBACK}\n\
         # mcp-conform: ignore[ab-001837] nothing fails here\n\
         # mcp-conform: ignore[no-such-check] typo\n\
         # mcp-conform: please ignore this\n"
    );
    let dir = tree(&[("server.py", &server(&lines))]);
    let (_, report) = json(dir.path(), &["."]);
    let warnings: Vec<String> = report["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| format!("{}:{}", w["line"], w["message"].as_str().expect("message")))
        .collect();
    let has = |line: u32, text: &str| {
        warnings.iter().any(|w| w.starts_with(&format!("{line}:")) && w.contains(text))
    };
    assert!(has(19, "without a reason"), "{warnings:#?}");
    assert!(has(21, "unused suppression"), "{warnings:#?}");
    assert!(has(22, "unknown check `no-such-check`"), "{warnings:#?}");
    assert!(has(23, "malformed suppression"), "{warnings:#?}");
    assert_eq!(warnings.len(), 4, "{warnings:#?}");
    // A reasonless suppression still suppresses.
    assert_eq!(
        verdict(&report, "ab-001839/ping-support")["findings"][0]["suppression"]["reason"],
        "no reason given"
    );
}

#[test]
fn the_marker_inside_a_string_is_not_a_directive() {
    let lines = format!("        note = \"mcp-conform: ignore[ab-001839] not a comment\"\n{FALLBACK}");
    let dir = tree(&[("server.py", &server(&lines))]);
    let (_, report) = json(dir.path(), &["."]);
    assert_eq!(verdict(&report, "ab-001839/ping-support")["suppressed"], false);
    assert_eq!(report["warnings"], serde_json::json!([]));
}

#[test]
fn config_select_ignore_and_max_file_size() {
    let dir = tree(&[
        ("server.py", &server(FALLBACK)),
        ("mcp-conform.toml", "select = [\"ab-001838\"]\nignore = [\"ab-001838/initialized-handled\"]\n"),
    ]);
    let (_, report) = json(dir.path(), &["."]);
    let ids: Vec<&str> =
        report["checks"].as_array().expect("checks").iter().map(|c| c["id"].as_str().expect("id")).collect();
    assert_eq!(ids, ["ab-001838/notification-no-reply", "ab-001838/default-branch-guard"]);
    // The command line's --select replaces the file's; its --ignore adds to it.
    let (_, report) = json(dir.path(), &[".", "--select", "ab-001839"]);
    assert_eq!(report["checks"].as_array().expect("checks").len(), 1);
    std::fs::write(dir.path().join("mcp-conform.toml"), "max-file-size = 100\n").expect("write");
    let (_, report) = json(dir.path(), &["."]);
    assert!(report["skipped_files"][0]["reason"].as_str().expect("reason").contains("100-byte size cap"));
}

#[test]
fn config_exclude_and_per_file_ignores() {
    let dir = tree(&[
        ("generated/server.py", &server(FALLBACK)),
        ("legacy/server.py", &server(FALLBACK)),
        (
            "mcp-conform.toml",
            "exclude = [\"generated/\"]\n[per-file-ignores]\n\"legacy/*.py\" = [\"ab-001838\", \"ab-001839\"]\n",
        ),
    ]);
    let (code, report) = json(dir.path(), &["."]);
    let servers = report["servers"].as_array().expect("servers");
    assert_eq!(servers.len(), 1, "generated/ is excluded: {report:#}");
    assert_eq!(servers[0]["path"], "legacy/server.py");
    let f = &verdict(&report, "ab-001839/ping-support")["findings"][0];
    assert_eq!(f["suppression"]["kind"], "per-file-ignores");
    assert_eq!(f["suppression"]["reason"], "per-file-ignores `legacy/*.py` in mcp-conform.toml");
    assert_eq!(code, 0);
    // A file named on the command line is excluded too (pre-commit passes file names).
    let (_, report) = json(dir.path(), &["generated/server.py"]);
    assert_eq!(report["servers"], serde_json::json!([]));
}

#[test]
fn pyproject_table_is_found_from_a_subfolder_and_config_flags_override() {
    let dir = tree(&[
        ("pkg/server.py", &server(FALLBACK)),
        ("pyproject.toml", "[project]\nname = \"x\"\n\n[tool.mcp-conform]\nignore = [\"ab-001839\"]\n"),
        ("other.toml", "ignore = [\"ab-001838\"]\n"),
    ]);
    let (_, report) = json(&dir.path().join("pkg"), &["."]);
    assert_eq!(report["checks"].as_array().expect("checks").len(), 5, "ping ignored by pyproject.toml");
    let (_, report) = json(dir.path(), &["pkg", "--config", "other.toml"]);
    assert_eq!(report["checks"].as_array().expect("checks").len(), 3, "--config replaces the search");
    let (_, report) = json(dir.path(), &["pkg", "--no-config"]);
    assert_eq!(report["checks"].as_array().expect("checks").len(), 6);
}

#[test]
fn config_knowledge_reply_functions_notification_tests_and_sdks() {
    // `emit` and `is_notification` live in a library the scan does not see.
    let guarded = r#"from transportlib import emit, is_notification


def handle(msg):
    if is_notification(msg):
        return
    method = msg["method"]
    if method == "initialize":
        emit({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18"}})
    elif method == "ping":
        emit({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
    else:
        emit({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}})
"#;
    let dir = tree(&[("server.py", guarded)]);
    let (_, before) = json(dir.path(), &["."]);
    std::fs::write(
        dir.path().join("mcp-conform.toml"),
        "reply-functions = [\"emit\"]\nnotification-tests = [\"is_notification\"]\n",
    )
    .expect("write");
    let (code, after) = json(dir.path(), &["."]);
    assert_ne!(
        verdict(&before, "ab-001838/notification-no-reply")["verdict"],
        "pass",
        "without the names nothing shows the guard: {before:#}"
    );
    assert_eq!(verdict(&after, "ab-001838/notification-no-reply")["verdict"], "pass", "{after:#}");
    assert_eq!(verdict(&after, "ab-001839/ping-support")["verdict"], "pass", "{after:#}");
    assert_eq!(code, 0);

    // A server built on an in-house SDK: judged as the SDK's, not skipped as "no server".
    let on_sdk = "from acme_mcp import Server\n\nserver = Server(\"demo\")\n\n\n@server.tool()\ndef add(a, b):\n    return a + b\n";
    let sdk = tree(&[("server.py", on_sdk)]);
    let (_, report) = json(sdk.path(), &["."]);
    assert_eq!(report["servers"], serde_json::json!([]), "unknown SDK: no server seen");
    std::fs::write(sdk.path().join("mcp-conform.toml"), "sdk-imports = [\"acme_mcp\"]\n").expect("write");
    let (code, report) = json(sdk.path(), &["."]);
    assert_eq!(report["servers"][0]["kind"], "sdk", "{report:#}");
    assert_eq!(report["servers"][0]["sdk"], "acme_mcp");
    assert_eq!(code, 0);
}

fn config_error(text: &str) -> String {
    let dir = tree(&[("server.py", &server(FALLBACK)), ("mcp-conform.toml", text)]);
    let out = cmd().current_dir(dir.path()).arg(".").output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "a bad config is a usage error");
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).expect("UTF-8")
}

#[test]
fn config_errors_name_the_file_the_line_and_the_key() {
    let e = config_error("select = [\"ab-001838\"]\nselct = []\n");
    assert!(e.contains("mcp-conform.toml:2:1:") && e.contains("unknown key `selct`"), "{e}");
    let e = config_error("max-file-size = \"big\"\n");
    assert!(e.contains("mcp-conform.toml:1:") && e.contains("key `max-file-size`"), "{e}");
    let e = config_error("select = [\"ab-001838\"\n");
    assert!(e.contains("mcp-conform.toml:"), "{e}");
    let e = config_error("ignore = [\"ab-0018xx\"]\n");
    assert!(e.contains("key `ignore`") && e.contains("`ab-0018xx`"), "{e}");
    let e = config_error("exclude = [\"a/{b\"]\n");
    assert!(e.contains("key `exclude`"), "{e}");
    for e in [config_error("\u{0}\u{1}binary"), config_error("[per-file-ignores]\n\"x\" = \"y\"\n")] {
        assert!(e.starts_with("mcp-conform: error: "), "{e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    let out =
        cmd().args(["fixtures/python/correct_stdio", "--config", "no/such.toml"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read config `no/such.toml`"));
}
