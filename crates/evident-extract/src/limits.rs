//! Size caps on the files Evident reads, so that a mistaken drop (a 20 GB disk image
//! named `.txt`) or a file that grows while it is read ends in a clear per-file error
//! instead of all the memory of the machine.
//!
//! The caps are far above any policy document: the largest PDF of the shared corpus is
//! under 10 MB, and a 64 MB text file is some 30 million Chinese characters.

use std::io::Read;
use std::path::Path;

use crate::{Error, Result};
use evident_words::problem::{Limited, Problem};

/// Largest PDF Evident imports or shows.
pub const MAX_PDF_BYTES: u64 = 256 << 20;
/// Largest Word file Evident imports (pictures make them large; the text is small).
pub const MAX_DOCX_BYTES: u64 = 256 << 20;
/// Largest Markdown or text file Evident imports.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;
/// Largest alias table or settings file Evident reads.
pub const MAX_USER_FILE_BYTES: u64 = 4 << 20;

/// Reads the file at `path` if it holds at most `cap` bytes; `kind` says what such a
/// file is for in the error (PDF documents).
pub fn read_capped(path: &Path, cap: u64, kind: Limited) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let too_large = |len: u64| {
        Error::input(
            path,
            Problem::TooLarge {
                mb: len.div_ceil(1 << 20),
                limit_mb: cap >> 20,
                kind,
            },
        )
    };
    if len > cap {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // `take` holds even when the file grows between the size check and the read.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Like [`read_capped`], but a missing file is `None`.
pub fn read_capped_if_present(path: &Path, cap: u64, kind: Limited) -> Result<Option<Vec<u8>>> {
    match read_capped(path, cap, kind) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_cap_is_refused_with_its_size() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("big.txt");
        std::fs::write(&path, vec![b'a'; 3 << 20]).expect("write");
        let err = read_capped(&path, 2 << 20, Limited::Text).expect_err("over the cap");
        let msg = err.to_string();
        assert!(
            msg.contains("big.txt") && msg.contains("3 MB") && msg.contains("2 MB"),
            "{msg}"
        );
        assert_eq!(
            read_capped(&path, 3 << 20, Limited::Text)
                .expect("at the cap")
                .len(),
            3 << 20
        );
    }
}
