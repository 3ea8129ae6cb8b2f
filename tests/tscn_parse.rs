//! The Godot text scene parser: every syntax it accepts (Godot 3 and 4, format=4 headers), a
//! realistic scene, errors with exact line:col, nesting limits, never panicking (proptest), the
//! real scenes under /work/shared/godot-real when present, and a large generated scene.

use graft::model::godot::tscn::{
    self, ResourceKind, Section, Tscn, TscnError, Value, looks_binary, parse,
};
use proptest::prelude::*;

fn ok(text: &str) -> Tscn<'_> {
    match parse(text) {
        Ok(t) => t,
        Err(e) => panic!("parse failed: {e}\n--- input ---\n{text}"),
    }
}

fn err(text: &str) -> TscnError {
    match parse(text) {
        Ok(t) => panic!("expected an error, parsed {t:?}"),
        Err(e) => e,
    }
}

/// The value of `v = <text>` in a dummy section.
fn val(text: &str) -> Value<'static> {
    let text = format!("[s]\nv = {text}\n");
    let t = ok(&text);
    t.sections[0].props[0].value.clone().into_owned()
}

fn s(x: &str) -> Value<'static> {
    Value::Str(x.to_string().into())
}

fn call(name: &str, args: Vec<Value<'static>>) -> Value<'static> {
    Value::Call {
        name: name.to_string().into(),
        args,
    }
}

fn f(x: f64) -> Value<'static> {
    Value::Float(x)
}

fn i(x: i64) -> Value<'static> {
    Value::Int(x)
}

// ---------------------------------------------------------------- headers

#[test]
fn godot4_scene_header_and_ext_resource() {
    let t = ok("[gd_scene load_steps=3 format=3 uid=\"uid://b2k8x\"]\n\n\
                [ext_resource type=\"Texture2D\" uid=\"uid://c1\" path=\"res://icon.svg\" id=\"1_abc\"]\n");
    assert_eq!(t.sections.len(), 2);
    let h = &t.sections[0];
    assert_eq!((h.kind, h.line), ("gd_scene", 1));
    assert_eq!(
        h.attrs,
        vec![
            ("load_steps", i(3)),
            ("format", i(3)),
            ("uid", s("uid://b2k8x"))
        ]
    );
    let e = &t.sections[1];
    assert_eq!((e.kind, e.line), ("ext_resource", 3));
    assert_eq!(e.attr_str("id"), Some("1_abc"));
    assert_eq!(e.attr_str("path"), Some("res://icon.svg"));
    assert_eq!(e.attr("missing"), None);
    assert_eq!(t.sections_of("ext_resource").count(), 1);
}

#[test]
fn godot3_header_int_ids_and_spaced_calls() {
    let t = ok("[gd_scene load_steps=18 format=2]\n\
                [ext_resource path=\"res://player.tscn\" type=\"PackedScene\" id=4]\n\
                [sub_resource type=\"RectangleShape2D\" id=1]\n\
                extents = Vector2( 8, 7.5 )\n\
                [node name=\"Player\" parent=\".\" instance=ExtResource( 4 )]\n\
                shape = SubResource( 1 )\n\
                [connection signal=\"hit\" from=\"Player\" to=\".\" method=\"_on_hit\" binds=[ 1, \"a\" ] flags=3]\n");
    assert_eq!(t.sections[1].attr("id"), Some(&i(4)));
    assert_eq!(
        t.sections[2].prop("extents"),
        Some(&call("Vector2", vec![i(8), f(7.5)]))
    );
    let node = &t.sections[3];
    assert_eq!(
        node.attr("instance").and_then(Value::resource_ref),
        Some((ResourceKind::Ext, "4".into()))
    );
    assert_eq!(
        node.prop("shape").and_then(Value::resource_ref),
        Some((ResourceKind::Sub, "1".into()))
    );
    let conn = &t.sections[4];
    assert_eq!(conn.attr("binds"), Some(&Value::Array(vec![i(1), s("a")])));
    assert_eq!(conn.attr("flags"), Some(&i(3)));
}

#[test]
fn format4_header_unique_id_parent_id_path_groups() {
    let t = ok("[gd_scene format=4 uid=\"uid://x\"]\n\
                [node name=\"Body\" parent=\"Sprite2D/Pivot\" parent_id_path=PackedInt32Array(988224128, 1280663663) index=\"1\" unique_id=1862246720]\n\
                [node name=\"Light\" type=\"PointLight2D\" parent=\".\" unique_id=7 groups=[\"point_light\", \"b\"] node_paths=PackedStringArray(\"light\")]\n\
                [editable path=\"Sprite2D\"]\n");
    let n = &t.sections[1];
    assert_eq!(
        n.attr("parent_id_path")
            .and_then(|v| v.numbers("PackedInt32Array")),
        Some(vec![988224128.0, 1280663663.0])
    );
    assert_eq!(
        n.attr("unique_id").and_then(Value::as_i64),
        Some(1862246720)
    );
    assert_eq!(n.attr_str("index"), Some("1"));
    let l = &t.sections[2];
    assert_eq!(
        l.attr("groups"),
        Some(&Value::Array(vec![s("point_light"), s("b")]))
    );
    assert_eq!(
        l.attr("node_paths"),
        Some(&call("PackedStringArray", vec![s("light")]))
    );
    assert_eq!(
        (t.sections[3].kind, t.sections[3].attr_str("path")),
        ("editable", Some("Sprite2D"))
    );
}

