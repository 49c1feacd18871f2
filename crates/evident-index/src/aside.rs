//! Setting a damaged SQLite file aside instead of deleting it.
//!
//! The index and the user's own data (history, feedback) are SQLite files; when one
//! cannot be opened it is renamed beside itself, with its `-wal` and `-shm` files, so
//! that nothing in it is lost and a fresh file can take its place. Both the rebuild of
//! the index (`import`) and the opening of user data (`userdata`) do this, and neither
//! should depend on the other for it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{Error, Result};

/// Moves a damaged SQLite file (and its `-wal` and `-shm` files) aside as
/// `<name>.broken-<unix time>`, so nothing in it is lost; returns the new path.
pub fn set_aside(db: &Path) -> Result<PathBuf> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    let aside = sibling(db, &format!("broken-{stamp}"));
    std::fs::rename(db, &aside).map_err(|e| Error::io(db, e))?;
    for suffix in ["-wal", "-shm"] {
        let side = with_suffix(db, suffix);
        if side.exists() {
            let _ = std::fs::rename(&side, with_suffix(&aside, suffix));
        }
    }
    Ok(aside)
}

/// `db`'s sibling file named `<name>.<ext>` (`evident.sqlite3.rebuilding`).
pub fn sibling(db: &Path, ext: &str) -> PathBuf {
    let mut name = db.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".");
    name.push(ext);
    db.with_file_name(name)
}

/// `p` with `suffix` added to its name (`evident.sqlite3-wal`).
pub fn with_suffix(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}
