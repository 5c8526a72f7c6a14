//! The failure figures a disk is assessed with: what large fleets measure, not what data
//! sheets promise. The data sheet's figures stay beside them for comparison.
//!
//! - Whole-disk failures: the annualised failure rate of a large fleet of the disk's class,
//!   unless `--afr` gives one. Backblaze's 2024 report of ~300,000 hard disks gives 1.57% a
//!   year over all models (https://www.backblaze.com/blog/backblaze-drive-stats-for-2024/),
//!   where data sheets give 0.35-0.87%; its 2022 report on its 2,906 boot SSDs gives 0.98%
//!   (25 failures in 934,441 drive days; "below 1%",
//!   https://www.tomshardware.com/news/backblaze-ssd-annual-stats-for-2022; the figures,
//!   https://nydailypaper.com/ssds-are-getting-more-and-more-reliable-and-we-have-the-numbers-to-prove-it/).
//! - Latent sector errors met by a rebuild: a sector that can no longer be read sits
//!   undetected until something reads it; ZFS's scrub reads everything once per
//!   [`SCRUB_INTERVAL_HOURS`] and repairs what it finds. So at a random moment a disk holds an
//!   unrepaired latent error with probability `q * (interval / 2) / 8760`, where `q` is the
//!   share of disks developing one in a year, and a rebuild reading `B` of its `C` bytes meets
//!   it with probability `B / C` of that. Per bit read: `q * interval / 2 / 8760 / (8 C)`.
//!   `q` from field studies: of 1.53 million disks over 32 months, 3.15% of nearline (SATA) and
//!   1.46% of enterprise disks developed at least one latent sector error in their first 12
//!   months (Bairavasundaram et al., SIGMETRICS 2007,
//!   https://research.cs.wisc.edu/adsl/Publications/latent-sigmetrics07.html; the figures as
//!   summarised at https://dotat.at/:/AFU3K); for flash,
//!   30-80% of Google's SSDs developed at least one bad block in their first four years
//!   (Schroeder et al., FAST '16,
//!   https://www.usenix.org/conference/fast16/technical-sessions/presentation/schroeder;
//!   summarised at http://benediktson.com/?m=201602):
//!   the low end, 1 - 0.7^(1/4) = 8.5% a year, read as drives developing a latent error.
//!   The data sheet's "1 in 10^15 bits" is a specification bound: the rate used is the
//!   smaller of the two.

use crate::mttdl::SCRUB_INTERVAL_HOURS;
use crate::Error;
use model::hardware::{DiskModel, Interface, Medium};

/// Field AFRs, percent: hard disks, and solid state (SATA and NVMe alike).
pub(crate) const FIELD_AFR_HDD_PCT: f64 = 1.57;
pub(crate) const FIELD_AFR_FLASH_PCT: f64 = 0.98;

/// Share of disks developing at least one latent sector error in a year: nearline (SATA)
/// and enterprise (SAS, SCSI) hard disks, and flash.
pub(crate) const LATENT_NEARLINE: f64 = 0.0315;
pub(crate) const LATENT_ENTERPRISE: f64 = 0.0146;
pub(crate) const LATENT_FLASH: f64 = 0.085;

const HOURS_PER_YEAR: f64 = 8760.0;

/// The failure figures used for a disk, and the data sheet's beside them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FailureFigures {
    /// Annualised failure rate used, percent, and where it comes from.
    pub afr_pct: f64,
    /// Where the AFR used comes from.
    pub afr_source: String,
    /// The data sheet's AFR (its own, or from its MTBF), percent, when it gives one.
    pub datasheet_afr_pct: Option<f64>,
    /// Latent errors met per bit a rebuild reads: the field rate, or the data sheet's bound
    /// where that is lower.
    pub uer_per_bit: f64,
    /// Where the latent error rate used comes from.
    pub uer_source: String,
    /// The data sheet's unrecoverable-read-error specification, a bound.
    pub datasheet_uer_per_bit: Option<f64>,
}

