//! The engine against OpenZFS's own code: the pools of crates/space/oracle/pools.txt as the
//! oracle (scripts/openzfs-oracle.sh, libzpool of a release) reports them. Shared by the test
//! of the recorded outputs and the live test.

use model::units::{KIB, MIB};
use model::{Layout, Leaf, Pool, TopLevel, VdevClass, ZfsRelease};
use serde_json::Value;
use zpoolsim_space::{pool_capacity, pool_groups, Profile};

/// The oracle's input: one pool per line.
pub const POOLS: &str = include_str!("../../oracle/pools.txt");

/// The recorded outputs (`scripts/openzfs-oracle.sh record`).
const RECORDED: &str = include_str!("../data/openzfs_oracle.json");

/// How much more AVAIL OpenZFS shows than the engine: the empty pool's own metadata is an
/// approximation (`profile::EMPTY_POOL_APPROX`: 100 one-KiB blocks), larger than what
/// libzpool's pools hold (they lack the root file system's objects that `zpool create` adds
/// through the kernel, and the pool history). Measured over every recorded pool and release
/// (2.1.11 to 2.4.4): the engine is 7.5 KiB to 2.56 MiB (2,682,056 B, the 36-disk dRAID) below,
/// never above. SIZE, dspace and slop are exact.
pub const AVAIL_BOUND: u64 = 3 * MIB;

/// How much less AVAIL a live run may show than the engine: the same pool's USED moves
/// between runs, by 1.5 KiB on one disk and up to 128 KiB on a raidz3-14 of 24 TB, as txgs
/// carry more or less space map and history. The oracle syncs until USED stops moving
/// (oracle.c `settle`): a CI run that read after a fixed three rounds once saw 536 KiB more.
pub const AVAIL_SLACK: u64 = 128 * KIB;

/// The recorded outputs, release by release, in the order recorded.
pub fn recorded() -> Vec<(String, Vec<Value>)> {
    let all: Value = serde_json::from_str(RECORDED).expect("openzfs_oracle.json parses");
    all["releases"]
        .as_object()
        .expect("releases")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_array().expect("pools").clone()))
        .collect()
}

/// The pool lines of `POOLS`, comments and blank lines left out.
pub fn pool_lines() -> Vec<&'static str> {
    POOLS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn class_of(name: &str) -> VdevClass {
    match name {
        "normal" => VdevClass::Normal,
        "special" => VdevClass::Special,
        "dedup" => VdevClass::Dedup,
        "log" => VdevClass::Log,
        other => panic!("unknown class {other}"),
    }
}

/// The model pool of one line `NAME ASHIFT CLASS/LAYOUT/BYTES...`: one top-level vdev of file
/// leaves per token, in order.
pub fn pool_of(line: &str) -> Pool {
    let mut words = line.split_whitespace();
    let name = words.next().expect("a name");
    let ashift: u8 = words.next().and_then(|a| a.parse().ok()).expect("ashift");
    let vdevs: Vec<TopLevel> = words
        .map(|token| {
            let parts: Vec<&str> = token.split('/').collect();
            let [class, layout, bytes] = parts[..] else {
                panic!("bad vdev {token}");
            };
            TopLevel {
                class: class_of(class),
                layout: layout.parse::<Layout>().expect("a layout"),
                leaf: Leaf {
                    capacity_bytes: bytes.parse().expect("bytes"),
                    logical_sector: 512,
                    whole_disk: false,
                },
            }
        })
        .collect();
    let first = vdevs.first().expect("a vdev");
    let mut pool = Pool::simple(first.layout.clone(), first.leaf, ashift);
    pool.name = name.to_string();
    pool.vdevs = vdevs;
    pool
}

pub fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

/// The engine's rules for an oracle release ("2.1.11").
pub fn profile(release: &str) -> Profile {
    Profile::of(release.parse::<ZfsRelease>().expect("a release"))
}

/// The differences found in one record.
struct Diffs<'a> {
    release: &'a str,
    line: &'a str,
    out: Vec<String>,
}

impl Diffs<'_> {
    fn same(&mut self, what: &str, ours: u64, theirs: u64) {
        if ours != theirs {
            let (release, line) = (self.release, self.line);
            self.out
                .push(format!("{release} {line}: {what} {ours}, OpenZFS {theirs}"));
        }
    }
}

/// Every way the engine differs from one oracle record of `release`; empty when SIZE, dspace,
/// slop and every vdev's class, asize, ashift, metaslabs, embedded log and deflate ratio agree
/// exactly and AVAIL is at most `AVAIL_BOUND` below OpenZFS's (or `AVAIL_SLACK` above). OpenZFS 2.4 adds what the special class holds to
/// dspace (spa_update_dspace); the engine's dspace is the normal class's (`normal_dspace`).
pub fn differences(release: &str, record: &Value) -> Vec<String> {
    let line = record["pool"].as_str().expect("the pool line");
    let pool = pool_of(line);
    let profile = profile(release);
    let cap = match (pool_capacity(&pool, &profile), record.get("error")) {
        (Err(_), Some(_)) => return Vec::new(),
        (Ok(_), Some(e)) => return vec![format!("{release} {line}: OpenZFS refuses it ({e})")],
        (Err(e), None) => return vec![format!("{release} {line}: the engine refuses it: {e}")],
        (Ok(cap), None) => cap,
    };
    let mut d = Diffs {
        release,
        line,
        out: Vec::new(),
    };
    d.same("SIZE", cap.size_bytes, u(record, "size"));
    d.same("dspace", cap.dspace_bytes, u(record, "normal_dspace"));
    d.same("slop", cap.slop_bytes, u(record, "slop"));
    let groups = pool_groups(&pool, &profile).expect("groups as capacity");
    let normal_elog = groups
        .iter()
        .filter(|g| g.is_normal())
        .map(|g| g.embedded_log_dspace)
        .sum();
    d.same(
        "embedded log",
        normal_elog,
        u(record, "embedded_log_dspace"),
    );
    let vdevs = record["vdevs"].as_array().expect("vdevs");
    d.same("vdevs", groups.len() as u64, vdevs.len() as u64);
    for (i, (g, v)) in groups.iter().zip(vdevs).enumerate() {
        let at = |what: &str| format!("vdev {i} {what}");
        d.same(&at("asize"), g.vdev_asize, u(v, "asize"));
        d.same(&at("ashift"), u64::from(pool.ashift), u(v, "ashift"));
        d.same(
            &at("metaslab shift"),
            u64::from(g.metaslab_shift),
            u(v, "ms_shift"),
        );
        d.same(&at("metaslab count"), g.metaslab_count, u(v, "ms_count"));
        d.same(&at("metaslab space"), g.metaslab_space, u(v, "ms_space"));
        d.same(
            &at("embedded log"),
            g.embedded_log_metaslabs,
            u(v, "embedded_log_ms"),
        );
        d.same(&at("deflate ratio"), g.deflate_ratio, u(v, "deflate_ratio"));
        if class_of(v["class"].as_str().expect("a class")) != g.class {
            d.out
                .push(format!("{release} {line}: vdev {i} class {}", v["class"]));
        }
    }
    let avail = u(record, "avail");
    if cap.avail_bytes > avail + AVAIL_SLACK || avail > cap.avail_bytes + AVAIL_BOUND {
        d.out.push(format!(
            "{release} {line}: AVAIL {}, OpenZFS {avail} (USED {}, deferred {}): not from {AVAIL_SLACK} above to {AVAIL_BOUND} below",
            cap.avail_bytes,
            u(record, "used"),
            u(record, "deferred")
        ));
    }
    d.out
}
