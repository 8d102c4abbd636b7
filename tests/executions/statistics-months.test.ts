import { describe, expect, it } from "vitest";
import { wholeMonths } from "../../src/modules/executions/statistics.repository.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeScene } from "./support.js";

const t = useTestApp();

describe("the whole months of a statistics range", () => {
  it.each([
    ["open on both ends", {}, { from: null, until: null, empty: false }],
    ["starting on the 1st", { from: "2026-03-01", until: "2026-06-01" }, { from: "2026-03-01", until: "2026-06-01", empty: false }],
    ["starting mid-month", { from: "2026-03-15", until: "2026-06-10" }, { from: "2026-04-01", until: "2026-06-01", empty: false }],
    ["inside one month", { from: "2026-03-02", until: "2026-03-20" }, { from: "2026-04-01", until: "2026-03-01", empty: true }],
    ["open start", { until: "2026-06-10" }, { from: null, until: "2026-06-01", empty: false }],
  ])("%s", (_label, range, expected) => {
    const toDate = (day?: string) => (day ? new Date(`${day}T00:00:00.000Z`) : undefined);
    expect(wholeMonths({ from: toDate((range as { from?: string }).from), until: toDate((range as { until?: string }).until) })).toEqual(expected);
  });
});

describe("training statistics across months", () => {
  it("adds whole months from the monthly sums and the range's partial months from the sessions, exactly", async () => {
    const scene = await makeScene(t, { accept: true });
    const { student, trainingA, supino, remada } = scene;
    // One session on the 10th and one on the 25th of January to April 2026; supino weight grows by 2.5 kg a session.
    const sessions: { start: string; supinoKg: number }[] = [];
    for (const [month, days] of [
      ["01", [10, 25]],
      ["02", [10, 25]],
      ["03", [10, 25]],
      ["04", [10, 25]],
    ] as const) {
      for (const day of days) sessions.push({ start: `2026-${month}-${String(day).padStart(2, "0")}T12:00:00Z`, supinoKg: 40 + 2.5 * sessions.length });
    }
    for (const session of sessions) {
      await logTrainingExecution(
        t,
        student.token,
        trainingA.id,
        trainingExecutionBody(session.start, 3600, [
          {
            exerciseId: supino.id,
            sets: [
              { repetitions: 10, weight: session.supinoKg, completed: true },
              { repetitions: 8, completed: true },
            ],
          },
          {
            exerciseId: remada.id,
            sets: [
              { repetitions: 12, weight: 33.75, completed: true },
              { repetitions: 12, weight: 50, completed: false },
            ],
          },
        ]),
      );
    }
    // 2026-01-20 .. 2026-04-12: Jan 25, Feb 10 and 25, Mar 10 and 25, Apr 10 (sessions 1..6).
    const inRange = sessions.slice(1, 7);
    const supinoVolume = inRange.reduce((sum, s) => sum + Math.round(s.supinoKg * 100) * 10, 0) / 100;
    const remadaVolume = (inRange.length * 12 * 3375) / 100;
    const res = await t.get(`/api/trainings/${trainingA.id}/statistics?startDate=2026-01-20&endDate=2026-04-12`, { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalExecutions: 6, completedExecutions: 6, averageDuration: 3600, totalVolume: supinoVolume + remadaVolume });
    expect(res.body.exerciseStatistics).toEqual([
      { exerciseId: remada.id, exerciseName: "Remada curvada", totalSets: 6, totalReps: 72, maxWeight: 33.75, averageWeight: 33.75, totalVolume: remadaVolume },
      {
        exerciseId: supino.id,
        exerciseName: "Supino reto",
        totalSets: 12,
        totalReps: 108,
        maxWeight: inRange[5].supinoKg,
        averageWeight: Math.round((inRange.reduce((sum, s) => sum + s.supinoKg, 0) / 6) * 100) / 100,
        totalVolume: supinoVolume,
      },
    ]);
    expect(res.body.progressData.map((point: { date: string }) => point.date)).toEqual(inRange.map((s) => s.start.slice(0, 10)));

    const all = await t.get(`/api/trainings/${trainingA.id}/statistics`, { token: student.token });
    expect(all.body.totalExecutions).toBe(8);
    expect(all.body.exerciseStatistics.map((row: { totalSets: number }) => row.totalSets)).toEqual([8, 16]);
  });
});
