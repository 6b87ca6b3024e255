//! Go: `tree-sitter-go` syntax trees to facts.

pub(super) mod frameworks;

use super::{Ctx, call, field, is_initialized_flag, message_field, object, status_by_name, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Language, Pattern, SdkImport, Stmt};
use crate::parse::Fields;
use tree_sitter::Node;

/// `http.ResponseWriter` parameter names whose calls answer an HTTP request.
const RESPONSE_WRITERS: &[&str] = &["w", "rw", "writer", "res", "resp", "response"];

pub fn lower_file(ctx: &mut Ctx, root: Node, facts: &mut FileFacts) {
    let mut module = Vec::new();
    // The struct types the file declares: a variable of one starts as an empty value
    // of the type (`var resp Response` then `resp.ID = req.ID`).
    for decl in children(root).into_iter().filter(|c| c.kind() == "type_declaration") {
        for spec in children(decl).into_iter().filter(|c| c.kind() == "type_spec") {
            if spec.field("type").is_some_and(|t| t.kind() == "struct_type")
                && let Some(name) = spec.field("name")
            {
                ctx.own_names.push(ctx.text(name).to_string());
                facts.struct_types.push(ctx.text(name).to_string());
            }
        }
    }
    for item in children(root) {
        match item.kind() {
            "function_declaration" => {
                let name = text_of(ctx, item, "name");
                ctx.presence.clear();
                function(ctx, item, facts, name, None);
            }
            "method_declaration" => {
                let name = text_of(ctx, item, "name");
                let owner = item.field("receiver").and_then(receiver_type).map(|t| ctx.text(t).to_string());
                ctx.receiver = item
                    .field("receiver")
                    .and_then(|list| children(list).into_iter().next())
                    .and_then(|p| p.field("name"))
                    .map(|n| ctx.text(n).to_string());
                ctx.presence.clear();
                function(ctx, item, facts, name, owner.as_deref());
                ctx.receiver = None;
            }
            "import_declaration" => imports(ctx, item, facts),
            "type_declaration" => {
                json_tags(ctx, item, facts);
                struct_field_types(ctx, item, facts);
                interfaces(ctx, item, facts);
            }
            "const_declaration" | "var_declaration" => declaration(ctx, item, facts, &mut module, true),
            _ => {}
        }
    }
    super::push_module(ctx, facts, root, module);
}

fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

fn text_of(ctx: &Ctx, node: Node, field_name: &'static str) -> String {
    node.field(field_name).map(|n| ctx.text(n).to_string()).unwrap_or_default()
}

/// `Version string `json:"protocolVersion,omitempty"``: the JSON member a struct field
/// is encoded as.
fn json_tags(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        for c in children(n) {
            if c.kind() == "field_declaration"
                && let Some(tag) = c.field("tag")
            {
                let tag = ctx.text(tag);
                let Some(at) = tag.find("json:\"") else { continue };
                let member = tag[at + 6..].split(['"', ',']).next().unwrap_or("");
                let mut cursor = c.walk();
                for name in c.fields("name", &mut cursor) {
                    let name = ctx.text(name);
                    if !member.is_empty() && member != "-" && json_key(name) != member {
                        facts.json_names.push((name.to_string(), member.to_string()));
                    }
                }
            } else {
                stack.push(c);
            }
        }
    }
}

/// `type Server struct { system *System }`: the classes its fields hold.
fn struct_field_types(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    for spec in children(node).into_iter().filter(|c| c.kind() == "type_spec") {
        let Some(owner) = spec.field("name").map(|n| ctx.text(n).to_string()) else { continue };
        let Some(body) = spec.field("type").filter(|t| t.kind() == "struct_type") else {
            continue;
        };
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            for c in children(n) {
                if c.kind() != "field_declaration" {
                    stack.push(c);
                    continue;
                }
                let Some(class) = c.field("type").and_then(|t| crate::lower::type_class(ctx.text(t))) else {
                    continue;
                };
                let mut cursor = c.walk();
                for name in c.fields("name", &mut cursor) {
                    facts.field_types.push((owner.clone(), ctx.text(name).to_string(), class.clone()));
                }
            }
        }
    }
}

/// `type Server interface { HandleRequest(ctx, req) error }`: the methods it names
/// (an embedded interface's are not followed).
fn interfaces(ctx: &Ctx, node: Node, facts: &mut FileFacts) {
    for spec in children(node).into_iter().filter(|c| c.kind() == "type_spec") {
        let Some(name) = spec.field("name").map(|n| ctx.text(n).to_string()) else { continue };
        let Some(body) = spec.field("type").filter(|t| t.kind() == "interface_type") else {
            continue;
        };
        let methods: Vec<String> = children(body)
            .into_iter()
            .filter(|c| matches!(c.kind(), "method_elem" | "method_spec"))
            .filter_map(|m| m.field("name").map(|n| ctx.text(n).to_string()))
            .collect();
        if !methods.is_empty() {
            facts.interfaces.push((name, methods));
        }
    }
}

/// `switch { case cond: ... default: ... }` is an `if`/`else if` chain.
fn condition_switch(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let mut cases = Vec::new();
    let mut default = Vec::new();
    for case in children(node) {
        let body = children(case).into_iter().find(|c| c.kind() == "statement_list");
        let body = super::end_at_break(block(ctx, body, facts));
        match case.kind() {
            "expression_case" => {
                let conds: Vec<Expr> = case
                    .field("value")
                    .map(children)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|v| expr(ctx, v, facts))
                    .collect();
                let cond = conds
                    .into_iter()
                    .reduce(|a, b| Expr::Or(Box::new(a), Box::new(b)))
                    .unwrap_or(Expr::Bool(false));
                cases.push((cond, body, ctx.span(case)));
            }
            "default_case" => default = body,
            _ => {}
        }
    }
    cases.into_iter().rev().fold(Expr::Block(default), |otherwise, (cond, then, span)| Expr::If {
        cond: Box::new(cond),
        then,
        otherwise: vec![Stmt::Yield(otherwise)],
        span,
    })
}

/// The type name of a method receiver: `(s *Server)` -> `Server`.
fn receiver_type(list: Node) -> Option<Node> {
    let decl = children(list).into_iter().next()?;
    let mut ty = decl.field("type")?;
    while ty.kind() == "pointer_type" || ty.kind() == "generic_type" {
        ty = ty.named_child(0)?;
    }
    Some(ty)
}

fn imports(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        for c in children(n) {
            match c.kind() {
                "import_spec" => {
                    let path = c.field("path").map(|p| unquote(ctx.text(p))).unwrap_or_default();
                    if let Some(sdk) = ctx.sdk(Language::Go, &path) {
                        facts.sdk_imports.push(SdkImport { sdk, span: ctx.span(c) });
                    }
                    facts.imports.extend(super::import_hint(Language::Go, &path));
                    let alias = c.field("name").map(|n| ctx.text(n).to_string());
                    if let Some(alias) = alias.as_ref().filter(|a| !matches!(a.as_str(), "_" | "."))
                        && !path.is_empty()
                    {
                        facts.module_aliases.push((alias.clone(), path.clone()));
                    }
                    if let Some(local) = alias.or_else(|| path.rsplit('/').next().map(str::to_string)) {
                        if let Some((_, constants)) =
                            frameworks::PACKAGE_CONSTANTS.iter().find(|(p, _)| *p == path)
                        {
                            ctx.known_constants.push((local.clone(), constants));
                        }
                        ctx.package_aliases.push(local);
                    }
                    // The full path too: resolved against the repository's go.mod modules.
                    if !path.is_empty() {
                        facts.imports.push(format!("{}{path}", crate::model::GO_IMPORT));
                    }
                }
                "import_spec_list" => stack.push(c),
                _ => {}
            }
        }
    }
}