/// The figures for `disk`, with `afr_pct` (`--afr`) in place of the field AFR when given.
pub fn failure_figures(disk: &DiskModel, afr_pct: Option<f64>) -> Result<FailureFigures, Error> {
    let flash = disk.medium != Medium::Hdd;
    let (field_afr, fleet) = if flash {
        (FIELD_AFR_FLASH_PCT, "Backblaze's boot SSDs, 2022")
    } else {
        (FIELD_AFR_HDD_PCT, "Backblaze's hard disks, 2024")
    };
    let (afr, afr_source) = match afr_pct {
        Some(a) if a > 0.0 && a < 100.0 => (a, "--afr".to_string()),
        Some(a) => {
            return Err(Error::Invalid(format!(
                "--afr is a yearly failure percentage above 0 and below 100, not {a}"
            )))
        }
        None => (
            field_afr,
            format!("field rate of {fleet} (docs/assumptions.md)"),
        ),
    };
    let (q, class) = match (flash, disk.interface) {
        (true, _) => (LATENT_FLASH, "flash"),
        (false, Interface::Sas | Interface::Scsi) => (LATENT_ENTERPRISE, "enterprise disks"),
        (false, _) => (LATENT_NEARLINE, "nearline disks"),
    };
    let field_uer =
        q * SCRUB_INTERVAL_HOURS / 2.0 / HOURS_PER_YEAR / (disk.capacity_bytes.max(1) as f64 * 8.0);
    let (uer, uer_source) = match disk.uer_per_bit {
        Some(sheet) if sheet < field_uer => (sheet, "the data sheet's bound".to_string()),
        _ => (
            field_uer,
            format!(
                "latent sector errors of {class} ({:.2}% a year) left until a monthly scrub",
                q * 100.0
            ),
        ),
    };
    Ok(FailureFigures {
        afr_pct: afr,
        afr_source,
        datasheet_afr_pct: crate::lifetime::disk_afr_pct(disk),
        uer_per_bit: uer,
        uer_source,
        datasheet_uer_per_bit: disk.uer_per_bit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::Catalog;

    #[test]
    fn field_figures_by_hand() {
        let exos = Catalog::embedded().disk("seagate-exos-x16-16tb").unwrap();
        let f = failure_figures(exos, None).unwrap();
        assert_eq!(f.afr_pct, 1.57);
        assert_eq!(f.datasheet_afr_pct, Some(0.35));
        // 0.0315 * 365 / 8760 / (8 * 16.0009e12) = 1.0254e-17 per bit, 100x under the
        // data sheet's 1e-15: a whole-disk read at 80% meets one with chance 0.105%.
        assert!(
            (f.uer_per_bit / 1.0254e-17 - 1.0).abs() < 1e-3,
            "{}",
            f.uer_per_bit
        );
        assert_eq!(f.datasheet_uer_per_bit, Some(1e-15));
        let f = failure_figures(exos, Some(0.5)).unwrap();
        assert_eq!((f.afr_pct, f.afr_source.as_str()), (0.5, "--afr"));
        assert!(failure_figures(exos, Some(0.0)).is_err());
        assert!(failure_figures(exos, Some(100.0)).is_err());
        let sas = Catalog::embedded().disk("wd-re-sas-4tb").unwrap();
        let f = failure_figures(sas, None).unwrap();
        assert!(
            (f.uer_per_bit / (0.0146 * 365.0 / 8760.0 / (8.0 * 4.000787e12)) - 1.0).abs() < 1e-4
        );
        // Flash with no data-sheet figure gets the field one (it had 0).
        let nvme = Catalog::embedded().disk("micron-7450-pro-3.84tb").unwrap();
        let f = failure_figures(nvme, None).unwrap();
        assert_eq!(f.afr_pct, 0.98);
        assert!(f.uer_per_bit > 0.0 && f.datasheet_uer_per_bit.is_none());
    }
}
