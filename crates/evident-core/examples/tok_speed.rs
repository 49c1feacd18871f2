//! Measures segmentation throughput (a profiling aid).
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(path).expect("read");
    evident_core::text::segment::warm_up();
    let t = std::time::Instant::now();
    let mut n = 0;
    for line in text.lines() {
        n += evident_core::text::segment::index_tokens(line).1;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "index_tokens: {n} tokens, {:.2} MB/s",
        text.len() as f64 / 1e6 / s
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
