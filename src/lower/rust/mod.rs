//! Rust: `tree-sitter-rust` syntax trees to facts.

use super::{Ctx, call, is_initialized_flag, message_field, object, status_by_name, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Language, Pattern, SdkImport, Span, Stmt};
use crate::parse::Fields;
use tree_sitter::Node;

pub(super) mod frameworks;
mod macros;

/// Router functions whose function arguments are HTTP handlers (`post(handler)`, `.to(handler)`).
const ROUTER_CALLS: &[&str] = &["post", "get", "any", "route", "to", "put", "post_service"];
/// Methods that register a handler under a method name.
const REGISTER_CALLS: &[&str] = &["insert", "register", "add_method", "on", "handle"];
/// Macros that write to standard output.
pub(super) const PRINT_MACROS: &[&str] = &["println", "print", "write", "writeln"];
/// Parameter and return types that mark an HTTP handler.
const HTTP_TYPES: &[&str] =
    &["Json<", "IntoResponse", "HttpResponse", "HttpRequest", "HeaderMap", "Request<"];

pub fn lower_file(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    // Free functions the file defines: its own `json_response(status, value)` is
    // called, not taken for a web framework's constructor of that name.
    for item in children(root).into_iter().filter(|i| i.kind() == "function_item") {
        if let Some(name) = item.field("name") {
            let name = ctx.text(name).to_string();
            ctx.own_names.push(name);
        }
    }
    derived_defaults(ctx, root);
    let mut module = Vec::new();
    items(ctx, root, facts, None, &mut module);
    super::push_module(ctx, facts, root, module);
}

/// Structs with `#[derive(Default)]`, anywhere in the file: `T::default()` is an
/// empty value of the type (its fields' defaults, none of them a reply's member).
fn derived_defaults(ctx: &mut Ctx, root: Node) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        for item in children(n) {
            if item.kind() != "struct_item" {
                stack.push(item);
                continue;
            }
            let derives_default = attribute_text(ctx, item).iter().any(|t| {
                t.contains("derive") && t.split(|c: char| !c.is_alphanumeric()).any(|w| w == "Default")
            });
            if derives_default && let Some(name) = item.field("name") {
                let name = ctx.text(name).to_string();
                ctx.default_structs.push(name);
            }
        }
    }
}

/// The text a non-raw string literal holds: escapes read, and a line ending escaped
/// with a backslash dropped with the next line's leading whitespace, as Rust does.
pub(super) fn string_text(written: &str) -> String {
    let text = unquote(written);
    let mut joined = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("\\\n") {
        joined.push_str(&rest[..at]);
        rest = rest[at + 2..].trim_start();
    }
    joined.push_str(rest);
    crate::lower::unescape(&joined)
}

pub(super) fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !matches!(c.kind(), "line_comment" | "block_comment" | "attribute_item"))
        .collect()
}

fn items(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, module: &mut Block) {
    if !ctx.enter() {
        return;
    }
    for item in children(node) {
        if test_only(ctx, item) {
            continue;
        }
        match item.kind() {
            "function_item" => function(ctx, item, facts, owner),
            "impl_item" | "trait_item" => {
                let ty = item
                    .field("type")
                    .or_else(|| item.field("name"))
                    .map(|t| ctx.text(t).split('<').next().unwrap_or("").to_string());
                if let Some(body) = item.field("body") {
                    items(ctx, body, facts, ty.as_deref(), module);
                }
            }
            "mod_item" => {
                if let Some(body) = item.field("body") {
                    items(ctx, body, facts, owner, module);
                }
            }
            "use_declaration" | "extern_crate_declaration" => {
                let path = item.field("argument").or_else(|| item.field("name"));
                if let Some(sdk) = path.and_then(|p| ctx.sdk(Language::Rust, ctx.text(p))) {
                    facts.sdk_imports.push(SdkImport { sdk, span: ctx.span(item) });
                }
                if let Some(p) = path {
                    facts.imports.extend(use_hints(ctx.text(p)));
                    // `use axum::Json as AxumJson`: the local name and the item's own.
                    renamed(ctx, p);
                    // `use rpc_router::{Request, Router}`: names from another crate.
                    let root = ctx.text(p).trim_start_matches("::").split("::").next().unwrap_or("");
                    if !matches!(root, "crate" | "self" | "super" | "")
                        && root.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        let mut names = Vec::new();
                        used_names(ctx, p, &mut names);
                        facts.package_names.extend(names.into_iter().map(|n| (n, root.to_string())));
                    }
                    // `use tiny_http::{Request, Response}`: its request type marks a handler.
                    let used = ctx.text(p).split("::").next().unwrap_or("");
                    if let Some(lib) = frameworks::rpc_library(used)
                        && !ctx.libraries.contains(&lib.krate)
                    {
                        ctx.libraries.push(lib.krate);
                    }
                    for c in frameworks::REQUEST_CRATES {
                        let answer = format!("{}::{}", c.krate, c.response);
                        if used == c.krate && !ctx.response_types.contains(&answer) {
                            if !ctx.request_types.iter().any(|r| r == c.request) {
                                ctx.request_types.push(c.request.to_string());
                            }
                            ctx.response_types.push(answer);
                        }
                    }
                }
            }
            "struct_item" => serde_names(ctx, item, facts),
            "enum_item" => {
                untagged_variants(ctx, item, facts);
                if let Some(table) = tagged_by_method(ctx, item) {
                    module.push(table);
                }
                if let Some(table) = unit_by_name(ctx, item) {
                    module.push(table);
                }
            }
            "const_item" | "static_item" => {
                let name = item.field("name").map(|n| ctx.text(n).to_string());
                let value = item.field("value");
                if let (Some(target), Some(v)) = (name, value) {
                    let value = expr(ctx, v, facts);
                    module.push(Stmt::Assign { target, value, span: ctx.span(item) });
                }
            }
            _ => {}
        }
    }
    ctx.leave();
}

/// The items a `use` brings in under another name (`use axum::{Json as AxumJson}`):
/// recorded in the file's aliases as (local name, the item's own last name).
fn renamed(ctx: &mut Ctx, node: Node) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "use_as_clause" {
            if let (Some(path), Some(alias)) = (n.field("path"), n.field("alias")) {
                let own = crate::lower::last_segment(ctx.text(path)).to_string();
                ctx.aliases.push((ctx.text(alias).to_string(), own));
            }
            continue;
        }
        stack.extend(children(n));
    }
}

/// The names a `use` brings into scope: the last segment of each path, or its alias
/// (`use a::{b::C, D as E, f::*}` brings `C` and `E`).
fn used_names(ctx: &Ctx, node: Node, out: &mut Vec<String>) {
    match node.kind() {
        "identifier" | "type_identifier" => out.push(ctx.text(node).to_string()),
        "scoped_identifier" => {
            if let Some(name) = node.field("name") {
                out.push(ctx.text(name).to_string());
            }
        }
        "use_as_clause" => {
            if let Some(alias) = node.field("alias") {
                out.push(ctx.text(alias).to_string());
            }
        }
        "scoped_use_list" => {
            if let Some(list) = node.field("list") {
                used_names(ctx, list, out);
            }
        }
        "use_list" => {
            for c in children(node) {
                used_names(ctx, c, out);
            }
        }
        _ => {}
    }
    out.retain(|n| n != "self");
}

/// `use crate::mcp::server::handle;`, `use super::rpc::{a, b};`: the module paths a
/// file of the crate imports from, as path hints (`mcp/server/handle` for an item or a
/// module of that name, and its parent `mcp/server`, the file that defines the item).
/// Another crate's path is kept by the crate's name (`crate:kami_protocol`): a crate
/// of the same workspace is a folder of the scanned tree.
fn use_hints(path: &str) -> Vec<String> {
    let path = path.split("::{").next().unwrap_or(path).trim();
    let mut parts = path.split("::").map(str::trim);
    match parts.next() {
        Some("crate" | "self" | "super") => {}
        Some("std" | "core" | "alloc" | "") | None => return Vec::new(),
        Some(other) => {
            let name = other.trim_start_matches("::");
            return if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                vec![format!("{}{name}", crate::model::RUST_CRATE)]
            } else {
                Vec::new()
            };
        }
    }
    let parts: Vec<&str> = parts.filter(|p| !p.is_empty() && *p != "super" && *p != "*").collect();
    let mut hints = Vec::new();
    if !parts.is_empty() {
        hints.push(parts.join("/"));
    }
    if parts.len() > 1 {
        hints.push(parts[..parts.len() - 1].join("/"));
    }
    hints
}

fn function(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) {
    let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
    let params_node = node.field("parameters");
    // One pass over the parameters: their names; those holding the HTTP request (a
    // crate's own request type, actix's `HttpRequest`, `Request<Body>` of http, hyper
    // and axum); those an extractor decodes the message into (`Json(message):
    // Json<Message>`, holding it before the body runs); those declared with one
    // named type (`router: &SessionRouter`); and whether one is a network connection.
    let (mut params, mut request_params, mut decoded_params, mut types) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut connection = false;
    for c in params_node.map(children).unwrap_or_default().into_iter().filter(|c| c.kind() == "parameter") {
        let Some(pattern) = c.field("pattern") else { continue };
        let name = param_name(ctx, pattern);
        if let Some(t) = c.field("type") {
            let full = ctx.text(t).trim_start_matches('&').trim_start_matches("mut ").trim();
            let base = crate::lower::last_segment(full.split('<').next().unwrap_or(full));
            if frameworks::CONNECTION_TYPES.contains(&base) {
                connection = true;
            }
            if ctx.request_types.iter().any(|r| r == base)
                || base == "HttpRequest"
                || (base == "Request" && full.contains('<'))
            {
                request_params.push(name.clone());
            }
            let named = if t.kind() == "reference_type" { t.field("type") } else { Some(t) };
            if pattern.kind() == "identifier"
                && let Some(named) = named.filter(|n| n.kind() == "type_identifier")
            {
                types.push((name.clone(), ctx.text(named).to_string()));
            }
        }
        if let Some(decoded) = json_extracted(ctx, c) {
            decoded_params.push(decoded);
        }
        params.push(name);
    }
    let signature = [params_node, node.field("return_type")]
        .into_iter()
        .flatten()
        .map(|n| ctx.text(n))
        .collect::<String>();
    let http_route = HTTP_TYPES.iter().chain(frameworks::REPLY_TYPES).any(|t| signature.contains(t))
        || !request_params.is_empty();
    let body = node.field("body");
    let associated = owner.is_some()
        && !params_node.is_some_and(|p| children(p).iter().any(|c| c.kind() == "self_parameter"));
    let params = super::Params { associated, types, ..params.into() };
    super::push_function(
        ctx,
        facts,
        node,
        name,
        owner,
        params,
        match (http_route, connection) {
            (true, _) => super::Http::Signature,
            (false, true) => super::Http::Connection,
            (false, false) => super::Http::No,
        },
        |ctx, facts| {
            let span = ctx.span(node);
            let mut out = decoded_prelude(decoded_params, span);
            let outer = std::mem::replace(&mut ctx.request_params, request_params);
            out.extend(body.map(|b| block(ctx, b, facts)).unwrap_or_default());
            ctx.request_params = outer;
            out
        },
    );
}

