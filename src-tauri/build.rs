//! Tauri's build step: embeds the app configuration and capabilities, and the web UI
//! from `ui/dist`. That folder is built by `scripts/ui.sh` (npm); without it Tauri's
//! macro fails with a panic that does not say what to run, so say it here first.
fn main() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/dist/index.html");
    println!("cargo::rerun-if-changed={}", dist.display());
    if !dist.exists() {
        eprintln!(
            "error: the web UI is not built (ui/dist is missing). Run `scripts/ui.sh` first \
             (or `scripts/setup.sh`, which installs everything), then build the app again. \
             `cargo build` at the workspace root builds only the core and the CLI."
        );
        std::process::exit(1);
    }
    tauri_build::build();
}