fn declaration(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, out: &mut Block, module: bool) {
    // In a `const` block a spec without values repeats the last one's, with `iota`
    // counting the specs (`KindA Kind = iota`, `KindB`, ...).
    let constants = node.kind() == "const_declaration";
    let mut previous: Vec<Node> = Vec::new();
    // `var ( a = 1; b = 2 )` holds its specs in a `var_spec_list`.
    let specs = children(node)
        .into_iter()
        .flat_map(|c| if c.kind() == "var_spec_list" { children(c) } else { vec![c] })
        .filter(|c| matches!(c.kind(), "const_spec" | "var_spec"));
    for (index, spec) in specs.enumerate() {
        let mut cursor = spec.walk();
        let names: Vec<String> = spec.fields("name", &mut cursor).map(|n| ctx.text(n).to_string()).collect();
        let mut values: Vec<Node> = spec.field("value").map(children).unwrap_or_default();
        if constants {
            if values.is_empty() {
                values.clone_from(&previous);
            } else {
                previous.clone_from(&values);
            }
            ctx.iota = i64::try_from(index).ok();
        }
        if values.is_empty() {
            // A package-level `var mode string` is set while the program runs (by a
            // flag, `init`, `main`): its zero value is not what the server sees.
            if module {
                continue;
            }
            // `var rpcErr *RPCError`: a variable starts as its type's zero value.
            let zero = spec.field("type").map(|t| zero_value(ctx, t)).unwrap_or_else(Expr::unknown);
            for name in names {
                out.push(Stmt::Assign { target: name, value: zero.clone(), span: ctx.span(spec) });
            }
            continue;
        }
        if names.len() > 1 && values.len() == 1 {
            let value = expr(ctx, values[0], facts);
            out.push(Stmt::Destructure { targets: names, value, span: ctx.span(spec) });
            continue;
        }
        for (name, value) in names.into_iter().zip(values) {
            let value = expr(ctx, value, facts);
            out.push(Stmt::Assign { target: name, value, span: ctx.span(spec) });
        }
    }
    ctx.iota = None;
}

/// Go's number types: their zero value is 0, and a conversion to one keeps the number.
const NUMBER_TYPES: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32",
    "float64", "byte", "rune",
];

/// The zero value of a Go type: nil for pointers, interfaces, maps, slices, funcs
/// and channels; "" and 0 and false for the basic types; an empty value for the
/// file's own struct types; unknown for other structs.
fn zero_value(ctx: &Ctx, ty: Node) -> Expr {
    match ty.kind() {
        "pointer_type" | "interface_type" | "map_type" | "slice_type" | "function_type" | "channel_type" => {
            Expr::Null
        }
        "type_identifier" => match ctx.text(ty) {
            "any" | "error" => Expr::Null,
            "string" => Expr::Str(String::new()),
            "bool" => Expr::Bool(false),
            t if NUMBER_TYPES.contains(&t) => Expr::Int(0),
            // A struct type of the file's: its fields' zero values, which the code then
            // sets one by one (an empty value of the type, as `T{}` is).
            t if ctx.own_names.iter().any(|n| n == t) => Expr::Call {
                callee: super::NEW_OBJECT.into(),
                receiver: None,
                args: vec![Expr::Str(t.to_string())],
                span: ctx.span(ty),
            },
            // A type of the package declared in another of its files (unqualified
            // names are the package's own): decided where the program is known.
            t => Expr::Call {
                callee: super::ZERO_OF.into(),
                receiver: None,
                args: vec![Expr::Str(t.to_string())],
                span: ctx.span(ty),
            },
        },
        "qualified_type" if ctx.text(ty) == "json.RawMessage" => Expr::Null,
        "qualified_type" if frameworks::BUFFER_TYPES.contains(&ctx.text(ty)) => super::capture(ctx.span(ty)),
        _ => Expr::unknown(),
    }
}

fn function(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, name: String, owner: Option<&str>) {
    let params_node = node.field("parameters");
    let mut params = Vec::new();
    // Taking the response writer (or a framework's context) makes a handler by its
    // signature: one another handler calls is that handler's helper.
    let mut signature = false;
    let mut http_route = false;
    let mut connection = false;
    let mut lambda = false;
    let mut requests = Vec::new();
    let mut writers = Vec::new();
    let mut types = Vec::new();
    for p in params_node.map(children).unwrap_or_default() {
        let ty = p.field("type").map(|t| ctx.text(t)).unwrap_or("");
        signature |= ty.contains("ResponseWriter");
        let mut cursor = p.walk();
        let names: Vec<String> = p.fields("name", &mut cursor).map(|n| ctx.text(n).to_string()).collect();
        if ty.ends_with("http.Request") {
            requests.extend(names.iter().cloned());
        }
        if ty.ends_with("http.ResponseWriter") {
            writers.extend(names.iter().cloned());
        }
        if frameworks::LAMBDA_HTTP_EVENTS.contains(&ty.trim_start_matches('*')) {
            http_route = true;
            lambda = true;
            requests.extend(names.iter().cloned());
        }
        // `c *gin.Context`, `c echo.Context`: the context answers and reads the request.
        if frameworks::CONTEXT_TYPES.iter().any(|t| ty.trim_start_matches('*') == *t) {
            signature = true;
            writers.extend(names.iter().cloned());
            requests.extend(names.iter().cloned());
        }
        if frameworks::CONNECTION_TYPES.contains(&ty.trim_start_matches('*')) {
            connection = true;
        }
        // `r *Router`: parameters declared with one of the package's own types; `s
        // mcp.Server` with another package's (kept with its package: only an interface
        // of that name is looked for, see `Program::interface_implementation`).
        let own = ty.trim_start_matches('*');
        let named = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if named(own) || own.split_once('.').is_some_and(|(package, t)| named(package) && named(t)) {
            types.extend(names.iter().map(|n| (n.clone(), own.to_string())));
        }
        params.extend(names);
    }
    // `func f() (reqs []Req, batch bool, err error)`: named results start at their zero value.
    let mut results = Vec::new();
    let mut prologue = Vec::new();
    if let Some(list) = node.field("result").filter(|r| r.kind() == "parameter_list") {
        for p in children(list) {
            let zero = p.field("type").map(|t| zero_value(ctx, t)).unwrap_or_else(Expr::unknown);
            let mut cursor = p.walk();
            for n in p.fields("name", &mut cursor) {
                results.push(ctx.text(n).to_string());
                prologue.push(Stmt::Assign {
                    target: ctx.text(n).to_string(),
                    value: zero.clone(),
                    span: ctx.span(n),
                });
            }
        }
    }
    let body = node.field("body");
    let saved = (
        std::mem::replace(&mut ctx.http_requests, requests),
        std::mem::replace(&mut ctx.http_writers, writers),
        std::mem::replace(&mut ctx.named_results, results),
        std::mem::replace(&mut ctx.answers_by_return, lambda),
    );
    super::push_function(
        ctx,
        facts,
        node,
        name,
        owner,
        super::Params { types, ..params.into() },
        match (http_route, signature, connection) {
            (true, _, _) => super::Http::Route,
            (false, true, _) => super::Http::Signature,
            (false, false, true) => super::Http::Connection,
            (false, false, false) => super::Http::No,
        },
        |ctx, facts| {
            prologue.extend(block(ctx, body, facts));
            prologue
        },
    );
    (ctx.http_requests, ctx.http_writers, ctx.named_results, ctx.answers_by_return) = saved;
}

/// Go's `net/http` method constants.
fn http_method_constant(name: &str) -> Option<&'static str> {
    Some(match name {
        "http.MethodGet" => "GET",
        "http.MethodPost" => "POST",
        "http.MethodPut" => "PUT",
        "http.MethodPatch" => "PATCH",
        "http.MethodDelete" => "DELETE",
        "http.MethodHead" => "HEAD",
        "http.MethodOptions" => "OPTIONS",
        _ => return None,
    })
}

/// A function literal: lowered on its own, referred to by a made-up name.
fn anonymous(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let name = super::anonymous_name(node);
    function(ctx, node, facts, name.clone(), None);
    Expr::FnRef(name)
}

fn block(ctx: &mut Ctx, node: Option<Node>, facts: &mut FileFacts) -> Block {
    let mut out = Vec::new();
    let Some(node) = node else { return out };
    if !ctx.enter() {
        return out;
    }
    let mut stack: Vec<Node> = children(node);
    stack.reverse();
    while let Some(s) = stack.pop() {
        if s.kind() == "statement_list" {
            let mut inner = children(s);
            inner.reverse();
            stack.extend(inner);
        } else {
            statement(ctx, s, facts, &mut out);
        }
    }
    ctx.leave();
    out
}

/// The body of `func() { .. }()`: a function literal without parameters called where
/// it is written, with no arguments, whose body returns nothing itself (a `return`
/// there would leave the literal, not the function around it).
fn invoked_in_place(call: Node) -> Option<Node> {
    if call.kind() != "call_expression" || call.field("arguments")?.named_child_count() != 0 {
        return None;
    }
    let mut literal = call.field("function")?;
    while literal.kind() == "parenthesized_expression" {
        literal = literal.named_child(0)?;
    }
    if literal.kind() != "func_literal" || literal.field("parameters")?.named_child_count() != 0 {
        return None;
    }
    let body = literal.field("body")?;
    (!super::returns_within(body, &["func_literal"])).then_some(body)
}

