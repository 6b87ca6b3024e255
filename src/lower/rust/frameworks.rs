//! What Rust's libraries are to the lowering, as data: the calls that end the process
//! or start work beside it, and the methods that only convert or unwrap a value.
//! (The web frameworks' route and response names are still in `mod.rs`.)

/// Synchronous HTTP servers whose handlers take the crate's own `Request` and build
/// its `Response` by constructor (tiny_http): `(crate, request type, response type)`.
/// A function of a file that uses the crate and takes that request type answers HTTP.
pub const REQUEST_CRATES: &[(&str, &str, &str)] = &[("tiny_http", "Request", "Response")];

/// Response constructors of those crates: `Response::from_string(body)` is a 200
/// with that body (`.with_status_code(n)` sets the status); `Response::empty(n)` is
/// status `n` with no body.
pub const BODY_CONSTRUCTORS: &[&str] = &["from_string", "from_data"];
pub const EMPTY_CONSTRUCTOR: &str = "empty";
/// Builder methods that set the status on such a response.
pub const STATUS_BUILDERS: &[&str] = &["with_status_code"];

/// Calls that end the process: `std::process::exit(1)`.
pub const PROCESS_EXITS: &[&str] = &["std::process::exit", "process::exit"];

/// Path-qualified calls that start their argument beside the caller: `thread::spawn`,
/// `tokio::spawn`, `task::spawn_blocking`, `tokio::task::spawn_local`.
pub const SPAWNS: &[&str] = &["spawn", "spawn_blocking", "spawn_local"];

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
    "as_string",
    "unwrap_or_default",
    "to_lowercase",
    "to_ascii_lowercase",
];

/// Extractors that decode the request body from JSON into the handler's parameter:
/// axum's and actix-web's `Json(body): Json<T>`.
pub const JSON_EXTRACTORS: &[&str] = &["Json"];
