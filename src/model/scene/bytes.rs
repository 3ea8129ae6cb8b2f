//! Sizes of containers, for the accounting of where a scene's bytes go (a leaf the scene's
//! accounting and the instance table's both use).

/// Bytes of a hash map of `capacity` usable entries of `entry` bytes (hashbrown: a power of
/// two of buckets, 7/8 usable, a control byte each).
pub(crate) fn map_bytes(capacity: usize, entry: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two();
    (buckets * (entry + 1)) as u64
}
