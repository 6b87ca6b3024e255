//! Calls on an object a field of the running method's class holds
//! (`$this->system->ping()`, `self.connection.send(r)`), when the path does not
//! hold the object itself: the field's class is the one it is declared with or
//! built as (`Program::field_class`), and the object is that class's instance as
//! its constructor builds it.

use super::{Interp, State};
use crate::model::{Expr, FnId, Span};
use crate::value::{Effect, Value, join};
use std::collections::BTreeMap;
use std::rc::Rc;

impl<'p, 'a> Interp<'p, 'a> {
    /// The method a call on `self.<field>` runs, and the field's class: only for a
    /// field the path does not hold as an instance.
    pub(super) fn field_method(
        &self,
        receiver: Option<&Expr>,
        held_value: Option<&Value>,
        callee: &str,
    ) -> Option<(FnId, &'a str)> {
        let Some(Expr::Var(held)) = receiver else { return None };
        let field = held.strip_prefix("self.").or_else(|| held.strip_prefix("this."))?;
        if field.contains(['.', '[']) || matches!(held_value, Some(Value::Instance(..))) {
            return None;
        }
        let owner = self.prog.function(self.here()).owner.as_deref()?;
        let class = self.prog.field_class(owner, field, self.here())?;
        let id = self.prog.method(class, crate::lower::last_segment(callee), self.here())?;
        Some((id, class))
    }

    /// An instance of `class` built by its constructor from arguments the scan does not
    /// know, so that what the constructor sets (a handler table) is there; built once
    /// per probe.
    pub(super) fn field_instance(&mut self, class: &str, span: Span) -> Value {
        if let Some(v) = self.field_instances.get(class) {
            return v.clone();
        }
        // Bare while it is built (a constructor that reaches itself).
        let bare = Value::Instance(class.into(), Rc::new(Vec::new()), span);
        self.field_instances.insert(class.to_string(), bare.clone());
        let built = match self.prog.class(class, self.here()) {
            Some(def) => self.construct(State::new(BTreeMap::new()), def, Vec::new(), &[], span),
            None => Vec::new(),
        };
        let v = match built.as_slice() {
            [(_, v @ Value::Instance(..))] => v.clone(),
            _ => bare,
        };
        self.field_instances.insert(class.to_string(), v.clone());
        v
    }

    /// Runs the field object's method. A helper's method that answers nothing of
    /// interest on any path (`self._stats.record(x)`: no reply, nothing written out)
    /// is one path, as a call the scan does not follow: the helper's own branches
    /// (and its exceptions) are not the server's.
    pub(super) fn call_on_field(
        &mut self,
        s: State,
        id: FnId,
        bound: Vec<Value>,
        span: Span,
    ) -> Vec<(State, Value)> {
        let before = s.clone();
        let results = self.apply(s, id, bound, span);
        // Paths the message decided in the callee (a decode that a notification fails,
        // a test of its id) are kept apart: joined, the caller could not tell them.
        let quiet = results.iter().all(|(st, v)| {
            st.saw_message == before.saw_message
                && !v.interesting()
                && st.effects[before.effects.len().min(st.effects.len())..].iter().all(|e| match e {
                    Effect::Wrote { value, .. } => !value.interesting(),
                    // A helper's own flag (`self._started = True` in an accumulator).
                    Effect::SetInitialized(_) => true,
                    // What it read the message as decides later matches: keep the paths.
                    Effect::ReadAs(_)
                    | Effect::CommandLine(_)
                    | Effect::Emit { .. }
                    | Effect::Printed { .. }
                    | Effect::LentStatus { .. } => false,
                })
        });
        if results.len() > 1 && quiet {
            let values: Vec<Value> = results.into_iter().map(|(_, v)| v).collect();
            return vec![(before, join(&values))];
        }
        results
    }
}
