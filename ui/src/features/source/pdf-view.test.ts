import { beforeAll, describe, expect, it, vi } from "vitest";
import type { PageImage } from "../../bindings";
import { markText, openPdf, parsePage } from "./pdf-view";

// The pages the view asks the backend for, answered when a test says so.
const asked = vi.hoisted(() => [] as { page: number; answer: (frame: ArrayBuffer) => void }[]);
vi.mock("../../ipc", () => ({
  ipc: {
    pdfPage: (_id: number, page: number) => new Promise<ArrayBuffer>((answer) => asked.push({ page, answer })),
  },
}));

beforeAll(() => {
  // jsdom has no object URLs.
  let n = 0;
  URL.createObjectURL = () => `blob:test/${++n}`;
  URL.revokeObjectURL = () => {};
});

/// A frame as the backend's `pdf_page` sends it: u32 length, JSON, PNG.
function frame(page: PageImage): ArrayBuffer {
  const json = new TextEncoder().encode(JSON.stringify(page));
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const out = new Uint8Array(4 + json.length + png.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(png, 4 + json.length);
  return out.buffer;
}

function page(n: number, texts: string[]): PageImage {
  return {
    page: n,
    page_count: 3,
    width: 1000,
    height: 1400,
    boxes: texts.map((text, i) => ({ text, x: 100, y: 100 + i * 40, w: 800, h: 30 })),
    text_note: null,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("parsePage", () => {
  it("reads the JSON and hands the rest on as the PNG", () => {
    const { page: p, png } = parsePage(frame(page(2, ["第一条"])));
    expect(p.page).toBe(2);
    expect(p.boxes[0]?.text).toBe("第一条");
    expect(png.type).toBe("image/png");
    expect(png.size).toBe(7);
  });

  it("refuses a frame cut short instead of showing half a page", () => {
    const whole = frame(page(1, ["text"]));
    expect(() => parsePage(whole.slice(0, 10))).toThrow(/cut short/);
    expect(() => parsePage(new ArrayBuffer(2))).toThrow(/missing/);
  });
});

describe("markText", () => {
  it("marks every box the passage runs through, and only those", () => {
    const divs = ["第三条 劳动合同期限三个月以上", "不满一年的，试用期不得超过", "一个月。", "第四条 其他"].map((t) => {
      const d = document.createElement("span");
      d.textContent = t;
      return d;
    });
    markText(divs, "试用期不得超过一个月");
    expect(divs.map((d) => d.classList.contains("source-highlight"))).toEqual([false, true, true, false]);
    expect(divs[1]?.dataset.testid).toBe("source-highlight");
  });
});

describe("openPdf", () => {
  it("shows the page asked for last, even when an earlier one arrives after it", async () => {
    asked.length = 0;
    const seen: number[] = [];
    const view = openPdf(7, 3, (n) => seen.push(n));
    document.body.append(view.element);
    const first = view.show(1, null);
    const second = view.show(2, "第二页的文字");
    await settle();
    expect(asked.map((a) => a.page)).toEqual([1, 2]);
    asked[1]?.answer(frame(page(2, ["第二页的文字"])));
    await second;
    asked[0]?.answer(frame(page(1, ["第一页"])));
    await first;
    const shown = [...view.element.querySelectorAll(".pdf-text-layer span")].map((s) => s.textContent);
    expect(shown).toEqual(["第二页的文字"]);
    expect(view.element.querySelector("[data-testid=source-highlight]")?.textContent).toBe("第二页的文字");
    expect(view.element.querySelectorAll("img.pdf-page-image")).toHaveLength(1);
    expect(view.element.querySelector(".page-label")?.textContent).toBe("2 / 3");
    view.destroy();
    expect(view.element.querySelector("img")).toBeNull();
  });
});