/// A parameter a JSON extractor decodes the body into: its name, and the type of the
/// code's own it decodes into with the status the framework refuses a body that does
/// not decode (see [`extractor_type`]). `Json(body): Json<T>` (axum, actix-web's
/// `web::Json(body)`), and `body: web::Json<T>`, which derefs to the decoded body
/// (`body.into_inner()` is it).
type Extracted = (String, Option<(String, u16)>);

fn json_extracted(ctx: &Ctx, param: Node) -> Option<Extracted> {
    let pattern = param.field("pattern")?;
    let ty = param.field("type")?;
    let full = ctx.text(ty);
    let extractor = |text: &str| {
        frameworks::JSON_EXTRACTORS
            .contains(&crate::lower::last_segment(text.split('<').next().unwrap_or(text)))
    };
    let extracted = match pattern.kind() {
        "tuple_struct_pattern" => pattern.field("type").is_some_and(|t| extractor(ctx.text(t))),
        "identifier" => full.contains('<') && extractor(full),
        _ => false,
    };
    extracted.then(|| (param_name(ctx, pattern), extractor_type(full)))
}

/// The parameters a JSON extractor decodes the message into, bound before the body
/// runs. A body the extractor cannot decode into its type (a notification, for a type
/// whose `id` is required) is refused before the handler runs.
fn decoded_prelude(decoded: Vec<Extracted>, span: Span) -> Block {
    decoded
        .into_iter()
        .map(|(p, typed)| {
            let value = match typed {
                Some((ty, status)) => Expr::Call {
                    callee: crate::lower::DECODE_AS.into(),
                    receiver: None,
                    args: vec![
                        Expr::Str(ty),
                        Expr::Str(format!("{}{status}", crate::lower::DECODE_REJECTS)),
                        Expr::Message(Vec::new()),
                    ],
                    span,
                },
                None => Expr::Message(Vec::new()),
            };
            Stmt::Assign { target: p, value, span }
        })
        .collect()
}

/// The type a JSON extractor decodes into, when it is one named type of the code's
/// own (`Json<RpcRequest>`, `web::Json<types::Call>`; not `Json<Value>`), and the
/// status the framework answers a body that does not decode into it: actix-web's
/// `web::Json` 400, axum's `Json` 422.
fn extractor_type(full: &str) -> Option<(String, u16)> {
    let (extractor, inner) = full.split_once('<')?;
    let inner = inner.strip_suffix('>')?.trim();
    let name = crate::lower::last_segment(inner);
    let plain =
        !inner.contains(['<', ',', '(', '[', '&']) && name.starts_with(|c: char| c.is_ascii_uppercase());
    let status = if extractor.contains("web::") { 400 } else { 422 };
    (plain && name != "Value").then(|| (name.to_string(), status))
}

/// The name a parameter binds: `mut req` binds `req`, and an extractor's pattern
/// (`Json(request): Json<Rpc>`, `State(state)`, `web::Json(body)`) the name inside it.
fn param_name(ctx: &Ctx, pattern: Node) -> String {
    if pattern.kind() == "tuple_struct_pattern" {
        let inner: Vec<Node> = children(pattern).into_iter().skip(1).filter(|c| c.is_named()).collect();
        if let [one] = inner.as_slice() {
            return param_name(ctx, *one);
        }
    }
    ctx.text(pattern).trim_start_matches("mut ").to_string()
}

/// `match subject { pattern => then, _ => otherwise }`: how `if let` and `let ... else` read.
fn two_arm_match(subject: Expr, pattern: Pattern, then: Block, otherwise: Block, span: Span) -> Expr {
    let arm = |patterns, body| Arm { patterns, guard: None, body, span };
    let arms = vec![arm(vec![pattern], then), arm(vec![Pattern::Any(None)], otherwise)];
    Expr::Match { subject: Box::new(subject), arms, span }
}

/// A `{ ... }` block: statements, and the tail expression as the block's value.
fn block(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Block {
    let mut out = Vec::new();
    if !ctx.enter() {
        return out;
    }
    let kids = children(node);
    let last = kids.len().saturating_sub(1);
    for (i, child) in kids.into_iter().enumerate() {
        match child.kind() {
            "expression_statement" => {
                let Some(inner) = child.named_child(0) else {
                    continue;
                };
                let e = expr(ctx, inner, facts);
                if i == last && !ctx.text(child).trim_end().ends_with(';') {
                    out.push(Stmt::Yield(e));
                } else {
                    out.push(super::effect(e, ctx.span(child)));
                }
            }
            "let_declaration" => let_declaration(ctx, child, facts, &mut out),
            "function_item" => function(ctx, child, facts, None),
            "empty_statement" | "use_declaration" | "struct_item" | "enum_item" | "impl_item"
            | "const_item" | "static_item" | "type_item" | "macro_definition" => {}
            _ => {
                let e = expr(ctx, child, facts);
                if i == last {
                    out.push(Stmt::Yield(e));
                } else {
                    out.push(Stmt::Expr(e));
                }
            }
        }
    }
    ctx.leave();
    out
}

fn let_declaration(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, out: &mut Block) {
    let Some(pattern) = node.field("pattern") else {
        return;
    };
    let declared = node.field("type").and_then(|t| crate::lower::type_class(ctx.text(t)));
    let outer = std::mem::replace(&mut ctx.declared, declared);
    let value_node = node.field("value");
    // `let handler = move |msg| ...;` (or a block ending in one) names a function
    // that is called later, maybe by code it is handed to: it is lifted out as one.
    let outer_lift = std::mem::replace(&mut ctx.lift, value_node.and_then(bound_closure).map(|c| c.id()));
    let value = value_node.map(|v| expr(ctx, v, facts)).unwrap_or_else(Expr::unknown);
    ctx.lift = outer_lift;
    ctx.declared = outer;
    let span = ctx.span(node);
    if let Some(alt) = node.field("alternative") {
        // `let PAT = value else { ... };` is a match whose other arm diverges.
        let pat = pattern_of(ctx, pattern);
        let otherwise = block(ctx, alt, facts);
        out.push(Stmt::Expr(two_arm_match(value, pat, Vec::new(), otherwise, span)));
        return;
    }
    // `let RpcRequest { method, params: p, .. } = request;`: each name takes its field.
    if pattern.kind() == "struct_pattern" {
        let whole = format!("{}{}", crate::lower::DESTRUCTURED, span.start);
        out.push(Stmt::Assign { target: whole.clone(), value, span });
        for f in children(pattern) {
            let (member, name) = match f.kind() {
                "shorthand_field_identifier" => (ctx.text(f).to_string(), ctx.text(f).to_string()),
                "field_pattern" => {
                    let member = f.field("name").map(|n| ctx.text(n)).unwrap_or("");
                    let bound = f.field("pattern").map(|p| ctx.text(p)).unwrap_or(member);
                    (
                        member.to_string(),
                        bound.trim_start_matches("ref ").trim_start_matches("mut ").to_string(),
                    )
                }
                _ => continue,
            };
            if member.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let object = Expr::Var(whole.clone());
            let value = match crate::lower::message_field(&member) {
                Some(field) => crate::lower::field(Some(object), field),
                None => Expr::Lookup { collection: Box::new(object), key: Box::new(Expr::Str(member)) },
            };
            out.push(Stmt::Assign { target: name, value, span });
        }
        return;
    }
    // `let (response, session) = handle(req).await;`: each name takes its item.
    if pattern.kind() == "tuple_pattern" {
        let names: Vec<String> = children(pattern)
            .into_iter()
            .map(|p| ctx.text(p).trim_start_matches("mut ").trim().to_string())
            .collect();
        if names.iter().all(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_')) {
            out.push(Stmt::Destructure { targets: names, value, span });
            return;
        }
    }
    let target = ctx.text(pattern).trim_start_matches("mut ").to_string();
    if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
        out.push(Stmt::SetInitialized { span });
    }
    out.push(Stmt::Assign { target, value, span });
}

