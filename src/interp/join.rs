//! Joins: paths that have done the same things so far (the same effects, the
//! same status, the same decisions on the message) but hold different values in
//! their variables lead to the same outcomes from here on as far as the checks
//! can tell. They are joined into one path whose variables hold what either
//! held, instead of being followed separately until a limit drops some of them.

use super::{Outcome, State, Status};
use crate::model::Span;
use crate::value::{Effect, Value, join};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Paths are joined once a block holds more than this many.
pub(super) const JOIN_AT: usize = 8;

/// What a path did and decided on the message, as joins compare paths and outcomes:
/// its effects, its last id, method and prefix tests, whether it looked at the
/// message, its route, and its first blind method branch.
type Decisions<'a> =
    (&'a [Effect], Option<Span>, Option<Span>, Option<Span>, bool, &'a [(Span, bool)], Option<Span>);

trait Decided {
    fn decisions(&self) -> Decisions<'_>;
}

/// Paths and outcomes carry the same decisions under the same names.
macro_rules! decided {
    ($($t:ty),*) => {$(
        impl Decided for $t {
            fn decisions(&self) -> Decisions<'_> {
                (
                    &self.effects,
                    self.id_check,
                    self.method_branch,
                    self.prefix_check,
                    self.saw_message,
                    &self.route,
                    self.blind,
                )
            }
        }
    )*};
}

decided!(State, Outcome);

/// Whether two paths may be joined: everything but their variables agrees, and no
/// variable holds different HTTP responses on the two (an answer chosen on each
/// path, SSE or JSON: joined, what goes out is unknown). A response on one and
/// none on the other (`err = validate(); if err: return err`) still join.
fn same_course(a: &State, b: &State) -> bool {
    a.status == b.status
        && a.yielded.is_some() == b.yielded.is_some()
        && a.version_checked == b.version_checked
        && a.heard == b.heard
        && a.decisions() == b.decisions()
        && !answers_apart(a, b)
}

fn answers_apart(a: &State, b: &State) -> bool {
    let answer = |v: &Value| match v {
        Value::Variant(_, Some(inner)) => inner.as_http().is_some(),
        other => other.as_http().is_some(),
    };
    a.env.iter().any(|(name, v)| answer(v) && b.env.get(name).is_some_and(|w| answer(w) && w != v))
}

/// Like [`same_course`], but paths that have ended are joined only when they ended
/// the same way; running paths may differ in the decisions that led to them.
fn same_outcome(a: &State, b: &State) -> bool {
    a.effects == b.effects
        && a.saw_message == b.saw_message
        && a.heard == b.heard
        && a.blind == b.blind
        && a.version_checked == b.version_checked
        && a.yielded.is_some() == b.yielded.is_some()
        && match (&a.status, &b.status) {
            (Status::Running, Status::Running)
            | (Status::LeftLoop, Status::LeftLoop)
            | (Status::NextRound, Status::NextRound) => true,
            (Status::Returned(_), Status::Returned(_))
            | (Status::Raised(_), Status::Raised(_))
            | (Status::Exited, Status::Exited) => a.route == b.route,
            _ => false,
        }
}

/// Joins paths that agree on all but their variables; `compared` counts the
/// comparisons of two paths made.
pub(super) fn join_paths(states: Vec<State>, compared: &mut usize) -> Vec<State> {
    join_by(states, same_course, compared)
}

/// The stronger join for when joining by course is not enough: running paths with
/// the same effects are one, whichever way they were routed.
pub(super) fn join_outcomes(states: Vec<State>, compared: &mut usize) -> Vec<State> {
    join_by(states, same_outcome, compared)
}

/// Joins the paths of a list of values being evaluated: the values join like variables.
pub(super) fn join_valued(pairs: Vec<(State, Vec<Value>)>) -> Vec<(State, Vec<Value>)> {
    let mut groups: Vec<Vec<(State, Vec<Value>)>> = Vec::new();
    for p in pairs {
        match groups.iter_mut().find(|g| same_course(&g[0].0, &p.0) && g[0].1.len() == p.1.len()) {
            Some(g) => g.push(p),
            None => groups.push(vec![p]),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let width = g[0].1.len();
            let values = (0..width)
                .map(|i| {
                    let column: Vec<Value> = g.iter().map(|(_, v)| v[i].clone()).collect();
                    if column.iter().all(|v| *v == column[0]) { column[0].clone() } else { join(&column) }
                })
                .collect();
            let state = merge(g.into_iter().map(|(s, _)| s).collect());
            (state, values)
        })
        .collect()
}

fn join_by(states: Vec<State>, same: fn(&State, &State) -> bool, compared: &mut usize) -> Vec<State> {
    // Paths are compared only with the groups whose first path has the same effects
    // (hashed once per path): comparing every path with every group walked the
    // effects' values again and again on servers with many paths.
    let mut groups: Vec<(u64, Vec<State>)> = Vec::new();
    for s in states {
        let key = effects_key(&s.effects);
        match groups.iter_mut().find(|(k, g)| {
            *compared += 1;
            *k == key && same(&g[0], &s)
        }) {
            Some((_, g)) => g.push(s),
            None => groups.push((key, vec![s])),
        }
    }
    groups.into_iter().map(|(_, g)| merge(g)).collect()
}

