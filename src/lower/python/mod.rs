//! Python: `tree-sitter-python` syntax trees to facts.

use super::{Ctx, call, is_initialized_flag, message_field, object, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Language, Pattern, Registration, SdkImport, Stmt};
use crate::parse::Fields;
use tree_sitter::Node;

pub(super) mod frameworks;
use frameworks::{
    CLASS_VIEW_POST, HTTP_SERVER_POST, LAMBDA_PARAMS, REQUEST_MEDIA, REQUEST_TYPES, RESPONDER_METHODS,
    RESPONSE_BODY_MEMBERS, RESPONSE_PARAM_TYPES, RESPONSE_STATUS_MEMBERS, ROUTE_DECORATORS, ROUTER_CALLS,
    WEB_MODULES,
};

pub fn lower_file(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    // Classes and functions the file defines, wherever they are used in it: its own
    // `make_response(id, result)` is not Flask's.
    for child in children(root) {
        let def = match child.kind() {
            "decorated_definition" => child.field("definition"),
            _ => Some(child),
        };
        if let Some(name) = def
            .filter(|d| matches!(d.kind(), "class_definition" | "function_definition"))
            .and_then(|d| d.field("name"))
        {
            let name = ctx.text(name).to_string();
            ctx.own_names.push(name);
        }
    }
    let body = block_children(ctx, root, facts, None);
    super::push_module(ctx, facts, root, body);
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

/// Lowers the statements of a block-like node; nested definitions become functions of their own.
fn block_children(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Block {
    let mut out = Vec::new();
    if !ctx.enter() {
        return out;
    }
    for child in children(node) {
        statement(ctx, child, facts, owner, &mut out);
    }
    ctx.leave();
    out
}

fn block_of(ctx: &mut Ctx, node: Option<Node>, facts: &mut FileFacts, owner: Option<&str>) -> Block {
    match node {
        Some(n) => block_children(ctx, n, facts, owner),
        None => Vec::new(),
    }
}

fn statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, out: &mut Block) {
    match node.kind() {
        "function_definition" => function(ctx, node, facts, owner, &[]),
        "decorated_definition" => decorated(ctx, node, facts, owner),
        // `global SESSION` inside a function: the name is state that code may change.
        "global_statement" => {
            for v in children(node) {
                facts.state.push(ctx.text(v).to_string());
            }
        }
        "class_definition" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string());
            if let Some(class) = &name {
                class_def(ctx, node, class, facts);
            }
            let methods =
                node.field("body")
                    .map(children)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|d| {
                        if d.kind() == "decorated_definition" {
                            d.field("definition").unwrap_or(d)
                        } else {
                            d
                        }
                    })
                    .filter(|d| d.kind() == "function_definition")
                    .filter_map(|d| d.field("name").map(|n| ctx.text(n).to_string()))
                    .collect();
            let outer = std::mem::replace(&mut ctx.class_methods, methods);
            let body = block_of(ctx, node.field("body"), facts, name.as_deref());
            ctx.class_methods = outer;
            // An `Enum` subclass (`class Method(str, Enum)`): its members' values, which
            // `Method(name)` looks the name up in (see `ENUM_VALUES`).
            let enum_class = node.field("superclasses").is_some_and(|b| {
                children(b).iter().any(|c| super::last_segment(ctx.text(*c)).ends_with("Enum"))
            });
            if enum_class && let Some(class) = &name {
                let values: Vec<Expr> = body
                    .iter()
                    .filter_map(|s| match s {
                        Stmt::Assign { target, value: v @ (Expr::Str(_) | Expr::Int(_)), .. }
                            if !target.contains(['.', '[']) && !target.starts_with('_') =>
                        {
                            Some(v.clone())
                        }
                        _ => None,
                    })
                    .collect();
                out.push(Stmt::Assign {
                    target: format!("{class}.{}", super::ENUM_VALUES),
                    value: Expr::Array { items: values, span: ctx.span(node) },
                    span: ctx.span(node),
                });
            }
            // Class-level assignments (handler tables, constants) behave like module
            // globals, under their own name and as `Class.NAME`.
            for stmt in body {
                if let Stmt::Assign { target, value, span } = &stmt
                    && let Some(class) = &name
                    && !target.contains(['.', '['])
                {
                    out.push(Stmt::Assign {
                        target: format!("{class}.{target}"),
                        value: value.clone(),
                        span: *span,
                    });
                }
                if matches!(stmt, Stmt::Assign { .. }) {
                    out.push(stmt);
                }
            }
        }
        "expression_statement" => {
            for child in children(node) {
                // `yield chunk` in a generator: one more item of what it gives back
                // (`yield from ..` gives items the scan does not list).
                if child.kind() == "yield" && ctx.generator {
                    let from =
                        (0..child.child_count()).filter_map(|i| child.child(i)).any(|c| c.kind() == "from");
                    let value = match child.named_child(0) {
                        Some(v) if !from => expr(ctx, v),
                        Some(_) => Expr::unknown(),
                        None => Expr::Null,
                    };
                    out.push(Stmt::Push { target: super::GENERATED.into(), value, span: ctx.span(child) });
                    continue;
                }
                expression_statement(ctx, child, facts, out);
            }
        }
        // A generator's `return` ends it: the caller has what it yielded.
        "return_statement" if ctx.generator => {
            out.push(Stmt::Return { value: Some(Expr::Var(super::GENERATED.into())), span: ctx.span(node) });
        }
        "return_statement" => {
            let value = children(node).first().map(|v| return_value(ctx, *v));
            out.push(Stmt::Return { value, span: ctx.span(node) });
        }
        "raise_statement" => {
            let value = children(node).first().map(|v| raised(ctx, *v)).unwrap_or_else(Expr::unknown);
            out.push(Stmt::Raise { value, span: ctx.span(node) });
        }
        "if_statement" => out.push(Stmt::Expr(if_statement(ctx, node, facts, owner))),
        "match_statement" => out.push(Stmt::Expr(match_statement(ctx, node, facts, owner))),
        "for_statement" => {
            let targets = node.field("left").map(|l| loop_targets(ctx, l)).unwrap_or_default();
            let iterable = node.field("right").map(|r| expr(ctx, r)).unwrap_or_else(Expr::unknown);
            let body = block_of(ctx, node.field("body"), facts, owner);
            out.push(Stmt::Expr(Expr::ForEach { targets, iterable: Box::new(iterable), body }));
        }
        "while_statement" => {
            let mut body = Vec::new();
            if let Some(cond) = node.field("condition") {
                body.push(Stmt::Expr(expr(ctx, cond)));
            }
            body.extend(block_of(ctx, node.field("body"), facts, owner));
            out.push(Stmt::Expr(Expr::Loop { body }));
        }
        "try_statement" => try_statement(ctx, node, facts, owner, out),
        "with_statement" => {
            for item in children(node).into_iter().filter(|c| c.kind() == "with_clause") {
                for wi in children(item) {
                    if let Some(v) = wi.field("value") {
                        out.push(Stmt::Expr(expr(ctx, v)));
                    }
                }
            }
            out.extend(block_of(ctx, node.field("body"), facts, owner));
        }
        "break_statement" => out.push(Stmt::LeaveLoop),
        "continue_statement" => out.push(Stmt::NextRound),
        "import_statement" | "import_from_statement" => {
            import(ctx, node, facts);
            out.extend(status_imports(ctx, node));
        }
        "block" => out.extend(block_children(ctx, node, facts, owner)),
        _ => {}
    }
}