/// A call of a JSON-RPC library that owns the dispatch (see
/// [`frameworks::RPC_LIBRARIES`]), in a file that uses it.
/// `module.register_async_method("ping", |params, ctx, _| async move { .. })` registers
/// its handler under the method's name (a closure is lifted out as a function);
/// `server.start(module)` starts the library's server, which answers each message by
/// the table: that answering is written out here as a function of the file, an HTTP
/// route (see [`rpc_library_server`]).
fn rpc_library_call(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Option<Expr> {
    if ctx.libraries.is_empty() {
        return None;
    }
    let lib = ctx.libraries.iter().find_map(|k| frameworks::rpc_library(k))?;
    let func = node.field("function")?;
    let func = if func.kind() == "generic_function" { func.field("function")? } else { func };
    if func.kind() != "field_expression" {
        return None;
    }
    let method = ctx.text(func.field("field")?);
    let receiver = func.field("value")?;
    let arguments: Vec<Node> = children(node.field("arguments")?);
    let span = ctx.span(node);
    // Only an MCP method's name registers: `result.insert("protocolVersion", v)` on
    // the code's own map (rpc-router's `insert` is also a map's) stays a map write.
    if lib.registers.contains(&method) {
        let [name, handler, ..] = arguments.as_slice() else { return None };
        if name.kind() != "string_literal" {
            return None;
        }
        let Expr::Str(name) = expr(ctx, *name, facts) else { return None };
        if !crate::model::is_mcp_method(&name) {
            return None;
        }
        let handler = if handler.kind() == "closure_expression" {
            let outer = ctx.lift.replace(handler.id());
            let lifted = expr(ctx, *handler, facts);
            ctx.lift = outer;
            let Expr::FnRef(lifted) = lifted else { return None };
            lifted
        } else {
            crate::lower::last_segment(ctx.text(*handler).trim_start_matches('&')).to_string()
        };
        facts.registrations.push(crate::model::Registration {
            registry: ctx.text(receiver).to_string(),
            method: name,
            handler,
            span,
        });
        return Some(Expr::unknown());
    }
    if lib.dispatch == Some(method)
        && let [request] = arguments.as_slice()
    {
        let request = expr(ctx, *request, facts);
        return Some(crate::lower::rpc_library::dispatch(
            ctx.text(receiver),
            request,
            lib.extra_arguments,
            crate::lower::rpc_library::Answer::Result,
            span,
        ));
    }
    if lib.start == Some(method)
        && let [table] = arguments.as_slice()
    {
        let table = ctx.text(*table).trim_start_matches('&').to_string();
        let notification = (lib.notification_status, lib.notification_null_body);
        let server = crate::lower::rpc_library::server(
            &table,
            lib.extra_arguments,
            notification,
            crate::lower::anonymous_name(node),
            span,
        );
        ctx.closures.push(server);
        return Some(Expr::unknown());
    }
    None
}

/// The closure a `let` binds: its value, or the last expression of a block that is
/// its value (`let handler = { let server = server.clone(); move |m| ... };`).
fn bound_closure(value: Node) -> Option<Node> {
    match value.kind() {
        "closure_expression" => Some(value),
        "block" => {
            let last =
                children(value).into_iter().rev().find(|c| c.is_named() && c.kind() != "line_comment")?;
            (last.kind() == "closure_expression").then_some(last)
        }
        _ => None,
    }
}

pub(super) fn expr(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    ctx.nested(Expr::unknown, |ctx| expr_inner(ctx, node, facts))
}

fn sub(ctx: &mut Ctx, node: Node, field: &'static str, facts: &mut FileFacts) -> Expr {
    node.field(field).map(|n| expr(ctx, n, facts)).unwrap_or_else(Expr::unknown)
}

fn expr_inner(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    match node.kind() {
        "identifier" => match ctx.text(node) {
            "None" => Expr::Null,
            "stdin" => {
                // `stdin()` (imported from `std::io` or `tokio::io`) is the process's
                // standard input; a variable of that name (a child's pipe:
                // `let Transport::Stdio { stdin, stdout } = ..; stdin.write_all(..)`)
                // is not, and whatever binds it to the real one says so itself.
                let called = node
                    .parent()
                    .is_some_and(|p| p.kind() == "call_expression" && p.field("function") == Some(node));
                if called {
                    ctx.saw_stdin = true;
                }
                Expr::Var("stdin".into())
            }
            t => Expr::Var(t.to_string()),
        },
        "self" => Expr::Var("self".into()),
        "scoped_identifier" => {
            let t = ctx.text(node);
            if t.starts_with("rmcp::") {
                facts.sdk_imports.push(SdkImport { sdk: "rmcp".into(), span });
            }
            if t.ends_with("::stdin") {
                ctx.saw_stdin = true;
            }
            if t.contains("StatusCode")
                && let Some(status) = status_by_name(t)
            {
                return Expr::Http { status: Some(status), body: None, span };
            }
            if t.ends_with("::None") || t.ends_with("Value::Null") {
                return Expr::Null;
            }
            if let Some(verb) = http_verb(t) {
                return Expr::Str(verb);
            }
            // `Dispatched::Accepted`: a unit variant of the code's own enum (CamelCase; a
            // constant is SCREAMING_CASE, a function snake_case).
            if let Some((ty, variant)) = t.rsplit_once("::")
                && crate::lower::last_segment(ty).starts_with(|c: char| c.is_ascii_uppercase())
                && crate::lower::last_segment(ty) != "Value"
                && variant.starts_with(|c: char| c.is_ascii_uppercase())
                && variant.chars().any(|c| c.is_ascii_lowercase())
                && variant.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return Expr::Variant { name: variant.to_string(), inner: None };
            }
            Expr::Var(t.to_string())
        }
        "boolean_literal" => Expr::Bool(ctx.text(node) == "true"),
        "integer_literal" => super::int_literal(ctx.text(node)).map(Expr::Int).unwrap_or_else(Expr::unknown),
        "string_literal" => {
            let text = string_text(ctx.text(node));
            // `"HTTP/1.1 204 No Content\r\n\r\n"` written onto a connection.
            if crate::lower::raw_http::opens_response(&text)
                && let Some(answer) =
                    crate::lower::raw_http::response(vec![crate::lower::Piece::Text(text.clone())], span)
            {
                facts.writes_http = true;
                return answer;
            }
            Expr::Str(text)
        }
        "raw_string_literal" => Expr::Str(unquote(ctx.text(node))),
        "unit_expression" => Expr::Null,
        "unary_expression" => {
            let inner = children(node).first().map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown);
            match (ctx.text(node).chars().next(), inner) {
                (Some('-'), Expr::Int(n)) => Expr::Int(-n),
                (Some('!'), e) => Expr::Not(Box::new(e)),
                (_, e) => e,
            }
        }
        "try_expression" => {
            let inner = children(node).first().map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown);
            Expr::Propagate(Box::new(inner))
        }
        // `&mut x` names `x` (its first named child is the `mut`).
        "reference_expression" => {
            node.field("value").map(|v| expr(ctx, v, facts)).unwrap_or_else(Expr::unknown)
        }
        "parenthesized_expression" | "await_expression" | "type_cast_expression" => {
            children(node).first().map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown)
        }
        "field_expression" => {
            let field = node.field("field").map(|f| ctx.text(f)).unwrap_or("");
            // `self.protocol_version`, `self.metadata.protocol_version`: the server's own
            // state, never the message's.
            let own = node.field("value").is_some_and(|v| {
                let v = ctx.text(v);
                v == "self" || v.starts_with("self.")
            });
            if let Some(f) = message_field(field).filter(|_| !own) {
                let object = node.field("value").map(|v| expr(ctx, v, facts));
                return crate::lower::field(object, f);
            }
            let t = ctx.text(node);
            if t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                return Expr::Var(t.to_string());
            }
            Expr::opaque(vec![sub(ctx, node, "value", facts)])
        }
        "index_expression" => {
            let kids = children(node);
            let collection = kids.first().map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown);
            let key = kids.get(1).map(|c| expr(ctx, *c, facts)).unwrap_or_else(Expr::unknown);
            match &key {
                Expr::Str(k) => match message_field(k) {
                    Some(f) => crate::lower::field(Some(collection), f),
                    None => Expr::Lookup { collection: Box::new(collection), key: Box::new(key) },
                },
                _ => Expr::Lookup { collection: Box::new(collection), key: Box::new(key) },
            }
        }
        "call_expression" => call_expression(ctx, node, facts),
        "macro_invocation" => macros::macro_invocation(ctx, node, facts),
        "struct_expression" => {
            let mut entries = Vec::new();
            if let Some(body) = node.field("body") {
                for f in children(body) {
                    match f.kind() {
                        "field_initializer" => {
                            let name = f.field("field").map(|n| ctx.text(n).to_string()).unwrap_or_default();
                            let value = sub(ctx, f, "value", facts);
                            entries.push((name, value));
                        }
                        "shorthand_field_initializer" => {
                            let name = ctx.text(f).to_string();
                            entries.push((name.clone(), Expr::Var(name)));
                        }
                        _ => {}
                    }
                }
            }
            let built = object(entries, span);
            let ty = node.field("name").map(|n| crate::lower::last_segment(ctx.text(n)).to_string());
            match (built, ty) {
                (obj @ Expr::Object { .. }, Some(ty)) => Expr::Call {
                    callee: crate::lower::STRUCT_LITERAL.into(),
                    receiver: None,
                    args: vec![Expr::Str(ty), obj],
                    span,
                },
                (built, _) => built,
            }
        }
        "tuple_expression" => {
            let items: Vec<Expr> = children(node).into_iter().map(|c| expr(ctx, c, facts)).collect();
            // `(StatusCode::ACCEPTED, body)` is an HTTP response, and so is
            // `(StatusCode::OK, [(header, value)], body)`: the body comes last.
            if items.len() >= 2
                && let Some(Expr::Http { status, body: None, .. }) = items.first()
            {
                // A bare null there is `Body::empty()` or `()`: no body (a JSON null is
                // `Json(Value::Null)`, a response of its own).
                let body = items.last().filter(|b| !matches!(b, Expr::Null)).cloned().map(Box::new);
                return Expr::Http { status: *status, body, span };
            }
            // `(status, Json(body))` with the status in a variable: the status it holds.
            if items.len() >= 2
                && matches!(items.first(), Some(Expr::Var(_) | Expr::Field { .. }))
                && let Some(Expr::Http { status: None, body: Some(body), .. }) = items.last()
            {
                let status = Box::new(items[0].clone());
                return Expr::HttpWith { status, body: body.clone(), null_is_empty: false, span };
            }
            // `([(header, value)], Json(body))`: headers in front of a response leave its
            // status and body as they are.
            if items.len() >= 2
                && let Some(last @ Expr::Http { .. }) = items.last()
                && items[..items.len() - 1].iter().all(|i| matches!(i, Expr::Array { .. }))
            {
                return last.clone();
            }
            // `(status, headers, body)` with the status a parameter, or computed by a
            // call (`(error_status(&e), Json(body))`): decided by its value.
            if items.len() >= 2
                && matches!(items.first(), Some(Expr::Var(_) | Expr::Field { .. } | Expr::Call { .. }))
            {
                return Expr::Call {
                    callee: crate::lower::STATUS_TUPLE.into(),
                    receiver: None,
                    args: items,
                    span,
                };
            }
            Expr::Array { items, span }
        }
        "array_expression" => {
            let items = children(node).into_iter().map(|c| expr(ctx, c, facts)).collect();
            Expr::Array { items, span }
        }
        "binary_expression" => binary(ctx, node, facts),
        "if_expression" => if_expression(ctx, node, facts),
        "match_expression" => {
            let subject = sub(ctx, node, "value", facts);
            let mut arms = Vec::new();
            if let Some(body) = node.field("body") {
                for arm in children(body).into_iter().filter(|c| c.kind() == "match_arm") {
                    arms.push(match_arm(ctx, arm, facts));
                }
            }
            Expr::Match { subject: Box::new(subject), arms, span }
        }
        "block" | "async_block" | "unsafe_block" => {
            let inner = if node.kind() == "block" {
                Some(node)
            } else {
                children(node).into_iter().find(|c| c.kind() == "block")
            };
            Expr::Block(inner.map(|b| block(ctx, b, facts)).unwrap_or_default())
        }
        // `for reply in replies`: one pass per known item.
        "for_expression" => {
            let targets = node.field("pattern").map(|p| vec![ctx.text(p).to_string()]).unwrap_or_default();
            let iterable = sub(ctx, node, "value", facts);
            let body = node.field("body").map(|b| block(ctx, b, facts)).unwrap_or_default();
            Expr::ForEach { targets, iterable: Box::new(iterable), body }
        }
        "loop_expression" | "while_expression" => {
            let mut body = Vec::new();
            if let Some(value) = node.field("value").or_else(|| node.field("condition")) {
                body.push(Stmt::Expr(expr(ctx, value, facts)));
            }
            if let Some(b) = node.field("body") {
                body.extend(block(ctx, b, facts));
            }
            Expr::Loop { body }
        }
        "return_expression" => {
            let value = children(node).first().map(|c| expr(ctx, *c, facts));
            Expr::Block(vec![Stmt::Return { value, span }])
        }
        "break_expression" => Expr::Block(vec![Stmt::LeaveLoop]),
        "continue_expression" => Expr::Block(vec![Stmt::NextRound]),
        "assignment_expression" | "compound_assignment_expr" => {
            let target = node.field("left").map(|l| ctx.text(l).to_string()).unwrap_or_default();
            let value = sub(ctx, node, "right", facts);
            // `*response.status_mut() = StatusCode::ACCEPTED`: the response's status set.
            if let Some(held) = target
                .strip_prefix('*')
                .and_then(|t| t.strip_suffix(".status_mut()"))
                .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.'))
            {
                let set = Expr::Call {
                    callee: "status".into(),
                    receiver: Some(Box::new(Expr::Var(held.to_string()))),
                    args: vec![value],
                    span,
                };
                return Expr::Block(vec![Stmt::Assign { target: held.to_string(), value: set, span }]);
            }
            let mut stmts = Vec::new();
            if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
                stmts.push(Stmt::SetInitialized { span });
            }
            stmts.push(Stmt::Assign { target, value, span });
            Expr::Block(stmts)
        }
        "closure_expression" if ctx.lift == Some(node.id()) => {
            let nodes: Vec<Node> = node
                .field("parameters")
                .map(|p| children(p).into_iter().filter(|c| c.is_named()).collect())
                .unwrap_or_default();
            let params =
                nodes.iter().map(|c| c.field("pattern").unwrap_or(*c)).map(|c| param_name(ctx, c)).collect();
            // `move |Json(request): Json<Rpc>| async move { .. }` as an axum route.
            let decoded: Vec<Extracted> = nodes
                .iter()
                .filter(|c| c.kind() == "parameter")
                .filter_map(|c| json_extracted(ctx, *c))
                .collect();
            ctx.lift = None;
            let body = sub(ctx, node, "body", facts);
            let body = if decoded.is_empty() {
                body
            } else {
                let mut stmts = decoded_prelude(decoded, span);
                stmts.push(Stmt::Yield(body));
                Expr::Block(stmts)
            };
            ctx.closure(node, params, body)
        }
        // A closure's body is taken where the closure is written (spawned tasks, callbacks).
        "closure_expression" => sub(ctx, node, "body", facts),
        _ => {
            let parts = children(node).into_iter().map(|c| expr(ctx, c, facts)).collect();
            Expr::opaque(parts)
        }
    }
}

