//! `capacity --expand`: the steps of a raidz expansion as a person writes them,
//! `"raidz1-4 -> raidz1-5 at 70%"`, into the space engine's growth.

use crate::Error;
use model::units::parse_size;
use model::{Layout, Pool, VdevClass, VdevGroup, VdevType};
use space::{Fill, Growth};

/// Steps one request may take: a raidz vdev of up to 255 disks grown one at a time is well
/// within it.
pub(crate) const MAX_STEPS: usize = 256;

/// The growth of `steps`, each `[FROM ->] TO [at FILL]`: the pool's normal raidz group
/// (FROM, if given, must be what the pool is at that step) widened to TO once it holds FILL, a
/// share of SIZE allocated as `zpool list` CAP shows it (`70%`) or the data written by then
/// (`20TB`), in records of `recordsize`.
pub(crate) fn growth(steps: &[String], pool: &Pool, recordsize: u64) -> Result<Vec<Growth>, Error> {
    if steps.len() > MAX_STEPS {
        return Err(Error(format!(
            "--expand: {} steps, at most {MAX_STEPS}",
            steps.len()
        )));
    }
    let mut now = normal_group(pool)?;
    let mut out = Vec::new();
    for text in steps {
        let err = |why: String| Error(format!("--expand '{}': {why}", model::input::echo(text)));
        let (layouts, fill) = match text.split_once(" at ") {
            Some((l, f)) => (l, Some(fill_of(f).map_err(err)?)),
            None => (text.as_str(), None),
        };
        let (from, to) = match layouts.split_once("->") {
            Some((f, t)) => (Some(group_of(f).map_err(err)?), group_of(t).map_err(err)?),
            None => (None, group_of(layouts).map_err(err)?),
        };
        if let Some(from) = from.filter(|f| *f != now) {
            return Err(err(format!("the pool is {now} at this step, not {from}")));
        }
        if to.vtype != now.vtype || to.count != now.count || to.children <= now.children {
            let wider = VdevGroup {
                children: now.children + 1,
                ..now
            };
            return Err(err(format!(
                "zpool attach widens {now} one disk per vdev at a time: expected {wider} or wider"
            )));
        }
        if let Some(fill) = fill {
            out.push(Growth::Fill { fill, recordsize });
        }
        out.push(Growth::Widen { width: to.children });
        now = to;
    }
    Ok(out)
}

/// The one normal group of the pool, which must be raidz.
fn normal_group(pool: &Pool) -> Result<VdevGroup, Error> {
    let groups: Vec<&VdevGroup> = pool
        .vdevs
        .iter()
        .filter(|t| t.class == VdevClass::Normal)
        .flat_map(|t| &t.layout.groups)
        .collect();
    match groups[..] {
        [g] if matches!(g.vtype, VdevType::Raidz { .. }) => Ok(*g),
        _ => Err(Error(
            "--expand: zpool attach widens raidz vdevs: the pool's data must be one group of \
             raidz vdevs (raidz1-4, 2x raidz2-6)"
                .into(),
        )),
    }
}

fn group_of(text: &str) -> Result<VdevGroup, String> {
    let layout: Layout = text.trim().parse().map_err(|e| format!("{e}"))?;
    match layout.groups[..] {
        [g] => Ok(g),
        _ => Err(format!("'{}' is more than one group", text.trim())),
    }
}

/// `70%` (zpool list CAP) or a size of data (`20TB`).
fn fill_of(text: &str) -> Result<Fill, String> {
    let text = text.trim();
    if let Some(number) = text.strip_suffix('%') {
        return number
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|p| (0.0..100.0).contains(p))
            .map(|p| Fill::Capacity(p / 100.0))
            .ok_or_else(|| {
                format!(
                    "fill '{}': expected a share from 0% to below 100%",
                    model::input::echo(text)
                )
            });
    }
    parse_size(text)
        .map(Fill::Data)
        .map_err(|e| format!("fill: {e} (or a share of the pool like 70%)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::Leaf;

    fn pool(layout: &str) -> Pool {
        let leaf = Leaf {
            capacity_bytes: 4_000_000_000_000,
            logical_sector: 512,
            whole_disk: true,
        };
        Pool::simple(layout.parse().unwrap(), leaf, 12)
    }

    fn steps(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn steps_with_and_without_fill() {
        let g = growth(
            &steps(&[
                "raidz1-4 -> raidz1-5 at 70%",
                "raidz1-6",
                "raidz1-8 at 20TB",
            ]),
            &pool("raidz1-4"),
            1 << 17,
        )
        .unwrap();
        let fill = |fill| Growth::Fill {
            fill,
            recordsize: 1 << 17,
        };
        assert_eq!(
            g,
            [
                fill(Fill::Capacity(0.7)),
                Growth::Widen { width: 5 },
                Growth::Widen { width: 6 },
                fill(Fill::Data(20_000_000_000_000)),
                Growth::Widen { width: 8 },
            ]
        );
    }

    #[test]
    fn refusals_name_the_step() {
        let p = pool("raidz1-4");
        let e = |list: &[&str], p: &Pool| growth(&steps(list), p, 1 << 17).unwrap_err().0;
        assert_eq!(
            e(&["raidz1-5 -> raidz1-6"], &p),
            "--expand 'raidz1-5 -> raidz1-6': the pool is raidz1-4 at this step, not raidz1-5"
        );
        assert_eq!(
            e(&["raidz2-5"], &p),
            "--expand 'raidz2-5': zpool attach widens raidz1-4 one disk per vdev at a time: \
             expected raidz1-5 or wider"
        );
        assert!(e(&["raidz1-4"], &p).contains("expected raidz1-5 or wider"));
        assert!(e(&["raidz1-5 at 100%"], &p).contains("below 100%"));
        // The user's text comes back on one line, whatever it held.
        let odd = e(&["raidz1-5 at 1\n0%"], &p);
        assert!(!odd.contains('\n'), "{odd}");
        assert!(e(&["raidz1-5"], &pool("mirror-2")).contains("raidz vdevs"));
        let two = pool("2x raidz1-4");
        assert!(e(&["raidz1-5"], &two).contains("expected 2x raidz1-5 or wider"));
        assert!(growth(&steps(&["2x raidz1-5"]), &two, 1 << 17).is_ok());
    }
}
