//! Godot's variant text syntax, the values of `.tscn` / `.tres` files in Godot 3 and 4: the
//! [`Value`] tree and its parser over a byte cursor. Values borrow from the text (names always,
//! strings unless they hold escapes; [`Value::into_owned`] detaches them). Nesting is capped at
//! [`MAX_DEPTH`]; nothing here panics on any input.

use super::tscn::TscnError;
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

/// The deepest nesting of arrays, dictionaries and constructors accepted.
pub const MAX_DEPTH: u32 = 64;

/// One Godot value as written in a text scene.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// `null` (or Godot 3's `nil`).
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number written without `.` or exponent.
    Int(i64),
    /// A number with `.` or exponent, or `inf`, `-inf`, `inf_neg`, `nan`.
    Float(f64),
    /// `"text"`, escapes resolved.
    Str(Cow<'a, str>),
    /// `&"name"` (Godot 4) or `@"name"` (Godot 3).
    StringName(Cow<'a, str>),
    /// `NodePath("a/b:c")` or `^"a/b:c"`.
    NodePath(Cow<'a, str>),
    /// `[a, b, ...]`.
    Array(Vec<Value<'a>>),
    /// `{ key: value, ... }` in file order.
    Dict(Vec<(Value<'a>, Value<'a>)>),
    /// Any other constructor `Name(args...)`: `Vector2(1, 2)`, `ExtResource("1_a")`, `Resource("res://x")`.
    Call {
        /// The constructor's name, as written (`Vector2`, `PoolRealArray`, ...).
        name: Cow<'a, str>,
        /// Its arguments in order.
        args: Vec<Value<'a>>,
    },
    /// A packed array of floats (`PackedVector2Array(...)`, `PackedFloat32Array(...)`,
    /// Godot 3's `PoolVector2Array(...)`, …) whose arguments are all numbers: stored as plain
    /// `f64`s, 8 bytes each instead of a whole value (polygons and animation keys are long).
    Floats {
        /// The constructor's name.
        name: Cow<'a, str>,
        /// The numbers in order.
        nums: Vec<f64>,
    },
    /// `Array[T]([...])` (one type, `value` an [`Value::Array`]) or `Dictionary[K, V]({...})`
    /// (two types, `value` a [`Value::Dict`]).
    Typed {
        /// The element types: [`Value::Ident`] or a resource call such as `ExtResource("2_a")`.
        types: Vec<Value<'a>>,
        /// The [`Value::Array`] or [`Value::Dict`] itself.
        value: Box<Value<'a>>,
    },
    /// `Object(Class, "prop": value, ...)`.
    Object {
        /// The class name.
        class: Cow<'a, str>,
        /// The properties in order.
        props: Vec<(Cow<'a, str>, Value<'a>)>,
    },
    /// A bare type name; occurs only in [`Value::Typed`]'s `types`.
    Ident(Cow<'a, str>),
}

/// Which table a resource reference points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// `ExtResource(...)`: an `[ext_resource]` section.
    Ext,
    /// `SubResource(...)`: a `[sub_resource]` section.
    Sub,
}

/// A constructor name or property key as `'static` text: the common ones without allocating
/// (a big scene has hundreds of thousands of `Vector2`s and `position`s), the rest copied.
pub fn intern(s: Cow<'_, str>) -> Cow<'static, str> {
    const COMMON: &[&str] = &[
        "Vector2",
        "Vector2i",
        "Rect2",
        "Rect2i",
        "Color",
        "Transform2D",
        "ExtResource",
        "SubResource",
        "NodePath",
        "PackedVector2Array",
        "PackedFloat32Array",
        "PackedInt32Array",
        "PackedStringArray",
        "PackedColorArray",
        "PoolVector2Array",
        "PoolRealArray",
        "PoolIntArray",
        "PoolStringArray",
        "PoolColorArray",
        "position",
        "rotation",
        "scale",
        "skew",
        "transform",
        "color",
        "polygon",
        "texture",
        "offset",
        "centered",
        "modulate",
        "self_modulate",
        "z_index",
        "visible",
        "script",
        "shape",
        "hframes",
        "vframes",
        "frame",
        "region_enabled",
        "region_rect",
        "layout_mode",
        "offset_left",
        "offset_top",
        "offset_right",
        "offset_bottom",
    ];
    match COMMON.iter().find(|c| **c == s) {
        Some(c) => Cow::Borrowed(c),
        None => Cow::Owned(s.into_owned()),
    }
}

impl<'a> Value<'a> {
    /// The same value owning all its text, free of the parsed text's lifetime.
    pub fn into_owned(self) -> Value<'static> {
        fn own(s: Cow<'_, str>) -> Cow<'static, str> {
            intern(s)
        }
        fn all(v: Vec<Value<'_>>) -> Vec<Value<'static>> {
            v.into_iter().map(Value::into_owned).collect()
        }
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::Float(f) => Value::Float(f),
            Value::Str(s) => Value::Str(own(s)),
            Value::StringName(s) => Value::StringName(own(s)),
            Value::NodePath(s) => Value::NodePath(own(s)),
            Value::Ident(s) => Value::Ident(own(s)),
            Value::Array(items) => Value::Array(all(items)),
            Value::Dict(entries) => Value::Dict(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            ),
            Value::Call { name, args } => Value::Call {
                name: own(name),
                args: all(args),
            },
            Value::Floats { name, nums } => Value::Floats {
                name: own(name),
                nums,
            },
            Value::Typed { types, value } => Value::Typed {
                types: all(types),
                value: Box::new(value.into_owned()),
            },
            Value::Object { class, props } => Value::Object {
                class: own(class),
                props: props
                    .into_iter()
                    .map(|(k, v)| (own(k), v.into_owned()))
                    .collect(),
            },
        }
    }

    /// The number, for `Int` and `Float`.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The integer, for `Int` only.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The boolean, for `Bool` only.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The text of a `Str`, `StringName` or `NodePath`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) | Value::StringName(s) | Value::NodePath(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of an `Array` or of a typed `Array[T]([...])`.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            Value::Typed { value, .. } => value.as_array(),
            _ => None,
        }
    }

    /// The entries of a `Dict` or of a typed `Dictionary[K, V]({...})`.
    pub fn as_dict(&self) -> Option<&[(Value<'a>, Value<'a>)]> {
        match self {
            Value::Dict(entries) => Some(entries),
            Value::Typed { value, .. } => value.as_dict(),
            _ => None,
        }
    }

    /// The value under a string key of a dictionary (`"times"` in `{ "times": ... }`).
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.as_dict()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// The arguments of a constructor call named `name`.
    pub fn call_args(&self, name: &str) -> Option<&[Value<'a>]> {
        match self {
            Value::Call { name: n, args } if n == name => Some(args),
            _ => None,
        }
    }

    /// The arguments of a call named `name` as numbers, when every one is numeric.
    pub fn numbers(&self, name: &str) -> Option<Vec<f64>> {
        match self {
            Value::Floats { name: n, nums } if n == name => Some(nums.clone()),
            _ => self.call_args(name)?.iter().map(Value::as_f64).collect(),
        }
    }

    /// The id of `ExtResource(id)` / `SubResource(id)`; an int id (Godot 3) as its decimal text.
    pub fn resource_ref(&self) -> Option<(ResourceKind, String)> {
        let Value::Call { name, args } = self else {
            return None;
        };
        let kind = match &**name {
            "ExtResource" => ResourceKind::Ext,
            "SubResource" => ResourceKind::Sub,
            _ => return None,
        };
        match args.as_slice() {
            [Value::Str(id)] => Some((kind, id.to_string())),
            [Value::Int(id)] => Some((kind, id.to_string())),
            _ => None,
        }
    }
}

/// A saved position: byte offset, 1-based line, and the byte offset where that line starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    /// The 1-based line.
    pub(crate) line: u32,
    line_start: usize,
}

/// A position in the text with line tracking; every method stops cleanly at the end.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// The innermost open bracket and where it is: what an end of file inside a value reports.
    open: Option<(Mark, u8)>,
    /// The items of the arrays and calls being parsed, moved into exactly sized vectors when
    /// they close: growing each vector instead leaves a `Vector2`'s two values in room for four,
    /// and the extra memory made a 100k-node scene parse markedly slower.
    stack: Vec<Value<'a>>,
    /// The same for dictionary entries.
    pairs: Vec<(Value<'a>, Value<'a>)>,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, past a UTF-8 byte-order mark if there is one.
    pub(crate) fn new(text: &'a str) -> Self {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Cursor {
            text,
            b: text.as_bytes(),
            pos,
            line: 1,
            line_start: pos,
            open: None,
            stack: Vec::new(),
            pairs: Vec::new(),
        }
    }

    /// The current position.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
        }
    }

    /// The 1-based column, in characters, of a mark.
    pub(crate) fn col(&self, m: Mark) -> u32 {
        let chars = match self.text.get(m.line_start..m.pos) {
            Some(s) => s.chars().count(),
            None => m.pos.saturating_sub(m.line_start),
        };
        u32::try_from(chars).unwrap_or(u32::MAX - 1) + 1
    }

    /// An error at a mark.
    pub(crate) fn error(&self, m: Mark, message: impl Into<String>) -> TscnError {
        TscnError {
            line: m.line,
            col: self.col(m),
            message: message.into(),
        }
    }

    /// An error at the current position, saying what was expected and what is here.
    pub(crate) fn expected(&self, what: &str) -> TscnError {
        if let (None, Some((m, c))) = (self.peek(), self.open) {
            return self.error(m, format!("'{}' is never closed", c as char));
        }
        self.error(
            self.mark(),
            format!("expected {what}, found {}", self.describe()),
        )
    }

    /// What is at the current position, for error messages.
    pub(crate) fn describe(&self) -> String {
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            None => "end of file".into(),
            Some('\n') | Some('\r') => "end of line".into(),
            Some(c) => format!("{c:?}"),
        }
    }

    /// The byte here.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Steps over one byte (callers only step over ASCII other than `\n`).
    pub(crate) fn bump(&mut self) {
        self.pos += 1;
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skips spaces, tabs and carriage returns, staying on the line.
    pub(crate) fn skip_inline_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Skips a `;` comment up to (not over) the end of the line.
    fn skip_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'\n' {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips whitespace, newlines and `;` comments.
    pub(crate) fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => self.newline(),
                Some(b';') => self.skip_comment(),
                _ => return,
            }
        }
    }

    /// After a value or header: only blanks and a `;` comment may follow on the line.
    pub(crate) fn end_of_line(&mut self) -> Result<(), TscnError> {
        self.skip_inline_ws();
        match self.peek() {
            None | Some(b'\n') => Ok(()),
            Some(b';') => {
                self.skip_comment();
                Ok(())
            }
            Some(_) => Err(self.expected("end of line")),
        }
    }

    /// Consumes `c` (ASCII) or fails saying what is here instead.
    pub(crate) fn expect(&mut self, c: u8) -> Result<(), TscnError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.expected(&format!("'{}'", c as char)))
        }
    }

    /// An identifier `[A-Za-z_][A-Za-z0-9_]*` here, or None (nothing consumed).
    pub(crate) fn ident(&mut self) -> Option<&'a str> {
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        while self.peek().is_some_and(is_ident) {
            self.pos += 1;
        }
        self.text.get(start..self.pos)
    }

    /// A property key: a quoted string, or every byte up to blank or `=`.
    pub(crate) fn key(&mut self) -> Result<Cow<'a, str>, TscnError> {
        let m = self.mark();
        if self.peek() == Some(b'"') {
            return self.string(m);
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c > b' ' && c != b'=') {
            self.pos += 1;
        }
        match self.text.get(start..self.pos) {
            Some(k) if !k.is_empty() => Ok(Cow::Borrowed(k)),
            _ => Err(self.expected("a property key")),
        }
    }

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

    /// A string starting at the `"` here; `open` (the `"` or a prefix like `&`) is where an
    /// unterminated string is reported. Strings may span lines.
    pub(crate) fn string(&mut self, open: Mark) -> Result<Cow<'a, str>, TscnError> {
        self.pos += 1;
        let from = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.error(open, "unterminated string")),
                Some(b'"') => {
                    let s = self.text.get(from..self.pos).unwrap_or_default();
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(b'\n') => self.newline(),
                Some(_) => self.pos += 1,
            }
        }
        // Escapes: build the string piece by piece from here.
        let mut out = String::with_capacity(self.pos - from + 16);
        out.push_str(self.text.get(from..self.pos).unwrap_or_default());
        let mut chunk = self.pos;
        let mut high: Option<u32> = None;
        loop {
            match self.peek() {
                None => return Err(self.error(open, "unterminated string")),
                Some(b'"') => {
                    if high.is_some() {
                        return Err(self.expected("a low surrogate escape"));
                    }
                    out.push_str(self.text.get(chunk..self.pos).unwrap_or_default());
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    out.push_str(self.text.get(chunk..self.pos).unwrap_or_default());
                    let esc = self.mark();
                    self.pos += 1;
                    let Some(c) = self.text.get(self.pos..).and_then(|s| s.chars().next()) else {
                        return Err(self.error(open, "unterminated string"));
                    };
                    let code = match c {
                        'b' => 8,
                        't' => 9,
                        'n' => 10,
                        'f' => 12,
                        'r' => 13,
                        'u' | 'U' => {
                            self.pos += 1;
                            self.hex_escape(if c == 'u' { 4 } else { 6 }, open, esc)?
                        }
                        // Godot keeps any other escaped character as itself (\" \\ \' ...).
                        other => u32::from(other),
                    };
                    if c == '\n' {
                        self.newline();
                    } else if c != 'u' && c != 'U' {
                        self.pos += c.len_utf8();
                    }
                    chunk = self.pos;
                    if (code & 0xFFFF_FC00) == 0xD800 {
                        if high.replace(code).is_some() {
                            return Err(self.error(esc, "unpaired UTF-16 lead surrogate"));
                        }
                        continue;
                    }
                    let code = if (code & 0xFFFF_FC00) == 0xDC00 {
                        let Some(h) = high.take() else {
                            return Err(self.error(esc, "unpaired UTF-16 trail surrogate"));
                        };
                        ((h - 0xD800) << 10) + (code - 0xDC00) + 0x10000
                    } else if high.is_some() {
                        return Err(self.error(esc, "unpaired UTF-16 lead surrogate"));
                    } else {
                        code
                    };
                    match char::from_u32(code) {
                        Some(ch) => out.push(ch),
                        None => return Err(self.error(esc, "invalid unicode escape")),
                    }
                }
                Some(_) if high.is_some() => return Err(self.expected("a low surrogate escape")),
                Some(b'\n') => self.newline(),
                Some(_) => self.pos += 1,
            }
        }
    }

    /// `n` hex digits after `\u` / `\U`.
    fn hex_escape(&mut self, n: usize, open: Mark, esc: Mark) -> Result<u32, TscnError> {
        let mut code = 0u32;
        for _ in 0..n {
            let Some(c) = self.peek() else {
                return Err(self.error(open, "unterminated string"));
            };
            let Some(d) = (c as char).to_digit(16) else {
                return Err(self.error(esc, "malformed hex escape in string"));
            };
            code = (code << 4) | d;
            self.pos += 1;
        }
        Ok(code)
    }
}
