//! Rust macros: tree-sitter leaves a macro's arguments as a token tree, so the
//! macros that matter are read here from their tokens: `json!` objects, the
//! values printed by `println!`/`writeln!`, the branches of `tokio::select!`, and
//! calls inside other macros.

use super::{PRINT_MACROS, children};
use crate::lower::int_literal;
use crate::lower::{Ctx, message_field, object, unquote};
use crate::model::{Arm, Block, Expr, FileFacts, Pattern, Span, Stmt};
use crate::parse::Fields;
use tree_sitter::Node;

pub(super) fn macro_invocation(ctx: &mut Ctx, node: Node, facts: &mut FileFacts) -> Expr {
    let span = ctx.span(node);
    let name = node.field("macro").map(|m| ctx.text(m)).unwrap_or("");
    let name = crate::lower::last_segment(name).to_string();
    let tree = children(node).into_iter().find(|c| c.kind() == "token_tree");
    match name.as_str() {
        // `json!({..})`, `json!(null)`, and any expression written as its tokens
        // (`json!(match result { Ok(v) => .., Err(e) => .. })`, `json!(reply.id)`).
        "json" => match tree.map(split_commas).unwrap_or_default().as_slice() {
            [tokens] if !tokens.is_empty() => token_value(ctx, tokens, facts),
            _ => Expr::unknown(),
        },
        "vec" => {
            let items = tree.map(|t| token_items(ctx, t, facts)).unwrap_or_default();
            // `vec![]`: as `Vec::new()`, a list or a byte buffer, empty until filled.
            if items.is_empty() { crate::lower::capture(span) } else { Expr::Array { items, span } }
        }
        "panic" | "unreachable" | "todo" | "unimplemented" => {
            Expr::Block(vec![Stmt::Raise { value: Expr::unknown(), span }])
        }
        "bail" => Expr::Block(vec![Stmt::Return {
            value: Some(Expr::Variant { name: "Err".into(), inner: None }),
            span,
        }]),
        n if PRINT_MACROS.contains(&n) => {
            let text = tree.map(|t| ctx.text(t)).unwrap_or("");
            if text.contains("stderr") {
                return Expr::unknown();
            }
            // `println!("{{\"jsonrpc\":\"2.0\",\"id\":{}}}", id)`: the JSON it writes.
            if let Some(template) = tree.and_then(|t| format_template(ctx, t, facts)) {
                return Expr::Call {
                    callee: written_by(n).into(),
                    receiver: None,
                    args: vec![template],
                    span,
                };
            }
            // `writeln!(out, "{}", respond(&msg))`, `println!("{}", json!({...}))`: each
            // argument is the expression it is, calls and nested macros included.
            let args = tree.map(|t| macro_args(ctx, t, facts)).unwrap_or_default();
            Expr::Call { callee: written_by(n).into(), receiver: None, args, span }
        }
        "format" => match tree.and_then(|t| format_template(ctx, t, facts)) {
            Some(template) => template,
            None => Expr::opaque(tree.map(|t| macro_args(ctx, t, facts)).unwrap_or_default()),
        },
        "anyhow" => Expr::opaque(tree.map(|t| macro_args(ctx, t, facts)).unwrap_or_default()),
        "matches" if let Some(test) = tree.and_then(|t| matches_macro(ctx, t, facts, span)) => test,
        "select" | "select_biased"
            if let Some(chosen) = tree.and_then(|t| select_macro(ctx, t, facts, span)) =>
        {
            chosen
        }
        // Other macros (`tokio::join!`) can wrap the calls that matter.
        _ => Expr::opaque(tree.map(|t| token_calls(ctx, t)).unwrap_or_default()),
    }
}

