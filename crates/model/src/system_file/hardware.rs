//! The machine part of a system file: host, links, controllers and disks, with catalog ids
//! resolved and every reference checked.

use super::doc::{ControllerDoc, DiskDoc, HostDoc, LinkRefDoc, TunablesDoc};
use super::error::{FileError, Source};
use super::implied;
use crate::catalog::{
    check_controller, check_cpu, check_link_kind, disk_from_table, field_names, from_table, Bad,
    Catalog, LookupError, DEFAULT_SOURCE,
};
use crate::hardware::ControllerKind;
use crate::hardware::{CpuModel, DiskModel, Interface, Link};
use crate::input::echo;
use crate::system::{Attach, Controller, Disk, Host, Tunables, Upstream};
use crate::units::parse_size;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

/// Disks one file may declare: far beyond any one machine, it keeps a slip of the keyboard
/// (`count = 4000000000`) from building billions of disks.
const MAX_DISKS: u32 = 10_000;

/// Links one file may declare: a large server has a few hundred (root ports, switch ports,
/// uplinks); the bound keeps the work of every path through them small. A policy.
pub(super) const MAX_LINKS: usize = 1000;

/// Controllers one file may declare: one per disk, HBAs and expanders together. A policy.
const MAX_CONTROLLERS: usize = MAX_DISKS as usize;

/// A disk with what the pool needs to know of it beyond `Disk`.
pub(super) struct Placed {
    pub disk: Disk,
    pub whole_disk: bool,
    /// The `[[disk]]` entry it comes from.
    pub span: Range<usize>,
}

