import { describe, expect, it } from "vitest";
import { locate, squeeze } from "./highlight";
import { renderTextWithHighlight } from "./text-view";

describe("locate", () => {
  it("finds a passage across line breaks and full-width forms", () => {
    const page = "第四条 单笔报销超过\n２０,０００元的，须经分管副总经理审批。";
    const r = locate(page, "单笔报销超过20,000元的,须经分管副总经理审批。");
    expect(r).not.toBeNull();
    const [s, e] = r ?? [0, 0];
    expect(Array.from(page).slice(s, e).join("")).toContain("单笔报销");
  });

  it("squeezes white space away and remembers where characters came from", () => {
    const { text, origin } = squeeze("a b\nc");
    expect(text).toBe("abc");
    expect(origin).toEqual([0, 2, 4]);
  });
});

describe("renderTextWithHighlight", () => {
  it("marks exactly the passage, counting code points like the Rust side", () => {
    const el = renderTextWithHighlight("𠀀ab<b>c</b>d", 1, 3);
    expect(el.querySelector("[data-testid=source-highlight]")?.textContent).toBe("ab");
    expect(el.querySelector("b")).toBeNull();
    expect(el.textContent).toBe("𠀀ab<b>c</b>d");
  });
});
