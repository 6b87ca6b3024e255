//! The command line as a user meets it: exit codes, formats, selection, bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

fn cmd() -> Command {
    Command::cargo_bin("mcp-conform").expect("binary is built")
}

/// The JSON report with the timing figure zeroed, the one field that varies between runs.
fn json_report(args: &[&str]) -> (serde_json::Value, String) {
    let out = cmd().args(args).arg("--format").arg("json").output().expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    value["stats"]["elapsed_ms"] = serde_json::json!(0);
    (value, text)
}

#[test]
fn a_passing_server_exits_zero_and_says_so() {
    cmd()
        .arg("fixtures/python/correct_stdio")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 server, 0 failing checks, 0 skipped files"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let plain = cmd().arg("fixtures/python/prefix_guard").output().expect("runs");
    assert!(!plain.stdout.contains(&0x1b), "no escapes off a terminal");
    let coloured = cmd().args(["fixtures/python/prefix_guard", "--color", "always"]).output().expect("runs");
    assert!(coloured.stdout.contains(&0x1b), "escapes with --color always");
    let never = cmd()
        .args(["fixtures/python/prefix_guard", "--color", "never"])
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    assert_eq!(never.stdout, plain.stdout);
}

/// On a terminal (a pseudo-terminal from util-linux `script`), colour is on
/// unless `NO_COLOR` is set.
#[cfg(unix)]
#[test]
fn no_color_is_respected_on_a_terminal() {
    let bin = assert_cmd::cargo::cargo_bin("mcp-conform");
    let line = format!("{} fixtures/python/prefix_guard --quiet", bin.display());
    let on_tty = |no_color: bool| {
        let mut c = std::process::Command::new("script");
        c.args(["-qec", &line, "/dev/null"]).env_remove("NO_COLOR");
        if no_color {
            c.env("NO_COLOR", "1");
        }
        c.output().expect("script (util-linux) runs").stdout
    };
    assert!(on_tty(false).contains(&0x1b), "colour on a terminal");
    assert!(!on_tty(true).contains(&0x1b), "no colour with NO_COLOR");
}

