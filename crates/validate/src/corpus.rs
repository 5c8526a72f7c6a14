//! The validation corpus: case files and the system files they name, resolved into systems and
//! workloads. The repository's corpus is embedded in the binary (so `zpoolsim validate` runs
//! from anywhere); another can be given as texts the caller read.

use crate::case::{parse, Case, CaseFile, Excluded, Grade};
use crate::ValidateError;
use model::{Catalog, System, Workload};
use std::path::Path;

/// The repository's validation/*.toml and the examples they use, as (path, text).
const EMBEDDED: &[(&str, &str)] = &[
    (
        "validation/000-zfs-box-2008.toml",
        include_str!("../../../validation/000-zfs-box-2008.toml"),
    ),
    (
        "validation/001-pcix-server.toml",
        include_str!("../../../validation/001-pcix-server.toml"),
    ),
    (
        "validation/002-ashift-2012.toml",
        include_str!("../../../validation/002-ashift-2012.toml"),
    ),
    (
        "validation/004-128k-record-2006.toml",
        include_str!("../../../validation/004-128k-record-2006.toml"),
    ),
    (
        "validation/aztorius-2023-issue15245.toml",
        include_str!("../../../validation/aztorius-2023-issue15245.toml"),
    ),
    (
        "validation/calomel-4tb-hdd.toml",
        include_str!("../../../validation/calomel-4tb-hdd.toml"),
    ),
    (
        "validation/calomel-ssd-840pro.toml",
        include_str!("../../../validation/calomel-ssd-840pro.toml"),
    ),
    (
        "validation/clemtibs-2025-n6005.toml",
        include_str!("../../../validation/clemtibs-2025-n6005.toml"),
    ),
    (
        "validation/pclean-2026-xenon.toml",
        include_str!("../../../validation/pclean-2026-xenon.toml"),
    ),
    (
        "validation/issue10145-2020-860-zvol.toml",
        include_str!("../../../validation/issue10145-2020-860-zvol.toml"),
    ),
    (
        "validation/tnbench-2026-samples.toml",
        include_str!("../../../validation/tnbench-2026-samples.toml"),
    ),
    (
        "validation/issue10066-2020-pm983.toml",
        include_str!("../../../validation/issue10066-2020-pm983.toml"),
    ),
    (
        "validation/issue17940-2025-nvme.toml",
        include_str!("../../../validation/issue17940-2025-nvme.toml"),
    ),
    (
        "validation/issue9786-2019-970-evo-plus.toml",
        include_str!("../../../validation/issue9786-2019-970-evo-plus.toml"),
    ),
    (
        "validation/kmova-2020-gcp-nvme.toml",
        include_str!("../../../validation/kmova-2020-gcp-nvme.toml"),
    ),
    (
        "validation/microuser-2019-zfs-tune-bench.toml",
        include_str!("../../../validation/microuser-2019-zfs-tune-bench.toml"),
    ),
    (
        "validation/eirik-2023-pve-mirror.toml",
        include_str!("../../../validation/eirik-2023-pve-mirror.toml"),
    ),
    (
        "validation/smartos847-2019-p4600.toml",
        include_str!("../../../validation/smartos847-2019-p4600.toml"),
    ),
    (
        "validation/issue14917-2023-hc550.toml",
        include_str!("../../../validation/issue14917-2023-hc550.toml"),
    ),
    (
        "validation/duzlov-2023-fsync.toml",
        include_str!("../../../validation/duzlov-2023-fsync.toml"),
    ),
    (
        "validation/pajkastare-2024.toml",
        include_str!("../../../validation/pajkastare-2024.toml"),
    ),
    (
        "validation/phaus-2016-dl380.toml",
        include_str!("../../../validation/phaus-2016-dl380.toml"),
    ),
    (
        "validation/pruiz-2018-issue7834.toml",
        include_str!("../../../validation/pruiz-2018-issue7834.toml"),
    ),
    (
        "validation/trenb-2017-issue6278.toml",
        include_str!("../../../validation/trenb-2017-issue6278.toml"),
    ),
    (
        "validation/issue345-2011-cheetah.toml",
        include_str!("../../../validation/issue345-2011-cheetah.toml"),
    ),
    (
        "validation/issue419-2011-raidz1.toml",
        include_str!("../../../validation/issue419-2011-raidz1.toml"),
    ),
    (
        "validation/issue1705-2013-raidz2.toml",
        include_str!("../../../validation/issue1705-2013-raidz2.toml"),
    ),
    (
        "validation/louwrentius-2014-nas.toml",
        include_str!("../../../validation/louwrentius-2014-nas.toml"),
    ),
    (
        "validation/issue3780-2015-raidz2-18.toml",
        include_str!("../../../validation/issue3780-2015-raidz2-18.toml"),
    ),
    (
        "validation/issue2431-2014-r720xd.toml",
        include_str!("../../../validation/issue2431-2014-r720xd.toml"),
    ),
    (
        "validation/issue8561-2019-3x-mirror.toml",
        include_str!("../../../validation/issue8561-2019-3x-mirror.toml"),
    ),
    (
        "validation/issue6453-2019-raidz2-10.toml",
        include_str!("../../../validation/issue6453-2019-raidz2-10.toml"),
    ),
    (
        "validation/issue8560-2019-raidz2-10.toml",
        include_str!("../../../validation/issue8560-2019-raidz2-10.toml"),
    ),
    (
        "validation/issue9375-2022-raidz2-6.toml",
        include_str!("../../../validation/issue9375-2022-raidz2-6.toml"),
    ),
    (
        "validation/issue361-2011-dd-rewrite.toml",
        include_str!("../../../validation/issue361-2011-dd-rewrite.toml"),
    ),
    (
        "validation/issue3950-2015-raidz2-9.toml",
        include_str!("../../../validation/issue3950-2015-raidz2-9.toml"),
    ),
    (
        "validation/ewwhite-2017-zfs-ha.toml",
        include_str!("../../../validation/ewwhite-2017-zfs-ha.toml"),
    ),
    (
        "examples/aztorius-2023-encrypted.toml",
        include_str!("../../../examples/aztorius-2023-encrypted.toml"),
    ),
    (
        "examples/aztorius-2023-plain.toml",
        include_str!("../../../examples/aztorius-2023-plain.toml"),
    ),
    (
        "examples/calomel-24x-samsung-840-pro.toml",
        include_str!("../../../examples/calomel-24x-samsung-840-pro.toml"),
    ),
    (
        "examples/calomel-24x-wd-re-4tb.toml",
        include_str!("../../../examples/calomel-24x-wd-re-4tb.toml"),
    ),
    (
        "examples/clemtibs-n6005-nospecial-noslog.toml",
        include_str!("../../../examples/clemtibs-n6005-nospecial-noslog.toml"),
    ),
    (
        "examples/clemtibs-n6005-nospecial-slog.toml",
        include_str!("../../../examples/clemtibs-n6005-nospecial-slog.toml"),
    ),
    (
        "examples/clemtibs-n6005-special-noslog.toml",
        include_str!("../../../examples/clemtibs-n6005-special-noslog.toml"),
    ),
    (
        "examples/clemtibs-n6005-special-slog.toml",
        include_str!("../../../examples/clemtibs-n6005-special-slog.toml"),
    ),
    (
        "examples/duzlov-2023-apacer-scale.toml",
        include_str!("../../../examples/duzlov-2023-apacer-scale.toml"),
    ),
    (
        "examples/duzlov-2023-main-noslog-core.toml",
        include_str!("../../../examples/duzlov-2023-main-noslog-core.toml"),
    ),
    (
        "examples/duzlov-2023-main-noslog-scale.toml",
        include_str!("../../../examples/duzlov-2023-main-noslog-scale.toml"),
    ),
    (
        "examples/duzlov-2023-main-slog-core.toml",
        include_str!("../../../examples/duzlov-2023-main-slog-core.toml"),
    ),
    (
        "examples/duzlov-2023-main-slog-scale.toml",
        include_str!("../../../examples/duzlov-2023-main-slog-scale.toml"),
    ),
    (
        "examples/duzlov-2023-optane-core.toml",
        include_str!("../../../examples/duzlov-2023-optane-core.toml"),
    ),
    (
        "examples/duzlov-2023-optane-scale.toml",
        include_str!("../../../examples/duzlov-2023-optane-scale.toml"),
    ),
    (
        "examples/duzlov-2023-team480-scale.toml",
        include_str!("../../../examples/duzlov-2023-team480-scale.toml"),
    ),
    (
        "examples/duzlov-2023-team512-core.toml",
        include_str!("../../../examples/duzlov-2023-team512-core.toml"),
    ),
    (
        "examples/duzlov-2023-team512-scale.toml",
        include_str!("../../../examples/duzlov-2023-team512-scale.toml"),
    ),
    (
        "examples/duzlov-2023-tesla-core.toml",
        include_str!("../../../examples/duzlov-2023-tesla-core.toml"),
    ),
    (
        "examples/duzlov-2023-tesla-scale.toml",
        include_str!("../../../examples/duzlov-2023-tesla-scale.toml"),
    ),
    (
        "examples/duzlov-2023-tforce-scale.toml",
        include_str!("../../../examples/duzlov-2023-tforce-scale.toml"),
    ),
    (
        "examples/pajkastare-2024-kingston-nvme.toml",
        include_str!("../../../examples/pajkastare-2024-kingston-nvme.toml"),
    ),
    (
        "examples/pajkastare-2024-samsung-sata-ssd.toml",
        include_str!("../../../examples/pajkastare-2024-samsung-sata-ssd.toml"),
    ),
    (
        "examples/pajkastare-2024-usb3-hdd.toml",
        include_str!("../../../examples/pajkastare-2024-usb3-hdd.toml"),
    ),
    (
        "examples/phaus-dl380-g6-cache1.toml",
        include_str!("../../../examples/phaus-dl380-g6-cache1.toml"),
    ),
    (
        "examples/phaus-dl380-g6-cache2-log.toml",
        include_str!("../../../examples/phaus-dl380-g6-cache2-log.toml"),
    ),
    (
        "examples/phaus-dl380-g6-cache2.toml",
        include_str!("../../../examples/phaus-dl380-g6-cache2.toml"),
    ),
    (
        "examples/phaus-dl380-g6-mirror-sda-sde.toml",
        include_str!("../../../examples/phaus-dl380-g6-mirror-sda-sde.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sda.toml",
        include_str!("../../../examples/phaus-dl380-g6-sda.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdb.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdb.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdc.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdc.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdd.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdd.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sde.toml",
        include_str!("../../../examples/phaus-dl380-g6-sde.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdf.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdf.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdg.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdg.toml"),
    ),
    (
        "examples/phaus-dl380-g6-sdh.toml",
        include_str!("../../../examples/phaus-dl380-g6-sdh.toml"),
    ),
    (
        "examples/phaus-dl380-g6.toml",
        include_str!("../../../examples/phaus-dl380-g6.toml"),
    ),
    (
        "examples/pruiz-2018-zol-0.6.5-rs4k.toml",
        include_str!("../../../examples/pruiz-2018-zol-0.6.5-rs4k.toml"),
    ),
    (
        "examples/pruiz-2018-zol-master-rs16k.toml",
        include_str!("../../../examples/pruiz-2018-zol-master-rs16k.toml"),
    ),
    (
        "examples/pclean-xenon-nvme.toml",
        include_str!("../../../examples/pclean-xenon-nvme.toml"),
    ),
    (
        "examples/pclean-xenon-data0.toml",
        include_str!("../../../examples/pclean-xenon-data0.toml"),
    ),
    (
        "examples/pclean-xenon-data1.toml",
        include_str!("../../../examples/pclean-xenon-data1.toml"),
    ),
    (
        "examples/pclean-xenon-data2.toml",
        include_str!("../../../examples/pclean-xenon-data2.toml"),
    ),
    (
        "examples/issue10145-12x-860-mirror.toml",
        include_str!("../../../examples/issue10145-12x-860-mirror.toml"),
    ),
    (
        "examples/tnbench-prod-5x-905p.toml",
        include_str!("../../../examples/tnbench-prod-5x-905p.toml"),
    ),
    (
        "examples/eirik-pve-2x-dc1500m.toml",
        include_str!("../../../examples/eirik-pve-2x-dc1500m.toml"),
    ),
    (
        "examples/tnbenchhist-5600g-5x-905p.toml",
        include_str!("../../../examples/tnbenchhist-5600g-5x-905p.toml"),
    ),
    (
        "examples/tnbenchhist-5600g-pm9a1.toml",
        include_str!("../../../examples/tnbenchhist-5600g-pm9a1.toml"),
    ),
    (
        "examples/issue10066-6x-pm983-raidz1.toml",
        include_str!("../../../examples/issue10066-6x-pm983-raidz1.toml"),
    ),
    (
        "examples/issue17940-2025-4x-nvme-zfs228.toml",
        include_str!("../../../examples/issue17940-2025-4x-nvme-zfs228.toml"),
    ),
    (
        "examples/issue17940-2025-4x-nvme-zfs234.toml",
        include_str!("../../../examples/issue17940-2025-4x-nvme-zfs234.toml"),
    ),
    (
        "examples/issue9786-2019-970-evo-plus-500gb.toml",
        include_str!("../../../examples/issue9786-2019-970-evo-plus-500gb.toml"),
    ),
    (
        "examples/issue9786-2020-970-evo-plus-1tb.toml",
        include_str!("../../../examples/issue9786-2020-970-evo-plus-1tb.toml"),
    ),
    (
        "examples/kmova-gcp-4vcpu.toml",
        include_str!("../../../examples/kmova-gcp-4vcpu.toml"),
    ),
    (
        "examples/kmova-gcp-16vcpu-60gb.toml",
        include_str!("../../../examples/kmova-gcp-16vcpu-60gb.toml"),
    ),
    (
        "examples/kmova-gcp-16vcpu-30gb.toml",
        include_str!("../../../examples/kmova-gcp-16vcpu-30gb.toml"),
    ),
    (
        "examples/kmova-gcp-6vcpu-30gb.toml",
        include_str!("../../../examples/kmova-gcp-6vcpu-30gb.toml"),
    ),
    (
        "examples/microuser-2019-six8tb.toml",
        include_str!("../../../examples/microuser-2019-six8tb.toml"),
    ),
    (
        "examples/tnbench-m50-raidz1-4.toml",
        include_str!("../../../examples/tnbench-m50-raidz1-4.toml"),
    ),
    (
        "examples/smartos847-p4600.toml",
        include_str!("../../../examples/smartos847-p4600.toml"),
    ),
    (
        "examples/issue14917-10x-hc550-sas.toml",
        include_str!("../../../examples/issue14917-10x-hc550-sas.toml"),
    ),
    (
        "examples/issue345-2011-16x-cheetah.toml",
        include_str!("../../../examples/issue345-2011-16x-cheetah.toml"),
    ),
    (
        "examples/issue419-2011-3x-2tb.toml",
        include_str!("../../../examples/issue419-2011-3x-2tb.toml"),
    ),
    (
        "examples/issue1705-2013-4x-2tb.toml",
        include_str!("../../../examples/issue1705-2013-4x-2tb.toml"),
    ),
    (
        "examples/louwrentius-2014-24x-hds724040.toml",
        include_str!("../../../examples/louwrentius-2014-24x-hds724040.toml"),
    ),
    (
        "examples/seed-000-1320-box.toml",
        include_str!("../../../examples/seed-000-1320-box.toml"),
    ),
    (
        "examples/seed-000-stripe-7.toml",
        include_str!("../../../examples/seed-000-stripe-7.toml"),
    ),
    (
        "examples/seed-001-5x-raidz1-3.toml",
        include_str!("../../../examples/seed-001-5x-raidz1-3.toml"),
    ),
    (
        "examples/seed-001-7x-mirror-2.toml",
        include_str!("../../../examples/seed-001-7x-mirror-2.toml"),
    ),
    (
        "examples/seed-001-pcix-15-disk.toml",
        include_str!("../../../examples/seed-001-pcix-15-disk.toml"),
    ),
    (
        "examples/seed-002-ashift-5x3tb.toml",
        include_str!("../../../examples/seed-002-ashift-5x3tb.toml"),
    ),
    (
        "examples/seed-002-stripe-5x3tb.toml",
        include_str!("../../../examples/seed-002-stripe-5x3tb.toml"),
    ),
    (
        "examples/seed-004-dk32ej.toml",
        include_str!("../../../examples/seed-004-dk32ej.toml"),
    ),
    (
        "examples/trenb-2017-zol-0.6.4.toml",
        include_str!("../../../examples/trenb-2017-zol-0.6.4.toml"),
    ),
    (
        "examples/trenb-2017-zol-0.7.0.toml",
        include_str!("../../../examples/trenb-2017-zol-0.7.0.toml"),
    ),
    (
        "examples/issue3780-2015-18x-raidz2.toml",
        include_str!("../../../examples/issue3780-2015-18x-raidz2.toml"),
    ),
    (
        "examples/issue2431-2014-r720xd-zol.toml",
        include_str!("../../../examples/issue2431-2014-r720xd-zol.toml"),
    ),
    (
        "examples/issue2431-2014-r720xd-freebsd.toml",
        include_str!("../../../examples/issue2431-2014-r720xd-freebsd.toml"),
    ),
    (
        "examples/issue8561-2019-3x-mirror-4tb.toml",
        include_str!("../../../examples/issue8561-2019-3x-mirror-4tb.toml"),
    ),
    (
        "examples/issue6453-2019-raidz2-10-zol-0.6.toml",
        include_str!("../../../examples/issue6453-2019-raidz2-10-zol-0.6.toml"),
    ),
    (
        "examples/issue6453-2019-raidz2-10-zol-0.7.toml",
        include_str!("../../../examples/issue6453-2019-raidz2-10-zol-0.7.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.6-prefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.6-prefetch.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.6-noprefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.6-noprefetch.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.7-prefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.7-prefetch.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.7-noprefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.7-noprefetch.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.8-prefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.8-prefetch.toml"),
    ),
    (
        "examples/issue8560-2019-raidz2-10-zol-0.8-noprefetch.toml",
        include_str!("../../../examples/issue8560-2019-raidz2-10-zol-0.8-noprefetch.toml"),
    ),
    (
        "examples/issue9375-2022-6x-exos-x16.toml",
        include_str!("../../../examples/issue9375-2022-6x-exos-x16.toml"),
    ),
    (
        "examples/issue361-2011-4x-stripe.toml",
        include_str!("../../../examples/issue361-2011-4x-stripe.toml"),
    ),
    (
        "examples/issue3950-2015-raidz2-9.toml",
        include_str!("../../../examples/issue3950-2015-raidz2-9.toml"),
    ),
    (
        "examples/ewwhite-zfs-ha-2017-20x-raidz1.toml",
        include_str!("../../../examples/ewwhite-zfs-ha-2017-20x-raidz1.toml"),
    ),
];

/// One case ready to predict.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The case as written.
    pub case: Case,
    /// Its system file, read and resolved, with the case's ashift, layout and dataset applied.
    pub system: System,
    /// Its workload, read.
    pub workload: Workload,
}

/// One case file: a source and its cases.
#[derive(Debug, Clone)]
pub struct Source {
    /// The case file's name.
    pub file: String,
    /// The text the cases quote.
    pub source: String,
    /// Its grade, where the case file states it.
    pub grade: Option<Grade>,
    /// Its cases, ready to predict.
    pub cases: Vec<Loaded>,
    /// The numbers it publishes that the model is not asked to reproduce.
    pub excluded: Vec<Excluded>,
}

/// Every source of a corpus, in file-name order.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The sources, in file-name order.
    pub sources: Vec<Source>,
}

