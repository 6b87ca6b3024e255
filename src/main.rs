use clap::{Args, Parser, Subcommand, ValueEnum};
use mcp_conform::check::CHECKS;
use mcp_conform::config;
use mcp_conform::report::{explain, github, human, json, sarif};
use mcp_conform::scan::{ScanOptions, scan};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The analysis forks and joins many small maps and values: an allocator built for
/// many small, short-lived allocations across threads keeps that cheap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Static auditor for MCP servers: finds hand-written JSON-RPC dispatch and
/// judges its lifecycle handling (notifications, initialize, ping, HTTP 202).
///
/// `mcp-conform [PATHS]` is `mcp-conform check [PATHS]`. Exit status: 0 when no
/// check fails, 1 when one does, 2 on a usage or configuration error.
#[derive(Parser, Debug)]
#[command(name = "mcp-conform", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    scan: ScanArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Scan files or folders (the default command).
    Check(ScanArgs),
    /// Print a check's or a pattern's catalog entry: what it checks, why, examples, the fix.
    Explain {
        /// A check id (`ab-001838/notification-no-reply`), its short name
        /// (`notification-no-reply`) or a pattern id (`ab-001838`).
        id: String,
    },
    /// List every check.
    Checks,
}

#[derive(Args, Debug, Default)]
struct ScanArgs {
    /// Files or folders to scan.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the report to this file instead of standard output (written atomically).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Run only these checks (a check id, or a pattern id for all its checks); comma-separated or
    /// repeated. Replaces the configuration's `select`.
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    select: Vec<String>,
    /// Skip these checks (a check id or a pattern id); added to the configuration's `ignore`.
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    ignore: Vec<String>,
    /// Skip files larger than this many bytes [default: 2097152, or the configuration's].
    #[arg(long, value_name = "BYTES")]
    max_file_size: Option<u64>,
    /// Read this configuration file instead of searching for one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    no_config: bool,
    /// Human format: print failing checks and errors only.
    #[arg(long, short)]
    quiet: bool,
    /// Exit 0 even when a check fails (errors still exit 2).
    #[arg(long)]
    exit_zero: bool,
    /// When to colour the human format (`NO_COLOR` is respected under `auto`).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// JSON format: add each server's analysis time in milliseconds (`analysis_ms`), which
    /// varies from run to run, and the evaluation steps it took (`analysis_steps`), which
    /// do not.
    #[arg(long)]
    timings: bool,
    /// List the checks and exit (same as `mcp-conform checks`).
    #[arg(long, hide = true)]
    list_checks: bool,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
enum Format {
    /// Diagnostics with source snippets, then a servers × checks table.
    #[default]
    Human,
    /// The full report as JSON (a stable contract).
    Json,
    /// GitHub Actions workflow annotations.
    Github,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
}

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

/// The scan's options: the configuration first, then the command line over it.
fn options(args: &ScanArgs) -> Result<ScanOptions, String> {
    let loaded = if args.no_config {
        config::Loaded::default()
    } else if let Some(file) = &args.config {
        config::load_file(file)?
    } else {
        config::discover(args.paths.first().map(PathBuf::as_path).unwrap_or(Path::new(".")))?
    };
    let mut opts = ScanOptions::new(args.paths.clone());
    opts.configure(&loaded)?;
    for (flag, ids) in [("--select", &args.select), ("--ignore", &args.ignore)] {
        if let Some(id) = ids.iter().find(|id| !CHECKS.iter().any(|c| c.is_named(id))) {
            return Err(format!("{flag}: unknown check or pattern `{id}` (see `mcp-conform checks`)"));
        }
    }
    if !args.select.is_empty() {
        opts.checks = CHECKS.iter().filter(|c| args.select.iter().any(|id| c.is_named(id))).collect();
        opts.checks.retain(|c| !loaded.config.ignore.iter().any(|id| c.is_named(id)));
    }
    opts.checks.retain(|c| !args.ignore.iter().any(|id| c.is_named(id)));
    if let Some(max) = args.max_file_size {
        opts.max_file_size = max;
    }
    opts.timings = args.timings;
    Ok(opts)
}

/// Writes through a temporary file and a rename, so a reader never sees half a report.
/// A target that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a
/// FIFO) is written in place: renaming over it would replace the device.
fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return std::fs::OpenOptions::new().write(true).open(path)?.write_all(text.as_bytes());
    }
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

fn print(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write the report: {e}")),
        _ => Ok(()),
    }
}

fn human_style(args: &ScanArgs) -> human::Style {
    let terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    let width = if terminal { terminal_width().unwrap_or(100) } else { 100 };
    human::Style { color, width, quiet: args.quiet }
}

/// The terminal's width, else `$COLUMNS`; never narrower than 40 columns.
fn terminal_width() -> Option<usize> {
    let measured = terminal_size::terminal_size().map(|(w, _)| usize::from(w.0));
    measured.or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok())).map(|w: usize| w.max(40))
}

fn run_scan(args: &ScanArgs) -> Result<bool, String> {
    if args.list_checks {
        print(&explain::list())?;
        return Ok(false);
    }
    let opts = options(args)?;
    let report = scan(&opts)?;
    let text = match args.format {
        Format::Human => human::render(&report, &human_style(args)),
        Format::Json => json::render(&report),
        Format::Github => github::render(&report),
        Format::Sarif => sarif::render(&report),
    };
    match &args.output {
        Some(path) => {
            write_atomically(path, &text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?
        }
        None => print(&text)?,
    }
    Ok(report.failing() && !args.exit_zero)
}

fn run(cli: Cli) -> Result<bool, String> {
    match cli.command {
        None => run_scan(&cli.scan),
        Some(Command::Check(args)) => run_scan(&args),
        Some(Command::Checks) => print(&explain::list()).map(|_| false),
        Some(Command::Explain { id }) => {
            let text = explain::explain(&id)
                .ok_or_else(|| format!("unknown check or pattern `{id}` (see `mcp-conform checks`)"))?;
            print(&text).map(|_| false)
        }
    }
}

/// mimalloc's options, by their index in its `mi_option_e` (the same in its v2 and v3).
const MI_OPTION_ARENA_EAGER_COMMIT: i32 = 4;
const MI_OPTION_ALLOW_LARGE_OS_PAGES: i32 = 6;
const MI_OPTION_PURGE_DELAY: i32 = 15;
const MI_OPTION_ARENA_RESERVE: i32 = 23;
/// Arenas reserved 64 MiB at a time (in KiB), not 1 GiB: less held at the peak.
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 * 1024;

/// Memory is committed as it is used and given back 1 ms after it is freed: the
/// peak stays near that of the system allocator (the scan's memory comes and goes
/// per file and per server). Given back at once (a delay of 0), every free of a
/// page was an `madvise` whose TLB shootdown interrupted the other threads: 15% of
/// the CPU time on a tree of servers.
extern "C" fn set_allocator_options() {
    // SAFETY: setting an option only changes later allocation policy; no allocation
    // is in flight on another thread this early.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_LARGE_OS_PAGES, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 1);
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB);
    }
}

/// The options must be set before the first allocation, which reserves the first
/// arena: the runtime allocates before `main`, so they are set by an initialiser
/// that runs first (set in `main` they came too late, and the first arena was
/// reserved at 1 GiB and committed eagerly).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static ALLOCATOR_OPTIONS: extern "C" fn() = set_allocator_options;

fn main() -> ExitCode {
    // Elsewhere, as early as `main` allows.
    #[cfg(not(target_os = "linux"))]
    set_allocator_options();
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
