//! The text of one Godot version's scene format (constructors, class names, resource ids and
//! the header): a leaf every part of the export writes through.

use super::tscn_text::{num, quoted};
use glam::Vec2;
use std::fmt::Write as _;

/// The text of one Godot version's scene format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// `format=3`: `Vector2(x, y)`, string resource ids, Sprite2D, PackedVector2Array.
    Godot4,
    /// `format=2`: `Vector2( x, y )`, integer ids, Sprite, PoolVector2Array, no skew.
    Godot3,
}

impl Dialect {
    /// `Name(a, b)` as this version writes a constructor.
    pub(super) fn call(self, name: &str, args: &[String]) -> String {
        match self {
            Dialect::Godot4 => format!("{name}({})", args.join(", ")),
            Dialect::Godot3 if args.is_empty() => format!("{name}(  )"),
            Dialect::Godot3 => format!("{name}( {} )", args.join(", ")),
        }
    }

    pub(super) fn vec2(self, v: Vec2) -> String {
        self.call("Vector2", &[num(v.x), num(v.y)])
    }

    pub(super) fn sprite_class(self) -> &'static str {
        match self {
            Dialect::Godot4 => "Sprite2D",
            Dialect::Godot3 => "Sprite",
        }
    }

    pub(super) fn points_type(self) -> &'static str {
        match self {
            Dialect::Godot4 => "PackedVector2Array",
            Dialect::Godot3 => "PoolVector2Array",
        }
    }

    /// A node's reference to texture `id`.
    pub(super) fn texture_ref(self, id: usize) -> String {
        match self {
            Dialect::Godot4 => format!("ExtResource(\"{id}_tex\")"),
            Dialect::Godot3 => format!("ExtResource( {id} )"),
        }
    }

    /// The header and the textures' and scenes' `ext_resource` lines (`subs`: how many
    /// sub-resources follow, for Godot 3's `load_steps`).
    pub(super) fn header(self, textures: &[String], scenes: &[String], subs: usize) -> String {
        let steps = textures.len() + scenes.len() + subs;
        let mut out = match self {
            Dialect::Godot4 => String::from("[gd_scene format=3]\n"),
            Dialect::Godot3 if steps == 0 => String::from("[gd_scene format=2]\n"),
            Dialect::Godot3 => format!("[gd_scene load_steps={} format=2]\n", steps + 1),
        };
        for (k, path) in textures.iter().enumerate() {
            let _ = match self {
                Dialect::Godot4 => writeln!(
                    out,
                    "\n[ext_resource type=\"Texture2D\" path={} id=\"{}_tex\"]",
                    quoted(path),
                    k + 1
                ),
                Dialect::Godot3 => writeln!(
                    out,
                    "\n[ext_resource path={} type=\"Texture\" id={}]",
                    quoted(path),
                    k + 1
                ),
            };
        }
        for (k, path) in scenes.iter().enumerate() {
            let id = self.scene_id(textures.len(), k);
            let _ = match self {
                Dialect::Godot4 => writeln!(
                    out,
                    "\n[ext_resource type=\"PackedScene\" path={} id={id}]",
                    quoted(path)
                ),
                Dialect::Godot3 => writeln!(
                    out,
                    "\n[ext_resource path={} type=\"PackedScene\" id={id}]",
                    quoted(path)
                ),
            };
        }
        out
    }

    /// The id of scene `k` in a file with `textures` textures, as its `ext_resource` writes it.
    pub(super) fn scene_id(self, textures: usize, k: usize) -> String {
        match self {
            Dialect::Godot4 => format!("\"{}_scene\"", k + 1),
            Dialect::Godot3 => (textures + k + 1).to_string(),
        }
    }
}

/// A colour as a Godot `Color(r, g, b, a)` of 0..1 floats.
pub(super) fn color_text(color: [u8; 4], dialect: Dialect) -> String {
    let rgba = color.map(|c| num(c as f32 / 255.0));
    dialect.call("Color", &rgba)
}