/// `tokio::select! { biased; Some(msg) = rx.recv() => { .. }, line = read() => .., else => .. }`
/// (and `futures::select!`): one branch runs, which one the run decides (the future
/// that is ready first); each is a path. A branch binds its pattern to the value of
/// its future, as `if let` does, then runs its handler. `None` when the tokens are
/// not branches of that shape: the macro is then read as any other.
fn select_macro(ctx: &mut Ctx, tree: Node, facts: &mut FileFacts, span: Span) -> Option<Expr> {
    let mut cursor = tree.walk();
    let all: Vec<Node> = tree
        .children(&mut cursor)
        .filter(|t| !matches!(t.kind(), "line_comment" | "block_comment"))
        .collect();
    let mut tokens = all.get(1..all.len().saturating_sub(1))?;
    let src = ctx.src;
    let text = |t: &Node| std::str::from_utf8(&src[t.byte_range()]).unwrap_or("").to_string();
    if let [first, semi, rest @ ..] = tokens
        && text(first) == "biased"
        && text(semi) == ";"
    {
        tokens = rest;
    }
    let mut branches: Vec<Block> = Vec::new();
    while !tokens.is_empty() {
        let arrow = tokens.iter().position(|t| text(t) == "=>")?;
        let (head, rest) = (&tokens[..arrow], &tokens[arrow + 1..]);
        // The handler: a block (a comma after it is optional), or an expression up to
        // the next comma.
        let (handler, rest) = match rest {
            [block, rest @ ..] if block.kind() == "token_tree" && text(block).starts_with('{') => {
                let rest = match rest {
                    [comma, rest @ ..] if text(comma) == "," => rest,
                    _ => rest,
                };
                (std::slice::from_ref(block), rest)
            }
            _ => match rest.iter().position(|t| text(t) == ",") {
                Some(comma) => (&rest[..comma], &rest[comma + 1..]),
                None => (rest, &[][..]),
            },
        };
        tokens = rest;
        let mut body = match parsed_tokens(ctx, handler, facts)? {
            Expr::Block(b) => b,
            e => vec![Stmt::Yield(e)],
        };
        // `else => ..` (tokio), `complete => ..` and `default => ..` (futures): no future.
        if let [word] = head
            && matches!(text(word).as_str(), "else" | "complete" | "default")
        {
            branches.push(body);
            continue;
        }
        let eq = head.iter().position(|t| text(t) == "=")?;
        let (pattern, future) = (&head[..eq], &head[eq + 1..]);
        // `, if ready` after the future: a precondition the run decides.
        let future = &future[..future.iter().position(|t| text(t) == ",").unwrap_or(future.len())];
        let value = parsed_tokens(ctx, future, facts).unwrap_or_else(Expr::unknown);
        let names: Vec<String> = pattern.iter().map(&text).collect();
        let branch = match names.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["_"] => {
                body.insert(0, Stmt::Expr(value));
                body
            }
            [name] | ["mut", name] if name.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                body.insert(0, Stmt::Assign { target: name.to_string(), value, span });
                body
            }
            // `Some(msg)`, `Ok(n)`, `Message::Text(text)`: the branch is disabled when
            // the value does not match.
            [path @ .., inner] if inner.starts_with('(') && !path.is_empty() => {
                let binding = inner.trim_matches(['(', ')']).trim().trim_start_matches("mut ").to_string();
                let name = crate::lower::last_segment(&path.concat()).to_string();
                let pattern = match binding.as_str() {
                    "_" | "" => Pattern::Variant { name, binding: None },
                    b if b.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                        Pattern::Variant { name, binding: Some(b.to_string()) }
                    }
                    _ => Pattern::Unknown,
                };
                vec![Stmt::Yield(super::two_arm_match(value, pattern, body, Vec::new(), span))]
            }
            // A pattern not read here: the handler runs with what it binds unknown.
            _ => {
                body.insert(0, Stmt::Expr(value));
                body
            }
        };
        branches.push(branch);
    }
    // The chosen branch's value is the macro's (`let n = select! { .. }`).
    crate::lower::one_of(branches, span, Stmt::Yield).map(Expr::Block)
}

/// Identifiers named in a macro's token tree, as variables (for value flow),
/// including the inline arguments of a format string (`"{reply}"`).
fn token_vars(ctx: &Ctx, tree: Node) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        for c in children(n) {
            match c.kind() {
                "identifier" => out.push(Expr::Var(ctx.text(c).to_string())),
                "string_literal" | "raw_string_literal" => {
                    out.extend(inline_format_args(ctx.text(c)).map(Expr::Var))
                }
                "token_tree" => stack.push(c),
                _ => {}
            }
        }
    }
    out
}

