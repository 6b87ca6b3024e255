//! Generic JSON-RPC libraries that own the dispatch (jsonrpsee, rpc-router,
//! json-rpc-2.0, jsonrpcserver), written out as code of the scanned file: what the
//! library does with one request, by the handlers the code registered on it. Each
//! language's `frameworks.rs` says which calls are a library's; this module builds
//! what they do, so the checks read it as any other dispatch.

use crate::model::{Arm, Expr, FieldName, Function, Pattern, ReplyExpr, Span, Stmt};

/// How a library's dispatch of one request answers (see [`dispatch`]).
#[derive(Clone, Copy)]
pub enum Answer {
    /// rpc-router's `router.call(request)`: `Ok` of a response whose `value` is the
    /// handler's `Ok` value; `Err` when the table has no handler for the method, or
    /// the handler's `Err`.
    Result,
    /// json-rpc-2.0's `server.receive(request)`: the JSON-RPC response object, with
    /// the handler's value as its result or method-not-found; `null` for a
    /// notification.
    Response,
    /// jsonrpcserver's `dispatch(text)`: the response (the handler's `Success`
    /// value as the result, its `Error` as the error, or method-not-found), empty
    /// text for a notification. The params go to the handler as its own arguments,
    /// by name, which the request does not give here: they are unknown.
    Text,
    /// A started server's answer to a request (jsonrpsee, see [`server`]): the
    /// handler's `Ok` as the result, its `Err` as the error, or method-not-found.
    Reply,
}

const REQUEST: &str = "<rpc request>";
const HANDLER: &str = "<rpc handler>";
const OUTCOME: &str = "<rpc outcome>";
const VALUE: &str = "<rpc value>";
const ERROR: &str = "<rpc error>";

fn var(name: &str) -> Box<Expr> {
    Box::new(Expr::Var(name.to_string()))
}

fn field(name: FieldName) -> Expr {
    Expr::Field { object: Some(var(REQUEST)), name }
}

/// What a JSON-RPC library's dispatch of one request gives, as code: the handler
/// registered in `table` for the request's method is looked up (a table the code's
/// registrations fill) and called with the request (and `extra` arguments the
/// library passes beside it), its value answered as `answer` says.
pub fn dispatch(table: &str, request: Expr, extra: usize, answer: Answer, span: Span) -> Expr {
    let variant = |name: &str, inner: Expr| Expr::Variant { name: name.into(), inner: Some(Box::new(inner)) };
    let reply = |kind: ReplyExpr| Expr::Reply { kind, id: Some(Box::new(field(FieldName::Id))), span };
    let not_found = || {
        reply(ReplyExpr::Error(Box::new(Expr::Object {
            entries: vec![
                ("code".into(), Expr::Int(-32601)),
                ("message".into(), Expr::Str("Method not found".into())),
            ],
            span,
        })))
    };
    // The handler's outcome taken apart: its `Ok`/`Success` value, its `Err`/`Error`,
    // or a plain value.
    let by_outcome = |ok: Expr, err: Expr, plain: Expr| {
        let arm = |pattern: Pattern, value: Expr| Arm {
            patterns: vec![pattern],
            guard: None,
            body: vec![Stmt::Yield(value)],
            span,
        };
        Expr::Match {
            subject: var(OUTCOME),
            arms: vec![
                arm(Pattern::Variant { name: "Ok".into(), binding: Some(VALUE.into()) }, ok),
                arm(Pattern::Variant { name: "Err".into(), binding: Some(ERROR.into()) }, err),
                arm(Pattern::Any(Some(VALUE.into())), plain),
            ],
            span,
        }
    };
    let replied = || {
        by_outcome(
            reply(ReplyExpr::Result(var(VALUE))),
            reply(ReplyExpr::Error(var(ERROR))),
            reply(ReplyExpr::Result(var(VALUE))),
        )
    };
    let mut args = match answer {
        Answer::Text => Vec::new(),
        _ => vec![Expr::Var(REQUEST.to_string())],
    };
    args.extend((0..extra).map(|_| Expr::unknown()));
    let call = Stmt::Assign {
        target: OUTCOME.into(),
        value: Expr::Call { callee: "()".into(), receiver: Some(var(HANDLER)), args, span },
        span,
    };
    // What a request without a handler gets, what one with a handler gets, and what
    // a notification gets when the library answers it by itself.
    let (missing, found, silence) = match answer {
        Answer::Result => {
            let response = || {
                variant(
                    "Ok",
                    Expr::Object {
                        entries: vec![
                            ("id".into(), field(FieldName::Id)),
                            ("value".into(), Expr::Var(VALUE.into())),
                        ],
                        span,
                    },
                )
            };
            let found = by_outcome(response(), variant("Err", Expr::Var(ERROR.into())), response());
            (variant("Err", Expr::Str("method unknown".into())), found, None)
        }
        Answer::Response => (not_found(), reply(ReplyExpr::Result(var(OUTCOME))), Some(Expr::Null)),
        Answer::Text => (not_found(), replied(), Some(Expr::Str(String::new()))),
        Answer::Reply => (not_found(), replied(), None),
    };
    let dispatch = Expr::If {
        cond: Box::new(Expr::IsNull(var(HANDLER))),
        then: vec![Stmt::Yield(missing)],
        otherwise: vec![call, Stmt::Yield(found)],
        span,
    };
    let answer = match silence {
        Some(silence) => Expr::If {
            cond: Box::new(Expr::IsNull(Box::new(field(FieldName::Id)))),
            then: vec![Stmt::Yield(silence)],
            otherwise: vec![Stmt::Yield(dispatch)],
            span,
        },
        None => dispatch,
    };
    Expr::Block(vec![
        Stmt::Assign { target: REQUEST.into(), value: request, span },
        Stmt::Assign {
            target: HANDLER.into(),
            value: Expr::Lookup { collection: var(table), key: Box::new(field(FieldName::Method)) },
            span,
        },
        Stmt::Yield(answer),
    ])
}

/// What a library's started HTTP server does with one message, as a function of
/// the file (an HTTP route): a notification runs no handler and gets the library's
/// own answer, `notification` = (status, whether the body is the text `null`);
/// a request gets status 200 and what [`dispatch`] answers ([`Answer::Reply`]).
pub fn server(table: &str, extra: usize, notification: (u16, bool), name: String, span: Span) -> Function {
    const MESSAGE: &str = "<message>";
    let (status, null_body) = notification;
    let body = vec![
        Stmt::Assign { target: MESSAGE.into(), value: Expr::Message(Vec::new()), span },
        Stmt::Expr(Expr::If {
            cond: Box::new(Expr::IsNull(Box::new(Expr::Field {
                object: Some(var(MESSAGE)),
                name: FieldName::Id,
            }))),
            then: vec![Stmt::Return {
                value: Some(Expr::Http {
                    status: Some(status),
                    body: null_body.then(|| Box::new(Expr::Null)),
                    span,
                }),
                span,
            }],
            otherwise: Vec::new(),
            span,
        }),
        Stmt::Return {
            value: Some(Expr::Http {
                status: Some(200),
                body: Some(Box::new(dispatch(table, Expr::Var(MESSAGE.into()), extra, Answer::Reply, span))),
                span,
            }),
            span,
        },
    ];
    let mut server = Function::written(name, None, Vec::new(), body, span);
    server.http_route = true;
    server
}
