//! Snapshots of every output format for a failing and a passing fixture, as the
//! binary prints them off a terminal (no colour, 100 columns, no hyperlinks).
//! Only what varies between machines and runs is normalised: the elapsed time
//! and the absolute folder SARIF's %SRCROOT% stands for.

use assert_cmd::Command;

const FAILING: &str = "fixtures/python/reply_to_everything";
const PASSING: &str = "fixtures/python/correct_stdio";

fn output(args: &[&str]) -> String {
    let out = Command::cargo_bin("mcp-conform")
        .expect("binary is built")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .expect("runs");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let root = format!("file://{}/", env!("CARGO_MANIFEST_DIR"));
    text.replace(&root, "file:///ROOT/")
        .lines()
        .map(|l| if l.trim_start().starts_with("\"elapsed_ms\"") { "    \"elapsed_ms\": 0" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

macro_rules! snapshots {
    ($($name:ident: [$($arg:expr),*];)*) => {
        $(
            #[test]
            fn $name() {
                insta::assert_snapshot!(stringify!($name), output(&[$($arg),*]));
            }
        )*
    };
}

snapshots! {
    human_failing: [FAILING];
    human_passing: [PASSING];
    human_quiet_failing: [FAILING, "--quiet"];
    github_failing: [FAILING, "--format", "github"];
    github_passing: [PASSING, "--format", "github"];
    json_failing: [FAILING, "--format", "json"];
    json_passing: [PASSING, "--format", "json"];
    sarif_failing: [FAILING, "--format", "sarif"];
    sarif_passing: [PASSING, "--format", "sarif"];
    explain_ping: ["explain", "ab-001839/ping-support"];
    checks_list: ["checks"];
}
