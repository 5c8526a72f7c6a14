//! Random writes into a record the open txg already holds dirty. dbuf_dirty finds the
//! record's dirty record of this txg and returns it ("If this buffer is already dirty, we're
//! done", dbuf.c), so the txg writes the record once however many of its writes fell into it,
//! and only its first write of the txg reads what is not cached (dmu_buf_will_dirty) and pays
//! dbuf_dirty's full pass (`record_dirty_cycles`). Writes of part of a record over a file not
//! much larger than a txg's dirty data often fall into records already dirty: fio's 4 KiB
//! random writes over a 4 GiB file into 128 KiB records, a txg holding 2.4 GiB of them, write
//! each dirtied record about 1.5 times.

/// Share of a job's partial-record random writes that dirty a record anew in their txg, when
/// they fall at random over `span` bytes in `block_size` pieces of records of `recordsize`
/// bytes and a txg holds `per_txg` dirty records (dbuf_dirty counts each whole,
/// dsl_pool_dirty_space). A benchmark writes each block of its file once before any again
/// (fio's random map, on unless norandommap; the same is taken for every tool), so after a
/// fraction f of the file's blocks a record of k blocks is still clean with probability
/// (1 - f)^k. The txg closes when D = R (1 - (1 - f)^k) of the file's R records are dirty,
/// after f R k writes: D / (f R k) of them dirtied a record anew. A txg holding the whole file
/// (D >= R) is taken to hold one pass of it (f = 1). Whole-record writes (k = 1) and writes
/// with no stated span dirty a record each.
pub(crate) fn anew_share(span: Option<u64>, block_size: u64, recordsize: u64, per_txg: f64) -> f64 {
    let rs = recordsize.max(1) as f64;
    let k = (rs / block_size.max(1) as f64).floor();
    let Some(span) = span.filter(|&s| s > 0 && k > 1.0) else {
        return 1.0;
    };
    let records = (span as f64 / rs).ceil();
    let dirty = (per_txg.max(1.0) / records).min(1.0);
    // f = 1 - (1 - D/R)^(1/k), written with ln_1p and exp_m1 for accuracy when D << R.
    let f = if dirty >= 1.0 {
        1.0
    } else {
        -((-dirty).ln_1p() / k).exp_m1()
    };
    dirty / (f * k)
}

#[cfg(test)]
mod tests {
    use super::*;

    use model::units::GIB;

    #[test]
    fn whole_record_writes_and_unstated_spans_dirty_a_record_each() {
        assert_eq!(anew_share(Some(4 * GIB), 128 << 10, 128 << 10, 1e4), 1.0);
        assert_eq!(anew_share(Some(4 * GIB), 1 << 20, 128 << 10, 1e4), 1.0);
        assert_eq!(anew_share(None, 4096, 128 << 10, 1e4), 1.0);
    }

    #[test]
    fn small_writes_into_a_file_near_a_txg_share_their_records() {
        // pajkastare's sub-test 1: 4 KiB writes over 4 GiB into 128 KiB records, a txg of
        // 2.4 GiB (60% of zfs_dirty_data_max's 4 GiB): D/R = 0.6 of 32,768 records, k = 32,
        // f = 1 - 0.4^(1/32) = 0.028227, share = 0.6 / (32 f) = 0.66423.
        let per_txg = 0.6 * 32768.0;
        let share = anew_share(Some(4 * GIB), 4096, 128 << 10, per_txg);
        assert!((share - 0.66423).abs() < 1e-5, "{share}");
        // 16 KiB records, k = 4: f = 1 - 0.4^(1/4) = 0.20473, share = 0.6 / 0.81893 = 0.73267.
        let share = anew_share(Some(4 * GIB), 4096, 16 << 10, 0.6 * 262144.0);
        assert!((share - 0.73267).abs() < 1e-5, "{share}");
    }

    #[test]
    fn a_file_far_larger_than_a_txg_dirties_a_record_per_write() {
        // 1 TiB in 128 KiB records, 2.4 GiB a txg: D/R = 0.0023, share 0.9988.
        let share = anew_share(Some(1024 * GIB), 4096, 128 << 10, 19660.8);
        assert!(share > 0.998 && share < 1.0, "{share}");
    }

    #[test]
    fn a_file_a_txg_holds_whole_writes_each_record_once_a_pass() {
        // 256 MiB, 2.4 GiB a txg: one pass of 32 writes per 128 KiB record.
        assert_eq!(
            anew_share(Some(256 << 20), 4096, 128 << 10, 19660.8),
            1.0 / 32.0
        );
    }
}
