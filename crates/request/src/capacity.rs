//! `capacity`: what `zpool list` SIZE and `zfs list` AVAIL a pool will show, the breakdown from
//! raw bytes to AVAIL, the efficiency of each record size and what files cost.

use crate::{Error, Inputs};
use model::hardware::DiskModel;
use model::input::echo;
use model::pool::{auto_ashift, ASSUMED_ASHIFT};
use model::units::parse_size;
use model::ZfsRelease;
use model::{Layout, Leaf, Pool};
use serde::Serialize;
use space::{Compression, ExpansionReport, FileCost, PhysicalSector, Profile, SpaceReport};

/// `capacity`: a pool's space from raw bytes to AVAIL, and what files cost on it.
#[derive(clap::Args, Debug)]
pub struct CapacityRequest {
    /// A system file (hardware and pool). Without it, give --layout and --disk.
    #[arg(value_name = "SYSTEM.toml")]
    pub system: Option<String>,
    /// The pool layout: stripe-N, mirror-N, raidz1-N .. raidz3-N, draid<p>:<d>d:<c>c:<s>s,
    /// 'Kx' repeats a group, '+' joins groups ("2x raidz2-6 + mirror-2").
    #[arg(long, allow_hyphen_values = true)]
    pub layout: Option<String>,
    /// A disk: a catalog id, or a size (750GB and 4TB decimal as drives are sold, 3.5TiB
    /// binary, plain bytes).
    #[arg(long, allow_hyphen_values = true)]
    pub disk: Option<String>,
    /// log2 of the sector ZFS allocates in: 9 (512 B) to 16; default: what zpool create
    /// picks for a catalog disk or --sector (its physical sector from ZoL 0.6 / FreeBSD 10 on),
    /// 12 (4 KiB) for a disk given by size, or the system file's.
    #[arg(long, allow_hyphen_values = true)]
    pub ashift: Option<String>,
    /// The recordsize the warnings and --files use (default 128K, or the system file's first
    /// dataset's).
    #[arg(long, allow_hyphen_values = true)]
    pub recordsize: Option<String>,
    /// The disks are file vdevs (or partitions): no GPT is made on them.
    #[arg(long)]
    pub file_vdevs: bool,
    /// Logical sector of a --disk given as a size: 512 (default) or 4096 (4Kn).
    #[arg(long, allow_hyphen_values = true)]
    pub sector: Option<String>,
    /// The ZFS release that created the pool, whose rules apply: openzfs-2.2 (or 2.2),
    /// zol-0.6.5, freebsd-10.2, solaris-2008, zfs-fuse; the default is the current OpenZFS.
    /// A system file's host.zfs picks it otherwise.
    #[arg(long, value_name = "RELEASE")]
    pub zfs: Option<String>,
    /// What files of these sizes cost at the recordsize: 1K,64K,10M.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub files: Vec<String>,
    /// With --files: the pool compresses, so the zero tail of a file's last record costs
    /// nothing (the data itself is taken as incompressible).
    #[arg(long)]
    pub compression: bool,
    /// A raidz expansion (OpenZFS 2.3 on: zpool attach POOL raidzP-0 DISK), one step per use:
    /// "raidz1-4 -> raidz1-5 at 70%", the pool's fill when it is done: a share of SIZE
    /// allocated (zpool list CAP) or the data written by then (20TB), in records of the
    /// recordsize. The answer shows SIZE, ALLOC, FREE and AVAIL before and after each step,
    /// what old and new records cost, and what rewriting the old ones gives back.
    #[arg(long, allow_hyphen_values = true, value_name = "STEP")]
    pub expand: Vec<String>,
}

/// The space report, and what the files cost when asked; the pool and the compression setting
/// for the text beside it.
#[derive(Serialize)]
pub struct CapacityAnswer {
    /// The space report, as `capacity --json` prints it.
    #[serde(flatten)]
    pub report: SpaceReport,
    /// With --file: what each file costs on the pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<FileCost>>,
    /// With --expand: the pool grown step by step (docs/json.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansion: Option<ExpansionReport>,
    /// The pool and the compression the figures are for, for the text beside them.
    #[serde(skip)]
    pub pool: Pool,
    /// The compression the files' costs assume.
    #[serde(skip)]
    pub compression: Compression,
}

