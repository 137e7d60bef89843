//! The name index baked beside a tool table.
//!
//! A server looks a tool up by name on every `tools/call`. The build script
//! knows every name, so it lays out an open-addressing hash table of them
//! once, and at run time a lookup is one hash of the requested name and,
//! almost always, one string comparison, whatever the number of tools. A
//! binary search would cost a comparison per halving and reach across the
//! whole table at a thousand tools. The hash and the probing rule live here
//! only: the build script calls [`build`] and the table calls
//! [`NameIndex::find`], so the two cannot disagree.

/// Where `name` starts probing in a table of `slot_count` slots (a power of
/// two): FNV-1a over its bytes, then a multiplicative mix whose high bits
/// pick the slot, because FNV's low bits alone cluster on names that differ
/// only in their last characters (`tool_0001`, `tool_0002`, …).
fn home(name: &str, slot_count: usize) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in name.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let bits = slot_count.trailing_zeros();
    if bits == 0 {
        return 0;
    }
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (u64::BITS - bits)) as usize
}

/// Lays out the index of `names` (distinct): a power-of-two number of
/// slots, at least twice as many as names, each `0` when empty or the
/// position of a name in `names` plus one. A name that finds its slot taken
/// goes to the next free one, wrapping around.
pub fn build(names: &[&str]) -> Vec<u32> {
    let slot_count = (names.len() * 2).next_power_of_two();
    let mut slots = vec![0u32; slot_count];
    for (position, name) in names.iter().enumerate() {
        let mut slot = home(name, slot_count);
        while slots[slot] != 0 {
            slot = (slot + 1) % slot_count;
        }
        // A table holds far fewer than u32::MAX tools: each is a compiled
        // function.
        slots[slot] = u32::try_from(position + 1).unwrap_or(u32::MAX);
    }
    slots
}

/// A table's names in its order, with the slots [`build`] laid out for them.
#[derive(Clone, Copy, Debug)]
pub struct NameIndex {
    names: &'static [&'static str],
    slots: &'static [u32],
}

impl NameIndex {
    /// Used by generated code only: `slots` must be what [`build`] lays out
    /// for `names`.
    #[doc(hidden)]
    pub const fn __new(names: &'static [&'static str], slots: &'static [u32]) -> NameIndex {
        NameIndex { names, slots }
    }

    /// The position of `name` among the table's names.
    pub fn find(&self, name: &str) -> Option<usize> {
        find(self.slots, self.names, name)
    }
}

fn find(slots: &[u32], names: &[&str], name: &str) -> Option<usize> {
    let slot_count = slots.len();
    let mut slot = home(name, slot_count);
    // At least half the slots are empty, so the probe ends at one; the bound
    // only keeps a malformed index from looping.
    for _ in 0..slot_count {
        let position = (*slots.get(slot)? as usize).checked_sub(1)?;
        if names.get(position) == Some(&name) {
            return Some(position);
        }
        slot = (slot + 1) % slot_count;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("tool_{i:04}")).collect()
    }

    #[test]
    fn every_name_is_found_at_its_position_and_no_other_name_is() {
        for n in [0, 1, 2, 3, 10, 100, 1000] {
            let owned = names(n);
            let names: Vec<&str> = owned.iter().map(String::as_str).collect();
            let slots = build(&names);
            assert!(slots.len() >= 2 * n && slots.len().is_power_of_two());
            for (position, name) in names.iter().enumerate() {
                assert_eq!(find(&slots, &names, name), Some(position), "{name}");
            }
            for absent in ["", "tool_", "tool_9999", "Tool_0000", "tool_0000 "] {
                assert_eq!(find(&slots, &names, absent), None, "{absent:?}");
            }
        }
    }

    #[test]
    fn sequential_names_mostly_land_in_their_own_slot() {
        let owned = names(1000);
        let names: Vec<&str> = owned.iter().map(String::as_str).collect();
        let slots = build(&names);
        let displaced = names
            .iter()
            .enumerate()
            .filter(|(position, name)| slots[home(name, slots.len())] as usize != position + 1)
            .count();
        // Uniform hashing at a load of about one half displaces about a
        // quarter of the names; clustering would displace far more.
        assert!(displaced < 350, "{displaced} of 1000 names were displaced");
    }

    #[test]
    fn an_index_that_does_not_match_its_names_finds_nothing_and_does_not_loop() {
        assert_eq!(find(&[], &[], "a"), None);
        assert_eq!(find(&[5, 5], &["a"], "a"), None);
        assert_eq!(find(&[1, 1], &["b"], "a"), None);
    }
}
