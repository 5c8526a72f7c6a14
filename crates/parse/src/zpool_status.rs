//! `zpool status -P`: each pool's vdev tree. The config section is a tree by indentation: the
//! pool, its top-level vdevs and their leaves, then the class headings (`special`, `dedup`,
//! `logs`, `cache`, `spares`) at the pool's depth with their vdevs below.

use serde::Serialize;

/// What a top-level vdev serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Under the pool itself: data.
    Normal,
    /// Under `special`.
    Special,
    /// Under `dedup`.
    Dedup,
    /// Under `logs`: a separate intent log.
    Log,
    /// Under `cache`: L2ARC.
    Cache,
    /// Under `spares`: a hot spare.
    Spare,
}

/// A top-level vdev: its name as zpool prints it (`raidz2-0`, `draid2:8d:24c:1s-0`,
/// `mirror-1`, or a leaf's path for a single disk) and its leaves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Vdev {
    /// The class heading it sits under.
    pub class: Class,
    /// Its name as zpool prints it.
    pub name: String,
    /// Its leaves' paths; empty for a single-disk vdev.
    pub leaves: Vec<String>,
}

impl Vdev {
    /// The vdev's type as the model writes it: `mirror`, `raidz1`, `draid2:8d:24c:1s`, or
    /// `disk` for a single leaf.
    pub fn kind(&self) -> String {
        let (head, _) = self.name.rsplit_once('-').unwrap_or((&self.name, ""));
        let known = head == "mirror" || head.starts_with("raidz") || head.starts_with("draid");
        match (known, self.leaves.is_empty()) {
            (true, false) if head == "raidz" => "raidz1".into(),
            (true, false) => head.to_string(),
            _ => "disk".into(),
        }
    }
}

/// One pool's `zpool status -P` section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolStatus {
    /// The pool's name.
    pub name: String,
    /// Its state (`ONLINE`, `DEGRADED`).
    pub state: String,
    /// Its top-level vdevs, each class's in the order printed.
    pub vdevs: Vec<Vdev>,
}

impl PoolStatus {
    /// Every leaf in the order the model fills a pool: normal, special, dedup, log, spares,
    /// cache.
    pub fn leaves_in_fill_order(&self) -> Vec<(&Vdev, &str)> {
        let order = [
            Class::Normal,
            Class::Special,
            Class::Dedup,
            Class::Log,
            Class::Spare,
            Class::Cache,
        ];
        order
            .iter()
            .flat_map(|c| self.vdevs.iter().filter(move |v| v.class == *c))
            .flat_map(|v| {
                let own: Vec<&str> = if v.leaves.is_empty() {
                    vec![v.name.as_str()]
                } else {
                    v.leaves.iter().map(String::as_str).collect()
                };
                own.into_iter().map(move |l| (v, l))
            })
            .collect()
    }
}

/// Reads every pool of the output.
pub fn parse(text: &str) -> Vec<PoolStatus> {
    let mut pools = Vec::new();
    let mut current: Option<PoolStatus> = None;
    let mut in_config = false;
    let mut base = 0;
    let mut class = Class::Normal;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix("pool: ") {
            pools.extend(current.take());
            current = Some(PoolStatus {
                name: name.trim().to_string(),
                state: String::new(),
                vdevs: Vec::new(),
            });
            in_config = false;
            continue;
        }
        let Some(pool) = current.as_mut() else {
            continue;
        };
        if let Some(state) = trimmed.strip_prefix("state: ") {
            pool.state = state.trim().to_string();
        } else if trimmed == "config:" {
            in_config = true;
        } else if trimmed.starts_with("errors:") {
            in_config = false;
        } else if in_config && !trimmed.is_empty() {
            let depth = line.len() - line.trim_start().len();
            let name = trimmed.split_whitespace().next().unwrap_or("");
            if name == "NAME" {
                continue;
            } else if name == pool.name {
                base = depth;
                class = Class::Normal;
            } else if depth == base {
                class = heading(name).unwrap_or(class);
            } else if class == Class::Spare && name.starts_with("draid") {
                // A dRAID's distributed spare: part of its vdev's layout, not a disk.
            } else if depth <= base + 2 {
                pool.vdevs.push(Vdev {
                    class,
                    name: name.to_string(),
                    leaves: Vec::new(),
                });
            } else if let Some(v) = pool.vdevs.last_mut() {
                // Leaves, or the members of a replacing-/spare- group below a vdev.
                if !name.starts_with("replacing-") && !name.starts_with("spare-") {
                    v.leaves.push(name.to_string());
                }
            }
        }
    }
    pools.extend(current);
    pools
}

fn heading(word: &str) -> Option<Class> {
    Some(match word {
        "special" => Class::Special,
        "dedup" => Class::Dedup,
        "logs" => Class::Log,
        "cache" => Class::Cache,
        "spares" => Class::Spare,
        _ => return None,
    })
}