fn statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, out: &mut Block) {
    let span = ctx.span(node);
    match node.kind() {
        // `func() { defer recoverInto(&resp); resp = handle(req) }()`: a closure run
        // in place, with no parameters and no return of its own, is its statements
        // run here; what it assigns to this function's variables stays assigned.
        "expression_statement" if let Some(body) = node.named_child(0).and_then(invoked_in_place) => {
            out.extend(block(ctx, Some(body), facts));
        }
        "expression_statement" => {
            if let Some(e) = node.named_child(0) {
                out.push(Stmt::Expr(expr(ctx, e, facts)));
            }
        }
        // `go f()`: runs beside this path (see [`super::DETACHED`]).
        "go_statement" => {
            if let Some(e) = node.named_child(0) {
                let inner = expr(ctx, e, facts);
                out.push(Stmt::Expr(Expr::Call {
                    callee: super::DETACHED.into(),
                    receiver: None,
                    args: vec![inner],
                    span,
                }));
            }
        }
        // `ch <- reply`: the value goes to whoever reads the channel (a writer, an SSE stream).
        "send_statement" => {
            if let Some(v) = node.field("value") {
                let value = expr(ctx, v, facts);
                out.push(Stmt::Expr(Expr::Call {
                    callee: super::EMIT.into(),
                    receiver: None,
                    args: vec![value],
                    span,
                }));
            }
        }
        "short_var_declaration" | "assignment_statement" => assignment(ctx, node, facts, out),
        "var_declaration" | "const_declaration" => declaration(ctx, node, facts, out, false),
        "return_statement" => {
            let values: Vec<Node> = node.named_child(0).map(children).unwrap_or_default();
            let value = match values.as_slice() {
                // A bare `return` in a function with named results returns them.
                [] if !ctx.named_results.is_empty() => Some(match ctx.named_results.as_slice() {
                    [one] => Expr::Var(one.clone()),
                    many => Expr::Array { items: many.iter().map(|n| Expr::Var(n.clone())).collect(), span },
                }),
                [] => None,
                [one] => Some(expr(ctx, *one, facts)),
                // `return result, nil`: a tuple the caller takes apart.
                many => {
                    Some(Expr::Array { items: many.iter().map(|v| expr(ctx, *v, facts)).collect(), span })
                }
            };
            // A Lambda handler's returned response is what the client receives.
            if ctx.answers_by_return
                && let Some(Expr::Array { items, .. }) = &value
                && let Some(response) = items.first().filter(|r| !matches!(r, Expr::Null))
            {
                out.push(Stmt::Expr(Expr::Call {
                    callee: super::EMIT.into(),
                    receiver: None,
                    args: vec![response.clone()],
                    span,
                }));
            }
            out.push(Stmt::Return { value, span });
        }
        "if_statement" => out.push(Stmt::Expr(if_statement(ctx, node, facts))),
        // `switch val := r.ID.(type) { case nil: ...; case string: ... }`.
        "type_switch_statement" => out.push(Stmt::Expr(type_switch(ctx, node, facts))),
        "expression_switch_statement" => {
            if let Some(init) = node.field("initializer") {
                statement(ctx, init, facts, out);
            }
            out.push(Stmt::Expr(switch(ctx, node, facts)));
        }
        "for_statement" => {
            let body = block(ctx, node.field("body"), facts);
            // `for _, resp := range responses`: the value takes each item.
            let range = children(node).into_iter().find(|c| c.kind() == "range_clause");
            match range {
                Some(r) => {
                    let targets = r
                        .field("left")
                        .map(children)
                        .unwrap_or_default()
                        .into_iter()
                        .last()
                        .map(|t| vec![ctx.text(t).to_string()])
                        .filter(|t| t.len() == 1 && children(r.field("left").unwrap_or(r)).len() == 2)
                        .unwrap_or_default();
                    let iterable =
                        r.field("right").map(|x| expr(ctx, x, facts)).unwrap_or_else(Expr::unknown);
                    out.push(Stmt::Expr(Expr::ForEach { targets, iterable: Box::new(iterable), body }));
                }
                None => out.push(Stmt::Expr(Expr::Loop { body })),
            }
        }
        "block" => out.extend(block(ctx, Some(node), facts)),
        "labeled_statement" => {
            if let Some(s) = children(node).into_iter().find(|c| c.kind() != "label_name") {
                statement(ctx, s, facts, out);
            }
        }
        // `break outer` leaves the labelled loop even from inside a switch.
        "break_statement" if node.named_child_count() > 0 => out.push(Stmt::Continue),
        "break_statement" => out.push(Stmt::LeaveLoop),
        "continue_statement" => out.push(Stmt::NextRound),
        // `select { case ch <- msg: ...; default: ... }`: one of the cases runs, which
        // one the run decides (a ready channel); each is a path. A case for a deadline
        // or a cancellation (`<-time.After(d)`, `<-ctx.Done()`) is not: the scan takes
        // the work to finish in time, so a handler that never finished answers nothing.
        "select_statement" => {
            let all: Vec<Node> = children(node)
                .into_iter()
                .filter(|c| matches!(c.kind(), "communication_case" | "default_case"))
                .collect();
            let waits: Vec<Node> = all.iter().copied().filter(|c| !deadline_case(ctx, *c)).collect();
            let mut cases: Vec<Block> = Vec::new();
            for case in if waits.is_empty() { all } else { waits } {
                let mut body = Vec::new();
                for c in children(case) {
                    if c.kind() == "statement_list" {
                        for s in children(c) {
                            statement(ctx, s, facts, &mut body);
                        }
                    } else {
                        statement(ctx, c, facts, &mut body);
                    }
                }
                cases.push(body);
            }
            out.extend(super::one_of(cases, span, Stmt::Expr).unwrap_or_default());
        }
        "expression_case" | "default_case" => {}
        _ => {}
    }
}

/// A `select` case receiving from a deadline or a cancellation: `<-time.After(d)`,
/// `<-time.Tick(d)`, `<-timer.C`, `<-ctx.Done()`.
fn deadline_case(ctx: &Ctx, case: Node) -> bool {
    let Some(comm) = case.field("communication") else { return false };
    let received = match comm.kind() {
        "receive_statement" => comm.field("right"),
        "unary_expression" => Some(comm),
        _ => None,
    };
    let Some(channel) = received.filter(|r| r.kind() == "unary_expression").and_then(|r| r.field("operand"))
    else {
        return false;
    };
    let text = ctx.text(channel);
    let callee = text.split('(').next().unwrap_or(text);
    matches!(callee, "time.After" | "time.Tick") || callee.ends_with(".Done") || text.ends_with(".C")
}

fn assignment(ctx: &mut Ctx, node: Node, facts: &mut FileFacts, out: &mut Block) {
    let span = ctx.span(node);
    let left: Vec<Node> = node.field("left").map(children).unwrap_or_default();
    let right: Vec<Node> = node.field("right").map(children).unwrap_or_default();
    match (left.as_slice(), right.as_slice()) {
        // `_, ok := supported[version]`: only whether the key is in the table.
        ([value, ok], [one])
            if ctx.text(*value) == "_"
                && one.kind() == "index_expression"
                && let (Some(table), Some(key)) = (one.field("operand"), one.field("index")) =>
        {
            let test = Expr::Member {
                item: Box::new(expr(ctx, key, facts)),
                collection: Box::new(expr(ctx, table, facts)),
            };
            let name = ctx.text(*ok).to_string();
            ctx.presence.retain(|(n, _)| *n != name);
            ctx.presence.push((name.clone(), test.clone()));
            out.push(Stmt::Assign { target: name, value: test, span });
        }
        // `handler, ok := handlers[method]`: ok says whether the entry exists.
        ([value, ok], [one])
            if one.kind() == "index_expression" || one.kind() == "type_assertion_expression" =>
        {
            let target = ctx.text(*value).to_string();
            let v = expr(ctx, *one, facts);
            out.push(Stmt::Assign { target: target.clone(), value: v, span });
            let present = Expr::Not(Box::new(Expr::IsNull(Box::new(Expr::Var(target)))));
            out.push(Stmt::Assign { target: ctx.text(*ok).to_string(), value: present, span });
        }
        (targets, values) if targets.len() == values.len() => {
            for (t, v) in targets.iter().zip(values) {
                let target = member_target(ctx, *t);
                let value = expr(ctx, *v, facts);
                // `s.handlers[method] = h`, `m[MethodPing] = s.handlePing`: a map write.
                if t.kind() == "index_expression"
                    && let (Some(table), Some(key)) = (t.field("operand"), t.field("index"))
                {
                    let key = expr(ctx, key, facts);
                    out.push(Stmt::Store {
                        table: ctx.text(table).to_string(),
                        key: Box::new(key),
                        value: Box::new(value),
                        span,
                    });
                    continue;
                }
                if is_initialized_flag(&target) && matches!(value, Expr::Bool(true)) {
                    out.push(Stmt::SetInitialized { span });
                }
                out.push(Stmt::Assign { target, value, span });
            }
        }
        // `result, err := s.handle(req)`: each target takes its element of the tuple.
        (targets, [one]) => {
            let value = expr(ctx, *one, facts);
            let targets = targets.iter().map(|t| ctx.text(*t).to_string()).collect();
            out.push(Stmt::Destructure { targets, value, span });
        }
        _ => {}
    }
}

