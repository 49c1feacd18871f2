#!/usr/bin/env python3
"""Prints the workspace's crate graph from `cargo metadata`: each crate and the
workspace crates it depends on (normal dependencies; dev-dependencies in brackets),
and fails when the normal dependencies form a cycle. ARCHITECTURE.md shows its output."""
import json
import subprocess
import sys

meta = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
names = {p["name"] for p in meta["packages"]}
graph, dev = {}, {}
for p in sorted(meta["packages"], key=lambda p: p["name"]):
    deps = p["dependencies"]
    graph[p["name"]] = sorted({d["name"] for d in deps if d["name"] in names and d["kind"] is None and d["name"] != p["name"]})
    dev[p["name"]] = sorted({d["name"] for d in deps if d["name"] in names and d["kind"] == "dev" and d["name"] != p["name"]} - set(graph[p["name"]]))


def cycle():
    state = {}

    def visit(n, path):
        state[n] = "open"
        for m in graph[n]:
            if state.get(m) == "open":
                return path + [n, m]
            if m not in state:
                found = visit(m, path + [n])
                if found:
                    return found
        state[n] = "done"
        return None

    for n in graph:
        if n not in state:
            found = visit(n, [])
            if found:
                return found
    return None


width = max(map(len, graph))
for name in graph:
    line = f"{name:<{width}} -> {', '.join(graph[name]) or '(none)'}"
    if dev[name]:
        line += f"  [tests: {', '.join(dev[name])}]"
    print(line)
found = cycle()
if found:
    print("cycle: " + " -> ".join(found), file=sys.stderr)
    sys.exit(1)
print("no cycles")
