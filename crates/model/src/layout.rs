//! Pool layout strings, the vocabulary of `zpool create`:
//! `stripe-N`, `mirror-N`, `raidz1-N`, `raidz2-N`, `raidz3-N`, `draid<p>[:<d>d][:<c>c][:<s>s]`,
//! a count prefix `Kx` and `+` between groups: `2x raidz2-6 + mirror-2`.

use crate::input::echo;
use std::fmt;

/// Largest raidz and dRAID parity (include/sys/vdev_raidz.h VDEV_RAIDZ_MAXPARITY,
/// include/sys/vdev_draid.h VDEV_DRAID_MAXPARITY).
pub const MAX_PARITY: u32 = 3;
/// dRAID child limit (include/sys/vdev_draid.h VDEV_DRAID_MAX_CHILDREN).
pub const DRAID_MAX_CHILDREN: u32 = 255;
/// dRAID distributed spare limit (include/sys/vdev_draid.h VDEV_DRAID_MAX_SPARES).
pub const DRAID_MAX_SPARES: u32 = 100;
/// Default dRAID data width when none is given (cmd/zpool/zpool_vdev.c draid_config_by_type).
pub const DRAID_DEFAULT_DATA: u32 = 8;
/// The most leaves a layout may have: a bound of this model (not of ZFS), a hundred times the
/// largest pools built, so that counts stay exact in 32 bits wherever they are summed.
pub const MAX_LEAVES: u32 = 100_000;

/// The kind of one top-level vdev.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VdevType {
    /// A single leaf used directly as a top-level vdev (no redundancy).
    Disk,
    /// An n-way mirror: every leaf holds a copy.
    Mirror,
    /// raidz1/2/3: each block striped over the children with its own parity.
    Raidz {
        /// Parity columns, 1 to 3.
        parity: u32,
    },
    /// dRAID: fixed-width redundancy groups and spare space spread over all children.
    Draid {
        /// Parity columns of each group, 1 to 3.
        parity: u32,
        /// Data columns of each group.
        data: u32,
        /// Distributed spares: their space is set aside on every child.
        spares: u32,
    },
}

impl VdevType {
    /// Leaf failures the vdev survives.
    pub fn parity(&self) -> u32 {
        match *self {
            VdevType::Disk => 0,
            VdevType::Mirror => 0, // depends on width: see VdevGroup::redundancy
            VdevType::Raidz { parity } | VdevType::Draid { parity, .. } => parity,
        }
    }
}

/// `count` identical top-level vdevs of `children` leaves each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VdevGroup {
    /// How many vdevs.
    pub count: u32,
    /// The kind of each.
    pub vtype: VdevType,
    /// Leaves of each vdev.
    pub children: u32,
}

impl VdevGroup {
    /// Leaf failures one vdev of this group survives.
    pub fn redundancy(&self) -> u32 {
        match self.vtype {
            VdevType::Mirror => self.children - 1,
            other => other.parity(),
        }
    }

    /// Leaves in the whole group.
    pub fn leaves(&self) -> u32 {
        self.count * self.children
    }

    /// Data leaves per vdev for a full stripe: the share of a wide write that is not redundancy.
    pub fn data_children(&self) -> u32 {
        match self.vtype {
            VdevType::Disk | VdevType::Mirror => 1,
            VdevType::Raidz { parity } => self.children - parity,
            VdevType::Draid { data, .. } => data,
        }
    }
}

impl fmt::Display for VdevGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let VdevType::Disk = self.vtype {
            return write!(f, "stripe-{}", self.count);
        }
        if self.count > 1 {
            write!(f, "{}x ", self.count)?;
        }
        match self.vtype {
            VdevType::Disk => unreachable!("handled above"),
            VdevType::Mirror => write!(f, "mirror-{}", self.children),
            VdevType::Raidz { parity } => write!(f, "raidz{parity}-{}", self.children),
            VdevType::Draid {
                parity,
                data,
                spares,
            } => write!(f, "draid{parity}:{data}d:{}c:{spares}s", self.children),
        }
    }
}

