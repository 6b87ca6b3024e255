//! What the Python web frameworks are, as data: how a handler is mounted or
//! recognised, which request classes are HTTP ones, and how an answer is written.
//! A new framework is a row here and a fixture.

use crate::lower::Fold;

/// Modules of pydantic models whose instances serialise (`model_dump()`) to the
/// fields they are built with: the MCP SDK's protocol types
/// (`InitializeResult(protocolVersion=v, ...)`).
pub const MODEL_MODULES: &[&str] = &["mcp.types"];

/// Decorator and router method names that make a function an HTTP handler.
pub const ROUTE_DECORATORS: &[&str] = &["post", "route", "api_route", "put"];

/// The method of an `http.server.BaseHTTPRequestHandler` subclass that answers a POST.
pub const HTTP_SERVER_POST: &str = "do_POST";

/// The parameters of an AWS Lambda handler (`def lambda_handler(event, context)`):
/// API Gateway or a function URL brings it HTTP requests.
pub const LAMBDA_PARAMS: &[&str] = &["event", "context"];
/// Router calls that mount a handler (FastAPI, Flask, aiohttp `router.add_post`,
/// Starlette `Route(path, endpoint)`); the handler may be a method (`self._handle`).
pub const ROUTER_CALLS: &[&str] = &[
    "add_api_route",
    "add_route",
    "add_url_rule",
    "add_api_websocket_route",
    "add_post",
    "add_view",
    "Route",
];

/// Parameter annotations that make a function an HTTP handler when they name a web
/// framework's request class: aiohttp `request: web.Request`, Starlette/FastAPI
/// `Request`, Django `HttpRequest`. A `Request` of the code's own (or the MCP SDK's
/// JSON-RPC `Request`) is not one.
pub const REQUEST_TYPES: &[&str] = &["Request", "HttpRequest", "BaseRequest", "WSGIRequest", "ASGIRequest"];

/// Modules whose `Response`-like names are HTTP responses.
pub const WEB_MODULES: &[&str] = &[
    "flask",
    "quart",
    "starlette",
    "fastapi",
    "django",
    "werkzeug",
    "aiohttp",
    "sanic",
    "litestar",
    "bottle",
    "tornado",
    "falcon",
    "pyramid",
    "robyn",
    "responder",
    "connexion",
    "chalice",
    "azure",
    "http",
    "wsgiref",
    "microdot",
    "webob",
    "sse_starlette",
    "mcp",
    "fasthtml",
    "blacksheep",
    "emmett",
];

/// Modules whose request-handler classes (a base named `...Handler`) answer a POST
/// with their `post` method, writing the answer on `self`: Tornado's
/// `RequestHandler` and Jupyter Server's `APIHandler`/`JupyterHandler`.
pub const HANDLER_CLASS_MODULES: &[&str] = &["tornado", "jupyter_server", "notebook"];
pub const HANDLER_CLASS_POST: &str = "post";
/// How the base of such a class is named (`RequestHandler`, `APIHandler`).
pub const HANDLER_BASE_SUFFIX: &str = "Handler";

/// How such a handler writes its answer on `self`: `self.set_status(202)`,
/// `self.write(body)`, `self.finish(body)`.
pub const HANDLER_STATUS_SETTERS: &[&str] = &["set_status", "send_error"];
pub const HANDLER_BODY_WRITERS: &[&str] = &["write", "finish"];

/// The method of a class-based view (`path("mcp/", McpView.as_view())`, Django and
/// Django REST framework) the framework calls for a POST.
pub const CLASS_VIEW_POST: &str = "post";

/// Methods of a resource class the framework calls for a POST, with the request and
/// the response as parameters: Falcon's `on_post(self, req, resp)`.
pub const RESPONDER_METHODS: &[&str] = &["on_post"];

/// Response classes a handler may be given to write its answer on (Werkzeug's
/// `handle(request: Request, response: Response)`), when imported from a web module.
pub const RESPONSE_PARAM_TYPES: &[&str] = &["Response", "HttpResponse", "BaseResponse", "StreamResponse"];

/// Members of a responder's response parameter that set the answer when assigned
/// (Falcon: `resp.status = falcon.HTTP_202`, `resp.media = reply`,
/// `resp.text = json.dumps(reply)`).
pub const RESPONSE_STATUS_MEMBERS: &[&str] = &["status", "status_code"];
pub const RESPONSE_BODY_MEMBERS: &[&str] = &["media", "text", "data", "body"];