fn if_statement(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let mut pre = Vec::new();
    if let Some(init) = node.field("initializer") {
        statement(ctx, init, facts, &mut pre);
    }
    let cond = node.field("condition").map(|c| expr(ctx, c, facts)).unwrap_or_else(Expr::unknown);
    // `if ok` / `if !ok` after `_, ok := table[key]`: the membership test itself, so
    // the branch knows which keys it holds.
    let presence = |name: &str| ctx.presence.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t.clone());
    let cond = match cond {
        Expr::Var(ref name) => presence(name).unwrap_or(cond),
        Expr::Not(ref inner) => match inner.as_ref() {
            Expr::Var(name) => presence(name).map(|t| Expr::Not(Box::new(t))).unwrap_or(cond),
            _ => cond,
        },
        other => other,
    };
    let then = block(ctx, node.field("consequence"), facts);
    let otherwise = match node.field("alternative") {
        Some(alt) if alt.kind() == "if_statement" => vec![Stmt::Expr(if_statement(ctx, alt, facts))],
        Some(alt) => block(ctx, Some(alt), facts),
        None => Vec::new(),
    };
    let test = Expr::If { cond: Box::new(cond), then, otherwise, span };
    if pre.is_empty() {
        test
    } else {
        pre.push(Stmt::Expr(test));
        Expr::Block(pre)
    }
}

fn switch(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let Some(subject) = node.field("value").map(|v| expr(ctx, v, facts)) else {
        return condition_switch(ctx, node, facts);
    };
    let mut arms = Vec::new();
    for case in children(node) {
        let patterns = match case.kind() {
            "expression_case" => case
                .field("value")
                .map(children)
                .unwrap_or_default()
                .into_iter()
                .map(|v| super::case_pattern(expr(ctx, v, facts)))
                .collect(),
            "default_case" => vec![Pattern::Any(None)],
            _ => continue,
        };
        let body = children(case).into_iter().find(|c| c.kind() == "statement_list");
        let body = super::end_at_break(block(ctx, body, facts));
        arms.push(Arm { patterns, guard: None, body, span: ctx.span(case) });
    }
    Expr::Match { subject: Box::new(subject), arms, span }
}

/// A type switch: each case tests what the value is (`nil` is the absent value);
/// the alias (`val :=`) holds the value in every case.
fn type_switch(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let subject = sub(ctx, node, "value", facts);
    let alias =
        node.field("alias").and_then(|a| children(a).into_iter().next()).map(|a| ctx.text(a).to_string());
    let mut arms = Vec::new();
    for case in children(node) {
        let patterns: Vec<Pattern> = match case.kind() {
            "type_case" => {
                let mut cursor = case.walk();
                case.fields("type", &mut cursor)
                    .map(|t| match ctx.text(t) {
                        "nil" => Pattern::Variant { name: "None".into(), binding: None },
                        other => Pattern::Type(other.to_string()),
                    })
                    .collect()
            }
            "default_case" => vec![Pattern::Any(None)],
            _ => continue,
        };
        let body = children(case).into_iter().find(|c| c.kind() == "statement_list");
        let mut stmts = Vec::new();
        if let Some(a) = &alias {
            stmts.push(Stmt::Assign { target: a.clone(), value: subject.clone(), span });
        }
        stmts.extend(super::end_at_break(block(ctx, body, facts)));
        arms.push(Arm { patterns, guard: None, body: stmts, span: ctx.span(case) });
    }
    Expr::Match { subject: Box::new(subject), arms, span }
}

fn expr(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    ctx.nested(Expr::unknown, |ctx| expr_inner(ctx, node, facts))
}

fn sub(ctx: &mut Ctx, node: Node, name: &'static str, facts: &mut FileFacts) -> Expr {
    node.field(name).map(|n| expr(ctx, n, facts)).unwrap_or_else(Expr::unknown)
}

fn expr_inner(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    match node.kind() {
        // The method's receiver is bound as `self` (as its members are read).
        "identifier" if ctx.receiver.as_deref() == Some(ctx.text(node)) => Expr::Var("self".into()),
        "iota" => ctx.iota.map_or_else(Expr::unknown, Expr::Int),
        "identifier" => Expr::Var(ctx.text(node).to_string()),
        "nil" => Expr::Null,
        "true" => Expr::Bool(true),
        "false" => Expr::Bool(false),
        "int_literal" => super::int_literal(ctx.text(node)).map(Expr::Int).unwrap_or_else(Expr::unknown),
        "interpreted_string_literal" => {
            let text = super::unescape(&unquote(ctx.text(node)));
            // `conn.Write([]byte("HTTP/1.1 202 Accepted\r\n\r\n"))` on a bare connection.
            let at = ctx.span(node);
            if super::raw_http::opens_response(&text)
                && let Some(answer) = super::raw_http::response(vec![super::Piece::Text(text.clone())], at)
            {
                facts.writes_http = true;
                return answer;
            }
            Expr::Str(text)
        }
        "raw_string_literal" => Expr::Str(unquote(ctx.text(node))),
        // `'['`: a rune is its code point.
        "rune_literal" => {
            rune(ctx.text(node)).map_or_else(Expr::unknown, |c| Expr::Int(i64::from(u32::from(c))))
        }
        // `T(x)` converts its operand (the first child is the type); `x.(T)` and `(x)`
        // are their first child.
        "parenthesized_expression" | "type_assertion_expression" | "type_conversion_expression" => {
            let inner = node
                .field("operand")
                .or_else(|| node.named_child(0))
                .map(|c| expr(ctx, c, facts))
                .unwrap_or_else(Expr::unknown);
            let bytes = node.kind() == "type_conversion_expression"
                && node.field("type").is_some_and(|t| ctx.text(t) == "[]byte");
            match bytes.then(|| json_bytes(&inner, ctx.span(node))).flatten() {
                Some(json) => json,
                None => inner,
            }
        }
        "selector_expression" => {
            let name = text_of(ctx, node, "field");
            let t = ctx.text(node);
            if t == "os.Stdin" {
                ctx.saw_stdin = true;
            }
            if frameworks::STATUS_PACKAGES.iter().any(|p| t.starts_with(p))
                && let Some(status) = status_by_name(t)
            {
                return Expr::Int(i64::from(status));
            }
            if let Some(verb) = http_method_constant(t) {
                return Expr::Str(verb.into());
            }
            // `mcp.MethodInitialize` of mcp-go: the method name it stands for.
            if let Some((package, member)) = t.split_once('.')
                && let Some((_, constants)) = ctx.known_constants.iter().find(|(local, _)| local == package)
                && let Some((_, value)) = constants.iter().find(|(c, _)| *c == member)
            {
                return Expr::Str((*value).to_string());
            }
            // `r.Method` on the `*http.Request`: the HTTP verb. Probes arrive by POST.
            let operand_text = node.field("operand").map(|o| ctx.text(o)).unwrap_or("");
            let request = operand_text.trim_end_matches("()").trim_end_matches(".Request");
            let of_request = |r: &String| {
                r == operand_text
                    || r == request
                    || operand_text.strip_prefix(r.as_str()).is_some_and(|t| t.starts_with('.'))
            };
            // `r.Body`, `c.Request.Body`: the message's bytes as they arrived.
            if name == "Body" && ctx.http_requests.iter().chain(ctx.http_writers.iter()).any(of_request) {
                return super::encoded_message(ctx.span(node));
            }
            if frameworks::VERB_MEMBERS.contains(&name.as_str()) && ctx.http_requests.iter().any(of_request) {
                return Expr::Str("POST".into());
            }
            // `s.conf.ProtocolVersion`: the server's own setting, read through a member of
            // its receiver (a method on the message type, `r.ID`, still reads the message).
            let own = name == "ProtocolVersion"
                && ctx
                    .receiver
                    .as_deref()
                    .is_some_and(|r| operand_text.strip_prefix(r).is_some_and(|rest| rest.starts_with('.')));
            // `mcp.ProtocolVersion` (or `cfgSchema.ProtocolVersion` under an alias) of an
            // imported package: its constant, not a member.
            let package = ctx.package_aliases.iter().any(|p| p == operand_text);
            if let Some(f) = message_field(&name).filter(|_| !own && !package) {
                let operand = node.field("operand").map(|o| expr(ctx, o, facts));
                return field(operand, f);
            }
            // `s.handleInitialize` in a method of `s`: a member of the receiver, as
            // `self.handleInitialize` (a method value handed to a helper resolves so).
            if ctx.receiver.as_deref().is_some_and(|r| r == operand_text)
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            {
                return Expr::Var(format!("self.{name}"));
            }
            if t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                return Expr::Var(t.to_string());
            }
            Expr::opaque(vec![sub(ctx, node, "operand", facts)])
        }
        "index_expression" => {
            let collection = sub(ctx, node, "operand", facts);
            let key = sub(ctx, node, "index", facts);
            match &key {
                Expr::Str(k) => match message_field(k) {
                    Some(f) => field(Some(collection), f),
                    None => Expr::Lookup { collection: Box::new(collection), key: Box::new(key) },
                },
                _ => Expr::Lookup { collection: Box::new(collection), key: Box::new(key) },
            }
        }
        "call_expression" => call_expression(ctx, node, facts),
        "composite_literal" => composite(ctx, node, facts),
        "func_literal" => anonymous(ctx, node, facts),
        "unary_expression" => {
            let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
            let operand = sub(ctx, node, "operand", facts);
            match (op, operand) {
                ("!", e) => Expr::Not(Box::new(e)),
                ("-", Expr::Int(n)) => Expr::Int(-n),
                (_, e) => e,
            }
        }
        "binary_expression" => binary(ctx, node, facts),
        _ => {
            let parts = children(node).into_iter().map(|c| expr(ctx, c, facts)).collect();
            Expr::opaque(parts)
        }
    }
}

