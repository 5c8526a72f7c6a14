//! The engine against OpenZFS's own code: the pools of crates/space/oracle/pools.txt as the
//! oracle (scripts/openzfs-oracle.sh, libzpool of a release) reports them. Shared by the test
//! of the recorded outputs and the live test.

use model::units::MIB;
use model::{Layout, Leaf, Pool, TopLevel, VdevClass, ZfsRelease};
use serde_json::Value;
use zpoolsim_space::{pool_capacity, pool_groups, Capacity, Profile};

/// The oracle's input: one pool per line.
pub(crate) const POOLS: &str = include_str!("../../oracle/pools.txt");

/// The recorded outputs (`scripts/openzfs-oracle.sh record`).
const RECORDED: &str = include_str!("../data/openzfs_oracle.json");

/// How much less USED OpenZFS's empty pool holds than the engine charges for its own
/// metadata (`release::EMPTY_POOL_APPROX`: 100 one-KiB blocks, larger than what libzpool's pools
/// hold, which lack the root file system's objects that `zpool create` adds through the kernel,
/// and the pool history). Over every recorded pool and release (2.1.11 to 2.4.4) the engine
/// charges 7.5 KiB to 2.56 MiB (2,682,056 B, the 36-disk dRAID) more.
pub(crate) const USED_BELOW: u64 = 3 * MIB;

/// The recorded outputs, release by release, in the order recorded.
pub(crate) fn recorded() -> Vec<(String, Vec<Value>)> {
    let all: Value = serde_json::from_str(RECORDED).expect("openzfs_oracle.json parses");
    all["releases"]
        .as_object()
        .expect("releases")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_array().expect("pools").clone()))
        .collect()
}

/// The pool lines of `POOLS`, comments and blank lines left out.
pub(crate) fn pool_lines() -> Vec<&'static str> {
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
pub(crate) fn pool_of(line: &str) -> Pool {
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

pub(crate) fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

/// The engine's rules for an oracle release ("2.1.11").
pub(crate) fn profile(release: &str) -> Profile {
    Profile::of(release.parse::<ZfsRelease>().expect("a release"))
}

/// AVAIL + USED, which OpenZFS keeps equal to dspace - slop - deferred frees
/// (dsl_dir_space_available of the root, dsl_pool_adjustedsize), exactly; the USED within it,
/// which moves from run to run, within `USED_BELOW` under and `used_above` over the engine's.
fn used_bounds(d: &mut Diffs, cap: &Capacity, record: &Value, used_above: u64) {
    let (avail, used, deferred) = (u(record, "avail"), u(record, "used"), u(record, "deferred"));
    let dspace = u(record, "dspace");
    d.same(
        "OpenZFS's AVAIL + USED + deferred frees against its dspace - slop",
        avail + used + deferred,
        dspace - u(record, "slop"),
    );
    let special = dspace - u(record, "normal_dspace");
    d.same(
        "AVAIL + USED",
        cap.avail_bytes + cap.empty_pool_used_bytes,
        avail + used + deferred - special,
    );
    let ours = cap.empty_pool_used_bytes;
    if used + USED_BELOW < ours || used > ours + used_above {
        let (release, line) = (d.release, d.line);
        d.out.push(format!(
            "{release} {line}: USED {ours}, OpenZFS {used} (AVAIL {}, OpenZFS {avail}): not from {USED_BELOW} below to {used_above} above",
            cap.avail_bytes
        ));
    }
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
/// slop, AVAIL + USED and every vdev's class, asize, ashift, metaslabs, embedded log and
/// deflate ratio agree exactly, and OpenZFS's USED is at most `USED_BELOW` below what the
/// engine charges and at most `used_above` above. OpenZFS 2.4 adds what the special class
/// holds to dspace (spa_update_dspace); the engine's dspace is the normal class's
/// (`normal_dspace`).
pub(crate) fn differences(release: &str, record: &Value, used_above: u64) -> Vec<String> {
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
    used_bounds(&mut d, &cap, record, used_above);
    d.out
}
