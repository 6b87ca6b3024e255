//! Joins: paths that have done the same things so far (the same effects, the
//! same status, the same decisions on the message) but hold different values in
//! their variables lead to the same outcomes from here on as far as the checks
//! can tell. They are joined into one path whose variables hold what either
//! held, instead of being followed separately until a limit drops some of them.

use super::{State, Status};
use crate::value::{Value, join};
use std::collections::BTreeMap;

/// Paths are joined once a block holds more than this many.
pub(super) const JOIN_AT: usize = 8;

/// Whether two paths may be joined: everything but their variables agrees.
fn same_course(a: &State, b: &State) -> bool {
    a.status == b.status
        && a.yielded.is_some() == b.yielded.is_some()
        && a.effects == b.effects
        && a.id_check == b.id_check
        && a.method_branch == b.method_branch
        && a.prefix_check == b.prefix_check
        && a.saw_message == b.saw_message
        && a.route == b.route
        && a.version_checked == b.version_checked
}

/// Like [`same_course`], but paths that have ended are joined only when they ended
/// the same way; running paths may differ in the decisions that led to them.
fn same_outcome(a: &State, b: &State) -> bool {
    a.effects == b.effects
        && a.saw_message == b.saw_message
        && a.version_checked == b.version_checked
        && a.yielded.is_some() == b.yielded.is_some()
        && match (&a.status, &b.status) {
            (Status::Running, Status::Running) | (Status::LeftLoop, Status::LeftLoop) => true,
            (Status::Returned(_), Status::Returned(_)) | (Status::Raised(_), Status::Raised(_)) => {
                a.route == b.route
            }
            _ => false,
        }
}

/// Joins paths that agree on all but their variables.
pub(super) fn join_paths(states: Vec<State>) -> Vec<State> {
    join_by(states, same_course)
}

/// The stronger join for when joining by course is not enough: running paths with
/// the same effects are one, whichever way they were routed.
pub(super) fn join_outcomes(states: Vec<State>) -> Vec<State> {
    join_by(states, same_outcome)
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

fn join_by(states: Vec<State>, same: fn(&State, &State) -> bool) -> Vec<State> {
    let mut groups: Vec<Vec<State>> = Vec::new();
    for s in states {
        match groups.iter_mut().find(|g| same(&g[0], &s)) {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    groups.into_iter().map(merge).collect()
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
    fn paths_that_differ_only_in_values_are_one() {
        let joined = join_paths(vec![path(1, false), path(2, false), path(3, true)]);
        assert_eq!(joined.len(), 2, "two courses: with and without the effect");
        let plain = joined.iter().find(|s| s.effects.is_empty()).expect("the path without effects");
        assert!(matches!(plain.env["x"], Value::Unknown(_)), "1 or 2 is not known");
        let other = joined.iter().find(|s| !s.effects.is_empty()).expect("the path with the effect");
        assert_eq!(other.env["x"], Value::Int(3), "a path alone keeps its values");
    }
}
