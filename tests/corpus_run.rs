//! `corpus/run`, the accuracy measure, run on a small git repository built here
//! from two of our fixtures: the export, the scan, matching servers to rows,
//! every tally, a missing repository, a trap, and a run error.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").trim().to_string()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        if entry.file_name() == "expected.toml" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

const HEADER: &str = "id\tlanguage\tkind\trepo\tcommit\tdispatch_path\tdispatch_lines\tsdk\ttransport\t\
notification-no-reply\tdefault-branch-guard\tinitialized-handled\tversion-negotiation\tping-support\t\
http-notification-202\tnotes";

fn row(id: &str, kind: &str, repo: &str, commit: &str, path: &str, labels: &str) -> String {
    let labels = labels.split(' ').collect::<Vec<_>>().join("\t");
    format!("{id}\tgo\t{kind}\t{repo}\t{commit}\t{path}\t1-10\tnone\tstdio\t{labels}\tR1..R6 test row")
}

struct Run {
    code: Option<i32>,
    out: String,
}

fn corpus_run(repos: &Path, tsv: &Path, extra: &[&str]) -> Run {
    let out = Command::new("python3")
        .arg(root().join("corpus/run"))
        .arg("--repos")
        .arg(repos)
        .arg("--bin")
        .arg(env!("CARGO_BIN_EXE_mcp-conform"))
        .arg("--corpus")
        .arg(tsv)
        .args(extra)
        .output()
        .expect("python3 runs");
    Run {
        code: out.status.code(),
        out: String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    }
}

/// A repository `acme/<name>` in the `owner+name/repo` layout holding the given
/// fixtures, each at its folder (`""` for the top); returns its commit.
fn fixture_repository(repos: &Path, name: &str, fixtures: &[(&str, &str)]) -> String {
    let work = repos.join("work");
    for (fixture, at) in fixtures {
        copy_tree(&root().join("fixtures").join(fixture), &work.join(at));
    }
    git(&work, &["init", "--quiet"]);
    git(&work, &["add", "."]);
    git(&work, &["commit", "--quiet", "-m", "fixtures"]);
    let commit = git(&work, &["rev-parse", "HEAD"]);
    std::fs::create_dir_all(repos.join(format!("acme+{name}"))).expect("mkdir");
    let bare = repos.join(format!("acme+{name}/repo"));
    git(repos, &["clone", "--quiet", "--bare", work.to_str().expect("path"), bare.to_str().expect("path")]);
    std::fs::remove_dir_all(&work).expect("rm");
    commit
}

/// `acme/servers`: the ccvault-shaped Go server under `svc/` and a non-MCP Python
/// program under `tool/`; returns its commit.
fn build_repository(repos: &Path) -> String {
    fixture_repository(repos, "servers", &[("go/ccvault_bug", "svc"), ("python/no_mcp", "tool")])
}

