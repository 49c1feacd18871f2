import { afterEach, describe, expect, it } from "vitest";
import type { Message, Problem } from "./bindings";
import messages from "./fixtures/messages.json";
import problems from "./fixtures/problems.json";
import { setLang } from "./i18n";
import { say, sayProblem, trySay, verdictLabel } from "./words";

// Every message and problem the core can send, with the core's own English and Chinese
// words (written by crates/evident-core/tests/{message,problem}_words.rs, which also fail
// when a code the window can receive has no example): the window says them from the
// same catalogue, by the same rules for parameters, with the same result.
describe("say", () => {
  afterEach(() => setLang("en"));

  for (const [i, c] of (messages as { message: Message; en: string; zh: string }[]).entries()) {
    it(`says ${c.message.code} (#${i}) as the core does, fully worded in both languages`, () => {
      setLang("en");
      expect(say(c.message)).toBe(c.en);
      setLang("zh-CN");
      expect(say(c.message)).toBe(c.zh);
      expect(trySay("en", "message", c.message).errors).toEqual([]);
      expect(trySay("zh-CN", "message", c.message).errors).toEqual([]);
    });
  }
});

describe("sayProblem", () => {
  afterEach(() => setLang("en"));

  for (const [i, c] of (problems as { problem: Problem; en: string; zh: string }[]).entries()) {
    it(`says ${c.problem.code} (#${i}) as the core does, fully worded in both languages`, () => {
      setLang("en");
      expect(sayProblem(c.problem)).toBe(c.en);
      setLang("zh-CN");
      expect(sayProblem(c.problem)).toBe(c.zh);
      expect(trySay("en", "problem", c.problem).errors).toEqual([]);
      expect(trySay("zh-CN", "problem", c.problem).errors).toEqual([]);
    });
  }
});

describe("trySay", () => {
  it("names a code the catalogue has no wording for, and a parameter a wording lacks", () => {
    expect(trySay("zh-CN", "message", { code: "no_such_thing" })).toEqual({
      text: "message-no-such-thing",
      errors: ["no wording for message-no-such-thing in zh-CN.ftl"],
    });
    const { errors } = trySay("en", "message", { code: "number_missing", params: { n: 2 } });
    expect(errors.join(" ")).toContain("$value");
  });
});

describe("verdictLabel", () => {
  afterEach(() => setLang("en"));

  it("names the passage a sentence contradicts, in the window's language", () => {
    const reasons: Message[] = [
      { code: "number_missing", params: { value: "8000", n: 1 } },
      { code: "negates_source", params: { n: 2 } },
    ];
    expect(verdictLabel("unsupported", reasons)).toBe("Contradicted by [2]");
    setLang("zh-CN");
    expect(verdictLabel("unsupported", reasons)).toBe("与 [2] 矛盾");
    expect(verdictLabel("unsupported", [])).toBe("引用段落中没有找到");
    expect(verdictLabel("partially_supported", [])).toBe("与引用段落部分一致");
  });
});