fn binary(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let left = sub(ctx, node, "left", facts);
    let right = sub(ctx, node, "right", facts);
    let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
    match op {
        "==" | "!=" => {
            let negated = op == "!=";
            let test = match (&left, &right) {
                (x, Expr::Null) | (Expr::Null, x) => Expr::IsNull(Box::new(x.clone())),
                _ => {
                    return Expr::Eq { left: Box::new(left), right: Box::new(right), negated };
                }
            };
            if negated { Expr::Not(Box::new(test)) } else { test }
        }
        "&&" => Expr::And(Box::new(left), Box::new(right)),
        "||" => Expr::Or(Box::new(left), Box::new(right)),
        op => super::ordered(op, left, right),
    }
}

fn if_expression(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let then = node.field("consequence").map(|b| block(ctx, b, facts)).unwrap_or_default();
    let otherwise = match node.field("alternative") {
        Some(alt) => match children(alt).first() {
            Some(b) if b.kind() == "block" => block(ctx, *b, facts),
            Some(other) => vec![Stmt::Yield(expr(ctx, *other, facts))],
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    let Some(cond) = node.field("condition") else {
        return Expr::unknown();
    };
    // `if let A = a && b && let C = c { .. }` (a let chain): each condition in turn,
    // the next one tested only when this one holds, with the bindings made so far.
    let conditions = if cond.kind() == "let_chain" { children(cond) } else { vec![cond] };
    chained_if(ctx, &conditions, then, otherwise, span, facts)
}

/// `if` over conditions that must all hold in order: `let` patterns (two-arm matches
/// that bind) and plain tests, nested so that each sees what the ones before bound.
fn chained_if(
    ctx: &mut Ctx,
    conditions: &[Node],
    then: Block,
    otherwise: Block,
    span: Span,
    facts: &mut FileFacts,
) -> Expr {
    let Some((cond, rest)) = conditions.split_first() else {
        return Expr::Block(then);
    };
    let then = if rest.is_empty() {
        then
    } else {
        vec![Stmt::Yield(chained_if(ctx, rest, then, otherwise.clone(), span, facts))]
    };
    if cond.kind() == "let_condition" {
        // `if let PAT = value { then } else { otherwise }` is a two-arm match.
        let subject = sub(ctx, *cond, "value", facts);
        let pat = cond.field("pattern").map(|p| pattern_of(ctx, p)).unwrap_or(Pattern::Unknown);
        return two_arm_match(subject, pat, then, otherwise, span);
    }
    let cond = expr(ctx, *cond, facts);
    Expr::If { cond: Box::new(cond), then, otherwise, span }
}

fn match_arm(ctx: &mut Ctx, arm: Node, facts: &mut FileFacts) -> Arm {
    let span = ctx.span(arm);
    let mut patterns = Vec::new();
    let mut guard = None;
    if let Some(mp) = arm.field("pattern") {
        if let Some(cond) = mp.field("condition") {
            guard = Some(expr(ctx, cond, facts));
        }
        for p in children(mp) {
            if Some(p) == mp.field("condition") {
                continue;
            }
            flatten_or(ctx, p, &mut patterns);
        }
        if patterns.is_empty() && ctx.text(mp).trim_start().starts_with('_') {
            patterns.push(Pattern::Any(None));
        }
    }
    let body = match arm.field("value") {
        Some(v) if v.kind() == "block" => block(ctx, v, facts),
        Some(v) => vec![Stmt::Yield(expr(ctx, v, facts))],
        None => Vec::new(),
    };
    Arm { patterns, guard, body, span }
}

fn flatten_or(ctx: &Ctx, node: Node, out: &mut Vec<Pattern>) {
    if node.kind() == "or_pattern" {
        for c in children(node) {
            flatten_or(ctx, c, out);
        }
    } else {
        out.push(pattern_of(ctx, node));
    }
}

/// The variants of serde_json's `Value`.
const JSON_KINDS: &[&str] = &["Object", "Array", "String", "Number", "Bool", "Null"];

fn pattern_of(ctx: &Ctx, node: Node) -> Pattern {
    match node.kind() {
        "string_literal" | "raw_string_literal" => Pattern::Str(unquote(ctx.text(node))),
        "integer_literal" => super::int_literal(ctx.text(node)).map(Pattern::Int).unwrap_or(Pattern::Unknown),
        "identifier" => match ctx.text(node) {
            "None" => Pattern::Variant { name: "None".into(), binding: None },
            "_" => Pattern::Any(None),
            // A SCREAMING_CASE name in a pattern is a constant, not a binding.
            t if t.chars().any(|c| c.is_ascii_uppercase())
                && t.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') =>
            {
                Pattern::Const(t.to_string())
            }
            t => Pattern::Any(Some(t.to_string())),
        },
        "tuple_struct_pattern" => {
            let written = node.field("type").map(|t| ctx.text(t)).unwrap_or("");
            // serde_json's `Value::Array(items)` keeps its type: the kind of JSON value.
            let name = match written.rsplit("::").collect::<Vec<_>>().as_slice() {
                [kind, "Value", ..] if JSON_KINDS.contains(kind) => format!("Value::{kind}"),
                _ => crate::lower::last_segment(written).to_string(),
            };
            let inner = children(node).get(1).copied();
            match inner.map(|b| (b, pattern_of(ctx, b))) {
                // `Ok(reply)`: a binding (`Ok(None)`, `Some(PING)` hold a pattern).
                Some((_, Pattern::Any(Some(binding)))) => Pattern::Variant { name, binding: Some(binding) },
                // `Some("initialize")`, `Some(Ok(x))`: the content is a pattern of its own.
                Some((b, inner)) if ctx.text(b) != "_" => Pattern::VariantOf { name, inner: Box::new(inner) },
                _ => Pattern::Variant { name, binding: None },
            }
        }
        "tuple_pattern" => Pattern::Tuple(children(node).into_iter().map(|c| pattern_of(ctx, c)).collect()),
        // `&Method::POST`, `ref name`, `mut name`: what the value must match is the
        // pattern inside (a reference is matched through).
        "reference_pattern" | "ref_pattern" | "mut_pattern" => {
            children(node).last().map(|c| pattern_of(ctx, *c)).unwrap_or(Pattern::Unknown)
        }
        // `Inbound::Initialize { id, .. }`: the variant (its fields are read through the
        // message it holds, not bound here).
        "struct_pattern" => {
            let name = node.field("type").map(|t| ctx.text(t)).unwrap_or("");
            let name = crate::lower::last_segment(name).to_string();
            // `Message::Request { id, method: m, .. }` of a message kind binds its fields.
            if crate::model::message_kind(&name).is_some() {
                let fields = children(node)
                    .into_iter()
                    .filter(|f| f.kind() == "field_pattern")
                    .filter_map(|f| {
                        let field = f.field("name").map(|n| ctx.text(n).to_string())?;
                        let local = match f.field("pattern") {
                            Some(p) if p.kind() == "identifier" => ctx.text(p).to_string(),
                            Some(_) => return None,
                            None => field.clone(),
                        };
                        Some((field, local))
                    })
                    .collect();
                return Pattern::MessageFields { name, fields };
            }
            Pattern::Variant { name, binding: None }
        }
        "scoped_identifier" if ctx.text(node).ends_with("None") => {
            Pattern::Variant { name: "None".into(), binding: None }
        }
        // `Method::Post`, `Method::POST`: the HTTP verb.
        "scoped_identifier" if http_verb(ctx.text(node)).is_some() => {
            Pattern::Str(http_verb(ctx.text(node)).unwrap_or_default())
        }
        // `Inbound::Ready`: a unit variant (CamelCase; a constant is SCREAMING_CASE).
        "scoped_identifier"
            if node.field("name").is_some_and(|n| {
                let t = ctx.text(n);
                t.starts_with(|c: char| c.is_ascii_uppercase()) && t.chars().any(|c| c.is_ascii_lowercase())
            }) =>
        {
            let name = node.field("name").map(|n| ctx.text(n)).unwrap_or("");
            Pattern::Variant { name: name.to_string(), binding: None }
        }
        // `methods::PING`, `Method::PING`: a path to a constant.
        "scoped_identifier" => Pattern::Const(ctx.text(node).to_string()),
        _ if ctx.text(node) == "_" => Pattern::Any(None),
        _ => Pattern::Unknown,
    }
}

/// `#[serde(untagged)] enum Incoming { WithParams(RequestWithParams), .. }`: each
/// variant and the type it holds, in order.
fn untagged_variants(ctx: &Ctx, item: Node, facts: &mut FileFacts) {
    let mut untagged = false;
    let mut prev = item.prev_named_sibling();
    while let Some(p) = prev.filter(|p| p.kind() == "attribute_item") {
        untagged |= ctx.text(p).contains("untagged");
        prev = p.prev_named_sibling();
    }
    let (Some(name), Some(body)) = (item.field("name"), item.field("body")) else {
        return;
    };
    if !untagged {
        return;
    }
    for variant in children(body).into_iter().filter(|v| v.kind() == "enum_variant") {
        let held = variant
            .field("body")
            .filter(|b| b.kind() == "ordered_field_declaration_list")
            .and_then(|b| b.field("type"));
        if let (Some(v), Some(t)) = (variant.field("name"), held) {
            facts.untagged_variants.push((
                ctx.text(name).to_string(),
                ctx.text(v).to_string(),
                ctx.text(t).to_string(),
            ));
        }
    }
}

/// Test code inside a source file: a `#[cfg(test)]` item (the `mod tests` beside the
/// code) or a `#[test]` function (`#[tokio::test]` too). Like test files, it drives
/// the server with fake messages and is not read.
fn test_only(ctx: &Ctx, item: Node) -> bool {
    attribute_text(ctx, item).iter().any(|a| {
        let inner: String = a.chars().filter(|c| !c.is_whitespace()).collect();
        let inner = inner.strip_prefix("#[").and_then(|i| i.strip_suffix(']')).unwrap_or("");
        let path = inner.split('(').next().unwrap_or("");
        inner == "cfg(test)"
            || inner.starts_with("cfg(all(test,")
            || path == "test"
            || path.ends_with("::test")
    })
}

/// The attributes written above an item or field, past doc comments between them.
fn attribute_text(ctx: &Ctx, node: Node) -> Vec<String> {
    let mut texts = Vec::new();
    let mut sibling = node.prev_named_sibling();
    while let Some(s) =
        sibling.filter(|s| matches!(s.kind(), "attribute_item" | "line_comment" | "block_comment"))
    {
        if s.kind() == "attribute_item" {
            texts.push(ctx.text(s).to_string());
        }
        sibling = s.prev_named_sibling();
    }
    texts
}

/// The string an attribute gives a key: `"method"` in `#[serde(tag = "method")]`.
fn quoted(text: &str, key: &str) -> Option<String> {
    let mut from = 0;
    // `rename` must not match inside `rename_all`: the key ends before `=`.
    while let Some(at) = text[from..].find(key).map(|i| from + i) {
        let rest = text[at + key.len()..].trim_start();
        if let Some(rest) = rest.strip_prefix('=').map(str::trim_start).and_then(|r| r.strip_prefix('"')) {
            return rest.split('"').next().map(str::to_string);
        }
        from = at + key.len();
    }
    None
}

/// Whether an attribute holds a bare flag (`other` in `#[serde(other)]`), outside its
/// quoted strings (`#[serde(rename = "mother/board")]` holds none).
fn has_flag(text: &str, flag: &str) -> bool {
    text.split('"')
        .step_by(2)
        .flat_map(|outside| outside.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .any(|word| word == flag)
}

/// `#[serde(tag = "method")] enum Incoming { #[serde(rename = "ping")] Ping(Ping), .. }`:
/// decoding a message picks the variant its `method` names. The table of wire names
/// to variants, kept as the enum's module-level binding (`Incoming.<TAGGED>`); a
/// `#[serde(other)]` variant takes any other name (key `""`).
fn tagged_by_method(ctx: &Ctx, item: Node) -> Option<Stmt> {
    let attributes: Vec<String> =
        attribute_text(ctx, item).into_iter().filter(|t| t.contains("serde")).collect();
    if !attributes.iter().any(|t| quoted(t, "tag").as_deref() == Some("method")) {
        return None;
    }
    let body = item.field("body")?;
    let variants = children(body).into_iter().filter(|v| v.kind() == "enum_variant").collect();
    variant_table(ctx, item, &attributes, variants, crate::lower::TAGGED_BY_METHOD)
}

/// An enum whose variants are all unit variants, deserialised from a string (serde's
/// externally tagged form): the table of the strings it takes to its variants
/// (`#[serde(rename = "..")]`, `rename_all`, aliases; `#[serde(other)]` takes any other,
/// key `""`), kept as the enum's module-level binding (`Method.<UNIT>`).
fn unit_by_name(ctx: &Ctx, item: Node) -> Option<Stmt> {
    let attributes: Vec<String> =
        attribute_text(ctx, item).into_iter().filter(|t| t.contains("serde")).collect();
    if attributes.iter().any(|t| has_flag(t, "untagged") || quoted(t, "tag").is_some()) {
        return None;
    }
    let body = item.field("body")?;
    let variants: Vec<Node> = children(body).into_iter().filter(|v| v.kind() == "enum_variant").collect();
    if variants.is_empty() || variants.iter().any(|v| v.field("body").is_some()) {
        return None;
    }
    variant_table(ctx, item, &attributes, variants, crate::lower::UNIT_BY_NAME)
}

/// The table of an enum's wire names (serde's `rename`, the enum's `rename_all`,
/// aliases; `#[serde(other)]` under `""`, skipped variants left out) to its variants,
/// bound at module level as `Enum.<member>`.
fn variant_table(
    ctx: &Ctx,
    item: Node,
    attributes: &[String],
    variants: Vec<Node>,
    member: &str,
) -> Option<Stmt> {
    let rule = attributes.iter().find_map(|t| quoted(t, "rename_all"));
    let name = ctx.text(item.field("name")?).to_string();
    let mut entries = Vec::new();
    for variant in variants {
        let Some(ident) = variant.field("name").map(|n| ctx.text(n).to_string()) else {
            continue;
        };
        let own: Vec<String> =
            attribute_text(ctx, variant).into_iter().filter(|t| t.contains("serde")).collect();
        if own.iter().any(|t| has_flag(t, "other")) {
            entries.push((String::new(), Expr::Str(ident)));
            continue;
        }
        if own.iter().any(|t| has_flag(t, "skip") || has_flag(t, "skip_deserializing")) {
            continue;
        }
        let wire = own.iter().find_map(|t| quoted(t, "rename")).unwrap_or_else(|| match rule.as_deref() {
            Some(rule) => crate::lower::variant_renamed(&ident, rule),
            None => ident.clone(),
        });
        for alias in own.iter().filter_map(|t| quoted(t, "alias")) {
            entries.push((alias, Expr::Str(ident.clone())));
        }
        entries.push((wire, Expr::Str(ident)));
    }
    let span = ctx.span(item);
    Some(Stmt::Assign { target: format!("{name}.{member}"), value: Expr::Object { entries, span }, span })
}

/// `#[serde(rename = "...")]` on a field, `#[serde(rename_all = "camelCase")]` on the
/// struct: the JSON members its fields serialise as.
fn serde_names(ctx: &Ctx, item: Node, facts: &mut FileFacts) {
    let attribute_text = |node: Node| attribute_text(ctx, node);
    let rule =
        attribute_text(item).iter().filter(|t| t.contains("serde")).find_map(|t| quoted(t, "rename_all"));
    let Some(body) = item.field("body") else { return };
    let owner = item.field("name").map(|n| ctx.text(n).to_string());
    for field in children(body).into_iter().filter(|c| c.kind() == "field_declaration") {
        let Some(name) = field.field("name").map(|n| ctx.text(n).to_string()) else { continue };
        facts.declared_fields.push(name.clone());
        if let (Some(owner), Some(class)) =
            (&owner, field.field("type").and_then(|t| crate::lower::type_class(ctx.text(t))))
        {
            facts.field_types.push((owner.clone(), name.clone(), class));
        }
        // `id: RequestId` with no `Option` and no serde default: required to decode.
        let optional = field.field("type").is_none_or(|t| {
            let t = ctx.text(t);
            t.starts_with("Option<") || t.starts_with("std::option::Option<")
        });
        let defaulted = attribute_text(field).iter().chain(attribute_text(item).iter()).any(|t| {
            t.contains("serde") && (t.contains("default") || t.contains("untagged") || t.contains("flatten"))
        });
        if name == "id"
            && let Some(owner) = &owner
        {
            facts.id_members.push((owner.clone(), !optional && !defaulted));
        }
        // `#[serde(flatten)] payload: Payload`: its members go out in this struct's
        // object, under no name of their own.
        if let Some(owner) = &owner
            && attribute_text(field).iter().any(|t| t.contains("serde") && has_flag(t, "flatten"))
        {
            facts.json_names.push((format!("{owner}.{name}"), crate::lower::FLATTENED.to_string()));
            continue;
        }
        let explicit =
            attribute_text(field).iter().filter(|t| t.contains("serde")).find_map(|t| quoted(t, "rename"));
        let json = explicit.or_else(|| rule.as_deref().map(|r| crate::lower::renamed(&name, r)));
        if let Some(json) = json.filter(|j| *j != name) {
            // Also under its struct's name: a literal of that struct renames its own
            // fields, whatever other structs do with the same field name.
            if let Some(owner) = &owner {
                facts.json_names.push((format!("{owner}.{name}"), json.clone()));
            }
            facts.json_names.push((name, json));
        }
    }
}

/// serde_json's decoders: on a well-formed message they return `Ok`.
const DECODERS: &[&str] = &["from_str", "from_slice", "from_value", "from_reader"];

/// `Method::POST` (http, hyper, actix), `Method::Post` (workers-rs): the verb it names.
fn http_verb(path: &str) -> Option<String> {
    let (ty, verb) = path.rsplit_once("::")?;
    let verb = verb.to_ascii_uppercase();
    (crate::lower::last_segment(ty) == "Method" && crate::model::HTTP_VERBS.contains(&verb.as_str()))
        .then_some(verb)
}

/// What a framework's response constructor or reply function answers, by its
/// arguments (see [`frameworks::Answer`]). A status written as anything but a number
/// is evaluated where the answer is built, never taken as the default 200; a reply
/// given a status keeps its own body (`with_status(warp::reply::json(&r), code)`).
fn answer_expr(answer: frameworks::Answer, args: Vec<Expr>, span: crate::model::Span) -> Expr {
    use frameworks::Answer;
    let empty = || Expr::Str(String::new());
    let mut args = args.into_iter();
    match answer {
        Answer::Body => Expr::Http { status: Some(200), body: args.next().map(Box::new), span },
        Answer::Empty => Expr::Http { status: Some(200), body: None, span },
        Answer::EmptyWithStatus => {
            crate::lower::http_answer(args.next().unwrap_or_else(Expr::unknown), empty(), span)
        }
        Answer::BodyWithStatus => {
            let body = match args.next() {
                Some(Expr::Http { body, .. }) => body.map(|b| *b).unwrap_or_else(empty),
                Some(other) => other,
                None => empty(),
            };
            crate::lower::http_answer(args.next().unwrap_or_else(Expr::unknown), body, span)
        }
    }
}

/// HTTP body types built from the bytes they carry (`Body::from(text)`).
const BODY_TYPES: &[&str] = &["Body", "Full", "Bytes", "BoxBody"];

/// Collections of running tasks (tokio's `JoinSet`, futures' `FuturesUnordered` and
/// `FuturesOrdered`), empty when made with `new()`.
const TASK_SETS: &[&str] = &["JoinSet", "FuturesUnordered", "FuturesOrdered"];

/// Types whose `new()` is an empty text or body: `Bytes::new()`, `String::new()`,
/// http-body-util's `Empty::new()`.
const EMPTY_NEW_TYPES: &[&str] = &["Bytes", "BytesMut", "String", "Empty"];

/// Constructors of smart pointers and cells: the value they hold is the value used.
const POINTER_WRAPPERS: &[&str] = &[
    "Box::new",
    "Box::pin",
    "Pin::new",
    "Arc::new",
    "Rc::new",
    "RefCell::new",
    "Cell::new",
    "Mutex::new",
    "RwLock::new",
];

fn call_expression(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let Some(func) = node.field("function") else {
        return Expr::unknown();
    };
    if let Some(lowered) = rpc_library_call(ctx, node, facts) {
        return lowered;
    }
    let args: Vec<Expr> = node
        .field("arguments")
        .map(|a| children(a).into_iter().map(|c| expr(ctx, c, facts)).collect())
        .unwrap_or_default();
    // `from_value::<Request<Value>>(v)`: the type decoded into.
    let turbofish = (func.kind() == "generic_function")
        .then(|| func.field("type_arguments"))
        .flatten()
        .and_then(|t| crate::lower::type_class(ctx.text(t).trim_start_matches('<').trim_end_matches('>')));
    let func = if func.kind() == "generic_function" { func.field("function").unwrap_or(func) } else { func };
    // `(self.handler)(&msg)`: a function kept in a field, called as that field.
    let func = match func.kind() {
        "parenthesized_expression" => func
            .named_child(0)
            .filter(|inner| matches!(inner.kind(), "field_expression" | "identifier"))
            .unwrap_or(func),
        _ => func,
    };
    let callee = ctx.text(func).to_string();
    // `McpResponse::ok(id, v)` after `use crate::protocol::Response as McpResponse`: the
    // type's own name, so that the call resolves to `Response::ok`.
    let callee = match callee.split_once("::") {
        Some((head, rest)) => match ctx.aliases.iter().find(|(local, _)| local == head) {
            Some((_, own)) => format!("{own}::{rest}"),
            None => callee,
        },
        None => callee,
    };
    let last = crate::lower::last_segment(&callee).to_string();
    // `Response::default()` of a struct deriving Default: an empty value of the type.
    if last == "default"
        && args.is_empty()
        && let Some(ty) =
            callee.strip_suffix("::default").filter(|t| ctx.default_structs.iter().any(|d| d == t))
    {
        let empty = Expr::Object { entries: Vec::new(), span };
        return Expr::Call {
            callee: crate::lower::STRUCT_LITERAL.into(),
            receiver: None,
            args: vec![Expr::Str(ty.to_string()), empty],
            span,
        };
    }
    if last == "stdin" {
        ctx.saw_stdin = true;
    }
    // `HeaderMap::new()`: headers, a list of pairs (a response tuple's member that is
    // no body: `(status, headers)`).
    if matches!(last.as_str(), "new" | "with_capacity" | "default")
        && callee
            .strip_suffix(&format!("::{last}"))
            .is_some_and(|t| crate::lower::last_segment(t) == "HeaderMap")
    {
        return Expr::Array { items: Vec::new(), span };
    }
    // `uteke_mcp::handle_jsonrpc(..)` without a `use`: the path names the crate as a
    // `use` would (a crate of the workspace links the files; others are ignored).
    if func.kind() == "scoped_identifier"
        && let Some((krate, _)) = callee.split_once("::")
        && krate.starts_with(|c: char| c.is_ascii_lowercase())
    {
        for hint in use_hints(&callee) {
            if hint.starts_with(crate::model::RUST_CRATE) && !facts.imports.contains(&hint) {
                facts.imports.push(hint);
            }
        }
    }
    if frameworks::PROCESS_EXITS.contains(&callee.as_str()) {
        return crate::lower::exit(None, span);
    }
    // `req.method()` on the handler's HTTP request: the verb, POST as probes arrive;
    // `req.json()` (workers-rs): its body decoded, the message.
    if let Some(recv) = callee.strip_suffix(&format!(".{last}"))
        && ctx.request_params.iter().any(|p| p == recv.trim())
    {
        match last.as_str() {
            "method" => return Expr::Str("POST".into()),
            "json" => return Expr::Message(Vec::new()),
            _ => {}
        }
    }
    // `thread::spawn(move || ..)`, `tokio::spawn(async move { .. })`: the closure runs
    // beside this path (see [`crate::lower::DETACHED`]).
    if frameworks::SPAWNS.contains(&last.as_str()) && callee.contains("::") {
        // `spawn_blocking(move || work()).await`: awaited, the task's value comes back
        // (`Ok` of what the closure returns) on this path.
        if node.parent().is_some_and(|p| p.kind() == "await_expression")
            && let [closure] = args.as_slice()
        {
            return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(closure.clone())) };
        }
        return Expr::Call { callee: crate::lower::DETACHED.into(), receiver: None, args, span };
    }
    // A wait bounded by a deadline (`tokio::time::timeout(d, work).await`,
    // `rx.recv_timeout(d)`): the scan takes the work to finish in time, so the wait
    // yields what it waits for, in `Ok`; an arm for the deadline passing (a handler
    // that never finished) is no answer to the method.
    if frameworks::DEADLINE_WAITS.iter().any(|w| callee == *w || callee.ends_with(&format!("::{w}")))
        && args.len() == 2
    {
        return Expr::Variant { name: "Ok".into(), inner: args.into_iter().nth(1).map(Box::new) };
    }
    // `AssertUnwindSafe(work).catch_unwind().await`, `panic::catch_unwind(|| work())`:
    // the work's value in `Ok`; a panic inside it is a raised path, not one this turns
    // into `Err` (the scan follows no panic that the code does not raise itself).
    if last == "catch_unwind" {
        let work = match (func.kind(), args.as_slice()) {
            ("field_expression", []) => func.field("value").map(|v| expr(ctx, v, facts)),
            (_, [closure]) => Some(Expr::Call {
                callee: "()".into(),
                receiver: Some(Box::new(closure.clone())),
                args: Vec::new(),
                span,
            }),
            _ => None,
        };
        if let Some(work) = work {
            return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(work)) };
        }
    }
    if func.kind() == "field_expression"
        && last == "recv_timeout"
        && let Some(value) = func.field("value")
    {
        let callee = format!("{}.recv", ctx.text(value));
        let receiver = expr(ctx, value, facts);
        let received = call(callee, Some(receiver), Vec::new(), Vec::new(), span);
        return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(received)) };
    }
    if callee.split([':', '.']).any(|seg| crate::lower::SDK_SERVER_CALLS.contains(&seg))
        && ctx.sdk_server.is_none()
    {
        ctx.sdk_server = Some(span);
    }
    if ROUTER_CALLS.contains(&last.as_str())
        && let Some(arguments) = node.field("arguments")
    {
        // `post(handle)` and `post(routes::handle)` name a free function;
        // `post(Server::handle)` and `post(Self::handle)` a method of a type.
        for a in
            children(arguments).into_iter().filter(|a| matches!(a.kind(), "identifier" | "scoped_identifier"))
        {
            let text = ctx.text(a);
            let name = crate::lower::last_segment(text);
            let ty = text.rsplit_once("::").map(|(path, _)| crate::lower::last_segment(path));
            facts.http_handlers.push(match ty {
                Some(ty) if ty.starts_with(|c: char| c.is_ascii_uppercase()) => format!("{ty}.{name}"),
                _ => name.to_string(),
            });
        }
    }
    // `Box::pin(async move { .. })`, `Arc::new(server)`: a pointer to the value, which
    // is used as the value.
    if args.len() == 1
        && POINTER_WRAPPERS
            .iter()
            .any(|w| callee.strip_suffix(w).is_some_and(|path| path.is_empty() || path.ends_with("::")))
    {
        return args.into_iter().next().unwrap_or_else(Expr::unknown);
    }
    // `Value::Object(map)`, `Value::Array(items)`: serde_json's value holding the map
    // or list, which serialises as it.
    if args.len() == 1
        && ["Value::Object", "Value::Array"]
            .iter()
            .any(|w| callee.strip_suffix(w).is_some_and(|path| path.is_empty() || path.ends_with("::")))
    {
        // `Value::Array(items)`, `Value::Object(map)`: the list or map it wraps;
        // `Value::Array(Vec::new())` is the empty JSON list (a `Vec::new()` alone may
        // also be a byte buffer, see below).
        return match args.into_iter().next() {
            Some(Expr::Call { callee, .. }) if callee == crate::lower::CAPTURE => {
                Expr::Array { items: Vec::new(), span }
            }
            Some(inner) => inner,
            None => Expr::unknown(),
        };
    }
    if callee.ends_with("Map::new") || callee.ends_with("HashMap::new") {
        return Expr::Object { entries: Vec::new(), span };
    }
    // `Vec::new()`, `Vec::with_capacity(n)`: an empty list, or an empty byte buffer
    // a writer fills (`writeln!(buf, ..)`): a capture, empty until written or pushed to.
    if matches!(
        callee.as_str(),
        "Vec::new" | "Vec::with_capacity" | "VecDeque::new" | "VecDeque::with_capacity"
    ) {
        return crate::lower::capture(span);
    }
    // A set of tasks made empty (`JoinSet::<T>::new()`, `FuturesUnordered::new()`): empty
    // until one is spawned or pushed into it, so nothing to reap from it before.
    let (collection, made) = callee.rsplit_once("::").unwrap_or(("", ""));
    let collection = crate::lower::last_segment(collection.split("::<").next().unwrap_or(collection));
    if made == "new" && args.is_empty() && TASK_SETS.contains(&collection) {
        return crate::lower::capture(span);
    }
    // `serde_json::to_string(&reply)`, `to_value(result)`: the JSON is the value, and `Ok`.
    // Text (`to_string`, `to_vec`) holds a string quoted; `to_value` keeps it a string.
    if super::serialises(Language::Rust, &callee) && callee.contains("serde_json") && !args.is_empty() {
        let value = args.into_iter().next().unwrap_or_else(Expr::unknown);
        let value = if last == "to_value" { value } else { super::serialised(value, span) };
        return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(value)) };
    }
    // `serde_json::from_str(r#"{"tools": []}"#)`: JSON written in the code is its value.
    if DECODERS.contains(&last.as_str())
        && let Some(Expr::Str(text)) = args.first()
        && let Some(value) = super::raw_json(text, span)
    {
        return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(value)) };
    }
    // `Value::String(name)` of serde_json: the JSON string is the text itself.
    if (callee == "Value::String" || callee.ends_with("json::Value::String")) && args.len() == 1 {
        return args.into_iter().next().unwrap_or_else(Expr::unknown);
    }
    // Probes are well-formed: decoding the message succeeds.
    if DECODERS.contains(&last.as_str()) && (callee.contains("serde_json") || callee == last) {
        let decoded = Expr::Variant { name: "Ok".into(), inner: Some(Box::new(Expr::Message(args))) };
        return match turbofish.or_else(|| ctx.declared.clone()) {
            Some(ty) => Expr::Call {
                callee: crate::lower::DECODE_AS.into(),
                receiver: None,
                args: vec![Expr::Str(ty), Expr::Str("err".into()), decoded],
                span,
            },
            None => decoded,
        };
    }
    // A wrapper imported under another name (`AxumJson(v)`) is the wrapper.
    let own = ctx.aliases.iter().find(|(local, _)| *local == callee).map(|(_, own)| own.as_str());
    match own.unwrap_or(last.as_str()) {
        "Some" => return args.into_iter().next().unwrap_or(Expr::Null),
        // A marker wrapper: the value it wraps.
        "AssertUnwindSafe" if args.len() == 1 => return args.into_iter().next().unwrap_or(Expr::Null),
        // `HttpResponse::Ok()` is actix's 200 builder, not a result.
        "Ok" | "Err" if !callee.starts_with("HttpResponse::") => {
            return Expr::Variant { name: last, inner: args.into_iter().next().map(Box::new) };
        }
        "Json" => {
            return Expr::Http { status: None, body: args.into_iter().next().map(Box::new), span };
        }
        _ => {}
    }
    // `Outcome::Answer(reply)`, `Self::Refusal(err)`: a tuple variant of the code's own
    // enum holds its value under the variant's name (a function would be snake_case).
    let path =
        |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
    if let Some((ty, variant)) = callee.rsplit_once("::")
        && args.len() == 1
        && path(ty)
        && path(variant)
        && crate::lower::last_segment(ty).starts_with(|c: char| c.is_ascii_uppercase())
        && crate::lower::last_segment(ty) != "Value"
        && variant.starts_with(|c: char| c.is_ascii_uppercase())
        && variant.chars().any(|c| c.is_ascii_lowercase())
        && !matches!(variant, "Some" | "Ok" | "Err" | "Json")
    {
        return Expr::Variant { name: variant.to_string(), inner: args.into_iter().next().map(Box::new) };
    }
    if callee.starts_with("HttpResponse::")
        && let Some(status) = status_by_name(&last)
    {
        return Expr::Http { status: Some(status), body: None, span };
    }
    // tiny_http's `Response::from_string(body)` (a 200) and `Response::empty(204)`;
    // workers-rs's `Response::empty()` (a 200) and `Response::error(text, 400)`.
    if let Some(ty) = callee.strip_suffix(&format!("::{last}"))
        && let Some(answer) = frameworks::REQUEST_CRATES.iter().find_map(|c| {
            let used = ctx.response_types.iter().any(|r| *r == format!("{}::{}", c.krate, c.response));
            let named = crate::lower::last_segment(ty) == c.response;
            (used && named)
                .then(|| c.constructors.iter().find(|(n, _)| *n == last).map(|(_, a)| *a))
                .flatten()
        })
    {
        return answer_expr(answer, args, span);
    }
    // warp's reply functions (see [`frameworks::FUNCTION_RESPONSES`]); written without
    // the crate only in a file that uses warp and defines no function of that name
    // (a server's own `async fn reply(out, id, result)`).
    let short_warp = |path: &str| {
        path.strip_prefix("warp::") == Some(callee.as_str())
            && !ctx.own_names.contains(&callee)
            && facts.imports.iter().any(|i| i == &format!("{}warp", crate::model::RUST_CRATE))
    };
    if let Some(answer) = frameworks::FUNCTION_RESPONSES
        .iter()
        .find(|(path, _)| callee == *path || short_warp(path))
        .map(|(_, a)| *a)
    {
        return answer_expr(answer, args, span);
    }
    // `Response::builder()` (http, axum, hyper): an answer the builder calls shape.
    if last == "builder" && crate::lower::last_segment(callee.trim_end_matches("::builder")) == "Response" {
        return Expr::Http { status: None, body: None, span };
    }
    // `Response::new(body)` (http, axum, hyper): the body with the status unset (200),
    // which `*response.status_mut() = ..` may set.
    if last == "new"
        && crate::lower::last_segment(callee.trim_end_matches("::new")) == "Response"
        && !ctx.own_names.iter().any(|n| n == "Response")
        && let [body] = args.as_slice()
    {
        let body = (!matches!(body, Expr::Null)).then(|| Box::new(body.clone()));
        return Expr::Http { status: None, body, span };
    }
    // `Body::empty()`: no body.
    if last == "empty" && BODY_TYPES.contains(&crate::lower::last_segment(callee.trim_end_matches("::empty")))
    {
        return Expr::Null;
    }
    // `Bytes::new()`, `String::new()`, `Empty::new()` (http-body-util): empty; so is
    // the default of a body or text type (`Full::default()`, `Body::default()`).
    // (`Empty::<Bytes>::new()` names its type with the turbofish left out.)
    let owner_type = callee.rsplit_once("::").map_or("", |(t, _)| t);
    let owner_type = crate::lower::last_segment(owner_type.split("::<").next().unwrap_or(owner_type));
    if args.is_empty()
        && ((last == "new" && EMPTY_NEW_TYPES.contains(&owner_type))
            || (last == "default"
                && (EMPTY_NEW_TYPES.contains(&owner_type) || BODY_TYPES.contains(&owner_type))))
    {
        return Expr::Str(String::new());
    }
    // `Body::from(text)`, `Full::new(bytes)`, `Bytes::from_static(b"..")`: the body is the text.
    if matches!(last.as_str(), "from" | "new" | "from_static")
        && BODY_TYPES.contains(&crate::lower::last_segment(callee.rsplit_once("::").map_or("", |(t, _)| t)))
        && args.len() == 1
    {
        return args.into_iter().next().unwrap_or_else(Expr::unknown);
    }
    // `home().unwrap_or_else(|e| { eprintln!(..); exit(1) })`: the closure runs only
    // on `Err`/`None`; on the other path the value is unwrapped.
    if func.kind() == "field_expression"
        && last == "unwrap_or_else"
        && let [closure] = node.field("arguments").map(children).unwrap_or_default().as_slice()
        && closure.kind() == "closure_expression"
        && let Some(value) = func.field("value")
    {
        // The value is computed once; what it holds decides (unknown: both ways).
        const HELD: &str = "<unwrap_or_else>";
        let recv = expr(ctx, value, facts);
        let held = || Box::new(Expr::Var(HELD.to_string()));
        let unwrapped =
            Expr::Call { callee: "unwrap".into(), receiver: Some(held()), args: Vec::new(), span };
        let choice = Expr::If {
            cond: Box::new(Expr::Not(Box::new(Expr::IsNull(held())))),
            then: vec![Stmt::Yield(unwrapped)],
            otherwise: vec![Stmt::Yield(sub(ctx, *closure, "body", facts))],
            span,
        };
        return Expr::Block(vec![
            Stmt::Assign { target: HELD.to_string(), value: recv, span },
            Stmt::Yield(choice),
        ]);
    }
    if func.kind() == "field_expression"
        && matches!(last.as_str(), "map" | "and_then" | "is_some_and" | "is_none_or")
    {
        // `id.map(|id| reply(id))` runs the closure only when the option holds a value;
        // `id.is_some_and(|v| !v.is_null())` tests what it holds, and is false without one.
        let arguments = node.field("arguments").map(children).unwrap_or_default();
        if let ([closure], Some(value)) = (arguments.as_slice(), func.field("value"))
            && closure.kind() == "closure_expression"
        {
            let recv = expr(ctx, value, facts);
            let param = closure
                .field("parameters")
                .and_then(|p| children(p).into_iter().next())
                .map(|p| ctx.text(p).to_string());
            let mut then = Vec::new();
            if let Some(p) = param {
                then.push(Stmt::Assign { target: p, value: recv.clone(), span });
            }
            then.push(Stmt::Yield(sub(ctx, *closure, "body", facts)));
            let held = Expr::Not(Box::new(Expr::IsNull(Box::new(recv))));
            let empty = match last.as_str() {
                "is_some_and" => Expr::Bool(false),
                "is_none_or" => Expr::Bool(true),
                _ => Expr::Null,
            };
            return Expr::If { cond: Box::new(held), then, otherwise: vec![Stmt::Yield(empty)], span };
        }
        // `msg.get("id").is_none_or(Value::is_null)`: the test a method path names,
        // called on what the option holds (`v.is_null()`).
        if matches!(last.as_str(), "is_some_and" | "is_none_or")
            && let ([path], Some(value)) = (arguments.as_slice(), func.field("value"))
            && path.kind() == "scoped_identifier"
            && let Some(method) = path.field("name").map(|n| ctx.text(n).to_string())
        {
            let recv = expr(ctx, value, facts);
            let test = super::call(method, Some(recv.clone()), Vec::new(), Vec::new(), span);
            let held = Expr::Not(Box::new(Expr::IsNull(Box::new(recv))));
            let empty = Expr::Bool(last == "is_none_or");
            return Expr::If {
                cond: Box::new(held),
                then: vec![Stmt::Yield(test)],
                otherwise: vec![Stmt::Yield(empty)],
                span,
            };
        }
        // `.map(ToString::to_string)`, `.map(String::from)`, `.map(Box::new)`: a
        // conversion named by its path keeps what the option or result holds, as the
        // method called on it would; `.map(Some)` wraps it in a variant the scan reads
        // through (`Some(x)` matches a value that is there). An `Err` stays the error.
        if last == "map"
            && let ([path], Some(value)) = (arguments.as_slice(), func.field("value"))
            && match path.kind() {
                "scoped_identifier" => is_conversion_path(ctx.text(*path)),
                "identifier" => matches!(ctx.text(*path), "Some" | "Ok"),
                _ => false,
            }
        {
            return expr(ctx, value, facts);
        }
    }
    // `dispatch(..).map_or_else(|| empty_202(), |reply| json_200(reply))`: the second
    // closure runs on what the option holds, the first when it holds nothing; on a
    // result (`|e| ..` first) the first runs on the error.
    if func.kind() == "field_expression"
        && last == "map_or_else"
        && let [default, mapped] = node.field("arguments").map(children).unwrap_or_default().as_slice()
        && default.kind() == "closure_expression"
        && mapped.kind() == "closure_expression"
        && let Some(value) = func.field("value")
    {
        let first_param = |closure: &Node| {
            closure
                .field("parameters")
                .and_then(|p| children(p).into_iter().next())
                .map(|p| ctx.text(p).trim_start_matches("mut ").to_string())
                .filter(|p| p.chars().all(|c| c.is_alphanumeric() || c == '_'))
        };
        let (error_param, param) = (first_param(default), first_param(mapped));
        let recv = expr(ctx, value, facts);
        let on_value = vec![Stmt::Yield(sub(ctx, *mapped, "body", facts))];
        let on_empty = vec![Stmt::Yield(sub(ctx, *default, "body", facts))];
        let arm = |name: &str, binding: Option<String>, body| Arm {
            patterns: vec![Pattern::Variant { name: name.to_string(), binding }],
            guard: None,
            body,
            span,
        };
        let has_params =
            |closure: &Node| closure.field("parameters").is_some_and(|p| !children(p).is_empty());
        // A result: `Ok(v)` to the second closure, `Err(e)` to the first.
        if has_params(default) {
            let arms = vec![arm("Ok", param, on_value), arm("Err", error_param, on_empty)];
            return Expr::Match { subject: Box::new(recv), arms, span };
        }
        let mut then = Vec::new();
        if let Some(p) = param {
            then.push(Stmt::Assign { target: p, value: recv.clone(), span });
        }
        then.extend(on_value);
        let held = Expr::Not(Box::new(Expr::IsNull(Box::new(recv))));
        return Expr::If { cond: Box::new(held), then, otherwise: on_empty, span };
    }
    // `msg.get("id").filter(|id| !id.is_null())`: the option's value when the closure
    // holds for it, else nothing. Only on an option read from a value or a name (an
    // iterator's `filter` is a chain of calls such as `.iter().filter(..)`).
    if func.kind() == "field_expression"
        && last == "filter"
        && let Some(value) = func.field("value")
        && (matches!(value.kind(), "identifier" | "field_expression")
            || (value.kind() == "call_expression" && ctx.text(value).contains(".get(")))
        && let [closure] = node.field("arguments").map(children).unwrap_or_default().as_slice()
        && closure.kind() == "closure_expression"
    {
        let recv = expr(ctx, value, facts);
        let param = closure
            .field("parameters")
            .and_then(|p| children(p).into_iter().next())
            .map(|p| ctx.text(p).trim_start_matches('&').to_string());
        let mut then = Vec::new();
        // What passes is the closure's parameter as the test left it (a version found
        // in the supported list is a checked one).
        let passed = match &param {
            Some(p) if p.chars().all(|c| c.is_alphanumeric() || c == '_') => Expr::Var(p.clone()),
            _ => recv.clone(),
        };
        if let Some(p) = param {
            then.push(Stmt::Assign { target: p, value: recv.clone(), span });
        }
        then.push(Stmt::Yield(Expr::If {
            cond: Box::new(sub(ctx, *closure, "body", facts)),
            then: vec![Stmt::Yield(passed)],
            otherwise: vec![Stmt::Yield(Expr::Null)],
            span,
        }));
        let held = Expr::Not(Box::new(Expr::IsNull(Box::new(recv))));
        return Expr::If { cond: Box::new(held), then, otherwise: vec![Stmt::Yield(Expr::Null)], span };
    }
    if func.kind() == "field_expression"
        && matches!(last.as_str(), "ok_or" | "ok_or_else")
        && let Some(value) = func.field("value")
    {
        // `opt.ok_or_else(|| err)`: `Ok` of what the option holds, `Err` when it
        // holds nothing, so a `?` after it goes on with the value or returns.
        let recv = expr(ctx, value, facts);
        // A message field keeps what it is (`req.id.ok_or(..)?`), as other adapters do.
        if matches!(recv, Expr::Field { .. }) {
            return recv;
        }
        // The error: the argument, or the body of the closure that makes it (a closure
        // is lowered as its body where it is written).
        let error = args.into_iter().next().unwrap_or_else(Expr::unknown);
        let cond = Expr::IsNull(Box::new(recv.clone()));
        let err = Expr::Variant { name: "Err".to_string(), inner: Some(Box::new(error)) };
        let ok = Expr::Variant { name: "Ok".to_string(), inner: Some(Box::new(recv)) };
        return Expr::If {
            cond: Box::new(cond),
            then: vec![Stmt::Yield(err)],
            otherwise: vec![Stmt::Yield(ok)],
            span,
        };
    }
    if func.kind() == "field_expression"
        && matches!(last.as_str(), "map_err" | "context" | "with_context")
        && let Some(value) = func.field("value")
    {
        return error_adapter(ctx, node, value, &last, args, facts, span);
    }
    if func.kind() == "field_expression" && REGISTER_CALLS.contains(&last.as_str()) {
        // `handlers.insert("tools/list", on_list)` registers a handler by method name.
        if let (Some(Expr::Str(method)), Some(arguments)) = (args.first(), node.field("arguments")) {
            let handler = children(arguments).get(1).map(|h| ctx.text(*h).to_string());
            if let Some(handler) = handler.filter(|_| crate::model::is_mcp_method(method)) {
                let registry = func.field("value").map(|v| ctx.text(v)).unwrap_or("");
                facts.registrations.push(crate::model::Registration {
                    registry: registry.to_string(),
                    method: method.clone(),
                    handler: crate::lower::last_segment(handler.trim_start_matches('&')).to_string(),
                    span,
                });
            }
        }
    }
    // `InitializedHandler {}.handle(request, session)`: the method of the type built
    // there (not any method of that name), as `InitializedHandler::handle(..)` is.
    if func.kind() == "field_expression"
        && let Some(value) = func.field("value").filter(|v| v.kind() == "struct_expression")
        && let Some(ty) = value.field("name").map(|t| ctx.text(t))
    {
        let ty = ty.split('<').next().unwrap_or(ty).trim_end_matches("::");
        return call(format!("{ty}::{last}"), None, args, Vec::new(), span);
    }
    if func.kind() == "field_expression" {
        let value = func.field("value");
        let receiver_text = value.map(|v| ctx.text(v)).unwrap_or("");
        if receiver_text.ends_with("stderr()") || receiver_text == "stderr" {
            return Expr::opaque(args);
        }
        let receiver = value.map(|v| expr(ctx, v, facts));
        if let Some(Expr::Http { status, body, span: s }) = &receiver {
            return http_builder(&last, *status, body.clone(), args, *s);
        }
        let receiver = receiver.filter(|_| receiver_text != "self");
        return call(callee, receiver, args, Vec::new(), span);
    }
    if ctx.own_names.contains(&callee) {
        return Expr::Call { callee, receiver: None, args, span };
    }
    call(callee, None, args, Vec::new(), span)
}

