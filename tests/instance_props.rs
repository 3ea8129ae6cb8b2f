//! Random scenes with random nested instances and overrides: saved, loaded and made local,
//! they give the world matrices, bit for bit, of the scene as it was built in memory (the
//! instances expanded by `prepare`, not by the loader: two paths to one flattened scene).

mod common;

use glam::Vec2;
use graft::model::file;
use graft::model::instance::edit;
use graft::model::math::Trs;
use graft::model::scene::{NodeData, NodeId, NodeSpec, Scene};
use proptest::prelude::*;
use std::path::Path;

/// A random local transform.
fn trs() -> impl Strategy<Value = Trs> {
    (
        -4.0f32..4.0,
        -4.0f32..4.0,
        -180.0f32..180.0,
        0.5f32..2.0,
        0.5f32..2.0,
        -20.0f32..20.0,
    )
        .prop_map(|(x, y, r, sx, sy, k)| Trs::new(Vec2::new(x, y), r, Vec2::new(sx, sy), k))
}

/// A random tree of `1..max` nodes: each node's parent picked among those before it.
fn tree(max: usize) -> impl Strategy<Value = Vec<(usize, Trs)>> {
    prop::collection::vec((any::<prop::sample::Index>(), trs()), 1..max).prop_map(|nodes| {
        nodes
            .into_iter()
            .enumerate()
            .map(|(k, (pick, t))| (if k == 0 { 0 } else { pick.index(k) }, t))
            .collect()
    })
}

/// A plain scene from a tree (ids from 1; node 0 is the one root).
fn plain(nodes: &[(usize, Trs)], name: &str) -> Scene {
    let specs = nodes
        .iter()
        .enumerate()
        .map(|(k, (p, t))| NodeSpec {
            id: NodeId(k as u32 + 1),
            parent: (k > 0).then(|| NodeId(*p as u32 + 1)),
            data: NodeData::named(format!("{name}{k}"), *t),
        })
        .collect();
    Scene::from_specs(specs).expect("valid tree")
}

/// What to do to a scene: instances (which source, under which own node) and edits of
/// random expanded nodes, and nodes added under random expanded nodes.
#[derive(Clone, Debug)]
struct Plan {
    own: Vec<(usize, Trs)>,
    instances: Vec<(bool, prop::sample::Index)>,
    edits: Vec<(prop::sample::Index, Trs)>,
    added: Vec<prop::sample::Index>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        tree(4),
        prop::collection::vec((any::<bool>(), any::<prop::sample::Index>()), 1..4),
        prop::collection::vec((any::<prop::sample::Index>(), trs()), 0..4),
        prop::collection::vec(any::<prop::sample::Index>(), 0..2),
    )
        .prop_map(|(own, instances, edits, added)| Plan {
            own,
            instances,
            edits,
            added,
        })
}

/// Carry out a plan on the scene saved as `host`: `sources` are the files it may instance.
fn carry_out(plan: &Plan, host: &Path, sources: &[&str], name: &str) -> Scene {
    let mut scene = plain(&plan.own, name);
    let own: Vec<NodeId> = scene.ids().to_vec();
    for (which, parent) in &plan.instances {
        let source = sources[usize::from(*which) % sources.len()];
        let parent = own[parent.index(own.len())];
        edit::add_instance(&mut scene, host, source, Some(parent)).expect("instance");
    }
    let expanded: Vec<NodeId> = scene
        .ids()
        .iter()
        .copied()
        .filter(|id| scene.origin(*id).is_some())
        .collect();
    if !expanded.is_empty() {
        for (pick, t) in &plan.edits {
            scene
                .set_local(expanded[pick.index(expanded.len())], *t)
                .expect("edit");
        }
        for pick in &plan.added {
            let parent = expanded[pick.index(expanded.len())];
            let data = NodeData::named("added", Trs::new(Vec2::X, 10.0, Vec2::ONE, 0.0));
            scene.add_node(Some(parent), None, data).expect("add");
        }
    }
    scene
}

fn worlds(scene: &mut Scene) -> Vec<[u32; 6]> {
    scene.update_world();
    (0..scene.len())
        .map(|i| common::affine_bits(&scene.world_at(i)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn saved_loaded_and_made_local_instances_keep_every_world_matrix(
        wheel in tree(6),
        car in plan(),
        level in plan(),
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("parts")).expect("parts");
        let wheel_path = dir.path().join("parts/wheel.ron");
        file::save(&plain(&wheel, "w"), &wheel_path).expect("wheel");
        let car_path = dir.path().join("parts/car.ron");
        let car_scene = carry_out(&car, &car_path, &["wheel.ron"], "c");
        file::save(&car_scene, &car_path).expect("car");
        let level_path = dir.path().join("level.ron");
        let mut built = carry_out(&level, &level_path, &["parts/car.ron", "parts/wheel.ron"], "l");
        let want = worlds(&mut built);
        file::save(&built, &level_path).expect("level");

        let mut loaded = file::load(&level_path).expect("load");
        prop_assert_eq!(&worlds(&mut loaded), &want);
        prop_assert_eq!(file::to_ron_string(&loaded), file::to_ron_string(&built));

        let roots: Vec<NodeId> = loaded.instances().expect("instances").entries().iter().map(|e| e.root).collect();
        for root in roots {
            prop_assert!(edit::make_local(&mut loaded, root).expect("make local").is_empty());
        }
        let text = file::to_ron_string(&loaded);
        prop_assert!(!text.contains("instance:"));
        let mut flat = file::parse(&text, &level_path).expect("flat");
        prop_assert_eq!(&worlds(&mut flat), &want);
    }
}
