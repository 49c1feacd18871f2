//! A GGUF file's header read and checked in safe Rust, before llama.cpp's C++ parser
//! ever sees the file.
//!
//! The built-in model looks at every GGUF file in Evident's models folder and in
//! Ollama's store, and a file there can be anything: damaged, truncated, a chat model,
//! or made to crash a parser. This reader walks the header with a cap on everything it
//! is told (the file's size, the number of keys and tensors, every string and array,
//! the header's total length), never allocates more than a capped string, and answers
//! what Evident needs to choose a model: the architecture, whether it pools into one
//! vector, its width and its name. Only a file that passes is handed to the worker.
//!
//! The GGUF crates on crates.io read whole headers into memory with counts taken from
//! the file and are not written for hostile input; the format's header is a handful of
//! little-endian fields (github.com/ggml-org/ggml, docs/gguf.md), so it is read here.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::protocol::GgufInfo;

/// The largest model file accepted: Qwen3-Embedding-8B at 16 bits is about 16 GB.
pub const MAX_MODEL_BYTES: u64 = 20 << 30;
/// The GGUF versions llama.cpp reads (1 is long gone).
const VERSIONS: [u32; 2] = [2, 3];
/// At most this many metadata keys (a model has a few dozen).
const MAX_KEYS: u64 = 65_536;
/// At most this many tensors (an 8B model has about 400; a 70B one about 700).
const MAX_TENSORS: u64 = 65_536;
/// At most this many dimensions per tensor (ggml's GGML_MAX_DIMS).
const MAX_DIMS: u32 = 4;
/// At most this many bytes in one string (a key, a name, a chat template).
const MAX_STRING: u64 = 1 << 20;
/// At most this many items in one array (a tokenizer has up to about 260,000 tokens).
const MAX_ARRAY: u64 = 1 << 24;
/// At most this many bytes of header before the tensor data.
const MAX_HEADER: u64 = 512 << 20;

/// Why a file is refused, in words for the user.
pub type Refusal = String;

