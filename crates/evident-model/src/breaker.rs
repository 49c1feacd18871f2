//! Remembering that a model server is down, so that no question waits for it.
//!
//! Every request to a stopped server used to be tried three times (1.3 s per question),
//! and one to a hung server waited for its timeouts (up to ~46 s), question after
//! question. Now, once a request finds the server unreachable or silent past its time,
//! the breaker opens: further requests fail at once with the same error (a question is
//! answered by keywords, saying why), while a background thread asks the server again,
//! every few seconds at first and then less often, and closes the breaker once it is
//! [`Health::Up`]; the next question uses the server again.
//!
//! The check asks what failed, not whether the server is there at all: after an
//! embeddings request failed it embeds one short text. An Ollama loading a model, or a
//! llama.cpp server busy generating, lists its models at once but hangs on embeddings;
//! a check of `/models` found it "up" and every question waited out its time-outs
//! again. Such a server stays remembered as down, with that reason
//! ([`Health::Down`] carries it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use super::{ServerError, ServerErrorKind};

/// First pause before the background thread asks again; doubled up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_secs(2);
/// Longest pause between two background checks.
const MAX_PAUSE: Duration = Duration::from_secs(30);
/// If no background check can run, requests go through again after this long.
const FALLBACK_RETRY: Duration = Duration::from_secs(30);

/// What the background check found.
pub(super) enum Health {
    /// The server did what failed (or answered it with a reply of its own).
    Up,
    /// Still down; with a better account of how than the failure that opened the
    /// breaker, when the check found one.
    Down(Option<ServerError>),
}

/// Whether a server is known to be down, and since when (shared by clones).
#[derive(Default, Clone)]
pub(super) struct Breaker {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    down: Mutex<Option<(Instant, ServerError)>>,
    checking: AtomicBool,
}

impl Breaker {
    /// `Err` with the remembered failure while the server is known to be down.
    pub(super) fn check(&self) -> Result<(), ServerError> {
        let down = self
            .inner
            .down
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match down.as_ref() {
            Some((since, error))
                if self.inner.checking.load(Ordering::SeqCst)
                    || since.elapsed() < FALLBACK_RETRY =>
            {
                let mut remembered = error.clone();
                remembered.remembered = Some(since.elapsed().as_secs());
                Err(remembered)
            }
            _ => Ok(()),
        }
    }

    /// Records how a request went. A server that could not be reached or did not answer
    /// in time opens the breaker and starts `check` on a background thread until it
    /// finds the server [`Health::Up`]; any reply closes it.
    pub(super) fn record<T>(
        &self,
        result: &Result<T, ServerError>,
        check: impl Fn() -> Health + Send + 'static,
    ) {
        match result {
            Err(e)
                if matches!(
                    e.kind,
                    ServerErrorKind::Unreachable | ServerErrorKind::TimedOut
                ) =>
            {
                let mut down = self
                    .inner
                    .down
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                if down.is_none() {
                    *down = Some((Instant::now(), e.clone()));
                }
                drop(down);
                if !self.inner.checking.swap(true, Ordering::SeqCst) {
                    let inner = Arc::downgrade(&self.inner);
                    let spawned = std::thread::Builder::new()
                        .name("model-server-check".into())
                        .spawn(move || check_until_up(&inner, check));
                    if spawned.is_err() {
                        self.inner.checking.store(false, Ordering::SeqCst);
                    }
                }
            }
            // The server answered (even with an error of its own): it is up.
            _ => self.close(),
        }
    }

    fn close(&self) {
        *self
            .inner
            .down
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Asks `check` with growing pauses until the server is up (then closes the breaker) or
/// the server's client is gone. What a check learns of how the server is down replaces
/// the remembered failure (its time stays).
fn check_until_up(inner: &Weak<Inner>, check: impl Fn() -> Health) {
    let mut pause = FIRST_PAUSE;
    loop {
        std::thread::sleep(pause);
        let Some(strong) = inner.upgrade() else {
            return;
        };
        if strong
            .down
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none()
        {
            strong.checking.store(false, Ordering::SeqCst);
            return;
        }
        drop(strong);
        let health = check();
        let Some(strong) = inner.upgrade() else {
            return;
        };
        let mut down = strong.down.lock().unwrap_or_else(PoisonError::into_inner);
        match health {
            Health::Up => {
                *down = None;
                strong.checking.store(false, Ordering::SeqCst);
                return;
            }
            Health::Down(Some(how)) => {
                if let Some((_, error)) = down.as_mut() {
                    *error = how;
                }
            }
            Health::Down(None) => {}
        }
        drop(down);
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn down() -> Result<(), ServerError> {
        Err(ServerError::new(
            ServerErrorKind::Unreachable,
            "http://127.0.0.1:9/v1",
            "",
        ))
    }

    #[test]
    fn a_server_that_did_not_answer_is_not_asked_again_until_the_check_finds_it_up() {
        let breaker = Breaker::default();
        assert!(breaker.check().is_ok());
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = asked.clone();
        breaker.record(&down(), move || {
            if counter.fetch_add(1, Ordering::SeqCst) >= 1 {
                Health::Up
            } else {
                Health::Down(None)
            }
        });
        let remembered = breaker.check().expect_err("remembered");
        assert_eq!(remembered.kind, ServerErrorKind::Unreachable);
        assert_eq!(remembered.remembered, Some(0));
        assert!(
            remembered.to_string().contains("not asked again"),
            "{remembered}"
        );
        // The background check asks after 2 s (no), then 4 s later (yes).
        let started = Instant::now();
        while breaker.check().is_err() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(breaker.check().is_ok(), "closed once the server answered");
        assert_eq!(asked.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn any_reply_closes_it_and_errors_of_the_server_itself_do_not_open_it() {
        let breaker = Breaker::default();
        breaker.record(&down(), || Health::Down(None));
        assert!(breaker.check().is_err());
        breaker.record(&Ok::<(), ServerError>(()), || Health::Down(None));
        assert!(breaker.check().is_ok());
        let rejected: Result<(), ServerError> = Err(ServerError::new(
            ServerErrorKind::KeyRejected,
            "http://127.0.0.1:9/v1",
            "bad key",
        ));
        breaker.record(&rejected, || Health::Down(None));
        assert!(breaker.check().is_ok(), "a server that answers is up");
    }

    #[test]
    fn what_the_check_learns_of_how_the_server_is_down_is_what_it_says() {
        let breaker = Breaker::default();
        breaker.record(&down(), || {
            Health::Down(Some(ServerError::new(
                ServerErrorKind::NotEmbedding,
                "http://127.0.0.1:9/v1",
                "no vector within 15 s",
            )))
        });
        assert_eq!(
            breaker.check().map_err(|e| e.kind),
            Err(ServerErrorKind::Unreachable)
        );
        // The first check runs after 2 s.
        let started = Instant::now();
        let told = loop {
            let told = breaker.check().expect_err("still down");
            if told.kind != ServerErrorKind::Unreachable
                || started.elapsed() > Duration::from_secs(10)
            {
                break told;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(told.kind, ServerErrorKind::NotEmbedding);
        assert_eq!(told.detail, "no vector within 15 s");
        assert!(told.remembered.is_some());
    }
}
