//! Godot's variant text syntax, the values of `.tscn` / `.tres` files in Godot 3 and 4: the
//! [`Value`] tree and its parser over a byte cursor. Values borrow from the text (names always,
//! strings unless they hold escapes; [`Value::into_owned`] detaches them). Nesting is capped at
//! [`MAX_DEPTH`]; nothing here panics on any input.

use std::borrow::Cow;

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
