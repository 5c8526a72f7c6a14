//! How long a disk lives: exponential (constant hazard, the assumption behind every MTTDL
//! closed form) or Weibull (a hazard that falls with age, infant mortality, shape < 1, or
//! rises, wear-out, shape > 1).

use crate::rng::Rng;
use crate::{positive, Error};
use model::hardware::DiskModel;
use rand_distr::Weibull;

/// Hours in a year, as AFR and MTBF are related (docs/zfs-internals.md §7: AFR ~ 8760 h / MTBF).
pub const HOURS_PER_YEAR: f64 = 8760.0;

/// A disk lifetime distribution, in hours from the moment the disk enters service.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Lifetime {
    /// Constant failure rate; `mtbf_hours` is its mean.
    Exponential {
        /// The mean lifetime, hours.
        mtbf_hours: f64,
    },
    /// Survival exp(-(t / scale)^shape).
    Weibull {
        /// Below 1 the hazard falls with age, above 1 it rises.
        shape: f64,
        /// The age by which 63.2% have failed, hours.
        scale_hours: f64,
    },
}

/// A disk's data-sheet annualised failure rate, percent (shown beside the field rate the
/// assessment uses, `crate::failure_figures`): its own figure, else
/// the exact exponential form of docs/zfs-internals.md §7's AFR ~ 8760 h / MTBF from its MTBF,
/// 1 - exp(-8760 / MTBF) (1,000,000 h: 0.872%, where the first-order form gives 0.876%).
/// `None` when the disk has neither figure.
pub fn disk_afr_pct(disk: &DiskModel) -> Option<f64> {
    disk.afr_pct.or_else(|| {
        disk.mtbf_hours
            .map(|mtbf| -(-HOURS_PER_YEAR / mtbf).exp_m1() * 100.0)
    })
}

/// The lifetime of a disk failing `afr_pct` percent a year (`crate::failure_figures`):
/// exponential, or Weibull of `weibull_shape` failing at that rate on average over a mission
/// of `mission_hours`.
pub fn lifetime(
    afr_pct: f64,
    weibull_shape: Option<f64>,
    mission_hours: f64,
) -> Result<Lifetime, Error> {
    match weibull_shape {
        None => Lifetime::from_afr(afr_pct),
        Some(shape) => Lifetime::weibull_from_afr(shape, afr_pct, mission_hours),
    }
}

/// -ln(1 - AFR): the cumulative hazard of one year for an annualised failure rate in percent.
fn yearly_hazard(afr_pct: f64) -> Result<f64, Error> {
    if !(afr_pct > 0.0 && afr_pct < 100.0) {
        return Err(Error::Invalid(format!(
            "an AFR is a percentage between 0 and 100, not {afr_pct}"
        )));
    }
    Ok(-(1.0 - afr_pct / 100.0).ln())
}

impl Lifetime {
    /// Exponential lifetime with this MTBF.
    pub fn from_mtbf(mtbf_hours: f64) -> Result<Lifetime, Error> {
        Ok(Lifetime::Exponential {
            mtbf_hours: positive("MTBF", mtbf_hours)?,
        })
    }

    /// Exponential lifetime that fails `afr_pct` percent of disks within a year:
    /// rate = -ln(1 - AFR) per year (the exact form of AFR ~ 8760 / MTBF,
    /// docs/zfs-internals.md §7).
    pub fn from_afr(afr_pct: f64) -> Result<Lifetime, Error> {
        Ok(Lifetime::Exponential {
            mtbf_hours: HOURS_PER_YEAR / yearly_hazard(afr_pct)?,
        })
    }

    /// Weibull lifetime of this shape whose failures over `mission_hours` are those of
    /// `afr_pct` a year held for the whole mission: (T / scale)^shape = (T / 8760 h) x
    /// -ln(1 - AFR). A field AFR is a fleet's average over its drives' ages; scaling the shape
    /// to the first year instead made wear-out (shape 3) fail 86% of disks in 5 years where
    /// fleets lose about 8%.
    pub fn weibull_from_afr(
        shape: f64,
        afr_pct: f64,
        mission_hours: f64,
    ) -> Result<Lifetime, Error> {
        let shape = positive("Weibull shape", shape)?;
        let mission_hours = positive("mission", mission_hours)?;
        let hazard = yearly_hazard(afr_pct)? * mission_hours / HOURS_PER_YEAR;
        Ok(Lifetime::Weibull {
            shape,
            scale_hours: mission_hours / hazard.powf(1.0 / shape),
        })
    }

    /// Weibull lifetime from its two parameters.
    pub fn weibull(shape: f64, scale_hours: f64) -> Result<Lifetime, Error> {
        Ok(Lifetime::Weibull {
            shape: positive("Weibull shape", shape)?,
            scale_hours: positive("Weibull scale", scale_hours)?,
        })
    }

    /// The MTBF a closed form can use: defined only for constant hazard.
    pub fn mtbf_hours(&self) -> Option<f64> {
        match *self {
            Lifetime::Exponential { mtbf_hours } => Some(mtbf_hours),
            Lifetime::Weibull { .. } => None,
        }
    }

    /// Failures one disk expects over `hours` without replacement: the cumulative hazard
    /// H(t), t / MTBF or (t / scale)^shape. It sizes the work of a simulation.
    pub fn cumulative_hazard(&self, hours: f64) -> f64 {
        match *self {
            Lifetime::Exponential { mtbf_hours } => hours / mtbf_hours,
            Lifetime::Weibull { shape, scale_hours } => (hours / scale_hours).powf(shape),
        }
    }

