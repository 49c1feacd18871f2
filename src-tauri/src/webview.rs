//! The web view's own settings that Tauri does not reach: on Linux, WebKitGTK's cache
//! model and compositing.
//!
//! Evident shows one local page, never browses, and draws text, a few images and no
//! animation. WebKit's defaults are a browser's:
//! * the "web browser" cache model keeps decoded pages and resources for going back and
//!   forth between sites; `DocumentViewer` keeps what one page needs;
//! * hardware-accelerated compositing runs an OpenGL stack in the web process, which
//!   without a GPU (a VM, a remote desktop, Xvfb) is Mesa's llvmpipe and its LLVM, and
//!   on some GPU drivers gives a blank window. Drawing on the CPU is plenty for a page
//!   of text and costs far less memory. `EVIDENT_WEBVIEW_GPU=1` keeps WebKit's choice.

/// Applies the settings to `window`'s web view (nothing to do off Linux).
pub fn tune(window: &tauri::WebviewWindow) {
    #[cfg(target_os = "linux")]
    {
        let gpu = std::env::var_os("EVIDENT_WEBVIEW_GPU").is_some_and(|v| v == "1");
        let result = window.with_webview(move |webview| {
            use webkit2gtk::{
                CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
            };
            let view = webview.inner();
            if let Some(context) = view.context() {
                context.set_cache_model(CacheModel::DocumentViewer);
            }
            if !gpu && let Some(settings) = WebViewExt::settings(&view) {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        });
        if let Err(e) = result {
            eprintln!("Evident: the web view's settings could not be applied ({e})");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
