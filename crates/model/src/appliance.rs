//! Storage appliances that build the pool for their user: FreeNAS, TrueNAS CORE (FreeBSD) and
//! TrueNAS SCALE (Linux). What they set without being asked is what a system file naming one
//! takes where it is silent: the ZFS release of the appliance's version, ashift 12 (FreeNAS set
//! vfs.zfs.min_auto_ashift=12 from 9.3 on; TrueNAS's middleware creates pools with ashift 12)
//! and lz4 on the pool's datasets (the default of pools made in the FreeNAS 9.2+ and TrueNAS
//! web interfaces). Versions and releases: the appliances' release notes.

use crate::dataset::{Compression, PropertyError};
use crate::release::ZfsRelease;
use std::str::FromStr;

/// An appliance and its version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appliance {
    /// The release its version ships.
    pub zfs: ZfsRelease,
}

impl Appliance {
    /// The ashift its pools get.
    pub const ASHIFT: u8 = 12;
    /// The compression its datasets get.
    pub const COMPRESSION: Compression = Compression::Lz4;
}

/// The accepted forms, for messages.
pub const APPLIANCE_FORMS: &str = "freenas-9.3, freenas-9.10, freenas-11.3, truenas-core-12, \
truenas-core-13, truenas-scale-22.12, truenas-scale-23.10, truenas-scale-24.04, \
truenas-scale-24.10, truenas-scale-25.04";

impl FromStr for Appliance {
    type Err = PropertyError;

    fn from_str(text: &str) -> Result<Self, PropertyError> {
        let t = text.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        let zfs = match t.as_str() {
            // FreeNAS 9.3 ran on FreeBSD 9.3, 9.10 on FreeBSD 10.3, 11.x on FreeBSD 11.
            "freenas-9.3" => "freebsd-9.3",
            "freenas-9.10" => "freebsd-10.3",
            "freenas-11" | "freenas-11.1" | "freenas-11.2" | "freenas-11.3" => "freebsd-11.3",
            // TrueNAS CORE runs FreeBSD: 12 (FreeBSD 12.2) with OpenZFS 2.0, the line FreeBSD
            // 13.0 ships; 13 on FreeBSD 13.1 with its OpenZFS 2.1.
            "truenas-core-12" => "freebsd-13.0",
            "truenas-core-13" | "truenas-core" => "freebsd-13.1",
            "truenas-scale-22.12" => "openzfs-2.1",
            "truenas-scale-23.10" | "truenas-scale-24.04" | "truenas-scale-24.10" => "openzfs-2.2",
            "truenas-scale-25.04" | "truenas-scale" | "truenas" => "openzfs-2.3",
            _ => {
                return Err(PropertyError(format!(
                    "appliance '{}': expected one of {APPLIANCE_FORMS}",
                    crate::input::clip(text, 30)
                )))
            }
        };
        let zfs = zfs
            .parse()
            .map_err(|e: crate::release::ReleaseError| PropertyError(e.0))?;
        Ok(Appliance { zfs })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appliances_name_their_release() {
        let a: Appliance = "TrueNAS SCALE 24.04".parse().unwrap();
        assert_eq!(a.zfs, "openzfs-2.2".parse().unwrap());
        let f: Appliance = "freenas-9.10".parse().unwrap();
        assert_eq!(f.zfs, "freebsd-10.3".parse().unwrap());
        // CORE is FreeBSD: its kernel, not Linux's, with the OpenZFS line it ships.
        let core: Appliance = "truenas-core-13".parse().unwrap();
        assert_eq!(core.zfs.platform(), crate::release::Platform::FreeBsd);
        assert_eq!(core.zfs.openzfs_line(), (2, 1));
        assert!("unraid".parse::<Appliance>().is_err());
    }
}
