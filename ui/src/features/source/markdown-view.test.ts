import { describe, expect, it } from "vitest";
import type { DocumentLayout } from "../../bindings";
import { renderMarkdown } from "./markdown-view";

// The text and layout as the Rust side produces them for:
//   # 制度
//   单笔**超过20,000元**须经审批。<script>x</script>
//   1. 一
//      - 二
//   | 级别 | 标准 |  (header)  | 经理 | 500元 |
const text = "制度\n\n单笔超过20,000元须经审批。<script>x</script>\n\n一\n\n二\n\n级别: 经理; 标准: 500元";
const at = (s: string) => Array.from(text.slice(0, text.indexOf(s))).length;
const len = (s: string) => Array.from(s).length;

const layout: DocumentLayout = {
  blocks: [
    { kind: { type: "heading", level: 1 }, char_start: 0, char_end: 2, marks: [], cells: [] },
    {
      kind: { type: "paragraph" },
      char_start: at("单笔"),
      char_end: at("单笔") + len("单笔超过20,000元须经审批。<script>x</script>"),
      marks: [{ style: "strong", char_start: at("超过"), char_end: at("须经"), target: null }],
      cells: [],
    },
    { kind: { type: "list_item", depth: 1, ordered: true }, char_start: at("一"), char_end: at("一") + 1, marks: [], cells: [] },
    { kind: { type: "list_item", depth: 2, ordered: false }, char_start: at("二"), char_end: at("二") + 1, marks: [], cells: [] },
    {
      kind: { type: "table_row", header: ["级别", "标准"] },
      char_start: at("级别:"),
      char_end: text.length,
      marks: [],
      cells: [
        { column: 0, char_start: at("经理"), char_end: at("经理") + 2 },
        { column: 1, char_start: at("500元"), char_end: at("500元") + 4 },
      ],
    },
  ],
};

describe("renderMarkdown", () => {
  it("renders structure from the layout and document text only as text", () => {
    const el = renderMarkdown(text, layout, 0, 0);
    expect(el.querySelector("h1")?.textContent).toBe("制度");
    expect(el.querySelector("p strong")?.textContent).toBe("超过20,000元");
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("p")?.textContent).toContain("<script>x</script>");
    expect(el.querySelector("ol > li > ul > li")?.textContent).toBe("二");
    expect([...el.querySelectorAll("th")].map((c) => c.textContent)).toEqual(["级别", "标准"]);
    expect([...el.querySelectorAll("td")].map((c) => c.textContent)).toEqual(["经理", "500元"]);
  });

  it("marks the passage as one piece across an inline style", () => {
    const start = at("单笔");
    const el = renderMarkdown(text, layout, start, start + len("单笔超过20,000元须经审批。"));
    const marks = el.querySelectorAll("[data-testid=source-highlight]");
    expect(marks.length).toBe(1);
    expect(marks[0]?.textContent).toBe("单笔超过20,000元须经审批。");
    expect(marks[0]?.querySelector("strong")?.textContent).toBe("超过20,000元");
  });

  it("marks a passage spanning blocks in each block it touches", () => {
    const el = renderMarkdown(text, layout, at("审批"), at("二") + 1);
    const marked = [...el.querySelectorAll("[data-testid=source-highlight]")].map((m) => m.textContent);
    expect(marked).toEqual(["审批。<script>x</script>", "一", "二"]);
  });
});