fn binary(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let op = node.field("operator").map(|o| ctx.text(o)).unwrap_or("");
    let left = sub(ctx, node, "left", facts);
    let right = sub(ctx, node, "right", facts);
    match op {
        "==" | "!=" => {
            let negated = op == "!=";
            let test = match (&left, &right) {
                (x, Expr::Null) | (Expr::Null, x) => Expr::IsNull(Box::new(x.clone())),
                // `len(req.ID) == 0`: no id, or an empty list; `string(req.ID) == "null"`: no id.
                (Expr::Call { callee, args, .. }, Expr::Int(0)) if callee == "len" => {
                    Expr::IsEmpty(Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)))
                }
                (Expr::Call { callee, args, .. }, Expr::Str(s)) if callee == "string" && s == "null" => {
                    Expr::IsNull(Box::new(args.first().cloned().unwrap_or_else(Expr::unknown)))
                }
                _ => return Expr::Eq { left: Box::new(left), right: Box::new(right), negated },
            };
            if negated { Expr::Not(Box::new(test)) } else { test }
        }
        "&&" => Expr::And(Box::new(left), Box::new(right)),
        "||" => Expr::Or(Box::new(left), Box::new(right)),
        // Constant arithmetic (`iota + 1`, `1 << iota`).
        "+" | "-" | "*" | "<<" if matches!((&left, &right), (Expr::Int(_), Expr::Int(_))) => {
            let (Expr::Int(a), Expr::Int(b)) = (&left, &right) else { return Expr::unknown() };
            let folded = match op {
                "+" => a.checked_add(*b),
                "-" => a.checked_sub(*b),
                "*" => a.checked_mul(*b),
                _ => u32::try_from(*b).ok().and_then(|b| a.checked_shl(b)),
            };
            folded.map_or_else(Expr::unknown, Expr::Int)
        }
        op => super::ordered(op, left, right),
    }
}

/// `Response{JSONRPC: "2.0", ID: req.ID, Result: r}` and `map[string]any{...}`.
fn composite(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let Some(body) = node.field("body") else { return Expr::unknown() };
    literal(ctx, body, node.field("type"), span, facts)
}

/// The type of the items a slice, array or map literal holds (`[]Tool{{Name: "a"}}`
/// leaves it out of each item), a pointer's taken through (`[]*Tool{{...}}`).
fn item_type<'t>(ty: Option<Node<'t>>, keyed: bool) -> Option<Node<'t>> {
    let field = match ty?.kind() {
        "slice_type" | "array_type" | "implicit_length_array_type" => "element",
        "map_type" if keyed => "value",
        _ => return None,
    };
    let item = ty?.field(field)?;
    match item.kind() {
        "pointer_type" => item.named_child(0),
        _ => Some(item),
    }
}

/// An item of a composite literal: one written without its type (`{Name: "a"}` in
/// `[]Tool{...}`) is a literal of the item type.
fn literal_item(ctx: &mut Ctx, v: Node, ty: Option<Node>, facts: &mut FileFacts) -> Expr {
    if v.kind() == "literal_value" {
        let span = ctx.span(v);
        return ctx.nested(Expr::unknown, |ctx| literal(ctx, v, ty, span, facts));
    }
    expr(ctx, v, facts)
}

/// The body of a composite literal of type `ty`.
fn literal(
    ctx: &mut Ctx,
    body: Node,
    ty: Option<Node>,
    span: crate::model::Span,
    facts: &mut FileFacts,
) -> Expr {
    // `&bytes.Buffer{}`: an empty output buffer.
    if ty.is_some_and(|t| frameworks::BUFFER_TYPES.contains(&ctx.text(t))) && body.named_child_count() == 0 {
        return super::capture(span);
    }
    let mut entries = Vec::new();
    let mut items = Vec::new();
    for el in children(body) {
        match el.kind() {
            "keyed_element" => {
                let key = el.field("key").map(|k| ctx.text(k)).unwrap_or("");
                let key = json_key(&unquote(key));
                let value = el
                    .field("value")
                    .and_then(|v| v.named_child(0))
                    .map(|v| literal_item(ctx, v, item_type(ty, true), facts))
                    .unwrap_or_else(Expr::unknown);
                entries.push((key, value));
            }
            "literal_element" => items.push(
                el.named_child(0)
                    .map(|v| literal_item(ctx, v, item_type(ty, false), facts))
                    .unwrap_or_else(Expr::unknown),
            ),
            _ => {}
        }
    }
    // `events.APIGatewayProxyResponse{StatusCode: 202}`: the HTTP answer it describes.
    if ty.is_some_and(|t| frameworks::LAMBDA_HTTP_RESPONSES.contains(&ctx.text(t))) {
        let member = |k: &str| entries.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        let body = member("Body").unwrap_or(Expr::Str(String::new()));
        // Lambda answers 200 when no status is set.
        return super::http_answer(member("StatusCode").unwrap_or(Expr::Int(200)), body, span);
    }
    let sequence =
        ty.is_some_and(|t| matches!(t.kind(), "slice_type" | "array_type" | "implicit_length_array_type"));
    // `&StdoutSender{}`: an empty object of a named type, whose methods calls on it reach.
    if entries.is_empty()
        && items.is_empty()
        && let Some(t) = ty.filter(|t| matches!(t.kind(), "type_identifier" | "qualified_type"))
    {
        let name = super::last_segment(ctx.text(t)).to_string();
        return Expr::Call {
            callee: super::NEW_OBJECT.into(),
            receiver: None,
            args: vec![Expr::Str(name)],
            span,
        };
    }
    if sequence || (entries.is_empty() && !items.is_empty()) {
        return Expr::Array { items, span };
    }
    let built = object(entries, span);
    // `&Sender{fn: send}`: an object of a named type, whose methods calls on it reach
    // and see its fields (a reply-shaped literal stays a reply).
    match (&built, ty) {
        (Expr::Object { .. }, Some(t)) if matches!(t.kind(), "type_identifier" | "qualified_type") => {
            let name = super::last_segment(ctx.text(t)).to_string();
            Expr::Call {
                callee: super::NEW_OBJECT.into(),
                receiver: None,
                args: vec![Expr::Str(name), built],
                span,
            }
        }
        _ => built,
    }
}

/// Go field names as their JSON members: `JSONRPC` -> `jsonrpc`, `ID` -> `id`.
/// An assignment target as the interpreter names it: `resp.Error = e` writes the
/// reply's `error` member, as the composite literal `Response{Error: e}` does.
fn member_target(ctx: &Ctx, t: Node) -> String {
    if t.kind() == "selector_expression"
        && let (Some(operand), Some(field)) = (t.field("operand"), t.field("field"))
        && operand.kind() == "identifier"
    {
        // `s.dispatch = ...` in a method of `s`: the receiver's member, written as it
        // is read (`self.dispatch`).
        let operand = match ctx.receiver.as_deref() {
            Some(r) if r == ctx.text(operand) => "self",
            _ => ctx.text(operand),
        };
        return format!("{operand}.{}", json_key(ctx.text(field)));
    }
    ctx.text(t).to_string()
}

