//! Evident's child processes and what each may still do once it runs.
//!
//! Evident hands untrusted bytes to three kinds of worker, each a child process of the
//! same executable: the PDF reader (and page drawer), the OCR step (which becomes
//! Tesseract), and the built-in embeddings model (llama.cpp reading a GGUF file). A
//! parser bug in any of them must not become a way into the user's files or network,
//! so each confines itself before it reads a byte, by the profile of its kind
//! ([`confine`]): resource limits, Landlock (files and TCP) and seccomp (sockets,
//! exec, tracing). All of them are started and spoken to by one implementation
//! ([`process`]): empty environment, chosen folder, capped replies, a deadline on every
//! wait, killed when dropped.
//!
//! This crate depends on nothing of Evident's, so every worker can use it and it can
//! reach none of them.

pub mod confine;
pub mod process;
