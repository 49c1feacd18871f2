//! The built-in embeddings model through the real `evident` binary: EmbeddingGemma's
//! GGUF (from `$EVIDENT_MODELS`, made by `../shared/models/fetch.sh`) run by the
//! binary's own worker process, with no server anywhere. Where models are found (a
//! chosen file, Evident's models folder, an Ollama store laid out like a real one, made
//! here), what happens to a damaged or a foreign GGUF, meaning search through it, and a
//! worker killed in the middle of embedding.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{bin, count, samples};
use evident_core::testing::GEMMA_FILE;

/// The folder `../shared/models/fetch.sh` filled.
fn models() -> PathBuf {
    PathBuf::from(std::env::var("EVIDENT_MODELS").expect(
        "EVIDENT_MODELS must name the folder with embeddinggemma-300m-q8_0.gguf: run \
         scripts/setup.sh --test, or use scripts/test.sh",
    ))
}

fn gemma() -> PathBuf {
    models().join(GEMMA_FILE)
}

/// A chat model: a real GGUF that is not an embedding model.
fn chat_model() -> PathBuf {
    models().join("qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
}

/// `evident --db DB args…` with only the given model folders to look in.
fn run(db: &Path, own: &Path, ollama: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .arg("--db")
        .arg(db)
        .args(args)
        .env("EVIDENT_MODELS_DIR", own)
        .env("OLLAMA_MODELS", ollama)
        .output()
        .expect("the evident binary runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

struct Places {
    _dir: tempfile::TempDir,
    db: PathBuf,
    own: PathBuf,
    ollama: PathBuf,
}

fn places() -> Places {
    let dir = tempfile::tempdir().expect("temp dir");
    let own = dir.path().join("models");
    let ollama = dir.path().join("ollama");
    std::fs::create_dir_all(&own).expect("mkdir");
    std::fs::create_dir_all(&ollama).expect("mkdir");
    Places {
        db: dir.path().join("evident.sqlite3"),
        own,
        ollama,
        _dir: dir,
    }
}

/// The tests that run the model take this first: two llama.cpp workers on two cores
/// spin against each other (ggml's threads wait by spinning), and on a loaded CI machine
/// one import then took minutes to embed its first eight passages.
static ONE_MODEL_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_model_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_MODEL_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn link(from: &Path, to: &Path) {
    std::os::unix::fs::symlink(from, to).expect("symlink");
}

fn sha256_file(path: &Path) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    let mut file = std::fs::File::open(path).expect("open");
    std::io::copy(&mut file, &mut hasher).expect("hash");
    format!("{:x}", hasher.finalize())
}

/// An Ollama store as Ollama lays it out: `manifests/registry.ollama.ai/library/NAME/TAG`
/// (an OCI manifest listing layers by digest) and `blobs/sha256-HEX`.
fn ollama_model(store: &Path, name: &str, tag: &str, gguf: &Path, licence: Option<&str>) {
    let blobs = store.join("blobs");
    std::fs::create_dir_all(&blobs).expect("mkdir");
    let hex = sha256_file(gguf);
    link(gguf, &blobs.join(format!("sha256-{hex}")));
    let mut layers = vec![serde_json::json!({
        "mediaType": "application/vnd.ollama.image.model",
        "digest": format!("sha256:{hex}"),
        "size": std::fs::metadata(gguf).expect("size").len(),
    })];
    if let Some(licence) = licence {
        use sha2::Digest;
        let lhex = format!("{:x}", sha2::Sha256::digest(licence.as_bytes()));
        std::fs::write(blobs.join(format!("sha256-{lhex}")), licence).expect("licence");
        layers.push(serde_json::json!({
            "mediaType": "application/vnd.ollama.image.license",
            "digest": format!("sha256:{lhex}"),
            "size": licence.len(),
        }));
    }
    let manifest = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json",
                   "digest": "sha256:0000", "size": 2},
        "layers": layers,
    });
    let dir = store
        .join("manifests/registry.ollama.ai/library")
        .join(name);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join(tag), manifest.to_string()).expect("manifest");
}

