//! Helpers shared by the integration tests.
#![allow(dead_code)]

use glam::{Affine2, Vec2};
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene};

/// Seed 004's chain: body (5,0) → arm (0,2) rotated 90° → hand (0,3) → sword (1,0).
pub fn sword_scene() -> Scene {
    let t = |x: f32, y: f32, r: f32| Trs::new(Vec2::new(x, y), r, Vec2::ONE, 0.0);
    let specs = vec![
        spec(1, None, "body", t(5.0, 0.0, 0.0)),
        spec(2, Some(1), "arm", t(0.0, 2.0, 90.0)),
        spec(3, Some(2), "hand", t(0.0, 3.0, 0.0)),
        spec(4, Some(3), "sword", t(1.0, 0.0, 0.0)),
    ];
    Scene::from_specs(specs).expect("valid sword scene")
}

/// A node spec for tests.
pub fn spec(id: u32, parent: Option<u32>, name: &str, local: Trs) -> NodeSpec {
    NodeSpec {
        id: NodeId(id),
        parent: parent.map(NodeId),
        data: NodeData::named(name, local),
    }
}

/// True when every entry of `a` and `b` differs by at most `tol`.
pub fn near(a: &Affine2, b: &Affine2, tol: f32) -> bool {
    a.to_cols_array()
        .iter()
        .zip(b.to_cols_array())
        .all(|(x, y)| (x - y).abs() <= tol)
}

/// Assert two vectors are within 1e-5 of each other.
#[track_caller]
pub fn assert_vec_near(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-5,
        "expected {expected:?}, got {actual:?}"
    );
}

/// A wide scene: `roots` roots each with a chain of children as given.
pub fn wide_scene(n: u32) -> Scene {
    let mut specs = vec![spec(0, None, "root", Trs::IDENTITY)];
    let fan = (n as f32).sqrt() as u32;
    for i in 1..n {
        let parent = if i <= fan { 0 } else { 1 + (i % fan) };
        let local = Trs::new(
            Vec2::new(i as f32 * 0.01, 1.0),
            (i % 360) as f32,
            Vec2::ONE,
            0.0,
        );
        specs.push(spec(i, Some(parent), "n", local));
    }
    Scene::from_specs(specs).expect("valid wide scene")
}

/// Everything observable about a scene, floats as their bits, so `==` means bit-identical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Ids in pre-order.
    pub ids: Vec<u32>,
    /// Parent index per node (`u32::MAX` for roots).
    pub parents: Vec<u32>,
    /// Subtree length per node.
    pub subtree_lens: Vec<usize>,
    /// Names.
    pub names: Vec<String>,
    /// Shape (kind, sprite path, size bits), probes and tracks, and colour.
    pub looks: Vec<(String, String, [u8; 4])>,
    /// The clip's settings.
    pub clip: String,
    /// Local Trs: position, rotation, scale, skew.
    pub locals: Vec<[u32; 6]>,
    /// Local matrices.
    pub local_matrices: Vec<[u32; 6]>,
    /// Cached world matrices after `update_world` (on a copy).
    pub worlds: Vec<[u32; 6]>,
    /// World matrices from the lazy getter, before any update.
    pub lazy_worlds: Vec<[u32; 6]>,
}

/// The bits of a matrix's six entries.
pub fn affine_bits(m: &Affine2) -> [u32; 6] {
    m.to_cols_array().map(f32::to_bits)
}

/// The bits of a transform's six numbers.
pub fn trs_bits(t: &Trs) -> [u32; 6] {
    t.components().map(f32::to_bits)
}

/// Snapshot a scene: its arrays, and its world matrices after an update pass on a copy.
pub fn snapshot(scene: &Scene) -> Snapshot {
    let mut updated = scene.clone();
    updated.update_world();
    let n = scene.len();
    // Debug prints each f32 in its shortest round-trip form (-0.0 kept): equal text, equal bits.
    let look = |d: &NodeData| {
        let marks = format!("{:?} {:?}", d.probes, d.tracks);
        (format!("{:?}", d.shape), marks, d.color)
    };
    Snapshot {
        ids: scene.ids().iter().map(|id| id.0).collect(),
        parents: scene.parent_indices().to_vec(),
        subtree_lens: (0..n).map(|i| scene.subtree_len_at(i)).collect(),
        names: (0..n).map(|i| scene.data_at(i).name.to_string()).collect(),
        looks: (0..n).map(|i| look(scene.data_at(i))).collect(),
        clip: format!("{:?}", scene.clip()),
        locals: (0..n).map(|i| trs_bits(&scene.data_at(i).local)).collect(),
        local_matrices: (0..n)
            .map(|i| affine_bits(&scene.local_matrix_at(i)))
            .collect(),
        worlds: (0..n)
            .map(|i| affine_bits(&updated.cached_world_at(i)))
            .collect(),
        lazy_worlds: (0..n).map(|i| affine_bits(&scene.world_at(i))).collect(),
    }
}

/// Every node's world matrix (f64) with the scene posed at playback time `t`, in pre-order:
/// what `graft print --time t` prints.
pub fn posed_worlds(scene: &Scene, t: f32) -> Vec<glam::DAffine2> {
    let mut posed = scene.clone();
    posed.set_pose_at(t);
    posed.update_world();
    (0..posed.len())
        .map(|i| posed.world_at(i).as_daffine2())
        .collect()
}

