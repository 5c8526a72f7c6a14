//! The words for what a prediction leaves out: one sentence per fact the performance engine
//! names, made here for every front end (the command line's text, `--json`, the web API and a
//! bench's stored predictions), and the prediction with them.

use perf::{NotModelled, Prediction};
use serde::Serialize;

/// A prediction with what it leaves out in words, as `--json` prints it: the prediction's
/// fields, then `not_modelled`, one sentence each.
#[derive(Debug, Clone, Serialize)]
pub struct WordedPrediction {
    /// The figures.
    #[serde(flatten)]
    pub prediction: Prediction,
    /// What the prediction leaves out, one sentence each.
    pub not_modelled: Vec<String>,
}

impl From<Prediction> for WordedPrediction {
    fn from(prediction: Prediction) -> Self {
        WordedPrediction {
            not_modelled: prediction.not_modelled.iter().map(sentence).collect(),
            prediction,
        }
    }
}

/// The figures are the prediction's; only the words are added.
impl std::ops::Deref for WordedPrediction {
    type Target = Prediction;

    fn deref(&self) -> &Prediction {
        &self.prediction
    }
}

/// The sentence that names `fact` (docs/performance-model.md, "What the model does not
/// capture").
pub fn sentence(fact: &NotModelled) -> String {
    let text = match fact {
        NotModelled::CacheFlush { disk } => {
            return format!(
                "how long {disk} takes to flush its cache: its maker states no power-loss \
                 protection, so each ZIL commit waits a default 1.5 ms (drives measured take \
                 0.6-6 ms; with protection, none)"
            )
        }
        NotModelled::SpecialVdev => SPECIAL_VDEV,
        NotModelled::DedupVdev => DEDUP_VDEV,
        NotModelled::L2arcWarmup => L2ARC_WARMUP,
        NotModelled::ImpliedLinks => IMPLIED_LINKS,
        NotModelled::ImpliedOnboardSata => IMPLIED_ONBOARD_SATA,
        NotModelled::ArcUnderReaders => ARC_UNDER_READERS,
        NotModelled::RandomDevice => RANDOM_DEVICE,
        NotModelled::StpThroughExpander => STP_THROUGH_EXPANDER,
        NotModelled::ZvolPath => ZVOL_PATH,
        NotModelled::SharingProtocol => SHARING_PROTOCOL,
        NotModelled::PoolFill => POOL_FILL,
        NotModelled::MixedStreams => MIXED_STREAMS,
    };
    text.to_string()
}

// The sentences, one per fact.
const SPECIAL_VDEV: &str =
    "the special vdev's metadata: blocks up to special_small_blocks go to it, but the \
    metadata it would hold is counted on the normal vdevs";
const DEDUP_VDEV: &str = "the dedup vdev: the dedup table it would hold is not modelled";
const L2ARC_WARMUP: &str =
    "the L2ARC's history beyond the run: random reads find what its feed took of the \
    data set while the run wrote and read it (at most five l2arc_write_max a second: 40 MiB/s \
    to OpenZFS 2.1, 160 MiB/s from 2.2), up to its size; a cache device added later, \
    or data written before the run, is not modelled; `secondarycache` is taken as \
    `all`";
const IMPLIED_LINKS: &str =
    "the disks' controllers and links, which the system file does not name: the \
    default system's stand in (a SAS 9300-8i on PCIe 3.0 x8 per 8 disks, PCIe 3.0 x4 \
    for each NVMe disk)";
const IMPLIED_ONBOARD_SATA: &str =
    "the onboard SATA chip, which the system file does not name: an Intel C246 PCH's \
    AHCI behind DMI 3.0 (PCIe 3.0 x4) stands in";
const ARC_UNDER_READERS: &str =
    "the ARC under several readers of a fast pool: their lock traffic, and its \
    eviction thread taken at the clock the readers leave the CPU (a fitted cost per \
    byte); each reader copies at its core's rate";
const RANDOM_DEVICE: &str =
    "the kernel's random device on this platform: no measured rate, so generating the \
    data costs the writer nothing here";
const STP_THROUGH_EXPANDER: &str =
    "SATA tunnelling (STP) through the SAS expander: its per-command overhead";
const ZVOL_PATH: &str =
    "the zvol's own per-call path (a bio through the zvol taskq): a file's per-call \
    cost is taken";
const SHARING_PROTOCOL: &str =
    "the file-sharing protocol (NFS, SMB, iSCSI): only the network's bandwidth is \
    counted";
const POOL_FILL: &str =
    "the state of a partly full pool's free space: its earlier data is taken as \
    filling the outer tracks and the run's data as written past them; fragmentation \
    (the allocator's searches, gang blocks, short free segments) and data freed and \
    written again are not modelled";
const MIXED_STREAMS: &str =
    "how close the mix's read and write streams run (fio keeps a position for each): \
    reads of records just written, which the ARC holds, count as the file's, and a \
    hard disk's seeks between the two are left out";

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON keeps its keys and order: the prediction's fields, `not_modelled` last, in
    /// words.
    #[test]
    fn the_words_come_last_in_the_json_as_before() {
        let mut system = model::system_file::default_system();
        system.pool.cache_devices = 1;
        let w = model::Workload::parse("dd-read").unwrap();
        let worded = WordedPrediction::from(perf::predict(&system, &w).unwrap());
        let text = serde_json::to_string(&worded).unwrap();
        assert!(text.starts_with(r#"{"system":"#), "{text}");
        let words = r#","not_modelled":["the L2ARC's history beyond the run: random reads"#;
        let at = text.find(words).unwrap();
        // Nothing follows the sentences.
        assert!(text[at..].ends_with(
            r#"data written before the run, is not modelled; `secondarycache` is taken as `all`"]}"#
        ));
    }

    #[test]
    fn a_cache_flush_names_its_disk() {
        let fact = NotModelled::CacheFlush {
            disk: "log0".into(),
        };
        assert!(sentence(&fact).starts_with("how long log0 takes to flush its cache: "));
    }
}
