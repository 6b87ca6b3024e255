//! What PHP's web frameworks are, as data: the request types a handler takes, the
//! calls that mount a route, and the response builders with their argument order.
//! A new framework is a row here and a fixture.

use crate::lower::Fold;

/// Parameter types that make a function an HTTP handler (the last segment of the
/// type's name). `Request` counts only when the file imports a framework's class of
/// that name (see [`REQUEST_IMPORTS`]).
pub const REQUEST_TYPES: &[&str] = &["ServerRequestInterface", "RequestInterface", "WP_REST_Request"];

/// Imports that make a bare `Request` parameter type an HTTP request.
pub const REQUEST_IMPORTS: &[&str] = &[
    "Illuminate\\Http\\Request",
    "Symfony\\Component\\HttpFoundation\\Request",
    "Psr\\Http\\Message\\ServerRequestInterface",
    "Workerman\\Protocols\\Http\\Request",
];

/// Functions that read a line or bytes from a stream (standard input when the stream
/// is `STDIN`).
pub const STREAM_READS: &[&str] =
    &["fgets", "fgetc", "fread", "stream_get_line", "fgetcsv", "stream_get_contents"];

/// Parameter types that hand a handler the response it answers with (PSR-7's
/// `ResponseInterface $response` in Slim's `function ($request, $response)`), by the
/// class's own last name (an import's alias is looked through).
pub const RESPONSE_PARAM_TYPES: &[&str] = &["ResponseInterface"];

/// PSR-7 response methods that return the response with its status and body as they
/// were (headers and protocol only).
pub const RESPONSE_KEEPING: &[&str] =
    &["withHeader", "withAddedHeader", "withoutHeader", "withProtocolVersion"];

/// Methods of a framework's request that read its decoded JSON body: one member
/// (Laravel `$request->input('method')`, `$request->json('id')`), or the whole message
/// (`$request->all()`, `$request->json()->all()`, PSR-7 `getParsedBody()`).
pub const BODY_MEMBER_READERS: &[&str] = &["input", "json"];
pub const BODY_READERS: &[&str] = &["all", "getParsedBody", "toArray"];
/// Methods of a framework's request that give the HTTP verb (PSR-7 and Symfony
/// `getMethod()`, Laravel `method()`, WordPress `get_method()`), and that test it
/// (`isMethod('post')`); probes arrive by POST.
pub const VERB_READERS: &[&str] = &["getMethod", "method", "getRealMethod", "get_method"];
pub const VERB_TESTS: &[&str] = &["isMethod"];

/// Route registrations: `Route::post('/mcp', [McpController::class, 'handle'])`,
/// `$app->post('/mcp', function ($request, $response) { ... })`, `$router->any(...)`:
/// the receiver's name (last segment, any case for variables), and the verbs.
pub const ROUTERS: &[&str] = &["Route", "app", "router", "group", "routes"];
pub const ROUTE_VERBS: &[&str] = &["post", "any", "match", "map", "addRoute", "add"];

/// HTTP verbs, as a route registration names them first (`$router->add('POST', ..)`,
/// `$router->map('GET', ..)`): only a POST route takes JSON-RPC messages.
pub const HTTP_VERBS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// Servers built around one callback that answers every HTTP request: ReactPHP
/// `new HttpServer(function (ServerRequestInterface $request) { ... })`.
pub const SERVER_CLASSES: &[&str] = &["HttpServer"];

/// Attributes that mount a controller method: Symfony `#[Route('/mcp', methods: ['POST'])]`.
pub const ROUTE_ATTRIBUTES: &[&str] = &["Route", "Post"];

/// How a response builder takes its arguments.
#[derive(Clone, Copy)]
pub enum Order {
    /// `(body, status)`: Laravel `response($body, 202)`, `response()->json($data, 202)`,
    /// Symfony `new JsonResponse($data, 202)` and `new Response($content, 202)`.
    BodyStatus,
    /// `(status, headers, body)`: PSR-7 `new Response(202, [], '')` (Guzzle, Nyholm,
    /// Slim, ReactPHP; Diactoros' `EmptyResponse`).
    StatusHeadersBody,
}

/// `new Class(...)` that builds an HTTP response, by the class's last name segment.
pub const RESPONSE_CLASSES: &[(&str, Order)] = &[
    ("JsonResponse", Order::BodyStatus),
    ("Response", Order::BodyStatus),
    ("HtmlResponse", Order::BodyStatus),
    ("EmptyResponse", Order::StatusHeadersBody),
];

/// Namespaces whose `Response` classes are HTTP responses: a `Response` imported from
/// anywhere else (or declared in the file) is the code's own class.
pub const RESPONSE_NAMESPACES: &[&str] = &[
    "Symfony\\Component\\HttpFoundation",
    "Illuminate\\",
    "Laminas\\Diactoros",
    "Zend\\Diactoros",
    "GuzzleHttp\\Psr7",
    "Nyholm\\Psr7",
    "Slim\\Psr7",
    "Psr\\Http",
    "React\\Http",
    "Cake\\Http",
    "Workerman\\Protocols",
];

/// Namespaces whose `Response` takes the status first, as PSR-7 implementations
/// mostly do: `new Response($status, $headers, $body)` (Laminas' Diactoros takes the
/// body first, as Symfony and Laravel do).
pub const STATUS_FIRST_NAMESPACES: &[&str] =
    &["GuzzleHttp\\Psr7", "Nyholm\\Psr7", "Slim\\Psr7", "React\\Http", "Workerman\\Protocols"];

