//! Text the code works on: a known string with part of it replaced
//! (`method.replace("/", "_")`, `preg_replace('/\s+/', '', $m)`, `re.sub(..)`), or
//! split into parts (`method.split("/")`, `explode('/', $method)`).

use super::{Interp, Value};

impl Interp<'_, '_> {
    /// A known string with part of it replaced: the methods `replace`/`replaceAll` on
    /// a string, and each language's replacing functions (`STRING_REPLACES`) that the
    /// scanned code does not define. A name stays the message's method name. None
    /// when anything is unknown or the pattern is not one the scan reads the same way.
    pub(super) fn replaced(&mut self, callee: &str, recv: Option<&Value>, vals: &[Value]) -> Option<Value> {
        use crate::model::Language;
        let language = self.prog.file_of(self.here()).language;
        // The text, the pattern, the replacement; whether every match is replaced and
        // whether the pattern is a regular expression.
        let (text, pattern, with, all, regex) = match recv {
            Some(text @ (Value::Method(_) | Value::Str(_))) => {
                let [pattern, with] = vals else { return None };
                // JavaScript's `replace` with a string replaces the first match only.
                let all = match crate::lower::last_segment(callee) {
                    "replace" => !matches!(language, Language::JavaScript | Language::TypeScript),
                    "replaceAll" | "replace_all" => true,
                    _ => return None,
                };
                (text, pattern, with, all, false)
            }
            // `re.sub(..)`: a module's function.
            _ => {
                let form = crate::lower::string_replace(callee)?;
                if self.resolve_callee(callee).is_some() {
                    return None;
                }
                (vals.get(form.text)?, vals.get(form.pattern)?, vals.get(form.with)?, form.all, form.regex)
            }
        };
        let (Value::Str(pattern), Value::Str(with)) = (pattern, with) else { return None };
        let source = match text {
            Value::Method(m) => m.as_str(),
            Value::Str(t) => t.as_str(),
            _ => return None,
        };
        let regex = match (crate::lower::regex_literal_parts(pattern), regex) {
            (Some((flags, body)), _) => Some((flags.to_string(), body.to_string(), flags.contains('g'))),
            (None, true) if language == Language::Php => {
                // `'/\s+/i'`: the pattern between delimiters, then its flags.
                let delimiter = pattern.chars().next().filter(|c| !c.is_alphanumeric() && *c != '\\')?;
                let close = match delimiter {
                    '(' => ')',
                    '{' => '}',
                    '[' => ']',
                    '<' => '>',
                    c => c,
                };
                let (body, flags) = pattern[delimiter.len_utf8()..].rsplit_once(close)?;
                Some((flags.to_string(), body.to_string(), true))
            }
            (None, true) => Some((String::new(), pattern.clone(), true)),
            (None, false) => None,
        };
        let result = match regex {
            None if all => source.replace(pattern.as_str(), with),
            None => source.replacen(pattern.as_str(), with, 1),
            Some((flags, body, every)) => {
                // A replacement naming groups is written differently in each language.
                if with.contains(['$', '\\']) {
                    return None;
                }
                let mut prefix = String::new();
                for f in flags.chars() {
                    match f {
                        'i' | 'm' | 's' | 'x' => prefix.push(f),
                        'g' | 'u' => {}
                        _ => return None,
                    }
                }
                let body = if prefix.is_empty() { body } else { format!("(?{prefix}){body}") };
                let re = regex::Regex::new(&body).ok()?;
                let with = regex::NoExpand(with.as_str());
                if every || all { re.replace_all(source, with) } else { re.replace(source, with) }
                    .into_owned()
            }
        };
        Some(match text {
            Value::Method(m) => {
                self.renamed_method |= *m != result;
                Value::Method(result)
            }
            _ => Value::Str(result),
        })
    }

    /// A known string split at a known separator into a list of its parts: the method
    /// `split` on a string (JavaScript, TypeScript, Python), and each language's
    /// splitting functions (`strings.Split`, `strings.SplitN`, `explode`) that the
    /// scanned code does not define. The parts of the message's method name stay parts
    /// of it (a test of `parts[0]` decides on the method). None when anything is
    /// unknown: a pattern, a limit the scan cannot read, Python's split on whitespace.
    pub(super) fn split(&mut self, callee: &str, recv: Option<&Value>, vals: &[Value]) -> Option<Value> {
        use crate::model::Language;
        let language = self.prog.file_of(self.here()).language;
        let name = crate::lower::last_segment(callee);
        // The text, the separator, a limit argument if any.
        let (text, sep, limit) = match recv {
            Some(text @ (Value::Method(_) | Value::Str(_)))
                if name == "split"
                    && matches!(language, Language::JavaScript | Language::TypeScript | Language::Python) =>
            {
                match vals {
                    [sep] => (text, sep, None),
                    [sep, limit] => (text, sep, Some(limit)),
                    _ => return None,
                }
            }
            None => {
                let form = crate::lower::string_split(callee)?;
                if self.resolve_callee(callee).is_some() {
                    return None;
                }
                (vals.get(form.text)?, vals.get(form.sep)?, form.limit.map(|at| vals.get(at)).unwrap_or(None))
            }
            _ => return None,
        };
        let Value::Str(sep) = sep else { return None };
        if sep.is_empty() || crate::lower::regex_literal_parts(sep).is_some() {
            return None;
        }
        let source = match text {
            Value::Method(m) => m.as_str(),
            Value::Str(t) => t.as_str(),
            // PHP reads a null string argument as the empty string (`explode('/', null)`
            // on a missing key is `[""]`).
            Value::Null if language == Language::Php => "",
            _ => return None,
        };
        let limit = match limit {
            None => None,
            Some(Value::Int(n)) => Some(*n),
            Some(_) => return None,
        };
        let parts: Vec<&str> = match (limit, language) {
            (None, _) => source.split(sep.as_str()).collect(),
            // JavaScript keeps the first `limit` parts of a full split.
            (Some(n), Language::JavaScript | Language::TypeScript) => {
                source.split(sep.as_str()).take(usize::try_from(n).ok()?).collect()
            }
            // Python's `maxsplit` splits at most that many times.
            (Some(n), Language::Python) if n >= 0 => {
                source.splitn(usize::try_from(n).ok()? + 1, sep.as_str()).collect()
            }
            (Some(n), Language::Python) if n < 0 => source.split(sep.as_str()).collect(),
            // `strings.SplitN(s, sep, n)` and `explode($sep, $s, $n)` with n > 0: at most
            // n parts; anything else (0, negative) the scan leaves alone.
            (Some(n), _) if n > 0 => source.splitn(usize::try_from(n).ok()?, sep.as_str()).collect(),
            _ => return None,
        };
        let method = matches!(text, Value::Method(_));
        if method {
            self.renamed_method |= parts.len() > 1;
        }
        let items = parts
            .into_iter()
            .map(|p| if method { Value::Method(p.to_string()) } else { Value::Str(p.to_string()) })
            .collect();
        Some(Value::Array(std::rc::Rc::new(items)))
    }
}