/// A whole pool layout: one or more groups of top-level vdevs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The groups, in the order written.
    pub groups: Vec<VdevGroup>,
}

impl Layout {
    /// All leaves the layout uses (dRAID distributed spares are inside their children).
    pub fn leaves(&self) -> u32 {
        self.groups.iter().map(VdevGroup::leaves).sum()
    }

    /// Top-level vdevs.
    pub fn top_level_vdevs(&self) -> u32 {
        self.groups.iter().map(|g| g.count).sum()
    }

    /// Leaf failures the weakest vdev survives.
    pub fn redundancy(&self) -> u32 {
        self.groups
            .iter()
            .map(VdevGroup::redundancy)
            .min()
            .unwrap_or(0)
    }

    /// Legal but poor choices, each a sentence saying why (ashift-dependent padding waste is
    /// the space engine's to report).
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for g in &self.groups {
            if let VdevType::Raidz { parity } = g.vtype {
                if g.children == parity + 1 {
                    out.push(format!(
                        "{g}: a raidz{parity} of {} disks stores one copy of data and {parity} of parity; a mirror-{} gives the same space and redundancy with faster reads and resilvers",
                        g.children, g.children
                    ));
                }
            }
        }
        let kinds: std::collections::BTreeSet<u32> =
            self.groups.iter().map(VdevGroup::redundancy).collect();
        if kinds.len() > 1 {
            out.push(format!(
                "groups have different redundancy ({}); the pool is only as safe as its weakest vdev",
                kinds
                    .iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(" vs ")
            ));
        }
        out
    }
}

impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.groups.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{g}")?;
        }
        Ok(())
    }
}

/// Why a layout string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    /// The layout as written.
    pub input: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad layout '{}': {}", echo(&self.input), self.reason)
    }
}

impl std::error::Error for LayoutError {}

const GRAMMAR: &str = "expected stripe-N, mirror-N, raidz1-N, raidz2-N, raidz3-N or draid<p>:<d>d:<c>c:<s>s, optionally prefixed by a count 'Kx' and joined with '+'";

impl std::str::FromStr for Layout {
    type Err = LayoutError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| LayoutError {
            input: input.to_string(),
            reason,
        };
        let mut groups = Vec::new();
        let mut leaves: u64 = 0;
        for part in input.split('+') {
            let group = parse_group(part.trim()).map_err(err)?;
            leaves += u64::from(group.count) * u64::from(group.children);
            if leaves > u64::from(MAX_LEAVES) {
                return Err(err(format!(
                    "more than {MAX_LEAVES} disks in one pool is beyond what zpoolsim models"
                )));
            }
            groups.push(group);
        }
        Ok(Layout { groups })
    }
}

fn parse_count(text: &str, what: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err(format!("{what} must be at least 1")),
        Ok(n) if n <= MAX_LEAVES => Ok(n),
        Ok(_) => Err(format!("{what} '{}' is too large", echo(text))),
        Err(_) => Err(format!(
            "{what} '{}' is not a whole number; {GRAMMAR}",
            echo(text)
        )),
    }
}

