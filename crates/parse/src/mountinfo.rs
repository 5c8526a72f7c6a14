//! /proc/self/mountinfo (proc(5)): each mount's id, where it is, its file system type and what
//! it mounts. `bench` runs only on a mounted ZFS dataset: the file system its directory is
//! really on, not the dataset whose mountpoint its path starts with (an ext4 image mounted in
//! a dataset's directory is not ZFS).

/// One line of mountinfo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// The mount's id (field 1), unique while it is mounted.
    pub id: u64,
    /// Where it is mounted, with mountinfo's octal escapes undone.
    pub mount_point: String,
    /// `zfs` (OpenZFS), `fuse.zfs` (zfs-fuse), `ext4`, `tmpfs`, ...
    pub fs_type: String,
    /// What is mounted: a ZFS dataset's name, a device, or a name the file system chose.
    pub source: String,
}

impl Mount {
    /// A ZFS dataset: OpenZFS's own file system, or zfs-fuse's FUSE mount.
    pub fn is_zfs(&self) -> bool {
        matches!(self.fs_type.as_str(), "zfs" | "fuse.zfs")
    }
}

/// Every mount, in the order mounted. Lines that do not read are left out.
pub fn parse(text: &str) -> Vec<Mount> {
    text.lines().filter_map(line).collect()
}

/// `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw`: the fields before the
/// ` - ` separator are the mount's (id, parent, device, root, mount point, options, optional
/// tags); after it, the file system type, the source and the super block's options.
fn line(line: &str) -> Option<Mount> {
    let (mine, fs) = line.split_once(" - ")?;
    let mine: Vec<&str> = mine.split(' ').collect();
    let mut fs = fs.split(' ');
    Some(Mount {
        id: mine.first()?.parse().ok()?,
        mount_point: unescape(mine.get(4)?),
        fs_type: unescape(fs.next()?),
        source: unescape(fs.next()?),
    })
}

/// The kernel writes a space, tab, newline and backslash in a field as `\040`-style octal.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|b| (b'0'..=b'7').contains(b)));
        match (bytes[i], octal) {
            (b'\\', Some(d)) => {
                out.push(d.iter().fold(0u8, |v, b| v.wrapping_mul(8) + (b - b'0')));
                i += 4;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The mount `path` (canonical) is on: the one of `id` when the kernel named it (statx's
/// mount id), else the deepest mount point containing the path, the last mounted there winning
/// (a mount over another hides it).
pub fn mount_of<'a>(mounts: &'a [Mount], path: &str, id: Option<u64>) -> Option<&'a Mount> {
    if let Some(id) = id {
        return mounts.iter().find(|m| m.id == id);
    }
    let contains = |m: &&Mount| {
        let point = m.mount_point.trim_end_matches('/');
        path == point || path.starts_with(&format!("{point}/"))
    };
    mounts
        .iter()
        .enumerate()
        .filter(|(_, m)| contains(m))
        .max_by_key(|(order, m)| (m.mount_point.trim_end_matches('/').len(), *order))
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This VM with a zfs-fuse pool and an ext4 image mounted inside its dataset.
    const MOUNTINFO: &str = "\
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
42 27 0:39 / /tmp/zt/mnt rw,relatime - fuse.zfs zt rw,user_id=0,group_id=0,default_permissions,allow_other
43 42 7:3 / /tmp/zt/mnt/ext rw,relatime - ext4 /dev/loop3 rw
44 27 0:45 / /tank/my\\040data rw shared:5 - zfs tank/my\\040data rw,xattr,noacl
";

    #[test]
    fn the_mount_a_path_is_on() {
        let mounts = parse(MOUNTINFO);
        assert_eq!(mounts.len(), 4);
        assert_eq!(
            mounts[3],
            Mount {
                id: 44,
                mount_point: "/tank/my data".into(),
                fs_type: "zfs".into(),
                source: "tank/my data".into(),
            }
        );
        let on = |path: &str| mount_of(&mounts, path, None).map(|m| m.id);
        assert_eq!(on("/tmp/zt/mnt/a/b"), Some(42));
        assert_eq!(on("/tmp/zt/mnt"), Some(42));
        assert_eq!(on("/tmp/zt/mnt/ext/x"), Some(43));
        assert_eq!(on("/tmp/zt/mntx"), Some(27));
        assert_eq!(on("/tank/my data/d"), Some(44));
        assert_eq!(
            mount_of(&mounts, "/anything", Some(43)).map(|m| m.id),
            Some(43)
        );
        let zfs: Vec<bool> = mounts.iter().map(Mount::is_zfs).collect();
        assert_eq!(zfs, [false, true, false, true]);
    }
}