/// `ToString::to_string`, `str::to_owned`, `String::from`, `Box::new`: a path naming a
/// conversion that keeps the value (a method of [`frameworks::TRANSPARENT`], `String`'s
/// `from`, a smart pointer's `new`).
fn is_conversion_path(path: &str) -> bool {
    let (owner, name) = path.rsplit_once("::").unwrap_or(("", path));
    let owner = crate::lower::last_segment(owner);
    frameworks::TRANSPARENT.contains(&name)
        || (name == "from" && owner == "String")
        || (name == "new" && matches!(owner, "Box" | "Arc" | "Rc"))
}

/// `r.map_err(|e| JsonRpcError::internal(e))`, `r.map_err(McpError::from)`,
/// `r.context("..")`: the success value as it was, an error replaced by the one the
/// adapter makes. A result the scan cannot read stays what it was: a `?` after it goes
/// on (as it does after any call it cannot read), it is not an error path of its own.
fn error_adapter(
    ctx: &mut Ctx,
    node: Node,
    value: Node,
    adapter: &str,
    args: Vec<Expr>,
    facts: &mut FileFacts,
    span: Span,
) -> Expr {
    const RESULT: &str = "mcp-conform/result";
    const ERROR: &str = "mcp-conform/error";
    let recv = expr(ctx, value, facts);
    let argument = node.field("arguments").and_then(|a| children(a).into_iter().next());
    let (binding, mapped) = match argument {
        Some(c) if adapter == "map_err" && c.kind() == "closure_expression" => {
            let param = c
                .field("parameters")
                .and_then(|p| children(p).into_iter().next())
                .map(|p| ctx.text(p).to_string())
                .filter(|p| p != "_");
            (param, sub(ctx, c, "body", facts))
        }
        // A function named as the mapper: called with the error.
        Some(c) if adapter == "map_err" && matches!(c.kind(), "identifier" | "scoped_identifier") => {
            let callee = ctx.text(c).to_string();
            (Some(ERROR.to_string()), call(callee, None, vec![Expr::Var(ERROR.into())], Vec::new(), span))
        }
        _ => (None, Expr::opaque(args)),
    };
    let err = Expr::Variant { name: "Err".into(), inner: Some(Box::new(mapped)) };
    let on_error = Expr::Match {
        subject: Box::new(Expr::Var(RESULT.into())),
        arms: vec![Arm {
            patterns: vec![Pattern::Variant { name: "Err".into(), binding }],
            guard: None,
            body: vec![Stmt::Yield(err)],
            span,
        }],
        span,
    };
    let is_err = Expr::Call {
        callee: crate::lower::IS_ERR.into(),
        receiver: None,
        args: vec![Expr::Var(RESULT.into())],
        span,
    };
    Expr::Block(vec![
        Stmt::Assign { target: RESULT.into(), value: recv, span },
        Stmt::Yield(Expr::If {
            cond: Box::new(is_err),
            then: vec![Stmt::Yield(on_error)],
            otherwise: vec![Stmt::Yield(Expr::Var(RESULT.into()))],
            span,
        }),
    ])
}

