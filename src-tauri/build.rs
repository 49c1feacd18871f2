//! Tauri's build step: embeds the app configuration and capabilities.
fn main() {
    tauri_build::build();
}
