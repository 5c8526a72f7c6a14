//! `zpool list -v -H -p POOL`: the size of every vdev and leaf. Scripted mode drops the tree's
//! indentation, so what is kept is each row's name and SIZE (a leaf's is its device's usable
//! size, which lsblk does not know for a partition or a file).

use std::collections::BTreeMap;

/// Name -> SIZE in bytes, for the rows that give one (`-` is none). Reads the scripted form
/// (tabs) and the aligned form with a header (`zpool list -v -p`).
pub fn sizes(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let name = fields.next()?;
            let size = fields.next()?.parse::<u64>().ok()?;
            Some((name.to_string(), size))
        })
        .collect()
}

/// The pool names of `zpool list -H -o name`.
pub fn names(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}
