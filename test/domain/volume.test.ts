import { describe, expect, it } from "vitest";
import { toMinor } from "../../src/domain/money.js";
import { assertVolume, emptyVolume, recordVolume, releaseVolume, volumeUsed } from "../../src/domain/volume.js";
import { makeContext, thrown } from "./context.js";

const H = 3_600_000;

describe("payout volume windows", () => {
  it("keeps running hour and day sums as time moves on", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", 100);
    recordVolume(w, H / 2, "b", 200);
    expect(volumeUsed(w, H / 2)).toEqual({ hour: 300, day: 300 });
    expect(volumeUsed(w, H)).toEqual({ hour: 200, day: 300 }); // "a" is exactly one hour old: out of the hour
    expect(volumeUsed(w, 24 * H)).toEqual({ hour: 0, day: 200 });
    expect(volumeUsed(w, 24 * H + H / 2)).toEqual({ hour: 0, day: 0 });
  });

  it("a released payout leaves the windows it is in, once", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "old", 100);
    recordVolume(w, 2 * H, "new", 50);
    volumeUsed(w, 2 * H);
    releaseVolume(w, "old"); // in the day window only
    releaseVolume(w, "new");
    releaseVolume(w, "new");
    expect(volumeUsed(w, 2 * H)).toEqual({ hour: 0, day: 0 });
  });

  it("compacts entries that left the day window and stays exact", () => {
    const w = emptyVolume();
    for (let i = 0; i < 5_000; i++) recordVolume(w, i * 60_000, `p${i}`, 1);
    const now = 5_000 * 60_000;
    expect(volumeUsed(w, now)).toEqual({ hour: 59, day: 1_439 }); // minutes 4941-4999 and 3561-4999
    expect(w.entries.length).toBeLessThan(5_000);
    releaseVolume(w, "p4999");
    expect(volumeUsed(w, now)).toEqual({ hour: 58, day: 1_438 });
  });
});

describe("entries a day old", () => {
  it("leave both windows at exactly 24 hours, not a millisecond before", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", 100);
    expect(volumeUsed(w, 24 * H - 1)).toEqual({ hour: 0, day: 100 });
    expect(volumeUsed(w, 24 * H)).toEqual({ hour: 0, day: 0 });
  });

  it("leave both windows at once when the clock jumps a day, and the starts stay ordered", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", 100);
    recordVolume(w, 1, "b", 10);
    expect(volumeUsed(w, 48 * H)).toEqual({ hour: 0, day: 0 });
    expect(w.dayStart).toBe(2);
    expect(w.hourStart).toBe(2);
  });

  it("an already released entry leaving the windows is not taken off again", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", 100);
    recordVolume(w, H / 2, "b", 10);
    releaseVolume(w, "a");
    expect(volumeUsed(w, H)).toEqual({ hour: 10, day: 10 });
    expect(volumeUsed(w, 25 * H)).toEqual({ hour: 0, day: 0 });
  });
});

describe("assertVolume", () => {
  const limits = makeContext({ settings: { limits: { payout_hourly_amount: 10, payout_daily_amount: 15 } } }).config.limits;

  it("allows a payout that takes a window exactly to its limit", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", toMinor(6));
    expect(() => assertVolume(w, 0, toMinor(4), limits)).not.toThrow();
    expect(volumeUsed(w, 0)).toEqual({ hour: toMinor(6), day: toMinor(6) }); // checking records nothing
  });

  it("refuses past the hourly limit with HOURLY_LIMIT_EXCEEDED, naming limit and use", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", toMinor(6));
    const err = thrown(() => assertVolume(w, 0, toMinor(4.01), limits));
    expect(err.code).toBe("HOURLY_LIMIT_EXCEEDED");
    expect(err.message).toBe("This payout would exceed the hourly payout limit of NGN 10.00 (NGN 6.00 used).");
  });

  it("refuses past the daily limit with DAILY_LIMIT_EXCEEDED once the hour has room", () => {
    const w = emptyVolume();
    recordVolume(w, 0, "a", toMinor(6));
    recordVolume(w, H, "b", toMinor(6));
    const err = thrown(() => assertVolume(w, 2 * H, toMinor(3.01), limits));
    expect(err.code).toBe("DAILY_LIMIT_EXCEEDED");
    expect(err.message).toBe("This payout would exceed the daily payout limit of NGN 15.00 (NGN 12.00 used).");
    releaseVolume(w, "a"); // a failed payout gives its amount back
    expect(() => assertVolume(w, 2 * H, toMinor(9), limits)).not.toThrow();
  });

  it("names the hourly limit first when both are exceeded", () => {
    expect(thrown(() => assertVolume(emptyVolume(), 0, toMinor(20), limits)).code).toBe("HOURLY_LIMIT_EXCEEDED");
  });
});
