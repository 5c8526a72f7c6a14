//! What a test makes on the machine, removed when the test ends, also when it fails: a
//! directory of its own and the loop devices it attached.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory in the temporary directory, removed with its contents on drop.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    pub(crate) fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("zpoolsim-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }

    /// A path inside it, as text.
    pub(crate) fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A loop device over a file, detached on drop.
pub(crate) struct LoopDevice(pub String);

impl LoopDevice {
    /// Attaches `image`; where no loop device node is free (a container's /dev), makes the
    /// next one (block 7:N) and tries again. Needs root; else why not.
    pub(crate) fn attach(image: &Path) -> Result<LoopDevice, String> {
        let attach = || {
            Command::new("losetup")
                .args(["-f", "--show"])
                .arg(image)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        if let Some(dev) = attach() {
            return Ok(LoopDevice(dev));
        }
        let next = (0..256)
            .find(|n| !Path::new(&format!("/dev/loop{n}")).exists())
            .ok_or("no loop device number is free")?;
        let made = Command::new("mknod")
            .args([&format!("/dev/loop{next}"), "b", "7", &next.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if !made {
            return Err("losetup failed and no loop device node could be made (root?)".into());
        }
        attach()
            .map(LoopDevice)
            .ok_or_else(|| "losetup failed (root and the loop module are needed)".into())
    }
}

impl Drop for LoopDevice {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.0]).status();
    }
}