fn import(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) {
    let modules: Vec<Node> = match node.kind() {
        "import_from_statement" => node.field("module_name").into_iter().collect(),
        _ => {
            let mut cursor = node.walk();
            node.fields("name", &mut cursor).collect()
        }
    };
    for m in modules {
        let name = match m.kind() {
            "aliased_import" => m.field("name").map(|n| ctx.text(n)).unwrap_or(""),
            _ => ctx.text(m),
        };
        note_request_imports(ctx, node, name, facts);
        if let Some(sdk) = ctx.sdk(Language::Python, name) {
            facts.sdk_imports.push(SdkImport { sdk, span: ctx.span(node) });
        }
        facts.imports.extend(super::import_hint(Language::Python, name));
        if let Some(lib) = frameworks::RPC_LIBRARIES.iter().find(|l| name.split('.').next() == Some(l.module))
            && !ctx.libraries.contains(&lib.module)
        {
            ctx.libraries.push(lib.module);
        }
        if node.kind() != "import_from_statement" {
            // `import atexit`, `import os.path`, `import a.b as c`: the module's local
            // name, so that `atexit.register(f)` is the module's function, not a
            // method of the code's that shares its name.
            let local = match m.kind() {
                "aliased_import" => m.field("alias").map(|a| ctx.text(a)).unwrap_or(""),
                _ => name.split('.').next().unwrap_or(name),
            };
            let package = match m.kind() {
                "aliased_import" => name.rsplit('.').next().unwrap_or(name),
                _ => local,
            };
            if !local.is_empty() {
                facts.package_names.push((local.to_string(), package.to_string()));
            }
            if m.kind() == "aliased_import" && !local.is_empty() {
                facts.module_aliases.push((local.to_string(), name.to_string()));
            }
            continue;
        }
        // `from app.rpc import handlers as h`: `h.dispatch()` may call the module's.
        let mut cursor = node.walk();
        for imported in node.fields("name", &mut cursor) {
            let (inner, local) = match imported.kind() {
                "aliased_import" => (imported.field("name"), imported.field("alias")),
                _ => (Some(imported), Some(imported)),
            };
            if let (Some(inner), Some(local)) = (inner, local) {
                // `from fastapi.responses import JSONResponse as Json`: `Json(..)` is
                // the framework's response (only a web framework's names are read so).
                if imported.kind() == "aliased_import"
                    && WEB_MODULES.contains(&name.split('.').next().unwrap_or(""))
                {
                    ctx.aliases.push((ctx.text(local).to_string(), ctx.text(inner).to_string()));
                } else if imported.kind() == "aliased_import"
                    && ctx.text(inner).starts_with(|c: char| c.is_ascii_uppercase())
                {
                    // `from .protocol import Response as WireResponse`: a class of the code's.
                    ctx.renamed_classes.push((ctx.text(local).to_string(), ctx.text(inner).to_string()));
                }
                let sep = if name.ends_with('.') { "" } else { "." };
                let module = format!("{name}{sep}{}", ctx.text(inner));
                facts.module_aliases.push((ctx.text(local).to_string(), module));
                facts.named_imports.push((
                    ctx.text(local).to_string(),
                    ctx.text(inner).to_string(),
                    name.to_string(),
                ));
            }
        }
        // `from mcp.types import InitializeResult`: a model built from its fields.
        if frameworks::MODEL_MODULES.contains(&name) {
            let names = imported_names(ctx, node);
            ctx.model_types.extend(names);
        }
        // `from .models import Response`: the code's own class, not a web framework's.
        let top = name.split('.').next().unwrap_or("");
        if name.starts_with('.') || !WEB_MODULES.contains(&top) {
            for local in imported_names(ctx, node) {
                if !name.starts_with('.') {
                    let package = name.rsplit('.').next().unwrap_or(name).to_string();
                    facts.package_names.push((local.clone(), package));
                }
                ctx.own_names.push(local);
            }
        }
    }
}

/// The local names a `from .. import a, b as c` binds (`a`, `c`).
fn imported_names(ctx: &Ctx, node: Node) -> Vec<String> {
    let mut cursor = node.walk();
    node.fields("name", &mut cursor)
        .filter_map(|imported| match imported.kind() {
            "aliased_import" => imported.field("alias"),
            _ => Some(imported),
        })
        .map(|local| ctx.text(local).to_string())
        .collect()
}

/// Modules whose names are HTTP statuses: `http.client`'s `ACCEPTED`, Starlette's,
/// FastAPI's and Django REST framework's `HTTP_202_ACCEPTED`.
const STATUS_MODULES: &[&str] =
    &["http.client", "starlette.status", "fastapi.status", "rest_framework.status"];

/// `from http.client import ACCEPTED, OK as HTTP_OK`: each imported status name is
/// bound to its code, as the module defines it.
fn status_imports(ctx: &Ctx, node: Node) -> Vec<Stmt> {
    let module = node.field("module_name").map(|m| ctx.text(m)).unwrap_or("");
    if node.kind() != "import_from_statement" || !STATUS_MODULES.contains(&module) {
        return Vec::new();
    }
    let mut cursor = node.walk();
    let imported: Vec<Node> = node.fields("name", &mut cursor).collect();
    imported
        .into_iter()
        .filter_map(|n| {
            let (name, local) = match n.kind() {
                "aliased_import" => (n.field("name")?, n.field("alias")?),
                _ => (n, n),
            };
            let code = status_code_name(ctx.text(name))?;
            Some(Stmt::Assign {
                target: ctx.text(local).to_string(),
                value: Expr::Int(i64::from(code)),
                span: ctx.span(n),
            })
        })
        .collect()
}

/// `obj.__dict__`, `vars(obj)`: the object's attributes, which the interpreter reads
/// as a serialiser's output (`__dict__` is among its serialisers).
fn attributes_of(object: Expr, span: crate::model::Span) -> Expr {
    Expr::Call { callee: "__dict__".into(), receiver: Some(Box::new(object)), args: Vec::new(), span }
}

/// A status constant's code: `HTTP_202_ACCEPTED`, `ACCEPTED`, `NO_CONTENT`.
fn status_code_name(name: &str) -> Option<u16> {
    if !name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') {
        return None;
    }
    name.strip_prefix("HTTP_")
        .and_then(|rest| rest.get(..3))
        .and_then(|c| c.parse().ok())
        .or_else(|| super::status_by_name(name))
}

/// Remembers how the file can name a web framework's request class: `from
/// starlette.requests import Request` (the name), `from aiohttp import web` and
/// `import aiohttp` (a module prefix, `web.` and `aiohttp.`).
fn note_request_imports(ctx: &mut Ctx, node: Node, module: &str, facts: &mut FileFacts) {
    let top = module.split('.').next().unwrap_or("");
    if WEB_MODULES.contains(&top) && !matches!(top, "mcp" | "http") {
        facts.web_framework = true;
    }
    if frameworks::HANDLER_CLASS_MODULES.contains(&top) {
        ctx.handler_classes = true;
    }
    // A module the code names as its HTTP layer (`chirp.http.request`, `..web.request`):
    // a web framework written in the project, whose `Request` is the HTTP request.
    let http_layer = node.kind() == "import_from_statement"
        && module
            .trim_start_matches('.')
            .split('.')
            .skip(usize::from(!module.starts_with('.')))
            .any(|s| matches!(s, "http" | "web"));
    if !http_layer
        && (module.starts_with('.') || !WEB_MODULES.contains(&top) || matches!(top, "mcp" | "http"))
    {
        return;
    }
    if node.kind() == "import_statement" {
        ctx.request_types.push(format!("{module}."));
        return;
    }
    let mut cursor = node.walk();
    for imported in node.fields("name", &mut cursor) {
        let (name, local) = match imported.kind() {
            "aliased_import" => (imported.field("name"), imported.field("alias")),
            _ => (Some(imported), Some(imported)),
        };
        let (Some(name), Some(local)) = (name, local) else { continue };
        let local = ctx.text(local).to_string();
        if REQUEST_TYPES.contains(&ctx.text(name)) {
            ctx.request_types.push(local);
        } else if RESPONSE_PARAM_TYPES.contains(&ctx.text(name)) {
            ctx.response_types.push(local);
        } else if local.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            // `from aiohttp import web`: a module whose `web.Request` is the class.
            ctx.request_types.push(format!("{local}."));
        }
    }
}

/// Whether a function body returns the name itself (`return response`), outside
/// nested functions.
fn returns_name(ctx: &Ctx, body: Node, name: &str) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "function_definition" | "lambda" | "class_definition" => continue,
            "return_statement" => {
                if n.named_child(0).is_some_and(|v| v.kind() == "identifier" && ctx.text(v) == name) {
                    return true;
                }
            }
            _ => stack.extend(children(n)),
        }
    }
    false
}

/// `response: Response` (Werkzeug's, imported), `resp: web.Response`: a parameter the
/// handler writes its answer on.
fn annotated_response(ctx: &Ctx, annotation: &str) -> bool {
    let t = annotation.trim().trim_matches(['"', '\'']);
    let last = super::last_segment(t);
    ctx.response_types.iter().any(|r| r == t)
        || (RESPONSE_PARAM_TYPES.contains(&last)
            && ctx.request_types.iter().any(|r| r.ends_with('.') && t.starts_with(r.as_str())))
}

/// A route parameter's annotation that makes FastAPI pass the JSON body itself:
/// `dict`, `list[Any]`, `Dict[str, Any]`, `Any`, and unions of them (`list[Any] | dict`,
/// `Optional[dict]`).
fn json_body_annotation(annotation: &str) -> bool {
    let t = annotation.trim();
    let t = t
        .strip_prefix("Optional[")
        .or_else(|| t.strip_prefix("Union["))
        .and_then(|inner| inner.strip_suffix(']'))
        .unwrap_or(t);
    let mut depth = 0usize;
    let mut alternatives = vec![String::new()];
    for c in t.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '|' | ',' if depth == 0 => {
                alternatives.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = alternatives.last_mut() {
            last.push(c);
        }
    }
    let kinds: Vec<&str> = alternatives
        .iter()
        .map(|a| super::last_segment(a.trim().split('[').next().unwrap_or("")))
        .filter(|k| *k != "None")
        .collect();
    !kinds.is_empty() && kinds.iter().all(|k| matches!(*k, "dict" | "Dict" | "list" | "List" | "Any"))
}

/// `request: web.Request`, `req: Request` (imported from a web framework).
fn annotated_request(ctx: &Ctx, annotation: &str) -> bool {
    let t = annotation.trim().trim_matches(['"', '\'']);
    let last = super::last_segment(t);
    // A module prefix (`web.`) takes its request classes; a name is the class itself.
    ctx.request_types.iter().any(|r| {
        if r.ends_with('.') { t.starts_with(r.as_str()) && REQUEST_TYPES.contains(&last) } else { r == t }
    })
}