/// Calls that build an HTTP response: `response(...)`, `response()->json(...)`,
/// `Response::json(...)`, `->setContent(...)`.
pub const RESPONSE_FUNCTIONS: &[&str] = &["response"];
pub const RESPONSE_METHODS: &[&str] = &["json", "noContent"];

/// Static decoders of frameworks' JSON classes that read a body into the message,
/// as `json_decode` does: `(class, method)`.
pub const JSON_DECODERS: &[(&str, &str)] = &[("Json", "decode")];

/// Error classes a framework answers with an error status when a handler returns
/// one, and the function that tests for them: WordPress's `WP_Error` (served as
/// 400 unless its data names a status) and `is_wp_error($x)`. `(class, test)`.
pub const ERROR_CLASSES: &[(&str, &str)] = &[("WP_Error", "is_wp_error")];

/// Functions that end the request (`exit` is also a statement): `die("...")`, `exit(1)`.
/// A string argument is written out first.
pub const REQUEST_EXITS: &[&str] = &["die", "exit"];

/// String functions and what they do to a string (see [`crate::lower::Fold`]).
pub const STRING_FOLDS: &[(&str, Fold)] = &[
    ("strtolower", Fold::Lower),
    ("mb_strtolower", Fold::Lower),
    ("trim", Fold::Trim),
    ("ltrim", Fold::Trim),
    ("rtrim", Fold::Trim),
    ("strval", Fold::Keep),
    // WordPress's cleaners: `sanitize_text_field` strips tags and line breaks and
    // trims; `wp_unslash`/`stripslashes` remove backslashes. An MCP method name has none
    // of those. (`sanitize_key` is not one: it drops the `/` of `tools/list`.)
    ("sanitize_text_field", Fold::Trim),
    ("wp_unslash", Fold::Keep),
    ("stripslashes", Fold::Keep),
];

/// Reads of the output buffer `ob_start()` opened, and what each reads: its contents
/// or its length.
pub const OUTPUT_BUFFER_READS: &[(&str, &str)] = &[
    ("ob_get_clean", crate::lower::BUFFER_CONTENTS),
    ("ob_get_contents", crate::lower::BUFFER_CONTENTS),
    ("ob_get_flush", crate::lower::BUFFER_CONTENTS),
    ("ob_get_length", crate::lower::BUFFER_LENGTH),
];

/// Framework helpers testing a string's prefix, as (class, method): Laravel's
/// `Str::startsWith($text, 'prefix')`.
pub const PREFIX_TESTS: &[(&str, &str)] =
    &[("Str", "startsWith"), ("Illuminate\\Support\\Str", "startsWith")];

/// Functions that replace part of a string (see [`crate::lower::Replace`]).
pub const STRING_REPLACES: &[(&str, crate::lower::Replace)] = &[
    ("str_replace", crate::lower::Replace { text: 2, pattern: 0, with: 1, all: true, regex: false }),
    ("preg_replace", crate::lower::Replace { text: 2, pattern: 0, with: 1, all: true, regex: true }),
];

/// Functions that test whether a text holds another, text first: `str_contains($s, '/')`.
pub const SUBSTRING_TESTS: &[&str] = &["str_contains"];

/// Functions that split a string at a separator (see [`crate::lower::Split`]):
/// `explode('/', $method)`, `explode('/', $method, 2)`.
pub const STRING_SPLITS: &[(&str, crate::lower::Split)] =
    &[("explode", crate::lower::Split { text: 1, sep: 0, limit: Some(2) })];

/// Base classes whose constructor configures the object and then calls a hook, by the
/// namespace they live in: Yii's `BaseObject` (and so `Component`, `Model`) sets the
/// properties its config array names, then calls `init()`. `(namespace, hook)`.
pub const CONFIGURED_BASES: &[(&str, &str)] = &[("yii\\", "init")];

/// PHP's own exception classes with their parent (`Throwable` is the interface all
/// of them implement): the chain a `catch` clause is matched against (`catch
/// (JsonException $e)` does not catch an `InvalidArgumentException`; `catch
/// (Exception $e)` does, and `catch (Exception $e)` does not catch a `TypeError`).
pub const EXCEPTIONS: &[(&str, &str)] = &[
    ("Throwable", ""),
    ("Exception", "Throwable"),
    ("Error", "Throwable"),
    ("TypeError", "Error"),
    ("ValueError", "Error"),
    ("ArgumentCountError", "TypeError"),
    ("ArithmeticError", "Error"),
    ("DivisionByZeroError", "ArithmeticError"),
    ("UnhandledMatchError", "Error"),
    ("ErrorException", "Exception"),
    ("JsonException", "Exception"),
    ("LogicException", "Exception"),
    ("BadFunctionCallException", "LogicException"),
    ("BadMethodCallException", "BadFunctionCallException"),
    ("DomainException", "LogicException"),
    ("InvalidArgumentException", "LogicException"),
    ("LengthException", "LogicException"),
    ("OutOfRangeException", "LogicException"),
    ("RuntimeException", "Exception"),
    ("OutOfBoundsException", "RuntimeException"),
    ("OverflowException", "RuntimeException"),
    ("RangeException", "RuntimeException"),
    ("UnderflowException", "RuntimeException"),
    ("UnexpectedValueException", "RuntimeException"),
];
