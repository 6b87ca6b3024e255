use clap::{Parser, ValueEnum};
use mcp_conform::check::{CHECKS, CheckDef};
use mcp_conform::report::{human, json};
use mcp_conform::scan::{ScanOptions, scan};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Static auditor for MCP servers: finds hand-written JSON-RPC dispatch and
/// judges its lifecycle handling (notifications, initialize, ping, HTTP 202).
#[derive(Parser, Debug)]
#[command(name = "mcp-conform", version, about)]
struct Cli {
    /// Files or folders to scan.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the report to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Run only these checks (a check id, or a pattern id for all its checks); comma-separated or repeated.
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    select: Vec<String>,
    /// Skip these checks (a check id or a pattern id).
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    ignore: Vec<String>,
    /// Skip files larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1024 * 1024)]
    max_file_size: u64,
    /// List the checks and exit.
    #[arg(long)]
    list_checks: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Human,
    Json,
}

fn matches(check: &CheckDef, id: &str) -> bool {
    check.id == id || check.pattern() == id
}

fn selected(cli: &Cli) -> Result<Vec<&'static CheckDef>, String> {
    for id in cli.select.iter().chain(&cli.ignore) {
        if !CHECKS.iter().any(|c| matches(c, id)) {
            return Err(format!("unknown check or pattern `{id}` (see --list-checks)"));
        }
    }
    Ok(CHECKS
        .iter()
        .filter(|c| cli.select.is_empty() || cli.select.iter().any(|id| matches(c, id)))
        .filter(|c| !cli.ignore.iter().any(|id| matches(c, id)))
        .collect())
}

/// Writes through a temporary file and a rename, so a reader never sees half a report.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn run(cli: Cli) -> Result<bool, String> {
    if cli.list_checks {
        for c in CHECKS {
            let title = mcp_conform::catalog::check(c.id).map(|(_, e)| e.title.as_str()).unwrap_or("");
            println!("{:<36}  {}", c.id, title);
        }
        return Ok(false);
    }
    let mut opts = ScanOptions::new(cli.paths.clone());
    opts.checks = selected(&cli)?;
    opts.max_file_size = cli.max_file_size;
    let report = scan(&opts)?;
    let text = match cli.format {
        Format::Human => human::render(&report),
        Format::Json => json::render(&report),
    };
    match &cli.output {
        Some(path) => {
            write_atomically(path, &text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout.write_all(text.as_bytes())
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                return Err(format!("cannot write the report: {e}"));
            }
        }
    }
    Ok(report.failing())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::from(1),
        Err(message) => {
            eprintln!("mcp-conform: error: {message}");
            ExitCode::from(2)
        }
    }
}