#[test]
fn any_section_kind_is_kept_and_empty_headers_work() {
    let t = ok("[gd_resource type=\"Animation\" format=3]\n[resource]\nlength = 2.0\n[whatever]\n");
    let kinds: Vec<&str> = t.sections.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, ["gd_resource", "resource", "whatever"]);
    assert_eq!(t.sections[1].prop("length"), Some(&f(2.0)));
    assert!(t.sections[2].attrs.is_empty());
}

// ---------------------------------------------------------------- properties

#[test]
fn property_keys_lines_and_columns() {
    let t = ok(
        "[node name=\"a\"]\nscript/source = 1\nmetadata/_edit_lock_ = true\ntracks/0/keys = 2\n0/name = \"t\"\n\
                theme_override_colors/font_color = 3\nshader_parameter/x = 4\n\"quoted key\" = 5\n  indented = 6\n",
    );
    let props = &t.sections[0].props;
    let keys: Vec<&str> = props.iter().map(|p| p.key.as_ref()).collect();
    assert_eq!(
        keys,
        [
            "script/source",
            "metadata/_edit_lock_",
            "tracks/0/keys",
            "0/name",
            "theme_override_colors/font_color",
            "shader_parameter/x",
            "quoted key",
            "indented"
        ]
    );
    assert_eq!((props[0].line, props[0].col), (2, 1));
    assert_eq!((props[7].line, props[7].col), (9, 3));
    assert_eq!(t.sections[0].prop("0/name"), Some(&s("t")));
}

#[test]
fn spacing_comments_crlf_bom_and_repeated_keys() {
    let t = ok(
        "\u{feff}; a comment\r\n[node name=\"a\"]  ; trailing\r\n\r\nx=1\r\nx  =  2 ; again\r\n\tv = Vector2(1,\r\n  2)\r\n",
    );
    let n = &t.sections[0];
    assert_eq!(n.props.len(), 3);
    assert_eq!(n.prop("x"), Some(&i(2)));
    assert_eq!(n.prop("v"), Some(&call("Vector2", vec![i(1), i(2)])));
    assert_eq!(n.props[2].line, 6);
    assert_eq!(ok("").sections.len(), 0);
    assert_eq!(ok("\n\n  \n").sections.len(), 0);
}

// ---------------------------------------------------------------- scalars

#[test]
fn scalars() {
    assert_eq!(val("null"), Value::Null);
    assert_eq!(val("nil"), Value::Null);
    assert_eq!(val("true"), Value::Bool(true));
    assert_eq!(val("false").as_bool(), Some(false));
    assert_eq!(val("0"), i(0));
    assert_eq!(val("-42"), i(-42));
    assert_eq!(val("9223372036854775807"), i(i64::MAX));
    assert_eq!(val("-9223372036854775808"), i(i64::MIN));
    assert_eq!(val("1.5"), f(1.5));
    assert_eq!(val("1e-05"), f(1e-5));
    assert_eq!(val("7e-06"), f(7e-6));
    assert_eq!(val("8e80"), f(8e80));
    assert_eq!(val("1.0e+20"), f(1e20));
    assert_eq!(val("2.5E3"), f(2500.0));
    assert_eq!(val("3."), f(3.0));
    let neg_zero = val("-0.0").as_f64().unwrap_or(1.0);
    assert!(neg_zero == 0.0 && neg_zero.is_sign_negative());
    assert_eq!(val("inf"), f(f64::INFINITY));
    assert_eq!(val("-inf"), f(f64::NEG_INFINITY));
    assert_eq!(val("inf_neg"), f(f64::NEG_INFINITY));
    assert!(val("nan").as_f64().is_some_and(f64::is_nan));
    assert_eq!(val("12").as_f64(), Some(12.0));
    assert_eq!(val("1.0").as_i64(), None);
}

