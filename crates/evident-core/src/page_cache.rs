//! Recently drawn PDF pages, found by the file's identity before any byte is read.
//!
//! Going back to a citation must cost nothing, and a PDF may be 256 MB: reading and
//! hashing it to find its drawing took longer than drawing the page. A file's identity
//! here is what the file system says of it (device, inode, size and modification time
//! to the nanosecond), the same test `make` and `rsync` trust: a file written again gets
//! a new modification time, and one replaced by another file a new inode. Only on a
//! miss is the file read, hashed and drawn, and a drawing is kept only if the file's
//! identity did not change while it was read.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

/// Pages kept: a few hundred KB each.
pub const KEPT_PAGES: usize = 12;

/// What the file system says of a file: equal identities are taken to hold equal bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId {
    device: u64,
    inode: u64,
    size: u64,
    modified_s: i64,
    modified_ns: i64,
}

impl FileId {
    /// The identity of the file at `path` (symbolic links followed); `None` when it
    /// cannot be read, or on a system without inodes.
    pub fn of(path: &Path) -> Option<Self> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(Self {
                device: meta.dev(),
                inode: meta.ino(),
                size: meta.size(),
                modified_s: meta.mtime(),
                modified_ns: meta.mtime_nsec(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            None
        }
    }
}

/// Which drawing of which file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageKey {
    /// The file, as it was when drawn.
    pub file: FileId,
    /// The page, from 1.
    pub page: u32,
    /// The width it was drawn at, in pixels.
    pub width: u32,
}

/// Recently drawn pages, the most recent last.
#[derive(Debug, Default)]
pub struct PageCache {
    pages: Mutex<VecDeque<(PageKey, Arc<Vec<u8>>)>>,
}

impl PageCache {
    /// The drawing kept for `key`, if any (it becomes the most recent).
    pub fn get(&self, key: &PageKey) -> Option<Arc<Vec<u8>>> {
        let mut pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        let at = pages.iter().position(|(k, _)| k == key)?;
        let hit = pages.remove(at)?;
        let frame = hit.1.clone();
        pages.push_back(hit);
        Some(frame)
    }

    /// Keeps `frame` as the drawing for `key`, if the file at `path` still has the
    /// identity it had when it was read: a file written meanwhile is drawn anew next
    /// time, never shown from a mixture.
    pub fn put(&self, path: &Path, key: PageKey, frame: Arc<Vec<u8>>) {
        if FileId::of(path) != Some(key.file) {
            return;
        }
        let mut pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        pages.retain(|(k, _)| k != &key);
        pages.push_back((key, frame));
        while pages.len() > KEPT_PAGES {
            pages.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_found_by_the_files_identity_until_the_file_changes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("policy.pdf");
        std::fs::write(&path, b"%PDF-1.7 first").expect("write");
        let cache = PageCache::default();
        let key = |page| PageKey {
            file: FileId::of(&path).expect("a file"),
            page,
            width: 800,
        };
        cache.put(&path, key(1), Arc::new(b"page one".to_vec()));
        assert_eq!(
            cache.get(&key(1)).as_deref().map(Vec::as_slice),
            Some(&b"page one"[..])
        );
        assert!(
            cache.get(&key(2)).is_none(),
            "another page is another drawing"
        );

        // Written again (same size): a new modification time, so a new identity.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, b"%PDF-1.7 other").expect("write");
        assert!(cache.get(&key(1)).is_none(), "a changed file is drawn anew");

        // A drawing of a file that changed while it was read is not kept.
        let before = key(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, b"%PDF-1.7 third!").expect("write");
        cache.put(&path, before, Arc::new(b"stale".to_vec()));
        assert!(cache.get(&before).is_none());
        assert!(cache.get(&key(1)).is_none());
    }

    #[test]
    fn only_the_most_recent_pages_are_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("long.pdf");
        std::fs::write(&path, b"%PDF").expect("write");
        let file = FileId::of(&path).expect("a file");
        let cache = PageCache::default();
        let key = |page| PageKey {
            file,
            page,
            width: 600,
        };
        for page in 1..=(KEPT_PAGES as u32 + 1) {
            cache.put(&path, key(page), Arc::new(vec![page as u8]));
        }
        assert!(cache.get(&key(1)).is_none(), "the oldest went");
        assert!(cache.get(&key(2)).is_some());
    }
}
