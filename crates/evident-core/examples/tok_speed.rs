//! Measures segmentation and chunking throughput (a profiling aid).
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(path).expect("read");
    evident_text::segment::warm_up();
    let sentences: Vec<&str> = text.split('。').collect();
    let t = std::time::Instant::now();
    let mut n = 0;
    for s in &sentences {
        n += evident_text::segment::index_tokens(s).1;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "index_tokens per sentence: {} calls, {n} tokens, {:.2} MB/s, {:.1} µs/call",
        sentences.len(),
        text.len() as f64 / 1e6 / s,
        s * 1e6 / sentences.len() as f64
    );
    let t = std::time::Instant::now();
    let doc = evident_core::extract::plain::extract(&text, "x");
    println!(
        "extract: {:.2} MB/s",
        text.len() as f64 / 1e6 / t.elapsed().as_secs_f64()
    );
    let t = std::time::Instant::now();
    let c = evident_core::chunk::chunk(&doc, &Default::default()).expect("chunk");
    println!(
        "chunk: {} chunks {:.2} MB/s",
        c.len(),
        text.len() as f64 / 1e6 / t.elapsed().as_secs_f64()
    );
}
