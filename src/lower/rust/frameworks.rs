//! What Rust's libraries are to the lowering, as data: the calls that end the process
//! or start work beside it, the methods that only convert or unwrap a value, and
//! the web frameworks' response constructors and reply functions. (Routes and
//! axum/actix extractors are still in `mod.rs`.)

/// HTTP servers whose handlers take the crate's own `Request` and build its
/// `Response` by constructor (tiny_http, Cloudflare's workers-rs): a function of a
/// file that uses the crate and takes that request type answers HTTP, with what the
/// constructors build.
pub struct RequestCrate {
    pub krate: &'static str,
    pub request: &'static str,
    pub response: &'static str,
    /// `Response::name(..)` and what it answers.
    pub constructors: &'static [(&'static str, Answer)],
}

/// What a response constructor answers.
#[derive(Clone, Copy)]
pub enum Answer {
    /// Status 200 with its first argument as the body.
    Body,
    /// Status 200, no body.
    Empty,
    /// No body, its first argument the status.
    EmptyWithStatus,
    /// Its first argument the body, its second the status.
    BodyWithStatus,
}

pub const REQUEST_CRATES: &[RequestCrate] = &[
    RequestCrate {
        krate: "tiny_http",
        request: "Request",
        response: "Response",
        constructors: &[
            ("from_string", Answer::Body),
            ("from_data", Answer::Body),
            ("empty", Answer::EmptyWithStatus),
        ],
    },
    RequestCrate {
        krate: "worker",
        request: "Request",
        response: "Response",
        constructors: &[
            ("ok", Answer::Body),
            ("from_json", Answer::Body),
            ("from_html", Answer::Body),
            ("from_bytes", Answer::Body),
            ("empty", Answer::Empty),
            ("error", Answer::BodyWithStatus),
        ],
    },
];

/// Functions that build an HTTP answer, by path: warp's `warp::reply::json(&r)` (200
/// with r), `warp::reply()` (200, empty), `warp::reply::with_status(reply, status)` (that
/// reply with the status). Also written without the crate after `use warp::reply`.
pub const FUNCTION_RESPONSES: &[(&str, Answer)] = &[
    ("warp::reply::json", Answer::Body),
    ("warp::reply::html", Answer::Body),
    ("warp::reply", Answer::Empty),
    ("warp::reply::with_status", Answer::BodyWithStatus),
];

/// Return types that make a function an HTTP handler, beyond the extractor types:
/// warp's `impl warp::Reply`.
pub const REPLY_TYPES: &[&str] = &["warp::Reply", "impl Reply"];

/// Parameter types that are a network connection (`stream: TcpStream`): a function
/// taking one answers HTTP when its file writes HTTP answers by hand.
pub const CONNECTION_TYPES: &[&str] = &["TcpStream"];

/// Builder methods that set the status on such a response.
pub const STATUS_BUILDERS: &[&str] = &["with_status_code", "with_status"];

/// Calls that end the process: `std::process::exit(1)`.
pub const PROCESS_EXITS: &[&str] = &["std::process::exit", "process::exit"];

/// Path-qualified calls that start their argument beside the caller: `thread::spawn`,
/// `tokio::spawn`, `task::spawn_blocking`, `tokio::task::spawn_local`.
pub const SPAWNS: &[&str] = &["spawn", "spawn_blocking", "spawn_local"];

/// Functions waiting for work under a deadline, `timeout(duration, work)` (tokio's and
/// async-std's), written with their path or imported.
pub const DEADLINE_WAITS: &[&str] = &["time::timeout", "future::timeout", "timeout"];