    /// Draws one lifetime by inverting the survival function.
    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        self.sample_scaled(rng, 1.0)
    }

    /// Draws one lifetime of a disk whose hazard is `hazard` times this one's: an exponential
    /// of mean MTBF / hazard, or a Weibull of the same shape whose scale shrinks by
    /// hazard^(1/shape), since (t / scale)^shape x hazard = (t / (scale / hazard^(1/shape)))^shape.
    #[inline]
    pub fn sample_scaled(&self, rng: &mut Rng, hazard: f64) -> f64 {
        match *self {
            Lifetime::Exponential { mtbf_hours } => mtbf_hours / hazard * rng.exp1(),
            Lifetime::Weibull { shape, scale_hours } => {
                let scale = scale_hours / hazard.powf(1.0 / shape);
                // Both are positive and finite (Lifetime::weibull checks them, a batch's
                // hazard is a gamma variate): the distribution always exists.
                Weibull::new(scale, shape).map_or(f64::INFINITY, |w| rng.draw(&w))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn afr_and_mtbf() {
        // AFR 0.876% -> -ln(0.99124) = 0.00879859 per year -> 995,613.6 h (the first-order
        // 8760 / 0.00876 gives 1e6 h).
        let Lifetime::Exponential { mtbf_hours } = Lifetime::from_afr(0.876).unwrap() else {
            panic!()
        };
        assert!((mtbf_hours - 995_613.6).abs() < 0.1, "{mtbf_hours}");
        assert!(Lifetime::from_afr(100.0).is_err());
        assert!(Lifetime::from_mtbf(-1.0).is_err());
    }

    #[test]
    fn afr_from_the_mtbf_when_missing() {
        let mut disk = model::Catalog::embedded()
            .disk("wd-red-plus-4tb")
            .unwrap()
            .clone();
        // The WD Red Plus has an MTBF of 1e6 h and no AFR: 1 - exp(-0.00876) = 0.00876 - 0.00876^2 / 2 + 0.00876^3 / 6 = 0.872174%.
        assert_eq!((disk.afr_pct, disk.mtbf_hours), (None, Some(1e6)));
        let afr = disk_afr_pct(&disk).unwrap();
        assert!((afr - 0.872_174_3).abs() < 1e-7, "{afr}");
        // ... and the exponential lifetime gives the MTBF back.
        let mtbf = lifetime(afr, None, 5.0 * HOURS_PER_YEAR)
            .unwrap()
            .mtbf_hours()
            .unwrap();
        assert!((mtbf / 1e6 - 1.0).abs() < 1e-9, "{mtbf}");
        assert!(matches!(
            lifetime(afr, Some(3.0), 5.0 * HOURS_PER_YEAR).unwrap(),
            Lifetime::Weibull { shape, .. } if shape == 3.0
        ));
        // An AFR wins over the MTBF; neither: the data sheet gives none.
        disk.afr_pct = Some(2.0);
        assert_eq!(disk_afr_pct(&disk), Some(2.0));
        disk.afr_pct = None;
        disk.mtbf_hours = None;
        assert_eq!(disk_afr_pct(&disk), None);
    }

    #[test]
    fn weibull_of_shape_one_is_exponential() {
        // Shape 1, scale 1000 h: mean 1000 h; standard error 1000 / sqrt(1e5) = 3.2 h.
        let l = Lifetime::weibull(1.0, 1000.0).unwrap();
        let mut rng = Rng::seeded(9);
        let mean = (0..100_000).map(|_| l.sample(&mut rng)).sum::<f64>() / 1e5;
        assert!((mean - 1000.0).abs() < 16.0, "{mean}");
        assert_eq!(l.mtbf_hours(), None);
        assert!(Lifetime::weibull(0.0, 1000.0).is_err());
    }

    #[test]
    fn weibull_holds_the_afr_over_the_mission() {
        // Whatever the shape, P(fail within 5 years) is that of 1.57% a year for 5 years:
        // 1 - 0.9843^5 = 7.61% (Backblaze's 2024 field AFR; fleets lose about 8% in 5 years).
        let mission = 5.0 * HOURS_PER_YEAR;
        for shape in [0.7, 1.0, 3.0] {
            let l = Lifetime::weibull_from_afr(shape, 1.57, mission).unwrap();
            let failed = -(-l.cumulative_hazard(mission)).exp_m1();
            assert!((failed - 0.0761).abs() < 0.0001, "shape {shape}: {failed}");
            let mut rng = Rng::seeded(3);
            let n = 100_000;
            let early = (0..n).filter(|_| l.sample(&mut rng) < mission).count();
            let p = early as f64 / n as f64;
            // Standard error sqrt(0.076 x 0.924 / n) = 0.00084: five of them.
            assert!((p - 0.0761).abs() < 0.0042, "shape {shape}: {p}");
        }
        // Wear-out puts the failures late: shape 3 fails 0.06% in the first year, 1/125 of
        // the mission's 7.9% cumulative hazard.
        let worn = Lifetime::weibull_from_afr(3.0, 1.57, mission).unwrap();
        let first = worn.cumulative_hazard(HOURS_PER_YEAR);
        assert!((first - 0.079_11 / 125.0).abs() < 1e-6, "{first}");
    }
}
