//! The language the commands speak: `--lang`, else the locale's; core errors said in it.

use std::path::Path;

use evident_core::message::Lang;

static LANG: std::sync::OnceLock<Lang> = std::sync::OnceLock::new();

/// Sets the language of reasons and notes: `--lang`, else the locale's.
pub fn set_lang(flag: Option<&str>) {
    let locale = flag.map(str::to_owned).or_else(|| {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
    });
    let _ = LANG.set(locale.as_deref().map(Lang::from_locale).unwrap_or_default());
}

/// A core error in the locale's language, when it is not English and the error is a
/// problem with a file or a server (English is the error's own words).
pub fn in_locale(e: &evident_core::Error) -> Option<String> {
    use evident_core::Error as E;
    if lang() == Lang::En {
        return None;
    }
    match e {
        E::Io { path, .. } | E::Input { path, .. } | E::Pdf { path, .. } => {
            Some(format!("{}: {}", display(path), e.problem().text(lang())))
        }
        E::Server(_) | E::Model { .. } => Some(e.problem().text(lang())),
        _ => None,
    }
}

/// The language reasons and notes are said in.
pub fn lang() -> Lang {
    LANG.get().copied().unwrap_or_default()
}

/// A path relative to the current directory when it is below it.
pub fn display(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}
