import { describe, expect, it } from "vitest";
import { markTerms } from "./terms";

function marked(text: string, terms: string[]): string[] {
  const div = document.createElement("div");
  div.append(markTerms(text, terms));
  return [...div.querySelectorAll("b.term")].map((b) => b.textContent ?? "");
}

describe("markTerms", () => {
  it("marks inflected English words by their stem, at word starts only", () => {
    expect(marked("Birthing parents receive 16 weeks of leave; unbirthing is not a word.", ["birthing", "weeks", "leave"])).toEqual([
      "Birthing",
      "weeks",
      "leave",
    ]);
  });

  it("marks Chinese words inside longer words, and keeps the text intact", () => {
    const div = document.createElement("div");
    div.append(markTerms("须经分管副总经理审批<b>x</b>", ["副总", "审批"]));
    expect(div.textContent).toBe("须经分管副总经理审批<b>x</b>");
    expect([...div.querySelectorAll("b.term")].map((b) => b.textContent)).toEqual(["副总", "审批"]);
  });

  it("leaves lone Chinese characters unmarked", () => {
    expect(marked("须经分管副总经理审批，金额以元计", ["经", "元", "审批"])).toEqual(["审批"]);
  });

  it("treats terms as text, not as patterns", () => {
    expect(marked("a (b) c.*d", ["(b)", ".*"])).toEqual(["(b)", ".*"]);
  });
});