fn expression_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, out: &mut Block) {
    match node.kind() {
        "assignment" | "augmented_assignment" => {
            let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                return;
            };
            let span = ctx.span(node);
            let target = ctx.text(left).to_string();
            if left.kind() == "subscript" {
                // `handlers["tools/list"] = on_list` registers a handler.
                if let Some(key) = left.field("subscript").filter(|k| k.kind() == "string") {
                    let method = unquote(ctx.text(key));
                    if crate::model::is_mcp_method(&method) {
                        let registry = left.field("value").map(|v| ctx.text(v)).unwrap_or("");
                        facts.registrations.push(Registration {
                            registry: registry.to_string(),
                            method,
                            handler: ctx.text(right).to_string(),
                            span,
                        });
                        return;
                    }
                }
            }
            // `urlpatterns = [..]`, and a list of routes kept apart to be added to it
            // (`mcp_urlpatterns = [..]` then `urlpatterns += mcp_urlpatterns`).
            if target.ends_with("urlpatterns") {
                note_url_patterns(ctx, right, facts);
            }
            note_route_objects(ctx, right, facts);
            let value = expr(ctx, right);
            // `resp.status = falcon.HTTP_202`, `resp.media = reply`: the responder's answer.
            if left.kind() == "attribute"
                && let Some((object, member)) = target.rsplit_once('.')
                && ctx.http_writers.iter().any(|w| w == object)
            {
                let http = if RESPONSE_STATUS_MEMBERS.contains(&member) {
                    Some(status_answer(value.clone(), span))
                } else if RESPONSE_BODY_MEMBERS.contains(&member) {
                    Some(Expr::Http { status: None, body: Some(Box::new(value.clone())), span })
                } else {
                    None
                };
                if let Some(http) = http {
                    let emit =
                        Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
                    out.push(Stmt::Expr(emit));
                    return;
                }
            }
            // FastAPI's `response.status_code = 404` beside a returned body: the status
            // the returned body goes out with.
            if left.kind() == "attribute"
                && let Some((object, member)) = target.rsplit_once('.')
                && RESPONSE_STATUS_MEMBERS.contains(&member)
                && ctx.status_writers.iter().any(|w| w == object)
            {
                let http = status_answer(value.clone(), span);
                let lend =
                    Expr::Call { callee: super::LEND_STATUS.into(), receiver: None, args: vec![http], span };
                out.push(Stmt::Expr(lend));
                return;
            }
            if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
                out.push(Stmt::SetInitialized { span });
            }
            // `reply["result"] = value` writes a member of the object a name holds.
            let member = left.kind() == "subscript"
                && left.field("subscript").is_some_and(|k| k.kind() == "string")
                && left.field("value").is_some_and(|v| matches!(v.kind(), "identifier" | "subscript"));
            if matches!(left.kind(), "pattern_list" | "tuple_pattern" | "list_pattern") {
                // `result, error = dispatch(...)`: each name takes its element of the tuple.
                let targets = children(left).into_iter().map(|c| ctx.text(c).to_string()).collect();
                out.push(Stmt::Destructure { targets, value, span });
            } else if matches!(left.kind(), "identifier" | "attribute") || member {
                out.push(Stmt::Assign { target, value, span });
            } else if left.kind() == "subscript"
                && let (Some(table), Some(key)) = (left.field("value"), left.field("subscript"))
            {
                // `self.methods[name] = fn`: a map write with a computed key.
                let key = expr(ctx, key);
                out.push(Stmt::Store {
                    table: ctx.text(table).to_string(),
                    key: Box::new(key),
                    value: Box::new(value),
                    span,
                });
            } else {
                out.push(Stmt::Expr(value));
            }
        }
        _ => {
            let e = expr(ctx, node);
            note_router_call(ctx, node, facts);
            out.push(super::effect(e, ctx.span(node)));
        }
    }
}

/// `app.add_api_route("/mcp", endpoint)`: remembers `endpoint` as an HTTP handler.
/// `app = Starlette(routes=[Route("/mcp", endpoint=handle)])`: route objects built
/// inside a value (walked with a stack: a value may nest deeply).
fn note_route_objects(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let is_route = n.kind() == "call"
            && n.field("function").is_some_and(|f| super::last_segment(ctx.text(f)) == "Route");
        if is_route {
            note_router_call(ctx, n, facts);
        } else {
            stack.extend(children(n));
        }
    }
}

fn note_router_call(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    if node.kind() != "call" {
        return;
    }
    let Some(func) = node.field("function") else {
        return;
    };
    let name = super::last_segment(ctx.text(func));
    if !ROUTER_CALLS.contains(&name) {
        return;
    }
    if let Some(args) = node.field("arguments") {
        for a in children(args) {
            // `Route("/mcp", endpoint=handle)`: the keyword's value.
            let a = match a.kind() {
                "keyword_argument" => match a.field("value") {
                    Some(v) => v,
                    None => continue,
                },
                _ => a,
            };
            // `router.add_post("/mcp", self._handle_request)`: the method.
            if matches!(a.kind(), "identifier" | "attribute") {
                facts.http_handlers.push(super::last_segment(ctx.text(a)).to_string());
            }
        }
    }
}

/// Django's `urlpatterns = [path("mcp/", views.mcp_endpoint), ...]`: each view a
/// route names (through `csrf_exempt(...)` and the like) is an HTTP handler.
fn note_url_patterns(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    if node.kind() == "call"
        && let Some(func) = node.field("function")
        && matches!(ctx.text(func), "path" | "re_path" | "url")
        && let Some(view) = node.field("arguments").and_then(|a| children(a).into_iter().nth(1))
    {
        let mut view = view;
        // `csrf_exempt(views.mcp)`: the view inside the wrapper.
        while view.kind() == "call"
            && let Some(inner) = view.field("arguments").and_then(|a| children(a).into_iter().next())
        {
            view = inner;
        }
        // `MCPView.as_view()`: a class-based view; Django calls its `post` for a POST.
        if view.kind() == "call"
            && let Some(class) = view.field("function").and_then(|f| ctx.text(f).strip_suffix(".as_view"))
        {
            facts.http_handlers.push(format!("{}.{CLASS_VIEW_POST}", super::last_segment(class)));
            return;
        }
        if matches!(view.kind(), "identifier" | "attribute") {
            facts.http_handlers.push(super::last_segment(ctx.text(view)).to_string());
        }
        return;
    }
    for c in children(node) {
        note_url_patterns(ctx, c, facts);
    }
}

fn decorated(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) {
    let decorators: Vec<Node> = children(node).into_iter().filter(|c| c.kind() == "decorator").collect();
    if let Some(def) = node.field("definition") {
        match def.kind() {
            "function_definition" => function(ctx, def, facts, owner, &decorators),
            "class_definition" => {
                let mut ignored = Vec::new();
                statement(ctx, def, facts, owner, &mut ignored);
            }
            _ => {}
        }
    }
}

/// An HTTP status written as a number, a framework constant (`falcon.HTTP_202`,
/// `HTTPStatus.ACCEPTED`) or a status line (`"202 Accepted"`): the answer with that
/// status; anything else is evaluated where the answer is built.
fn status_answer(value: Expr, span: crate::model::Span) -> Expr {
    let code = match &value {
        Expr::Int(n) => u16::try_from(*n).ok(),
        Expr::Str(line) => line.get(..3).and_then(|c| c.parse().ok()),
        Expr::Var(name) => {
            let last = super::last_segment(name);
            last.strip_prefix("HTTP_").and_then(|c| c.parse().ok()).or_else(|| super::status_by_name(last))
        }
        _ => None,
    };
    match code {
        Some(code) => Expr::Http { status: Some(code), body: None, span },
        None => {
            Expr::HttpWith { status: Box::new(value), body: Box::new(Expr::Null), null_is_empty: true, span }
        }
    }
}