fn parse_group(text: &str) -> Result<VdevGroup, String> {
    if text.is_empty() {
        return Err(format!("empty group; {GRAMMAR}"));
    }
    let (count, body) = match text.split_once(['x', 'X']) {
        Some((k, rest)) if !k.is_empty() && k.trim().chars().all(|c| c.is_ascii_digit()) => {
            (parse_count(k.trim(), "the vdev count")?, rest.trim())
        }
        _ => (1, text),
    };
    let lower = body.to_ascii_lowercase();
    if let Some(spec) = lower.strip_prefix("draid") {
        return parse_draid(spec).map(|(vtype, children)| VdevGroup {
            count,
            vtype,
            children,
        });
    }
    let (word, width) = lower
        .split_once('-')
        .ok_or_else(|| format!("'{}' has no width; {GRAMMAR}", echo(body)))?;
    let width = parse_count(width, "the width")?;
    let vtype = match word {
        "stripe" => {
            return Ok(VdevGroup {
                count: count.saturating_mul(width),
                vtype: VdevType::Disk,
                children: 1,
            })
        }
        "mirror" => VdevType::Mirror,
        "raidz" | "raidz1" => VdevType::Raidz { parity: 1 },
        "raidz2" => VdevType::Raidz { parity: 2 },
        "raidz3" => VdevType::Raidz { parity: 3 },
        w if w.starts_with("raidz") => {
            return Err(format!(
                "'{}': raidz parity is 1, 2 or 3 (OpenZFS has no higher parity)",
                echo(w)
            ))
        }
        other => return Err(format!("unknown vdev type '{}'; {GRAMMAR}", echo(other))),
    };
    match vtype {
        VdevType::Mirror if width < 2 => Err(
            "a mirror needs at least 2 disks (zpool create: mirror requires at least 2 devices); use stripe-1 for one disk"
                .to_string(),
        ),
        VdevType::Raidz { parity } if width < parity + 1 => Err(format!(
            "raidz{parity} needs at least {} disks (zpool create refuses fewer than parity + 1)",
            parity + 1
        )),
        _ => Ok(VdevGroup {
            count,
            vtype,
            children: width,
        }),
    }
}

/// Parses what follows `draid`: `<p>[:<d>d][:<c>c][:<s>s]`. The children count is required
/// here since a layout string names no devices.
fn parse_draid(spec: &str) -> Result<(VdevType, u32), String> {
    let mut fields = spec.split(':');
    let parity = draid_parity(fields.next().unwrap_or(""))?;
    let DraidFields {
        data,
        children,
        spares,
    } = draid_fields(fields)?;
    let children = children.ok_or("draid needs its number of children, as in draid2:8d:24c:2s")?;
    let spares = spares.unwrap_or(0);
    if children > DRAID_MAX_CHILDREN {
        return Err(format!(
            "draid allows at most {DRAID_MAX_CHILDREN} children, not {children}"
        ));
    }
    if spares > DRAID_MAX_SPARES {
        return Err(format!(
            "draid allows at most {DRAID_MAX_SPARES} distributed spares, not {spares}"
        ));
    }
    let data = draid_data(parity, data, children, spares)?;
    Ok((
        VdevType::Draid {
            parity,
            data,
            spares,
        },
        children,
    ))
}

/// The parity level before the first `:`, 1 when empty (`draid` alone is draid1).
fn draid_parity(text: &str) -> Result<u32, String> {
    let parity = if text.is_empty() {
        1
    } else {
        text.parse::<u32>()
            .map_err(|_| format!("draid parity '{}' is not a number; {GRAMMAR}", echo(text)))?
    };
    if !(1..=MAX_PARITY).contains(&parity) {
        return Err(format!("draid parity must be 1, 2 or 3, not {parity}"));
    }
    Ok(parity)
}

/// The optional fields of a dRAID spec, as given.
#[derive(Default)]
struct DraidFields {
    data: Option<u32>,
    children: Option<u32>,
    spares: Option<u32>,
}

