import { describe, expect, it } from "vitest";
import { centsToInput, formatMoney, formatRange, parseMoney } from "~/lib/money";

describe("parseMoney", () => {
  it.each([
    ["1.500,00", 150_000],
    ["1500", 150_000],
    ["R$ 1.500,50", 150_050],
    ["R$1.500,50", 150_050],
    ["R$\u00a01.500,50", 150_050],
    ["1500.5", 150_050],
    ["1500.50", 150_050],
    ["1500,5", 150_050],
    ["1.500", 150_000],
    ["1.000.000", 100_000_000],
    ["1.000.000,99", 100_000_099],
    ["1,500.50", 150_050],
    ["0,29", 29],
    ["0,01", 1],
    [" 250 ", 25_000],
    ["12,", 1_200],
  ])("reads %j as %i centavos", (input, cents) => {
    expect(parseMoney(input)).toBe(cents);
  });

  it.each(["", "   ", "R$", "abc", "-100", "1.500,001", "15.00.000", "1,5,0", "1.50,00", "12a", "1e5", ",50", "R$ -5"])(
    "refuses %j",
    (input) => {
      expect(parseMoney(input)).toBeNull();
    },
  );

  it("reads a price too large to count as Infinity, for the range checks to refuse", () => {
    expect(parseMoney("99999999999999")).toBe(Number.POSITIVE_INFINITY);
    expect(parseMoney("99.999.999.999.999,99")).toBe(Number.POSITIVE_INFINITY);
  });

  it("refuses what is not a string", () => {
    expect(parseMoney(null)).toBeNull();
    expect(parseMoney(undefined)).toBeNull();
  });
});

describe("formatting", () => {
  it("shows reais the Brazilian way", () => {
    expect(formatMoney(150_050).replace(/\s/g, " ")).toBe("R$ 1.500,50");
  });

  it("gives the text a price field shows again, which parses back to the same centavos", () => {
    expect(centsToInput(150_050)).toBe("1.500,50");
    expect(centsToInput(100)).toBe("1,00");
    expect(centsToInput(null)).toBe("");
    for (const cents of [1, 29, 150_000, 100_000_000]) expect(parseMoney(centsToInput(cents))).toBe(cents);
  });

  it("shows a range, or one value when both ends agree", () => {
    expect(formatRange(100_000, 200_000).replace(/\s/g, " ")).toBe("R$ 1.000,00 – R$ 2.000,00");
    expect(formatRange(100_000, 100_000).replace(/\s/g, " ")).toBe("R$ 1.000,00");
  });
});