/// Builder calls on an HTTP response: `.status(..)`, `.json(..)`, `.body(..)`, `.finish()`.
fn http_builder(
    name: &str,
    status: Option<u16>,
    body: Option<Box<Expr>>,
    args: Vec<Expr>,
    span: crate::model::Span,
) -> Expr {
    let mut first = args.into_iter().next();
    // `.body(AppBody::Full(bytes))`: a body enum of the code's own carries the bytes it holds.
    while name == "body"
        && let Some(Expr::Variant { name: variant, inner: Some(inner) }) = &first
        && !matches!(variant.as_str(), "Ok" | "Err" | "Some" | "None")
    {
        first = Some(inner.as_ref().clone());
    }
    match (name, first) {
        ("status", Some(Expr::Http { status: s, .. })) => Expr::Http { status: s, body, span },
        ("status", Some(Expr::Int(n))) => Expr::Http { status: u16::try_from(n).ok(), body, span },
        // `.status(status)` of a value computed elsewhere: for the interpreter to set.
        ("status", Some(code)) => Expr::Call {
            callee: "status".into(),
            receiver: Some(Box::new(Expr::Http { status, body, span })),
            args: vec![code],
            span,
        },
        (s, Some(Expr::Int(n))) if frameworks::STATUS_BUILDERS.contains(&s) => {
            Expr::Http { status: u16::try_from(n).ok(), body, span }
        }
        ("body", Some(Expr::Null)) => Expr::Http { status, body: None, span },
        ("json" | "body", Some(b)) => Expr::Http { status, body: Some(Box::new(b)), span },
        // `.streaming(events)`: a body of events made elsewhere, not one the scan reads.
        ("streaming", Some(_)) => Expr::Http { status, body: Some(Box::new(Expr::unknown())), span },
        _ => Expr::Http { status, body, span },
    }
}

#[cfg(test)]
mod tests {
    use super::{has_flag, quoted};

    #[test]
    fn serde_attributes_are_read_by_key_and_flag() {
        let attr = r#"#[serde(rename_all = "camelCase", rename = "tools/list")]"#;
        assert_eq!(quoted(attr, "rename").as_deref(), Some("tools/list"));
        assert_eq!(quoted(attr, "rename_all").as_deref(), Some("camelCase"));
        assert_eq!(quoted(attr, "tag"), None);
        assert!(has_flag("#[serde(other)]", "other"));
        assert!(!has_flag(r#"#[serde(rename = "mother/board")]"#, "other"));
        assert!(!has_flag(r#"#[serde(rename = "other")]"#, "other"));
    }
}
