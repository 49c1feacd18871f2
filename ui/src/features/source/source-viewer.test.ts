import { describe, expect, it } from "vitest";
import { keepRecent } from "./source-viewer";

describe("keepRecent", () => {
  it("keeps the most recently used entries and hands the others back to be freed", () => {
    const map = new Map<number, string>();
    const dropped: string[] = [];
    const drop = (v: string) => dropped.push(v);
    keepRecent(map, 1, "a", 2, drop);
    keepRecent(map, 2, "b", 2, drop);
    keepRecent(map, 1, "a", 2, drop); // used again: now the newest
    keepRecent(map, 3, "c", 2, drop);
    expect([...map.keys()]).toEqual([1, 3]);
    expect(dropped).toEqual(["b"]);
    for (let i = 10; i < 30; i++) keepRecent(map, i, `d${i}`, 2, drop);
    expect(map.size).toBe(2);
    expect(dropped.length).toBe(21);
  });
});
