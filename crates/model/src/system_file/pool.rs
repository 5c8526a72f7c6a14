//! The pool part of a system file: layouts per allocation class, ashift, spares, cache and
//! datasets, with the declared disks filling the vdevs in order.

use super::doc::{DatasetDoc, PoolDoc};
use super::error::{FileError, Source};
use super::hardware::{size, Placed};
use crate::dataset::PropertyError;
use crate::layout::{Layout, VdevType};
use crate::pool::{Dataset, Leaf, Pool, TopLevel, VdevClass, DEFAULT_RECORDSIZE};
use crate::system::ZfsRelease;
use toml::Spanned;

/// Smallest and largest ashift OpenZFS accepts (ASHIFT_MIN 9, ASHIFT_MAX 16).
use crate::pool::{auto_ashift, ASHIFT_RANGE};
/// Smallest and largest recordsize (include/sys/spa.h SPA_MINBLOCKSIZE, SPA_MAXBLOCKSIZE).
const RECORDSIZE_RANGE: std::ops::RangeInclusive<u64> = 512..=16 * 1024 * 1024;

/// The pool a system file's `[pool]` and `[[dataset]]` tables describe, its vdevs filled
/// from the declared disks in order.
pub(super) fn build(
    src: &Source,
    doc: Spanned<PoolDoc>,
    datasets: Vec<DatasetDoc>,
    disks: &[Placed],
    zfs: ZfsRelease,
) -> Result<Pool, FileError> {
    let pool_span = doc.span();
    let doc = doc.into_inner();
    let classes = classes(src, &doc, zfs)?;
    let spares = doc.spares.unwrap_or(0);
    let cache = doc.cache.unwrap_or(0);
    let in_vdevs = disks_needed(src, pool_span, &classes, spares, cache, disks.len())?;
    let vdevs = top_levels(&classes, disks);
    // Spares and cache devices hold no allocated blocks, so only the vdevs' leaves set ashift.
    let in_pool = &disks[..in_vdevs];
    let ashift = ashift(src, doc.ashift, in_pool, zfs)?;
    let name = pool_name(src, doc.name)?;
    let datasets = if datasets.is_empty() {
        vec![Dataset::named(&name)]
    } else {
        datasets
            .into_iter()
            .map(|d| dataset(src, d, &name))
            .collect::<Result<_, _>>()?
    };
    Ok(Pool {
        name,
        ashift,
        vdevs,
        spares,
        cache_devices: cache,
        datasets,
    })
}

/// The layout of each allocation class the pool names, the normal class first.
fn classes(
    src: &Source,
    doc: &PoolDoc,
    zfs: ZfsRelease,
) -> Result<Vec<(VdevClass, Layout)>, FileError> {
    let mut classes = vec![(VdevClass::Normal, layout(src, &doc.layout, zfs)?)];
    for (class, text) in [
        (VdevClass::Special, &doc.special),
        (VdevClass::Dedup, &doc.dedup),
        (VdevClass::Log, &doc.log),
    ] {
        if let Some(text) = text {
            let parsed = layout(src, text, zfs)?;
            if class == VdevClass::Log {
                log_groups(src, text, &parsed)?;
            }
            classes.push((class, parsed));
        }
    }
    Ok(classes)
}

/// How many of the declared disks the vdevs take, once the vdevs, spares and cache devices
/// are checked to use exactly the disks declared: one disk per leaf, none left over.
fn disks_needed(
    src: &Source,
    pool_span: std::ops::Range<usize>,
    classes: &[(VdevClass, Layout)],
    spares: u32,
    cache: u32,
    declared: usize,
) -> Result<usize, FileError> {
    let in_vdevs: u64 = classes.iter().map(|(_, l)| u64::from(l.leaves())).sum();
    let needed = in_vdevs + u64::from(spares) + u64::from(cache);
    if needed == declared as u64 {
        return Ok(in_vdevs as usize);
    }
    let parts: Vec<String> = classes
        .iter()
        .map(|(class, l)| format!("{} {l}: {}", class_name(*class), l.leaves()))
        .chain([format!("spares: {spares}"), format!("cache: {cache}")])
        .collect();
    Err(src.error(
        pool_span,
        format!(
            "the pool needs {needed} disks ({}) but {declared} are declared in [[disk]]",
            parts.join(", "),
        ),
    ))
}