#[test]
fn a_model_ollama_pulled_is_found_from_its_manifest_and_its_chat_models_are_passed_over() {
    let p = places();
    ollama_model(&p.ollama, "qwen2.5-coder", "1.5b", &chat_model(), None);
    ollama_model(
        &p.ollama,
        "embeddinggemma",
        "latest",
        &gemma(),
        Some("Gemma Terms of Use (fixture)"),
    );
    let out = run(&p.db, &p.own, &p.ollama, &["config"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("built-in model")
            && stdout.contains("Ollama's embeddinggemma:latest")
            && stdout.contains("gemma-embedding")
            && stdout.contains("prompts: EmbeddingGemma"),
        "{stdout}"
    );
    assert!(
        stdout.contains("licence text:") && stdout.contains("/blobs/sha256-"),
        "Ollama's licence layer travels with the model: {stdout}"
    );
    assert!(
        !stdout.contains("qwen"),
        "a chat model of Ollama's is passed over without a word: {stdout}"
    );
}

#[test]
fn a_damaged_or_foreign_gguf_is_refused_with_the_reason_and_keyword_search_goes_on() {
    let p = places();
    let broken = p.own.join("aaa-broken.gguf");
    std::fs::write(&broken, b"GGUF\x03\x00\x00\x00 this is not a model").expect("write");
    let md = samples().join("报销与请假制度.md");
    let out = run(&p.db, &p.own, &p.ollama, &["import", &md.to_string_lossy()]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("aaa-broken.gguf")
            && stderr.contains("tensors, more than any model has (a damaged file?)"),
        "a damaged file found on the way is named with its reason: {stderr}"
    );
    // The question is still answered, by keyword.
    let out = run(
        &p.db,
        &p.own,
        &p.ollama,
        &["ask", "单笔报销超过多少需要分管副总审批？"],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("分管副总"), "{stdout}");
    assert_eq!(count(&p.db, "SELECT COUNT(*) FROM embedding_models"), 0);
    // A chat model chosen by name is refused, and says why.
    let chat = chat_model();
    let out = run(
        &p.db,
        &p.own,
        &p.ollama,
        &["ask", "年假", "--embed-gguf", &chat.to_string_lossy()],
    );
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("qwen2.5-coder") && stderr.contains("not an embedding model"),
        "{stderr}"
    );
}

/// The probe test of the embeddings worker's confinement: the real worker, with the
/// real model loaded, tries what a hostile GGUF would. It may read its model and
/// nothing else, connect nowhere (a port that listens, on loopback) and run nothing;
/// and it still embeds.
#[test]
fn the_embeddings_worker_reads_only_its_model_connects_nowhere_and_runs_nothing() {
    let _model = one_model_at_a_time();
    use evident_core::model::builtin::BuiltinModel;
    use evident_core::model::{Embedder, InputKind, Text};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("its address").port();
    let model = BuiltinModel::new(gemma(), bin());
    let probe = model.probe(port).expect("the worker probes");
    assert_eq!(probe.confinement.landlock, "fully enforced", "{probe:?}");
    assert!(probe.confinement.seccomp, "{probe:?}");
    assert_eq!(probe.attempts.len(), 4, "{probe:?}");
    for (what, worked) in &probe.attempts {
        assert!(
            !worked,
            "the confined embeddings worker could {what}: {probe:?}"
        );
    }
    assert_eq!(model.confinement(), Some(probe.confinement.clone()));
    let vectors = model
        .embed(&[Text::from("年假有几天？")], InputKind::Query)
        .expect("the confined worker still embeds");
    assert_eq!(vectors.len(), 1);
    assert_eq!(vectors[0].len(), 768);
}