/// The `Nd`, `Nc` and `Ns` fields, in any order, each at most once.
fn draid_fields<'a>(fields: impl Iterator<Item = &'a str>) -> Result<DraidFields, String> {
    let mut given = DraidFields::default();
    for field in fields {
        let (num, slot) = match field.chars().last() {
            Some('d') => (&field[..field.len() - 1], &mut given.data),
            Some('c') => (&field[..field.len() - 1], &mut given.children),
            Some('s') => (&field[..field.len() - 1], &mut given.spares),
            _ => {
                return Err(format!(
                    "draid field '{}' must end in d (data), c (children) or s (spares)",
                    echo(field)
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("draid field '{}' given twice", echo(field)));
        }
        *slot = Some(
            num.parse::<u32>()
                .map_err(|_| format!("draid field '{}' is not a number", echo(field)))?,
        );
    }
    Ok(given)
}

/// Data disks per redundancy group, as zpool_vdev.c's draid_config_by_type settles them: when
/// not given, 8 or what the children leave after spares and parity if fewer; given or not,
/// at least 1 and with its parity within the children that are not spares.
fn draid_data(parity: u32, data: Option<u32>, children: u32, spares: u32) -> Result<u32, String> {
    // Spares and parity take whole children before any data: without one child left over
    // there is no redundancy group at all.
    let room = children
        .checked_sub(spares + parity)
        .filter(|&r| r >= 1)
        .ok_or_else(|| {
            format!(
                "draid{parity} with {spares} spares needs more than {} children, not {children}",
                spares + parity
            )
        })?;
    let data = data.unwrap_or(DRAID_DEFAULT_DATA.min(room));
    if data == 0 {
        return Err("draid needs at least 1 data disk per redundancy group".to_string());
    }
    if data > room {
        return Err(format!(
            "draid{parity}:{data}d needs {} children plus {spares} spares, but has {children}",
            data + parity
        ));
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Layout {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_every_word() {
        let l = parse("3x raidz1-5");
        assert_eq!(
            l.groups,
            vec![VdevGroup {
                count: 3,
                vtype: VdevType::Raidz { parity: 1 },
                children: 5
            }]
        );
        assert_eq!(l.leaves(), 15);
        let l = parse("stripe-7");
        assert_eq!(l.top_level_vdevs(), 7);
        assert_eq!(l.leaves(), 7);
        let l = parse("2x raidz2-6 + mirror-2");
        assert_eq!(l.top_level_vdevs(), 3);
        assert_eq!(l.leaves(), 14);
        assert_eq!(l.redundancy(), 1);
        let l = parse("draid2:8d:24c:2s");
        assert_eq!(
            l.groups[0].vtype,
            VdevType::Draid {
                parity: 2,
                data: 8,
                spares: 2
            }
        );
        assert_eq!(l.groups[0].children, 24);
        assert_eq!(
            parse("draid1:10c").groups[0].vtype,
            VdevType::Draid {
                parity: 1,
                data: 8,
                spares: 0
            }
        );
        assert_eq!(
            parse("draid3:6c").groups[0].vtype,
            VdevType::Draid {
                parity: 3,
                data: 3,
                spares: 0
            }
        );
        assert_eq!(parse("7x MIRROR-2").to_string(), "7x mirror-2");
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "stripe-7",
            "3x raidz1-5",
            "2x raidz2-6 + mirror-2",
            "draid2:8d:24c:2s",
            "raidz3-11",
        ] {
            assert_eq!(parse(s).to_string(), s);
            assert_eq!(parse(&parse(s).to_string()), parse(s));
        }
    }

    #[test]
    fn refuses_what_zpool_refuses() {
        for (bad, why) in [
            ("raidz3-3", "at least 4"),
            ("mirror-1", "at least 2"),
            ("raidz4-8", "parity"),
            ("raid5-4", "unknown vdev type"),
            ("raidz1", "no width"),
            ("0x mirror-2", "at least 1"),
            ("draid2:8d:9c", "needs 10 children"),
            ("draid2:8d", "number of children"),
            ("draid4:20c", "1, 2 or 3"),
            ("draid1:300c", "at most 255"),
            ("mirror-2 +", "empty group"),
            ("raidz1--5", "not a whole number"),
            ("100000x stripe-100000", "beyond what zpoolsim models"),
            (
                "99996X raidz-91621+6X raidz-9",
                "beyond what zpoolsim models",
            ),
            ("50000x mirror-2 + stripe-1", "beyond what zpoolsim models"),
        ] {
            let e = bad.parse::<Layout>().unwrap_err();
            assert!(e.reason.contains(why), "{bad}: {}", e.reason);
        }
    }

    #[test]
    fn warns_on_poor_choices() {
        assert!(parse("raidz1-2").warnings()[0].contains("mirror-2"));
        assert!(parse("raidz2-6 + stripe-1").warnings()[0].contains("weakest"));
        assert!(parse("3x raidz2-6").warnings().is_empty());
    }
}
