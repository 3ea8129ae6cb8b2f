//! The scene's own consistency check (pre-order, lengths, the id map), for tests (the
//! `test-hooks` feature).

use super::store::has_keys;
use super::types::Scene;
use crate::model::anim;

impl Scene {
    /// Check that the arrays agree with each other (pre-order, lengths, index map). For tests.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        let n = self.len();
        let lens = [
            self.data.len(),
            self.parent.len(),
            self.subtree_len.len(),
            self.world.len(),
            self.index_of.len(),
        ];
        if lens.iter().any(|&l| l != n) {
            return Err(format!("array lengths differ: {n} ids, {lens:?}"));
        }
        let mut expected_len = vec![1u32; n];
        for i in (0..n).rev() {
            if let Some(p) = self.parent_index_at(i) {
                if p >= i {
                    return Err(format!("parent index {p} not below child {i}"));
                }
                if i >= p + self.subtree_len_at(p) {
                    return Err(format!("node {i} outside its parent's range"));
                }
                expected_len[p] += expected_len[i];
            }
        }
        if expected_len != self.subtree_len {
            return Err("subtree lengths are wrong".into());
        }
        for (i, id) in self.ids.iter().enumerate() {
            if self.index_of.get(id) != Some(&(i as u32)) {
                return Err(format!("index_of is wrong for {id}"));
            }
            if self.data.local(i) != self.data.get(i).local.to_affine() {
                return Err(format!("local matrix of {id} is stale"));
            }
            if let Err(e) = anim::check_tracks(&self.data.get(i).tracks) {
                return Err(format!("node {id}: {e}"));
            }
        }
        if self.animated.key == (self.version, self.tracks_version) {
            let walked: Vec<u32> = (0..n)
                .filter(|&i| has_keys(self.data.get(i)))
                .map(|i| i as u32)
                .collect();
            if walked != self.animated.indices {
                return Err("the list of animated nodes is stale".into());
            }
        }
        Ok(())
    }
}