/// The arguments of a formatting macro (`println!`, `writeln!`, `format!`): the
/// format string stands for the names written inside it (`"{reply}"`), every other
/// argument is parsed as the expression it is; one that does not parse stands for
/// the names it holds.
fn macro_args(ctx: &mut Ctx, tree: Node, facts: &mut FileFacts) -> Vec<Expr> {
    let mut out = Vec::new();
    for seg in split_commas(tree).into_iter().filter(|s| !s.is_empty()) {
        match seg.as_slice() {
            [one] if matches!(one.kind(), "string_literal" | "raw_string_literal") => {
                out.extend(inline_format_args(ctx.text(*one)).map(Expr::Var));
            }
            [one] => out.push(token_value(ctx, &[*one], facts)),
            _ => match parsed_tokens(ctx, &seg, facts) {
                Some(e) => out.push(e),
                None => out.extend(seg.iter().flat_map(|t| token_vars_of(ctx, *t))),
            },
        }
    }
    out
}

/// `matches!(version, "2025-06-18" | "2025-03-26" | LATEST)`: a `match` of the value
/// whose arm of the listed literals and named constants is `true`, else `false`.
/// `None` for any other pattern (bindings, variants, ranges, guards): such a test
/// stays a macro the scan cannot read.
fn matches_macro(ctx: &mut Ctx, tree: Node, facts: &mut FileFacts, span: Span) -> Option<Expr> {
    let segments: Vec<Vec<Node>> = split_commas(tree).into_iter().filter(|s| !s.is_empty()).collect();
    let [subject, listed] = segments.as_slice() else { return None };
    let mut patterns = Vec::new();
    for alternative in listed.split(|t| t.kind() == "|") {
        let text: String = alternative.iter().map(|t| ctx.text(*t)).collect();
        let pattern = match alternative {
            [one] if matches!(one.kind(), "string_literal" | "raw_string_literal") => {
                Pattern::Str(unquote(&text))
            }
            [one] if text == "_" && one.kind() != "string_literal" => Pattern::Any(None),
            // A named constant: an upper-case name, or a path (`Self::LATEST`).
            _ if alternative.iter().all(|t| matches!(t.kind(), "identifier" | "::"))
                && (text.contains("::") || text.starts_with(|c: char| c.is_ascii_uppercase())) =>
            {
                Pattern::Const(text)
            }
            _ => return None,
        };
        patterns.push(pattern);
    }
    let subject = token_value(ctx, subject, facts);
    let arm =
        |patterns, value| Arm { patterns, guard: None, body: vec![Stmt::Yield(Expr::Bool(value))], span };
    Some(Expr::Match {
        subject: Box::new(subject),
        arms: vec![arm(patterns, true), arm(vec![Pattern::Any(None)], false)],
        span,
    })
}

/// Identifiers of one token (a token tree's, recursively), as variables.
fn token_vars_of(ctx: &Ctx, token: Node) -> Vec<Expr> {
    match token.kind() {
        "identifier" => vec![Expr::Var(ctx.text(token).to_string())],
        "token_tree" => token_vars(ctx, token),
        _ => Vec::new(),
    }
}

/// Comma-separated values of a `[...]` or `(...)` token tree.
fn token_items(ctx: &mut Ctx, tree: Node, facts: &mut FileFacts) -> Vec<Expr> {
    split_commas(tree)
        .into_iter()
        .filter(|seg| !seg.is_empty())
        .map(|seg| token_value(ctx, &seg, facts))
        .collect()
}

/// All tokens of a token tree (named and punctuation), split at top-level commas;
/// comments are not tokens.
fn split_commas(tree: Node) -> Vec<Vec<Node>> {
    let mut segments = vec![Vec::new()];
    let mut cursor = tree.walk();
    let tokens: Vec<Node> = tree
        .children(&mut cursor)
        .filter(|t| !matches!(t.kind(), "line_comment" | "block_comment"))
        .collect();
    let inner = tokens.get(1..tokens.len().saturating_sub(1)).unwrap_or(&[]);
    for t in inner {
        if t.kind() == "," {
            segments.push(Vec::new());
        } else if let Some(last) = segments.last_mut() {
            last.push(*t);
        }
    }
    segments
}