fn function(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, decorators: &[Node]) {
    let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
    // A method read as an attribute (`@property`, `@functools.cached_property`): a
    // getter, run when the attribute is read (`result.body_bytes`).
    let property = owner.is_some()
        && decorators.iter().any(|d| {
            children(*d)
                .into_iter()
                .next()
                .is_some_and(|e| matches!(super::last_segment(ctx.text(e)), "property" | "cached_property"))
        });
    let name = if property { format!("{}{name}", crate::model::GETTER_PREFIX) } else { name };
    let mut http_route = false;
    for d in decorators {
        let Some(e) = children(*d).into_iter().next() else {
            continue;
        };
        let (func, args) =
            if e.kind() == "call" { (e.field("function"), e.field("arguments")) } else { (Some(e), None) };
        let func_text = func.map(|f| ctx.text(f)).unwrap_or("");
        let last = super::last_segment(func_text);
        if ROUTE_DECORATORS.contains(&last) && func_text.contains('.') {
            http_route = true;
        }
        // jsonrpcserver's `@method` / `@method(name="tools/list")`: the function is the
        // library's handler for its own name, or the name given.
        if let Some(lib) = rpc_library(ctx)
            && (func_text == lib.decorator || func_text == format!("{}.{}", lib.module, lib.decorator))
        {
            let given = args.into_iter().flat_map(children).find_map(|a| {
                let named =
                    a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| ctx.text(n) == "name");
                a.field("value").filter(|v| named && v.kind() == "string").map(|v| unquote(ctx.text(v)))
            });
            let method = given.unwrap_or_else(|| name.clone());
            if crate::model::is_mcp_method(&method) {
                facts.registrations.push(Registration {
                    registry: frameworks::RPC_TABLE.to_string(),
                    method,
                    handler: name.clone(),
                    span: ctx.span(*d),
                });
            }
            continue;
        }
        let first = args.and_then(|a| children(a).into_iter().next());
        if let Some(first) = first.filter(|f| f.kind() == "string") {
            let method = unquote(ctx.text(first));
            if crate::model::is_mcp_method(&method) {
                let registry = func_text.rsplit_once('.').map(|(r, _)| r).unwrap_or(func_text);
                facts.registrations.push(Registration {
                    registry: registry.to_string(),
                    method,
                    handler: name.clone(),
                    span: ctx.span(*d),
                });
            }
        }
    }
    let mut params = super::Params::default();
    let mut http_signature = false;
    let mut writers = Vec::new();
    // FastAPI's `body: dict` (or `list[Any] | dict`) on a route: the decoded JSON body.
    let mut body_params = Vec::new();
    for c in node.field("parameters").map(children).unwrap_or_default() {
        let name = match c.kind() {
            "identifier" => Some(ctx.text(c).to_string()),
            _ => c.field("name").or_else(|| c.named_child(0)).map(|n| ctx.text(n).to_string()),
        };
        let Some(name) = name.filter(|p| p != "self" && p != "cls") else { continue };
        if let Some(t) = c.field("type") {
            if annotated_request(ctx, ctx.text(t)) {
                http_signature = true;
            }
            if annotated_response(ctx, ctx.text(t)) {
                writers.push(name.clone());
            }
            let body_default =
                c.field("value").is_none_or(|d| d.kind() == "call" && ctx.text(d).starts_with("Body("));
            if http_route && body_default && json_body_annotation(ctx.text(t)) {
                body_params.push(name.clone());
            }
            // `router: SessionRouter`: a parameter declared with one class.
            if t.named_child(0).is_some_and(|n| n.kind() == "identifier") {
                params.types.push((name.clone(), ctx.text(t).to_string()));
            }
        }
        if let Some(default) = c.field("value")
            && matches!(c.kind(), "default_parameter" | "typed_default_parameter")
        {
            params.defaults.push((name.clone(), expr(ctx, default)));
        }
        params.names.push(name);
    }
    // `http.server`'s request handler: `do_POST` answers the POSTed message.
    if name == HTTP_SERVER_POST && owner.is_some() {
        http_route = true;
    }
    // A Tornado (or Jupyter Server) request handler's `post`: it answers on `self`.
    let handler_class = ctx.handler_classes
        && name == frameworks::HANDLER_CLASS_POST
        && owner.is_some_and(|o| {
            facts
                .classes
                .iter()
                .rev()
                .find(|c| c.name == o)
                .is_some_and(|c| c.bases.iter().any(|b| b.ends_with(frameworks::HANDLER_BASE_SUFFIX)))
        });
    if handler_class {
        http_route = true;
    }
    // A Lambda handler (also a library's `handle_request(self, event, context)`):
    // its dict answer is the HTTP response.
    if name.contains("handle") && params.names == LAMBDA_PARAMS {
        http_route = true;
    }
    // Falcon's `on_post(self, req, resp)`: the framework calls it for a POST; the
    // answer is what the method sets on `resp`.
    let responder = owner.is_some() && RESPONDER_METHODS.contains(&name.as_str()) && params.names.len() >= 2;
    if responder {
        http_route = true;
    }
    let body = node.field("body");
    let http = match http_route {
        // http.server sends nothing for a `do_POST` that writes nothing.
        true if name == HTTP_SERVER_POST && owner.is_some() => super::Http::RouteUnanswered,
        true => super::Http::Route,
        false if http_signature => super::Http::Signature,
        false => super::Http::No,
    };
    let (request, mut response) = match responder {
        true => (vec![params.names[0].clone()], vec![params.names[1].clone()]),
        false if handler_class => (Vec::new(), vec!["self".to_string()]),
        false => (Vec::new(), Vec::new()),
    };
    // A response parameter the handler returns (Werkzeug's `handle(request, response)`)
    // carries the answer written on it; one it does not return (FastAPI's
    // `response: Response` beside a returned body) only lends its status.
    let (returned, lenders): (Vec<String>, Vec<String>) =
        writers.into_iter().partition(|w| body.is_some_and(|b| returns_name(ctx, b, w)));
    response.extend(returned);
    let lenders = if http_route { lenders } else { Vec::new() };
    let outer_requests = std::mem::replace(&mut ctx.http_requests, request);
    let outer_writers = std::mem::replace(&mut ctx.http_writers, response);
    let outer_lenders = std::mem::replace(&mut ctx.status_writers, lenders);
    let span = ctx.span(node);
    // A body that yields makes a generator: calling it gives the items it yields. (A
    // context manager written as one, `@contextmanager`, gives its `with` the value it
    // yields, and a test fixture its test: neither is a stream of items.)
    let managed = decorators.iter().any(|d| {
        let text = ctx.text(*d);
        text.contains("contextmanager") || text.contains("fixture")
    });
    let generator = !managed && body.is_some_and(yields);
    let outer_generator = std::mem::replace(&mut ctx.generator, generator);
    super::push_function(ctx, facts, node, name, owner, params, http, |ctx, facts| {
        let mut block: Block = body_params
            .iter()
            .map(|p| Stmt::Assign { target: p.clone(), value: Expr::Message(Vec::new()), span })
            .collect();
        if generator {
            block.push(Stmt::Assign { target: super::GENERATED.into(), value: super::capture(span), span });
        }
        block.extend(block_of(ctx, body, facts, owner));
        if generator {
            block.push(Stmt::Return { value: Some(Expr::Var(super::GENERATED.into())), span });
        }
        block
    });
    ctx.generator = outer_generator;
    ctx.http_requests = outer_requests;
    ctx.http_writers = outer_writers;
    ctx.status_writers = outer_lenders;
}

/// Whether a function body yields (not counting functions written inside it).
fn yields(body: Node) -> bool {
    let mut found = false;
    super::walk_tree(body, |n| match n.kind() {
        "function_definition" | "lambda" | "class_definition" => super::Walk::Skip,
        "yield" => {
            found = true;
            super::Walk::Stop
        }
        _ => super::Walk::Descend,
    });
    found
}

/// A class's bases and its declared fields in order (`id: int | None = None`,
/// `result: Any`), as dataclasses and pydantic models have them.
fn class_def(ctx: &mut Ctx, node: Node, name: &str, facts: &mut FileFacts) {
    let bases = node
        .field("superclasses")
        .map(children)
        .unwrap_or_default()
        .into_iter()
        .filter(|b| matches!(b.kind(), "identifier" | "attribute"))
        .map(|b| super::last_segment(ctx.text(b)).to_string())
        .collect();
    let mut fields = Vec::new();
    for stmt in node.field("body").map(children).unwrap_or_default() {
        let Some(a) = children(stmt).into_iter().find(|c| c.kind() == "assignment") else { continue };
        let Some(left) = a.field("left").filter(|l| l.kind() == "identifier") else { continue };
        let default = a.field("right").map(|r| expr(ctx, r));
        fields.push((ctx.text(left).to_string(), default));
        if let Some(class) = a.field("type").and_then(|t| super::type_class(ctx.text(t))) {
            facts.field_types.push((name.to_string(), ctx.text(left).to_string(), class));
        }
        // `id: int` with no default and no None among its types: required (pydantic).
        let optional = a.field("type").is_none_or(|t| {
            let t = ctx.text(t);
            t.contains("None") || t.contains("Optional") || t.contains("Any")
        });
        if ctx.text(left) == "id" {
            facts.id_members.push((name.to_string(), a.field("right").is_none() && !optional));
        }
    }
    facts.classes.push(crate::model::ClassDef {
        name: name.to_string(),
        bases,
        fields,
        span: ctx.span(node),
    });
}

/// The names a `for` loop binds: `x`, or `k, v` / `(k, v)`.
fn loop_targets(ctx: &Ctx, node: Node) -> Vec<String> {
    match node.kind() {
        "identifier" => vec![ctx.text(node).to_string()],
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            children(node).into_iter().map(|c| ctx.text(c).to_string()).collect()
        }
        _ => vec![ctx.text(node).to_string()],
    }
}

fn if_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Expr {
    let cond = node.field("condition").map(|c| expr(ctx, c)).unwrap_or_else(Expr::unknown);
    let then = block_of(ctx, node.field("consequence"), facts, owner);
    let mut cursor = node.walk();
    let alternatives: Vec<Node> = node.fields("alternative", &mut cursor).collect();
    let otherwise = else_chain(ctx, &alternatives, facts, owner);
    Expr::If { cond: Box::new(cond), then, otherwise, span: ctx.span(node) }
}