/// A hash of a path's effects: paths that may join have equal effects.
fn effects_key(effects: &[Effect]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    effects.hash(&mut h);
    h.finish()
}

/// One path from several that agree on their course: variables that differ hold
/// the join of their values; the decisions noted are the first path's.
fn merge(mut group: Vec<State>) -> State {
    if group.len() == 1 {
        return group.pop().expect("one path");
    }
    let mut env: BTreeMap<String, Value> = BTreeMap::new();
    let mut names: Vec<&String> = group.iter().flat_map(|s| s.env.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let values: Vec<&Value> = group.iter().filter_map(|s| s.env.get(name)).collect();
        let first = values[0];
        let joined = if values.len() == group.len() && values.iter().all(|v| *v == first) {
            first.clone()
        } else if values.len() == group.len()
            && let Some(object) = join_members(&values)
        {
            object
        } else if values.len() == group.len() && values.iter().all(|v| matches!(v, Value::Instance(..))) {
            // Instances of the code's classes (a transport chosen on each path): one of
            // them, each kept, so that a method called on it runs its own class's.
            let mut kept: Vec<Value> = Vec::new();
            for v in values {
                if !kept.contains(v) && kept.len() < crate::value::MAX_PARTS {
                    kept.push(v.clone());
                }
            }
            Value::Unknown(Rc::new(kept))
        } else {
            let owned: Vec<Value> = values.into_iter().cloned().collect();
            join(&owned)
        };
        env.insert(name.clone(), joined);
    }
    let joined = |values: Vec<&Value>| {
        let first = values[0];
        if values.iter().all(|v| *v == first) {
            first.clone()
        } else if let Some(object) = join_members(&values) {
            object
        } else {
            join(&values.into_iter().cloned().collect::<Vec<_>>())
        }
    };
    let yielded: Vec<&Value> = group.iter().filter_map(|s| s.yielded.as_ref()).collect();
    let yielded = (!yielded.is_empty()).then(|| joined(yielded));
    let status = match &group[0].status {
        Status::Returned(_) => Status::Returned(joined(group.iter().filter_map(|s| s.returned()).collect())),
        Status::Raised(_) => Status::Raised(joined(group.iter().filter_map(|s| s.raised()).collect())),
        other => other.clone(),
    };
    let mut first = group.swap_remove(0);
    first.env = env;
    first.yielded = yielded;
    first.status = status;
    first
}

