//! Where a built-in embeddings model can come from, in the order Evident looks:
//! a file the user chose in *Settings*, Evident's own models folder, and the models
//! Ollama has already pulled.
//!
//! Ollama keeps each model as a GGUF blob named by its sha256, and a manifest per
//! `name:tag` that lists the blob (and its licence) by digest. Reading those files is
//! all it takes to use a model Ollama has: Ollama itself is never started or needed.
//! Which of the files found are embedding models only their headers can tell; that is
//! [`super::describe`]'s job, in the worker.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Environment variable naming Evident's models folder instead of the default.
pub const MODELS_DIR_ENV: &str = "EVIDENT_MODELS_DIR";
/// Ollama's own variable for its models folder.
pub const OLLAMA_MODELS_ENV: &str = "OLLAMA_MODELS";

/// Where a model file was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// Chosen by the user in Settings (or with `--embed-gguf`).
    Chosen,
    /// In Evident's models folder.
    Folder,
    /// Pulled by Ollama, under this `name:tag`.
    Ollama {
        /// The model's name and tag as Ollama lists them.
        name: String,
    },
}

/// A model file that may be an embedding model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// The GGUF file.
    pub path: PathBuf,
    /// Where it was found.
    pub origin: Origin,
    /// Its size in bytes.
    pub size: u64,
    /// The text of its licence, when one travels with it (a licence file beside it, or
    /// Ollama's licence layer).
    pub licence_file: Option<PathBuf>,
}

/// Evident's own models folder: `$EVIDENT_MODELS_DIR`, else `models` in Evident's data
/// folder (`~/.local/share/app.evident.desktop/models` on Linux).
pub fn models_dir() -> PathBuf {
    match std::env::var_os(MODELS_DIR_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::paths::data_dir().join("models"),
    }
}

/// The folders Ollama may keep its models in: `$OLLAMA_MODELS` alone when it is set
/// (as Ollama itself reads it), else the user's `~/.ollama/models` and the system
/// service's `/usr/share/ollama/.ollama/models`.
pub fn ollama_dirs() -> Vec<PathBuf> {
    if let Some(p) = std::env::var_os(OLLAMA_MODELS_ENV).filter(|p| !p.is_empty()) {
        return vec![PathBuf::from(p)];
    }
    let mut dirs = Vec::new();
    if let Some(home) = dirs::home_dir() {
        dirs.push(home.join(".ollama").join("models"));
    }
    dirs.push(PathBuf::from("/usr/share/ollama/.ollama/models"));
    dirs
}

/// Every candidate, in the order they are preferred: `chosen` first, then Evident's
/// folder, then Ollama's models.
pub fn candidates(chosen: Option<&Path>) -> Vec<Candidate> {
    let mut out = Vec::new();
    if let Some(path) = chosen {
        out.push(Candidate {
            size: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
            licence_file: licence_beside(path),
            path: path.to_owned(),
            origin: Origin::Chosen,
        });
    }
    out.extend(in_folder(&models_dir()));
    for dir in ollama_dirs() {
        out.extend(in_ollama(&dir));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.path.clone()));
    out
}

