//! PDF pages for the source viewer: drawn by the confined PDF worker (one process per
//! page, which may read nothing but the fallback fonts), sent to the window as one PNG
//! with the page's text boxes (on a scanned page, the lines OCR read there at import),
//! and kept for a while.
//!
//! The window parses no PDF: pdf.js, its worker and fonts cost its web process about
//! 130 MB. Recent pages are kept ([`PageCache`]), found by the file's identity, the page
//! and the width asked for before the file is read, so going back to a citation costs
//! nothing even in a 256 MB file, and a file changed on disk is drawn anew.

use evident_core::ErrorCode;
use std::sync::Arc;

use evident_core::extract::DocumentKind;
use evident_core::extract::pdf::PdfSandbox;
use evident_core::page_cache::{FileId, PageKey};
use tauri::{AppHandle, Manager};

use crate::commands::library_document;
use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Page `page` (1-based) of PDF document `id`, drawn `width` pixels wide: a
/// little-endian u32 with the length of the JSON that follows (`PageImage`: the page
/// drawn, the page count, the image size and the text boxes), then the PNG.
#[tauri::command]
pub async fn pdf_page(
    app: AppHandle,
    id: i64,
    page: u32,
    width: u32,
) -> CommandResult<tauri::ipc::Response> {
    tauri::async_runtime::spawn_blocking(move || -> CommandResult<tauri::ipc::Response> {
        let state = app.state::<AppState>();
        let document = library_document(&state, id, Some(DocumentKind::Pdf))?;
        let path = document.path;
        let file = FileId::of(&path).ok_or_else(|| {
            CommandError::new(
                ErrorCode::Io,
                format!("cannot read {} (was it moved or deleted?)", path.display()),
            )
        })?;
        let key = PageKey { file, page, width };
        if let Some(frame) = state.pages.get(&key) {
            return Ok(tauri::ipc::Response::new(frame.as_ref().clone()));
        }
        let bytes = evident_core::limits::read_capped(
            &path,
            evident_core::limits::MAX_PDF_BYTES,
            evident_core::problem::Limited::Pdf,
        )
        .map_err(|e| match e {
            evident_core::extract::Error::Io { source, .. } => CommandError::new(
                ErrorCode::Io,
                format!(
                    "cannot read {}: {source} (was it moved or deleted?)",
                    path.display()
                ),
            ),
            other => other.into(),
        })?;
        let sandbox = PdfSandbox::current_exe()
            .map_err(|e| CommandError::new(ErrorCode::Io, e.to_string()))?;
        let mut image =
            sandbox
                .render(&bytes, page, width)
                .map_err(|why| evident_core::Error::Pdf {
                    path: path.clone(),
                    why,
                })?;
        // A scanned page has no text layer: its boxes are the lines read from it at
        // import, if the file is still the one that was read.
        if document.sha256 == evident_core::store::sha256_hex(&bytes) {
            image.use_ocr_lines(&state.with_store(|s| s.ocr_lines(id, image.page))?);
        }
        let json = serde_json::to_vec(&image).map_err(|e| {
            CommandError::new(
                ErrorCode::Internal,
                format!("the page could not be sent ({e})"),
            )
        })?;
        let mut frame = Vec::with_capacity(4 + json.len() + image.png.len());
        frame.extend_from_slice(&(json.len() as u32).to_le_bytes());
        frame.extend_from_slice(&json);
        frame.extend_from_slice(&image.png);
        let frame = Arc::new(frame);
        state.pages.put(&path, key, frame.clone());
        Ok(tauri::ipc::Response::new(frame.as_ref().clone()))
    })
    .await
    .map_err(|e| CommandError::new(ErrorCode::Internal, format!("background work failed: {e}")))?
}