pub(super) fn host(src: &Source, mut doc: HostDoc, catalog: &Catalog) -> Result<Host, FileError> {
    if let Some(year) = year_only(src, &doc.cpu)? {
        let row = ASSUMED_YEARS
            .iter()
            .rev()
            .find(|(y, _)| *y <= year)
            .unwrap_or(&ASSUMED_YEARS[0]);
        *doc.cpu.get_mut() = format!("assumed-cpu-{}", row.0).into();
    }
    if let Some(year) = year_only(src, &doc.ram)? {
        let row = ASSUMED_YEARS
            .iter()
            .rev()
            .find(|(y, _)| *y <= year)
            .unwrap_or(&ASSUMED_YEARS[0]);
        *doc.ram.get_mut() = toml::Value::Integer((row.1 << 30) as i64);
    }
    let cpu = model_ref(src, doc.cpu, |id| catalog.cpu(id), cpu_from_table)?;
    let sockets = match doc.sockets {
        Some(s) if *s.get_ref() == 0 => {
            return Err(src.error(s.span(), "sockets must be at least 1"))
        }
        Some(s) => s.into_inner(),
        None => 1,
    };
    let nics = doc
        .nics
        .into_iter()
        .map(|nic| {
            let span = nic.span();
            let nic = nic.into_inner();
            if nic.gbps > 0.0 && nic.gbps.is_finite() && nic.ports > 0 {
                Ok(nic)
            } else {
                Err(src.error(span, "a NIC needs gbps above 0 and at least 1 port"))
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(Host {
        cpu,
        sockets,
        ram_bytes: match size(src, &doc.ram)? {
            0 => return Err(src.error(doc.ram.span(), "ram cannot be 0: give the host's memory")),
            bytes => bytes,
        },
        zfs: doc.zfs.unwrap_or_default(),
        nics,
        tunables: match doc.tunables {
            Some(t) => tunables(src, t)?,
            None => Tunables::default(),
        },
    })
}

/// `[host.tunables]`, each value checked where it was written.
fn tunables(src: &Source, doc: TunablesDoc) -> Result<Tunables, FileError> {
    let bytes = |v: &Option<Spanned<toml::Value>>| -> Result<Option<u64>, FileError> {
        match v {
            Some(value) => match size(src, value)? {
                0 => Err(src.error(value.span(), "a tunable size must be above 0")),
                b => Ok(Some(b)),
            },
            None => Ok(None),
        }
    };
    let depth = |v: Option<Spanned<u32>>| -> Result<Option<u32>, FileError> {
        match v {
            Some(d) if !(1..=1000).contains(d.get_ref()) => Err(src.error(
                d.span(),
                "a queue depth is 1 to 1000 (zfs_vdev_max_active caps every leaf at 1000)",
            )),
            Some(d) => Ok(Some(d.into_inner())),
            None => Ok(None),
        }
    };
    Ok(Tunables {
        arc_max: bytes(&doc.arc_max)?,
        dirty_data_max: bytes(&doc.dirty_data_max)?,
        aggregation_limit: bytes(&doc.aggregation_limit)?,
        vdev_max_pending: depth(doc.vdev_max_pending)?,
        async_read_max_active: depth(doc.async_read_max_active)?,
        async_write_max_active: depth(doc.async_write_max_active)?,
        sync_read_max_active: depth(doc.sync_read_max_active)?,
        sync_write_max_active: depth(doc.sync_write_max_active)?,
        prefetch_disable: doc.prefetch_disable,
    })
}

/// A size given as a string with a unit (`"64GiB"`) or as a number of bytes.
pub(super) fn size(src: &Source, value: &Spanned<toml::Value>) -> Result<u64, FileError> {
    let result = match value.get_ref() {
        toml::Value::String(s) => parse_size(s).map_err(|e| e.to_string()),
        toml::Value::Integer(i) => {
            u64::try_from(*i).map_err(|_| "a size cannot be negative".to_string())
        }
        other => Err(format!(
            "expected a size like \"64GiB\" or a number of bytes, found {}",
            a_type(other)
        )),
    };
    result.map_err(|m| src.error(value.span(), m))
}

/// A TOML value's type with its article, for "found an integer".
fn a_type(value: &toml::Value) -> String {
    let name = value.type_str();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// A model given as a catalog id (a string) or inline (a table).
fn model_ref<'c, T: Clone + 'c>(
    src: &Source,
    value: Spanned<toml::Value>,
    lookup: impl Fn(&str) -> Result<&'c T, LookupError>,
    inline: impl Fn(toml::Table) -> Result<T, Bad>,
) -> Result<T, FileError> {
    let span = value.span();
    match value.into_inner() {
        toml::Value::String(id) => lookup(&id)
            .cloned()
            .map_err(|e| src.error(span, e.to_string())),
        toml::Value::Table(table) => inline(table).map_err(|b| {
            let message = format!("inline model: {}", b.message);
            src.key_error(span, b.key.as_deref(), message)
        }),
        other => Err(src.error(
            span,
            format!(
                "expected a catalog id (a string) or an inline model (a table), found {}",
                a_type(&other)
            ),
        )),
    }
}

/// An inline CPU: a whole catalog entry, or only `cores`, `ghz` and `year` (the era), whose
/// other figures then take the x86-64 baseline, each source saying it was not given.
/// The years of the assumed CPUs (catalog `assumed-cpu-YEAR`) and the RAM in GiB a source of
/// that year that states none takes (docs/assumptions.md, "The host").
const ASSUMED_YEARS: [(i64, u64); 6] = [
    (2006, 2),
    (2008, 4),
    (2012, 16),
    (2016, 32),
    (2020, 64),
    (2024, 128),
];

/// The year of `{ year = N }` (what a source of year N that names no CPU or RAM writes), or
/// `None` for any other value.
fn year_only(src: &Source, value: &Spanned<toml::Value>) -> Result<Option<i64>, FileError> {
    let toml::Value::Table(t) = value.get_ref() else {
        return Ok(None);
    };
    if t.len() != 1 {
        return Ok(None);
    }
    match t.get("year") {
        Some(toml::Value::Integer(y)) if (1990..=2100).contains(y) => Ok(Some(*y)),
        Some(_) => Err(src.error(value.span(), "year is a whole number from 1990 to 2100")),
        None => Ok(None),
    }
}

fn cpu_from_table(mut table: toml::Table) -> Result<CpuModel, Bad> {
    if !table.contains_key("id") {
        let (Some(cores), Some(ghz)) = (table.get("cores").cloned(), table.get("ghz").cloned())
        else {
            return Err(Bad::from(
                "an inline cpu without an id gives at least cores, ghz and year",
            ));
        };
        let given = "given in the system file";
        let mut sources = toml::Table::new();
        sources.insert(DEFAULT_SOURCE.into(), given.into());
        for (key, value, why) in [
            ("id", toml::Value::from("inline-cpu"), given),
            ("name", format!("{cores} cores at {ghz} GHz").into(), given),
            ("threads", cores, "not given: one thread per core"),
            (
                "simd",
                "sse2".into(),
                "not given: SSE2, the x86-64 baseline",
            ),
            ("sha_ni", false.into(), "not given: taken as absent"),
        ] {
            if !table.contains_key(key) {
                table.insert(key.into(), value);
                if why != given {
                    sources.insert(key.into(), why.into());
                }
            }
        }
        table
            .entry("sources")
            .or_insert(toml::Value::Table(sources));
    }
    let cpu = from_table(table)?;
    check_cpu(&cpu)?;
    Ok(cpu)
}

pub(super) fn links(
    src: &Source,
    docs: Vec<Spanned<toml::Table>>,
    catalog: &Catalog,
) -> Result<Vec<Link>, FileError> {
    if let Some(past) = docs.get(MAX_LINKS) {
        return Err(src.error(
            past.span(),
            format!("more than {MAX_LINKS} [[link]]s in one machine"),
        ));
    }
    let mut links: Vec<(Link, Range<usize>)> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for entry in docs {
        let span = entry.span();
        let link = link(entry.into_inner(), catalog).map_err(|m| src.error(span.clone(), m))?;
        if index.insert(link.id.clone(), links.len()).is_some() {
            return Err(src.error(span, format!("link '{}' is defined twice", link.id)));
        }
        links.push((link, span));
    }
    let parents = links
        .iter()
        .map(|(link, span)| match link.parent.as_deref() {
            None => Ok(None),
            Some(parent) => index.get(parent).map(|&i| Some(i)).ok_or_else(|| {
                src.error(
                    span.clone(),
                    format!(
                        "link '{}': parent '{}' is not a [[link]] of this file{}",
                        link.id,
                        echo(parent),
                        known(links.iter().map(|(l, _)| &l.id))
                    ),
                )
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(first) = first_in_loop(&parents) {
        let (link, span) = &links[first];
        return Err(src.error(
            span.clone(),
            format!("link '{}': its parents form a loop", link.id),
        ));
    }
    Ok(links.into_iter().map(|(l, _)| l).collect())
}

/// The first node (in order) whose chain of parents runs into a loop, each node walked once:
/// a walk stops at a node an earlier walk finished, so chains of any length cost linear time.
fn first_in_loop(parents: &[Option<usize>]) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        No,
        OnThisWalk,
        Done,
    }
    let mut seen = vec![Seen::No; parents.len()];
    for start in 0..parents.len() {
        let mut walk = Vec::new();
        let mut at = Some(start);
        while let Some(node) = at {
            match seen[node] {
                Seen::Done => break,
                Seen::OnThisWalk => return Some(start),
                Seen::No => {
                    seen[node] = Seen::OnThisWalk;
                    walk.push(node);
                    at = parents[node];
                }
            }
        }
        for node in walk {
            seen[node] = Seen::Done;
        }
    }
    None
}

/// One `[[link]]`: its kind and figures, or a catalog kind of link named by `model`.
fn link(table: toml::Table, catalog: &Catalog) -> Result<Link, String> {
    let link = if table.contains_key("model") {
        let named: LinkRefDoc = from_table(table)?;
        let model = catalog.link(&named.model).map_err(|e| e.to_string())?;
        Link {
            id: named.id,
            kind: model.kind,
            parent: named.parent,
            source: Some(named.source.unwrap_or_else(|| model.name.clone())),
        }
    } else {
        from_table(table)?
    };
    check_link_kind(&link.kind).map_err(|m| format!("link '{}': {m}", link.id))?;
    Ok(link)
}

/// Ids an error about a missing reference lists: enough to spot a typo, few enough for one
/// line whatever the file holds. A policy.
const KNOWN_SHOWN: usize = 8;

/// " (known: a, b)" for an error about a missing reference, the first `KNOWN_SHOWN` ids and
/// how many more there are.
fn known<'a>(ids: impl ExactSizeIterator<Item = &'a String>) -> String {
    let total = ids.len();
    let shown: Vec<String> = ids.take(KNOWN_SHOWN).map(|id| echo(id)).collect();
    match total {
        0 => String::new(),
        n if n > KNOWN_SHOWN => format!(
            " (known: {}, and {} more)",
            shown.join(", "),
            n - KNOWN_SHOWN
        ),
        _ => format!(" (known: {})", shown.join(", ")),
    }
}

/// The `[[controller]]`s, each on a link of the file or, for a SAS expander, cabled to a
/// controller defined above it.
pub(super) fn controllers(
    src: &Source,
    docs: Vec<ControllerDoc>,
    links: &[Link],
    catalog: &Catalog,
) -> Result<Vec<Controller>, FileError> {
    if let Some(past) = docs.get(MAX_CONTROLLERS) {
        return Err(src.error(
            past.id.span(),
            format!("more than {MAX_CONTROLLERS} [[controller]]s in one machine"),
        ));
    }
    let link_ids: BTreeSet<&String> = links.iter().map(|l| &l.id).collect();
    let mut out: Vec<Controller> = Vec::new();
    let mut ids: BTreeSet<String> = BTreeSet::new();
    for doc in docs {
        let id = doc.id.get_ref();
        if ids.contains(id) {
            return Err(src.error(doc.id.span(), format!("controller '{id}' is defined twice")));
        }
        let upstream = upstream(src, &doc, (links, &link_ids), (&out, &ids))?;
        let model = model_ref(
            src,
            doc.model,
            |m| catalog.controller(m),
            |table| {
                let model = from_table(table)?;
                check_controller(&model)?;
                Ok(model)
            },
        )?;
        let expander = model.kind == ControllerKind::Expander;
        if expander != matches!(upstream, Upstream::Controller(_)) {
            return Err(src.error(
                doc.id.span(),
                format!(
                    "controller '{id}': {}",
                    if expander {
                        "a SAS expander is cabled to a controller: give `controller`, not `link`"
                    } else {
                        "only a SAS expander is cabled to another controller; this one sits on a `link`"
                    }
                ),
            ));
        }
        ids.insert(id.clone());
        out.push(Controller {
            id: doc.id.into_inner(),
            model,
            upstream,
        });
    }
    Ok(out)
}

/// What a controller hangs from: exactly one of a link of the file or a controller already
/// defined (`above`, with its ids), so the cabling has no cycle.
fn upstream(
    src: &Source,
    doc: &ControllerDoc,
    (links, link_ids): (&[Link], &BTreeSet<&String>),
    (above, above_ids): (&[Controller], &BTreeSet<String>),
) -> Result<Upstream, FileError> {
    let id = doc.id.get_ref();
    match (&doc.link, &doc.controller) {
        (Some(link), None) if !link_ids.contains(link.get_ref()) => Err(src.error(
            link.span(),
            format!(
                "controller '{id}': link '{}' is not a [[link]] of this file{}",
                echo(link.get_ref()),
                known(links.iter().map(|l| &l.id))
            ),
        )),
        (Some(link), None) => Ok(Upstream::Link(link.get_ref().clone())),
        // An expander is cabled to a controller defined before it.
        (None, Some(up)) if !above_ids.contains(up.get_ref()) => Err(src.error(
            up.span(),
            format!(
                "controller '{id}': controller '{}' is not a [[controller]] above this one{}",
                echo(up.get_ref()),
                known(above.iter().map(|c| &c.id))
            ),
        )),
        (None, Some(up)) => Ok(Upstream::Controller(up.get_ref().clone())),
        _ => Err(src.error(
            doc.id.span(),
            format!("controller '{id}' needs exactly one of `link` (its slot or bus) or `controller` (for a SAS expander, the controller it is cabled to)"),
        )),
    }
}

/// The disks of the file, each placed: where the file names no controller or link, on the
/// implied parts `implied::paths` appends to `links` and `controllers`.
pub(super) fn disks(
    src: &Source,
    docs: Vec<Spanned<DiskDoc>>,
    links: &mut Vec<Link>,
    controllers: &mut Vec<Controller>,
    catalog: &Catalog,
) -> Result<Vec<Placed>, FileError> {
    let mut out: Vec<Placed> = Vec::new();
    // Indices into `out` of the disks the file gives no place.
    let mut unplaced: Vec<usize> = Vec::new();
    let mut names = BTreeSet::new();
    let known_controllers: BTreeMap<&str, &Controller> =
        controllers.iter().map(|c| (c.id.as_str(), c)).collect();
    let places = Places {
        links,
        link_ids: links.iter().map(|l| l.id.as_str()).collect(),
        controllers,
        known_controllers,
    };
    for entry in docs {
        let span = entry.span();
        let doc = entry.into_inner();
        let model = disk_model(src, doc.model, doc.measured, catalog)?;
        let attach = attach(src, (doc.controller, doc.link), &model, &places, &span)?;
        let placed = attach.is_some();
        // Set by `implied::paths` below where the file gives none.
        let attach = attach.unwrap_or(Attach::Link(String::new()));
        let count = unit_count(src, &doc.count, &doc.name, out.len(), &span)?;
        let pattern = doc.name.get_ref();
        for unit in 0..count {
            let unit_name = pattern.replace("{}", &unit.to_string());
            if !names.insert(unit_name.clone()) {
                return Err(src.error(
                    doc.name.span(),
                    format!("disk name '{unit_name}' is used twice"),
                ));
            }
            out.push(Placed {
                disk: Disk {
                    name: unit_name,
                    model: model.clone(),
                    attach: attach.clone(),
                },
                whole_disk: doc.whole_disk.unwrap_or(true),
                span: span.clone(),
            });
            if !placed {
                unplaced.push(out.len() - 1);
            }
        }
    }
    place_implied(src, &mut out, &unplaced, links, controllers, catalog)?;
    check_ports(src, &out, controllers)?;
    bound_by_enclosures(&mut out, controllers);
    Ok(out)
}

/// Each disk behind an external enclosure's bridge, bounded by the rate its maker states for
/// the product (`crate::enclosure`).
fn bound_by_enclosures(out: &mut [Placed], controllers: &[Controller]) {
    for placed in out {
        let Attach::Controller(id) = &placed.disk.attach else {
            continue;
        };
        let Some(c) = controllers.iter().find(|c| &c.id == id) else {
            continue;
        };
        let Some(mb_s) = c.model.enclosure_mb_s else {
            continue;
        };
        let sources = &c.model.sources;
        let source = sources
            .get("enclosure_mb_s")
            .or(sources.get("default"))
            .map_or(c.model.name.as_str(), String::as_str);
        placed.disk.model = crate::enclosure::bounded(placed.disk.model.clone(), mb_s, source);
    }
}

/// A disk entry's model, from the catalog or an inline table, with what `measured` gives
/// in place of the datasheet's figures.
fn disk_model(
    src: &Source,
    model: Spanned<toml::Value>,
    measured: Option<Spanned<toml::Table>>,
    catalog: &Catalog,
) -> Result<DiskModel, FileError> {
    let model = model_ref(src, model, |m| catalog.disk(m), disk_from_table)?;
    let Some(measured) = measured else {
        return Ok(model);
    };
    let at = measured.span();
    apply_measured(model, measured.into_inner())
        .map_err(|m| src.error(at, format!("measured: {m}")))
}

/// How many disks one entry declares: `count` (1 unless given) within bounds, the machine's
/// total with the `before` already declared too, and a name pattern with a `{}` for the unit
/// number wherever there is more than one.
fn unit_count(
    src: &Source,
    count: &Option<Spanned<u32>>,
    name: &Spanned<String>,
    before: usize,
    span: &Range<usize>,
) -> Result<u32, FileError> {
    let count = match count {
        Some(c) if !(1..=MAX_DISKS).contains(c.get_ref()) => {
            return Err(src.error(c.span(), format!("count must be 1 to {MAX_DISKS}")))
        }
        Some(c) => *c.get_ref(),
        None => 1,
    };
    if before + count as usize > MAX_DISKS as usize {
        return Err(src.error(
            span.clone(),
            format!("more than {MAX_DISKS} disks in one machine"),
        ));
    }
    if count > 1 && !name.get_ref().contains("{}") {
        return Err(src.error(name.span(), format!("with count = {count}, the name needs '{{}}' where the unit number goes, as in \"sd{{}}\"")));
    }
    Ok(count)
}

/// Puts the disks at `unplaced` (ascending indices into `placed`) on implied parts, and adds
/// the implied onboard controller the disks cabled to "onboard" need; an error points at the
/// first of them.
fn place_implied(
    src: &Source,
    placed: &mut [Placed],
    unplaced: &[usize],
    links: &mut Vec<Link>,
    controllers: &mut Vec<Controller>,
    catalog: &Catalog,
) -> Result<(), FileError> {
    place_onboard(src, placed, links, controllers, catalog)?;
    let Some(&first) = unplaced.first() else {
        return Ok(());
    };
    let at = placed[first].span.clone();
    let disks = placed
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| unplaced.binary_search(i).is_ok())
        .map(|(_, p)| &mut p.disk)
        .collect();
    implied::paths(disks, links, controllers, catalog).map_err(|m| src.error(at, m))
}

/// Adds the implied onboard controller and its uplink where a disk is cabled to "onboard"
/// and the file defines no controller of that name; an error points at the first such disk.
fn place_onboard(
    src: &Source,
    placed: &[Placed],
    links: &mut Vec<Link>,
    controllers: &mut Vec<Controller>,
    catalog: &Catalog,
) -> Result<(), FileError> {
    let onboard = Attach::Controller(implied::ONBOARD.to_string());
    let Some(first) = placed.iter().find(|p| p.disk.attach == onboard) else {
        return Ok(());
    };
    if controllers.iter().any(|c| c.id == implied::ONBOARD) {
        return Ok(());
    }
    implied::onboard(links, controllers, catalog).map_err(|m| src.error(first.span.clone(), m))
}

/// Refuses a controller with more disks and expander lanes cabled to it than it has ports,
/// at the last disk cabled to it; one pass over the disks and one over the controllers.
fn check_ports(
    src: &Source,
    placed: &[Placed],
    controllers: &[Controller],
) -> Result<(), FileError> {
    // Per controller: its disks, the span of the last of them, and the lanes of its expanders.
    let mut cabled: BTreeMap<&str, (usize, Range<usize>, usize)> = BTreeMap::new();
    for p in placed {
        if let Attach::Controller(id) = &p.disk.attach {
            let entry = cabled.entry(id.as_str()).or_insert((0, 0..0, 0));
            entry.0 += 1;
            entry.1 = p.span.clone();
        }
    }
    for x in controllers {
        if let Upstream::Controller(up) = &x.upstream {
            cabled.entry(up.as_str()).or_insert((0, 0..0, 0)).2 +=
                x.model.uplink_lanes.unwrap_or(1) as usize;
        }
    }
    for c in controllers {
        let Some((disks, last, lanes)) = cabled.get(c.id.as_str()) else {
            continue;
        };
        if disks + lanes > c.model.ports as usize {
            let expanders = if *lanes > 0 {
                format!(" and {lanes} lanes to expanders")
            } else {
                String::new()
            };
            return Err(src.error(
                last.clone(),
                format!(
                    "controller '{}' has {} ports but {disks} disks{expanders} are cabled to it",
                    c.id, c.model.ports
                ),
            ));
        }
    }
    Ok(())
}

/// What a disk may be plugged into, indexed once for every disk entry.
struct Places<'a> {
    links: &'a [Link],
    link_ids: BTreeSet<&'a str>,
    controllers: &'a [Controller],
    known_controllers: BTreeMap<&'a str, &'a Controller>,
}

/// Where a disk is plugged: a controller whose ports speak its protocol, or for NVMe a link;
/// `None` where the file names neither (`implied::paths` places it).
fn attach(
    src: &Source,
    place: (Option<Spanned<String>>, Option<Spanned<String>>),
    model: &DiskModel,
    places: &Places,
    span: &Range<usize>,
) -> Result<Option<Attach>, FileError> {
    match &place {
        (Some(c), None) => on_controller(src, c, model, places).map(Some),
        (None, Some(l)) => on_link(src, l, model, places).map(Some),
        (None, None) => Ok(None),
        _ => Err(src.error(
            span.clone(),
            "a disk needs at most one of `controller` or `link` (NVMe)",
        )),
    }
}

/// A disk cabled to controller `c`: one the file defines (or the implied onboard SATA), whose
/// ports speak the disk's protocol. SAS ports take SATA disks too (SATA tunnelled over SAS,
/// STP), no other port takes a foreign protocol.
fn on_controller(
    src: &Source,
    c: &Spanned<String>,
    model: &DiskModel,
    places: &Places,
) -> Result<Attach, FileError> {
    let named = places.known_controllers.get(c.get_ref().as_str());
    if named.is_none() && c.get_ref() == implied::ONBOARD {
        return onboard(src, c, model);
    }
    let Some(controller) = named else {
        return Err(src.error(
            c.span(),
            format!(
                "controller '{}' is not a [[controller]] of this file{}",
                echo(c.get_ref()),
                known(places.controllers.iter().map(|x| &x.id))
            ),
        ));
    };
    let speaks = match controller.model.interface {
        Interface::Sas => matches!(model.interface, Interface::Sas | Interface::Sata),
        own => own == model.interface,
    };
    if !speaks {
        return Err(src.error(
            c.span(),
            format!(
                "a {:?} disk cannot be cabled to controller '{}', whose ports are {:?}",
                model.interface, controller.id, controller.model.interface
            )
            .to_lowercase(),
        ));
    }
    Ok(Attach::Controller(c.get_ref().clone()))
}

/// An NVMe disk straight on link `l` of the file (an M.2 or U.2 slot); no other disk
/// speaks PCIe without a controller.
fn on_link(
    src: &Source,
    l: &Spanned<String>,
    model: &DiskModel,
    places: &Places,
) -> Result<Attach, FileError> {
    if model.interface != Interface::Nvme {
        return Err(src.error(
            l.span(),
            "only an NVMe disk sits on a link directly; give this disk a controller",
        ));
    }
    if !places.link_ids.contains(l.get_ref().as_str()) {
        return Err(src.error(
            l.span(),
            format!(
                "link '{}' is not a [[link]] of this file{}",
                echo(l.get_ref()),
                known(places.links.iter().map(|x| &x.id))
            ),
        ));
    }
    Ok(Attach::Link(l.get_ref().clone()))
}

/// `controller = "onboard"` where the file defines no controller of that name: the board's
/// chipset SATA, which `implied::onboard` adds; a SATA disk only.
fn onboard(src: &Source, c: &Spanned<String>, model: &DiskModel) -> Result<Attach, FileError> {
    if model.interface != Interface::Sata {
        return Err(src.error(
            c.span(),
            format!(
                "the onboard controller has SATA ports; this disk is {:?}",
                model.interface
            )
            .to_lowercase(),
        ));
    }
    Ok(Attach::Controller(implied::ONBOARD.to_string()))
}

/// Replaces figures of a model by those measured on the units, citing `source` for each.
fn apply_measured(model: DiskModel, mut measured: toml::Table) -> Result<DiskModel, String> {
    let source = match measured.remove("source") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => s,
        _ => return Err("needs `source`: where the measured figures come from".to_string()),
    };
    let figures: Vec<&str> = field_names::<DiskModel>()
        .iter()
        .copied()
        .filter(|f| !matches!(*f, "id" | "vendor" | "model" | "sources"))
        .collect();
    if measured.is_empty() {
        return Err("gives no figure".to_string());
    }
    let mut table = toml::Table::try_from(&model).map_err(|e| e.to_string())?;
    for (key, value) in &measured {
        if !figures.contains(&key.as_str()) {
            return Err(format!(
                "'{key}' is not a disk figure; expected one of: {}",
                figures.join(", ")
            ));
        }
        table.insert(key.clone(), value.clone());
    }
    let mut out: DiskModel = from_table(table)?;
    for key in measured.keys() {
        out.sources.insert(key.clone(), source.clone());
    }
    crate::catalog::check_disk(&out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::first_in_loop;

    #[test]
    fn loops_are_found_in_one_walk_of_each_node() {
        // A chain of a million links (each the parent of the next): no loop, walked once.
        let chain: Vec<Option<usize>> = (0..1_000_000usize).map(|i| i.checked_sub(1)).collect();
        assert_eq!(first_in_loop(&chain), None);
        // 0 -> 1 -> 2 -> 1: 0 leads into the loop, found first.
        assert_eq!(first_in_loop(&[Some(1), Some(2), Some(1)]), Some(0));
        assert_eq!(first_in_loop(&[None, Some(2), Some(1)]), Some(1));
        assert_eq!(first_in_loop(&[Some(0)]), Some(0));
    }
}
