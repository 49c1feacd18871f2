import { describe, expect, it } from "vitest";
import type { LibrarySync } from "../../bindings";
import { setLang } from "../../i18n";
import { renderSync } from "./sync-view";

function sync(overrides: Partial<LibrarySync> = {}): LibrarySync {
  return {
    counts: { added: 0, updated: 2, renamed: 0, removed: 1, duplicates: 0, failed: 1 },
    changes: [
      { change: "updated", path: "/p/a.docx", doc_id: 3 },
      { change: "updated", path: "/p/b.md", doc_id: 4 },
      { change: "removed", path: "/p/c.md" },
      {
        change: "failed",
        path: "/p/<img src=x onerror=alert(1)>.docx",
        reason: "the Word file is damaged: its part word/document.xml cannot be read (bad zip)",
        why: { code: "word_damaged", params: { part: "word/document.xml", detail: "bad zip" } },
      },
    ],
    unreachable: [],
    watching: ["/p"],
    unwatched: [],
    at: 1_700_000_000,
    error: null,
    ...overrides,
  };
}

function html(s: LibrarySync): HTMLElement {
  const root = document.createElement("div");
  for (const child of renderSync(s)) if (child) root.append(child as Node);
  return root;
}

describe("renderSync", () => {
  it("counts what changed and lists what failed, as text", () => {
    setLang("en");
    const root = html(sync());
    expect(root.querySelector("[data-testid=library-sync-changes]")?.textContent).toContain("updated 2 · removed 1 · could not read 1");
    expect(root.querySelector(".sync-failed li")?.textContent).toContain("the Word file is damaged");
    expect(root.querySelector("img")).toBeNull();
  });

  it("says why a file failed in the window's language, the file's own words kept", () => {
    setLang("zh-CN");
    const failed = html(sync()).querySelector(".sync-failed li")?.textContent ?? "";
    expect(failed).toContain("Word 文件已损坏：其部件 word/document.xml 无法读取（bad zip）");
    expect(failed).not.toContain("damaged");
  });

  it("says nothing changed by leaving the line out, and names missing folders", () => {
    setLang("zh-CN");
    const root = html(
      sync({ counts: { added: 0, updated: 0, renamed: 0, removed: 0, duplicates: 0, failed: 0 }, changes: [], unreachable: ["/media/usb/制度"] }),
    );
    expect(root.querySelector("[data-testid=library-sync-changes]")).toBeNull();
    expect(root.textContent).toContain("找不到（文档已保留）");
    expect(root.textContent).toContain("/media/usb/制度");
  });

  it("names a folder that cannot be watched, and why, in the window's language", () => {
    setLang("zh-CN");
    const root = html(sync({ unwatched: [{ path: "/p/大文件夹", why: { code: "watch_limit" } }] }));
    const line = root.querySelector("[data-testid=library-unwatched] li")?.textContent ?? "";
    expect(line).toContain("/p/大文件夹");
    expect(line).toContain("每 5 分钟");
    expect(line).toContain("inotify");
  });

  it("shows why syncing stopped", () => {
    setLang("en");
    expect(html(sync({ error: "the database is damaged" })).textContent).toContain("Folders are not being kept in sync: the database is damaged");
  });
});