/// Methods that only convert or unwrap their receiver; a method name lower-cased or
/// trimmed is still the name.
pub const TRANSPARENT: &[&str] = &[
    "as_str",
    "as_deref",
    "as_ref",
    "to_string",
    "to_owned",
    "clone",
    "unwrap",
    "expect",
    "borrow",
    "deref",
    "into",
    "trim",
    "cloned",
    "copied",
    "as_object",
    "into_response",
    "into_inner",
    "as_string",
    "unwrap_or_default",
    "to_lowercase",
    "to_ascii_lowercase",
    "boxed",
    "boxed_unsync",
    // tracing's `fut.instrument(span)`, `fut.in_current_span()`: the same future.
    "instrument",
    "in_current_span",
];

/// Extractors that decode the request body from JSON into the handler's parameter:
/// axum's and actix-web's `Json(body): Json<T>`.
pub const JSON_EXTRACTORS: &[&str] = &["Json"];

/// Methods of Rust's standard strings, collections, options and paths: called on a
/// value the scan cannot type, they are the standard library's, not a method of the
/// code's own type that happens to share the name.
pub const STD_METHODS: &[&str] = &[
    "is_empty",
    "len",
    "trim",
    "trim_start",
    "trim_end",
    "join",
    "push",
    "push_str",
    "contains",
    "starts_with",
    "ends_with",
    "split",
    "lines",
    "to_lowercase",
    "to_uppercase",
    "chars",
    "bytes",
    "iter",
    "iter_mut",
    "keys",
    "values",
    "first",
    "last",
    "extend",
    "clear",
    "exists",
    "is_file",
    "is_dir",
    // A header's, an OS string's or a path's text (`header.to_str()`), a string's view.
    "to_str",
    "as_str",
    "as_bytes",
];

/// JSON-RPC libraries that own the dispatch: the code fills the library's table of
/// methods, one handler per method name, and either starts the library's server,
/// which answers each message by that table (jsonrpsee's `RpcModule` and `Server`),
/// or hands the library one request at a time and answers with what it gives back
/// (rpc-router's `Router::call`). What the library does is written out as code of
/// the file (see `rpc_library_call` in `mod.rs` and `lower::rpc_library`), so the checks read it as any other.
pub struct RpcLibrary {
    pub krate: &'static str,
    /// Calls that register a handler: `table.f("method", handler)`.
    pub registers: &'static [&'static str],
    /// The method that starts the library's HTTP server with the filled table:
    /// `server.start(table)`.
    pub start: Option<&'static str>,
    /// The method that runs the handler one request names: `table.call(request)`,
    /// giving `Ok` of a response whose `value` is the handler's, or `Err` when the
    /// table has no handler for the method (or the handler failed).
    pub dispatch: Option<&'static str>,
    /// The arguments a handler is called with, after the request's params: what the
    /// library passes beside them (the table's context, extensions).
    pub extra_arguments: usize,
    /// The HTTP status the started server answers a notification with (it runs no
    /// handler and writes no JSON-RPC reply), and whether the body is the text `null`.
    pub notification_status: u16,
    pub notification_null_body: bool,
}

pub const RPC_LIBRARIES: &[RpcLibrary] = &[
    RpcLibrary {
        krate: "jsonrpsee",
        registers: &[
            "register_method",
            "register_async_method",
            "register_blocking_method",
            "register_async_method_with_details",
            "register_method_with_details",
        ],
        start: Some("start"),
        dispatch: None,
        extra_arguments: 2,
        // jsonrpsee answers a notification over HTTP with `MethodResponse::notification()`,
        // whose body is `null`, written with status 200.
        notification_status: 200,
        notification_null_body: true,
    },
    RpcLibrary {
        krate: "rpc_router",
        registers: &["insert", "append", "append_dyn"],
        start: None,
        dispatch: Some("call"),
        extra_arguments: 0,
        notification_status: 200,
        notification_null_body: false,
    },
];

/// The library a crate's name is, if it is one of [`RPC_LIBRARIES`].
pub fn rpc_library(krate: &str) -> Option<&'static RpcLibrary> {
    RPC_LIBRARIES.iter().find(|l| l.krate == krate)
}
