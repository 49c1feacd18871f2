//! Prints the raw laid-out text of each page of a PDF (a debugging aid for extraction).
fn main() {
    for path in std::env::args().skip(1) {
        match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| evident_core::extract::pdf::read::read_pdf(&b).map_err(|e| e.to_string()))
        {
            Ok(pdf) => {
                for p in pdf.pages {
                    println!("===== {path} page {} {:?}\n{}", p.number, p.error, p.text);
                }
            }
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