fn else_chain(ctx: &mut Ctx, alts: &[Node], facts: &mut FileFacts, owner: Option<&str>) -> Block {
    let Some((first, rest)) = alts.split_first() else {
        return Vec::new();
    };
    match first.kind() {
        "elif_clause" => {
            let cond = first.field("condition").map(|c| expr(ctx, c)).unwrap_or_else(Expr::unknown);
            let then = block_of(ctx, first.field("consequence"), facts, owner);
            let otherwise = else_chain(ctx, rest, facts, owner);
            vec![Stmt::Expr(Expr::If { cond: Box::new(cond), then, otherwise, span: ctx.span(*first) })]
        }
        _ => block_of(ctx, first.field("body"), facts, owner),
    }
}

fn match_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>) -> Expr {
    let subject = node.field("subject").map(|s| expr(ctx, s)).unwrap_or_else(Expr::unknown);
    let mut arms = Vec::new();
    if let Some(body) = node.field("body") {
        for clause in children(body).into_iter().filter(|c| c.kind() == "case_clause") {
            let mut patterns = Vec::new();
            for p in children(clause).into_iter().filter(|c| c.kind() == "case_pattern") {
                case_pattern(ctx, p, &mut patterns);
            }
            let guard = clause.field("guard").and_then(|g| g.named_child(0)).map(|g| expr(ctx, g));
            let body = block_of(ctx, clause.field("consequence"), facts, owner);
            arms.push(Arm { patterns, guard, body, span: ctx.span(clause) });
        }
    }
    Expr::Match { subject: Box::new(subject), arms, span: ctx.span(node) }
}

fn case_pattern(ctx: &Ctx, node: Node, out: &mut Vec<Pattern>) {
    let inner = children(node);
    let Some(first) = inner.first() else {
        // A bare `_` has no named children.
        out.push(Pattern::Any(None));
        return;
    };
    match first.kind() {
        "string" => out.push(Pattern::Str(unquote(ctx.text(*first)))),
        "integer" => out.push(ctx.text(*first).parse().map(Pattern::Int).unwrap_or(Pattern::Unknown)),
        "union_pattern" => {
            for alt in children(*first) {
                match alt.kind() {
                    "string" => out.push(Pattern::Str(unquote(ctx.text(alt)))),
                    "dotted_name" if ctx.text(alt).contains('.') => {
                        out.push(Pattern::Const(ctx.text(alt).to_string()))
                    }
                    _ => out.push(Pattern::Unknown),
                }
            }
        }
        "dotted_name" if ctx.text(*first) == "_" => out.push(Pattern::Any(None)),
        // `case Methods.PING:` is a value pattern; a bare name captures.
        "dotted_name" if ctx.text(*first).contains('.') => {
            out.push(Pattern::Const(ctx.text(*first).to_string()))
        }
        "dotted_name" | "identifier" => out.push(Pattern::Any(Some(ctx.text(*first).to_string()))),
        "as_pattern" => {
            let alias = first.field("alias").map(|a| ctx.text(a).to_string());
            out.push(Pattern::Any(alias));
        }
        // `case JSONRPCPingRequest():` tests the class of what is matched.
        "class_pattern" => match children(*first).into_iter().find(|c| c.kind() == "dotted_name") {
            Some(class) => out.push(Pattern::Type(ctx.text(class).to_string())),
            None => out.push(Pattern::Unknown),
        },
        _ => out.push(Pattern::Unknown),
    }
}

fn try_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, owner: Option<&str>, out: &mut Block) {
    let mut body = block_of(ctx, node.field("body"), facts, owner);
    let mut clauses = Vec::new();
    let mut finally = Vec::new();
    for clause in children(node) {
        match clause.kind() {
            "except_clause" | "except_group_clause" => {
                let kids = children(clause);
                let caught = kids.iter().copied().find(|c| c.kind() != "block" && c.kind() != "comment");
                let (classes, binding) = match caught {
                    Some(a) if a.kind() == "as_pattern" => (
                        a.named_child(0).map(|t| exception_classes(ctx, t)).unwrap_or_default(),
                        a.field("alias").map(|n| ctx.text(n).to_string()),
                    ),
                    Some(t) => (exception_classes(ctx, t), None),
                    None => (Vec::new(), None),
                };
                let block = kids.into_iter().find(|c| c.kind() == "block");
                let body = block_of(ctx, block, facts, owner);
                clauses.push(super::CatchClause { classes, binding, body, span: ctx.span(clause) });
            }
            "else_clause" => body.extend(block_of(ctx, clause.field("body"), facts, owner)),
            "finally_clause" => {
                let block = children(clause).into_iter().find(|c| c.kind() == "block");
                finally = block_of(ctx, block, facts, owner);
            }
            _ => {}
        }
    }
    let (binding, handler) = super::catch_chain(clauses);
    out.push(Stmt::Expr(Expr::Try { body, handler, binding }));
    out.extend(finally);
}

/// What `raise` raises: one of Python's own exceptions (`raise ValueError(msg)`) is an
/// instance of that class, for the `except` clauses to match.
fn raised(ctx: &mut Ctx, node: Node) -> Expr {
    let class = match node.kind() {
        "call" => node.field("function"),
        "identifier" | "attribute" => Some(node),
        _ => None,
    }
    .map(|c| super::last_segment(ctx.text(c)));
    match class.filter(|c| super::exception_base(Language::Python, c).is_some()) {
        Some(c) => super::exception(c.to_string(), None, ctx.span(node)),
        None => expr(ctx, node),
    }
}

/// The classes an `except` clause names (`ValueError`, `(KeyError, json.JSONDecodeError)`),
/// by their last segment; none for a catch-all (`Exception`, `BaseException`).
fn exception_classes(ctx: &Ctx, node: Node) -> Vec<String> {
    let names: Vec<String> = match node.kind() {
        "tuple" | "parenthesized_expression" | "expression_list" => {
            children(node).into_iter().map(|c| super::last_segment(ctx.text(c)).to_string()).collect()
        }
        _ => vec![super::last_segment(ctx.text(node)).to_string()],
    };
    if names.iter().any(|n| matches!(n.as_str(), "Exception" | "BaseException")) {
        return Vec::new();
    }
    names
}

/// `return body, 202` is an HTTP response in Flask-style handlers.
fn return_value(ctx: &mut Ctx, node: Node) -> Expr {
    if matches!(node.kind(), "expression_list" | "tuple") {
        let items = children(node);
        if items.len() == 2
            && items[1].kind() == "integer"
            && let Ok(status) = ctx.text(items[1]).parse::<u16>()
        {
            let body = expr(ctx, items[0]);
            return Expr::Http { status: Some(status), body: Some(Box::new(body)), span: ctx.span(node) };
        }
    }
    expr(ctx, node)
}

fn expr(ctx: &mut Ctx, node: Node) -> Expr {
    ctx.nested(Expr::unknown, |ctx| expr_inner(ctx, node))
}

