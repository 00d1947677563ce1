import { describe, expect, it } from "vitest";
import { emptyVolume, recordVolume, releaseVolume, volumeUsed } from "../../src/domain/volume.js";

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
