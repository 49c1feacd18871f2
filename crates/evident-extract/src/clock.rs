//! The one clock every record is stamped with (imports, the OCR cache, history), so
//! that no stage has to reach into another for the time.

/// Now, in Unix seconds (0 if the clock is before 1970).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}