/// One top-level vdev per group of each class, its leaves the next disks in declaration
/// order (as `zpool create` takes the devices of a vdev specification left to right).
fn top_levels(classes: &[(VdevClass, Layout)], disks: &[Placed]) -> Vec<TopLevel> {
    let mut next = disks.iter();
    let mut vdevs = Vec::new();
    for (class, layout) in classes {
        for group in &layout.groups {
            let members: Vec<&Placed> = next.by_ref().take(group.leaves() as usize).collect();
            vdevs.push(TopLevel {
                class: *class,
                layout: Layout {
                    groups: vec![*group],
                },
                leaf: smallest_leaf(&members),
            });
        }
    }
    vdevs
}

/// The pool's name as given, checked, or `tank`.
fn pool_name(src: &Source, given: Option<Spanned<String>>) -> Result<String, FileError> {
    match given {
        Some(n) if !valid_name(n.get_ref()) => Err(src.error(
            n.span(),
            "a pool name starts with a letter and holds letters, digits, '-', '_', '.' or ':'",
        )),
        Some(n) => Ok(n.into_inner()),
        None => Ok("tank".to_string()),
    }
}

fn class_name(class: VdevClass) -> &'static str {
    match class {
        VdevClass::Normal => "layout",
        VdevClass::Special => "special",
        VdevClass::Dedup => "dedup",
        VdevClass::Log => "log",
    }
}

/// Log vdevs are single disks or mirrors: zpool create refuses any other type there
/// (cmd/zpool/zpool_vdev.c, construct_spec: "invalid vdev specification: unsupported 'log'
/// device: raidz"), and so does the kernel for dRAID.
fn log_groups(src: &Source, text: &Spanned<String>, log: &Layout) -> Result<(), FileError> {
    let refused = log.groups.iter().find_map(|g| match g.vtype {
        VdevType::Disk | VdevType::Mirror => None,
        VdevType::Raidz { .. } => Some("raidz"),
        VdevType::Draid { .. } => Some("draid"),
    });
    match refused {
        Some(kind) => Err(src.error(
            text.span(),
            format!("unsupported 'log' device: {kind} (zpool create takes only disks and mirrors as log vdevs)"),
        )),
        None => Ok(()),
    }
}

/// A layout string, its errors placed at the string: a dRAID too, where the release has none.
fn layout(src: &Source, text: &Spanned<String>, zfs: ZfsRelease) -> Result<Layout, FileError> {
    let layout: Layout = text
        .get_ref()
        .parse()
        .map_err(|e: crate::layout::LayoutError| src.error(text.span(), e.to_string()))?;
    let draid = layout
        .groups
        .iter()
        .find(|g| matches!(g.vtype, VdevType::Draid { .. }));
    match draid {
        Some(g) if !zfs.has_draid() => Err(src.error(
            text.span(),
            format!("{g}: ZFS {zfs} has no dRAID (OpenZFS 2.1 brought it); set host.zfs to a later release"),
        )),
        _ => Ok(layout),
    }
}

/// A vdev is as large as its smallest child (docs/zfs-internals.md §1).
fn smallest_leaf(members: &[&Placed]) -> Leaf {
    let p = members
        .iter()
        .min_by_key(|p| p.disk.model.capacity_bytes)
        .expect("a vdev group has at least one leaf");
    Leaf {
        capacity_bytes: p.disk.model.capacity_bytes,
        logical_sector: p.disk.model.logical_sector,
        whole_disk: p.whole_disk,
    }
}

/// The given ashift, or the one `zpool create` picks (`pool::auto_ashift`) for the largest
/// sector among the disks.
fn ashift(
    src: &Source,
    given: Option<Spanned<u8>>,
    disks: &[Placed],
    zfs: ZfsRelease,
) -> Result<u8, FileError> {
    let largest_logical = disks
        .iter()
        .map(|p| p.disk.model.logical_sector)
        .max()
        .unwrap_or(512);
    let Some(given) = given else {
        let picked = disks
            .iter()
            .map(|p| {
                auto_ashift(
                    p.disk.model.logical_sector,
                    p.disk.model.physical_sector,
                    zfs,
                )
            })
            .max()
            .unwrap_or(*ASHIFT_RANGE.start());
        return Ok(picked);
    };
    let ashift = *given.get_ref();
    if !ASHIFT_RANGE.contains(&ashift) {
        return Err(src.error(
            given.span(),
            format!("ashift must be 9 to 16, not {ashift}"),
        ));
    }
    if 1u32 << ashift < largest_logical {
        return Err(src.error(
            given.span(),
            format!("ashift {ashift} is below the disks' {largest_logical}-byte logical sector: zpool refuses it"),
        ));
    }
    Ok(ashift)
}