/// `--output` onto something that is not a regular file writes into it: the
/// temporary-file-and-rename dance must never replace a device or a FIFO.
#[cfg(unix)]
#[test]
fn output_to_a_fifo_writes_into_it_and_leaves_it_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("report.pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the FIFO"))
    };
    cmd()
        .args(["fixtures/python/correct_stdio", "--format", "json", "--output"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(0);
    // Checked before joining the reader, which would wait forever on a replaced FIFO.
    assert!(std::fs::symlink_metadata(&fifo).expect("still there").file_type().is_fifo());
    let text = reader.join().expect("reader");
    assert!(text.contains("\"schema\": 1"), "{text}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1, "no temporary file left");
}

#[test]
fn exit_zero_reports_failures_without_failing() {
    cmd()
        .args(["fixtures/python/reply_to_everything", "--exit-zero"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 server, 4 failing checks"));
}

#[test]
fn a_failing_server_exits_one_and_names_the_line() {
    cmd()
        .arg("fixtures/python/reply_to_everything")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("server.py:25:"))
        .stdout(predicate::str::contains("fail  ab-001838/notification-no-reply"));
}

#[test]
fn json_report_follows_the_contract() {
    let (report, _) = json_report(&["fixtures/python/reply_to_everything"]);
    assert_eq!(report["schema"], 1);
    assert_eq!(report["tool"]["name"], "mcp-conform");
    let server = &report["servers"][0];
    assert_eq!(server["language"], "python");
    assert_eq!(server["path"], "server.py");
    assert_eq!(server["kind"], "hand-written");
    assert_eq!(server["transports"], serde_json::json!(["stdio"]));
    let checks = server["checks"].as_array().expect("checks");
    assert_eq!(checks.len(), 6);
    let nnr = &checks[0];
    assert_eq!(nnr["id"], "ab-001838/notification-no-reply");
    assert_eq!(nnr["pattern"], "ab-001838");
    assert_eq!(nnr["verdict"], "fail");
    assert_eq!(nnr["findings"][0]["path"], "server.py");
    assert_eq!(nnr["findings"][0]["line"], 25);
    let run: Vec<&str> = report["checks"]
        .as_array()
        .expect("run checks")
        .iter()
        .map(|c| c["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(run, ["fail", "fail", "fail", "pass", "fail", "skip"]);
    assert_eq!(report["stats"]["files_seen"], 1);
    assert_eq!(report["stats"]["files_parsed"], 1);
}

#[test]
fn one_dispatch_behind_two_transports_is_two_servers_with_one_dispatch() {
    let (report, _) = json_report(&["fixtures/javascript/stdio_and_http"]);
    let servers = report["servers"].as_array().expect("servers");
    let located: Vec<(&str, &str)> = servers
        .iter()
        .map(|s| (s["path"].as_str().unwrap_or(""), s["transports"][0].as_str().unwrap_or("")))
        .collect();
    assert_eq!(located, [("http.js", "http"), ("stdio.js", "stdio")]);
    for server in servers {
        assert_eq!(server["dispatch"]["path"], "dispatch.js", "{server}");
        assert_eq!(server["dispatch"], servers[0]["dispatch"]);
        let evidence = server["evidence"][0].as_str().unwrap_or("");
        assert!(evidence.contains("(dispatch.js:"), "the methods are handled at the dispatch: {evidence}");
    }
    // A server an SDK runs has no dispatch of its own.
    let (report, _) = json_report(&["fixtures/python/sdk_fastmcp"]);
    let server = &report["servers"][0];
    assert_eq!(server["kind"], "sdk", "{server}");
    assert!(server.get("dispatch").is_none(), "{server}");
}

#[test]
fn json_report_is_stable_across_runs() {
    let (a, _) = json_report(&["fixtures"]);
    let (b, _) = json_report(&["fixtures"]);
    assert_eq!(a, b);
    // By path, then by line (as a number: `server.ts:8` before `server.ts:22`).
    let places: Vec<(String, u64)> = a["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| (s["path"].as_str().unwrap_or("").to_string(), s["line"].as_u64().unwrap_or(0)))
        .collect();
    let mut sorted = places.clone();
    sorted.sort();
    assert_eq!(places, sorted, "servers are sorted by path, then line");
}

#[test]
fn json_snapshot_of_a_failing_fixture() {
    let (_, text) = json_report(&["fixtures/rust/catch_all"]);
    let normalized: Vec<String> = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("\"elapsed_ms\"") {
                "    \"elapsed_ms\": 0".to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    insta::assert_snapshot!("catch_all_json", normalized.join("\n"));
}

#[test]
fn select_and_ignore_take_checks_and_patterns() {
    let (report, _) = json_report(&["--select", "ab-001839", "fixtures/python/correct_stdio"]);
    let ids: Vec<&str> =
        report["checks"].as_array().expect("checks").iter().map(|c| c["id"].as_str().unwrap_or("")).collect();
    assert_eq!(ids, ["ab-001839/ping-support"]);
    let (report, _) = json_report(&[
        "--ignore",
        "ab-001838,ab-001835/http-notification-202",
        "fixtures/python/correct_stdio",
    ]);
    let ids: Vec<&str> =
        report["checks"].as_array().expect("checks").iter().map(|c| c["id"].as_str().unwrap_or("")).collect();
    assert_eq!(ids, ["ab-001837/version-negotiation", "ab-001839/ping-support"]);
}

#[test]
fn ignoring_the_failing_checks_turns_exit_code_to_zero() {
    cmd().args(["--select", "ab-001837", "fixtures/python/reply_to_everything"]).assert().code(0);
}

#[test]
fn unknown_check_is_a_usage_error() {
    cmd()
        .args(["--select", "ab-009999/nope", "fixtures"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown check or pattern `ab-009999/nope`"));
}

#[test]
fn missing_path_is_an_error_with_one_line() {
    cmd()
        .arg("does/not/exist")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read `does/not/exist`: no such file or directory"));
}

#[test]
fn list_checks_prints_every_check() {
    let out = cmd().arg("--list-checks").output().expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    for id in [
        "ab-001838/notification-no-reply",
        "ab-001838/default-branch-guard",
        "ab-001838/initialized-handled",
        "ab-001837/version-negotiation",
        "ab-001839/ping-support",
        "ab-001835/http-notification-202",
    ] {
        assert!(text.contains(id), "{id} missing from --list-checks");
    }
}

#[test]
fn no_server_means_every_check_skips() {
    let (report, _) = json_report(&["fixtures/python/no_mcp"]);
    assert_eq!(report["servers"], serde_json::json!([]));
    for c in report["checks"].as_array().expect("checks") {
        assert_eq!(c["verdict"], "skip");
        assert_eq!(c["reason"], "no MCP server found");
    }
    cmd()
        .arg("fixtures/python/no_mcp")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("No MCP server found"));
}

#[test]
fn output_file_is_written_and_stdout_stays_empty() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("report.json");
    cmd()
        .args(["--format", "json", "--output"])
        .arg(&out)
        .arg("fixtures/python/correct_stdio")
        .assert()
        .code(0)
        .stdout(predicate::str::is_empty());
    let text = std::fs::read_to_string(&out).expect("report written");
    assert!(text.contains("\"schema\": 1"));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn bad_files_are_skipped_with_a_reason_and_the_scan_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    write(&root.join("binary.py"), b"jsonrpc\0\0\x01\x02");
    write(&root.join("latin1.py"), b"# jsonrpc caf\xe9\n");
    write(&root.join("utf16.py"), b"\xff\xfej\0s\0o\0n\0");
    write(&root.join("big.py"), format!("# jsonrpc\n{}", "x = 1\n".repeat(500_000)).as_bytes());
    write(&root.join("broken.py"), b"def handle(msg):\n    if msg['method'] == 'ping':\n        return {'jsonrpc': '2.0', 'id': msg['id'], 'result': {}\n");
    std::fs::copy("fixtures/python/correct_stdio/server.py", root.join("server.py")).expect("copy");
    let (report, _) = json_report(&[root.to_str().expect("UTF-8 temp path")]);
    let skipped = report["skipped_files"].as_array().expect("skipped files");
    let reason = |name: &str| {
        skipped
            .iter()
            .find(|s| s["path"] == name)
            .map(|s| s["reason"].as_str().unwrap_or("").to_string())
            .unwrap_or_else(|| panic!("{name} is not in skipped_files: {skipped:?}"))
    };
    assert!(reason("binary.py").contains("binary"));
    assert!(reason("latin1.py").contains("not valid UTF-8"));
    assert!(reason("utf16.py").contains("UTF-16"));
    assert!(reason("big.py").contains("size cap"));
    assert_eq!(report["servers"][0]["path"], "server.py", "the good file is still judged");
    let errors = report["syntax_errors"].as_array().expect("syntax errors");
    assert!(errors.iter().any(|e| e["path"] == "broken.py"), "broken.py is listed with its syntax error");
}

#[test]
fn the_scanned_tree_is_left_unchanged() {
    fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for entry in walk(dir) {
            out.push((entry.display().to_string(), std::fs::read(&entry).expect("read")));
        }
        out.sort();
        out
    }
    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for e in std::fs::read_dir(dir).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() { files.extend(walk(&p)) } else { files.push(p) }
        }
        files
    }
    let before = snapshot(Path::new("fixtures"));
    cmd().arg("fixtures").assert().code(1);
    assert_eq!(before, snapshot(Path::new("fixtures")));
}

#[cfg(unix)]
#[test]
fn special_files_and_links_are_reported_not_followed() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::copy("fixtures/python/correct_stdio/server.py", root.join("server.py")).expect("copy");
    // A FIFO must not block the scan: nothing ever writes to it.
    let fifo = root.join("pipe.py");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(status.success());
    // A socket, and a device file where the machine lets us make one (root in a
    // container may not): neither is opened.
    let _socket = std::os::unix::net::UnixListener::bind(root.join("sock.py")).expect("bind a socket");
    let device = std::process::Command::new("mknod")
        .arg(root.join("null.py"))
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    // A link loop and a link out of the tree.
    std::os::unix::fs::symlink(root.join("loop.py"), root.join("loop.py")).expect("symlink");
    std::os::unix::fs::symlink(root, root.join("back")).expect("symlink");
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("secret.py"), "jsonrpc = 1\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.py"), root.join("link.py")).expect("symlink");
    // A file name that is not UTF-8.
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9.py");
    std::fs::write(root.join(odd), "def f():\n    return 1\n").expect("write");
    // CRLF line endings and an empty file.
    let crlf = std::fs::read_to_string("fixtures/python/reply_to_everything/server.py")
        .expect("read")
        .replace('\n', "\r\n");
    std::fs::create_dir_all(root.join("crlf")).expect("mkdir");
    std::fs::write(root.join("crlf/server.py"), crlf).expect("write");
    std::fs::write(root.join("empty.py"), "").expect("write");

    let out = cmd()
        .args(["--format", "json"])
        .arg(root)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "the CRLF server fails its checks: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let skipped = report["skipped_files"].to_string();
    assert!(skipped.contains("link.py") && skipped.contains("symbolic link"), "{skipped}");
    assert!(skipped.contains("\"loop.py\",\"reason\":\"symbolic link: not followed"), "{skipped}");
    assert!(!skipped.contains("empty.py"), "an empty file is read like any other: {skipped}");
    assert!(!report.to_string().contains("back/"), "a link to a folder above is not walked");
    assert!(skipped.contains("pipe.py") && skipped.contains("not a regular file"), "{skipped}");
    assert!(skipped.contains("\"sock.py\",\"reason\":\"not a regular file"), "{skipped}");
    if device {
        assert!(skipped.contains("\"null.py\",\"reason\":\"not a regular file"), "{skipped}");
    } else {
        eprintln!("mknod is not permitted here: the device-file case was not exercised");
    }
    let crlf_server = report["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .find(|s| s["path"] == "crlf/server.py")
        .expect("CRLF server found");
    assert_eq!(crlf_server["checks"][0]["verdict"], "fail");
    assert_eq!(crlf_server["checks"][0]["findings"][0]["line"], 25, "lines are counted the same with CRLF");
    assert!(!report.to_string().contains("secret.py"), "the link out of the tree is not followed");

    // Named on the command line, a FIFO is still not opened.
    let out = cmd()
        .args(["--format", "json"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert!(report["skipped_files"].to_string().contains("not a regular file"), "{report}");
}

/// A file whose name is not UTF-8 is read by its own path (the name shown is lossy):
/// the server in it is found, not skipped as unreadable.
#[cfg(unix)]
#[test]
fn a_server_in_a_file_named_in_latin_1_is_read() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let server = std::fs::read("fixtures/python/reply_to_everything/server.py").expect("read");
    std::fs::create_dir_all(dir.path().join("srv")).expect("mkdir");
    write(&dir.path().join("srv").join(std::ffi::OsStr::from_bytes(b"caf\xe9.py")), &server);
    let out = cmd().args(["--format", "json"]).arg(dir.path()).output().expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert!(!report["skipped_files"].to_string().contains("cannot read"), "{report}");
    let servers = report["servers"].as_array().expect("servers");
    assert_eq!(servers.len(), 1, "{report}");
    assert_eq!(servers[0]["path"], "srv/caf\u{fffd}.py");
    assert_eq!(servers[0]["checks"][0]["verdict"], "fail", "the server answers notifications");
}

/// A deeply nested file beside a correct server: the file is skipped as nested too
/// deep, and the server is still judged.
fn assert_deep_file_skipped(name: &str, text: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(name), text).expect("write");
    std::fs::copy("fixtures/python/correct_stdio/server.py", dir.path().join("server.py")).expect("copy");
    let out = cmd()
        .args(["--format", "json"])
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let skipped = report["skipped_files"].to_string();
    assert!(skipped.contains(name) && skipped.contains("nested more than"), "{skipped}");
    assert_eq!(report["servers"][0]["path"], "server.py", "the rest of the scan goes on");
}

#[test]
fn deep_nesting_is_skipped_with_a_reason() {
    // One bracket per line: deep, but not minified (that is another skip reason).
    let deep = format!("# jsonrpc\nx = {}{}\n", "[\n".repeat(100_000), "]\n".repeat(100_000));
    assert_deep_file_skipped("deep.py", &deep);
}

#[test]
fn deep_go_item_literals_are_skipped_with_a_reason() {
    // Items written without their type nest as literals of literals (`[][]T{{..}}`).
    let deep = format!(
        "package main\n\n// jsonrpc\nvar x = {}T\n{}{}\n",
        "[]".repeat(2_000),
        "{\n".repeat(2_000),
        "}\n".repeat(2_000)
    );
    assert_deep_file_skipped("deep.go", &deep);
}

/// An unreadable folder and an unreadable file are listed with the reason and
/// the rest is judged. Permissions do not bind root, so as root the scan runs as
/// `nobody` through util-linux `setpriv`.
#[cfg(unix)]
#[test]
fn unreadable_folders_and_files_are_reported_and_the_scan_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    for sub in ["locked", "ok"] {
        std::fs::create_dir(root.join(sub)).expect("mkdir");
        std::fs::copy("fixtures/python/correct_stdio/server.py", root.join(sub).join("server.py"))
            .expect("copy");
    }
    std::fs::copy("fixtures/python/correct_stdio/server.py", root.join("secret.py")).expect("copy");
    let mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod");
    mode(root, 0o755);
    mode(&root.join("ok"), 0o755);
    mode(&root.join("locked"), 0o000);
    mode(&root.join("secret.py"), 0o000);
    let uid = std::process::Command::new("id").arg("-u").output().expect("id runs");
    let as_root = String::from_utf8_lossy(&uid.stdout).trim() == "0";
    // A copy of the binary that `nobody` can run wherever the checkout lives.
    let bin_dir = tempfile::tempdir().expect("temp dir");
    mode(bin_dir.path(), 0o755);
    let bin = bin_dir.path().join("mcp-conform");
    std::fs::copy(assert_cmd::cargo::cargo_bin("mcp-conform"), &bin).expect("copy the binary");
    mode(&bin, 0o755);
    let mut c = if as_root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(&bin);
        c
    } else {
        std::process::Command::new(&bin)
    };
    let out = c.arg(root).args(["--format", "json", "--no-config"]).output().expect("runs");
    mode(&root.join("locked"), 0o755);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let skipped = report["skipped_files"].to_string();
    assert!(
        skipped.contains("{\"path\":\"locked\",\"reason\":\"cannot read: permission denied\"}"),
        "{skipped}"
    );
    assert!(
        skipped.contains("{\"path\":\"secret.py\",\"reason\":\"cannot read: permission denied\"}"),
        "{skipped}"
    );
    let servers: Vec<&str> = report["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["path"].as_str().expect("path"))
        .collect();
    assert_eq!(servers, ["ok/server.py"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn generated_and_minified_files_are_skipped_unless_configured() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = std::fs::read_to_string("fixtures/python/reply_to_everything/server.py").expect("fixture");
    std::fs::write(dir.path().join("gen.py"), format!("# @generated by a tool\n{server}")).expect("write");
    let scan = |extra: &[&str]| -> serde_json::Value {
        let out = cmd()
            .args(["--format", "json", "--exit-zero"])
            .args(extra)
            .arg(dir.path())
            .output()
            .expect("runs");
        serde_json::from_slice(&out.stdout).expect("valid JSON")
    };
    let report = scan(&["--no-config"]);
    let skipped = report["skipped_files"].to_string();
    assert!(skipped.contains("gen.py") && skipped.contains("generated file (`@generated`)"), "{skipped}");
    assert_eq!(report["servers"].as_array().map(Vec::len), Some(0), "{report}");
    std::fs::write(dir.path().join("mcp-conform.toml"), "include-generated = true\n").expect("write");
    let report = scan(&[]);
    assert_eq!(report["servers"][0]["path"], "gen.py", "{report}");
}

#[test]
fn a_file_named_by_an_absolute_path_is_reported_by_that_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("server.py");
    std::fs::copy("fixtures/python/reply_to_everything/server.py", &file).expect("copy");
    let absolute = file.to_str().expect("UTF-8 temp path");
    let (report, _) = json_report(&[absolute]);
    assert_eq!(report["servers"][0]["path"], absolute);
    assert_eq!(report["servers"][0]["checks"][0]["findings"][0]["path"], absolute);
}

/// A pass names the line that decided it: the route's 202, not a read of another
/// service's answer (`response.json()` on what `fetch` returned) made before it.
#[test]
fn a_202_pass_names_the_routes_answer_not_a_fetch_read() {
    let (report, _) = json_report(&["fixtures/javascript/fetch_response_read", "--no-config"]);
    let check = report["servers"][0]["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["id"] == "ab-001835/http-notification-202")
        .expect("the 202 check");
    assert_eq!(check["verdict"], "pass");
    let reason = check["reason"].as_str().unwrap_or("");
    assert!(reason.contains("server.mjs:34"), "decided by the route's 202: {reason}");
}