/// Request members that hold the decoded body: Falcon's `req.media` and
/// `await req.get_media()`.
pub const REQUEST_MEDIA: &[&str] = &["media", "get_media"];

/// Calls that end the process: `sys.exit(1)`, `os._exit(1)` (`SystemExit` is no
/// `Exception`: an `except Exception` around it does not catch it).
pub const PROCESS_EXITS: &[&str] = &["sys.exit", "os._exit"];

/// String conversions and what they do to a string (see [`crate::lower::Fold`]).
pub const STRING_FOLDS: &[(&str, Fold)] = &[("str", Fold::Keep)];

/// Methods that only convert their receiver; a method name lower-cased or stripped is
/// still the name, and the message's bytes decoded are its text.
pub const TRANSPARENT: &[&str] = &["strip", "lstrip", "rstrip", "lower", "casefold", "decode"];

/// Output buffers: one made without contents starts empty, and what is written into
/// it is read back (`buf.getvalue()`).
pub const BUFFER_TYPES: &[&str] = &["io.StringIO", "StringIO", "io.BytesIO", "BytesIO"];

/// Functions that replace part of a string (see [`crate::lower::Replace`]).
pub const STRING_REPLACES: &[(&str, crate::lower::Replace)] =
    &[("re.sub", crate::lower::Replace { text: 2, pattern: 0, with: 1, all: true, regex: true })];

/// Functions that run the function handed to them (at the position given) with the
/// arguments after it, and give what it returns: Starlette's `run_in_threadpool(f,
/// *args)`, `asyncio.to_thread(f, *args)`, `loop.run_in_executor(executor, f, *args)`,
/// anyio's `to_thread.run_sync(f, *args)`.
pub const THREAD_RUNNERS: &[(&str, usize)] =
    &[("run_in_threadpool", 0), ("to_thread", 0), ("run_in_executor", 1), ("run_sync", 0)];

/// JSON-RPC libraries the code hands one request at a time (jsonrpcserver): the
/// module; the decorator that registers a function under its own name or `name=`;
/// the function that dispatches JSON text by those registrations (giving the
/// response's JSON text, empty for a notification); the constructors a handler's
/// result is built with (`Success(value)`, `Error(code, message)`).
pub struct RpcLibrary {
    pub module: &'static str,
    pub decorator: &'static str,
    pub dispatch: &'static str,
    pub success: &'static str,
    pub error: &'static str,
}

pub const RPC_LIBRARIES: &[RpcLibrary] = &[RpcLibrary {
    module: "jsonrpcserver",
    decorator: "method",
    dispatch: "dispatch",
    success: "Success",
    error: "Error",
}];

/// The table the registrations of a library fill (one per file's library).
pub const RPC_TABLE: &str = "<rpc methods>";

/// Python's own exception classes with their base class: the chain an `except`
/// clause is matched against (`except json.JSONDecodeError` does not catch the
/// `ValueError` a dispatcher raises; `except Exception` does).
pub const EXCEPTIONS: &[(&str, &str)] = &[
    ("BaseException", ""),
    ("Exception", "BaseException"),
    ("SystemExit", "BaseException"),
    ("KeyboardInterrupt", "BaseException"),
    ("GeneratorExit", "BaseException"),
    ("ArithmeticError", "Exception"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("AssertionError", "Exception"),
    ("AttributeError", "Exception"),
    ("EOFError", "Exception"),
    ("ImportError", "Exception"),
    ("ModuleNotFoundError", "ImportError"),
    ("LookupError", "Exception"),
    ("IndexError", "LookupError"),
    ("KeyError", "LookupError"),
    ("NameError", "Exception"),
    ("OSError", "Exception"),
    ("IOError", "Exception"),
    ("ConnectionError", "OSError"),
    ("BrokenPipeError", "ConnectionError"),
    ("FileNotFoundError", "OSError"),
    ("PermissionError", "OSError"),
    ("TimeoutError", "OSError"),
    ("RuntimeError", "Exception"),
    ("NotImplementedError", "RuntimeError"),
    ("RecursionError", "RuntimeError"),
    ("StopIteration", "Exception"),
    ("TypeError", "Exception"),
    ("ValueError", "Exception"),
    ("UnicodeError", "ValueError"),
    ("UnicodeDecodeError", "UnicodeError"),
    ("UnicodeEncodeError", "UnicodeError"),
    ("JSONDecodeError", "ValueError"),
];
