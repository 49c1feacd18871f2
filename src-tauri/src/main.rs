//! The Evident desktop app's entry point; everything else is in the library.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

/// The same allocator as the `evident` CLI, for the same import work (see there).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // PDFs are read in a child process of this same executable; such a child never
    // opens a window.
    evident_core::extract::pdf::run_worker_if_requested();
    // Nor does one started to run the built-in embeddings model.
    evident_embedder::run_worker_if_requested();
    evident_app::run();
}