/// Objects built on several paths (`{ status: 200, json: reply }` with two replies,
/// a router's `{ response: error }` beside `{ response: result, sessionId }`), as one
/// object whose members that differ hold what either held: what is common stays
/// known. A member some of them lack holds what the others hold, or may be missing;
/// but HTTP answers with other members (`{ status: 202 }` beside `{ status: 200,
/// json }`) are not joined member-wise, which would part each status from its body.
fn join_members(values: &[&Value]) -> Option<Value> {
    let objects: Vec<&Vec<(String, Value)>> = values
        .iter()
        .map(|v| match v {
            Value::Object(entries) => Some(entries.as_ref()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let first = objects.first()?;
    let same_names = |o: &Vec<(String, Value)>| o.iter().map(|(k, _)| k).eq(first.iter().map(|(k, _)| k));
    if objects.iter().any(|o| !same_names(o)) && objects.iter().any(|o| crate::value::describes_answer(o)) {
        return None;
    }
    let mut keys: Vec<&String> = Vec::new();
    for (k, _) in objects.iter().flat_map(|o| o.iter()) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let members = keys
        .into_iter()
        .map(|key| {
            let member: Vec<Value> = objects
                .iter()
                .map(|o| o.iter().find(|(k, _)| k == key).map_or_else(Value::unknown, |(_, v)| v.clone()))
                .collect();
            let value =
                if member.iter().all(|m| *m == member[0]) { member[0].clone() } else { join(&member) };
            (key.clone(), value)
        })
        .collect();
    Some(Value::Object(Rc::new(members)))
}

/// A predicate whose answer rests on something the scan cannot decide (`return
/// len(raw) > 0 && raw[0] == '{'` over bytes it cannot read) returns `true` on some
/// paths and `false` or unknown on others that did the same things: to its caller the
/// answer is unknown, not two known answers to choose from. Outcomes that differ only
/// in such plain values (booleans, numbers, strings, nothing, or a tuple of them, as
/// Go's `(id, ok, valid)`) are one outcome whose differing values are unknown.
pub(super) fn join_verdicts(outcomes: Vec<Outcome>) -> Vec<Outcome> {
    if outcomes.len() < 2 || outcomes.iter().filter(|o| plain(&o.value)).count() < 2 {
        return outcomes;
    }
    let same_course = |a: &Outcome, b: &Outcome| {
        a.raised == b.raised && a.exited == b.exited && a.this == b.this && a.decisions() == b.decisions()
    };
    let mut out: Vec<Outcome> = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        let joined = out.iter_mut().find_map(|k| {
            (plain(&k.value) && plain(&o.value) && same_course(k, &o))
                .then(|| join_plain(&k.value, &o.value).map(|v| (k, v)))
                .flatten()
        });
        match joined {
            Some((kept, value)) => kept.value = value,
            None => out.push(o),
        }
    }
    out
}

/// A value made only of booleans, numbers, strings, nothing and unknowns that carry
/// nothing, or a tuple of those: what a predicate or a validator returns.
fn plain(v: &Value) -> bool {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::Str(_) | Value::Null => true,
        Value::Unknown(parts) => parts.is_empty(),
        Value::Array(items) => {
            items.len() <= 8 && items.iter().all(|i| !matches!(i, Value::Array(_)) && plain(i))
        }
        _ => false,
    }
}

/// Two plain values as one: equal members stay, differing answers (booleans,
/// nothing, unknown) are unknown, a tuple member by member. Differing numbers or
/// strings are not joined: they are different results (400 and 500 are both
/// error statuses, which an unknown would not say).
fn join_plain(a: &Value, b: &Value) -> Option<Value> {
    let answer = |v: &Value| {
        matches!(v, Value::Bool(_) | Value::Null) || matches!(v, Value::Unknown(p) if p.is_empty())
    };
    match (a, b) {
        _ if a == b => Some(a.clone()),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let members: Option<Vec<Value>> = x.iter().zip(y.iter()).map(|(p, q)| join_plain(p, q)).collect();
            members.map(|m| Value::Array(Rc::new(m)))
        }
        _ if answer(a) && answer(b) => Some(Value::unknown()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Span;

    fn path(var: i64, emitted: bool) -> State {
        let mut s = State::new(BTreeMap::from([("x".to_string(), Value::Int(var))]));
        if emitted {
            s.effects.push(crate::value::Effect::SetInitialized(Span::default()));
        }
        s
    }

    #[test]
    fn objects_with_the_same_members_keep_what_they_share() {
        let answer = |version: &str| {
            Value::Object(Rc::new(vec![
                ("status".to_string(), Value::Int(200)),
                ("json".to_string(), Value::Str(version.to_string())),
            ]))
        };
        let state = |v: Value| State::new(BTreeMap::from([("out".to_string(), v)]));
        let joined = merge(vec![state(answer("2025-06-18")), state(answer("2025-03-26"))]);
        let Value::Object(members) = &joined.env["out"] else { panic!("an object: {:?}", joined.env["out"]) };
        assert_eq!(members[0], ("status".to_string(), Value::Int(200)), "the shared status stays known");
        assert!(matches!(members[1].1, Value::Unknown(_)), "the differing member is either value");
        let other = Value::Object(Rc::new(vec![("status".to_string(), Value::Int(202))]));
        let joined = merge(vec![state(answer("2025-06-18")), state(other)]);
        assert!(
            matches!(joined.env["out"], Value::Unknown(_)),
            "objects with other members are not joined member-wise"
        );
    }

    /// A router's results (`{ response: error }` beside `{ response: result,
    /// sessionId }`) join member by member: the caller still reads `response`, and a
    /// member one of them lacks is either what the other holds or missing.
    #[test]
    fn results_with_other_members_join_member_wise() {
        let reply = |n: i64| Value::Object(Rc::new(vec![("code".to_string(), Value::Int(n))]));
        let refused = Value::Object(Rc::new(vec![("response".to_string(), reply(-32600))]));
        let opened = Value::Object(Rc::new(vec![
            ("response".to_string(), reply(0)),
            ("sessionId".to_string(), Value::Str("s1".into())),
        ]));
        let state = |v: Value| State::new(BTreeMap::from([("out".to_string(), v)]));
        let joined = merge(vec![state(refused), state(opened)]);
        let Value::Object(members) = &joined.env["out"] else { panic!("an object: {:?}", joined.env["out"]) };
        let names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["response", "sessionId"]);
        let Value::Unknown(parts) = &members[0].1 else { panic!("either response: {:?}", members[0].1) };
        assert_eq!(parts.len(), 2, "both responses are kept");
        assert!(matches!(members[1].1, Value::Unknown(_)), "the session id may be missing");
    }

    #[test]
    fn paths_that_differ_only_in_values_are_one() {
        let joined = join_paths(vec![path(1, false), path(2, false), path(3, true)], &mut 0);
        assert_eq!(joined.len(), 2, "two courses: with and without the effect");
        let plain = joined.iter().find(|s| s.effects.is_empty()).expect("the path without effects");
        assert!(matches!(plain.env["x"], Value::Unknown(_)), "1 or 2 is not known");
        let other = joined.iter().find(|s| !s.effects.is_empty()).expect("the path with the effect");
        assert_eq!(other.env["x"], Value::Int(3), "a path alone keeps its values");
    }
}