fn expr_inner(ctx: &mut Ctx, node: Node) -> Expr {
    match node.kind() {
        "identifier" => {
            let t = ctx.text(node);
            if t == "stdin" {
                ctx.saw_stdin = true;
            }
            Expr::Var(t.to_string())
        }
        "none" => Expr::Null,
        "true" => Expr::Bool(true),
        "false" => Expr::Bool(false),
        "integer" => super::int_literal(ctx.text(node)).map(Expr::Int).unwrap_or_else(Expr::unknown),
        "unary_operator" => {
            let arg = node.field("argument").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            match (ctx.text(node).starts_with('-'), arg) {
                (true, Expr::Int(n)) => Expr::Int(-n),
                (_, other) => Expr::opaque(vec![other]),
            }
        }
        "string" => string(ctx, node),
        "concatenated_string" => {
            let parts: Vec<Expr> = children(node).into_iter().map(|c| string(ctx, c)).collect();
            if parts.iter().all(|p| matches!(p, Expr::Str(_))) {
                Expr::Str(
                    parts.into_iter().map(|p| if let Expr::Str(s) = p { s } else { String::new() }).collect(),
                )
            } else {
                Expr::opaque(parts)
            }
        }
        "parenthesized_expression" | "await" => {
            children(node).first().map(|c| expr(ctx, *c)).unwrap_or_else(Expr::unknown)
        }
        "attribute" => attribute(ctx, node),
        "subscript" => {
            let value = node.field("value");
            let key = node.field("subscript");
            let collection = value.map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown);
            match key {
                Some(k) if k.kind() == "string" => {
                    let key = unquote(ctx.text(k));
                    match message_field(&key) {
                        // A missing `id` raises `KeyError`.
                        Some(f @ crate::model::FieldName::Id) => {
                            Expr::Required(Box::new(super::field(Some(collection), f)))
                        }
                        Some(f) => super::field(Some(collection), f),
                        None => {
                            Expr::Lookup { collection: Box::new(collection), key: Box::new(Expr::Str(key)) }
                        }
                    }
                }
                Some(k) => {
                    let key = expr(ctx, k);
                    Expr::Lookup { collection: Box::new(collection), key: Box::new(key) }
                }
                None => collection,
            }
        }
        "call" => call_expr(ctx, node),
        // `lambda _: None` in a handler table.
        "lambda" => {
            let params = node
                .field("parameters")
                .map(children)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.kind() == "identifier")
                .map(|p| ctx.text(p).to_string())
                .collect();
            let body = node.field("body").map(|b| expr(ctx, b)).unwrap_or_else(Expr::unknown);
            ctx.closure(node, params, body)
        }
        // `if handler := handlers.get(method):` binds and tests the value.
        "named_expression" => {
            let name = node.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
            let value = node.field("value").map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown);
            let span = ctx.span(node);
            Expr::Block(vec![
                Stmt::Assign { target: name.clone(), value, span },
                Stmt::Yield(Expr::Var(name)),
            ])
        }
        "comparison_operator" => comparison(ctx, node),
        "not_operator" => {
            let arg = node.field("argument").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            Expr::Not(Box::new(arg))
        }
        "boolean_operator" => {
            let left = node.field("left").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            let right = node.field("right").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
            if op == "and" {
                Expr::And(Box::new(left), Box::new(right))
            } else {
                Expr::Or(Box::new(left), Box::new(right))
            }
        }
        "conditional_expression" => {
            let parts = children(node);
            if parts.len() == 3 {
                let then = expr(ctx, parts[0]);
                let cond = expr(ctx, parts[1]);
                let otherwise = expr(ctx, parts[2]);
                Expr::If {
                    cond: Box::new(cond),
                    then: vec![Stmt::Yield(then)],
                    otherwise: vec![Stmt::Yield(otherwise)],
                    span: ctx.span(node),
                }
            } else {
                Expr::unknown()
            }
        }
        "dictionary" => {
            let mut entries = Vec::new();
            for pair in children(node) {
                // `{**DEFAULTS, "protocolVersion": v}`: the members of another dict, here.
                if pair.kind() == "dictionary_splat" {
                    let inner = pair.named_child(0).map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown);
                    entries.push((crate::model::SPREAD.to_string(), inner));
                    continue;
                }
                if pair.kind() != "pair" {
                    continue;
                }
                let (Some(k), Some(v)) = (pair.field("key"), pair.field("value")) else {
                    continue;
                };
                let value = expr(ctx, v);
                let key = if k.kind() == "string" { unquote(ctx.text(k)) } else { ctx.text(k).to_string() };
                entries.push((key, value));
            }
            object(entries, ctx.span(node))
        }
        "list" | "tuple" | "set" | "expression_list" => {
            let items = children(node).into_iter().map(|c| expr(ctx, c)).collect();
            Expr::Array { items, span: ctx.span(node) }
        }
        // `[dispatch(m) for m in batch if m is not None]`: one loop, at most one filter.
        "list_comprehension" if let Some(built) = comprehension(ctx, node) => built,
        "list_comprehension" | "generator_expression" | "set_comprehension" | "dictionary_comprehension" => {
            let body = node.field("body").map(|b| expr(ctx, b)).unwrap_or_else(Expr::unknown);
            let mut parts = vec![body];
            // `{k: v for k, v in reply.items() if v is not None}`: the entries of another
            // object, some left out (a reply without its empty members).
            if node.kind() == "dictionary_comprehension"
                && let Some(source) = children(node)
                    .into_iter()
                    .find(|c| c.kind() == "for_in_clause")
                    .and_then(|c| c.field("right"))
                    .filter(|r| r.kind() == "call" && ctx.text(*r).ends_with(".items()"))
                    .and_then(|r| r.field("function"))
                    .and_then(|f| f.field("object"))
            {
                parts.push(expr(ctx, source));
            }
            Expr::opaque(parts)
        }
        "keyword_argument" => node.field("value").map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown),
        "binary_operator" => {
            let l = node.field("left").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            let r = node.field("right").map(|a| expr(ctx, a)).unwrap_or_else(Expr::unknown);
            Expr::opaque(vec![l, r])
        }
        _ => {
            let parts = children(node).into_iter().map(|c| expr(ctx, c)).collect();
            Expr::opaque(parts)
        }
    }
}

/// A list comprehension over one loop variable with at most one `if` clause, as
/// [`super::COMPREHENSION`] with the item and the test written as functions of the
/// loop variable (they see the function's variables as its closures do).
fn comprehension(ctx: &mut Ctx, node: Node) -> Option<Expr> {
    let body = node.field("body")?;
    let clauses: Vec<Node> = children(node).into_iter().filter(|c| c.kind().ends_with("_clause")).collect();
    let [looped, rest @ ..] = clauses.as_slice() else { return None };
    if looped.kind() != "for_in_clause" || rest.len() > 1 || rest.iter().any(|c| c.kind() != "if_clause") {
        return None;
    }
    let var = looped.field("left").filter(|l| l.kind() == "identifier")?;
    let source = looped.field("right")?;
    let var = ctx.text(var).to_string();
    let source = expr(ctx, source);
    let item = expr(ctx, body);
    let item = ctx.closure(body, vec![var.clone()], item);
    let test = match rest.first().and_then(|c| c.named_child(0)) {
        Some(cond) => {
            let test = expr(ctx, cond);
            ctx.closure(rest[0], vec![var], test)
        }
        None => Expr::Null,
    };
    Some(Expr::Call {
        callee: super::COMPREHENSION.into(),
        receiver: None,
        args: vec![source, item, test],
        span: ctx.span(node),
    })
}

fn string(ctx: &mut Ctx, node: Node) -> Expr {
    let interpolations: Vec<Node> =
        children(node).into_iter().filter(|c| c.kind() == "interpolation").collect();
    if interpolations.is_empty() {
        Expr::Str(unquote(ctx.text(node)))
    } else {
        let parts =
            interpolations.into_iter().filter_map(|i| i.named_child(0)).map(|e| expr(ctx, e)).collect();
        Expr::opaque(parts)
    }
}

/// `req.media`, `req.get_media`: the body of the HTTP request a responder was given.
fn request_media(ctx: &Ctx, name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(object, member)| {
        REQUEST_MEDIA.contains(&member) && ctx.http_requests.iter().any(|r| r == object)
    })
}

fn attribute(ctx: &mut Ctx, node: Node) -> Expr {
    let attr = node.field("attribute").map(|a| ctx.text(a)).unwrap_or("");
    // `sys.stdin`, and `sys.stdin.readline` handed over uncalled (`run_in_executor(None,
    // sys.stdin.readline)`).
    if attr == "stdin" || node.field("object").is_some_and(|o| ctx.text(o).ends_with("sys.stdin")) {
        ctx.saw_stdin = true;
    }
    // `self.protocol_version` is the object's own attribute, never the message's field.
    let own = node.field("object").is_some_and(|o| matches!(ctx.text(o), "self" | "cls"));
    if let Some(f) = message_field(attr).filter(|_| !own) {
        let object = node.field("object").map(|o| expr(ctx, o));
        return super::field(object, f);
    }
    // `response.__dict__`: the object's attributes, as a serialiser writes them.
    if attr == "__dict__"
        && let Some(object) = node.field("object")
    {
        let object = expr(ctx, object);
        return attributes_of(object, ctx.span(node));
    }
    let text = ctx.text(node);
    // `HTTPStatus.BAD_REQUEST`, `http.HTTPStatus.ACCEPTED`: the standard library's status
    // constants, wherever they are written (handed to a helper that sends them, tested
    // in a set of them).
    if let Some((owner, name)) = text.rsplit_once('.')
        && matches!(owner, "HTTPStatus" | "http.HTTPStatus")
        && let Some(code) = status_code_name(name)
    {
        return Expr::Int(i64::from(code));
    }
    // Starlette's, FastAPI's and Django REST framework's `status.HTTP_401_UNAUTHORIZED`:
    // the name carries its code.
    if let Some((owner, name)) = text.rsplit_once('.')
        && super::last_segment(owner) == "status"
        && name.starts_with("HTTP_")
        && let Some(code) = status_code_name(name)
    {
        return Expr::Int(i64::from(code));
    }
    // Falcon's `req.media`: the decoded body of the request.
    if request_media(ctx, text) {
        return Expr::Message(Vec::new());
    }
    if text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
        return Expr::Var(text.to_string());
    }
    let object = node.field("object").map(|o| expr(ctx, o)).unwrap_or_else(Expr::unknown);
    Expr::opaque(vec![object])
}

/// The JSON-RPC library the file imports, if one of [`frameworks::RPC_LIBRARIES`].
fn rpc_library(ctx: &Ctx) -> Option<&'static frameworks::RpcLibrary> {
    frameworks::RPC_LIBRARIES.iter().find(|l| ctx.libraries.contains(&l.module))
}

