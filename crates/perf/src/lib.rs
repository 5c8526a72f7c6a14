//! The performance model: throughput, IOPS and the bottleneck of a pool on its hardware.