/// The `.gguf` files of a folder (not its subfolders), by name.
pub fn in_folder(dir: &Path) -> Vec<Candidate> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Candidate> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("gguf"))
        })
        .filter_map(|path| {
            let meta = std::fs::metadata(&path).ok()?;
            meta.is_file().then(|| Candidate {
                size: meta.len(),
                licence_file: licence_beside(&path),
                path,
                origin: Origin::Folder,
            })
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// A licence file that travels with a model: `NAME.LICENSE`, `NAME.LICENSE.txt`, or a
/// `LICENSE`/`LICENSE.txt` in its folder.
pub fn licence_beside(model: &Path) -> Option<PathBuf> {
    let dir = model.parent()?;
    let stem = model.file_stem()?.to_string_lossy();
    [
        format!("{stem}.LICENSE"),
        format!("{stem}.LICENSE.txt"),
        "LICENSE".to_owned(),
        "LICENSE.txt".to_owned(),
    ]
    .into_iter()
    .map(|name| dir.join(name))
    .find(|p| p.is_file())
}

#[derive(Deserialize)]
struct Manifest {
    #[serde(default)]
    layers: Vec<Layer>,
}

#[derive(Deserialize)]
struct Layer {
    #[serde(rename = "mediaType")]
    media_type: String,
    digest: String,
}

const MODEL_LAYER: &str = "application/vnd.ollama.image.model";
const LICENCE_LAYER: &str = "application/vnd.ollama.image.license";

/// The models of an Ollama store: each manifest under `manifests/` whose model layer's
/// blob is in `blobs/`. Damaged manifests and missing blobs are skipped.
pub fn in_ollama(store: &Path) -> Vec<Candidate> {
    let manifests = store.join("manifests");
    if !manifests.is_dir() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&manifests)
        .max_depth(4)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
    {
        let Ok(bytes) = std::fs::read(entry.path()) else {
            continue;
        };
        let Ok(manifest) = serde_json::from_slice::<Manifest>(&bytes) else {
            continue;
        };
        let blob = |media: &str| {
            manifest
                .layers
                .iter()
                .find(|l| l.media_type == media)
                .and_then(|l| blob_path(store, &l.digest))
                .filter(|p| p.is_file())
        };
        let Some(path) = blob(MODEL_LAYER) else {
            continue;
        };
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        out.push(Candidate {
            origin: Origin::Ollama {
                name: ollama_name(&manifests, entry.path()),
            },
            licence_file: blob(LICENCE_LAYER),
            size,
            path,
        });
    }
    out.sort_by_key(Candidate::origin_name);
    out
}

/// `blobs/sha256-HEX` for a digest `sha256:HEX` (nothing for a digest that could
/// name a path outside the store).
fn blob_path(store: &Path, digest: &str) -> Option<PathBuf> {
    let (algorithm, hex) = digest.split_once(':')?;
    let safe = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric());
    (safe(algorithm) && safe(hex)).then(|| store.join("blobs").join(format!("{algorithm}-{hex}")))
}

/// `name:tag` from a manifest's place, `manifests/HOST/NAMESPACE/NAME/TAG`: Ollama shows
/// the official library's models without host and namespace.
fn ollama_name(manifests: &Path, manifest: &Path) -> String {
    let parts: Vec<String> = manifest
        .strip_prefix(manifests)
        .unwrap_or(manifest)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [host, ns, name, tag] if host == "registry.ollama.ai" && ns == "library" => {
            format!("{name}:{tag}")
        }
        [host, ns, name, tag] if host == "registry.ollama.ai" => format!("{ns}/{name}:{tag}"),
        [host, ns, name, tag] => format!("{host}/{ns}/{name}:{tag}"),
        other => other.join("/"),
    }
}

impl Candidate {
    /// The name to show: Ollama's `name:tag`, else the file's name.
    pub fn origin_name(&self) -> String {
        match &self.origin {
            Origin::Ollama { name } => name.clone(),
            Origin::Chosen | Origin::Folder => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_cannot_name_a_path_outside_the_store() {
        let store = Path::new("/store");
        assert_eq!(
            blob_path(store, "sha256:abc123"),
            Some(PathBuf::from("/store/blobs/sha256-abc123"))
        );
        assert_eq!(blob_path(store, "sha256:../../etc/passwd"), None);
        assert_eq!(blob_path(store, "nodigest"), None);
    }

    #[test]
    fn library_models_are_named_as_ollama_lists_them() {
        let m = Path::new("/s/manifests");
        assert_eq!(
            ollama_name(
                m,
                &m.join("registry.ollama.ai/library/embeddinggemma/latest")
            ),
            "embeddinggemma:latest"
        );
        assert_eq!(
            ollama_name(m, &m.join("registry.ollama.ai/jeffh/intfloat-e5/q8")),
            "jeffh/intfloat-e5:q8"
        );
        assert_eq!(
            ollama_name(m, &m.join("hf.co/org/bge-m3-gguf/Q8_0")),
            "hf.co/org/bge-m3-gguf:Q8_0"
        );
    }
}