#[test]
fn strings_and_escapes() {
    assert_eq!(val(r#""""#), s(""));
    assert_eq!(val(r#""plain text""#), s("plain text"));
    assert_eq!(val(r#""q\"uote\\ back""#), s("q\"uote\\ back"));
    assert_eq!(val(r#""a\nb\tc\rd\be\ff""#), s("a\nb\tc\rd\u{8}e\u{c}f"));
    assert_eq!(val(r#""\u00e9\U01F600 \ud83d\ude00""#), s("é😀 😀"));
    assert_eq!(val(r#""\'\q\é""#), s("'qé"));
    assert_eq!(val("\"héllo wörld ✓\""), s("héllo wörld ✓"));
    // Raw newlines inside strings: the next property's line accounts for them.
    let t = ok("[s]\nsrc = \"extends Node\n\nfunc _ready():\n\tprint(\\\"hi\\\")\n\"\nnext = 1\n");
    assert_eq!(
        t.sections[0].props[0].value,
        s("extends Node\n\nfunc _ready():\n\tprint(\"hi\")\n")
    );
    assert_eq!(
        (
            t.sections[0].props[1].line,
            t.sections[0].props[1].key.as_ref()
        ),
        (7, "next")
    );
    // An escaped raw newline is kept and counted.
    let t = ok("[s]\na = \"x\\\ny\"\nb = 2\n");
    assert_eq!(t.sections[0].props[0].value, s("x\ny"));
    assert_eq!(t.sections[0].props[1].line, 4);
}

#[test]
fn values_borrow_the_text_and_into_owned_detaches_them() {
    use std::borrow::Cow;
    let owned: Value<'static> = {
        let text = String::from(
            "[s]\na = \"plain\"\nb = \"esc\\\"aped\"\nc = Object(Node, \"k\": [&\"n\", ExtResource(\"1\")])\n",
        );
        let t = ok(&text);
        let p = &t.sections[0].props;
        assert!(matches!(&p[0].value, Value::Str(Cow::Borrowed("plain"))));
        assert!(matches!(&p[1].value, Value::Str(Cow::Owned(s)) if s == "esc\"aped"));
        assert!(matches!(&p[0].key, Cow::Borrowed("a")));
        assert_eq!(t.sections[0].kind, "s");
        p[2].value.clone().into_owned()
    };
    let Value::Object { class, props } = &owned else {
        panic!("{owned:?}")
    };
    assert_eq!((class.as_ref(), props[0].0.as_ref()), ("Node", "k"));
    assert_eq!(
        props[0].1.as_array().map(|a| a[1].resource_ref()),
        Some(Some((ResourceKind::Ext, "1".into())))
    );
}

#[test]
fn string_names_and_node_paths() {
    assert_eq!(val(r#"&"idle""#), Value::StringName("idle".into()));
    assert_eq!(val(r#"@"old""#), Value::StringName("old".into()));
    assert_eq!(
        val(r#"^"A/B:position""#),
        Value::NodePath("A/B:position".into())
    );
    assert_eq!(
        val(r#"NodePath("Sprite2D:frame")"#),
        Value::NodePath("Sprite2D:frame".into())
    );
    assert_eq!(val(r#"NodePath( "a" )"#), Value::NodePath("a".into()));
    assert_eq!(val(r#"NodePath("")"#), Value::NodePath("".into()));
    assert_eq!(val(r#"&"x\"y""#).as_str(), Some("x\"y"));
    assert_eq!(val(r#"^"p""#).as_str(), Some("p"));
}

// ---------------------------------------------------------------- constructors

#[test]
fn math_constructors_godot4_and_godot3() {
    assert_eq!(
        val("Vector2(1, -2.5)").numbers("Vector2"),
        Some(vec![1.0, -2.5])
    );
    assert_eq!(
        val("Vector2( 1, -2.5 )").numbers("Vector2"),
        Some(vec![1.0, -2.5])
    );
    assert_eq!(
        val("Vector2i(3, 4)").numbers("Vector2i"),
        Some(vec![3.0, 4.0])
    );
    assert_eq!(
        val("Rect2(0, 0, 16, 16)").numbers("Rect2"),
        Some(vec![0.0, 0.0, 16.0, 16.0])
    );
    assert_eq!(
        val("Rect2i(1, 2, 3, 4)").numbers("Rect2i"),
        Some(vec![1.0, 2.0, 3.0, 4.0])
    );
    assert_eq!(
        val("Transform2D(1, 0, 0, 1, 10, 20)").numbers("Transform2D"),
        Some(vec![1.0, 0.0, 0.0, 1.0, 10.0, 20.0])
    );
    assert_eq!(
        val("Transform2D( 0.7, 0.7, -0.7, 0.7, 5, 6 )")
            .numbers("Transform2D")
            .map(|v| v.len()),
        Some(6)
    );
    assert_eq!(
        val("Color(1, 0.5, 0, 1)").numbers("Color"),
        Some(vec![1.0, 0.5, 0.0, 1.0])
    );
    assert_eq!(
        val("Vector3(1, 2, 3)").numbers("Vector3"),
        Some(vec![1.0, 2.0, 3.0])
    );
    let t3 = val("Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 4, 5, 6)");
    assert_eq!(
        t3.numbers("Transform3D").map(|v| v[9..].to_vec()),
        Some(vec![4.0, 5.0, 6.0])
    );
    assert_eq!(
        val("Basis(1, 0, 0, 0, 1, 0, 0, 0, 1)")
            .numbers("Basis")
            .map(|v| v.len()),
        Some(9)
    );
    assert_eq!(
        val("Quaternion(0, 0, 0, 1)").numbers("Quaternion"),
        Some(vec![0.0, 0.0, 0.0, 1.0])
    );
    assert_eq!(
        val("Plane(0, 1, 0, 2)").numbers("Plane"),
        Some(vec![0.0, 1.0, 0.0, 2.0])
    );
    assert_eq!(
        val("AABB(0, 0, 0, 1, 1, 1)")
            .numbers("AABB")
            .map(|v| v.len()),
        Some(6)
    );
    assert_eq!(
        val("Vector2(inf, nan)")
            .numbers("Vector2")
            .map(|v| (v[0], v[1].is_nan())),
        Some((f64::INFINITY, true))
    );
    assert_eq!(val("Vector2(1, 2)").numbers("Vector3"), None);
    assert_eq!(val("Foo(1, \"x\")").numbers("Foo"), None);
    assert_eq!(val("Foo()"), call("Foo", vec![]));
    assert_eq!(val("Vector2 (1, 2)"), call("Vector2", vec![i(1), i(2)]));
}

#[test]
fn packed_arrays_godot4_and_godot3() {
    assert_eq!(
        val("PackedFloat32Array(0, 1, 2.5)").numbers("PackedFloat32Array"),
        Some(vec![0.0, 1.0, 2.5])
    );
    assert_eq!(
        val("PackedVector2Array()").numbers("PackedVector2Array"),
        Some(vec![])
    );
    assert_eq!(
        val("PoolRealArray( 0, 0.5 )").numbers("PoolRealArray"),
        Some(vec![0.0, 0.5])
    );
    assert_eq!(
        val("PoolVector2Array( 0, 6, 32, 6 )")
            .numbers("PoolVector2Array")
            .map(|v| v.len()),
        Some(4)
    );
    assert_eq!(
        val("PackedStringArray(\"a\", \"b c\")"),
        call("PackedStringArray", vec![s("a"), s("b c")])
    );
    assert_eq!(
        val("PackedByteArray(\"AAEC\")"),
        call("PackedByteArray", vec![s("AAEC")])
    );
    assert_eq!(
        val("PackedColorArray(1, 1, 1, 1)")
            .numbers("PackedColorArray")
            .map(|v| v.len()),
        Some(4)
    );
    assert_eq!(
        val("PackedInt32Array(1, -2)").call_args("PackedInt32Array"),
        Some(&[i(1), i(-2)][..])
    );
}

#[test]
fn resources_objects_and_typed_containers() {
    assert_eq!(
        val("ExtResource(\"1_abc\")").resource_ref(),
        Some((ResourceKind::Ext, "1_abc".into()))
    );
    assert_eq!(
        val("SubResource(\"RectangleShape2D_x\")").resource_ref(),
        Some((ResourceKind::Sub, "RectangleShape2D_x".into()))
    );
    assert_eq!(
        val("ExtResource( 3 )").resource_ref(),
        Some((ResourceKind::Ext, "3".into()))
    );
    assert_eq!(
        val("Resource(\"res://a.gd\")"),
        call("Resource", vec![s("res://a.gd")])
    );
    assert_eq!(val("Resource(\"res://a.gd\")").resource_ref(), None);
    assert_eq!(val("Vector2(1, 2)").resource_ref(), None);
    assert_eq!(
        val(
            "Object(Object,\"script\":Resource(\"res://m.gd\"),\"before_segment\":5,\"p\":Vector2(-60.43, 67.19))"
        ),
        Value::Object {
            class: "Object".into(),
            props: vec![
                ("script".into(), call("Resource", vec![s("res://m.gd")])),
                ("before_segment".into(), i(5)),
                ("p".into(), call("Vector2", vec![f(-60.43), f(67.19)])),
            ],
        }
    );
    assert_eq!(
        val("Object(InputEventKey)"),
        Value::Object {
            class: "InputEventKey".into(),
            props: vec![]
        }
    );
    let typed = val("Array[SpriteFrames]([ExtResource(\"5_r\"), ExtResource(\"6_h\")])");
    assert_eq!(
        typed,
        Value::Typed {
            types: vec![Value::Ident("SpriteFrames".into())],
            value: Box::new(Value::Array(vec![
                call("ExtResource", vec![s("5_r")]),
                call("ExtResource", vec![s("6_h")])
            ])),
        }
    );
    assert_eq!(typed.as_array().map(<[Value]>::len), Some(2));
    assert_eq!(
        val("Array[ExtResource(\"2_t\")]([])"),
        Value::Typed {
            types: vec![call("ExtResource", vec![s("2_t")])],
            value: Box::new(Value::Array(vec![])),
        }
    );
    assert_eq!(
        val("Array[int]([1, 2])").as_array(),
        Some(&[i(1), i(2)][..])
    );
    let d = val("Dictionary[String, int]({\n\"a\": 1,\n\"b\": 2\n})");
    assert_eq!(d.as_dict().map(<[(Value, Value)]>::len), Some(2));
    assert_eq!(d.get("b"), Some(&i(2)));
    assert!(
        matches!(&d, Value::Typed { types, .. } if types == &vec![Value::Ident("String".into()), Value::Ident("int".into())])
    );
}

#[test]
fn arrays_and_dictionaries() {
    assert_eq!(val("[]"), Value::Array(vec![]));
    assert_eq!(
        val("[ 1, \"a\", [true], {} ]"),
        Value::Array(vec![
            i(1),
            s("a"),
            Value::Array(vec![Value::Bool(true)]),
            Value::Dict(vec![])
        ])
    );
    assert_eq!(val("[1, 2,]"), Value::Array(vec![i(1), i(2)]));
    assert_eq!(
        val("{ \"k\": 1, 2: [3], }"),
        Value::Dict(vec![(s("k"), i(1)), (i(2), Value::Array(vec![i(3)]))])
    );
    let t = ok(
        "[s]\nd = {\n\"times\": PackedFloat32Array(0, 1),\n; comment inside\n\"values\": [Vector2(0, 0),\nVector2(1, 1)]\n}\nnext = 1\n",
    );
    let d = &t.sections[0].props[0].value;
    assert_eq!(
        d.get("times").and_then(|v| v.numbers("PackedFloat32Array")),
        Some(vec![0.0, 1.0])
    );
    assert_eq!(
        d.get("values")
            .and_then(Value::as_array)
            .map(<[Value]>::len),
        Some(2)
    );
    assert_eq!(d.get("missing"), None);
    assert_eq!(t.sections[0].props[1].line, 8);
}

// ---------------------------------------------------------------- a realistic scene

const SCENE: &str = r#"[gd_scene load_steps=7 format=3 uid="uid://c8m3y2k1"]

[ext_resource type="Script" uid="uid://b1" path="res://player/player.gd" id="1_p4x2q"]
[ext_resource type="Texture2D" uid="uid://b2" path="res://player/robot.png" id="2_k9r1z"]
[ext_resource type="PackedScene" uid="uid://b3" path="res://enemy/enemy.tscn" id="3_e7n0v"]

[sub_resource type="GDScript" id="GDScript_m2w8s"]
script/source = "extends Sprite2D

## Bobs up and down; says \"hi\".
var t := 0.0

func _process(delta):
	t += delta
	position.y = sin(t) * 4.0
[node name=\"NotANode\" parent=\".\"]
"

[sub_resource type="RectangleShape2D" id="RectangleShape2D_q1"]
size = Vector2(20, 38.5)

[sub_resource type="Animation" id="Animation_walk"]
resource_name = "walk"
length = 1.0
loop_mode = 1
step = 0.05
tracks/0/type = "value"
tracks/0/imported = false
tracks/0/enabled = true
tracks/0/path = NodePath("Sprite2D:frame")
tracks/0/interp = 1
tracks/0/loop_wrap = true
tracks/0/keys = {
"times": PackedFloat32Array(0, 1),
"transitions": PackedFloat32Array(1, 1),
"update": 1,
"values": [0, 7]
}

[sub_resource type="AnimationLibrary" id="AnimationLibrary_a"]
_data = {
&"walk": SubResource("Animation_walk")
}

[node name="Player" type="CharacterBody2D" groups=["player", "savable"]]
script = ExtResource("1_p4x2q")
speed = 120.0
metadata/_edit_group_ = true

[node name="Sprite2D" type="Sprite2D" parent="."]
modulate = Color(1, 0.85, 0.7, 1)
position = Vector2(0, -22)
texture = ExtResource("2_k9r1z")
hframes = 8
script = SubResource("GDScript_m2w8s")

[node name="Hat" type="Node2D" parent="Sprite2D"]
transform = Transform2D(0.866025, 0.5, -0.5, 0.866025, 3, -18)

[node name="CollisionShape2D" type="CollisionShape2D" parent="."]
position = Vector2(0, -19.25)
shape = SubResource("RectangleShape2D_q1")

[node name="AnimationPlayer" type="AnimationPlayer" parent="."]
libraries = {
&"": SubResource("AnimationLibrary_a")
}
autoplay = "walk"

[node name="Enemy" parent="." instance=ExtResource("3_e7n0v")]
position = Vector2(160, 0)
rotation = -1.25
scale = Vector2(-1, 1)

[connection signal="body_entered" from="Enemy" to="." method="_on_enemy_body_entered"]
[connection signal="animation_finished" from="AnimationPlayer" to="." method="_on_anim_finished" flags=18]
"#;

#[test]
fn realistic_scene() {
    let t = ok(SCENE);
    let kinds: Vec<&str> = t.sections.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            "gd_scene",
            "ext_resource",
            "ext_resource",
            "ext_resource",
            "sub_resource",
            "sub_resource",
            "sub_resource",
            "sub_resource",
            "node",
            "node",
            "node",
            "node",
            "node",
            "node",
            "connection",
            "connection"
        ]
    );
    let by_name = |name: &str| -> &Section {
        match t
            .sections_of("node")
            .find(|s| s.attr_str("name") == Some(name))
        {
            Some(s) => s,
            None => panic!("no node {name}"),
        }
    };
    let gd = &t.sections[4];
    let src = gd
        .prop("script/source")
        .and_then(Value::as_str)
        .unwrap_or_default();
    assert!(src.starts_with("extends Sprite2D\n\n## Bobs up and down; says \"hi\".\n"));
    assert!(src.ends_with("position.y = sin(t) * 4.0\n[node name=\"NotANode\" parent=\".\"]\n"));
    assert_eq!(t.sections[5].line, 19);
    assert_eq!(t.sections_of("node").count(), 6);

    let anim = &t.sections[6];
    assert_eq!(
        anim.prop("tracks/0/path"),
        Some(&Value::NodePath("Sprite2D:frame".into()))
    );
    let keys = anim.prop("tracks/0/keys");
    assert_eq!(
        keys.and_then(|k| k.get("times"))
            .and_then(|v| v.numbers("PackedFloat32Array")),
        Some(vec![0.0, 1.0])
    );
    assert_eq!(
        keys.and_then(|k| k.get("values")),
        Some(&Value::Array(vec![i(0), i(7)]))
    );
    let lib = t.sections[7].prop("_data").and_then(Value::as_dict);
    assert_eq!(
        lib.map(|d| d[0].0.clone()),
        Some(Value::StringName("walk".into()))
    );

    let player = by_name("Player");
    assert_eq!(
        player.attr("groups"),
        Some(&Value::Array(vec![s("player"), s("savable")]))
    );
    assert_eq!(player.attr("parent"), None);
    assert_eq!(
        player.prop("script").and_then(Value::resource_ref),
        Some((ResourceKind::Ext, "1_p4x2q".into()))
    );
    let sprite = by_name("Sprite2D");
    assert_eq!(
        sprite.prop("modulate").and_then(|v| v.numbers("Color")),
        Some(vec![1.0, 0.85, 0.7, 1.0])
    );
    assert_eq!(
        sprite.prop("position").and_then(|v| v.numbers("Vector2")),
        Some(vec![0.0, -22.0])
    );
    assert_eq!(sprite.prop("hframes"), Some(&i(8)));
    let hat = by_name("Hat");
    assert_eq!(
        hat.prop("transform")
            .and_then(|v| v.numbers("Transform2D"))
            .map(|v| v[4..].to_vec()),
        Some(vec![3.0, -18.0])
    );
    assert_eq!(hat.attr_str("parent"), Some("Sprite2D"));
    let enemy = by_name("Enemy");
    assert_eq!(
        enemy.attr("instance").and_then(Value::resource_ref),
        Some((ResourceKind::Ext, "3_e7n0v".into()))
    );
    assert_eq!(enemy.prop("rotation").and_then(Value::as_f64), Some(-1.25));
    assert_eq!(
        enemy.props.iter().map(|p| p.line).collect::<Vec<_>>(),
        vec![71, 72, 73]
    );
    let conns: Vec<_> = t.sections_of("connection").collect();
    assert_eq!(conns[1].attr("flags"), Some(&i(18)));
    assert_eq!(conns[0].attr_str("method"), Some("_on_enemy_body_entered"));
}

// ---------------------------------------------------------------- errors

fn at(text: &str) -> (u32, u32, String) {
    let e = err(text);
    (e.line, e.col, e.message)
}

fn pos(text: &str) -> (u32, u32) {
    let e = err(text);
    (e.line, e.col)
}

#[test]
fn errors_have_exact_positions() {
    // Unterminated string: reported where it starts, even many lines earlier.
    let (l, c, m) = at("[s]\nsrc = \"abc\nline two\n\nmore\n");
    assert_eq!((l, c), (2, 7));
    assert!(m.contains("unterminated string"), "{m}");
    assert_eq!(pos("[s]\nv = &\"abc"), (2, 5));
    // A string that ends on an escape.
    assert_eq!(at("[s]\nv = \"ab\\").0, 2);
    // Unexpected token: where it is.
    let (l, c, m) = at("[s]\nv = Vector2(1, 2]\n");
    assert_eq!((l, c), (2, 17));
    assert!(m.contains("expected ',' or ')'"), "{m}");
    assert_eq!(pos("[s]\nv = [1 2]\n"), (2, 8));
    assert_eq!(at("[s]\nv = {\"a\" 1}\n").0, 2);
    let (l, c, m) = at("[s]\nv = {\n\"a\": 1\n\"b\": 2}\n");
    assert_eq!((l, c), (4, 1));
    assert!(m.contains("expected ',' or '}'"), "{m}");
    // Property line without '='.
    let (l, c, m) = at("[node name=\"a\"]\nposition Vector2(1, 2)\n");
    assert_eq!((l, c), (2, 10));
    assert!(m.contains("'='") && m.contains("position"), "{m}");
    assert_eq!(pos("[s]\nlonely\n"), (2, 7));
    // A value missing after '='.
    assert_eq!(pos("[s]\nv =\nw = 1\n"), (2, 4));
    // Something after the value on the same line.
    let (l, c, m) = at("[s]\nv = 1 2\n");
    assert_eq!((l, c), (2, 7));
    assert!(m.contains("end of line"), "{m}");
    // A section header never closed: where it opens.
    let (l, c, m) =
        at("[gd_scene format=3]\n\n[node name=\"a\" type=\"Node2D\"\nposition = Vector2(0, 0)\n");
    assert_eq!((l, c), (3, 1));
    assert!(m.contains("never closed"), "{m}");
    assert_eq!(pos("[node name=\"a\""), (1, 1));
    assert_eq!(pos("[]\n"), (1, 2));
    assert_eq!(pos("[node 5]\n"), (1, 7));
    assert_eq!(pos("[node name]\n"), (1, 11));
    // Unclosed brackets at end of file: where they open.
    assert_eq!(pos("[s]\nv = [\n1,\n2\n"), (2, 5));
    assert_eq!(pos("[s]\nk = {\n\"a\": Vector2(1,\n"), (3, 13));
    // Unknown words and bad numbers.
    let (l, c, m) = at("[s]\nv = maybe\n");
    assert_eq!((l, c), (2, 5));
    assert!(m.contains("maybe"), "{m}");
    assert_eq!(pos("[s]\nv = -nan\n"), (2, 5));
    assert_eq!(pos("[s]\nv = 1e\n"), (2, 7));
    assert_eq!(pos("[s]\nv = 99999999999999999999\n"), (2, 5));
    assert_eq!(pos("[s]\nv = .5\n"), (2, 5));
    assert_eq!(pos("[s]\nv = Vector2(1, 2,)\n"), (2, 18));
    // Properties before any section.
    assert_eq!(pos("\n  x = 1\n"), (2, 3));
    // Bad escapes.
    assert_eq!(pos("[s]\nv = \"ab\\u12G4\"\n"), (2, 8));
    assert_eq!(pos("[s]\nv = \"\\ud83d\"\n"), (2, 12));
    assert_eq!(pos("[s]\nv = \"\\ude00\"\n"), (2, 6));
    // Typed containers.
    assert_eq!(pos("[s]\nv = Array[int]({})\n"), (2, 16));
    assert_eq!(pos("[s]\nv = Object(\"x\")\n"), (2, 12));
    // Columns count characters, not bytes.
    assert_eq!(pos("[s]\nv = [\"é✓\" 1]\n"), (2, 11));
}

#[test]
fn error_display_is_line_col_message() {
    let e = err("[s]\nv = ?\n");
    assert_eq!(e.to_string(), format!("2:5: {}", e.message));
    assert!(e.message.contains("'?'"), "{}", e.message);
}

#[test]
fn nesting_limit() {
    let depth = |n: usize| format!("[s]\nv = {}{}\n", "[".repeat(n), "]".repeat(n));
    assert!(parse(&depth(tscn::MAX_DEPTH as usize)).is_ok());
    let e = err(&depth(tscn::MAX_DEPTH as usize + 1));
    assert_eq!((e.line, e.col), (2, 5 + tscn::MAX_DEPTH));
    assert!(e.message.contains("nesting"), "{}", e.message);
    // Deep mixes of every container kind, and a huge depth: refused, no stack overflow.
    let mixed = format!("[s]\nv = {}1\n", "[{\"a\": Vector2(Array[int]([".repeat(40));
    assert!(err(&mixed).message.contains("nesting"));
    assert!(
        err(&format!("[s]\nv = {}\n", "[".repeat(1_000_000)))
            .message
            .contains("nesting")
    );
}

#[test]
fn binary_detection() {
    assert!(looks_binary(b"RSRC\x00\x00"));
    assert!(looks_binary(b"RSCC...."));
    assert!(!looks_binary(b"[gd_scene format=3]"));
    assert!(!looks_binary(b"RSR"));
    assert!(!looks_binary(b""));
}

// ---------------------------------------------------------------- never panics

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_random_text(text in "\\PC{0,200}") {
        let _ = parse(&text);
    }

    #[test]
    fn never_panics_on_syntax_soup(parts in prop::collection::vec(prop::sample::select(vec![
        "[", "]", "(", ")", "{", "}", ",", ":", "=", "\"", "\\", "\\u", "&", "^", "@", "-", ".", "e",
        "1", "2.5", "inf", "nan", "Vector2", "Array", "Dictionary", "Object", "NodePath", "ExtResource",
        "node", " ", "\n", "\r", "\t", ";", "é", "key", "\"s\"", "[node name=\"a\"]\n", "x = ",
    ]), 0..60)) {
        let text: String = parts.concat();
        if let Err(e) = parse(&text) {
            prop_assert!(e.line >= 1 && e.col >= 1);
            prop_assert!(e.line as usize <= text.lines().count().max(1) + 1);
        }
    }

    #[test]
    fn never_panics_on_truncations(cut in 0usize..SCENE.len()) {
        let mut end = cut;
        while !SCENE.is_char_boundary(end) {
            end -= 1;
        }
        let _ = parse(&SCENE[..end]);
    }

    #[test]
    fn never_panics_on_mutations(edits in prop::collection::vec((0usize..SCENE.len(), any::<char>(), 0usize..3), 1..8)) {
        let mut text = SCENE.to_string();
        for (at, ch, how) in edits {
            let mut p = at.min(text.len());
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            match how {
                0 => text.insert(p, ch),
                1 => { if p < text.len() { text.remove(p); } }
                _ => { if p < text.len() { text.remove(p); text.insert(p, ch); } }
            }
        }
        if let Err(e) = parse(&text) {
            prop_assert!(e.line >= 1 && e.col >= 1);
        }
    }
}

// ---------------------------------------------------------------- real scenes

#[test]
fn real_scenes_all_parse() {
    let root = std::path::Path::new("/work/shared/godot-real");
    if !root.is_dir() {
        eprintln!("skipped: {} is missing", root.display());
        return;
    }
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "tscn") {
                files.push(path);
            }
        }
    }
    assert!(!files.is_empty());
    let (mut nodes, mut failures) = (0, Vec::new());
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        match parse(&text) {
            Ok(t) => {
                assert_eq!(
                    t.sections.first().map(|s| s.kind),
                    Some("gd_scene"),
                    "{}",
                    path.display()
                );
                nodes += t.sections_of("node").count();
            }
            Err(e) => failures.push(format!("{}:{e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    eprintln!("{} real scenes, {nodes} nodes", files.len());
}

// ---------------------------------------------------------------- a large scene

/// A scene of `n` nodes in a shallow tree, about 100 bytes per node.
fn big_scene(n: usize) -> String {
    let mut s = String::with_capacity(n * 160);
    s.push_str("[gd_scene load_steps=2 format=3 uid=\"uid://big\"]\n\n");
    s.push_str("[ext_resource type=\"Texture2D\" path=\"res://a.png\" id=\"1_a\"]\n\n");
    s.push_str("[node name=\"Root\" type=\"Node2D\"]\n\n");
    for k in 0..n {
        let parent = if k < 100 {
            ".".to_string()
        } else {
            format!("N{}", k % 100)
        };
        s.push_str(&format!(
            "[node name=\"N{k}\" type=\"Sprite2D\" parent=\"{parent}\" unique_id={}]\nposition = Vector2({}.5, -{}.25)\nrotation = 0.{k}\nscale = Vector2(1.5, 0.75)\ntexture = ExtResource(\"1_a\")\n\n",
            1_000_000 + k,
            k % 977,
            k % 311,
        ));
    }
    s
}

#[test]
fn large_scene_parses() {
    let text = big_scene(10_000);
    let t = ok(&text);
    assert_eq!(t.sections_of("node").count(), 10_001);
    let last = &t.sections[t.sections.len() - 1];
    assert_eq!(
        last.prop("position").and_then(|v| v.numbers("Vector2")),
        Some(vec![
            (9_999 % 977) as f64 + 0.5,
            -((9_999 % 311) as f64) - 0.25
        ])
    );
}

/// `cargo test --release --no-default-features --test tscn_parse -- --ignored --nocapture`
#[test]
#[ignore = "timing; run by hand in release"]
fn large_scene_timing() {
    let text = big_scene(100_000);
    let start = std::time::Instant::now();
    let t = ok(&text);
    let took = start.elapsed();
    assert_eq!(t.sections_of("node").count(), 100_001);
    eprintln!(
        "100k nodes, {:.1} MB: {:.1} ms",
        text.len() as f64 / 1e6,
        took.as_secs_f64() * 1e3
    );
}