/// The value a run of `json!` tokens denotes.
fn token_value(ctx: &mut Ctx, tokens: &[Node], facts: &mut FileFacts) -> Expr {
    if !ctx.enter() {
        return Expr::unknown();
    }
    let v = token_value_inner(ctx, tokens, facts);
    ctx.leave();
    v
}

fn token_value_inner(ctx: &mut Ctx, tokens: &[Node], facts: &mut FileFacts) -> Expr {
    let span = tokens.first().map(|t| ctx.span(*t)).unwrap_or_default();
    if let [single] = tokens {
        let t = ctx.text(*single);
        match single.kind() {
            "token_tree" if t.starts_with('{') => {
                let mut entries = Vec::new();
                for seg in split_commas(*single) {
                    let Some(colon) = seg.iter().position(|n| n.kind() == ":") else {
                        continue;
                    };
                    let key = seg[..colon].iter().map(|k| unquote(ctx.text(*k))).collect::<String>();
                    let value = token_value(ctx, &seg[colon + 1..], facts);
                    entries.push((key, value));
                }
                return object(entries, span);
            }
            "token_tree" if t.starts_with('[') => {
                let items = token_items(ctx, *single, facts);
                return Expr::Array { items, span };
            }
            "string_literal" | "raw_string_literal" => return Expr::Str(unquote(t)),
            "integer_literal" => {
                return int_literal(t).map(Expr::Int).unwrap_or_else(Expr::unknown);
            }
            "boolean_literal" => return Expr::Bool(t == "true"),
            "identifier" if t == "null" => return Expr::Null,
            "identifier" => return Expr::Var(t.to_string()),
            _ => {}
        }
    }
    if let [minus, num] = tokens
        && ctx.text(*minus) == "-"
        && let Some(n) = int_literal(ctx.text(*num))
    {
        return Expr::Int(-n);
    }
    // Any other value is a Rust expression written as tokens (`msg["params"]["id"]`,
    // `req.id.clone()`, `negotiate(&v)`): parse those tokens as one, in place.
    if let Some(e) = parsed_tokens(ctx, tokens, facts) {
        return e;
    }
    // A path or method chain: `request.id`, `params.protocol_version.clone()`.
    let mut after_dot = false;
    let mut parts = Vec::new();
    for t in tokens {
        match t.kind() {
            "." => after_dot = true,
            "identifier" => {
                let name = ctx.text(*t);
                if after_dot {
                    if let Some(f) = message_field(name) {
                        return crate::lower::field(parts.pop(), f);
                    }
                } else if parts.is_empty() {
                    parts.push(Expr::Var(name.to_string()));
                }
                after_dot = false;
            }
            _ => after_dot = false,
        }
    }
    Expr::opaque(parts)
}

/// A run of macro tokens parsed in place as one Rust expression and lowered;
/// `None` when the tokens are not one expression.
fn parsed_tokens(ctx: &mut Ctx, tokens: &[Node], facts: &mut FileFacts) -> Option<Expr> {
    let (first, last) = (tokens.first()?, tokens.last()?);
    let part = tree_sitter::Range {
        start_byte: first.start_byte(),
        end_byte: last.end_byte(),
        start_point: first.start_position(),
        end_point: last.end_position(),
    };
    let tree = crate::parse::parse_part(crate::parse::Grammar::Rust, ctx.src, part)?;
    let node = whole_expression(tree.root_node(), part)?;
    Some(super::expr(ctx, node, facts))
}

/// The expression a parsed stretch of tokens is: the one node spanning all of it,
/// parsed without error (a file holds items, so a bare expression sits inside an
/// error node or a statement: both are looked through).
fn whole_expression<'t>(root: Node<'t>, part: tree_sitter::Range) -> Option<Node<'t>> {
    let mut node = root;
    loop {
        let spans = node.start_byte() == part.start_byte && node.end_byte() == part.end_byte;
        let wrapper = matches!(node.kind(), "source_file" | "ERROR" | "expression_statement");
        if spans && !wrapper {
            return (!node.has_error()).then_some(node);
        }
        if !wrapper || node.named_child_count() != 1 {
            return None;
        }
        node = node.named_child(0)?;
    }
}