fn json_key(key: &str) -> String {
    let lower = key.to_ascii_lowercase();
    match lower.as_str() {
        "jsonrpc" | "id" | "result" | "error" | "code" | "message" | "method" | "params" => lower,
        "protocolversion" => "protocolVersion".to_string(),
        _ => key.to_string(),
    }
}

/// The member under which a `context.Context` value holds what `WithValue` put in it
/// (`$context:<key>`), and its parent context (`$context:`).
const CONTEXT_SLOT: &str = crate::model::CONTEXT_SLOT;

/// Whether an operand names a `context.Context` (`ctx`, `reqCtx`, `r.Context()`).
fn is_context(operand: &str) -> bool {
    let lower = operand.to_ascii_lowercase();
    lower.ends_with("ctx") || lower.ends_with("context()") || lower.ends_with("context")
}

fn call_expression(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let Some(func) = node.field("function") else { return Expr::unknown() };
    let written = ctx.text(func);
    // `s.fn(m)` in a method of `s`: a member of the receiver, as `self.fn` (as its reads are).
    let callee = match ctx.receiver.as_deref().and_then(|r| written.strip_prefix(r)) {
        Some(rest) if rest.starts_with('.') => format!("self{rest}"),
        _ => written.to_string(),
    };
    let last = super::last_segment(&callee).to_string();
    let arg_nodes: Vec<Node> = node.field("arguments").map(children).unwrap_or_default();
    // `r.Context()` on a handler's `*http.Request`: the standard library's method.
    if func.kind() == "selector_expression"
        && frameworks::REQUEST_METHODS.contains(&last.as_str())
        && let Some(operand) = func.field("operand")
        && ctx.http_requests.iter().any(|r| r == ctx.text(operand))
        && !ctx.http_writers.iter().any(|w| w == ctx.text(operand))
    {
        let args = arg_nodes.iter().map(|a| expr(ctx, *a, facts)).collect();
        return Expr::opaque(args);
    }
    // `g.Go(func() error { .. })` of an errgroup or a `sync.WaitGroup`: the function
    // runs as a goroutine, as `go f()` does (see [`super::DETACHED`]).
    if func.kind() == "selector_expression"
        && frameworks::GOROUTINE_STARTERS.contains(&last.as_str())
        && let [f] = arg_nodes.as_slice()
        && f.kind() == "func_literal"
    {
        let target = anonymous(ctx, *f, facts);
        let run =
            Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args: Vec::new(), span };
        return Expr::Call { callee: super::DETACHED.into(), receiver: None, args: vec![run], span };
    }
    // `new(bytes.Buffer)`, `bytes.NewBuffer(nil)`: an empty output buffer.
    let empty_start = |a: &Node| matches!(ctx.text(*a), "nil" | "\"\"" | "``");
    if (callee == "new"
        && arg_nodes.first().is_some_and(|a| frameworks::BUFFER_TYPES.contains(&ctx.text(*a))))
        || (frameworks::BUFFER_CONSTRUCTORS.contains(&callee.as_str())
            && arg_nodes.first().is_some_and(empty_start))
    {
        return super::capture(span);
    }
    // `new(Server)`: an empty object of a named type, as `&Server{}` is.
    if callee == "new"
        && let [t] = arg_nodes.as_slice()
        && matches!(t.kind(), "type_identifier" | "qualified_type" | "identifier" | "selector_expression")
    {
        let name = super::last_segment(ctx.text(*t)).to_string();
        return Expr::Call {
            callee: super::NEW_OBJECT.into(),
            receiver: None,
            args: vec![Expr::Str(name)],
            span,
        };
    }
    if crate::lower::SDK_SERVER_CALLS.contains(&last.as_str()) && ctx.sdk_server.is_none() {
        ctx.sdk_server = Some(span);
    }
    // `http.HandleFunc("/mcp", s.handle)`, `r.POST("/mcp", h)` name an HTTP handler;
    // `s.Handle(req)` without a path is an ordinary call.
    let mounts = frameworks::ROUTE_METHODS.contains(&last.as_str())
        && arg_nodes
            .iter()
            .any(|a| a.kind() == "interpreted_string_literal" && unquote(ctx.text(*a)).starts_with('/'));
    if mounts || frameworks::HANDLER_CONVERSIONS.contains(&last.as_str()) {
        for a in &arg_nodes {
            match a.kind() {
                "identifier" | "selector_expression" => {
                    facts.http_handlers.push(super::last_segment(ctx.text(*a)).to_string())
                }
                "func_literal" => {
                    if let Expr::FnRef(name) = anonymous(ctx, *a, facts) {
                        facts.http_handlers.push(name);
                    }
                }
                _ => {}
            }
        }
        return Expr::unknown();
    }
    if frameworks::PROCESS_EXITS.contains(&callee.as_str()) {
        return super::exit(None, span);
    }
    let args: Vec<Expr> = arg_nodes.iter().map(|a| expr(ctx, *a, facts)).collect();
    // `logx.Infof(..)`, `slog.Info(..)`: a logging package's function writes a log line,
    // never a reply; its body (the scanned code's own, in a monorepo) is not followed.
    if let Some((package, _)) = callee.split_once('.')
        && frameworks::LOG_PACKAGES.contains(&package)
        && facts
            .imports
            .iter()
            .filter_map(|i| i.strip_prefix(crate::model::GO_IMPORT))
            .any(|path| path.rsplit('/').next() == Some(package))
    {
        return Expr::opaque(args);
    }
    // `append(xs, ys...)` appends the items of `ys`, not `ys` itself.
    if callee == "append"
        && let ([_, spread], [list, _]) = (arg_nodes.as_slice(), args.as_slice())
        && spread.kind() == "variadic_argument"
    {
        let items = spread.named_child(0).map(|inner| expr(ctx, inner, facts)).unwrap_or_else(Expr::unknown);
        return Expr::Call {
            callee: super::CONCAT.to_string(),
            receiver: None,
            args: vec![list.clone(), items],
            span,
        };
    }
    // A conversion between number types (`int(CodeInvalidRequest)`) keeps the value.
    if func.kind() == "identifier" && NUMBER_TYPES.contains(&callee.as_str()) && args.len() == 1 {
        return args.into_iter().next().expect("one argument");
    }
    let operand = (func.kind() == "selector_expression").then(|| func.field("operand")).flatten();
    let operand_text = operand.map(|o| ctx.text(o)).unwrap_or("");
    if let Some(read) = json_path_read(ctx, facts, &callee, &last, operand, &args) {
        return read;
    }
    if args.iter().any(|a| matches!(a, Expr::Var(v) if v == "os.Stderr")) || operand_text == "os.Stderr" {
        return Expr::unknown();
    }
    // Values carried in a `context.Context`: `context.WithValue(parent, key, v)` holds
    // `v` under the key's name beside what the parent holds, and `ctx.Value(key)` reads
    // it back (a reply sender handed down to the dispatcher, say).
    if callee == "context.WithValue"
        && let ([parent, _, value], [_, key, _]) = (args.as_slice(), arg_nodes.as_slice())
    {
        let slot = format!("{CONTEXT_SLOT}{}", super::last_segment(ctx.text(*key)));
        let entries = vec![(slot, value.clone()), (CONTEXT_SLOT.to_string(), parent.clone())];
        return Expr::Object { entries, span };
    }
    // `ctx, cancel := context.WithTimeout(parent, d)`: the parent's values, and a cancel func.
    if matches!(callee.as_str(), "context.WithTimeout" | "context.WithCancel" | "context.WithDeadline")
        && let Some(parent) = args.first()
    {
        return Expr::Array { items: vec![parent.clone(), Expr::unknown()], span };
    }
    if last == "Value"
        && let [key] = arg_nodes.as_slice()
        && is_context(operand_text)
    {
        let slot = format!("{CONTEXT_SLOT}{}", super::last_segment(ctx.text(*key)));
        let object = operand.map(|o| expr(ctx, o, facts)).unwrap_or_else(Expr::unknown);
        return Expr::Lookup { collection: Box::new(object), key: Box::new(Expr::Str(slot)) };
    }
    match callee.as_str() {
        // `make([]T, 0, n)` and `make(map[K]V)` start empty.
        "make" => match arg_nodes.first().map(|n| n.kind()) {
            Some("slice_type") => return Expr::Array { items: Vec::new(), span },
            Some("map_type") => return Expr::Object { entries: Vec::new(), span },
            _ => {}
        },
        // `raw, err := json.Marshal(v)`: the bytes are the value, and there is no error.
        c if super::serialises(Language::Go, c) && !args.is_empty() => {
            let value = super::serialised(args.into_iter().next().unwrap_or_else(Expr::unknown), span);
            return Expr::Array { items: vec![value, Expr::Null], span };
        }
        "json.RawMessage" => {
            if let Some(Expr::Str(text)) = args.first()
                && let Some(v) = super::raw_json(text, span)
            {
                return v;
            }
            return args.into_iter().next().unwrap_or_else(Expr::unknown);
        }
        // Probes are well-formed: decoding the message fills the target and returns no error.
        "json.Unmarshal" => return decode_into(args, arg_nodes.get(1).map(|n| ctx.text(*n)), span),
        // `body, err := io.ReadAll(r.Body)`: what the reader holds, and no error.
        "io.ReadAll" | "ioutil.ReadAll" if args.len() == 1 => {
            let bytes = Expr::Call { callee: super::READ_ALL.into(), receiver: None, args, span };
            return Expr::Array { items: vec![bytes, Expr::Null], span };
        }
        // A reader that stops at a size reads the same bytes (probes are small).
        "http.MaxBytesReader" if args.len() == 3 => return args.into_iter().nth(1).expect("three arguments"),
        "io.LimitReader" if args.len() == 2 => return args.into_iter().next().expect("two arguments"),
        // `[]byte(`{}`)`: JSON text written as bytes is raw JSON where it lands in a
        // message (go-sdk's `jsonrpc.Response{Result: ..}` holds a `json.RawMessage`).
        "[]byte"
            if let [text] = args.as_slice()
                && let Some(v) = json_bytes(text, span) =>
        {
            return v;
        }
        // `[]byte("[")`: a conversion keeps the text.
        "[]byte" | "[]rune" if args.len() == 1 => return args.into_iter().next().expect("one argument"),
        // `mcp.MCPMethod(req.Method)`: a conversion to a known package's string type.
        c if args.len() == 1
            && c.split_once('.').is_some_and(|(package, ty)| {
                frameworks::PACKAGE_STRING_TYPES.contains(&ty)
                    && ctx.known_constants.iter().any(|(local, _)| local == package)
            }) =>
        {
            return args.into_iter().next().expect("one argument");
        }
        "strings.HasPrefix" | "bytes.HasPrefix" => {
            if let [text, Expr::Str(prefix)] = args.as_slice() {
                return Expr::StartsWith { text: Box::new(text.clone()), prefix: prefix.clone() };
            }
        }
        "slices.Contains" => {
            if let [collection, item] = args.as_slice() {
                return Expr::Member {
                    item: Box::new(item.clone()),
                    collection: Box::new(collection.clone()),
                };
            }
        }
        // `conn, err := upgrader.Upgrade(w, r, nil)` (gorilla/websocket),
        // `websocket.Accept(w, r, opts)` (nhooyr, coder): the request becomes a WebSocket,
        // answered 101 Switching Protocols; messages then travel as frames on the
        // connection it returns (and there is no error).
        c if matches!(super::last_segment(c), "Upgrade" | "Accept")
            && args.len() >= 2
            && arg_nodes.first().is_some_and(|w| ctx.http_writers.iter().any(|h| h == ctx.text(*w))) =>
        {
            let switched = Expr::Http { status: Some(101), body: None, span };
            let upgrade =
                Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![switched], span };
            return Expr::Array { items: vec![upgrade, Expr::Null], span };
        }
        // `fmt.Fprintf(w, "data: %s\n\n", reply)`, `io.WriteString(w, "Accepted")` on the
        // response writer: the HTTP body.
        "fmt.Fprintln" | "fmt.Fprintf" | "fmt.Fprint" | "io.WriteString"
            if arg_nodes.first().is_some_and(|w| {
                let text = ctx.text(*w);
                let writer = text.strip_suffix(".Writer").unwrap_or(text);
                ctx.http_writers.iter().any(|h| h == writer)
            }) =>
        {
            let mut rest: Vec<Expr> = args.into_iter().skip(1).collect();
            if callee == "fmt.Fprintf" && rest.len() > 1 {
                let format = rest.remove(0);
                // `fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s}`, id)`: the JSON it writes.
                if let Expr::Str(format) = &format
                    && let Some(template) = super::printf_template(format, rest.clone(), span)
                {
                    rest = vec![template];
                }
            }
            let body = match rest.len() {
                1 => rest.pop().expect("one value"),
                _ => Expr::opaque(rest),
            };
            let http = Expr::Http { status: None, body: Some(Box::new(body)), span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        // `fmt.Printf(`{"jsonrpc":"2.0","id":%s}`+"\n", id)`: the JSON it writes.
        "fmt.Printf" | "fmt.Fprintf" => {
            let at = usize::from(callee == "fmt.Fprintf");
            let written = if at == 0 || to_stdout(ctx, &arg_nodes) { super::PRINT } else { super::EMIT };
            // `fmt.Fprintf(conn, "HTTP/1.1 %d %s\r\n\r\n%s", code, text, body)`.
            if let Some(answer) = raw_answer(args.get(at), &args[(at + 1).min(args.len())..], span, facts) {
                return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![answer], span };
            }
            if let Some(Expr::Str(format)) = args.get(at)
                && let Some(template) = super::printf_template(format, args[at + 1..].to_vec(), span)
            {
                return Expr::Call { callee: written.into(), receiver: None, args: vec![template], span };
            }
            return Expr::Call { callee: written.into(), receiver: None, args, span };
        }
        "fmt.Println" | "fmt.Print" => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        "fmt.Fprintln" | "fmt.Fprint" => {
            let written = if to_stdout(ctx, &arg_nodes) { super::PRINT } else { super::EMIT };
            return Expr::Call { callee: written.into(), receiver: None, args, span };
        }
        // `os.Stdout.WriteString(line)`: standard output.
        c if super::writes_stdout(c) => {
            return Expr::Call { callee: super::PRINT.into(), receiver: None, args, span };
        }
        // `fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, body)`: the JSON it builds.
        "fmt.Sprintf" => {
            if let Some(answer) = raw_answer(args.first(), args.get(1..).unwrap_or_default(), span, facts) {
                return answer;
            }
            if let Some(Expr::Str(format)) = args.first()
                && let Some(template) = super::printf_template(format, args[1..].to_vec(), span)
            {
                return template;
            }
        }
        // `http.NotFound(w, r)`: a 404 answer.
        "http.NotFound" => {
            let http = Expr::Http { status: Some(404), body: None, span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        // An HTTP error answer: `http.Error(w, "bad request", http.StatusBadRequest)`.
        "http.Error" => {
            let status = match args.get(2) {
                Some(Expr::Int(n)) => u16::try_from(*n).ok(),
                _ => None,
            };
            let http = Expr::Http { status, body: args.get(1).cloned().map(Box::new), span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        _ => {}
    }
    // `render.JSON(w, r, v)` of a framework package the file imports.
    if let Some((_, _, status, body_at)) = frameworks::PACKAGE_ANSWERS.iter().find(|(path, call, _, _)| {
        *call == callee
            && facts.imports.iter().any(|i| i.strip_prefix(crate::model::GO_IMPORT) == Some(*path))
    }) {
        let body = body_at.and_then(|i| args.get(i).cloned());
        let http = match *status {
            frameworks::StatusFrom::Unset => Expr::Http { status: None, body: body.map(Box::new), span },
            frameworks::StatusFrom::Fixed(code) => {
                Expr::Http { status: Some(code), body: body.map(Box::new), span }
            }
            frameworks::StatusFrom::Arg(i) => Expr::HttpWith {
                status: Box::new(args.get(i).cloned().unwrap_or_else(Expr::unknown)),
                body: Box::new(body.unwrap_or(Expr::Null)),
                null_is_empty: true,
                span,
            },
        };
        return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
    }
    // `c.JSON(202, v)`, `c.NoContent(202)` on a framework context answer the request;
    // `c.ShouldBindJSON(&req)` decodes the message into its argument.
    if ctx.http_writers.iter().any(|w| w == operand_text) {
        let fiber = facts.imports.iter().any(|i| {
            i.strip_prefix(crate::model::GO_IMPORT).is_some_and(|p| p.starts_with(frameworks::FIBER_IMPORT))
        });
        let answers = if fiber { frameworks::FIBER_ANSWERS } else { frameworks::CONTEXT_ANSWERS };
        if let Some((_, status_at, body_at)) = answers.iter().find(|(n, _, _)| *n == last) {
            let status = status_at.and_then(|i| args.get(i).cloned()).unwrap_or(Expr::Int(200));
            let body = body_at.and_then(|i| args.get(i).cloned()).unwrap_or(Expr::Null);
            let http =
                Expr::HttpWith { status: Box::new(status), body: Box::new(body), null_is_empty: true, span };
            return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
        }
        if frameworks::CONTEXT_DECODERS.contains(&last.as_str()) {
            return decode_into(args, arg_nodes.first().map(|n| ctx.text(*n)), span);
        }
    }
    // `json.NewEncoder(w).Encode(v)` on the response writer writes the HTTP body.
    let to_writer = |text: &str, ctx: &Ctx| {
        RESPONSE_WRITERS.contains(&text) || ctx.http_writers.iter().any(|w| w == text)
    };
    if last == "Encode"
        && let Some(inner) = operand_text.strip_prefix("json.NewEncoder(").and_then(|t| t.strip_suffix(')'))
        && to_writer(inner.trim(), ctx)
    {
        let http = Expr::Http { status: None, body: args.into_iter().next().map(Box::new), span };
        return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
    }
    // `json.NewDecoder(r.Body).Decode(&req)`: no error on a well-formed message.
    // What is decoded is the decoder's input, not the target `&req` (whose value
    // before the call says nothing of it).
    if last == "Decode" && operand_text.contains("NewDecoder") {
        return decode_into(Vec::new(), arg_nodes.first().map(|n| ctx.text(*n)), span);
    }
    // `dec.Decode(&v)` on a decoder made elsewhere (over bytes the scan cannot read):
    // `v` holds what was decoded, which is unknown, and so is the error.
    if matches!(last.as_str(), "Decode" | "Unmarshal")
        && let [target] = arg_nodes.as_slice()
        && let Some(name) = ctx.text(*target).strip_prefix('&')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
    {
        let value = Expr::opaque(args);
        return Expr::Block(vec![
            Stmt::Assign { target: name.to_string(), value, span },
            Stmt::Yield(Expr::unknown()),
        ]);
    }
    // `w.WriteHeader(http.StatusAccepted)` and `w.Write(body)` answer the HTTP request;
    // so do they on a framework context's writer (echo's `c.Response()`, gin's `c.Writer`).
    let context_writer = operand_text
        .strip_suffix(".Response()")
        .or_else(|| operand_text.strip_suffix(".Writer"))
        .is_some_and(|c| ctx.http_writers.iter().any(|w| w == c));
    if RESPONSE_WRITERS.contains(&operand_text)
        || ctx.http_writers.iter().any(|w| w == operand_text)
        || context_writer
    {
        match last.as_str() {
            // The status may be a helper's parameter (`writeJSON(w, status, v)`): it is evaluated.
            "WriteHeader" => {
                let status = Box::new(args.into_iter().next().unwrap_or_else(Expr::unknown));
                let http = Expr::HttpWith { status, body: Box::new(Expr::Null), null_is_empty: true, span };
                return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
            }
            "Write" => {
                let http = Expr::Http { status: None, body: args.into_iter().next().map(Box::new), span };
                return Expr::Call { callee: super::EMIT.into(), receiver: None, args: vec![http], span };
            }
            _ => {}
        }
    }
    let receiver = match operand {
        // `s.system.Ping()` in a method of `s`: a field of the receiver, as `self.system`
        // (the receiver itself is never bound to a value here).
        Some(o)
            if ctx.receiver.as_deref().is_some_and(|r| {
                ctx.text(o)
                    .strip_prefix(r)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|f| !f.is_empty() && f.chars().all(|c| c.is_alphanumeric() || c == '_'))
            }) =>
        {
            let field = ctx.text(o).split_once('.').map(|(_, f)| f).unwrap_or_default();
            Some(Expr::Var(format!("self.{field}")))
        }
        Some(o) if o.kind() != "identifier" || !is_package(ctx.text(o)) => Some(expr(ctx, o, facts)),
        _ => None,
    };
    if !matches!(func.kind(), "identifier" | "selector_expression") {
        let target = expr(ctx, func, facts);
        return Expr::Call { callee: "()".into(), receiver: Some(Box::new(target)), args, span };
    }
    call(callee, receiver, args, Vec::new(), span)
}

/// `[]byte(`{}`)`: JSON text written as bytes, which is raw JSON where it lands in a
/// message (go-sdk's `jsonrpc.Response{Result: ..}` holds a `json.RawMessage`): the
/// value, for an object or an array; other text (`[]byte("[")`) stays text.
fn json_bytes(text: &Expr, span: crate::model::Span) -> Option<Expr> {
    let Expr::Str(text) = text else { return None };
    if !text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    super::raw_json(text, span)
}

/// A JSON path library's reads (see `frameworks::JSON_PATH_LIBRARIES`), in a file
/// that imports it: `gjson.Parse(text)` the decoded message, `gjson.Get(text, "id")`
/// and `parsed.Get("method")` one member of it, `.String()` that member, `.Exists()`
/// whether it is there.
fn json_path_read(
    ctx: &mut Ctx,
    facts: &mut FileFacts,
    callee: &str,
    last: &str,
    operand: Option<Node>,
    args: &[Expr],
) -> Option<Expr> {
    let lib = frameworks::JSON_PATH_LIBRARIES
        .iter()
        .find(|l| facts.imports.iter().any(|i| i.strip_prefix(crate::model::GO_IMPORT) == Some(l.import)))?;
    let member = |of: Expr, key: &Expr| Expr::Lookup { collection: Box::new(of), key: Box::new(key.clone()) };
    if lib.parsers.contains(&callee) && args.len() == 1 {
        return Some(Expr::Message(args.to_vec()));
    }
    if lib.getters.contains(&callee)
        && let [text, key @ Expr::Str(_)] = args
    {
        return Some(member(Expr::Message(vec![text.clone()]), key));
    }
    // Only these methods are the library's; the operand is lowered for them alone.
    if last != lib.method_getter && last != lib.exists && !lib.accessors.contains(&last) {
        return None;
    }
    let operand = operand?;
    let receiver = expr(ctx, operand, facts);
    if last == lib.method_getter
        && let [key @ Expr::Str(_)] = args
    {
        return Some(member(receiver, key));
    }
    // `.String()` and the like on a member read: the member itself.
    let read = |e: &Expr| matches!(e, Expr::Lookup { .. } | Expr::Field { .. } | Expr::Message(_));
    if lib.accessors.contains(&last) && args.is_empty() && read(&receiver) {
        return Some(receiver);
    }
    if last == lib.exists && args.is_empty() && read(&receiver) {
        return Some(Expr::Not(Box::new(Expr::IsNull(Box::new(receiver)))));
    }
    None
}

/// `json.Unmarshal(data, &req)`: `req` holds the decoded message and the error is nil.
fn decode_into(args: Vec<Expr>, target: Option<&str>, span: crate::model::Span) -> Expr {
    let mut block = Vec::new();
    match target.and_then(|t| t.strip_prefix('&')) {
        Some(name) if name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') => {
            block.push(Stmt::Assign { target: name.to_string(), value: Expr::Message(args), span })
        }
        _ => block.push(Stmt::Expr(Expr::opaque(args))),
    }
    block.push(Stmt::Yield(Expr::Null));
    Expr::Block(block)
}

/// Standard-library package names used as call qualifiers.
fn is_package(name: &str) -> bool {
    matches!(
        name,
        "json" | "fmt" | "strings" | "os" | "bufio" | "io" | "http" | "log" | "errors" | "bytes" | "slices"
    )
}

/// The character a rune literal names: `'['`, `'\n'`.
fn rune(text: &str) -> Option<char> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    match (chars.next()?, chars.next(), chars.next()) {
        (c, None, _) => Some(c),
        ('\\', Some(e), None) => match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '0' => Some('\0'),
            '\\' | '\'' | '"' => Some(e),
            _ => None,
        },
        _ => None,
    }
}

/// An HTTP answer a printf-style format spells (see [`super::raw_http`]): `format` is
/// the format's value, `values` what it puts in.
fn raw_answer(
    format: Option<&Expr>,
    values: &[Expr],
    span: crate::model::Span,
    facts: &mut FileFacts,
) -> Option<Expr> {
    let Some(Expr::Str(format)) = format else { return None };
    if !super::raw_http::opens_response(format) {
        return None;
    }
    let answer = super::raw_http::response(super::printf_pieces(format, values.to_vec())?, span)?;
    facts.writes_http = true;
    Some(answer)
}

/// Whether a `fmt.Fprint*` call writes to the process's standard output (its writer
/// is `os.Stdout`).
fn to_stdout(ctx: &Ctx, arg_nodes: &[Node]) -> bool {
    arg_nodes.first().is_some_and(|w| ctx.text(*w) == "os.Stdout")
}
