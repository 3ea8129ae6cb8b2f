//! The value grammar over the [`Cursor`]: arrays, dictionaries, constructors (typed
//! collections, `Object`, `NodePath`, packed float arrays) and numbers, nesting capped at
//! [`MAX_DEPTH`].

use super::{Cursor, Mark, TscnError, is_ident_start};
use crate::model::godot::variant::{MAX_DEPTH, Value};
use std::borrow::Cow;

/// Constructors of packed float arrays, parsed straight into [`Value::Floats`].
const FLOAT_ARRAYS: &[&str] = &[
    "PackedVector2Array",
    "PackedFloat32Array",
    "PackedFloat64Array",
    "PackedVector3Array",
    "PackedVector4Array",
    "PackedColorArray",
    "PoolVector2Array",
    "PoolRealArray",
    "PoolVector3Array",
    "PoolColorArray",
];

impl<'a> Cursor<'a> {
    /// A value that must start on this line (after `key =` or `attr=`).
    pub(crate) fn value_on_line(&mut self) -> Result<Value<'a>, TscnError> {
        self.skip_inline_ws();
        match self.peek() {
            None | Some(b'\n' | b';') => Err(self.expected("a value")),
            _ => self.value(0),
        }
    }

    /// One value, any whitespace before it skipped; `depth` counts enclosing brackets.
    pub(crate) fn value(&mut self, depth: u32) -> Result<Value<'a>, TscnError> {
        self.skip_ws();
        let m = self.mark();
        let Some(c) = self.peek() else {
            return Err(self.expected("a value"));
        };
        match c {
            b'[' => {
                let outer = self.enter(depth)?;
                let items = self.array_items(depth + 1)?;
                self.open = outer;
                Ok(Value::Array(items))
            }
            b'{' => {
                let outer = self.enter(depth)?;
                let entries = self.dict_items(depth + 1)?;
                self.open = outer;
                Ok(Value::Dict(entries))
            }
            b'"' => Ok(Value::Str(self.string(m)?)),
            b'&' | b'@' | b'^' => {
                self.pos += 1;
                if self.peek() != Some(b'"') {
                    return Err(self.expected(&format!("'\"' after '{}'", c as char)));
                }
                let s = self.string(m)?;
                Ok(if c == b'^' {
                    Value::NodePath(s)
                } else {
                    Value::StringName(s)
                })
            }
            b'-' | b'0'..=b'9' => self.number(m),
            c if is_ident_start(c) => self.named(depth, m),
            _ => Err(self.expected("a value")),
        }
    }

    /// Steps into the bracket here (refusing nesting deeper than [`MAX_DEPTH`]) and makes it
    /// the one an end of file reports; returns the enclosing one, to restore after the close.
    fn enter(&mut self, depth: u32) -> Result<Option<(Mark, u8)>, TscnError> {
        let m = self.mark();
        if depth >= MAX_DEPTH {
            return Err(self.error(m, format!("nesting deeper than {MAX_DEPTH}")));
        }
        let c = self.peek().unwrap_or(b'(');
        self.pos += 1;
        Ok(self.open.replace((m, c)))
    }

    /// Skips whitespace; true (and steps over it) when `c` is next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        let here = self.peek() == Some(c);
        if here {
            self.pos += 1;
        }
        here
    }

    /// Items after `[` up to `]`; a trailing comma is allowed, as in Godot.
    fn array_items(&mut self, depth: u32) -> Result<Vec<Value<'a>>, TscnError> {
        let base = self.stack.len();
        while !self.eat(b']') {
            let item = self.value(depth)?;
            self.stack.push(item);
            if !self.eat(b',') && self.peek() != Some(b']') {
                return Err(self.expected("',' or ']'"));
            }
        }
        Ok(self.stack.drain(base..).collect())
    }

    /// Entries after `{` up to `}`; a trailing comma is allowed, as in Godot.
    fn dict_items(&mut self, depth: u32) -> Result<Vec<(Value<'a>, Value<'a>)>, TscnError> {
        let base = self.pairs.len();
        while !self.eat(b'}') {
            let key = self.value(depth)?;
            if !self.eat(b':') {
                return Err(self.expected("':'"));
            }
            let value = self.value(depth)?;
            self.pairs.push((key, value));
            if !self.eat(b',') && self.peek() != Some(b'}') {
                return Err(self.expected("',' or '}'"));
            }
        }
        Ok(self.pairs.drain(base..).collect())
    }

    /// Arguments after `(` up to `)`, comma-separated, no trailing comma.
    fn call_args(&mut self, depth: u32) -> Result<Vec<Value<'a>>, TscnError> {
        if self.eat(b')') {
            return Ok(Vec::new());
        }
        let base = self.stack.len();
        loop {
            let arg = self.value(depth)?;
            self.stack.push(arg);
            if self.eat(b')') {
                return Ok(self.stack.drain(base..).collect());
            }
            if !self.eat(b',') {
                return Err(self.expected("',' or ')'"));
            }
        }
    }

    /// A keyword, or a constructor `Name(...)`, `Array[T](...)`, `Dictionary[K, V](...)`.
    fn named(&mut self, depth: u32, m: Mark) -> Result<Value<'a>, TscnError> {
        let name = self.ident().unwrap_or_default();
        match name {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            "null" | "nil" => return Ok(Value::Null),
            "inf" => return Ok(Value::Float(f64::INFINITY)),
            "inf_neg" => return Ok(Value::Float(f64::NEG_INFINITY)),
            "nan" => return Ok(Value::Float(f64::NAN)),
            _ => {}
        }
        self.skip_inline_ws();
        let typed = matches!(name, "Array" | "Dictionary") && self.peek() == Some(b'[');
        if self.peek() != Some(b'(') && !typed {
            return Err(self.error(m, format!("unknown identifier `{name}` (expected a value)")));
        }
        let outer = self.enter(depth)?;
        let depth = depth + 1;
        let value = if typed {
            self.typed(name, depth)?
        } else if name == "Object" {
            self.object(depth)?
        } else if name == "NodePath" {
            self.skip_ws();
            let path = if self.peek() == Some(b'"') {
                self.string(self.mark())?
            } else {
                Cow::Borrowed("")
            };
            if !self.eat(b')') {
                return Err(self.expected("')'"));
            }
            Value::NodePath(path)
        } else if FLOAT_ARRAYS.contains(&name) {
            self.float_args(name, depth)?
        } else {
            Value::Call {
                name: Cow::Borrowed(name),
                args: self.call_args(depth)?,
            }
        };
        self.open = outer;
        Ok(value)
    }

    /// The arguments of a packed float array: plain numbers while they are numbers; anything
    /// else turns the whole call back into an ordinary [`Value::Call`].
    fn float_args(&mut self, name: &'a str, depth: u32) -> Result<Value<'a>, TscnError> {
        let mut nums = Vec::new();
        if self.eat(b')') {
            return Ok(Value::Floats {
                name: Cow::Borrowed(name),
                nums,
            });
        }
        loop {
            let arg = self.value(depth)?;
            let Some(x) = arg.as_f64() else {
                // Not all numbers: keep every argument as written.
                let base = self.stack.len();
                self.stack.extend(nums.into_iter().map(Value::Float));
                self.stack.push(arg);
                let rest = if self.eat(b')') {
                    Vec::new()
                } else if self.eat(b',') {
                    self.call_args(depth)?
                } else {
                    return Err(self.expected("',' or ')'"));
                };
                let mut args: Vec<Value<'a>> = self.stack.drain(base..).collect();
                args.extend(rest);
                return Ok(Value::Call {
                    name: Cow::Borrowed(name),
                    args,
                });
            };
            nums.push(x);
            if self.eat(b')') {
                return Ok(Value::Floats {
                    name: Cow::Borrowed(name),
                    nums,
                });
            }
            if !self.eat(b',') {
                return Err(self.expected("',' or ')'"));
            }
        }
    }

    /// After `Array[` or `Dictionary[`: the types, `]`, `(`, the array or dictionary, `)`.
    fn typed(&mut self, name: &str, depth: u32) -> Result<Value<'a>, TscnError> {
        let count = if name == "Array" { 1 } else { 2 };
        let mut types = Vec::with_capacity(count);
        for i in 0..count {
            if i > 0 && !self.eat(b',') {
                return Err(self.expected("','"));
            }
            self.skip_ws();
            let Some(t) = self.ident() else {
                return Err(self.expected("a type name"));
            };
            self.skip_ws();
            if matches!(t, "ExtResource" | "SubResource" | "Resource") && self.peek() == Some(b'(')
            {
                let outer = self.enter(depth)?;
                types.push(Value::Call {
                    name: Cow::Borrowed(t),
                    args: self.call_args(depth + 1)?,
                });
                self.open = outer;
            } else {
                types.push(Value::Ident(Cow::Borrowed(t)));
            }
        }
        if !self.eat(b']') {
            return Err(self.expected("']'"));
        }
        let outer = self.open;
        self.skip_ws();
        if self.peek() != Some(b'(') {
            return Err(self.expected("'('"));
        }
        self.enter(depth)?;
        let (want, what) = if count == 1 {
            (b'[', "'['")
        } else {
            (b'{', "'{'")
        };
        self.skip_ws();
        if self.peek() != Some(want) {
            return Err(self.expected(what));
        }
        let value = self.value(depth + 1)?;
        if !self.eat(b')') {
            return Err(self.expected("')'"));
        }
        self.open = outer;
        Ok(Value::Typed {
            types,
            value: Box::new(value),
        })
    }

    /// After `Object(`: the class, then `, "prop": value` pairs, then `)`.
    fn object(&mut self, depth: u32) -> Result<Value<'a>, TscnError> {
        self.skip_ws();
        let Some(class) = self.ident() else {
            return Err(self.expected("a class name"));
        };
        let mut props = Vec::new();
        while !self.eat(b')') {
            if !self.eat(b',') {
                return Err(self.expected("',' or ')'"));
            }
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.expected("a property name as a string"));
            }
            let key = self.string(self.mark())?;
            if !self.eat(b':') {
                return Err(self.expected("':'"));
            }
            props.push((key, self.value(depth)?));
        }
        Ok(Value::Object {
            class: Cow::Borrowed(class),
            props,
        })
    }

    /// A number: `-?digits(.digits?)?([eE][+-]?digits)?`, or `-inf`.
    fn number(&mut self, m: Mark) -> Result<Value<'a>, TscnError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
            if self.peek().is_some_and(is_ident_start) {
                return match self.ident() {
                    Some("inf") => Ok(Value::Float(f64::NEG_INFINITY)),
                    _ => Err(self.error(m, "expected a number after '-'")),
                };
            }
        }
        let digits = |cur: &mut Self| {
            let from = cur.pos;
            while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                cur.pos += 1;
            }
            cur.pos > from
        };
        if !digits(self) {
            return Err(self.expected("a digit"));
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            float = true;
            self.pos += 1;
            digits(self);
        }
        if let Some(b'e' | b'E') = self.peek() {
            float = true;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.expected("exponent digits"));
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        if float {
            text.parse()
                .map(Value::Float)
                .map_err(|_| self.error(m, format!("bad number `{text}`")))
        } else {
            text.parse()
                .map(Value::Int)
                .map_err(|_| self.error(m, format!("integer `{text}` out of range")))
        }
    }
}
