//! Where Evident keeps its data by default.
//!
//! The CLI and the desktop app must open the same database, so both ask this module.
//! The folder name equals the desktop app's bundle identifier, which is what Tauri uses
//! for its app data directory.

use std::path::{Path, PathBuf};

/// Bundle identifier of the desktop app; also the name of the data folder.
pub const APP_IDENTIFIER: &str = "app.evident.desktop";

/// Environment variable that overrides the database path (handy for scripts and tests).
pub const DB_ENV: &str = "EVIDENT_DB";

/// The platform data directory for Evident, e.g. `~/.local/share/app.evident.desktop`.
pub fn data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join(APP_IDENTIFIER)
}

/// The database path: `$EVIDENT_DB` if set, else `evident.sqlite3` in [`data_dir`].
pub fn default_db_path() -> PathBuf {
    match std::env::var_os(DB_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => data_dir().join("evident.sqlite3"),
    }
}

/// A file path as the database keeps it: its text, and, only when the path is not valid
/// UTF-8 (a GBK name unpacked from a Windows zip, say), its exact bytes. The text alone
/// would be lossy: a sync would then take the file for renamed on every pass, and the
/// file could not be opened again.
pub fn to_columns(path: &Path) -> (String, Option<Vec<u8>>) {
    match path.to_str() {
        Some(text) => (text.to_owned(), None),
        None => (path.to_string_lossy().into_owned(), raw_bytes(path)),
    }
}

/// A path's identity: its exact bytes (on Unix, what the kernel knows it by). Two
/// files whose names are not UTF-8 can read alike as text (GBK's 工资.md and 福利.md
/// both show as `����.md`); their keys never are. What databases key paths by; the
/// text is only ever shown.
pub fn key(path: &Path) -> Vec<u8> {
    raw_bytes(path).unwrap_or_else(|| path.to_string_lossy().into_owned().into_bytes())
}

/// The path whose [`key`] is `bytes`.
pub fn from_key(bytes: Vec<u8>) -> PathBuf {
    match String::from_utf8(bytes) {
        Ok(text) => PathBuf::from(text),
        Err(e) => from_raw_bytes(e.into_bytes())
            .unwrap_or_else(|| PathBuf::from(String::from("\u{fffd}"))),
    }
}

/// The path [`to_columns`] stored.
pub fn from_columns(text: String, raw: Option<Vec<u8>>) -> PathBuf {
    match raw {
        Some(bytes) => from_raw_bytes(bytes).unwrap_or_else(|| PathBuf::from(text)),
        None => PathBuf::from(text),
    }
}

#[cfg(unix)]
fn raw_bytes(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    Some(path.as_os_str().as_bytes().to_vec())
}

#[cfg(not(unix))]
fn raw_bytes(_path: &Path) -> Option<Vec<u8>> {
    None
}

#[cfg(unix)]
fn from_raw_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn from_raw_bytes(_bytes: Vec<u8>) -> Option<PathBuf> {
    None
}

/// Serialises a path as text, lossily where it is not UTF-8 (for the window and JSON
/// output, which show it; the database keeps the exact path).
pub fn serialize_lossy<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// [`serialize_lossy`] for an optional path.
pub fn serialize_lossy_opt<S: serde::Serializer>(
    path: &Option<PathBuf>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match path {
        Some(p) => s.serialize_some(&p.to_string_lossy()),
        None => s.serialize_none(),
    }
}

/// [`serialize_lossy`] for a list of paths.
pub fn serialize_lossy_vec<S: serde::Serializer>(
    paths: &[PathBuf],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(paths.iter().map(|p| p.to_string_lossy()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes_and_shows_lossily() {
        use std::os::unix::ffi::OsStrExt;
        // 员工手册.md in GBK.
        let name: &[u8] = b"/docs/\xd4\xb1\xb9\xa4\xca\xd6\xb2\xe1.md";
        let path = Path::new(std::ffi::OsStr::from_bytes(name));
        let (text, raw) = to_columns(path);
        assert!(
            text.starts_with("/docs/") && text.contains('\u{fffd}'),
            "{text}"
        );
        assert_eq!(from_columns(text, raw), path);
        let (text, raw) = to_columns(Path::new("/docs/员工手册.md"));
        assert_eq!((text.as_str(), raw), ("/docs/员工手册.md", None));
    }

    #[test]
    fn names_that_read_alike_have_keys_of_their_own() {
        use std::os::unix::ffi::OsStrExt;
        // 工资.md and 福利.md in GBK: the same length, the same text when decoded.
        let pay = Path::new(std::ffi::OsStr::from_bytes(b"/d/\xb9\xa4\xd7\xca.md"));
        let welfare = Path::new(std::ffi::OsStr::from_bytes(b"/d/\xb8\xa3\xc0\xfb.md"));
        assert_eq!(pay.to_string_lossy(), welfare.to_string_lossy());
        assert_ne!(key(pay), key(welfare));
        assert_eq!(from_key(key(pay)), pay);
        assert_eq!(
            from_key(key(Path::new("/d/工资.md"))),
            Path::new("/d/工资.md")
        );
    }
}