/// How far `got` is from `want`, entry by entry, relative to `want`'s size (its axes' and
/// translation's lengths, at least 1).
pub fn relative_gap(got: &glam::DAffine2, want: &glam::DAffine2) -> f64 {
    let m = want.matrix2;
    let size = m
        .x_axis
        .length()
        .max(m.y_axis.length())
        .max(want.translation.length())
        .max(1.0);
    let off = got
        .to_cols_array()
        .iter()
        .zip(want.to_cols_array())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    off / size
}

/// A random animated scene: every node without static skew gets tracks on random channels
/// (position, rotation, scale; skew only when `skew`), 2–5 keys each with random linear,
/// ease-in-out and step interpolations, some keys after 0 s or past the clip's end; the clip's
/// length and loop mode from the seed.
pub fn random_animated(seed: u64, nodes: usize, skew: bool) -> Scene {
    use graft::model::anim::{Channel, ClipSettings, Interp, Key, LoopMode, Track};
    use graft::model::scene::edit::Op;
    use graft::tools::generate::{GenShape, generate};
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut scene = generate(GenShape::Random, nodes, seed);
    let length = 0.5 + rng.f32() * 3.0;
    let mode = LoopMode::ALL[seed as usize % 3];
    let settings = ClipSettings::new(length, mode).unwrap();
    Op::SetClip { settings }.perform(&mut scene).unwrap();
    for i in 0..scene.len() {
        if scene.data_at(i).local.skew != 0.0 || rng.u8(..4) == 0 {
            continue;
        }
        let channels: Vec<Channel> = Channel::ALL
            .into_iter()
            .filter(|c| (skew || *c != Channel::Skew) && rng.bool())
            .collect();
        let tracks = channels
            .into_iter()
            .map(|channel| {
                let n = rng.usize(2..=5);
                let mut t = if rng.bool() {
                    0.0
                } else {
                    rng.f32() * length * 0.3
                };
                let keys = (0..n)
                    .map(|_| {
                        let value = match channel {
                            Channel::PositionX | Channel::PositionY => rng.f32() * 10.0 - 5.0,
                            Channel::Rotation => rng.f32() * 720.0 - 360.0,
                            Channel::ScaleX | Channel::ScaleY => {
                                (0.2 + rng.f32() * 1.8) * if rng.u8(..6) == 0 { -1.0 } else { 1.0 }
                            }
                            Channel::Skew => rng.f32() * 60.0 - 30.0,
                        };
                        let key = Key::new(t, value).with(Interp::ALL[rng.usize(..3)]);
                        t += 0.05 + rng.f32() * length * 0.5;
                        key
                    })
                    .collect();
                Track::new(channel, keys).unwrap()
            })
            .collect();
        let node = scene.id_at(i);
        Op::SetTracks { node, tracks }.perform(&mut scene).unwrap();
    }
    scene.update_world();
    scene
}

/// Run the graft binary with `args`: its exit code (-1 when killed), stdout and stderr.
pub fn run_graft(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_graft"))
        .args(args)
        .output()
        .expect("run graft");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// Paste `local` onto `node`, as the inspector's Paste local does (one undo step, "Paste
/// transform onto name"; the text reads back bit-exact).
pub fn paste_local(node: graft::model::scene::NodeId, local: Trs) -> graft::editor::Command {
    use graft::editor::session::clipboard::trs_to_text;
    use graft::editor::session::command::{PanelCommand, TransformSpace};
    graft::editor::Command::Panel(PanelCommand::PasteTransform {
        node,
        text: trs_to_text(&local),
        space: TransformSpace::Local,
    })
}

/// The viewport's drag of `node` as it begins now (its world origin where it is, the pointer
/// at the world origin): see [`drag_to`].
pub fn drag_of(
    editor: &graft::editor::Editor,
    node: NodeId,
) -> std::sync::Arc<graft::editor::view::pointer::MoveDrag> {
    let world = editor.doc().scene().world(node).expect("the dragged node");
    std::sync::Arc::new(graft::editor::view::pointer::MoveDrag {
        start_pointer: glam::DVec2::ZERO,
        starts: vec![(node, world.translation)],
    })
}

/// One frame of `drag`: the node goes to its start plus `pointer` (world units), as the move
/// tool sends it ("Move name", continuous until EndGesture).
pub fn drag_to(
    drag: &std::sync::Arc<graft::editor::view::pointer::MoveDrag>,
    pointer: glam::DVec2,
) -> graft::editor::Command {
    use graft::editor::session::command::PanelCommand;
    graft::editor::Command::Panel(PanelCommand::MoveSelection {
        drag: std::sync::Arc::clone(drag),
        pointer,
        snap: None,
    })
}

/// The same nodes as plain, unshared data (an instanced scene's oracle: each node its own).
pub fn plain_copy(scene: &Scene) -> Scene {
    let specs = (0..scene.len())
        .map(|i| NodeSpec {
            id: scene.id_at(i),
            parent: scene.parent_index_at(i).map(|p| scene.id_at(p)),
            data: scene.data_at(i).clone(),
        })
        .collect();
    Scene::from_specs(specs).expect("plain copy")
}

/// Both scenes updated, then the same ids, data and world matrices (bit for bit) at every
/// index; `what` names the comparison in a failure.
pub fn assert_same_nodes(a: &mut Scene, b: &mut Scene, what: &str) {
    a.update_world();
    b.update_world();
    assert_eq!(a.len(), b.len(), "{what}: node count");
    for i in 0..a.len() {
        assert_eq!(a.id_at(i), b.id_at(i), "{what}: id at {i}");
        assert_eq!(a.data_at(i), b.data_at(i), "{what}: data at {i}");
        let (wa, wb) = (affine_bits(&a.world_at(i)), affine_bits(&b.world_at(i)));
        assert_eq!(wa, wb, "{what}: world at {i}");
    }
}
