//! Strategy dispatch: handler objects the code is handed and picks by asking each
//! (`foreach ($handlers as $h) if ($h->supports($m))`, `messages.find(m => m.is(p))`)
//! stand for one instance of each class of the scanned code that has those methods.

use super::{Interp, State};
use crate::model::{FnId, Span};
use crate::value::Value;
use std::rc::Rc;

impl<'p, 'a> Interp<'p, 'a> {
    /// A loop over objects the scan cannot see that calls methods on each
    /// (`foreach ($this->handlers as $h) if ($h->supports($m)) return $h->handle($m);`):
    /// one instance of each class of the scanned code that has those methods.
    pub(super) fn strategies(
        &mut self,
        targets: &[String],
        body: &crate::model::Block,
    ) -> Option<Vec<Value>> {
        let [target] = targets else { return None };
        let methods = crate::model::strategy_methods(body, target);
        let instances = self.instances_of(&methods);
        (!instances.is_empty()).then_some(instances)
    }

    /// One instance (its declared defaults set) of each class that has `methods`.
    fn instances_of(&mut self, methods: &[&str]) -> Vec<Value> {
        let classes = self.prog.implementers(methods, self.here());
        classes
            .into_iter()
            .map(|c| {
                // Built by code the scan cannot see (a container): what the constructor
                // sets is unknown, declared defaults hold.
                let (fields, _) = self.declared_fields(c, &Value::unknown());
                Value::Instance(Rc::from(c.name.as_str()), Rc::new(fields), c.span)
            })
            .collect()
    }

    /// `handlers.find(h => h.accepts(msg))` over objects the scan cannot see: the first
    /// of the classes that have the methods the predicate calls for which it holds
    /// (null when none does); None when the call is no such search.
    pub(super) fn find_strategy(&mut self, s: &State, pred: FnId, span: Span) -> Option<Vec<(State, Value)>> {
        let f = self.prog.function(pred);
        let param = f.params.first()?.clone();
        let methods = crate::model::methods_on(&f.body, &param);
        let candidates = self.instances_of(&methods);
        if candidates.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        let mut pending = vec![s.clone()];
        for candidate in candidates {
            let mut still = Vec::new();
            for st in pending {
                for (s2, v) in self.apply(st, pred, vec![candidate.clone()], span) {
                    match v.truthy() {
                        Some(true) => out.push((s2, candidate.clone())),
                        Some(false) => still.push(s2),
                        None => {
                            out.push((s2.clone(), candidate.clone()));
                            still.push(s2);
                        }
                    }
                }
            }
            pending = self.limit(still);
        }
        out.extend(pending.into_iter().map(|st| (st, Value::Null)));
        Some(out)
    }
}