impl CapacityRequest {
    /// The space of the pool asked for, and the files' costs on it.
    pub fn answer(&self, inputs: &dyn Inputs) -> Result<CapacityAnswer, Error> {
        let (pool, profile, physical) = self.resolve(inputs)?;
        let report = space::pool_space_on(&pool, &profile, &physical)?;
        let compression = if self.compression {
            Compression::On
        } else {
            Compression::Off
        };
        let files = self
            .files
            .iter()
            .map(|text| {
                let bytes = parse_size(text).map_err(|e| Error(format!("--files: {e}")))?;
                Ok(space::file_cost_with(
                    &pool,
                    &profile,
                    report.recordsize,
                    bytes,
                    compression,
                )?)
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let expansion = if self.expand.is_empty() {
            None
        } else {
            let growth = crate::raidz_expansion::growth(&self.expand, &pool, report.recordsize)?;
            Some(space::raidz_expansion(&pool, &profile, &growth)?)
        };
        Ok(CapacityAnswer {
            report,
            files: (!self.files.is_empty()).then_some(files),
            expansion,
            pool,
            compression,
        })
    }

    /// The pool, the rules to apply and the physical sectors of the catalog disks in it, from a
    /// system file or from the flags.
    fn resolve(&self, inputs: &dyn Inputs) -> Result<(Pool, Profile, Vec<PhysicalSector>), Error> {
        let release = match &self.zfs {
            Some(name) => Some(
                name.parse::<ZfsRelease>()
                    .map_err(|e| Error(format!("--zfs: {e}")))?,
            ),
            None => None,
        };
        let ashift = match &self.ashift {
            Some(text) => Some(text.trim().parse::<u8>().map_err(|_| {
                Error(format!(
                    "--ashift '{}': expected a whole number from 9 to 16",
                    echo(text)
                ))
            })?),
            None => None,
        };
        let (mut pool, profile, physical) = match &self.system {
            Some(given) => {
                if self.layout.is_some() || self.disk.is_some() || self.sector.is_some() {
                    return Err(Error(
                        "give either a system file or --layout and --disk, not both".into(),
                    ));
                }
                let system = inputs.system(given)?;
                let profile = Profile::of(release.unwrap_or(system.host.zfs));
                let physical = system
                    .disks
                    .iter()
                    .map(|d| physical_sector(&d.model))
                    .collect();
                (system.pool, profile, physical)
            }
            None => self.pool_of_flags(inputs, release)?,
        };
        if let Some(a) = ashift {
            pool.ashift = a;
        }
        if self.file_vdevs {
            for top in &mut pool.vdevs {
                top.leaf.whole_disk = false;
            }
        }
        if let Some(text) = &self.recordsize {
            let rs = parse_size(text).map_err(|e| Error(format!("--recordsize: {e}")))?;
            match pool.datasets.first_mut() {
                Some(d) => d.recordsize = rs,
                None => pool.datasets.push(model::Dataset {
                    recordsize: rs,
                    ..model::Dataset::named(&pool.name)
                }),
            }
        }
        Ok((pool, profile, physical))
    }

    /// The pool of `--layout` on `--disk`, at the ashift zpool create would pick.
    fn pool_of_flags(
        &self,
        inputs: &dyn Inputs,
        release: Option<ZfsRelease>,
    ) -> Result<(Pool, Profile, Vec<PhysicalSector>), Error> {
        let (Some(layout), Some(disk)) = (&self.layout, &self.disk) else {
            return Err(Error(match (&self.layout, &self.disk) {
                (Some(_), None) => "give --disk: a size like 4TB or a catalog id".into(),
                (None, Some(_)) => "give --layout, like \"3x raidz1-5\"".into(),
                _ => "give a system file, or --layout and --disk (zpoolsim capacity --help)".into(),
            }));
        };
        let layout: Layout = layout.parse()?;
        let release = release.unwrap_or_default();
        let (leaf, physical) = self.disk_leaf(disk, inputs)?;
        let ashift = match (physical.first(), &self.sector) {
            (Some(p), _) => auto_ashift(leaf.logical_sector, p.bytes, release),
            (None, Some(_)) => auto_ashift(leaf.logical_sector, leaf.logical_sector, release),
            (None, None) => ASSUMED_ASHIFT,
        };
        Ok((
            Pool::simple(layout, leaf, ashift),
            Profile::of(release),
            physical,
        ))
    }

    /// The leaf of `--disk`: a size (physical sector unknown), or a catalog id.
    fn disk_leaf(
        &self,
        text: &str,
        inputs: &dyn Inputs,
    ) -> Result<(Leaf, Vec<PhysicalSector>), Error> {
        let whole_disk = !self.file_vdevs;
        let sector = match self.sector.as_deref().map(str::trim) {
            Some("512") => Some(512),
            Some("4096") => Some(4096),
            Some(s) => {
                return Err(Error(format!(
                "--sector '{}': give 512 or 4096 (bytes: a 512e or a 4Kn disk's logical sector)",
                model::input::echo(s)
            )))
            }
            None => None,
        };
        let looks_like_size = text
            .trim()
            .starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+');
        if looks_like_size {
            let bytes = parse_size(text).map_err(|e| Error(format!("--disk: {e}")))?;
            let leaf = Leaf {
                capacity_bytes: bytes,
                logical_sector: sector.unwrap_or(512),
                whole_disk,
            };
            return Ok((leaf, Vec::new()));
        }
        let model = inputs.catalog().disk(text.trim()).map_err(|e| {
            Error(format!(
                "--disk is neither a size (750GB, 4TB, 3.5TiB, bytes) nor a catalog id: {e}"
            ))
        })?;
        let leaf = Leaf {
            capacity_bytes: model.capacity_bytes,
            logical_sector: sector.unwrap_or(model.logical_sector),
            whole_disk,
        };
        Ok((leaf, vec![physical_sector(model)]))
    }
}

fn physical_sector(model: &DiskModel) -> PhysicalSector {
    PhysicalSector {
        disk: model.id.clone(),
        bytes: model.physical_sector,
    }
}