impl Corpus {
    /// The corpus built into the binary, resolved against `catalog`.
    pub fn embedded(catalog: &Catalog) -> Result<Corpus, ValidateError> {
        let files = EMBEDDED
            .iter()
            .filter(|(name, _)| name.starts_with("validation/"))
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        Corpus::from_texts(files, catalog, |relative| {
            let name = embedded_name(relative);
            EMBEDDED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, text)| (n.to_string(), text.to_string()))
                .ok_or_else(|| format!("{name} is not in the embedded corpus"))
        })
    }

    /// A corpus from case files given as (name, text), whose system files `system` reads by
    /// the path a case gives (relative to its case file) as (name, text).
    pub fn from_texts(
        mut files: Vec<(String, String)>,
        catalog: &Catalog,
        system: impl Fn(&str) -> Result<(String, String), String>,
    ) -> Result<Corpus, ValidateError> {
        files.sort();
        let sources = files
            .iter()
            .map(|(file, text)| load(file, text, catalog, &system))
            .collect::<Result<_, _>>()?;
        Ok(Corpus { sources })
    }

    /// Every case of every source.
    pub fn cases(&self) -> impl Iterator<Item = &Loaded> {
        self.sources.iter().flat_map(|s| &s.cases)
    }
}

/// One case file's cases with their systems and workloads.
fn load(
    file: &str,
    text: &str,
    catalog: &Catalog,
    system: &impl Fn(&str) -> Result<(String, String), String>,
) -> Result<Source, ValidateError> {
    let CaseFile {
        source,
        grade,
        cases,
        excluded,
    } = parse(file, text)?;
    let cases = cases
        .into_iter()
        .map(|case| {
            let bad = |message: String| ValidateError::Case {
                file: file.to_string(),
                id: case.id.clone(),
                message,
            };
            let (name, text) = system(&case.system).map_err(bad)?;
            let mut resolved =
                model::system_file::parse(&text, &name, catalog).map_err(|e| bad(e.to_string()))?;
            if let Some(ashift) = case.ashift {
                resolved.pool.ashift = ashift;
            }
            if let Some(dataset) = &case.dataset {
                first_dataset(&mut resolved, dataset).map_err(bad)?;
            }

            if let Some(layout) = &case.layout {
                let layout = layout
                    .parse()
                    .map_err(|e: model::LayoutError| bad(e.to_string()))?;
                with_layout(&mut resolved, layout).map_err(bad)?;
            }
            let mut workload = Workload::parse(&case.workload).map_err(|e| bad(e.to_string()))?;
            if let Some(ratio) = case.compressratio {
                if workload.data != model::workload::Data::Random {
                    return Err(bad("compressratio is for a run of random buffers".into()));
                }
                let fill_pct = (100.0 / ratio).round().clamp(1.0, 100.0) as u8;
                workload.data = model::workload::Data::Sparse { fill_pct };
            }
            Ok(Loaded {
                system: resolved,
                workload,
                case,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Source {
        file: file.to_string(),
        source,
        grade,
        cases,
        excluded,
    })
}

/// `system` with `layout` as its pool, on its first disks (the others left out). When the
/// system's normal vdevs have as many disks as `layout`, only their layout changes and the
/// special, log and cache devices stay (the same machine's pool made another way).
fn with_layout(system: &mut System, layout: model::Layout) -> Result<(), String> {
    let leaves = layout.leaves() as usize;
    let normal: Vec<usize> = (0..system.pool.vdevs.len())
        .filter(|&i| system.pool.vdevs[i].class == model::VdevClass::Normal)
        .collect();
    let normal_leaves: u32 = normal
        .iter()
        .map(|&i| system.pool.vdevs[i].layout.leaves())
        .sum();
    if normal.len() == 1 && normal_leaves as usize == leaves {
        system.pool.vdevs[normal[0]].layout = layout;
        return Ok(());
    }
    if leaves > system.disks.len() {
        return Err(format!(
            "{layout} needs {leaves} disks; the system has {}",
            system.disks.len()
        ));
    }
    let leaf = system.pool.vdevs[0].leaf;
    system.disks.truncate(leaves);
    system.pool.vdevs = vec![model::TopLevel {
        class: model::VdevClass::Normal,
        layout,
        leaf,
    }];
    system.pool.spares = 0;
    Ok(())
}

/// Makes the dataset named `name` the pool's first, the one a workload runs on.
fn first_dataset(system: &mut System, name: &str) -> Result<(), String> {
    let datasets = &mut system.pool.datasets;
    let i = datasets
        .iter()
        .position(|d| d.name == name)
        .ok_or_else(|| format!("the system file has no dataset '{name}'"))?;
    datasets[..=i].rotate_right(1);
    Ok(())
}

/// `../examples/x.toml` seen from `validation/`: `examples/x.toml`.
fn embedded_name(relative: &str) -> String {
    let mut parts = vec!["validation"];
    for part in Path::new(relative).iter().filter_map(|p| p.to_str()) {
        match part {
            ".." => {
                parts.pop();
            }
            "." => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_file_of_the_repository_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation");
        let on_disk = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "toml")
            })
            .count();
        let corpus = Corpus::embedded(Catalog::embedded()).unwrap();
        assert_eq!(corpus.sources.len(), on_disk);
    }

    #[test]
    fn embedded_systems_resolve_as_from_the_directory() {
        assert_eq!(
            embedded_name("../examples/seed-004-dk32ej.toml"),
            "examples/seed-004-dk32ej.toml"
        );
        let corpus = Corpus::embedded(Catalog::embedded()).unwrap();
        let seed004 = corpus
            .sources
            .iter()
            .find(|s| s.file.contains("004"))
            .unwrap();
        assert_eq!(seed004.cases[0].system.disks.len(), 1);
    }

    #[test]
    fn a_case_runs_on_the_dataset_it_names() {
        let corpus = Corpus::embedded(Catalog::embedded()).unwrap();
        let case = corpus
            .cases()
            .find(|c| c.case.id == "pajkastare-nvme-rs16k-lz4-gcm-sub1-bw")
            .unwrap();
        let first = &case.system.pool.datasets[0];
        assert!(first
            .name
            .ends_with("Test_recordsize_16k/COMPlz4ENCaes-256-gcm"));
        assert_eq!(first.recordsize, 16 * 1024);
        assert_eq!(
            first.encryption,
            model::dataset::Encryption::Gcm { bits: 256 }
        );
        // The others stay, in their order: 24 datasets, one per property set of the sweep.
        assert_eq!(case.system.pool.datasets.len(), 24);
        let mut system = case.system.clone();
        assert!(first_dataset(&mut system, "tank/none").is_err());
    }
}
