//! The disk inside an external enclosure, bounded by the rate the product is sold at.
//!
//! An external drive (a USB enclosure sold with its disk in it) is rated as one product: its
//! maker states "up to N MB/s", the rate at the disk's outer tracks through the bridge. A
//! source that names only the product leaves the disk unnamed, and a catalog disk stands in
//! for it; the stand-in may be faster than anything the product was sold with. Where the maker
//! states the family's rate over every size it sells, no disk in it reaches more, so each of
//! the stand-in's sequential rates is taken at most that figure. Its seeks, rotation and
//! queue stay the stand-in's: the product figure says nothing of them.

use crate::hardware::DiskModel;

/// `model` as the disk of an enclosure whose product is rated at `mb_s`, each bounded figure
/// citing `source`: the outer and inner rates, the measured zones and a flash drive's write
/// rates, each at most `mb_s`; a rate already below it stays as it is.
pub(crate) fn bounded(mut model: DiskModel, mb_s: f64, source: &str) -> DiskModel {
    // The closure holds the sources alone (a closure captures the fields it uses), so the
    // rates beside them can be handed to it.
    let sources = &mut model.sources;
    let mut bound = |key: &str, rate: &mut f64| {
        if *rate > mb_s {
            *rate = mb_s;
            sources.insert(
                key.to_string(),
                format!("at most the enclosure's stated {mb_s} MB/s: {source}"),
            );
        }
    };
    bound("seq_outer_mb_s", &mut model.seq_outer_mb_s);
    bound("seq_inner_mb_s", &mut model.seq_inner_mb_s);
    if let Some(w) = model.seq_write_mb_s.as_mut() {
        bound("seq_write_mb_s", w);
    }
    if let Some(w) = model.sustained_write_mb_s.as_mut() {
        bound("sustained_write_mb_s", w);
    }
    for zone in &mut model.zones {
        bound("zones", &mut zone.mb_s);
    }
    model
}

#[cfg(test)]
mod tests {
    use super::bounded;
    use crate::hardware::ZoneRate;
    use crate::Catalog;

    #[test]
    fn the_stand_in_takes_the_products_rate_where_it_is_faster() {
        // The HC530's data sheet rate, 267 MB/s at the outer tracks, its inner rate the
        // catalog's estimate below 200: a product sold at 200 MB/s bounds the first only.
        let hc530 = Catalog::embedded()
            .disk("wd-ultrastar-hc530-14tb")
            .unwrap()
            .clone();
        assert_eq!(hc530.seq_outer_mb_s, 267.0);
        let inner = hc530.seq_inner_mb_s;
        assert!(inner < 200.0);
        let inside = bounded(hc530.clone(), 200.0, "a magazine");
        assert_eq!(inside.seq_outer_mb_s, 200.0);
        assert_eq!(inside.seq_inner_mb_s, inner);
        assert_eq!(
            inside.sources["seq_outer_mb_s"],
            "at most the enclosure's stated 200 MB/s: a magazine"
        );
        assert_eq!(
            inside.sources.get("seq_inner_mb_s"),
            hc530.sources.get("seq_inner_mb_s")
        );
        // Seeks, rotation and queue stay the stand-in's.
        assert_eq!(
            (inside.rpm, inside.queue_depth),
            (hc530.rpm, hc530.queue_depth)
        );
    }

    #[test]
    fn zones_and_a_flash_drives_writes_are_bounded_alike() {
        let mut m = Catalog::embedded()
            .disk("wd-ultrastar-hc530-14tb")
            .unwrap()
            .clone();
        m.zones = vec![
            ZoneRate {
                offset_bytes: 0,
                mb_s: 260.0,
            },
            ZoneRate {
                offset_bytes: 1 << 40,
                mb_s: 150.0,
            },
        ];
        m.seq_write_mb_s = Some(250.0);
        let inside = bounded(m, 200.0, "s");
        let rates: Vec<f64> = inside.zones.iter().map(|z| z.mb_s).collect();
        assert_eq!(rates, [200.0, 150.0]);
        assert_eq!(inside.seq_write_mb_s, Some(200.0));
        assert_eq!(inside.sustained_write_mb_s, None);
    }
}