#[test]
fn corpus_run_scores_rows_against_their_labels() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let repos = scratch.path().join("repos");
    let commit = build_repository(&repos);
    let server = "svc/internal/mcp/server.go";
    let tool: String = std::fs::read_dir(root().join("fixtures/python/no_mcp"))
        .expect("fixture")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".py"))
        .map(|n| format!("tool/{n}"))
        .expect("a Python file");
    let rows = [
        // The scanner's verdicts on this fixture: fail fail fail pass fail skip.
        row("A1", "hand", "acme/servers", &commit, server, "fail fail fail pass fail skip"),
        // Two labels the scanner does not give: one false fail, one skip where a fail was due.
        row("A2", "hand", "acme/servers", &commit, server, "pass fail fail pass fail fail"),
        // One unclear label: not counted.
        row("A3", "hand", "acme/servers", &commit, server, "fail fail fail unclear fail skip"),
        row("A4", "trap", "acme/servers", &commit, &tool, "skip skip skip skip skip skip"),
        row("A5", "hand", "acme/gone", &commit, server, "fail fail fail pass fail skip"),
    ];
    let tsv = scratch.path().join("servers.tsv");
    std::fs::write(&tsv, format!("{HEADER}\n{}\n", rows.join("\n"))).expect("write");

    let run = corpus_run(&repos, &tsv, &[]);
    let out = &run.out;
    assert_eq!(run.code, Some(0), "{out}");
    // A1: every cell agrees; A2: R1 and R6 disagree.
    assert!(out.contains("A1         go         hand  f/f       f/f       f/f       p/p       f/f       s/s       1 server(s)"), "{out}");
    assert!(out.contains("p/f!"), "{out}");
    assert!(out.contains("f/s!"), "{out}");
    assert!(
        out.contains("false fails (1):\n  A2 R1 notification-no-reply: label pass, scanner fail"),
        "{out}"
    );
    assert!(
        out.contains("missed fails (1):\n  A2 R6 http-notification-202: label fail, scanner skip"),
        "{out}"
    );
    assert!(out.contains("skips where due (1):\n  A2 R6 http-notification-202"), "{out}");
    assert!(out.contains("traps reported as servers (0):"), "{out}");
    // The trap row's tree holds the server the other rows name: it is listed, not scored.
    assert!(out.contains("other servers reported in the rows' trees (1, 1 with a failing check"), "{out}");
    assert!(out.contains(&format!("  A4: {server}:")), "{out}");
    assert!(out.contains(" +1 other, "), "{out}");
    assert!(out.contains("rows skipped, repository or commit not fetched (1): A5"), "{out}");
    assert!(out.contains("A5         go         hand  skipped: repository acme/gone not in"), "{out}");
    // 4 rows x 6 cells, one unclear: 23 judged, 21 agree.
    assert!(out.trim_end().ends_with("agreement 21/23 = 91.3%"), "{out}");
    assert!(out.contains("false-fail rate 4.3%, skips where due 4.3%"), "{out}");

    // A trap whose paths hold a server is reported as such.
    let trap = row("B1", "trap", "acme/servers", &commit, "svc/", "skip skip skip skip skip skip");
    std::fs::write(&tsv, format!("{HEADER}\n{trap}\n")).expect("write");
    let run = corpus_run(&repos, &tsv, &[]);
    assert!(
        run.out.contains("traps reported as servers (1):\n  B1: svc/internal/mcp/server.go:"),
        "{}",
        run.out
    );

    // A commit the fetched copy lacks (a shallow copy, a force push) skips the row.
    let missing = "0".repeat(40);
    let absent = row("C1", "hand", "acme/servers", &missing, server, "fail fail fail pass fail skip");
    std::fs::write(&tsv, format!("{HEADER}\n{absent}\n")).expect("write");
    let run = corpus_run(&repos, &tsv, &[]);
    assert_eq!(run.code, Some(0), "{}", run.out);
    assert!(
        run.out.contains("C1         go         hand  skipped: commit 000000000000 is not in"),
        "{}",
        run.out
    );
    // Exports kept between runs: a row whose commit is missing stays skipped (no empty
    // folder is left behind to be taken for its export the next time).
    let kept = scratch.path().join("kept");
    for _ in 0..2 {
        let run = corpus_run(&repos, &tsv, &["--keep", kept.to_str().expect("path")]);
        assert!(run.out.contains("rows skipped, repository or commit not fetched (1): C1"), "{}", run.out);
    }

    // A scanner that fails is a run error: exit 1, and the row is named.
    let first = &rows[0];
    std::fs::write(&tsv, format!("{HEADER}\n{first}\n")).expect("write");
    let out = Command::new("python3")
        .arg(root().join("corpus/run"))
        .args(["--repos", repos.to_str().expect("path"), "--bin", "/bin/false", "--corpus"])
        .arg(&tsv)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("run errors (1):\n  A1: scanner exit 1"), "{text}");

    // A malformed row is a usage error: exit 2 with the line.
    std::fs::write(&tsv, format!("{HEADER}\nX1\tgo\n")).expect("write");
    let run = corpus_run(&repos, &tsv, &[]);
    assert_eq!(run.code, Some(2), "{}", run.out);
    assert!(run.out.contains("servers.tsv:2: 2 fields, expected 16"), "{}", run.out);
}

/// One dispatch behind a stdio loop and an HTTP handler is two servers, each located at
/// its entry: a row naming the dispatch file is matched to those over its transports.
#[test]
fn a_row_takes_the_servers_dispatching_in_its_files_over_its_transports() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let repos = scratch.path().join("repos");
    let commit = fixture_repository(&repos, "relay", &[("javascript/stdio_and_http", "")]);
    let row = |id: &str, transport: &str, labels: &str| {
        let labels = labels.split(' ').collect::<Vec<_>>().join("\t");
        format!(
            "{id}\tjavascript\thand\tacme/relay\t{commit}\tdispatch.js\t1-20\tnone\t{transport}\t{labels}\tR1..R6 test row"
        )
    };
    let rows = [
        // The fixture's verdicts: HTTP passes all six; stdio fails R1 and R2, skips R6.
        row("E1", "http", "pass pass pass pass pass pass"),
        row("E2", "stdio", "fail fail pass pass pass skip"),
        row("E3", "both", "fail fail pass pass pass pass"),
    ];
    let tsv = scratch.path().join("servers.tsv");
    std::fs::write(&tsv, format!("{HEADER}\n{}\n", rows.join("\n"))).expect("write");
    let run = corpus_run(&repos, &tsv, &[]);
    let out = &run.out;
    assert_eq!(run.code, Some(0), "{out}");
    assert!(out.contains("E1         javascript hand  p/p       p/p       p/p       p/p       p/p       p/p       1 server(s) +1 other"), "{out}");
    assert!(out.contains("E2         javascript hand  f/f       f/f       p/p       p/p       p/p       s/s       1 server(s) +1 other"), "{out}");
    assert!(out.contains("E3         javascript hand  f/f       f/f       p/p       p/p       p/p       p/p       2 server(s),"), "{out}");
    assert!(out.trim_end().ends_with("agreement 18/18 = 100.0%"), "{out}");
}

/// The corpus itself is well-formed: the runner's own parser accepts it, and every
/// row's kind, verdicts and commit are of the right form.
#[test]
fn the_corpus_file_parses() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let run = corpus_run(scratch.path(), &root().join("corpus/servers.tsv"), &["--only", "no-such-row"]);
    assert_eq!(run.code, Some(0), "{}", run.out);
    assert!(run.out.contains("agreement 0/0 = -"), "{}", run.out);
}
