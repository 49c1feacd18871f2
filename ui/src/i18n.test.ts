import { afterEach, describe, expect, it } from "vitest";
import { setLang, t } from "./i18n";

describe("t", () => {
  afterEach(() => setLang("en"));

  it("fills every place a variable appears, with its value as written", () => {
    setLang("en");
    expect(t("embeddingsSentences", { model: "m", embedded: 3, total: 9 })).toBe(
      "Meaning search covers all 9 passages (m). Now embedding their sentences, so that answers lead with the right one: 3 of 9.",
    );
    // `$&` means "the match" to String.replace with a string: a file may be named so.
    expect(t("sourceGone", { path: "/docs/a$&b $1.md" })).toBe("This document is no longer in your library (/docs/a$&b $1.md).");
  });
});