/// Pool names as zpool accepts them (zfs_namecheck.c pool_namecheck, the common part).
fn valid_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
}

/// One `[[dataset]]`: inside the pool, its sizes within what zfs(8) accepts, its other
/// properties parsed as zfs(8) writes them.
fn dataset(src: &Source, doc: DatasetDoc, pool: &str) -> Result<Dataset, FileError> {
    let name = doc.name.get_ref();
    if !inside(name, pool) {
        return Err(src.error(
            doc.name.span(),
            format!("dataset '{name}' is not in pool '{pool}': expected '{pool}' or '{pool}/...'"),
        ));
    }
    let recordsize = block_size(
        src,
        &doc.recordsize,
        |b| b.is_power_of_two() && RECORDSIZE_RANGE.contains(&b),
        "recordsize must be a power of two from 512 to 16M",
    )?
    .unwrap_or(DEFAULT_RECORDSIZE);
    let compression_ratio = match doc.compression_ratio {
        None => 1.0,
        Some(r) => crate::range::COMPRESSION_RATIO
            .check(*r.get_ref())
            .map_err(|e| src.error(r.span(), e.to_string()))?,
    };
    // zfsprops(7): 0 or a power of two up to 16M (1M before 2.2); larger than the
    // recordsize sends every block of the dataset to the special class.
    let special_small_blocks = block_size(
        src,
        &doc.special_small_blocks,
        |b| b == 0 || (b.is_power_of_two() && (512..=16 << 20).contains(&b)),
        "special_small_blocks must be 0 or a power of two from 512 to 16M",
    )?
    .unwrap_or(0);
    // zfs_prop.c: a power of two from 512 bytes to 128K (SPA_OLD_MAXBLOCKSIZE).
    let volblocksize = block_size(
        src,
        &doc.volblocksize,
        |b| b.is_power_of_two() && (512..=128 << 10).contains(&b),
        "volblocksize must be a power of two from 512 to 128K",
    )?;
    let defaults = Dataset::named("");
    Ok(Dataset {
        volblocksize,
        special_small_blocks,
        primarycache: property(src, &doc.primarycache, defaults.primarycache)?,
        encryption: property(src, &doc.encryption, defaults.encryption)?,
        recordsize,
        compression: property(src, &doc.compression, defaults.compression)?,
        compression_ratio,
        checksum: property(src, &doc.checksum, defaults.checksum)?,
        sync: property(src, &doc.sync, defaults.sync)?,
        logbias: property(src, &doc.logbias, defaults.logbias)?,
        name: doc.name.into_inner(),
    })
}

/// Whether a dataset name is the pool's root or a path below it with no empty component.
fn inside(name: &str, pool: &str) -> bool {
    name == pool
        || name
            .strip_prefix(pool)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.is_empty() && rest.split('/').all(|part| !part.is_empty()))
}

/// A size property when given, refused at its value with `rule` unless `allowed` holds.
fn block_size(
    src: &Source,
    value: &Option<Spanned<toml::Value>>,
    allowed: impl Fn(u64) -> bool,
    rule: &str,
) -> Result<Option<u64>, FileError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let bytes = size(src, value)?;
    if !allowed(bytes) {
        return Err(src.error(value.span(), format!("{rule}, not {bytes}")));
    }
    Ok(Some(bytes))
}

/// A dataset property as zfs(8) writes its value, or its default when not given.
fn property<T: std::str::FromStr<Err = PropertyError>>(
    src: &Source,
    value: &Option<Spanned<String>>,
    default: T,
) -> Result<T, FileError> {
    match value {
        Some(v) => v
            .get_ref()
            .parse()
            .map_err(|e: PropertyError| src.error(v.span(), e.0)),
        None => Ok(default),
    }
}
