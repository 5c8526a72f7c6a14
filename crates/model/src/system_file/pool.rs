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

pub fn build(
    src: &Source,
    doc: Spanned<PoolDoc>,
    datasets: Vec<DatasetDoc>,
    disks: &[Placed],
    zfs: ZfsRelease,
) -> Result<Pool, FileError> {
    let pool_span = doc.span();
    let doc = doc.into_inner();
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
    let spares = doc.spares.unwrap_or(0);
    let cache = doc.cache.unwrap_or(0);
    let in_vdevs: u64 = classes.iter().map(|(_, l)| u64::from(l.leaves())).sum();
    let needed = in_vdevs + u64::from(spares) + u64::from(cache);
    if needed != disks.len() as u64 {
        let parts: Vec<String> = classes
            .iter()
            .map(|(class, l)| format!("{} {l}: {}", class_name(*class), l.leaves()))
            .chain([format!("spares: {spares}"), format!("cache: {cache}")])
            .collect();
        return Err(src.error(
            pool_span,
            format!(
                "the pool needs {needed} disks ({}) but {} are declared in [[disk]]",
                parts.join(", "),
                disks.len()
            ),
        ));
    }
    let mut next = disks.iter();
    let mut vdevs = Vec::new();
    for (class, layout) in &classes {
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
    let in_pool = &disks[..in_vdevs as usize];
    let ashift = ashift(src, doc.ashift, in_pool, zfs)?;
    let name =
        match doc.name {
            Some(n) if !valid_name(n.get_ref()) => return Err(src.error(
                n.span(),
                "a pool name starts with a letter and holds letters, digits, '-', '_', '.' or ':'",
            )),
            Some(n) => n.into_inner(),
            None => "tank".to_string(),
        };
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

fn dataset(src: &Source, doc: DatasetDoc, pool: &str) -> Result<Dataset, FileError> {
    let name = doc.name.get_ref();
    let inside = name == pool
        || name
            .strip_prefix(pool)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.is_empty() && rest.split('/').all(|part| !part.is_empty()));
    if !inside {
        return Err(src.error(
            doc.name.span(),
            format!("dataset '{name}' is not in pool '{pool}': expected '{pool}' or '{pool}/...'"),
        ));
    }
    let recordsize = match &doc.recordsize {
        None => DEFAULT_RECORDSIZE,
        Some(value) => {
            let bytes = size(src, value)?;
            if !bytes.is_power_of_two() || !RECORDSIZE_RANGE.contains(&bytes) {
                return Err(src.error(
                    value.span(),
                    format!("recordsize must be a power of two from 512 to 16M, not {bytes}"),
                ));
            }
            bytes
        }
    };
    let compression_ratio = match doc.compression_ratio {
        None => 1.0,
        Some(r) => crate::range::COMPRESSION_RATIO
            .check(*r.get_ref())
            .map_err(|e| src.error(r.span(), e.to_string()))?,
    };
    let special_small_blocks = match &doc.special_small_blocks {
        None => 0,
        Some(value) => {
            let bytes = size(src, value)?;
            // zfsprops(7): 0 or a power of two up to 16M (1M before 2.2); larger than the
            // recordsize sends every block of the dataset to the special class.
            if bytes != 0 && (!bytes.is_power_of_two() || !(512..=16 << 20).contains(&bytes)) {
                return Err(src.error(
                    value.span(),
                    format!("special_small_blocks must be 0 or a power of two from 512 to 16M, not {bytes}"),
                ));
            }
            bytes
        }
    };
    let volblocksize = match &doc.volblocksize {
        None => None,
        Some(value) => {
            let bytes = size(src, value)?;
            // zfs_prop.c: a power of two from 512 bytes to 128K (SPA_OLD_MAXBLOCKSIZE).
            if !bytes.is_power_of_two() || !(512..=128 << 10).contains(&bytes) {
                return Err(src.error(
                    value.span(),
                    format!("volblocksize must be a power of two from 512 to 128K, not {bytes}"),
                ));
            }
            Some(bytes)
        }
    };
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