#[test]
fn meaning_search_runs_on_the_built_in_model_with_no_server_and_its_vectors_are_its_own() {
    let _model = one_model_at_a_time();
    let p = places();
    link(&gemma(), &p.own.join(GEMMA_FILE));
    let md = samples().join("报销与请假制度.md");
    let txt = samples().join("employee-handbook.txt");
    let out = run(
        &p.db,
        &p.own,
        &p.ollama,
        &["import", &md.to_string_lossy(), &txt.to_string_lossy()],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let chunks = count(&p.db, "SELECT COUNT(*) FROM chunks");
    assert!(chunks > 3, "{chunks} passages");
    assert_whole_and_unmixed(&p.db);
    assert_eq!(
        count(&p.db, "SELECT COUNT(*) FROM embedding_models"),
        1,
        "one model registered"
    );
    let name: String = rusqlite::Connection::open(&p.db)
        .and_then(|c| c.query_row("SELECT name FROM embedding_models", [], |r| r.get(0)))
        .expect("model name");
    assert_eq!(
        name,
        format!("built-in:{GEMMA_FILE}"),
        "kept apart from a server's vectors"
    );
    // A question that shares almost no words with its answer (招待 ≈ business entertainment).
    let out = run(
        &p.db,
        &p.own,
        &p.ollama,
        &[
            "search",
            "我花了三万块招待客户，这笔钱要谁批准才能报？",
            "--json",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let found: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let mode = found["retrieval"]["used"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(mode, "hybrid", "{stdout}");
}

/// The embeddings workers whose parent is `parent`.
fn workers_of(parent: u32) -> Vec<u32> {
    let flag = evident_core::model::builtin::protocol::WORKER_FLAG;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The parent pid is the second field after the command's closing parenthesis.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            String::from_utf8_lossy(&cmdline).contains(flag) && ppid == Some(parent)
        })
        .collect()
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

fn kill(pid: u32) {
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
}

/// Waits until `until` holds or 300 s have passed (a state, not a time: it returns
/// as soon as it holds).
fn wait_for(mut until: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while std::time::Instant::now() < deadline {
        if until() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

fn vectors(db: &Path) -> i64 {
    rusqlite::Connection::open(db)
        .and_then(|c| c.query_row("SELECT COUNT(*) FROM chunk_vectors", [], |r| r.get(0)))
        .unwrap_or(0)
}

/// Every passage has exactly one vector, all of one model.
fn assert_whole_and_unmixed(db: &Path) {
    assert_eq!(count(db, "SELECT COUNT(*) FROM embedding_models"), 1);
    assert_eq!(
        count(db, "SELECT COUNT(DISTINCT embed_key) FROM chunks"),
        count(db, "SELECT COUNT(*) FROM chunk_vectors"),
        "one vector per passage"
    );
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM chunks c WHERE NOT EXISTS \
             (SELECT 1 FROM chunk_vectors v WHERE v.embed_key = c.embed_key)"
        ),
        0
    );
}

#[test]
fn a_worker_killed_mid_embedding_is_started_again_and_a_killed_import_resumes_unmixed() {
    let _model = one_model_at_a_time();
    let p = places();
    link(&gemma(), &p.own.join(GEMMA_FILE));
    // 40 passages: five steps of embedding, so there is a middle to kill in.
    let handbook = common::eval_dir().join("corpus/handbook-18f");
    let md = handbook.join("leave.md");
    let txt = handbook.join("overtime.md");
    // What the import says goes to a file: a pipe nobody reads could stall it.
    let said = |db: &Path| db.with_extension("stderr");
    let import = |db: &Path| {
        let stderr = std::fs::File::create(said(db)).expect("stderr file");
        Command::new(bin())
            .arg("--db")
            .arg(db)
            .args(["import", &md.to_string_lossy(), &txt.to_string_lossy()])
            .env("EVIDENT_MODELS_DIR", &p.own)
            .env("OLLAMA_MODELS", &p.ollama)
            .stdout(std::process::Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("import starts")
    };
    // Waits for the first vectors; an import that ends first, or never embeds, fails
    // the test with its own words.
    let embedding = |child: &mut std::process::Child, db: &Path| {
        let started =
            wait_for(|| vectors(db) >= 8 || child.try_wait().is_ok_and(|status| status.is_some()))
                && vectors(db) >= 8;
        assert!(
            started,
            "the import never embedded: {}",
            std::fs::read_to_string(said(db)).unwrap_or_default()
        );
    };

    // The worker dies (killed, or crashed on a text): the next request starts another.
    let mut child = import(&p.db);
    embedding(&mut child, &p.db);
    let first = workers_of(child.id());
    assert_eq!(first.len(), 1, "one worker: {first:?}");
    kill(first[0]);
    let status = child.wait().expect("import ends");
    assert!(
        status.success(),
        "{}",
        std::fs::read_to_string(said(&p.db)).unwrap_or_default()
    );
    assert_whole_and_unmixed(&p.db);

    // The import itself is killed: its worker does not outlive it, and `embed` resumes
    // where it stopped.
    let db = p.db.with_file_name("second.sqlite3");
    let mut child = import(&db);
    embedding(&mut child, &db);
    let workers = workers_of(child.id());
    assert_eq!(workers.len(), 1, "{workers:?}");
    kill(child.id());
    let _ = child.wait();
    let before = vectors(&db);
    assert!(
        wait_for(|| !alive(workers[0])),
        "the worker outlived the process that started it"
    );
    let out = run(&db, &p.own, &p.ollama, &["embed"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(vectors(&db) > before, "embed went on from {before}");
    assert_whole_and_unmixed(&db);
}