/// Reads and checks the header of the GGUF file at `path`.
pub fn read_header(path: &Path) -> Result<GgufInfo, Refusal> {
    let file = File::open(path).map_err(|e| format!("it cannot be read ({e})"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("it cannot be read ({e})"))?
        .len();
    if size > MAX_MODEL_BYTES {
        return Err(format!(
            "it is {:.1} GB, more than the {} GB an embedding model may be",
            size as f64 / 1e9,
            MAX_MODEL_BYTES >> 30
        ));
    }
    Header::read(&mut Bytes::new(BufReader::new(file), size))?.info()
}

/// The little-endian fields of a header, read within [`MAX_HEADER`] and the file's size.
struct Bytes<R> {
    inner: R,
    read: u64,
    size: u64,
}

impl<R: Read> Bytes<R> {
    fn new(inner: R, size: u64) -> Self {
        Self {
            inner,
            read: 0,
            size,
        }
    }

    fn take(&mut self, n: u64) -> Result<(), Refusal> {
        self.read = self.read.saturating_add(n);
        if self.read > self.size {
            return Err("it is cut short: its header runs past the end of the file".into());
        }
        if self.read > MAX_HEADER {
            return Err(format!(
                "its header is longer than {} MB (a damaged file?)",
                MAX_HEADER >> 20
            ));
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Refusal> {
        self.take(N as u64)?;
        let mut buf = [0u8; N];
        self.inner
            .read_exact(&mut buf)
            .map_err(|e| format!("it cannot be read ({e})"))?;
        Ok(buf)
    }

    fn u32(&mut self) -> Result<u32, Refusal> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, Refusal> {
        self.array().map(u64::from_le_bytes)
    }

    /// Passes over `n` bytes without keeping them.
    fn skip(&mut self, n: u64) -> Result<(), Refusal> {
        self.take(n)?;
        let skipped = std::io::copy(&mut (&mut self.inner).take(n), &mut std::io::sink())
            .map_err(|e| format!("it cannot be read ({e})"))?;
        if skipped == n {
            Ok(())
        } else {
            Err("it is cut short: its header runs past the end of the file".into())
        }
    }

    fn len(&mut self, cap: u64, what: &str) -> Result<u64, Refusal> {
        let n = self.u64()?;
        if n > cap {
            return Err(format!(
                "it claims {n} {what}, more than any model has (a damaged file?)"
            ));
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, Refusal> {
        let n = self.len(MAX_STRING, "bytes in one string")?;
        self.take(n)?;
        let mut buf = Vec::with_capacity(n as usize);
        (&mut self.inner)
            .take(n)
            .read_to_end(&mut buf)
            .map_err(|e| format!("it cannot be read ({e})"))?;
        if buf.len() as u64 != n {
            return Err("it is cut short: its header runs past the end of the file".into());
        }
        String::from_utf8(buf)
            .map_err(|_| "a key or text in it is not UTF-8 (a damaged file?)".into())
    }
}

/// A metadata value Evident reads; the others are passed over.
enum Value {
    Text(String),
    Number(u64),
    Other,
}

/// GGUF's value types, and the size of the fixed-width ones.
fn fixed_width(kind: u32) -> Option<u64> {
    match kind {
        0 | 1 | 7 => Some(1), // u8, i8, bool
        2 | 3 => Some(2),     // u16, i16
        4..=6 => Some(4),     // u32, i32, f32
        10..=12 => Some(8),   // u64, i64, f64
        _ => None,
    }
}

const STRING: u32 = 8;
const ARRAY: u32 = 9;

fn value<R: Read>(bytes: &mut Bytes<R>, kind: u32, depth: u8) -> Result<Value, Refusal> {
    match kind {
        STRING => bytes.string().map(Value::Text),
        4 => bytes.u32().map(|n| Value::Number(u64::from(n))),
        10 => bytes.u64().map(Value::Number),
        ARRAY if depth == 0 => {
            let item = bytes.u32()?;
            let count = bytes.len(MAX_ARRAY, "items in one list")?;
            match fixed_width(item) {
                Some(width) => bytes.skip(count * width)?,
                None => {
                    for _ in 0..count {
                        value(bytes, item, depth + 1)?;
                    }
                }
            }
            Ok(Value::Other)
        }
        ARRAY => Err("it has lists nested in lists (a damaged file?)".into()),
        kind => match fixed_width(kind) {
            Some(width) => bytes.skip(width).map(|()| Value::Other),
            None => Err(format!(
                "it has a value of unknown type {kind} (a damaged file?)"
            )),
        },
    }
}

/// What the header holds that Evident uses.
struct Header {
    keys: Vec<(String, Value)>,
    tensors: u64,
}

impl Header {
    fn read<R: Read>(bytes: &mut Bytes<R>) -> Result<Self, Refusal> {
        if bytes.array::<4>().ok().as_ref() != Some(b"GGUF") {
            return Err("not a GGUF model file".into());
        }
        let version = bytes.u32()?;
        if !VERSIONS.contains(&version) {
            return Err(format!(
                "it is GGUF version {version}; Evident reads versions 2 and 3"
            ));
        }
        let tensors = bytes.len(MAX_TENSORS, "tensors")?;
        if tensors == 0 {
            return Err("it holds no tensors: there is no model in it".into());
        }
        let count = bytes.len(MAX_KEYS, "metadata keys")?;
        let mut keys = Vec::new();
        for _ in 0..count {
            let key = bytes.string()?;
            let kind = bytes.u32()?;
            let value = value(bytes, kind, 0)?;
            // Only the keys a choice needs are kept (a tokenizer's lists are not).
            if key.starts_with("general.")
                || key.ends_with(".pooling_type")
                || key.ends_with(".embedding_length")
            {
                keys.push((key, value));
            }
        }
        let header = Self { keys, tensors };
        header.check_tensors(bytes)?;
        Ok(header)
    }

    /// Reads every tensor's description: a name, at most four dimensions, a type and
    /// an offset inside the file's data.
    fn check_tensors<R: Read>(&self, bytes: &mut Bytes<R>) -> Result<(), Refusal> {
        for _ in 0..self.tensors {
            bytes.string()?;
            let dims = bytes.u32()?;
            if dims == 0 || dims > MAX_DIMS {
                return Err(format!(
                    "it has a tensor of {dims} dimensions (a damaged file?)"
                ));
            }
            for _ in 0..dims {
                if bytes.u64()? == 0 {
                    return Err("it has a tensor with an empty dimension (a damaged file?)".into());
                }
            }
            let _kind = bytes.u32()?;
            let offset = bytes.u64()?;
            if offset >= bytes.size {
                return Err(
                    "it has a tensor placed past the end of the file (a damaged file?)".into(),
                );
            }
        }
        Ok(())
    }

    fn text(&self, key: &str) -> Option<String> {
        self.keys.iter().find_map(|(k, v)| match v {
            Value::Text(t) if k == key => Some(t.clone()),
            _ => None,
        })
    }

    fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|(k, _)| k == key)
    }

    fn info(self) -> Result<GgufInfo, Refusal> {
        let Some(architecture) = self.text("general.architecture") else {
            return Err("its header names no model architecture".into());
        };
        let width_key = format!("{architecture}.embedding_length");
        let embedding_length = self.keys.iter().find_map(|(k, v)| match v {
            Value::Number(n) if *k == width_key => u32::try_from(*n).ok(),
            _ => None,
        });
        Ok(GgufInfo {
            name: self.text("general.name"),
            license: self.text("general.license"),
            size_label: self.text("general.size_label"),
            embedding_length,
            has_pooling: self.has(&format!("{architecture}.pooling_type")),
            load_ms: None,
            architecture,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A GGUF header as a file would hold it: `keys` (string or u32 values) and `tensors`
    /// one-dimensional tensors, followed by `data` bytes of tensor data.
    pub(crate) fn header(
        version: u32,
        keys: &[(&str, Field)],
        tensors: u64,
        data: usize,
    ) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(version.to_le_bytes());
        out.extend(tensors.to_le_bytes());
        out.extend((keys.len() as u64).to_le_bytes());
        let string = |out: &mut Vec<u8>, s: &str| {
            out.extend((s.len() as u64).to_le_bytes());
            out.extend(s.as_bytes());
        };
        for (key, value) in keys {
            string(&mut out, key);
            match value {
                Field::Text(t) => {
                    out.extend(STRING.to_le_bytes());
                    string(&mut out, t);
                }
                Field::U32(n) => {
                    out.extend(4u32.to_le_bytes());
                    out.extend(n.to_le_bytes());
                }
                Field::Tokens(n) => {
                    out.extend(ARRAY.to_le_bytes());
                    out.extend(STRING.to_le_bytes());
                    out.extend(n.to_le_bytes());
                    for i in 0..*n {
                        string(&mut out, &format!("tok{i}"));
                    }
                }
                Field::Raw(bytes) => out.extend(*bytes),
            }
        }
        for i in 0..tensors {
            string(&mut out, &format!("t{i}"));
            out.extend(1u32.to_le_bytes());
            out.extend(8u64.to_le_bytes());
            out.extend(0u32.to_le_bytes());
            out.extend((i * 32).to_le_bytes());
        }
        out.resize(out.len() + data, 0);
        out
    }

    /// A metadata value of a test header.
    pub(crate) enum Field {
        Text(&'static str),
        U32(u32),
        Tokens(u64),
        /// The value type and value as bytes, however wrong.
        Raw(&'static [u8]),
    }

    /// The header of an embedding model of `architecture` named `name`.
    pub(crate) fn embedding_header(architecture: &'static str, name: &'static str) -> Vec<u8> {
        let width: &'static str = match architecture {
            "bert" => "bert.embedding_length",
            _ => "gemma-embedding.embedding_length",
        };
        let pooling: &'static str = match architecture {
            "bert" => "bert.pooling_type",
            _ => "gemma-embedding.pooling_type",
        };
        let keys = [
            ("general.architecture", Field::Text(architecture)),
            ("general.name", Field::Text(name)),
            (width, Field::U32(384)),
            (pooling, Field::U32(1)),
        ];
        header(3, &keys, 2, 256)
    }

    fn embedding_model() -> Vec<(&'static str, Field)> {
        vec![
            ("general.architecture", Field::Text("gemma-embedding")),
            ("general.name", Field::Text("EmbeddingGemma 300m")),
            ("gemma-embedding.embedding_length", Field::U32(768)),
            ("gemma-embedding.pooling_type", Field::U32(1)),
            ("tokenizer.ggml.tokens", Field::Tokens(1000)),
        ]
    }

    fn read(bytes: &[u8]) -> Result<GgufInfo, Refusal> {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("model.gguf");
        std::fs::write(&path, bytes).expect("write");
        read_header(&path)
    }

    #[test]
    fn an_embedding_models_header_is_read_past_its_tokenizer() {
        let info = read(&header(3, &embedding_model(), 3, 4096)).expect("read");
        assert_eq!(info.architecture, "gemma-embedding");
        assert_eq!(info.name.as_deref(), Some("EmbeddingGemma 300m"));
        assert_eq!(info.embedding_length, Some(768));
        assert!(info.has_pooling && info.is_embedding_model());
    }

    #[test]
    fn a_chat_model_is_read_and_is_not_an_embedding_model() {
        let keys = [
            ("general.architecture", Field::Text("qwen2")),
            ("qwen2.embedding_length", Field::U32(1536)),
        ];
        let info = read(&header(3, &keys, 2, 4096)).expect("read");
        assert!(!info.has_pooling && !info.is_embedding_model());
    }

    #[test]
    fn each_damage_is_refused_with_its_own_reason() {
        let good = header(3, &embedding_model(), 3, 4096);
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"PK\x03\x04 a zip file".to_vec(), "not a GGUF model file"),
            (header(1, &embedding_model(), 3, 4096), "version 1"),
            (header(3, &embedding_model(), 0, 4096), "no tensors"),
            (good[..good.len() - 4096 - 40].to_vec(), "cut short"),
            (
                header(3, &embedding_model()[1..], 3, 4096),
                "no model architecture",
            ),
            // A string that claims 2^60 bytes: refused before anything is allocated.
            (
                header(
                    3,
                    &[(
                        "general.architecture",
                        Field::Raw(&[8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10]),
                    )],
                    1,
                    64,
                ),
                "bytes in one string",
            ),
            // A list that claims 2^40 items.
            (
                header(
                    3,
                    &[(
                        "tokenizer.ggml.scores",
                        Field::Raw(&[9, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]),
                    )],
                    1,
                    64,
                ),
                "items in one list",
            ),
            (
                header(3, &[("x", Field::Raw(&[77, 0, 0, 0]))], 1, 64),
                "unknown type 77",
            ),
        ];
        for (bytes, why) in cases {
            let refused = read(&bytes).expect_err(why);
            assert!(refused.contains(why), "{why:?} not in {refused:?}");
        }
        let mut counts = good.clone();
        counts[8..16].copy_from_slice(&(1u64 << 40).to_le_bytes());
        assert!(
            read(&counts)
                .expect_err("tensors")
                .contains("tensors, more than")
        );
    }

    #[test]
    fn a_file_larger_than_any_embedding_model_is_refused_unread() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("huge.gguf");
        std::fs::write(&path, header(3, &embedding_model(), 3, 0)).expect("write");
        // Sparse: no disk is used for the hole.
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open");
        file.set_len(MAX_MODEL_BYTES + 1).expect("grow");
        let refused = read_header(&path).expect_err("too large");
        assert!(refused.contains("GB, more than the 20 GB"), "{refused}");
    }
}
