//! Writing the user's own small files (`settings.json`, `aliases.txt`) so that nothing
//! is lost: one writer at a time, and a file on disk is always a whole version.
//!
//! The CLI and the app (and two of the app's own commands) may change the same file at
//! once. Each change is a read-modify-write, so without a lock the second writer
//! silently drops the first one's change; and with a fixed temporary name, two writers
//! overwrite each other's temporary file mid-write. Here:
//! * [`locked`] holds an advisory lock on a sidecar file (`settings.json.lock`) for the
//!   whole read-modify-write; the lock is the operating system's (`flock`), so it is
//!   released when the process dies and works between the CLI and the app;
//! * [`write`] writes to a uniquely named temporary file in the same folder, syncs it,
//!   and renames it over the old file, so a crash leaves the old version or the new,
//!   never half of one.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// The lock file that serialises changes to `path`.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// Runs `f` while holding the exclusive lock of `path` (creating its folder if needed).
pub fn locked<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let lock = lock_path(path);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| Error::io(&lock, e))?;
    file.lock().map_err(|e| Error::io(&lock, e))?;
    let out = f();
    // Closing the file releases the lock too; unlocking first says so.
    let _ = file.unlock();
    out
}

/// Replaces `path` with `bytes` atomically. `private`: readable by the owner only (the
/// settings may hold an API key).
pub fn write(path: &Path, bytes: &[u8], private: bool) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(if private {
            0o600
        } else {
            0o644
        }));
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io(tmp.path(), e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("aliases.txt");
        write(&path, b"first version, long enough to see a mix", false).expect("write");
        write(&path, b"second", false).expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["aliases.txt".to_owned()]);
    }

    #[cfg(unix)]
    #[test]
    fn a_private_file_is_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("settings.json");
        write(&path, b"{}", true).expect("write");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