/// JSON text a formatting macro builds (`format!("{{\"id\":{},\"result\":{body}}}", id)`):
/// the value it encodes with the arguments put in (see [`crate::lower::json_template`]).
fn format_template(ctx: &mut Ctx, tree: Node, facts: &mut FileFacts) -> Option<Expr> {
    let segments: Vec<Vec<Node>> = split_commas(tree).into_iter().filter(|s| !s.is_empty()).collect();
    let at = segments.iter().position(
        |s| matches!(s.as_slice(), [one] if matches!(one.kind(), "string_literal" | "raw_string_literal")),
    )?;
    let written = ctx.text(segments[at][0]);
    let text = match written.starts_with('r') {
        true => unquote(written),
        false => super::string_text(written),
    };
    // Only text that opens a JSON object or list, or an HTTP answer written by hand,
    // is worth reading.
    let http = crate::lower::raw_http::opens_response(&text);
    if !http && !text.trim_start().starts_with("{{") && !text.trim_start().starts_with('[') {
        return None;
    }
    let mut positional = segments[at + 1..].iter();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut spec = String::new();
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                    spec.push(d);
                }
                let name = spec.split(':').next().unwrap_or("").trim();
                let value = if name.is_empty() {
                    let seg = positional.next()?;
                    parsed_tokens(ctx, seg, facts).unwrap_or_else(|| token_value(ctx, seg, facts))
                } else if name.chars().all(|d| d.is_ascii_digit()) {
                    let seg = segments.get(at + 1 + name.parse::<usize>().ok()?)?;
                    parsed_tokens(ctx, seg, facts).unwrap_or_else(|| token_value(ctx, seg, facts))
                } else {
                    Expr::Var(name.to_string())
                };
                pieces.push(crate::lower::Piece::Text(std::mem::take(&mut literal)));
                pieces.push(crate::lower::Piece::Hole(value));
            }
            other => literal.push(other),
        }
    }
    pieces.push(crate::lower::Piece::Text(literal));
    if http {
        let span = ctx.span(tree);
        facts.writes_http = true;
        return crate::lower::raw_http::response(pieces, span);
    }
    crate::lower::json_template(pieces, ctx.span(tree))
}

/// `{name}` and `{name:?}` arguments written inside a format string.
fn inline_format_args(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('{').skip(1).filter_map(|part| {
        let name: String = part.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let starts_ok = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
        let closes = part[name.len()..].starts_with('}') || part[name.len()..].starts_with(':');
        (starts_ok && closes).then_some(name)
    })
}

/// Calls written inside a macro's token tree (`self.handle(req)` within `select!`),
/// with the identifiers of their argument lists as arguments.
fn token_calls(ctx: &Ctx, tree: Node) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        let tokens: Vec<Node> = n.children(&mut cursor).collect();
        for (i, t) in tokens.iter().enumerate() {
            if t.kind() == "token_tree" {
                stack.push(*t);
                let opens_call = ctx.text(*t).starts_with('(');
                if opens_call && i > 0 && tokens[i - 1].kind() == "identifier" {
                    // Walk back over `a.b::c` to the start of the callee path.
                    let mut start = i - 1;
                    while start >= 2
                        && matches!(tokens[start - 1].kind(), "." | "::")
                        && matches!(tokens[start - 2].kind(), "identifier" | "self")
                    {
                        start -= 2;
                    }
                    let callee: String = tokens[start..i].iter().map(|k| ctx.text(*k)).collect();
                    let span = ctx.span(tokens[start]);
                    let args = token_vars(ctx, *t);
                    out.push(Expr::Call { callee, receiver: None, args, span });
                }
            }
        }
    }
    out.sort_by_key(|e| match e {
        Expr::Call { span, .. } => span.start,
        _ => 0,
    });
    out
}

/// The made-up callee of a print macro's write: standard output for `print!` and
/// `println!`, the destination given for `write!` and `writeln!`.
fn written_by(mac: &str) -> &'static str {
    if matches!(mac, "print" | "println") { crate::lower::PRINT } else { crate::lower::EMIT }
}
