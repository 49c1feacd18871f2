#!/usr/bin/env python3
"""The window's memory alone, on the app's own process tree (the app, its WebKit
processes and its workers; nothing else on the machine): a fresh app on the sample
documents and the corpus PDFs, idle, after 20 citation clicks, 20 s later (the same
measure as the end of test_app.py, without the hour of scenarios before it), and
while the built-in model (EmbeddingGemma from $EVIDENT_MODELS) embeds the library.
For comparing two builds.

Usage (under a display, e.g. xvfb-run): memory.py APP_BINARY EVIDENT_CLI [OUT.json]
Extra environment for the app can be given as EVIDENT_MEMORY_ENV="NAME=value ...".
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import test_app as e2e


def embedding_memory(driver, models: Path) -> None:
    """The built-in model put in the app's models folder and chosen in Settings: the
    largest PSS of the app's tree over the first minute of its embedding pass."""
    gemma = Path(os.environ.get("EVIDENT_MODELS", "")) / "embeddinggemma-300m-q8_0.gguf"
    if not gemma.is_file():
        print(f"no {gemma}: the memory while embedding is not measured", file=sys.stderr)
        return
    (models / gemma.name).symlink_to(gemma)
    e2e.by_testid(driver, "tab-settings").click()
    find = e2e.by_testid(driver, "builtin-auto")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", find)
    find.click()
    peak = e2e.PeakPss()
    began = time.perf_counter()
    embedding_seen = False
    time_left_shown = False
    while time.perf_counter() - began < 60:
        peak.sample()
        status = e2e.by_testid(driver, "embed-status")
        state = status.get_attribute("data-state")
        embedding_seen = embedding_seen or state == "embedding"
        if not time_left_shown and "left at the rate so far" in status.text:
            # How long the first pass will take, as Settings and the Library say it.
            time_left_shown = True
            e2e.timings["embedding_time_left_said"] = status.text
            e2e.shot(driver, "m1-settings-embedding-time-left")
            e2e.by_testid(driver, "tab-library").click()
            time.sleep(0.5)
            e2e.timings["library_embedding_line"] = e2e.by_testid(driver, "library-embedding").text
            e2e.shot(driver, "m2-library-embedding-time-left")
            e2e.by_testid(driver, "tab-settings").click()
        if state == "ready" and embedding_seen:
            break
        time.sleep(0.2)
    e2e.timings["pss_mb_while_embedding_peak"] = peak.peak
    e2e.timings["embedding_seen"] = embedding_seen


def main() -> int:
    app, cli = sys.argv[1], sys.argv[2]
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    data = Path(tempfile.mkdtemp(prefix="evident-memory-"))
    db = data / "evident.sqlite3"
    docs = data / "docs"
    docs.mkdir()
    for f in (e2e.ROOT / "samples").iterdir():
        shutil.copy(f, docs / f.name)
    models = data / "models"
    models.mkdir()
    env = dict(os.environ, EVIDENT_DB=str(db), EVIDENT_MODELS_DIR=str(models), OLLAMA_MODELS=str(models))
    for pair in os.environ.get("EVIDENT_MEMORY_ENV", "").split():
        name, _, value = pair.partition("=")
        env[name] = value
    subprocess.run([cli, "--db", str(db), "import", str(docs)], capture_output=True, env=env, check=True)
    driver_proc = subprocess.Popen(
        ["tauri-driver", "--port", str(e2e.PORT), "--native-port", str(e2e.NATIVE_PORT)], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    driver = None
    try:
        driver = e2e.start_session(app)
        e2e.start_in_english(driver)
        time.sleep(2)
        e2e.timings["pss_mb_fresh_window"] = e2e.driver_pss()
        e2e.viewer_memory(driver, cli, db, data, env)
        embedding_memory(driver, models)
    finally:
        if driver:
            driver.quit()
        driver_proc.send_signal(signal.SIGTERM)
        try:
            driver_proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            driver_proc.kill()
        shutil.rmtree(data, ignore_errors=True)
    print(json.dumps(e2e.timings, indent=2))
    if out:
        out.write_text(json.dumps(e2e.timings, indent=2))
    return 1 if e2e.failures else 0


if __name__ == "__main__":
    sys.exit(main())