fn call_expr(ctx: &mut Ctx, node: Node) -> Expr {
    let span = ctx.span(node);
    let Some(func) = node.field("function") else {
        return Expr::unknown();
    };
    if frameworks::PROCESS_EXITS.contains(&ctx.text(func)) {
        return super::exit(None, span);
    }
    // `text.encode("utf-8")`: the same text as bytes. Only with an encoding's name
    // as its argument: the code's own `encode(value)` methods (a codec, a model's
    // serialiser) give something else.
    if func.kind() == "attribute"
        && func.field("attribute").is_some_and(|a| ctx.text(a) == "encode")
        && let Some(object) = func.field("object")
        && node.field("arguments").is_some_and(|a| {
            let items = children(a);
            items.len() == 1
                && items[0].kind() == "string"
                && matches!(
                    unquote(ctx.text(items[0])).to_ascii_lowercase().as_str(),
                    "utf-8" | "utf8" | "ascii" | "latin-1" | "latin1"
                )
        })
    {
        return expr(ctx, object);
    }
    // `_MISSING = object()`: a sentinel, equal only to itself (`rid is _MISSING`).
    if ctx.text(func) == "object" && node.field("arguments").is_some_and(|a| a.named_child_count() == 0) {
        return Expr::Str(format!("{}{}:{}", super::SENTINEL, span.line, span.column));
    }
    // `msg.get("id", _MISSING)`: the default only where the member is missing (a
    // notification's id), the member where it is there.
    if func.kind() == "attribute"
        && func.field("attribute").is_some_and(|a| ctx.text(a) == "get")
        && let Some(object) = func.field("object")
        && let Some(args) = node.field("arguments")
        && let [key, default] = children(args).as_slice()
        && key.kind() == "string"
        && let Some(member) = super::message_field(&unquote(ctx.text(*key)))
        && default.kind() != "none"
    {
        let recv = expr(ctx, object);
        let default = expr(ctx, *default);
        let key = unquote(ctx.text(*key));
        return Expr::If {
            cond: Box::new(Expr::HasKey { object: Box::new(recv.clone()), key }),
            then: vec![Stmt::Yield(super::field(Some(recv), member))],
            otherwise: vec![Stmt::Yield(default)],
            span,
        };
    }
    // `io.StringIO()`: an empty output buffer.
    if frameworks::BUFFER_TYPES.contains(&ctx.text(func))
        && node.field("arguments").is_some_and(|a| a.named_child_count() == 0)
    {
        return super::capture(span);
    }
    let mut args = Vec::new();
    let mut keywords = Vec::new();
    if let Some(arglist) = node.field("arguments") {
        // `all(x for x in xs)`: the generator is the whole argument list.
        let items = if arglist.kind() == "generator_expression" { vec![arglist] } else { children(arglist) };
        for a in items {
            if a.kind() == "keyword_argument" {
                let name = a.field("name").map(|n| ctx.text(n).to_string()).unwrap_or_default();
                let value_node = a.field("value");
                if name == "file" && value_node.is_some_and(|v| ctx.text(v).contains("stderr")) {
                    return Expr::unknown();
                }
                let value = value_node.map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown);
                keywords.push((name, value));
            } else if a.kind() == "list_splat" {
                // `build(*result)`: the tuple's items, position by position.
                let inner = a.named_child(0).map(|v| expr(ctx, v)).unwrap_or_else(Expr::unknown);
                args.push(Expr::Spread(Box::new(inner)));
            } else {
                args.push(expr(ctx, a));
            }
        }
    }
    // `InitializeResult(protocolVersion=v, capabilities=c)` of a model library: the
    // object of its fields (its serialiser, `model_dump()`, gives them back).
    if args.is_empty() && !keywords.is_empty() && ctx.model_types.iter().any(|t| t == ctx.text(func)) {
        return super::object(keywords, span);
    }
    // jsonrpcserver: `dispatch(text)` answers by the functions registered with
    // `@method`; a handler's `Success(value)` and `Error(code, message)` are the
    // result and the error it gives.
    if let Some(lib) = rpc_library(ctx) {
        let called = ctx.text(func);
        let named = |n: &str| called == n || called == format!("{}.{n}", lib.module);
        if named(lib.dispatch) && args.len() == 1 {
            let request = Expr::Message(args);
            return super::rpc_library::dispatch(
                frameworks::RPC_TABLE,
                request,
                0,
                super::rpc_library::Answer::Text,
                span,
            );
        }
        if named(lib.success) {
            let value = args.into_iter().next().unwrap_or(Expr::Null);
            return Expr::Variant { name: "Ok".into(), inner: Some(Box::new(value)) };
        }
        if named(lib.error) {
            let mut args = args.into_iter();
            let mut entries = Vec::new();
            if let Some(code) =
                args.next().or_else(|| keywords.iter().find(|(k, _)| k == "code").map(|(_, v)| v.clone()))
            {
                entries.push(("code".to_string(), code));
            }
            entries.push(("message".to_string(), args.next().unwrap_or_else(Expr::unknown)));
            return Expr::Variant {
                name: "Err".into(),
                inner: Some(Box::new(Expr::Object { entries, span })),
            };
        }
    }
    // `await run_in_threadpool(dispatch, message)`, `asyncio.to_thread(f, x)`,
    // `loop.run_in_executor(None, f, x)`: the function handed over is called with
    // the arguments after it, and the call gives what it returns.
    if let Some(&(_, at)) =
        frameworks::THREAD_RUNNERS.iter().find(|(name, _)| *name == super::last_segment(ctx.text(func)))
        && args.len() > at
        && keywords.is_empty()
    {
        let rest = args.split_off(at + 1);
        let target = args.pop().unwrap_or_else(Expr::unknown);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args: rest, span };
    }
    // `JsonRpcRequest(**body)`: the mapping read into a model class of the code, as
    // `model_validate(body)` reads it.
    if let Some(arglist) = node.field("arguments")
        && let [splat] = children(arglist).as_slice()
        && splat.kind() == "dictionary_splat"
        && let Some(inner) = splat.named_child(0)
        && super::last_segment(ctx.text(func)).starts_with(|c: char| c.is_ascii_uppercase())
    {
        let model = super::last_segment(ctx.text(func)).to_string();
        let read = expr(ctx, inner);
        return Expr::Call {
            callee: crate::lower::DECODE_AS.into(),
            receiver: None,
            args: vec![Expr::Str(model), Expr::Str("raise".into()), read],
            span,
        };
    }
    let (callee, receiver) = match func.kind() {
        "attribute" => {
            let object = func.field("object");
            let object_text = object.map(|o| ctx.text(o)).unwrap_or("");
            if object_text.contains("stderr")
                || object_text == "logging"
                || object_text.ends_with("logger")
                || object_text.ends_with("log")
            {
                return Expr::opaque(args);
            }
            // `super().to_dict()`: the base class's method, run on `self`.
            if object_text == "super()" {
                let name = func.field("attribute").map(|a| ctx.text(a)).unwrap_or("");
                args.extend(keywords.into_iter().map(|(name, v)| Expr::Named { name, value: Box::new(v) }));
                return Expr::Call {
                    callee: format!("{}{name}", super::SUPER_CALL),
                    receiver: None,
                    args,
                    span,
                };
            }
            let receiver = match object {
                Some(o) if !matches!(ctx.text(o), "self" | "cls") => Some(expr(ctx, o)),
                _ => None,
            };
            if object_text.ends_with("stdin") {
                ctx.saw_stdin = true;
            }
            // `WireResponse.ok(..)` with `from .protocol import Response as WireResponse`:
            // the class's method, by the class's own name.
            (super::by_own_class(ctx, ctx.text(func).to_string()), receiver)
        }
        // `handlers[method](params)`, `make_handler()(msg)`: call whatever the expression yields.
        "subscript" | "call" | "parenthesized_expression" => {
            let target = expr(ctx, func);
            args.extend(keywords.into_iter().map(|(name, v)| Expr::Named { name, value: Box::new(v) }));
            return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args, span };
        }
        _ => {
            let text = ctx.text(func);
            let own =
                ctx.aliases.iter().find(|(local, _)| local == text).map_or(text, |(_, own)| own.as_str());
            (own.to_string(), None)
        }
    };
    if super::SDK_SERVER_CALLS.contains(&super::last_segment(&callee)) && ctx.sdk_server.is_none() {
        ctx.sdk_server = Some(span);
    }
    // `Request.model_validate_json(body)`, `models.Request.parse_raw(body)`: the
    // message, as the model reads it.
    if let Some((model, "model_validate_json" | "parse_raw")) = callee.rsplit_once('.')
        && is_identifier(super::last_segment(model))
    {
        let model = super::last_segment(model).to_string();
        return Expr::Call {
            callee: super::DECODE_AS.into(),
            receiver: None,
            args: vec![Expr::Str(model), Expr::Str("raise".into()), Expr::Message(args)],
            span,
        };
    }
    if super::reads_body(Language::Python, &callee) {
        return super::encoded_message(span);
    }
    if super::decodes_message(Language::Python, &callee) || request_media(ctx, &callee) {
        return Expr::Message(args);
    }
    if super::serialises(Language::Python, &callee) && !args.is_empty() {
        return super::serialised(args.swap_remove(0), span);
    }
    // `vars(response)`: the object's attributes, as `response.__dict__`.
    if callee == "vars" && args.len() == 1 && !ctx.own_names.iter().any(|n| n == "vars") {
        return attributes_of(args.swap_remove(0), span);
    }
    // `http.server.BaseHTTPRequestHandler`: `self.send_response(202)` sets the status,
    // `self.wfile.write(body)` writes the body of the answer; so do a helper's calls
    // on the handler it is handed (`def _send(handler, status, payload):
    // handler.send_response(status)`).
    let own = |m: &str| ctx.class_methods.iter().any(|c| c == m) || ctx.own_names.iter().any(|n| n == m);
    let on_handler = |suffix: &str| {
        callee
            .strip_suffix(suffix)
            .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_alphanumeric() || c == '_'))
    };
    let handler_call = if on_handler(".send_response") || on_handler(".send_error") {
        "self.send_response"
    } else if on_handler(".wfile.write") {
        "self.wfile.write"
    } else {
        callee.as_str()
    };
    match handler_call {
        "self.send_response" | "self.send_error"
            if !args.is_empty() && !own(crate::lower::last_segment(&callee)) =>
        {
            // A number, `HTTPStatus.ACCEPTED`, or a value evaluated where it is sent.
            let http = status_answer(args.swap_remove(0), span);
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        "self.wfile.write" if args.len() == 1 => {
            let http = Expr::Http { status: None, body: args.pop().map(Box::new), span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        _ => {}
    }
    // A Tornado handler's answer on `self`: `self.set_status(202)`, `self.write(body)`,
    // `self.finish(body)` (a bare `self.finish()` ends it with what was written).
    if ctx.http_writers.iter().any(|w| w == "self")
        && let Some(method) = callee.strip_prefix("self.")
    {
        if frameworks::HANDLER_STATUS_SETTERS.contains(&method) && !args.is_empty() {
            let http = status_answer(args.swap_remove(0), span);
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        if frameworks::HANDLER_BODY_WRITERS.contains(&method) {
            let Some(body) = args.pop() else { return Expr::unknown() };
            let http = Expr::Http { status: None, body: Some(Box::new(body)), span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
    }
    match callee.as_str() {
        // Conversions that keep what matters: `str(method)`, `cast(Request, msg)`.
        "str" if args.len() == 1 => return args.pop().unwrap_or_else(Expr::unknown),
        "cast" | "typing.cast" if args.len() == 2 => return args.pop().unwrap_or_else(Expr::unknown),
        // `all(is_notification(m) for m in batch)` holds what its element holds.
        "all" | "any" | "bool" if args.len() == 1 => {
            return args.pop().map(unwrap_opaque).unwrap_or_else(Expr::unknown);
        }
        "dict" if args.is_empty() && keywords.is_empty() => {
            return Expr::Object { entries: Vec::new(), span };
        }
        "dict" if args.is_empty() => return object(keywords, span),
        // Probes are single JSON objects: a dict (a `Mapping`), never a batch.
        "isinstance"
            if args.len() == 2
                && matches!(&args[1], Expr::Var(t) if matches!(
                    super::last_segment(t),
                    "dict" | "Dict" | "Mapping" | "MutableMapping"
                )) =>
        {
            return super::is_kind(args.swap_remove(0), "object", span);
        }
        "isinstance"
            if args.len() == 2 && matches!(&args[1], Expr::Var(t) if t == "list" || t == "tuple") =>
        {
            return super::is_kind(args.swap_remove(0), "list", span);
        }
        "isinstance" if args.len() == 2 && matches!(&args[1], Expr::Var(_)) => {
            let class = match &args[1] {
                Expr::Var(t) => t.clone(),
                _ => String::new(),
            };
            let value = args.swap_remove(0);
            return Expr::IsA { value: Box::new(value), class };
        }
        // `getattr(msg, "id")` reads the member as `msg.id` does; with a default,
        // the default where the member is missing (`getattr(msg, "id", 0)` is 0
        // for a notification).
        "getattr" if matches!(args.get(1), Some(Expr::Str(_))) && args.len() <= 3 => {
            let default = (args.len() == 3).then(|| args.swap_remove(2));
            let Some(Expr::Str(name)) = args.pop() else { unreachable!() };
            let object = args.swap_remove(0);
            // `self`'s own attribute is never the message's field.
            let own = matches!(&object, Expr::Var(o) if o == "self" || o == "cls");
            let read = match (message_field(&name).filter(|_| !own), &object) {
                (Some(f), _) => super::field(Some(object.clone()), f),
                (None, Expr::Var(o)) if is_identifier(&name) => Expr::Var(format!("{o}.{name}")),
                _ => return Expr::opaque(vec![object]),
            };
            return match default {
                None | Some(Expr::Null) => read,
                Some(default) => Expr::If {
                    cond: Box::new(Expr::HasKey { object: Box::new(object), key: name }),
                    then: vec![Stmt::Yield(read)],
                    otherwise: vec![Stmt::Yield(default)],
                    span,
                },
            };
        }
        // `hasattr(msg, "id")`: whether the member is there.
        "hasattr" if args.len() == 2 && matches!(args[1], Expr::Str(_)) => {
            let Some(Expr::Str(key)) = args.pop() else { unreachable!() };
            let object = args.swap_remove(0);
            return Expr::HasKey { object: Box::new(object), key };
        }
        // `len(answers)`: the length of a list (or text) the path knows.
        "len" if args.len() == 1 && receiver.is_none() => {
            return Expr::Call { callee, receiver: None, args, span };
        }
        "isinstance" | "len" | "int" | "hasattr" | "getattr" | "type" => {
            return Expr::opaque(args);
        }
        "input" => ctx.saw_stdin = true,
        // The code's own `Response` class is built, not an HTTP response; and so is
        // a function of its own module (`from . import protocol`,
        // `protocol.make_response(id, result)`).
        own if (receiver.is_none() && ctx.own_names.iter().any(|n| n == own))
            || own.split_once('.').is_some_and(|(module, _)| {
                module.starts_with(|c: char| c.is_ascii_lowercase())
                    && ctx.own_names.iter().any(|n| n == module)
            }) =>
        {
            args.extend(keywords.into_iter().map(|(name, v)| Expr::Named { name, value: Box::new(v) }));
            return Expr::Call { callee, receiver: None, args, span };
        }
        // `print(line)` with no `file=`, `sys.stdout.write(line)`: the process's
        // standard output.
        "print" if receiver.is_none() && !keywords.iter().any(|(k, _)| k == "file") => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        c if super::writes_stdout(c) => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        _ => {}
    }
    call(callee, receiver, args, keywords, span)
}

fn unwrap_opaque(e: Expr) -> Expr {
    match e {
        Expr::Opaque(mut parts) if parts.len() == 1 => parts.pop().unwrap_or_else(Expr::unknown),
        other => other,
    }
}

fn comparison(ctx: &mut Ctx, node: Node) -> Expr {
    let operands = children(node);
    let mut cursor = node.walk();
    let ops: Vec<String> = node
        .fields("operators", &mut cursor)
        .map(|o| ctx.text(o).split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    if operands.len() != 2 || ops.len() != 1 {
        let parts = operands.into_iter().map(|o| expr(ctx, o)).collect();
        return Expr::opaque(parts);
    }
    let left_is_key = operands[0].kind() == "string";
    let left = expr(ctx, operands[0]);
    let right = expr(ctx, operands[1]);
    let is_null = |l: &Expr, r: &Expr| -> Option<Expr> {
        match (l, r) {
            (x, Expr::Null) | (Expr::Null, x) => Some(Expr::IsNull(Box::new(x.clone()))),
            _ => None,
        }
    };
    match ops[0].as_str() {
        "==" | "is" => is_null(&left, &right).unwrap_or(Expr::Eq {
            left: Box::new(left),
            right: Box::new(right),
            negated: false,
        }),
        "!=" | "is not" => is_null(&left, &right).map(|e| Expr::Not(Box::new(e))).unwrap_or(Expr::Eq {
            left: Box::new(left),
            right: Box::new(right),
            negated: true,
        }),
        "in" | "not in" => {
            let test = match (&left, left_is_key, &right) {
                (Expr::Str(key), true, r) if !matches!(r, Expr::Array { .. } | Expr::Object { .. }) => {
                    Expr::HasKey { object: Box::new(right.clone()), key: key.clone() }
                }
                _ => Expr::Member { item: Box::new(left), collection: Box::new(right) },
            };
            if ops[0] == "in" { test } else { Expr::Not(Box::new(test)) }
        }
        op => super::ordered(op, left, right),
    }
}

fn is_identifier(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::status_code_name;

    #[test]
    fn status_names_of_the_status_modules() {
        assert_eq!(status_code_name("ACCEPTED"), Some(202));
        assert_eq!(status_code_name("NO_CONTENT"), Some(204));
        assert_eq!(status_code_name("HTTP_202_ACCEPTED"), Some(202));
        assert_eq!(status_code_name("HTTP_204_NO_CONTENT"), Some(204));
        // Not a constant's spelling, or no status at all.
        assert_eq!(status_code_name("Accepted"), None);
        assert_eq!(status_code_name("HTTPStatus"), None);
        assert_eq!(status_code_name("RESPONSES"), None);
    }
}
