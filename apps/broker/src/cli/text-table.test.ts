import { describe, expect, test } from "vitest";
import { textTable } from "./text-table.js";

describe("textTable", () => {
  test("pads columns to their widest cell, right-aligns numbers, prints missing cells as '-'", () => {
    const table = textTable(
      [{ heading: "TOPIC" }, { heading: "END", numeric: true }, { heading: "NOTE" }],
      [
        ["orders", 1200, "ok"],
        ["a", null, undefined],
      ],
    );
    expect(table.split("\n")).toEqual([
      "TOPIC    END  NOTE",
      "------  ----  ----",
      "orders  1200  ok",
      "a          -  -",
    ]);
  });
});
