//! Which Godot classes carry a 2D transform, and how they chain: Node2D and its subclasses
//! compose with a canvas-item parent; Controls too (with a layout graft cannot run);
//! CanvasLayers start a canvas of their own; everything else has no transform and breaks the
//! chain.

/// How a Godot class takes part in the 2D transform chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Node2D or a subclass: position, rotation, scale, skew.
    Node2D,
    /// Control or a subclass: position from offsets (and anchors, approximated), rotation,
    /// scale, pivot.
    Control,
    /// CanvasLayer or ParallaxBackground: draws its children through its own transform and
    /// ignores every ancestor.
    Layer,
    /// No 2D transform (Node, AnimationPlayer, Timer, Node3D, …): children start again from the
    /// canvas.
    Plain,
}

/// Node2D subclasses whose names do not end in "2D" (Godot 4 and Godot 3).
const NODE2D_OTHERS: &[&str] = &[
    "Sprite",
    "AnimatedSprite",
    "YSort",
    "TileMap",
    "TileMapLayer",
    "ParallaxLayer",
    "CanvasModulate",
    "CanvasGroup",
    "BackBufferCopy",
    "TouchScreenButton",
    "Position2D",
    "Navigation2D",
    "NavigationPolygonInstance",
    "Particles2D",
    "VisibilityNotifier2D",
    "VisibilityEnabler2D",
    "KinematicBody2D",
];

/// Classes ending in "2D" that are not Node2D.
const NOT_NODE2D_2D: &[&str] = &[
    "NavigationAgent2D",
    "World2D",
    "Shape2D",
    "Physics2DDirectSpaceState",
];

/// Control subclasses whose names do not end in Container, Button, Rect, Label, Bar, Edit,
/// Slider, Separator or Box (checked by suffix below).
const CONTROL_OTHERS: &[&str] = &[
    "Control",
    "Panel",
    "ItemList",
    "Tree",
    "TabBar",
    "Tabs",
    "GraphEdit",
    "GraphNode",
    "GraphElement",
    "GraphFrame",
    "VideoStreamPlayer",
    "VideoPlayer",
    "SpinBox",
    "ProgressBar",
    "Range",
    "CheckBox",
    "Label3D",
];

/// Suffixes of Control classes (`HBoxContainer`, `TextureButton`, `ColorRect`, `RichTextLabel`,
/// `HScrollBar`, `LineEdit`, `HSlider`, `VSeparator`, …).
const CONTROL_SUFFIXES: &[&str] = &[
    "Container",
    "Button",
    "Rect",
    "Label",
    "Bar",
    "Edit",
    "Slider",
    "Separator",
];

/// How a class chains. `Label3D` and other 3D classes end up Plain.
pub fn kind_of(class: &str) -> Kind {
    match class {
        "CanvasLayer" | "ParallaxBackground" => return Kind::Layer,
        "Label3D" | "Node3D" | "Spatial" => return Kind::Plain,
        _ => {}
    }
    if NODE2D_OTHERS.contains(&class) || (class.ends_with("2D") && !NOT_NODE2D_2D.contains(&class))
    {
        return Kind::Node2D;
    }
    if class.ends_with("3D") {
        return Kind::Plain;
    }
    if CONTROL_OTHERS.contains(&class) || CONTROL_SUFFIXES.iter().any(|s| class.ends_with(s)) {
        return Kind::Control;
    }
    Kind::Plain
}

/// True for a class graft knows by name (the others are guessed from their properties).
pub fn is_known(class: &str) -> bool {
    const PLAIN: &[&str] = &[
        "Node",
        "AnimationPlayer",
        "AnimationTree",
        "Timer",
        "AudioStreamPlayer",
        "HTTPRequest",
        "Tween",
        "ResourcePreloader",
        "MultiplayerSpawner",
        "MultiplayerSynchronizer",
        "NavigationAgent2D",
        "WorldEnvironment",
        "SubViewport",
        "Viewport",
        "Window",
        "AcceptDialog",
        "ConfirmationDialog",
        "FileDialog",
        "PopupMenu",
        "Popup",
        "ShaderGlobalsOverride",
        "StatusIndicator",
    ];
    PLAIN.contains(&class) || kind_of(class) != Kind::Plain
}
