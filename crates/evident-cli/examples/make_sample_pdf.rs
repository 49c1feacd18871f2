//! Regenerates `samples/employee-handbook.pdf` from `samples/employee-handbook.txt`:
//! `cargo run -p evident-cli --example make_sample_pdf`.

#[path = "../tests/common/pdf.rs"]
mod pdf;

fn main() -> std::io::Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let text = std::fs::read_to_string(root.join("employee-handbook.txt"))?;
    let lines = pdf::wrap(&text, 80);
    let bytes = pdf::text_pdf("Employee Handbook (sample)", &lines, 26);
    std::fs::write(root.join("employee-handbook.pdf"), bytes)?;
    println!("wrote samples/employee-handbook.pdf");
    Ok(())
}
